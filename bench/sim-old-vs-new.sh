#!/usr/bin/env bash
# The simulator of a base commit (default ca39b42) and of this work tree, side
# by side in one run on this machine: simulation speed on seed003-qd32-random-write-5000s (old, new, old, new;
# each line ends with the final SMART counters and a hash of every completion, which must match), the
# 1 TB preset in a 1 GiB heap, and (CASES=all) seed 000's WA figures, the compressed fill and seed 001.
# Usage: bench/sim-old-vs-new.sh [BASE_COMMIT] [OUT_DIR]. Env: CASES=speed|all (default all), TB_DURATION_S
# (the 1 TB cases' test phase, default 5000), JAVA_OPTS (default -Xmx1g). Takes ~20 min for speed only on the
# 2-core reference machine when it is quiet (plus ~20 min for the 1 TB run, ~20 min for the figures).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-ca39b42}"
out="${2:-$(mktemp -d)}"
cases="${CASES:-all}"
tb_duration="${TB_DURATION_S:-5000}"
java_opts="${JAVA_OPTS:--Xmx1g}"
mkdir -p "$out/old/src" "$out/old/classes"
cd "$here"
./mvnw -B -q -o -pl schemas,platform,producer test-compile dependency:build-classpath -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt"
deps="$(cat "$out/cp-ssdpulse-producer.txt")"
# a snapshot of this tree's classes, so rebuilding while the bench runs changes nothing
mkdir -p "$out/new"
cp -r "$here/producer/target/classes" "$here/producer/target/test-classes" "$out/new/"
new="$out/new/classes:$out/new/test-classes:$deps"
# the base's producer (main and test sources) compiled on its own; the speed main is this tree's, compiled
# against the old classes, so both print the same result line
git archive "$base" producer/src | tar -x -C "$out/old/src"
rm -f "$out/old/src/producer/src/test/java/dev/ssdpulse/producer/sim/run/WorkloadSpeedMain.java" \
      "$out/old/src/producer/src/test/java/dev/ssdpulse/producer/simulate/WorkloadSpeedMain.java"
javac -nowarn -d "$out/old/classes" -cp "$deps" $(find "$out/old/src/producer/src" -name '*.java') \
    "$here/producer/src/test/java/dev/ssdpulse/producer/sim/run/WorkloadSpeedMain.java" 2>&1 | grep -v '^Note' || true
cp -r "$out/old/src/producer/src/main/resources/." "$out/old/classes/"
old="$out/old/classes:$deps"
speed=dev.ssdpulse.producer.sim.run.WorkloadSpeedMain
# a run that fails (an out-of-memory error is a result here) does not stop the report
run() { echo "## $1 ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"; shift; java $java_opts -cp "$@" 2>&1 || echo "(exit $?)"; }
{
  run "speed old" "$old" $speed sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed new" "$new" $speed sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed old" "$old" $speed sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed new" "$new" $speed sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "nvme-tlc-1tb old" "$old" $speed nvme-tlc-1tb seed003-qd32-random-write-5000s durationS=$tb_duration | grep -v "^[[:space:]]*at "
  run "nvme-tlc-1tb new" "$new" $speed nvme-tlc-1tb seed003-qd32-random-write-5000s durationS=$tb_duration
  if [ "$cases" = all ]; then
    run "seed 000 eight figures old (full size, 20 min)" "$old" dev.ssdpulse.producer.sim.Seed000FitMain 1 20 preset
    run "seed 000 eight figures new (full size, 20 min)" "$new" dev.ssdpulse.producer.sim.Seed000FitMain 1 20 preset
    run "seed 001 old" "$old" dev.ssdpulse.producer.sim.Seed001Main 1 15
    run "seed 001 new" "$new" dev.ssdpulse.producer.sim.Seed001Main 1 15
  fi
} | tee "$out/report.txt"
echo "report: $out/report.txt"
