#!/usr/bin/env bash
# The HTML report of two drives' 5,000-s QD32 random-write runs (seed 003's test), made through the whole
# pipeline: embedded broker and registry, `ssdpulse streams`, `ssdpulse simulate` on two simulated drives with a
# shared label, then `ssdpulse report --html --label`. Reports the file's size, the report command's wall time and
# peak memory, and the time headless Debian Chromium (1500 px) takes to paint the page, ROUNDS rounds, median.
# With OLD=DIR (a checkout of an earlier ssdpulse, built by its own launcher), the same report by that version
# too, timed alternately with the new one (a page not painted within TIMEOUT_S counts as TIMEOUT_S).
#
# Usage: bench/report-size.sh [WORK_DIR]
# Env:   SSD_A=sata-mlc-120gb-2012 SSD_B=sata-240gb ROUNDS=5 TIMEOUT_S=300 OLD=DIR OLD_JAVA_OPTS=-Xmx4g
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
ssd_a="${SSD_A:-sata-mlc-120gb-2012}"
ssd_b="${SSD_B:-sata-240gb}"
rounds="${ROUNDS:-5}"
timeout_s="${TIMEOUT_S:-300}"
export SSDPULSE_BOOTSTRAP_SERVERS=127.0.0.1:19092 SSDPULSE_SCHEMA_REGISTRY_URL=http://127.0.0.1:18081

# built once, then used as built: sources edited while this runs do not rebuild what it runs
"$here/ssdpulse" --version > /dev/null
export SSDPULSE_SKIP_BUILD=1
# the render timer runs from the streams module's test classes (Browser, ReportRenderMain), copied for the same reason
(cd "$here" && ./mvnw -B -q -o -pl schemas,platform,producer,streams test-compile dependency:build-classpath \
    -Dmdep.outputFile="$work/cp-\${project.artifactId}.txt" -Dspotless.check.skip=true) >&2
cp=""
for dir in streams/target/test-classes streams/target/classes schemas/target/classes platform/target/classes \
    producer/target/classes; do
  mkdir -p "$work/classes/$dir" && cp -r "$here/$dir/." "$work/classes/$dir/"
  cp="$cp$work/classes/$dir:"
done
cp="$cp$(cat "$work/cp-ssdpulse-streams.txt")"

"$here/ssdpulse" stack --data-dir "$work/kafka" --kafka-port 19092 --registry-port 18081 --exit-after 3h \
    > "$work/stack.log" 2>&1 &
stack=$!
streams=
trap 'kill $stack $streams 2>/dev/null || true' EXIT
until grep -q "Press Ctrl-C\|Stopping after" "$work/stack.log" 2>/dev/null; do sleep 1; done
"$here/ssdpulse" streams --state-dir "$work/state" --http-port -1 --exit-after 3h > "$work/streams.log" 2>&1 &
streams=$!
until grep -q "analytics running" "$work/streams.log" 2>/dev/null; do sleep 1; done

campaign="report-size-$(date +%s)"
for ssd in "$ssd_a" "$ssd_b"; do
  run="$campaign-$ssd"
  "$here/ssdpulse" simulate --ssd "$ssd" --workload seed003-qd32-random-write-5000s --run-id "$run" \
      --label campaign="$campaign" --quiet > "$work/simulate-$ssd.log" 2>&1
  # the analytics finish the run a little after the producer
  for i in $(seq 1 900); do
    "$here/ssdpulse" report --run "$run" --format json > "$work/summary-$ssd.json" 2>/dev/null && break
    sleep 2
  done
done

/usr/bin/time -v -o "$work/report-time.txt" "$here/ssdpulse" report --label campaign="$campaign" \
    --html "$work/report.html" 2> "$work/report.err"
files=("$work/report.html")
if [ -n "${OLD:-}" ]; then
  SSDPULSE_JAVA_OPTS="${OLD_JAVA_OPTS:--Xmx4g}" /usr/bin/time -v -o "$work/old-report-time.txt" \
      "$OLD/ssdpulse" report --label campaign="$campaign" --html "$work/old-report.html" 2> "$work/old-report.err" \
    && files+=("$work/old-report.html") \
    || echo "the old version wrote no report: $(tail -1 "$work/old-report.err")"
fi

for f in report old-report; do
  [ -f "$work/$f.html" ] || continue
  echo "$f: $(stat -c %s "$work/$f.html") bytes;" \
      "report command $(awk -F': ' '/Elapsed \(wall/ {print $2}' "$work/$f-time.txt") wall," \
      "$(awk -F': ' '/Maximum resident/ {printf "%.0f MiB", $2/1024}' "$work/$f-time.txt") peak RSS"
done
java -Xmx1g -cp "$cp" dev.ssdpulse.streams.report.html.ReportRenderMain "$rounds" "$timeout_s" "${files[@]}" \
    2> "$work/render.err" | tee "$work/render.txt"
echo "date: $(date -u +%FT%TZ)  load: $(cut -d' ' -f1-3 /proc/loadavg)  cpu: $(nproc) x" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "work dir: $work"
