#!/bin/bash
# yeoul with a seed of its own for every process and its -v log kept, for matches that
# start a process a game (gtpkit.py match): YEOUL (default: yeoul on PATH) and LOGS (a
# folder, default ./logs) from the environment; the log is named by the arguments and pid.
# Usage: LOGS=logs scripts/yseed_log.sh --level easy --threads 1
logs=${LOGS:-logs}
mkdir -p "$logs"
exec "${YEOUL:-yeoul}" --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" -v "$@" \
    2>>"$logs/$(echo "$*" | tr -c 'a-zA-Z0-9' '_').$$.log"
