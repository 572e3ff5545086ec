#!/usr/bin/env bash
# Device engine vs fio on the same file and settings: 4 KiB random read and random write, QD1 and QD32,
# O_DIRECT, SECONDS per case; fio with --ioengine=libaio. Prints IOPS of both and the ratio ssdpulse/fio.
# Usage: bench/device-vs-fio.sh [SECONDS=20] [FILE=/tmp/ssdpulse-bench.dat] [SIZE_MIB=1024]
# Needs: fio, python3, a compiled producer module (the script runs test-compile if needed).
# CPU columns: CPU time (user+sys) per I/O; ssdpulse's includes JVM start-up and JIT, amortised over the run.
set -euo pipefail
SECONDS_PER_CASE=${1:-20}
FILE=${2:-/tmp/ssdpulse-bench.dat}
SIZE_MIB=${3:-1024}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
command -v fio >/dev/null || { echo "fio not found (apt-get install fio)" >&2; exit 1; }
if [ ! -d producer/target/test-classes/dev/ssdpulse/producer/device/bench ]; then
  ./mvnw -B -q -o -pl producer -am test-compile -DskipTests
fi
CP=producer/target/classes:producer/target/test-classes:schemas/target/classes
SIZE=$((SIZE_MIB * 1024 * 1024))
if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" -ne "$SIZE" ]; then
  echo "laying out $FILE ($SIZE_MIB MiB of random data)"
  fio --name=layout --filename="$FILE" --size="$SIZE" --rw=write --bs=1M --direct=1 --ioengine=libaio \
      --iodepth=4 --refill_buffers --output=/dev/null
fi
echo "date: $(date -u +%FT%TZ)  host: $(uname -srm)  cpus: $(nproc)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "file: $FILE ($SIZE_MIB MiB) on $(df --output=source "$FILE" | tail -1), fio $(fio --version), $(java -version 2>&1 | head -1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the CPUs: compare the CPU columns too)"
printf '%-10s %4s %12s %12s %7s %14s %14s\n' rw qd fio_iops ssdpulse_iops ratio fio_cpu_us/io sp_cpu_us/io
for rw in randread randwrite; do
  for qd in 1 32; do
    fio_iops=$(fio --name=job --filename="$FILE" --size="$SIZE" --rw=$rw --bs=4k --iodepth=$qd \
        --ioengine=libaio --direct=1 --runtime="$SECONDS_PER_CASE" --time_based --norandommap \
        --randrepeat=0 --output-format=json \
      | python3 -c "import json,sys; j=json.load(sys.stdin)['jobs'][0]; n=j['read']['total_ios']+j['write']['total_ios']; print(round(j['read']['iops']+j['write']['iops']), round((j['usr_cpu']+j['sys_cpu'])/100*j['elapsed']*1e6/max(n,1),2))")
    fio_cpu=${fio_iops#* }; fio_iops=${fio_iops% *}
    TIMEFORMAT=%U+%S
    { time java -Xmx256m -cp "$CP" dev.ssdpulse.producer.device.bench.DeviceBench "$FILE" $rw 4096 $qd \
        "$SECONDS_PER_CASE" > /tmp/ssdpulse-bench-line 2>/dev/null ; } 2> /tmp/ssdpulse-bench-time
    line=$(cat /tmp/ssdpulse-bench-line)
    sp_iops=$(sed -E 's/.* iops=([0-9]+).*/\1/' <<<"$line")
    sp_ios=$(sed -E 's/.* ios=([0-9]+).*/\1/' <<<"$line")
    sp_cpu=$(python3 -c "print(round(($(cat /tmp/ssdpulse-bench-time))*1e6/$sp_ios,2))")
    ratio=$(python3 -c "print(f'{$sp_iops/$fio_iops:.3f}')")
    printf '%-10s %4s %12s %12s %7s %14s %14s\n' $rw $qd "$fio_iops" "$sp_iops" "$ratio" "$fio_cpu" "$sp_cpu"
    echo "    $line" >&2
  done
done
