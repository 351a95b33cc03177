#!/bin/bash
# The reliability soak: 1,000 games through the real gogui-twogtp and through `yeoul match`
# clocks, on 9x9, 13x13 and 19x19, at every level, under Chinese and Japanese rules, against
# GNU Go and against yeoul itself. Every game's SGF and log stays in OUT_DIR; then
# scripts/soak_report.py OUT_DIR counts crashes, hangs, illegal moves, malformed answers,
# losses on time and games that did not end with two passes or a resignation.
#
# Usage: scripts/soak.sh OUT_DIR [LEG ...]      (no LEG: every leg, in order)
#   YEOUL   the engine (default: target/release/yeoul; build it with cargo build --release)
#   GNUGO   GNU Go (default: gnugo on the PATH, else /usr/games/gnugo)
#   TWOGTP  gogui-twogtp.jar from GoGui (github.com/Remi-Coulom/gogui:
#           ant -Ddoc-uptodate=true gogui-twogtp.jar), needed by the twogtp legs
#   THREADS threads per engine (default 1, so that two legs can run side by side and
#           each engine sees a loaded machine)
#   SCALE   percent of each leg's games to play (default 100; 2 gives a quick smoke run)
#   BUSY    busy loops to run beside the games (default 0; 1 keeps another core busy, for
#           the clocks on a loaded machine)
#   DELAY   seconds `yeoul match` adds to every move's time on the clock, as a server's
#           round trip does (default 0; the match legs only: checks --lag)
# A twogtp leg that is run again resumes where its result file stopped; a `yeoul match`
# leg starts again from its first game.
set -u
out=${1:?usage: scripts/soak.sh OUT_DIR [LEG ...]}
shift
YEOUL=$(realpath "${YEOUL:-target/release/yeoul}")
GNUGO=${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}
TWOGTP=${TWOGTP:-gogui-twogtp.jar}
THREADS=${THREADS:-1}
SCALE=${SCALE:-100}
BUSY=${BUSY:-0}
DELAY=${DELAY:-0}

# leg driver size level  rules    opponent      clock (seconds)   games
LEGS="
a  twogtp  9   easy    chinese  gnugo:1       none              200
b  twogtp  9   normal  japanese gnugo:5       none              100
c  twogtp  13  easy    chinese  yeoul:easy    none              100
d  twogtp  9   normal  chinese  yeoul:easy    absolute:60       100
e  twogtp  19  easy    japanese gnugo:1       none               40
f  match   9   easy    chinese  yeoul:easy    byoyomi:0:20:3    100
g  match   13  normal  japanese gnugo:5       byoyomi:0:30:3     50
h  match   19  hard    chinese  gnugo:10      byoyomi:0:60:3     10
i  match   9   easy    chinese  yeoul:normal  canadian:0:1:1    150
j  match   19  normal  japanese yeoul:easy    absolute:60        50
k  match   9   hard    chinese  gnugo:10      absolute:60       100
"

[ -x "$YEOUL" ] || { echo "soak: no engine at $YEOUL (cargo build --release)" >&2; exit 2; }
[ -x "$GNUGO" ] || { echo "soak: GNU Go not found (apt-get install gnugo)" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(realpath "$out")

engine() { # LEVEL RULES -> a yeoul command line
  echo "$YEOUL --level $1 --rules $2 --threads $THREADS"
}
gnugo() { # LEVEL RULES -> a GNU Go command line
  echo "$GNUGO --mode gtp --level $1 --$2-rules"
}
referee() { # RULES -> GNU Go at its default level, as the referee
  echo "$GNUGO --mode gtp --$1-rules"
}
opponent() { # SPEC RULES
  case $1 in
    gnugo:*) gnugo "${1#gnugo:}" "$2" ;;
    yeoul:*) engine "${1#yeoul:}" "$2" ;;
  esac
}
komi() { [ "$1" = japanese ] && echo 6.5 || echo 7.5; }
# A leg that runs past this many seconds a game has hung (the report counts it).
limit() { case $1 in 9) echo $(( $2 * 300 ));; 13) echo $(( $2 * 900 ));; *) echo $(( $2 * 2400 ));; esac; }

run_leg() { # LEG DRIVER SIZE LEVEL RULES OPPONENT CLOCK GAMES
  local leg=$1 driver=$2 size=$3 level=$4 rules=$5 opp=$6 clock=$7 games=$8
  games=$(( (games * SCALE + 99) / 100 ))
  local dir="$out/leg-$leg"
  mkdir -p "$dir"
  printf "%s\n" "$driver $size $level $rules $opp $clock $games" "threads=$THREADS busy=$BUSY delay=$DELAY" > "$dir/leg"
  echo "soak: leg $leg: $driver, ${size}x$size, $level, $rules, against $opp, clock $clock, $games games" >&2
  local started=$SECONDS rc
  case $driver in
    twogtp)
      [ -f "$TWOGTP" ] || { echo "soak: no gogui-twogtp.jar at $TWOGTP" >&2; return 2; }
      local time=()
      case $clock in
        none) ;;
        absolute:*) time=(-time "${clock#absolute:}s") ;;
        *) echo "soak: twogtp legs take none or absolute:SECONDS" >&2; return 2 ;;
      esac
      timeout "$(limit "$size" "$games")" java -jar "$TWOGTP" -auto -alternate \
        -games "$games" -size "$size" -komi "$(komi "$rules")" "${time[@]}" \
        -black "$(engine "$level" "$rules")" -white "$(opponent "$opp" "$rules")" \
        -referee "$(referee "$rules")" -sgffile "$dir/game" 2> "$dir/twogtp.err"
      rc=$? ;;
    match)
      timeout "$(limit "$size" "$games")" "$YEOUL" --level "$level" --threads "$THREADS" \
        --seed "$(printf '%d' "'$leg")" match --size "$size" --games "$games" \
        --rules "$rules" --komi "$(komi "$rules")" --clock "$clock" --network-delay "$DELAY" \
        --opponent "$(opponent "$opp" "$rules")" --referee "$(referee "$rules")" \
        --sgf-dir "$dir" > "$dir/match.out" 2> "$dir/match.err"
      rc=$? ;;
  esac
  echo "$rc $(( SECONDS - started ))" > "$dir/exit"
  [ "$rc" = 124 ] && echo "soak: leg $leg ran past its time limit: a hang" >&2
  return 0
}

for _ in $(seq "$BUSY"); do
  ( while :; do :; done ) &
done
trap 'kill $(jobs -p) 2>/dev/null' EXIT

wanted=" $* "
while read -r leg driver size level rules opp clock games; do
  [ -z "$leg" ] && continue
  if [ $# -eq 0 ] || [[ $wanted == *" $leg "* ]]; then
    run_leg "$leg" "$driver" "$size" "$level" "$rules" "$opp" "$clock" "$games"
  fi
done <<< "$LEGS"
echo "soak: done; scripts/soak_report.py $out" >&2
