#!/bin/bash
# Heavy playouts and full search, one thread, two builds interleaved (issue 13's "before
# and after in one run"). Each DIR is a release directory holding `yeoul` and
# `examples/search_once` (cargo build --release --bin yeoul --example search_once).
# When both also hold `examples/heavy_fixed`, it is timed too: every build since b7a0212
# plays the same moves there, so it compares the builds on the same work (for an older
# checkout, copy examples/heavy_fixed.rs into it before building).
# Usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]
# Prints, for each measurement, the medians of each build, their ratio, and the median
# and range of the per-round ratios (each round runs both builds back to back, so its
# ratio is less exposed to the machine's drift).
set -u
before=${1:?usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]}
after=${2:?usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]}
rounds=${3:-5}
same_work=false
[ -x "$before/examples/heavy_fixed" ] && [ -x "$after/examples/heavy_fixed" ] && same_work=true
runs=$(mktemp)
for r in $(seq "$rounds"); do
  for build in before after; do
    dir=$before; [ $build = after ] && dir=$after
    "$dir/yeoul" bench --threads 1 --seconds 2 --policies heavy 2>&1 |
      awk -v b=$build -v r="$r" '/^heavy/ {print r, b, "heavy-" $2 "-" $3, $5}' >> "$runs"
    if $same_work; then
      for cfg in "9 30000" "19 3000"; do
        pps=$("$dir/examples/heavy_fixed" $cfg 2>&1 | grep -o '= [0-9]*/s' | tr -dc 0-9)
        echo "$r $build heavy-same-work-${cfg%% *}x${cfg%% *} $pps" >> "$runs"
      done
    fi
    for cfg in "9 20000" "19 5000"; do
      pps=$("$dir/examples/search_once" $cfg 1 2>&1 | grep -o '= [0-9]*/s' | tr -dc 0-9)
      echo "$r $build search-${cfg%% *}x${cfg%% *}-${cfg##* } $pps" >> "$runs"
    done
  done
done
python3 - "$runs" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, build, what, pps = line.split()
    runs[what].setdefault(build, {})[r] = int(pps)
print(f"{'playouts/s (medians)':32} {'before':>8} {'after':>8} {'ratio':>6}   per-round ratios: median (range)")
for what, builds in runs.items():
    b, a = builds['before'], builds['after']
    per_round = sorted(a[r] / b[r] for r in b if r in a and b[r] > 0)
    mb, ma = statistics.median(b.values()), statistics.median(a.values())
    print(f"{what:32} {mb:8.0f} {ma:8.0f} {ma / mb:6.2f}   "
          f"{statistics.median(per_round):.2f} ({per_round[0]:.2f}-{per_round[-1]:.2f})")
PY
rm -f "$runs"
