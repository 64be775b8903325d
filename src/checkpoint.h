/*
 * checkpoint.h - durable progress of one count, so that a killed job
 * resumes where it stopped (--checkpoint).
 *
 * A checkpoint names its graph (the header checksum of a .tsg file, or a
 * checksum of the lists of a graph built in memory) and the counting
 * options that decide the units (main.c's options key). Then, in order:
 * the plan (the number of units and a key over every unit's definition:
 * block bounds, LSTC parts, arrival batches), each unit's count as it
 * completes, and the total once the graph is done. A unit's count depends
 * only on the graph and the unit's definition, so a rerun whose graph,
 * options and plan match adds recorded counts for recorded units and
 * counts the rest: the same total. Any mismatch is an error, never a sum.
 *
 * File (little-endian): a 64-byte header, written whole before it gets its
 * name: "TSGCKPT1", graph key, options key, 24 reserved bytes, and an XXH3
 * of the 56 bytes before it. Then 32-byte records, each appended with one
 * write and made durable (fdatasync) before the run goes on: type, index,
 * two values, and an XXH3 of the 24 bytes before it xor the header's. A
 * unit's record carries, as its second value, a key of the plan and its
 * index: a record moved to another index with its checksum recomputed is
 * refused (a forger who recomputes that key too is not: nothing written
 * in the file can stop one; a checkpoint made before this rule is refused,
 * and a rerun starts over once it is removed).
 * An incomplete last record (a crash while appending) is dropped and said
 * so; any other damage is TSG_EINPUT, and so are records that do not add
 * up: a unit recorded twice or past the plan, a record after the total, a
 * total that is not the sum of the units (check_sums in checkpoint.c says
 * what cannot be found). A checkpoint in use by another run (flock) is
 * refused.
 */
#ifndef TSG_CHECKPOINT_H
#define TSG_CHECKPOINT_H

#include <stdint.h>

#include "base/error.h"

struct ckpt;

struct ckpt_info {
	int created;        /* no checkpoint was there: a fresh start */
	int torn;           /* an incomplete last record was dropped */
	uint32_t resumed;   /* units taken from the checkpoint so far */
	uint32_t recorded;  /* units this run recorded */
};

/* Opens path (creating it if absent) for a run over graph graph_key with
 * options opts_key. TSG_EUSAGE if it was made for another graph or other
 * options, TSG_EINPUT if damaged, TSG_EIO if it cannot be written. */
int ckpt_open(const char *path, uint64_t graph_key, uint64_t opts_key, struct ckpt **out,
	      struct tsg_err *err);
void ckpt_close(struct ckpt *c);

/* Whether a previous run of one process finished the graph (*finished),
 * and *total its count: TSG_EINPUT if the file has the total but not every
 * unit's count (a rank's file under mpirun holds only its own units: not
 * for them). */
int ckpt_finished(const struct ckpt *c, int *finished, uint64_t *total, struct tsg_err *err);

/* States the plan: recorded if new; else it must be the recorded one
 * (TSG_EUSAGE, with a hint, if not). */
int ckpt_plan(struct ckpt *c, uint64_t plan_key, uint32_t nunits, struct tsg_err *err);
/* Whether unit k is recorded; *count its triangles. Counts it as resumed. */
int ckpt_take(struct ckpt *c, uint32_t k, uint64_t *count);
/* Whether unit k is recorded, and its count, without taking it (a
 * layout that must know several units before it resumes any). */
int ckpt_peek(const struct ckpt *c, uint32_t k, uint64_t *count);
/* Records unit k durably. */
int ckpt_record(struct ckpt *c, uint32_t k, uint64_t count, struct tsg_err *err);
/* Records that the graph is done, with its total. */
int ckpt_finish(struct ckpt *c, uint64_t total, struct tsg_err *err);
/* The same for a plan whose units are not all used (src/sweep.h: its unit
 * space holds every pass it could take): the total names how many units
 * were recorded, and a later run checks that they are there and add up
 * to it. */
int ckpt_finish_recorded(struct ckpt *c, uint64_t total, struct tsg_err *err);

const struct ckpt_info *ckpt_info(const struct ckpt *c);

/* A key over n 64-bit words (plans and options are hashed through it). */
uint64_t ckpt_key(const uint64_t *w, uint64_t n, uint64_t seed);

#endif
