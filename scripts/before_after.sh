#!/bin/bash
# Heavy playouts and full search, one thread, two builds interleaved (issue 13's "before
# and after in one run"). Each DIR is a release directory holding `yeoul` and
# `examples/search_once` (cargo build --release --bin yeoul --example search_once).
# Usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]
# Prints the medians of each measurement and after / before.
set -u
before=${1:?usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]}
after=${2:?usage: scripts/before_after.sh BEFORE_DIR AFTER_DIR [ROUNDS]}
rounds=${3:-5}
runs=$(mktemp)
for r in $(seq "$rounds"); do
  for build in before after; do
    dir=$before; [ $build = after ] && dir=$after
    "$dir/yeoul" bench --threads 1 --seconds 2 --policies heavy 2>&1 |
      awk -v b=$build '/^heavy/ {print b, "heavy-" $2 "-" $3, $5}' >> "$runs"
    for cfg in "9 20000" "19 5000"; do
      pps=$("$dir/examples/search_once" $cfg 1 2>&1 | grep -o '= [0-9]*/s' | tr -dc 0-9)
      echo "$build search-${cfg%% *}x${cfg%% *}-${cfg##* } $pps" >> "$runs"
    done
  done
done
python3 - "$runs" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build, what, pps = line.split()
    runs[(what, build)].append(int(pps))
print(f"{'playouts/s (medians)':32} {'before':>8} {'after':>8} {'ratio':>6}")
for what in dict.fromkeys(w for w, _ in runs):
    b, a = statistics.median(runs[(what, 'before')]), statistics.median(runs[(what, 'after')])
    print(f"{what:32} {b:8.0f} {a:8.0f} {a / b:6.2f}")
PY
rm -f "$runs"
