#!/usr/bin/env bash
# The replay engine's timing accuracy against recorded timestamps: ReplayTimingBench (producer test sources) replays a
# trace of COUNT 4 KiB reads with recorded timing at QD 32 (gaps from a fixed seed: 70 % 100-500 us, 25 % 1-5 ms,
# 5 % 10-30 ms) and prints, per engine and round, the issue-time error of every I/O (submit time minus recorded time,
# less the smallest such difference of the run): p50, p99, max, and the runner's own lag and late count. The null engine is the tool's floor (no device); libaio and psync read a file in WORK_DIR with
# O_DIRECT; "timer" is the host's floor (a thread parking until each recorded time, no I/O, no runner). Engines
# alternate order per round.
# Usage: bench/replay-timing.sh [ROUNDS] [COUNT] [ENGINES] [WORK_DIR]   (default: 5 rounds, 20000 I/Os (~16 s),
#        "timer null libaio", a fresh temporary directory)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-5}"; count="${2:-20000}"; engines="${3:-timer null libaio}"
work="${4:-$(mktemp -d /tmp/replay-timing-XXXXXX)}"
mkdir -p "$work"
cd "$here"
./mvnw -B -q -pl schemas,producer test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
    -Dmdep.includeScope=runtime -Dspotless.check.skip=true >/dev/null
cp="$here/producer/target/test-classes:$here/producer/target/classes:$(cat producer/target/cp.txt)"
echo "replay timing: $rounds round(s), $count I/Os, engines: $engines; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
     "$(java -version 2>&1 | head -1), $(uname -r), files in $work"
read -r -a list <<< "$engines"
for ((round = 1; round <= rounds; round++)); do
  if (( round % 2 == 0 )); then order=$(printf '%s\n' "${list[@]}" | tac); else order=$(printf '%s\n' "${list[@]}"); fi
  for engine in $order; do
    printf 'round %d ' "$round"
    java -Xmx512m -cp "$cp" dev.ssdpulse.producer.replay.ReplayTimingBench "$engine" "$count" "$work"
  done
done
