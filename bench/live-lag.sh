#!/usr/bin/env bash
# How soon a live run's windows reach the dashboard (LiveLagBench, cli test sources): one real-time run
# (`simulate --realtime`, tiny-test, seed 003's 80/20 4 KiB mix at QD4, rate-limited) on a fresh single-broker stack,
# one `ssdpulse streams`; per window of the test phase, the lag from its end (run start + window end, wall clock) to
# its arrival on the run's event stream (what the dashboard draws) and to the first /series answer holding it (polled
# every 50 ms). With BEFORE_TREE (another ssdpulse source tree, e.g. `git worktree add /tmp/main main`), each round
# measures that build and this one, alternating which goes first; prints one line per run and the medians.
# Usage: bench/live-lag.sh [ROUNDS] [BEFORE_TREE] [DURATION_S] [RATE_IOPS] [WORK_DIR]
# (default: 5 rounds, this tree only, a 90-s test phase at 20,000 IOPS)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-5}"; before="${2:-}"; duration="${3:-90}"; rate="${4:-20000}"
work="${5:-$(mktemp -d /tmp/live-lag-XXXXXX)}"
mkdir -p "$work"
classpath() { # the runtime class path of a tree's cli (its modules' classes, not installed jars)
    (cd "$1" && ./mvnw -B -q -o -pl schemas,platform,producer,streams,cli test-compile dependency:build-classpath \
        -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test >/dev/null)
    echo "$1/cli/target/classes:$(cat "$1/cli/target/cp.txt")"
}
after_cp="$(classpath "$here")"
bench_cp="$here/cli/target/test-classes:$after_cp"
before_cp=""
if [ -n "$before" ]; then before_cp="$(classpath "$(cd "$before" && pwd)")"; fi
echo "live lag: $rounds round(s), ${duration} s at $rate IOPS; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
     "files in $work"
run() { java -Xmx512m -cp "$bench_cp" dev.ssdpulse.cli.reliability.LiveLagBench "$1" "$2" "$work" "$duration" "$rate" \
            2>> "$work/bench.stderr" | grep "^LiveLagBench" | tee -a "$work/results.txt"; }
for round in $(seq 1 "$rounds"); do
    if [ -z "$before_cp" ]; then run after "$after_cp";
    elif [ $((round % 2)) -eq 1 ]; then run before "$before_cp"; run after "$after_cp";
    else run after "$after_cp"; run before "$before_cp"; fi
done
python3 - "$work/results.txt" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"LiveLagBench (\w+): .*stream p50 (\d+) ms, p99 (\d+) ms, max (\d+) ms; poll \(50 ms\) p50 (\d+) ms, p99 (\d+) ms", line)
    if m:
        rows.setdefault(m.group(1), []).append([int(x) for x in m.groups()[1:]])
for label, runs in rows.items():
    cols = list(zip(*runs))
    med = [statistics.median(c) for c in cols]
    print(f"{label}: {len(runs)} run(s), median of runs: stream p50 {med[0]:.0f} ms, p99 {med[1]:.0f} ms "
          f"(p99 range {min(cols[1])}-{max(cols[1])}); poll p50 {med[3]:.0f} ms, p99 {med[4]:.0f} ms "
          f"(p99 range {min(cols[4])}-{max(cols[4])})")
PY
