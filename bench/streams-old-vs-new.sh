#!/usr/bin/env bash
# The analytics end to end (StreamsThroughputCheck: producer -> embedded broker -> Kafka Streams -> summary) of a
# base commit and of this work tree, alternately in one run on this machine (old, new, old, new, ...), so the
# machine's load hits both alike. Usage: bench/streams-old-vs-new.sh [BASE_COMMIT] [ROUNDS] [IOS]
# (default 2445a34 = before the one analysis core, 2 rounds, 10 M I/Os of 2 runs in 512-I/O batches).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-2445a34}"
rounds="${2:-2}"
ios="${3:-10000000}"
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/old" >/dev/null 2>&1 || true' EXIT
git -C "$here" worktree add -q --detach "$work/old" "$base"
build() {
  (cd "$1" && ./mvnw -B -q -o -pl streams -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test >/dev/null)
}
classpath() {
  local w="$1"
  echo "$w/streams/target/classes:$w/streams/target/test-classes:$w/schemas/target/classes:$w/platform/target/classes:$w/platform/target/test-classes:$w/producer/target/classes:$(tr ':' '\n' < "$w/streams/target/cp.txt" | grep -v ssdpulse | paste -sd:)"
}
build "$work/old"
build "$here"
old_cp="$(classpath "$work/old")"
new_cp="$(classpath "$here")"
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    cp_var="${side}_cp"
    echo "## $side (round $r, load $(cut -d' ' -f1-3 /proc/loadavg))"
    java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro -cp "${!cp_var}" \
        dev.ssdpulse.streams.bench.StreamsThroughputCheck "$ios" 512 2 1 warmup=2000000 2>/dev/null \
        | grep -E "end-to-end|CPU per I/O" || echo "(failed)"
  done
done
