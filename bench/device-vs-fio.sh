#!/usr/bin/env bash
# ssdpulse's `device` command vs fio, side by side in one run, with the same engine, target and settings:
# 4 KiB random read and random write at QD 1, 32 and 256 (one job / one worker), O_DIRECT, time-based, on a file
# and on a loop device. For each case: IOPS of both, ratio ssdpulse/fio, CPU time per I/O of both and its ratio.
#
# Usage: bench/device-vs-fio.sh [SECONDS=10] [ENGINES="libaio io_uring"] [TARGETS="file loop"] [QDS="1 32 256"]
# Env:   FILE=/tmp/ssdpulse-bench.dat  LOOP_IMAGE=/tmp/ssdpulse-bench-loop.img  SIZE_MIB=1024  RAMP_SECONDS=10
#        FIO_SKIP_SECONDS=1  RWS="randread randwrite": the cases, in this order (every read case first)
#        ROUNDS=1: how many times each case runs. A round runs both tools back to back, fio first in odd rounds
#        and ssdpulse first in even ones, so neither is always the one that meets the device just after the
#        previous case. With more than one round the table gives each tool's median IOPS and CPU per I/O, and as
#        ratios the median of the rounds' own ratios (each round's pair ran within a minute of each other): a
#        single sample of a virtual disk swings 2-3x between runs (fio's own), a paired ratio much less. Each
#        round's line gives the hypervisor's steal time over each tool's run (% of the pinned CPUs' time, from
#        /proc/stat), to tell a round disturbed by other tenants of the host from a difference between the tools.
#        RAM_IMAGE=/dev/shm/ssdpulse-bench-ram.img: the image behind target 'ram', a loop device over a file in
#        tmpfs (buffered, no disk): the device is then the CPU, so the tools' own costs decide the IOPS.
#        ZRAM_DEV=/dev/zram0: the device behind target 'zram', a compressed RAM disk whose driver does each I/O
#        inside the submitting system call: no interrupt, no other thread, so the tool's I/O thread does all the
#        work and a pinned run's IOPS is 1 / (CPU per I/O). Used only when its disksize is 0 (not in use); the
#        script sizes it to SIZE_MIB, lays it out with random data and resets it at the end.
#        FIO_URING_OPTS=: extra fio options for its io_uring runs only, e.g. "--fixedbufs --registerfiles" to
#        compare with fio's registered buffers and file as ssdpulse uses them (fio's defaults are without).
#        CPUS=: pin both tools alike, fio with --cpus_allowed=CPUS (its job process), ssdpulse with
#        --cpus-allowed CPUS (its I/O threads; JIT and GC threads stay free). Unset: neither is pinned. On a machine
#        with few CPUs, a submitting thread away from the CPU that takes the disk's interrupts pays a cross-CPU
#        wake-up per completion, and which CPU each tool lands on is chance: /proc/interrupts shows the disk's CPU.
# Needs: fio, python3, root for the loop device (losetup), compiled modules (the script runs
#        `./mvnw -o -pl cli -am package -DskipTests` when cli/target/lib is missing; never `install`).
#
# ssdpulse runs the real command: `device --target T --engine E --workload <4 KiB random, QD n> --offline`, so its
# I/O path includes recording every I/O into the in-process analysis (latency bins, windows) as a streamed run
# records it into batches. Its CPU column is the process's user+sys CPU time over the I/O phase divided by the
# phase's I/Os, as printed by the command (`process CPU .. us/IO`: JVM start-up and the summary are excluded, GC
# and JIT during the phase included). fio is measured alike by bench/fio-window.py: it runs FIO_SKIP_SECONDS (1) +
# SECONDS + 1 s with a JSON status every second, and over the SECONDS-long window after the skip takes the I/Os from
# the status documents and the CPU of all of fio's processes and threads from /proc (its parent's helper thread and
# the kernel's io_uring workers included, as they are for ssdpulse). Since 2026-12-02; before, fio's column was its
# own figure, (usr_cpu + sys_cpu) x job_runtime / I/Os, which fio takes with getrusage(RUSAGE_THREAD): the job's
# thread only, without the io_uring workers (40 % of the work for io_uring on the loop device at QD256) or the
# helper thread. That figure is still printed, as fio_own.
# Writes: fio runs with --refill_buffers, as ssdpulse writes fresh incompressible data on every write.
# Warm-up: ssdpulse first runs RAMP_SECONDS of the same I/O as a phase 'ramp' that is not counted, so the JVM's JIT
# compilation is not charged to the measured seconds (a real run is minutes long); fio needs no warm-up, its first
# second is skipped all the same (RAMP_SECONDS >= 1). 10 s by default: -XX:+PrintCompilation of a QD32 run showed
# compilations for ~8 s after the start (the per-second window code gets hot only window by window). The phase
# change into the measured phase still costs some JIT work: the first phase's I/O thread leaves its compiled loop
# through a branch never taken before, and the next phase's thread needs the loop compiled again (26-113 ms of
# compiler CPU over a 5-s QD32 test phase).
# Cases alternate fio / ssdpulse, in both orders, so drifts of a shared machine hit both.
set -euo pipefail
SECONDS_PER_CASE=${1:-10}
ENGINES=${2:-"libaio io_uring"}
TARGETS=${3:-"file loop"}
QDS=${4:-"1 32 256"}
RWS=${RWS:-"randread randwrite"}
FILE=${FILE:-/tmp/ssdpulse-bench.dat}
LOOP_IMAGE=${LOOP_IMAGE:-/tmp/ssdpulse-bench-loop.img}
SIZE_MIB=${SIZE_MIB:-1024}
RAMP_SECONDS=${RAMP_SECONDS:-10}
FIO_SKIP_SECONDS=${FIO_SKIP_SECONDS:-1}
ROUNDS=${ROUNDS:-1}
RAM_IMAGE=${RAM_IMAGE:-/dev/shm/ssdpulse-bench-ram.img}
CPUS=${CPUS:-}
FIO_PIN=() SP_PIN=()
if [ -n "$CPUS" ]; then
  FIO_PIN=(--cpus_allowed="$CPUS") SP_PIN=(--cpus-allowed "$CPUS")
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
command -v fio >/dev/null || { echo "fio not found (apt-get install fio)" >&2; exit 1; }
if [ ! -d cli/target/lib ] || [ ! -d cli/target/classes ]; then
  ./mvnw -B -q -o -pl cli -am package -DskipTests >&2
