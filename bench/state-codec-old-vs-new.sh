#!/usr/bin/env bash
# The run state's codec alone (StateCodecCostCheck: RunAnalysis.encode, what the run processor's store writes at
# every commit, and RunAnalysis.decode) of a base commit and of this work tree, alternately in one run on this
# machine (old, new, old, new, ...), so the machine's load hits both alike. The check's source is this work tree's,
# copied into the base. Usage: bench/state-codec-old-vs-new.sh BASE_COMMIT [ROUNDS] [IOS] [REPEATS]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="$1"
rounds="${2:-5}"
ios="${3:-4000000}"
repeats="${4:-500}"
check=streams/src/test/java/dev/ssdpulse/streams/bench/StateCodecCostCheck.java
work="$(mktemp -d)"
trap 'git -C "$here" worktree remove --force "$work/old" >/dev/null 2>&1 || true' EXIT
git -C "$here" worktree add -q --detach "$work/old" "$base"
cp "$here/$check" "$work/old/$check"
build() {
  (cd "$1" && ./mvnw -B -q -o -pl streams -am -DskipTests -Dspotless.check.skip=true package \
      dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test >/dev/null)
}
classpath() {
  local w="$1"
  echo "$w/streams/target/classes:$w/streams/target/test-classes:$w/schemas/target/classes:$w/platform/target/classes:$w/producer/target/classes:$(tr ':' '\n' < "$w/streams/target/cp.txt" | grep -v ssdpulse | paste -sd:)"
}
build "$work/old"
build "$here"
old_cp="$(classpath "$work/old")"
new_cp="$(classpath "$here")"
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    cp_var="${side}_cp"
    printf '%s round %d: ' "$side" "$r"
    java -Xmx1g -cp "${!cp_var}" dev.ssdpulse.streams.bench.StateCodecCostCheck "$ios" "$repeats" 2>/dev/null \
      || echo "(failed)"
  done
done
