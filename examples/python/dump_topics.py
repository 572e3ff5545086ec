#!/usr/bin/env python3
"""Decodes every record of every ssdpulse topic (or those of some runs) up to the end of each partition and prints
one JSON object per line: {"topic", "partition", "offset", "key", "schemaId", "value"}, timestamps as ISO-8601,
NaN as null.
A last line {"counts": {topic: n}, "unsafeIntegers": [...]} counts the records and lists every integer that a
double (a JavaScript number) could not hold exactly, by topic and field.

  python3 dump_topics.py --bootstrap-servers localhost:9092 --schema-registry-url http://localhost:8081 --run ID
"""

import argparse
import json
import struct
import sys
import time
import uuid

# first: it names the interpreter and packages the examples need when one is missing
import ssdpulse_avro

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-servers", default="localhost:9092")
    parser.add_argument("--schema-registry-url", default="http://localhost:8081")
    parser.add_argument("--run", action="append", help="only these run ids (repeatable)")
    parser.add_argument("--topic", action="append", choices=ssdpulse_avro.AVRO_TOPICS, help="only these topics")
    parser.add_argument("--timeout-s", type=float, default=120)
    args = parser.parse_args(argv)

    serializer = ssdpulse_avro.serializer(args.schema_registry_url)
    config = ssdpulse_avro.consumer_config(args.bootstrap_servers, "dump-" + uuid.uuid4().hex[:8])
    config["enable.partition.eof"] = True
    consumer = Consumer(config)
    topics = args.topic or ssdpulse_avro.AVRO_TOPICS
    metadata = consumer.list_topics(timeout=30)
    partitions = [TopicPartition(t, p, 0) for t in topics if t in metadata.topics
                  for p in sorted(metadata.topics[t].partitions)]
    consumer.assign(partitions)
    remaining = {(tp.topic, tp.partition) for tp in partitions}
    counts = {t: 0 for t in topics}
    unsafe = {}
    deadline = time.monotonic() + args.timeout_s
    try:
        while remaining and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    remaining.discard((msg.topic(), msg.partition()))
                    continue
                raise KafkaException(msg.error())
            key = msg.key().decode("utf-8") if msg.key() is not None else None
            if args.run and key not in args.run:
                continue
            if msg.value() is None:  # a tombstone (compacted topics)
                value, schema_id = None, None
            else:
                schema_id = struct.unpack(">bI", msg.value()[:5])[1]
                value = serializer.decode_message(msg.value())
            counts[msg.topic()] += 1
            for path in ssdpulse_avro.unsafe_integers(value):
                unsafe.setdefault(msg.topic() + ":" + path, 0)
                unsafe[msg.topic() + ":" + path] += 1
            print(json.dumps({"topic": msg.topic(), "partition": msg.partition(), "offset": msg.offset(),
                              "key": key, "schemaId": schema_id, "value": ssdpulse_avro.to_json(value)}, allow_nan=False))
        if remaining:
            print("timed out with partitions not read to the end: %s" % sorted(remaining), file=sys.stderr)
            return 1
        print(json.dumps({"counts": counts, "unsafeIntegers": sorted(unsafe)}))
        return 0
    finally:
        consumer.close()


if __name__ == "__main__":
    sys.exit(main())