fi
# The modules' own classes first: cli/target/lib may also hold module jars.
CP="cli/target/classes:producer/target/classes:streams/target/classes:platform/target/classes:schemas/target/classes:cli/target/lib/*"
SIZE=$((SIZE_MIB * 1024 * 1024))
WORK=$(mktemp -d)
LOOP_DEV=
RAM_DEV=
ZRAM_DEV=${ZRAM_DEV:-/dev/zram0}
ZRAM_USED=
FIO_URING_OPTS=${FIO_URING_OPTS:-}
cleanup() {
  [ -n "$ZRAM_USED" ] && echo 1 > "/sys/block/$(basename "$ZRAM_DEV")/reset" 2>/dev/null || true
  [ -n "$LOOP_DEV" ] && losetup -d "$LOOP_DEV" 2>/dev/null || true
  [ -n "$RAM_DEV" ] && losetup -d "$RAM_DEV" 2>/dev/null || true
  rm -f "$RAM_IMAGE"
  rm -rf "$WORK"
}
trap cleanup EXIT

layout() { # random data, so reads are not of holes and writes overwrite allocated blocks
  if [ ! -f "$1" ] || [ "$(stat -c %s "$1")" -ne "$SIZE" ]; then
    echo "laying out $1 ($SIZE_MIB MiB of random data)" >&2
    fio --name=layout --filename="$1" --size="$SIZE" --rw=write --bs=1M --direct=1 --ioengine=libaio \
        --iodepth=4 --refill_buffers --output=/dev/null
  fi
}

# Ticks of the CPUs the tools run on (CPUS, else all): "steal total". Steal is time the hypervisor ran something
# else on our virtual CPU; a round with much of it measured the host's other tenants more than either tool.
cpu_ticks() {
  python3 - "$CPUS" <<'PY'
import sys
spec = sys.argv[1]
cpus = None
if spec:
    cpus = set()
    for part in spec.split(','):
        a, _, b = part.partition('-')
        cpus.update(range(int(a), int(b or a) + 1))
steal = total = 0
for line in open('/proc/stat'):
    f = line.split()
    if not f[0].startswith('cpu'):
        break
    if (cpus is None and f[0] == 'cpu') or (cpus is not None and f[0] != 'cpu' and int(f[0][3:]) in cpus):
        v = [int(x) for x in f[1:9]]
        steal += v[7]
        total += sum(v)
print(steal, total)
PY
}
steal_pct() { # steal_pct "BEFORE" "AFTER": steal as % of the CPUs' time between two cpu_ticks
  python3 -c "import sys; s0,t0,s1,t1=map(int,sys.argv[1:]); print(f'{100*(s1-s0)/max(1,t1-t0):.1f}')" $1 $2
}

