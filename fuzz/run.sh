#!/usr/bin/env bash
# Runs one fuzz target for SECONDS (default 3600) on one core, going on past findings
# (each saved under fuzz/artifacts/TARGET/). Usage: bash fuzz/run.sh TARGET [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-3600}
[ -d corpus/$target ] || bash seed.sh
exec cargo +nightly fuzz run -O -a "$target" -- \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
