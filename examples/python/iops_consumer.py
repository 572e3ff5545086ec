#!/usr/bin/env python3
"""Prints per-second IOPS, MB/s and p99 latency of every run (or one) as the analytics publish them, and each
run's summary when it is final: the Python counterpart of the README's Java consumer.

  python3 iops_consumer.py --bootstrap-servers localhost:9092 --schema-registry-url http://localhost:8081
  python3 iops_consumer.py ... --run sim-20261201-150215-3f9a --until-summary
"""

import argparse
import sys
import time
import uuid

# first: it names the interpreter and packages the examples need when one is missing
import ssdpulse_avro

from confluent_kafka import Consumer, KafkaError, KafkaException


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-servers", default="localhost:9092")
    parser.add_argument("--schema-registry-url", default="http://localhost:8081")
    parser.add_argument("--run", help="only this run id")
    parser.add_argument("--until-summary", action="store_true",
                        help="exit once a summary (with --run: that run's) arrived and both topics are read to their end")
    parser.add_argument("--timeout-s", type=float, default=0, help="give up after this many seconds (0 = never)")
    args = parser.parse_args(argv)

    serializer = ssdpulse_avro.serializer(args.schema_registry_url)
    config = ssdpulse_avro.consumer_config(args.bootstrap_servers, "iops-printer-" + uuid.uuid4().hex[:8])
    config["enable.partition.eof"] = True
    consumer = Consumer(config)
    consumer.subscribe([ssdpulse_avro.METRICS_1S, ssdpulse_avro.RUN_SUMMARY])
    deadline = time.monotonic() + args.timeout_s if args.timeout_s > 0 else None
    summary_seen = False
    at_end = set()  # partitions read to their end since their last record
    try:
        while deadline is None or time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    at_end.add((msg.topic(), msg.partition()))
                    # the topics are read side by side: a run's windows may still follow its summary
                    if summary_seen and len(at_end) >= len(consumer.assignment()):
                        return 0
                    continue
                raise KafkaException(msg.error())
            at_end.discard((msg.topic(), msg.partition()))
            run_id = msg.key().decode("utf-8")
            if args.run and run_id != args.run:
                continue
            value = serializer.decode_message(msg.value())
            if msg.topic() == ssdpulse_avro.METRICS_1S:
                print("%s %s phase=%d t=%ds IOPS=%.0f MB/s=%.1f p99=%dus" % (
                    run_id, value["op"], value["phaseIndex"], value["windowStartNs"] // 1_000_000_000,
                    value["iops"], value["mbPerSec"], value["latency"]["percentiles"]["p99Ns"] // 1000), flush=True)
            else:
                ops = ", ".join("%s %d I/Os %.0f IOPS mean %.1fus max %.1fus" % (
                    op["op"], op["ioCount"], op["iops"],
                    op["latency"]["sumNs"] / op["latency"]["count"] / 1000 if op["latency"]["count"] else 0,
                    op["latency"]["maxNs"] / 1000) for op in value["ops"])
                print("summary %s %s: %d I/Os; %s" % (run_id, value["status"], value["ioCount"], ops), flush=True)
                # the analytics publish a run's summary once, when it ended (status COMPLETED, ABORTED, ...)
                summary_seen = summary_seen or args.until_summary
        print("timed out after %.0f s" % args.timeout_s, file=sys.stderr)
        return 1
    finally:
        consumer.close()


if __name__ == "__main__":
    sys.exit(main())
