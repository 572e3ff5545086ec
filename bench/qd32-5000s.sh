#!/usr/bin/env bash
# A simulated 5,000-s QD32 random-write run (seed 003's test) streamed through the whole pipeline on this
# machine: embedded broker + registry, the analytics with a 512 MiB heap cap, the simulator as fast as it
# goes. Reports: I/Os simulated vs in the topic (runs verify), the analytics' peak heap (jstat samples),
# state-store size, bytes stored per I/O event in ssdpulse.io.v1 against fio's text log for as many I/Os.
# Usage: bench/qd32-5000s.sh [SSD_PRESET] [WORK_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
ssd="${1:-sata-mlc-120gb-2012}"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
export SSDPULSE_BOOTSTRAP_SERVERS=127.0.0.1:19092 SSDPULSE_SCHEMA_REGISTRY_URL=http://127.0.0.1:18081
"$here/ssdpulse" stack --data-dir "$work/kafka" --kafka-port 19092 --registry-port 18081 --exit-after 3h > "$work/stack.log" 2>&1 &
stack=$!
trap 'kill $stack $streams 2>/dev/null || true' EXIT
until grep -q "Press Ctrl-C\|Stopping after" "$work/stack.log"; do sleep 1; done
SSDPULSE_JAVA_OPTS=-Xmx512m "$here/ssdpulse" streams --state-dir "$work/state" --http-port -1 --exit-after 3h > "$work/streams.log" 2>&1 &
streams=$!
until grep -q "analytics running" "$work/streams.log"; do sleep 1; done
spid=$(pgrep -f "dev.ssdpulse.cli.Main streams" | head -1)
jstat -gc "$spid" 2000 > "$work/jstat.log" &
jstat_pid=$!
run="qd32-5000s-$(date +%s)"
/usr/bin/time -v "$here/ssdpulse" simulate --ssd "$ssd" --workload seed003-qd32-random-write-5000s --run-id "$run" \
    > "$work/simulate.log" 2> "$work/simulate.err"
tail -1 "$work/simulate.log"
# wait for the analytics to finish the run
for i in $(seq 1 600); do
  "$here/ssdpulse" report --run "$run" --format json > "$work/summary.json" 2>/dev/null && break
  sleep 2
done
kill $jstat_pid 2>/dev/null || true
"$here/ssdpulse" runs verify --run "$run" | tee "$work/verify.txt"
ios=$(python3 -c "import json;print(json.load(open('$work/summary.json'))['ioCount'])")
# segment (.log) files only: Kafka preallocates 10 MB .index/.timeindex files per partition, which `du` of the
# partition directories counted (the first report of this script gave 17.33 B per I/O instead of 6.78)
io_bytes=$(find "$work/kafka" -path '*ssdpulse.io.v1-*' -name '*.log' -printf '%s\n' | awk '{s+=$1} END {print s}')
state_bytes=$(du -sb "$work/state" | awk '{print $1}')
peak_heap=$(awk 'NR>1 && $1 ~ /^[0-9.]+$/ {u=$3+$4+$6+$8; if (u>m) m=u} END {printf "%.0f", m/1024}' "$work/jstat.log")
python3 - "$ios" "$io_bytes" "$state_bytes" "$peak_heap" <<'PY'
import sys
ios, io_bytes, state, heap = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# fio 3.x clat log line for a 4 KiB random write at QD32, e.g. "123456, 183251, 1, 4096, 98765430272, 0\n"
fio_line = len("1234567, 1832510, 1, 4096, 98765430272, 0\n")
print(f"I/Os: {ios:,}")
print(f"ssdpulse.io.v1 on disk: {io_bytes:,} bytes = {io_bytes / ios:.2f} bytes per I/O event (lz4, 512-I/O batches)")
print(f"fio clat log for as many I/Os: ~{fio_line * ios:,} bytes ({fio_line} bytes per line)")
print(f"analytics state dir: {state / 2**20:.1f} MiB; analytics peak heap used: {heap} MiB (-Xmx512m)")
PY
echo "work dir: $work"
