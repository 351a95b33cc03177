#!/bin/bash
# What the policy network costs the search, and what it gets: playouts, network
# evaluations and queue drops per move, with and without the network (issue 35). Each
# setting answers genmove at moves 20, 60, 120 and 180 of each SGF game given.
# Usage: scripts/network_cost.sh GAME.sgf... (a release build in target/release)
# Settings: "NAME|ENGINE OPTIONS" lines in $SETTINGS (default below).
set -eu
cd "$(dirname "$0")/.."
settings=${SETTINGS:-"max|--level max
max, network in the worker|--level max --net-inline
max, one worker thread|--level max --threads 1
max without the network|--level max --no-net
hard|--level hard"}
printf '| setting | moves | playouts/move | playouts/s | evaluations/move | dropped/move | s/move |\n|---|---|---|---|---|---|---|\n'
while IFS='|' read -r name options; do
  input=""
  for game in "$@"; do
    for move in 20 60 120 180; do
      input+="loadsgf $game $move"$'\n'"genmove_stats"$'\n'
    done
  done
  # loadsgf GAME N stops before move N: with N even, White is to move.
  input=${input//genmove_stats/reg_genmove w$'\n'yeoul-stats}
  # shellcheck disable=SC2086
  printf '%s' "$input" | target/release/yeoul $options 2>/dev/null | grep '^= {' | sed 's/^= //' |
    python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
n = len(rows)
mean = lambda k: sum(r.get(k, 0) for r in rows) / max(n, 1)
pps = sum(r["playouts"] for r in rows) / max(sum(r["time_ms"] for r in rows) / 1000, 1e-9)
cells = [sys.argv[1], n, round(mean("playouts")), round(pps), round(mean("network_evaluations")),
         round(mean("network_dropped"), 1), round(mean("time_ms") / 1000, 2)]
print("| " + " | ".join(str(c) for c in cells) + " |")
' "$name"
done <<< "$settings"
