#!/usr/bin/env bash
# Issue 13: the simulator of a base commit (default bb4ace4, before issue 13) and of this work tree, side by
# side in one run on this machine: seed 000's WA figures (full size), the compressed-fill case, seed 001,
# simulation speed on seed003-qd32-random-write-5000s (old, new, old, new) and the heap each needs.
# Usage: bench/sim-old-vs-new.sh [BASE_COMMIT] [OUT_DIR]. Takes ~20 min on the 2-core reference machine.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-bb4ace4}"
out="${2:-$(mktemp -d)}"
mkdir -p "$out/old/src" "$out/old/classes"
cd "$here"
./mvnw -B -q -pl producer -am test-compile dependency:build-classpath -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt"
deps="$(cat "$out/cp-ssdpulse-producer.txt")"
# a snapshot of this tree's classes, so rebuilding while the bench runs changes nothing
mkdir -p "$out/new"
cp -r "$here/producer/target/classes" "$here/producer/target/test-classes" "$out/new/"
new="$out/new/classes:$out/new/test-classes:$deps"
# the base's producer (main and test sources) compiled on its own, plus WorkloadSpeedMain as it was in the
# package layout of the base (2445a34: the last commit with producer.simulate)
git archive "$base" producer/src | tar -x -C "$out/old/src"
git show 2445a34:producer/src/test/java/dev/ssdpulse/producer/simulate/WorkloadSpeedMain.java > "$out/old/WorkloadSpeedMain.java"
javac -nowarn -d "$out/old/classes" -cp "$deps" $(find "$out/old/src/producer/src" -name '*.java') \
    "$out/old/WorkloadSpeedMain.java" 2>&1 | grep -v '^Note' || true
cp -r "$out/old/src/producer/src/main/resources/." "$out/old/classes/"
old="$out/old/classes:$deps"
# a run that fails (an out-of-memory error is a result here) does not stop the report
run() { echo "## $1"; shift; java -Xmx1g -cp "$@" 2>&1 || echo "(exit $?)"; }
{
  run "speed old" "$old" dev.ssdpulse.producer.simulate.WorkloadSpeedMain sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed new" "$new" dev.ssdpulse.producer.sim.run.WorkloadSpeedMain sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed old" "$old" dev.ssdpulse.producer.simulate.WorkloadSpeedMain sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "speed new" "$new" dev.ssdpulse.producer.sim.run.WorkloadSpeedMain sata-mlc-120gb-2012 seed003-qd32-random-write-5000s
  run "nvme-tlc-1tb old, 1 GiB heap" "$old" dev.ssdpulse.producer.simulate.WorkloadSpeedMain nvme-tlc-1tb seed003-qd32-random-write-5000s durationS=60 | tail -2
  run "nvme-tlc-1tb new, 1 GiB heap" "$new" dev.ssdpulse.producer.sim.run.WorkloadSpeedMain nvme-tlc-1tb seed003-qd32-random-write-5000s durationS=60 | tail -2
  run "seed 000 exp. 1 + 2 old (full size, 20 min)" "$old" dev.ssdpulse.producer.sim.Seed000Main 1 20 | grep -v maxLat | cut -c1-60
  run "seed 000 eight figures new (full size, 20 min)" "$new" dev.ssdpulse.producer.sim.Seed000FitMain 1 20 preset
  run "seed 001 old" "$old" dev.ssdpulse.producer.sim.Seed001Main 1 15
  run "seed 001 new" "$new" dev.ssdpulse.producer.sim.Seed001Main 1 15
  run "seed 000 exp. 3 new (Marvell preset, full size)" "$new" dev.ssdpulse.producer.sim.Seed000IdleGcMain 1
} | tee "$out/report.txt"
echo "report: $out/report.txt"
