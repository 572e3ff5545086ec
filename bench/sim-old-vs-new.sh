#!/usr/bin/env bash
# The simulator of a base commit (default b184a0d) and of this work tree, side by side in one run on this machine:
# simulation speed on seed003-qd32-random-write-5000s (prepare + simulate on one thread), ROUNDS rounds alternating
# old and new (the order swapped every round, so machine noise hits both alike), then the median of each side's
# M host I/Os per wall second and per thread-CPU second. Each line ends with the final SMART counters and a hash of
# every completion: within a side they must match from round to round (results are deterministic per seed).
# Usage: bench/sim-old-vs-new.sh [BASE_COMMIT] [OUT_DIR]. Env: ROUNDS (default 5), DRIVE (default
# sata-mlc-120gb-2012), WORKLOAD (default seed003-qd32-random-write-5000s), JAVA_OPTS (default -Xmx1g), DURATION_S (the
# test phase's length in simulated s, passed as the workload variable durationS; default: the workload's own).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-b184a0d}"
out="${2:-$(mktemp -d)}"
rounds="${ROUNDS:-5}"
drive="${DRIVE:-sata-mlc-120gb-2012}"
workload="${WORKLOAD:-seed003-qd32-random-write-5000s}"
java_opts="${JAVA_OPTS:--Xmx1g}"
vars=()
if [ -n "${DURATION_S:-}" ]; then vars+=("durationS=$DURATION_S"); fi
mkdir -p "$out/old/src" "$out/old/classes" "$out/new"
cd "$here"
./mvnw -B -q -o -pl schemas,platform,producer test-compile dependency:build-classpath -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt"
deps="$(cat "$out/cp-ssdpulse-producer.txt")"
# a snapshot of this tree's classes, so rebuilding while the bench runs changes nothing
cp -r "$here/producer/target/classes" "$here/producer/target/test-classes" "$out/new/"
new="$out/new/classes:$out/new/test-classes:$deps"
# the base's producer (main and test sources) compiled on its own; the speed main is this tree's, compiled
# against the old classes, so both print the same result line
git archive "$base" producer/src | tar -x -C "$out/old/src"
rm -f "$out/old/src/producer/src/test/java/dev/ssdpulse/producer/sim/run/WorkloadSpeedMain.java"
javac -nowarn -d "$out/old/classes" -cp "$deps" $(find "$out/old/src/producer/src" -name '*.java') \
    "$here/producer/src/test/java/dev/ssdpulse/producer/sim/run/WorkloadSpeedMain.java" 2>&1 | grep -v '^Note' || true
cp -r "$out/old/src/producer/src/main/resources/." "$out/old/classes/"
old="$out/old/classes:$deps"
speed=dev.ssdpulse.producer.sim.run.WorkloadSpeedMain
run() { # side classpath
  echo "## $1 ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"
  java $java_opts -cp "$2" $speed "$drive" "$workload" ${vars[@]+"${vars[@]}"} 2>&1 || echo "(exit $?)"
}
{
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
      run "round $r old" "$old"; run "round $r new" "$new"
    else
      run "round $r new" "$new"; run "round $r old" "$old"
    fi
  done
} | tee "$out/report.txt"
python3 - "$out/report.txt" <<'PY'
import re, statistics, sys
side = None
rates = {"old": [], "new": []}
hashes = {"old": set(), "new": set()}
for line in open(sys.argv[1]):
    m = re.match(r"## round \d+ (old|new)", line)
    if m:
        side = m.group(1)
        continue
    m = re.search(r"= ([0-9.]+) M I/Os per wall s \(([0-9.]+) per CPU s\)", line)
    if m and side:
        rates[side].append((float(m.group(1)), float(m.group(2))))
    m = re.search(r"completions hash ([0-9a-f]+)", line)
    if m and side:
        hashes[side].add(m.group(1))
for s in ("old", "new"):
    if rates[s]:
        wall = statistics.median(r[0] for r in rates[s])
        cpu = statistics.median(r[1] for r in rates[s])
        print(f"{s}: median of {len(rates[s])} rounds {wall:.3f} M host I/Os per wall s ({cpu:.3f} per CPU s);"
              f" completion hashes {sorted(hashes[s])}")
if rates["old"] and rates["new"]:
    ratios = sorted(n[0] / o[0] for o, n in zip(rates["old"], rates["new"]))
    print(f"new / old per wall s, per round: {', '.join(f'{r:.2f}' for r in ratios)}")
PY
echo "report: $out/report.txt"
