#!/bin/bash
# Playouts per second of one thread in genmove, with and without learned knowledge.
# Usage: scripts/search_cost.sh target/release/yeoul GAME.sgf  (prints: run, move, priors, pps, nodes)
Y=$1; F=$2
for rep in 1 2 3; do
  for move in 1 80 160; do
    for mode in hand learned learned-playouts; do
      case $mode in
        hand) opts="--hand-priors";; learned) opts="";; learned-playouts) opts="--learned-playouts";;
      esac
      stats=$(printf "loadsgf $F $move\ngenmove $( [ $((move % 2)) = 1 ] && echo b || echo w)\nyeoul-stats\nquit\n" \
        | $Y --playouts 8000 --threads 1 --no-resign $opts 2>/dev/null | grep playouts)
      pps=$(echo "$stats" | grep -o '"pps":[0-9]*' | cut -d: -f2)
      nodes=$(echo "$stats" | grep -o '"nodes":[0-9]*' | cut -d: -f2)
      echo "$rep $move $mode $pps $nodes"
    done
  done
done