# The seed is new in every run, as fio's offsets are with --randrepeat=0: with one fixed seed every ssdpulse run read
# the same blocks as the run before it, which the host may still hold in its page cache behind the virtual disk.
cat > "$WORK/w.yaml" <<'EOF'
name: bench-4k-random
seed: ${seed}
phases:
  - name: ramp
    kind: TEST
    accessSpecs:
      - {transferSize: 4KiB, percentRead: ${read}, percentRandom: 100}
    queueDepth: ${qd}
    duration: ${ramp}s
  - name: test
    kind: TEST
    accessSpecs:
      - {transferSize: 4KiB, percentRead: ${read}, percentRandom: 100}
    queueDepth: ${qd}
    duration: ${seconds}s
EOF

echo "date: $(date -u +%FT%TZ)  host: $(uname -srm)  cpus: $(nproc)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "fio $(fio --version | sed 's/^fio-//'), $(java -version 2>&1 | head -1), ${SECONDS_PER_CASE} s per case (ssdpulse after a ${RAMP_SECONDS}-s uncounted warm-up), $ROUNDS round(s) per case"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the CPUs: compare the CPU columns too)"
echo "I/O threads pinned to CPUs: ${CPUS:-no (the scheduler places them)}"
[ -n "$FIO_URING_OPTS" ] && echo "fio io_uring runs with: $FIO_URING_OPTS"

declare -A PATHS
for t in $TARGETS; do
  case $t in
    file)
      layout "$FILE"
      PATHS[file]=$FILE
      echo "file: $FILE on $(df --output=source "$FILE" | tail -1) ($(df --output=fstype "$FILE" | tail -1))" ;;
    loop)
      layout "$LOOP_IMAGE"
      LOOP_DEV=$(losetup -f --show --direct-io=on "$LOOP_IMAGE" 2>/dev/null || losetup -f --show "$LOOP_IMAGE")
      PATHS[loop]=$LOOP_DEV
      echo "loop: $LOOP_DEV over $LOOP_IMAGE (direct-io $(cat /sys/block/$(basename "$LOOP_DEV")/loop/dio)," \
           "scheduler $(cat /sys/block/$(basename "$LOOP_DEV")/queue/scheduler))" ;;
    ram)
      fio --name=layout --filename="$RAM_IMAGE" --size="$SIZE" --rw=write --bs=1M --ioengine=psync --refill_buffers \
          --output=/dev/null
      RAM_DEV=$(losetup -f --show "$RAM_IMAGE")
      PATHS[ram]=$RAM_DEV
      echo "ram: $RAM_DEV over $RAM_IMAGE (tmpfs, buffered in the loop driver)" ;;
    zram)
      zsys=/sys/block/$(basename "$ZRAM_DEV")
      [ -b "$ZRAM_DEV" ] && [ -f "$zsys/disksize" ] || { echo "no zram device $ZRAM_DEV (modprobe zram)" >&2; exit 2; }
      # a zram device with a size holds someone's swap or data: never touched
      [ "$(cat "$zsys/disksize")" = 0 ] || { echo "$ZRAM_DEV is in use (disksize $(cat "$zsys/disksize")):" \
          "the zram target needs an unused one (ZRAM_DEV=...)" >&2; exit 2; }
      ZRAM_USED=1
      echo "$SIZE" > "$zsys/disksize"
      fio --name=layout --filename="$ZRAM_DEV" --size="$SIZE" --rw=write --bs=1M --direct=1 --ioengine=psync \
          --refill_buffers --output=/dev/null
      PATHS[zram]=$ZRAM_DEV
      echo "zram: $ZRAM_DEV ($(sed 's/.*\[\(.*\)\].*/\1/' "$zsys/comp_algorithm"), random data: stored uncompressed)" ;;
    *) echo "unknown target $t (file|loop|ram|zram)" >&2; exit 2 ;;
  esac
done

printf '%-5s %-8s %-9s %3s | %9s %9s %6s | %8s %8s %6s | %8s\n' target engine rw qd fio_iops sp_iops ratio \
    fio_us/io sp_us/io ratio fio_own
