#!/usr/bin/env python3
"""Writes another tool's per-I/O records to ssdpulse as a run, with Confluent's Python Avro serializer: RunStarted
to the catalogue, then on the io topic a heartbeat, the phase, the I/Os in batches (completion order) and
RunFinished. ssdpulse's analytics then treat it like any run (`ssdpulse replay --run ID`, the dashboard, report).

Input: CSV with a header and one row per I/O, times in ns since the run's start:
    submit_time_ns,op,offset_bytes,size_bytes,latency_ns[,status]
op is READ, WRITE or TRIM; status is 0 for success or a positive errno (default 0).

  python3 import_run.py --bootstrap-servers localhost:9092 --schema-registry-url http://localhost:8081 \\
      --run-id mytool-001 --device-model "Example SSD 1TB" --capacity-bytes 1000204886016 ios.csv

The schemas are the latest registered for ssdpulse.runs.v1-value and ssdpulse.io.v1-value (`ssdpulse stack`
registers them when it starts).
"""

import argparse
import csv
import datetime
import heapq
import json
import socket
import sys
import time

# first: it names the interpreter and packages the examples need when one is missing
import ssdpulse_avro

from confluent_kafka import Producer

OPS = ("READ", "WRITE", "TRIM")


class InputError(Exception):
    pass


