#!/bin/bash
# The full search's playouts a second of a level (one genmove over GTP, `yeoul-stats`'
# pps), two builds interleaved round by round: issue 60's "within noise, side by side".
# Usage: scripts/level_speed.sh BEFORE_YEOUL AFTER_YEOUL [ROUNDS] [THREADS]
# Positions: the empty 19x19 board and move 100 of tests/data/easy-passed-at-move-200.sgf.
set -u
before=${1:?usage: scripts/level_speed.sh BEFORE_YEOUL AFTER_YEOUL [ROUNDS] [THREADS]}
after=${2:?usage}
rounds=${3:-5}
threads=${4:-1}
sgf=$(cd "$(dirname "$0")/.." && pwd)/tests/data/easy-passed-at-move-200.sgf
runs=$(mktemp)
for r in $(seq "$rounds"); do
  for level in hard max; do
    for position in empty move-100; do
      setup="boardsize 19\nclear_board\n"
      [ $position = move-100 ] && setup="loadsgf $sgf 100\n"
      for build in before after; do
        bin=$before; [ $build = after ] && bin=$after
        pps=$(printf "${setup}genmove b\nyeoul-stats\nquit\n" |
          "$bin" --level $level --threads "$threads" --seed "$r" 2>/dev/null |
          grep -o '"pps":[0-9]*' | tr -dc 0-9)
        echo "$r $build $level-$position $pps" >> "$runs"
      done
    done
  done
done
python3 "$(dirname "$0")/round_ratios.py" "$runs"
rm -f "$runs"
