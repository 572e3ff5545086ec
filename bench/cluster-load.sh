#!/usr/bin/env bash
# The cluster load: PRODUCERS producer processes (child JVMs of LoadProducerMain, the real simulate driver and
# publisher) stream RUNS_PER_PRODUCER simulated runs each, all at once, into a fresh three-broker cluster (child
# JVMs), analysed by 1 and then 2 `ssdpulse streams` instances (alternating order per round, a fresh cluster for
# each); prints aggregate I/O events/s and the window lag p50/p99 per scenario and checks every run's summary
# against its offline analysis (ClusterLoadBench, cli test sources). Per-scenario files (producer and streams
# logs, window-lags.csv) stay in WORK_DIR.
# Usage: bench/cluster-load.sh [ROUNDS] [PRODUCERS] [RUNS_PER_PRODUCER] [DURATION_S] [RATE_IOPS] [SPEED] [WARMUP_RUNS]
#        [WORK_DIR] [INSTANCES]
# INSTANCES: instance counts measured each round, comma-separated (default: 1 and 2, alternating which first);
# STREAMS_ARGS (environment): more `ssdpulse streams` settings, e.g. STREAMS_ARGS="-X commit.interval.ms=1000".
# (default: 1 round, 5 x 10 = 50 runs, 20 simulated s of test phase at about 1,000 IOPS each, --speed 1, after a
# warm-up of 1 unpaced 10-s run per producer through the same instances, checked but not measured).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-1}"; producers="${2:-5}"; runs="${3:-10}"; duration="${4:-20}"; rate="${5:-1000}"; speed="${6:-1}"
warmup="${7:-1}"
work="${8:-$(mktemp -d /tmp/cluster-load-XXXXXX)}"; instances="${9:-}"
mkdir -p "$work"
cd "$here"
./mvnw -B -q -o -pl schemas,platform,producer,streams,cli test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test >/dev/null
cp="$here/cli/target/test-classes:$here/cli/target/classes:$(cat cli/target/cp.txt)"
echo "cluster load: $rounds round(s), $producers producers x $runs runs, ${duration} s at ~$rate IOPS, speed $speed;" \
     "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), files in $work"
java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro "-Dclusterload.streams=${STREAMS_ARGS:-}" \
    -cp "$cp" dev.ssdpulse.cli.reliability.ClusterLoadBench "$work" "$rounds" "$producers" "$runs" "$duration" "$rate" \
    "$speed" "$warmup" $instances \
    2> "$work/bench.stderr" | grep -E "^(ClusterLoadBench|round|ThreeBrokerCluster|$)" 
