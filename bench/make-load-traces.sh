#!/usr/bin/env bash
# Makes the shipped load traces (producer/src/main/resources/workloads/traces/*.iolog.gz, fio iolog v3) from their
# fixed seeds with LoadTraceSynthesizer (producer test sources): the same text on every run. Nothing is downloaded.
# Usage: bench/make-load-traces.sh [OUTPUT_DIR]   (default: the shipped traces' directory)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$here/producer/src/main/resources/workloads/traces}"
cd "$here"
./mvnw -B -q -pl producer -am test-compile -Dspotless.check.skip=true >/dev/null
java -cp "$here/producer/target/test-classes" dev.ssdpulse.producer.trace.LoadTraceSynthesizer "$out"
