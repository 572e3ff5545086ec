#!/usr/bin/env bash
# What streaming a device run to Kafka costs the producer process, per I/O, against the same run analysed offline:
# rounds of `device ... --offline` and `device ...` streamed to a local `stack` (same cores), each streamed with the
# producer's default linger and with the linger given, alternating so a shared machine's drifts hit every variant.
# For each: IOPS of the test phase, the process's CPU per I/O (the command's own `process CPU .. us/IO` line), and
# per thread (from /proc over 15 s of the test phase): the I/O thread, Kafka's network thread, ssdpulse's publisher.
#
# Usage: bench/publish-cost.sh [ROUNDS=3] [OTHER_LINGER_MS=10]
# Env:   TARGET=/tmp/ssdpulse-publish-cost.bin (a 2 GiB file, created by the first run)
# Needs: Linux (/proc), python3; the launcher builds the project on first use.
set -euo pipefail
ROUNDS=${1:-3}
OTHER_LINGER_MS=${2:-10}
TARGET=${TARGET:-/tmp/ssdpulse-publish-cost.bin}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
./ssdpulse --version >/dev/null
WORK=$(mktemp -d)
KAFKA_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
REGISTRY_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./ssdpulse stack --ephemeral --kafka-port "$KAFKA_PORT" --registry-port "$REGISTRY_PORT" >"$WORK/stack.log" 2>&1 &
STACK=$!
trap 'kill $STACK 2>/dev/null; wait $STACK 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 120); do grep -q "Press Ctrl-C" "$WORK/stack.log" && break; sleep 0.5; done
grep -q "Press Ctrl-C" "$WORK/stack.log" || { cat "$WORK/stack.log" >&2; exit 1; }

# every thread of PID: tid, user+sys CPU ticks, name (comm, 15 characters); one python process, so the snapshot is quick
threads() {
  python3 - "$1" <<'PY'
import os, sys
for tid in os.listdir(f"/proc/{sys.argv[1]}/task"):
    try:
        stat = open(f"/proc/{sys.argv[1]}/task/{tid}/stat").read()
    except OSError:
        continue  # the thread ended
    comm = stat[stat.index("(") + 1:stat.rindex(")")]
    f = stat[stat.rindex(")") + 2:].split()
    print(tid, int(f[11]) + int(f[12]), comm.replace(" ", "_"))
PY
}

run() { # label, device args...
  local label=$1; shift
  local log="$WORK/$label.log"
  ./ssdpulse device --target "$TARGET" --size 2GiB --workload seed003-qd32-random-read-5000s \
      --set preconditionPercent=20 -d 25s "$@" >"$log" 2>&1 &
  local launcher=$!
  for _ in $(seq 1 240); do grep -q "\] test " "$log" && break; sleep 0.25; done
  local pid
  pid=$(pgrep -f "dev.ssdpulse.cli.Main device --target $TARGET" | head -1)
  sleep 3
  threads "$pid" >"$WORK/a"; sleep 15; threads "$pid" >"$WORK/b"
  wait $launcher
  python3 - "$label" "$log" "$WORK/a" "$WORK/b" "$(getconf CLK_TCK)" <<'PY'
import re, sys
label, log, a, b, hz = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
m = re.search(r"phase 2 'test' ended .*?(\d+) IOPS.*?process CPU ([\d.]+) us/IO", open(log).read())
iops, cpu = int(m.group(1)), float(m.group(2))
before = {l.split()[0]: int(l.split()[1]) for l in open(a)}
per = {}
for l in open(b):
    tid, ticks, name = l.split()
    key = "io" if name.startswith("ssdpulse-io") else "net" if name.startswith("kafka-producer") \
        else "publisher" if name.startswith("ssdpulse-publis") else None
    if key and tid in before:
        per[key] = per.get(key, 0) + (int(ticks) - before[tid]) / hz
ios = iops * 15
print(f"{label:<22} IOPS {iops:>7,}  process {cpu:5.2f} us/IO  io thread {per.get('io', 0) * 1e6 / ios:5.2f}"
      f"  network {per.get('net', 0) * 1e6 / ios:5.2f}  publisher {per.get('publisher', 0) * 1e6 / ios:5.2f} us/IO")
PY
}

KAFKA=(--bootstrap-servers "127.0.0.1:$KAFKA_PORT" --schema-registry-url "http://127.0.0.1:$REGISTRY_PORT")
echo "$(date -u '+%F %H:%M') UTC, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  run "offline" --offline
  run "streamed linger ${OTHER_LINGER_MS} ms" "${KAFKA[@]}" -X "linger.ms=$OTHER_LINGER_MS"
  run "streamed (default)" "${KAFKA[@]}"
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
