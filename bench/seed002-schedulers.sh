#!/usr/bin/env bash
# Seed 002's protocol on real block devices: `hdparm -t --direct` (O_DIRECT sequential 2 MiB reads, ~3 s, three
# runs) under each I/O scheduler the disk offers, through the real `device` command (--scheduler sets it for the
# run and restores the previous one). Prints, per device and scheduler, each run's MB/s and its % of the
# scheduler's mean, the mean, and each scheduler's mean as % of the first scheduler's; with two or more devices, each
# device's mean as % of the first device's under the same scheduler.
#
# Usage: bench/seed002-schedulers.sh DEVICE [DEVICE...]   (root; read-only: the preset only reads)
# Env:   SCHEDULERS="none mq-deadline bfq kyber" (default: what each disk offers), RUN_SECONDS=3, REPETITIONS=3,
#        ENGINE=auto
# The same comparison as a page: `ssdpulse report --html FILE --label ...` of the runs (MB/s per device and scheduler).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DEVICE [DEVICE...]" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ ! -d cli/target/lib ] || [ ! -d cli/target/classes ]; then
  ./mvnw -B -q -o -pl cli -am package -DskipTests >&2
fi
CP="cli/target/classes:producer/target/classes:streams/target/classes:platform/target/classes:schemas/target/classes:cli/target/lib/*"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
echo "date: $(date -u +%FT%TZ)  kernel: $(uname -sr)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) x $(nproc)  mem: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
for dev in "$@"; do
  disk=$(basename "$(readlink -f "$dev")")
  offered=$(sed 's/[][]//g' "/sys/block/$disk/queue/scheduler")
  for sched in ${SCHEDULERS:-$offered}; do
    java -Xmx512m -cp "$CP" dev.ssdpulse.cli.Main device --target "$dev" --engine "${ENGINE:-auto}" --scheduler "$sched" \
        --workload seed002-hdparm-direct-read --set runSeconds="${RUN_SECONDS:-3}" --set repetitions="${REPETITIONS:-3}" \
        --offline --format json 2>&1 >/dev/null \
      | sed -nE "s|.*phase [0-9]+ '([^']+)' ended \([A-Z]+\): .* ([0-9.]+) MB/s.*|$dev $sched \1 \2|p" >> "$OUT" \
      || echo "$dev $sched FAILED" >&2
  done
done
python3 - "$OUT" <<'PY'
import sys, collections
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
runs = collections.OrderedDict()
for dev, sched, phase, mbps in rows:
    runs.setdefault((dev, sched), []).append(float(mbps))
means = {k: sum(v) / len(v) for k, v in runs.items()}
first_sched = {}
for (dev, sched) in runs:
    first_sched.setdefault(dev, sched)
devices = list(dict.fromkeys(d for d, _ in runs))
print(f"{'device':<12} {'scheduler':<12} {'runs MB/s (% of mean)':<48} {'mean MB/s':>10} {'% of ' + 'first sched':>14} {'% of first dev':>15}")
for (dev, sched), v in runs.items():
    m = means[(dev, sched)]
    each = "  ".join(f"{x:.1f} ({x / m * 100:.1f}%)" for x in v)
    vs_sched = m / means[(dev, first_sched[dev])] * 100
    ref = means.get((devices[0], sched))
    vs_dev = f"{m / ref * 100:.1f}%" if ref else "n/a"
    print(f"{dev:<12} {sched:<12} {each:<48} {m:>10.1f} {vs_sched:>13.1f}% {vs_dev:>15}")
PY
