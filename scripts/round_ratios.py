#!/usr/bin/env python3
"""The summary of two builds timed round by round: reads lines `ROUND BUILD WHAT RATE`
(BUILD `before` or `after`) from the file given, and prints for each WHAT the medians of
each build, their ratio, and the median and range of the per-round ratios (each round
runs both builds back to back, so its ratio is less exposed to the machine's drift).
Used by scripts/before_after.sh and scripts/level_speed.sh."""
import collections
import statistics
import sys

runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, build, what, rate = line.split()
    runs[what].setdefault(build, {})[r] = float(rate)
print(f"{'playouts/s (medians)':32} {'before':>8} {'after':>8} {'ratio':>6}   per-round ratios: median (range)")
for what, builds in runs.items():
    b, a = builds["before"], builds["after"]
    per_round = sorted(a[r] / b[r] for r in b if r in a and b[r] > 0)
    mb, ma = statistics.median(b.values()), statistics.median(a.values())
    print(f"{what:32} {mb:8.0f} {ma:8.0f} {ma / mb:6.2f}   "
          f"{statistics.median(per_round):.2f} ({per_round[0]:.2f}-{per_round[-1]:.2f})")
