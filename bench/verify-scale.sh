#!/usr/bin/env bash
# The verification core's memory and time over a 100 GiB written span (26.2 M units of 4 KiB, each written twice,
# FLUSHes and FUA writes, a unit in 1,000 reverted) in a JVM of 1 GiB heap: VerificationScaleBench in the producer's
# test sources, a synthetic log and content (no Kafka, no device). Fails (out of memory) if the per-unit record
# does not fit.
#
# Usage: bench/verify-scale.sh [GIB=100] [HEAP=1g]
set -euo pipefail
GIB=${1:-100}
HEAP=${2:-1g}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./mvnw -B -q -o -pl schemas,producer test-compile dependency:build-classpath \
  -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt" >&2
cp="producer/target/test-classes:producer/target/classes:schemas/target/classes:$(cat "$out/cp-ssdpulse-producer.txt")"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), -Xmx$HEAP"
java -Xmx"$HEAP" -XX:+UseG1GC -cp "$cp" dev.ssdpulse.producer.integrity.bench.VerificationScaleBench "$GIB"