def read_ios(path):
    """Rows as (submit_ns, op, offset, size, latency_ns, status), checked; the line number in every error."""
    ios = []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        required = ["submit_time_ns", "op", "offset_bytes", "size_bytes", "latency_ns"]
        missing = [c for c in required if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError("%s: header lacks %s (expected %s[,status])" % (path, ", ".join(missing), ",".join(required)))
        for row in reader:
            line = reader.line_num
            try:
                submit, offset, size, latency = (int(row[c]) for c in ("submit_time_ns", "offset_bytes", "size_bytes", "latency_ns"))
                status = int(row.get("status") or 0)
            except ValueError as e:
                raise InputError("%s:%d: %s" % (path, line, e))
            op = row["op"].strip().upper()
            if op not in OPS:
                raise InputError("%s:%d: op '%s' is not one of %s" % (path, line, row["op"], ", ".join(OPS)))
            if submit < 0 or offset < 0 or size <= 0 or latency < 0 or status < 0:
                raise InputError("%s:%d: times, offset and status must be >= 0 and size > 0" % (path, line))
            if size > 2 ** 31 - 1:
                raise InputError("%s:%d: size %d is over 2^31 - 1 bytes" % (path, line, size))
            ios.append((submit, op, offset, size, latency, status))
    if not ios:
        raise InputError("%s: no I/O rows" % path)
    return ios


def queue_depths(ios):
    """For each I/O (in input order): the I/Os in flight at its submit, itself included."""
    order = sorted(range(len(ios)), key=lambda i: ios[i][0])
    in_flight = []  # completion times
    depth = [0] * len(ios)
    for i in order:
        submit = ios[i][0]
        while in_flight and in_flight[0] <= submit:
            heapq.heappop(in_flight)
        heapq.heappush(in_flight, submit + ios[i][4])
        depth[i] = len(in_flight)
    return depth


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--bootstrap-servers", default="localhost:9092")
    parser.add_argument("--schema-registry-url", default="http://localhost:8081")
    parser.add_argument("--run-id", required=True)
    parser.add_argument("--run-name")
    parser.add_argument("--device-model", default="unknown (imported)")
    parser.add_argument("--capacity-bytes", type=int, default=0)
    parser.add_argument("--batch-ios", type=int, default=1000, help="I/Os per IoBatch record (default 1000)")
    args = parser.parse_args(argv)
    try:
        ios = read_ios(args.csv)
    except (InputError, OSError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2

    registry = ssdpulse_avro.serializer(args.schema_registry_url)
    schemas = {}
    for topic in (ssdpulse_avro.RUNS, ssdpulse_avro.IO):
        schema_id, schema, _version = registry.registry_client.get_latest_schema(topic + "-value")
        if schema_id is None:
            print("error: no schema registered for subject %s-value (start `ssdpulse stack`, which registers them)"
                  % topic, file=sys.stderr)
            return 1
        schemas[topic] = schema_id

    depth = queue_depths(ios)
    # ssdpulse's I/O stream is in completion order
    order = sorted(range(len(ios)), key=lambda i: (ios[i][0] + ios[i][4], i))
    run_id = args.run_id
    start = datetime.datetime.now(datetime.timezone.utc)
    now_ms = start.replace(microsecond=start.microsecond // 1000 * 1000)
    span = max(io[2] + io[3] for io in ios)
    started = {
        "runId": run_id,
        "runName": args.run_name or "import: " + args.csv,
        "producerKind": "IMPORT",
        "device": {"model": args.device_model, "serial": None, "firmware": None,
                   "capacityBytes": args.capacity_bytes, "logicalBlockSizeBytes": 512,
                   "physicalBlockSizeBytes": None, "rawFlashBytes": None, "overProvisioningRatio": None,
                   "parityReserveBytes": None, "badBlockReserveBytes": None, "geometry": None,
                   "targetPath": None, "targetIsBlockDevice": False, "presetJson": None},
        "host": {"hostname": socket.gethostname(), "kernel": None, "ioScheduler": None, "directIo": False,
                 "ioEngine": None, "cpuModel": None, "cpuCount": None, "memoryBytes": None, "javaVersion": None,
                 "submitBatch": None, "cpusAllowed": None},
        "workload": {"name": "import", "description": "per-I/O records imported from " + args.csv,
                     "specJson": json.dumps({"source": args.csv}),
                     "phases": [{"index": 0, "name": "import", "kind": "TEST", "accessSpecs": [],
                                 "queueDepth": max(depth), "workers": 1, "spanOffsetBytes": 0,
                                 "spanSizeBytes": span, "durationNs": None, "totalBytes": None, "rampNs": None,
                                 "rateLimitIops": None, "trimEnabled": None}]},
        "seed": 0,
        "wallClockStartEpochNs": None,  # retired: wallClockStart carries the start
        "toolVersion": "examples/python/import_run.py",
        "originRunId": None,
        "labels": {"importedFrom": args.csv},
        "smartIntervalNs": None,
        "wallClockStart": start,
        "group": None,  # a run on its own, in no run group
        "member": None,
    }

    producer = Producer(ssdpulse_avro.producer_config(args.bootstrap_servers))
    failures = []

    def delivered(err, _msg):
        if err is not None:
            failures.append(err)

    def send(topic, value):
        producer.produce(topic, key=run_id.encode("utf-8"),
                         value=registry.encode_record_with_schema_id(schemas[topic], value), on_delivery=delivered)
        producer.poll(0)

    send(ssdpulse_avro.RUNS, started)
    send(ssdpulse_avro.IO, {"event": {"runId": run_id, "timeNs": 0, "wallClockEpochMs": now_ms, "ioCompleted": 0,
                                      "ioPublished": 0, "ioNotPublished": 0, "completeUpToNs": None,
                                      "membership": None}})
    send(ssdpulse_avro.IO, {"event": {"runId": run_id, "phaseIndex": 0, "phaseName": "import", "phaseKind": "TEST",
                                      "timeNs": 0}})
    batches = 0
    for first in range(0, len(order), args.batch_ios):
        chunk = [ios[i] for i in order[first:first + args.batch_ios]]
        submits = [io[0] for io in chunk]
        send(ssdpulse_avro.IO, {"event": {
            "runId": run_id, "worker": 0, "batchSequence": batches, "firstIoSequence": first, "phaseIndex": 0,
            "ioCount": len(chunk), "baseSubmitTimeNs": submits[0],
            "ops": [io[1] for io in chunk],
            "offsetBytes": [io[2] for io in chunk],
            "sizeBytes": [io[3] for io in chunk],
            "submitTimeDeltaNs": [0] + [submits[k] - submits[k - 1] for k in range(1, len(submits))],
            "latencyNs": [io[4] for io in chunk],
            "queueDepth": [depth[i] for i in order[first:first + args.batch_ios]],
            "status": [io[5] for io in chunk]}})
        batches += 1
    end_ns = max(io[0] + io[4] for io in ios)
    byte_sum = {op: sum(io[3] for io in ios if io[1] == op and io[5] == 0) for op in OPS}
    send(ssdpulse_avro.IO, {"event": {
        "runId": run_id, "status": "COMPLETED", "reason": None, "timeNs": end_ns, "wallClockEpochMs": now_ms,
        "ioCount": len(ios), "ioCountPerWorker": [len(ios)], "batchCountPerWorker": [batches],
        "bytesRead": byte_sum["READ"], "bytesWritten": byte_sum["WRITE"], "bytesTrimmed": byte_sum["TRIM"],
        "ioNotPublished": 0, "replayPhases": []}})
    remaining = producer.flush(60)
    if remaining or failures:
        print("error: %d records not delivered: %s" % (remaining + len(failures), failures[:3]), file=sys.stderr)
        return 1
    print("run %s: %d I/Os in %d batches written to %s" % (run_id, len(ios), batches, ssdpulse_avro.IO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
