#!/usr/bin/env bash
# Stored bytes per I/O event in ssdpulse.io.v1 for the same simulated run published with different producer
# compression settings (the broker keeps the producer's compressed batches as they are). The run is seed 003's
# 5,000-s QD32 random write (after purge and a 2x-capacity sequential precondition) on the simulated 2012 SATA
# drive; the simulator is deterministic, so every setting stores exactly the same events.
# Usage: bench/io-footprint.sh [SSD_PRESET] [WORK_DIR]   (no analytics needed: only the raw topic is measured)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ssd="${1:-sata-mlc-120gb-2012}"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
export SSDPULSE_BOOTSTRAP_SERVERS=127.0.0.1:19192 SSDPULSE_SCHEMA_REGISTRY_URL=http://127.0.0.1:18181
"$here/ssdpulse" stack --data-dir "$work/kafka" --kafka-port 19192 --registry-port 18181 --exit-after 3h > "$work/stack.log" 2>&1 &
stack=$!
trap 'kill $stack 2>/dev/null || true' EXIT
until grep -q "Press Ctrl-C\|Stopping after" "$work/stack.log"; do sleep 1; done
io_bytes() { find "$work/kafka" -path '*ssdpulse.io.v1-*' -name '*.log' -printf '%s\n' | awk '{s+=$1} END {print s+0}'; }
fio_line=$(printf '1234567, 1832510, 1, 4096, 98765430272, 0\n' | wc -c)
printf '%-34s %12s %14s %10s %8s\n' "producer compression" "I/Os" "bytes stored" "B per I/O" "wall s"
for setting in "lz4" "zstd" "zstd:9"; do
  codec=${setting%%:*}; level=${setting#*:}
  args=(-X "compression.type=$codec")
  [ "$level" != "$setting" ] && args+=(-X "compression.zstd.level=$level")
  before=$(io_bytes)
  run="footprint-${codec}${level/$setting/}-$(date +%s)"
  start=$(date +%s)
  "$here/ssdpulse" simulate --ssd "$ssd" --workload seed003-qd32-random-write-5000s --run-id "$run" "${args[@]}" \
      > "$work/$run.log" 2>&1
  wall=$(( $(date +%s) - start ))
  after=$(io_bytes)
  ios=$(grep -o '[0-9,]* I/Os' "$work/$run.log" | tail -1 | tr -d ', I/Os')
  python3 -c "import sys; b=int(sys.argv[2]); n=int(sys.argv[1]); print(f'{sys.argv[3]:<34} {n:>12,} {b:>14,} {b/n:>10.2f} {sys.argv[4]:>8}')" \
      "$ios" "$((after - before))" "$setting" "$wall"
done
echo "fio's text clat log: ${fio_line} bytes per line; work dir: $work"