# One run of each tool for the case the loops below set (path, rw, qd, engine, refill, engine_opts, read_pct).
run_fio() {
  python3 bench/fio-window.py "$FIO_SKIP_SECONDS" "$SECONDS_PER_CASE" fio --name=job \
      --filename="$path" --size="$SIZE" --rw=$rw --bs=4k --iodepth="$qd" --ioengine="$engine" --direct=1 \
      --norandommap --randrepeat=0 $refill "${FIO_PIN[@]}" "${engine_opts[@]}" 2>"$WORK/fio.err"
}
run_ssdpulse() {
  # every target is this script's own scratch file or device, laid out with fio's data: overwriting it is the point
  java -Xmx512m -cp "$CP" dev.ssdpulse.cli.Main device --target "$path" --allow-destroy-data --engine "$engine" \
      "${SP_PIN[@]}" \
      --workload "$WORK/w.yaml" --set seed=$((RANDOM * 32768 + RANDOM)) --set read=$read_pct --set qd=$qd \
      --set seconds=$SECONDS_PER_CASE --set ramp=$RAMP_SECONDS \
      --offline --format json >"$WORK/sp.json" 2>"$WORK/sp.err" || true
  grep "phase 1 'test' ended" "$WORK/sp.err" || true
}
# Every read case before any write case: after a write case the host writes its cache back for a minute or more,
# and a read case right after it ran at a tenth of its speed in its first rounds.
for rw in $RWS; do
  for t in $TARGETS; do
    path=${PATHS[$t]}
    for engine in $ENGINES; do
      read_pct=$([ $rw = randread ] && echo 100 || echo 0)
      # ssdpulse writes fresh incompressible data on every write (its default pattern); fio does with this
      refill=$([ $rw = randwrite ] && echo --refill_buffers || true)
      # shellcheck disable=SC2206 # split on purpose: a list of options
      engine_opts=($([ "$engine" = io_uring ] && echo "$FIO_URING_OPTS" || true))
      for qd in $QDS; do
        fio_iops_all=() fio_cpu_all=() fio_own_all=() sp_iops_all=() sp_cpu_all=() iops_ratios=() cpu_ratios=()
        for ((round = 1; round <= ROUNDS; round++)); do
          fio_out= line= fio_steal=- sp_steal=-
          if ((round % 2 == 1)); then
            t0=$(cpu_ticks)
            fio_out=$(run_fio) || { echo "fio failed: $(cat "$WORK/fio.err")" >&2; continue; }
            t1=$(cpu_ticks); fio_steal=$(steal_pct "$t0" "$t1")
            line=$(run_ssdpulse)
            sp_steal=$(steal_pct "$t1" "$(cpu_ticks)")
          else
            t0=$(cpu_ticks)
            line=$(run_ssdpulse)
            t1=$(cpu_ticks); sp_steal=$(steal_pct "$t0" "$t1")
            if [ -n "$line" ]; then
              fio_out=$(run_fio) || { echo "fio failed: $(cat "$WORK/fio.err")" >&2; continue; }
              fio_steal=$(steal_pct "$t1" "$(cpu_ticks)")
            fi
          fi
          if [ -z "$line" ]; then
            echo "ssdpulse failed: $(cat "$WORK/sp.err")" >&2
            continue
          fi
          read -r f_iops f_cpu f_own <<<"$fio_out"
          s_iops=$(sed -E 's/.* I\/Os, ([0-9]+) IOPS.*/\1/' <<<"$line")
          s_cpu=$(sed -E 's/.*process CPU ([0-9.]+) us\/IO.*/\1/' <<<"$line")
          fio_iops_all+=("$f_iops"); fio_cpu_all+=("$f_cpu"); fio_own_all+=("$f_own")
          sp_iops_all+=("$s_iops"); sp_cpu_all+=("$s_cpu")
          iops_ratios+=("$(python3 -c "print($s_iops/$f_iops)")"); cpu_ratios+=("$(python3 -c "print($s_cpu/$f_cpu)")")
          echo "    round $round ($( ((round % 2 == 1)) && echo "fio first" || echo "ssdpulse first"), steal fio" \
               "$fio_steal %, ssdpulse $sp_steal %): fio $f_iops IOPS $f_cpu us/IO (its own figure $f_own);" \
               "ssdpulse: $line" >&2
        done
        [ ${#sp_iops_all[@]} -gt 0 ] || continue
        median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
        fio_iops=$(median "${fio_iops_all[@]}"); fio_cpu=$(median "${fio_cpu_all[@]}"); fio_own=$(median "${fio_own_all[@]}")
        sp_iops=$(median "${sp_iops_all[@]}"); sp_cpu=$(median "${sp_cpu_all[@]}")
        printf '%-5s %-8s %-9s %3s | %9.0f %9.0f %6.3f | %8.2f %8.2f %6.2f | %8.2f\n' "$t" "$engine" $rw "$qd" "$fio_iops" \
            "$sp_iops" "$(median "${iops_ratios[@]}")" "$fio_cpu" "$sp_cpu" "$(median "${cpu_ratios[@]}")" "$fio_own"
      done
    done
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
