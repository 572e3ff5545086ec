#!/usr/bin/env bash
# The cost of stamped writes (workload verify: true) on the tool's ceiling: 4 KiB random writes on the queued null
# engine, unstamped and stamped, alternated in one JVM (StampCostBench in the producer's test sources), each round a
# 2-s warm-up phase and a measured phase; the I/Os are recorded into I/O batches as the publisher records them.
# Prints each round and the medians; the bound is stamped >= 0.9 x unstamped.
#
# Usage: bench/stamp-cost.sh [SECONDS=5] [ROUNDS=5] [QDS="1 32"]
set -euo pipefail
SECONDS_PER_ROUND=${1:-5}
ROUNDS=${2:-5}
QDS=${3:-"1 32"}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./mvnw -B -q -o -pl schemas,producer test-compile dependency:build-classpath \
  -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt" >&2
cp="producer/target/test-classes:producer/target/classes:schemas/target/classes:$(cat "$out/cp-ssdpulse-producer.txt")"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
for qd in $QDS; do
  java -Xmx512m -cp "$cp" dev.ssdpulse.producer.device.bench.StampCostBench "$SECONDS_PER_ROUND" "$qd" "$ROUNDS"
done
