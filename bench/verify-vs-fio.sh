#!/usr/bin/env bash
# The read-back of `ssdpulse verify` against the device's own read rate for the same pattern: a stamped run fills a
# span of a file target (sequential 1 MiB writes), then ROUNDS rounds alternate `verify` (1 MiB reads, 16 in
# flight, libaio, O_DIRECT, every unit inspected and classified) and fio reading the same span with the same
# pattern (--rw=read --bs=1M --iodepth=16 --ioengine=libaio --direct=1), each first in every other round. verify's
# rate is its record's readBytes / readNs (the read-back with the classification, without Kafka's passes over the
# log); fio's its read bandwidth. Prints each round and the medians; the bound is verify >= 0.9 x fio.
#
# Usage: bench/verify-vs-fio.sh [SPAN_GIB=4] [ROUNDS=5]
# Env:   FILE=/var/tmp/ssdpulse-verify-bench.dat (on the disk to measure; created and removed)
# Needs: fio, python3; an ssdpulse stack is started here on free ports and stopped at the end.
set -euo pipefail
SPAN_GIB=${1:-4}
ROUNDS=${2:-5}
FILE=${FILE:-/var/tmp/ssdpulse-verify-bench.dat}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
command -v fio >/dev/null || { echo "fio not found (apt-get install fio)" >&2; exit 1; }
if [ ! -d cli/target/lib ] || [ ! -d cli/target/classes ]; then
  ./mvnw -B -q -o -pl cli -am package -DskipTests >&2
fi
# absolute: the stack starts its broker in a child JVM with this class path
CP="$ROOT/cli/target/classes:$ROOT/producer/target/classes:$ROOT/streams/target/classes:$ROOT/platform/target/classes:$ROOT/schemas/target/classes:$ROOT/cli/target/lib/*"
ssdpulse() { java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro -cp "$CP" dev.ssdpulse.cli.Main "$@"; }
WORK=$(mktemp -d)
STACK_PID=
cleanup() {
  [ -n "$STACK_PID" ] && kill "$STACK_PID" 2>/dev/null || true
  rm -f "$FILE"
  rm -rf "$WORK"
}
trap cleanup EXIT
ssdpulse stack --ephemeral --kafka-port 0 --registry-port 0 --exit-after 2h > "$WORK/stack.log" 2>&1 &
STACK_PID=$!
for _ in $(seq 1 120); do grep -q 'broker log' "$WORK/stack.log" && break; sleep 1; done
BOOTSTRAP=$(sed -n 's/.*bootstrap servers : //p' "$WORK/stack.log")
REGISTRY=$(sed -n 's/.*schema registry   : //p' "$WORK/stack.log")
K=(--bootstrap-servers "$BOOTSTRAP" --schema-registry-url "$REGISTRY")
cat > "$WORK/fill.yaml" <<YAML
name: verify-bench-fill
seed: 1
verify: true
phases:
  - name: fill
    kind: FILL
    accessSpecs:
      - {transferSize: 1MiB, percentRead: 0, percentRandom: 0}
    queueDepth: 8
    totalBytes: 100%
YAML
RUN=bench-verify-$(date +%s)
rm -f "$FILE"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), kernel $(uname -r)"
echo "# target $FILE ($(df --output=source "$(dirname "$FILE")" | tail -1)), span ${SPAN_GIB} GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
ssdpulse device --target "$FILE" --size "${SPAN_GIB}GiB" --workload "$WORK/fill.yaml" --run-id "$RUN" --quiet "${K[@]}" >&2
verify_round() {
  ssdpulse verify --run "$RUN" --target "$FILE" --format json --quiet --read-size 1MiB --queue-depth 16 \
    --engine libaio "${K[@]}" > "$WORK/v.json"
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print("%.1f" % (v["readBytes"]/v["readNs"]*1e3))' "$WORK/v.json"
}
fio_round() {
  fio --name=seqread --filename="$FILE" --rw=read --bs=1M --iodepth=16 --ioengine=libaio --direct=1 \
    --size="${SPAN_GIB}G" --output-format=json > "$WORK/f.json"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("%.1f" % (j["jobs"][0]["read"]["bw_bytes"]/1e6))' "$WORK/f.json"
}
V=() F=()
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then v=$(verify_round); f=$(fio_round); else f=$(fio_round); v=$(verify_round); fi
  V+=("$v") F+=("$f")
  echo "round $r: verify $v MB/s, fio $f MB/s, ratio $(python3 -c "print('%.3f' % ($v/$f))"), load $(cut -d' ' -f1 /proc/loadavg)"
done
python3 - "${V[*]}" "${F[*]}" <<'PY'
import statistics, sys
v = [float(x) for x in sys.argv[1].split()]
f = [float(x) for x in sys.argv[2].split()]
print("median: verify %.1f MB/s, fio %.1f MB/s, ratio of medians %.3f, median of the rounds' ratios %.3f"
      % (statistics.median(v), statistics.median(f), statistics.median(v) / statistics.median(f),
         statistics.median([a / b for a, b in zip(v, f)])))
PY
