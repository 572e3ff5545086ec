#!/usr/bin/env bash
# The simulator's seed figures at full size, on this tree: seed 003's random-write steady states (QD32 and QD256)
# on every shipped preset (silent one-second windows after the first minute, the GC-off and GC-on IOPS levels,
# the worst latency, the latency layers by the documented mode finder), seed 000's eight WA figures with the
# compressed fill and each exp. 1 case's MB/s per 10 s, seed 000 exp. 3 (idle GC), seed 001's continuous test.
# Usage: bench/sim-seeds.sh [OUT_DIR]. Env: CASES (any of steady seed000 exp3 seed001; default all), PRESETS
# (default: every shipped one), STEADY_DURATION_S (the steady-state test phase, default 5000), JAVA_OPTS
# (default -Xmx3g: the 1 TB preset keeps int maps; with -Xmx1g it runs with packed maps, slower, same results).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d)}"
cases="${CASES:-steady seed000 exp3 seed001}"
presets="${PRESETS:-sata-mlc-120gb-2012 sata-mlc-128gb-2012-marvell sata-240gb nvme-tlc-1tb tiny-test}"
duration="${STEADY_DURATION_S:-5000}"
java_opts="${JAVA_OPTS:--Xmx3g}"
mkdir -p "$out/classes"
cd "$here"
./mvnw -B -q -o -pl schemas,platform,producer test-compile dependency:build-classpath -Dmdep.outputFile="$out/cp-\${project.artifactId}.txt"
# a snapshot of this tree's classes, so rebuilding while the bench runs changes nothing
cp -r "$here/producer/target/classes" "$here/producer/target/test-classes" "$out/classes/"
cp="$out/classes/classes:$out/classes/test-classes:$(cat "$out/cp-ssdpulse-producer.txt")"
run() { # title main args...
  local title=$1; shift
  echo "## $title ($(date -u +%Y-%m-%dT%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
  java $java_opts -cp "$cp" "$@" 2>&1 || echo "(exit $?)"
}
{
  for c in $cases; do
    case $c in
      steady)
        for p in $presets; do
          for qd in 32 256; do
            run "seed 003 QD$qd random write on $p, ${duration} s" dev.ssdpulse.producer.sim.run.SteadyStateMain \
                "$p" 1 1 "seed003-qd$qd-random-write-5000s" "durationS=$duration"
          done
        done;;
      seed000) run "seed 000 exp. 1 and 2, full size" dev.ssdpulse.producer.sim.Seed000FitMain 1 1 20 mbps preset;;
      exp3) run "seed 000 exp. 3, full size" dev.ssdpulse.producer.sim.Seed000IdleGcMain 1 1;;
      seed001) run "seed 001, full size" dev.ssdpulse.producer.sim.Seed001Main 1 15;;
    esac
  done
} | tee "$out/report.txt"
echo "report: $out/report.txt"
