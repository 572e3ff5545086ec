#!/usr/bin/env bash
# Seed 000, experiment 1 through the CLI: 4 KiB random writes, QD1, 24 GB span, 20 simulated minutes, on
# the simulated 2012 120 GB drive, secure-erased and with 0/4/8/16 GB of free flash. Prints WA and MB/s
# (first minute, last 5 minutes) per case beside the seed's WA. Usage: bench/seed000-exp1.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
run() { # name preset [vars...]
  local name=$1 preset=$2; shift 2
  "$here/ssdpulse" simulate --offline --quiet --format json --workload "$preset" "$@" \
      --series-csv "$out/$name.csv" > "$out/$name.json"
}
run secure-erased seed000-exp1-secure-erased
for gb in 0 4 8 16; do run "free-${gb}GB" seed000-exp1-random-write --set "freeFlashGB=$gb"; done
python3 - "$out" <<'PY'
import csv, json, sys, os
out = sys.argv[1]
seed = {"secure-erased": 1.39, "free-0GB": 4.54, "free-4GB": 2.54, "free-8GB": 1.96, "free-16GB": 1.53}
print("| start state | WA (ssdpulse) | WA (seed 000) | ratio | MB/s first minute | MB/s last 5 min |")
print("|---|---|---|---|---|---|")
for name, wa_seed in seed.items():
    s = json.load(open(os.path.join(out, name + ".json")))
    test = [p for p in s["phases"] if p["kind"] == "TEST"][-1]
    start = test["startNs"] / 1e9
    rows = [r for r in csv.DictReader(open(os.path.join(out, name + ".csv"))) if int(r["phase"]) == test["index"]]
    first = [float(r["mb_per_s"]) for r in rows if float(r["window_start_s"]) < start + 60]
    last = [float(r["mb_per_s"]) for r in rows if float(r["window_start_s"]) >= start + 900]
    wa = test["writeAmplification"]
    print(f"| {name} | {wa:.2f} | {wa_seed:.2f} | {wa / wa_seed:.2f} | {sum(first) / len(first):.1f} | {sum(last) / len(last):.1f} |")
PY
