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
python3 "$(dirname "$0")/round_ratios.py" "$runs"
rm -f "$runs"
