#!/bin/bash
# Every level's moves with a fixed budget (--playouts N --deterministic, one thread, a
# fixed seed) over GTP, two builds side by side: issue 60's "the behaviour does not
# change". Prints each level and position with the moves of both builds, and the count
# of those that differ. Usage: scripts/same_moves.sh BEFORE_YEOUL AFTER_YEOUL [PLAYOUTS]
set -u
before=${1:?usage: scripts/same_moves.sh BEFORE_YEOUL AFTER_YEOUL [PLAYOUTS]}
after=${2:?usage}
playouts=${3:-500}
sgf=$(cd "$(dirname "$0")/.." && pwd)/tests/data/easy-passed-at-move-200.sgf
differ=0
for level in 18k 17k 16k 15k easy 13k 12k 11k 10k 9k normal 7k 6k 5k 4k 3k hard 1k max; do
  for position in 9x9-empty 13x13-empty 19x19-move-30 19x19-move-120 19x19-move-200; do
    case $position in
      9x9-empty) setup="boardsize 9\nclear_board\n" ;;
      13x13-empty) setup="boardsize 13\nclear_board\n" ;;
      19x19-move-*) setup="loadsgf $sgf ${position##*-}\n" ;;
    esac
    moves() {
      printf "${setup}genmove b\ngenmove w\ngenmove b\ngenmove w\nquit\n" |
        "$1" --level $level --threads 1 --playouts "$playouts" --deterministic --seed 17 \
          2>/dev/null | grep '^= [A-Tp]' | cut -c3- | tr '\n' ' '
    }
    a=$(moves "$before"); b=$(moves "$after")
    mark=same; [ "$a" != "$b" ] && { mark=DIFFERENT; differ=$((differ + 1)); }
    echo "$level $position: $a| $b $mark"
  done
done
echo "positions with different moves: $differ"
