# sums ncu --csv gpu__time_duration per kernel name: name, launches, total ms
import csv, sys, re, collections
tot = collections.defaultdict(float); cnt = collections.Counter()
rows = [l for l in open(sys.argv[1], errors="replace") if l.startswith('"')]
for r in csv.DictReader(rows):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    name = r["Kernel Name"]
    name = re.sub(r"<.*", "", name.split("(")[0]).strip()
    unit = r.get("Metric Unit", "ns"); v = float(r["Metric Value"].replace(",", ""))
    ms = v / 1e6 if unit in ("ns", "nsecond") else v / 1e3 if unit in ("us", "usecond") else v if unit in ("ms", "msecond") else v * 1e3
    tot[name] += ms; cnt[name] += 1
print("%-60s %8s %10s" % (sys.argv[2], "launches", "ms"))
for k, v in sorted(tot.items(), key=lambda x: -x[1]):
    print("%-60s %8d %10.1f" % (k[:60], cnt[k], v))
print("%-60s %8d %10.1f" % ("TOTAL", sum(cnt.values()), sum(tot.values())))
