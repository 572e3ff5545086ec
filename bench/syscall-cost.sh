#!/usr/bin/env bash
# What one system call costs on this machine, from C and from Java 17 as the asynchronous device engines make it
# (JNA direct mapping) and through the JDK's own JNI: the difference is the price of a downcall, paid twice per I/O
# by libaio at QD1 (io_submit, io_getevents) and once by io_uring (BENCHMARKS.md, "A system call from Java").
# Usage: bench/syscall-cost.sh   Needs: a C compiler (cc) for the C side, compiled modules for JNA's jar
#        (the script runs `./mvnw -o -pl cli -am package -DskipTests` when cli/target/lib is missing; never `install`).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ ! -d cli/target/lib ]; then
  ./mvnw -B -q -o -pl cli -am package -DskipTests >&2
fi
JNA=$(ls cli/target/lib/jna-[0-9]*.jar | head -1)
echo "date: $(date -u +%FT%TZ)  host: $(uname -srm)  cpus: $(nproc)  $(java -version 2>&1 | head -1)"
if command -v cc >/dev/null; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  cc -O2 -o "$WORK/getpid" bench/syscall-cost/getpid.c
  "$WORK/getpid"
else
  echo "no C compiler (cc): the C side is skipped (apt-get install gcc)"
fi
java -cp "$JNA" bench/syscall-cost/SyscallCost.java
