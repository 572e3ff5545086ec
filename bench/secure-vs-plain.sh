#!/usr/bin/env bash
# What `stack --secure` costs against the plain stack, side by side, alternating in each round: the first start on a
# fresh data directory (format; for --secure also certificates, SCRAM users, ACLs), a restart on it, and one
# simulated run streamed through it (tiny-test drive, seed 001's continuous write, the same deterministic events each
# time: the difference is TLS and SASL on the producer's and the registry's connections).
# Usage: bench/secure-vs-plain.sh [ROUNDS] [WORK_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-2}"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
start_stack() { # data dir, log, extra args...
  local dir=$1 log=$2; shift 2
  "$here/ssdpulse" stack --data-dir "$dir" --kafka-port 0 --registry-port 0 --broker-heap-mb 256 "$@" > "$log" 2>&1 &
  stack=$!
  until grep -q "Press Ctrl-C\|Stopping after\|^error" "$log"; do sleep 0.5; done
}
started_in() { grep -o "started in [0-9.]* s" "$1" | awk '{print $3}'; }
# SIGTERM: a background job of a non-interactive shell ignores SIGINT
stop_stack() { kill -TERM "$stack"; wait "$stack" || true; }
printf '%-6s %-7s %12s %12s %14s %10s\n' round mode "first start" "restart" "simulate wall" "I/Os"
for round in $(seq 1 "$rounds"); do
  for mode in plain secure; do
    dir="$work/$mode-$round"; args=(--exit-after 3h); [ "$mode" = secure ] && args+=(--secure)
    start_stack "$dir" "$work/$mode-$round-a.log" "${args[@]}"
    first=$(started_in "$work/$mode-$round-a.log")
    bootstrap=$(grep -o "bootstrap servers : [^ ]*" "$work/$mode-$round-a.log" | awk '{print $4}')
    registry=$(grep -o "schema registry   : [^ ]*" "$work/$mode-$round-a.log" | awk '{print $4}')
    if [ "$mode" = secure ]; then client=(--kafka-config "$dir/secure/producer.properties");
    else client=(--bootstrap-servers "$bootstrap" --schema-registry-url "$registry"); fi
    t0=$(date +%s.%N)
    out=$("$here/ssdpulse" simulate --ssd tiny-test --workload seed001-tweakers-continuous --duration 120s --set targetSize=100MB \
          --quiet "${client[@]}" 2>&1)
    t1=$(date +%s.%N)
    ios=$(echo "$out" | grep -o "[0-9,]* I/Os" | head -1 | awk '{print $1}')
    stop_stack
    start_stack "$dir" "$work/$mode-$round-b.log" "${args[@]}"
    again=$(started_in "$work/$mode-$round-b.log")
    stop_stack
    printf '%-6s %-7s %10s s %10s s %12.1f s %10s\n' "$round" "$mode" "$first" "$again" "$(echo "$t1 - $t0" | bc)" "$ios"
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
