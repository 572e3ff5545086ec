"""What the three examples share: ssdpulse's topic names and Confluent's Avro serializer on a cached registry
client (confluent_kafka.avro, as Debian packages it: python3-confluent-kafka, python3-avro, python3-requests)."""

import base64
import datetime
import math
import sys

NEEDS = ("the ssdpulse Python examples need Debian's python3 (/usr/bin/python3) with Debian's packages of "
         "Confluent's client and Avro: apt-get install python3-confluent-kafka python3-avro python3-requests")

try:
    from confluent_kafka.avro.cached_schema_registry_client import CachedSchemaRegistryClient
    from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
    import avro  # noqa: F401 (confluent_kafka.avro's schemas)
    import requests  # noqa: F401 (its registry client)
except ImportError as missing:
    sys.exit("%s (%s: %s)" % (NEEDS, sys.executable, missing))

# the topic catalogue (dev.ssdpulse.schemas.topics.Topics); every key is the run id as UTF-8 text
RUNS = "ssdpulse.runs.v1"                    # RunStarted, the catalogue of runs (compacted)
IO = "ssdpulse.io.v1"                        # IoStreamRecord: IoBatch | PhaseChanged | RunHeartbeat | RunFinished
SMART = "ssdpulse.smart.v1"                  # SmartSample
METRICS_1S = "ssdpulse.metrics-1s.v1"        # WindowMetrics, one per window and op
LATENCY = "ssdpulse.latency.v1"              # RunLatency
LATENCY_SCATTER = "ssdpulse.latency-scatter.v1"  # LatencyScatter, one per window (every I/O >= 10 ms + a sample)
WAF = "ssdpulse.waf.v1"                      # WriteAmplification
STEADY_STATE = "ssdpulse.steady-state.v1"    # SteadyStateVerdict
RUN_SUMMARY = "ssdpulse.run-summary.v1"      # RunSummary
RESULT_SETS = "ssdpulse.result-sets.v1"      # ResultSetRecord
RUN_DELETIONS = "ssdpulse.run-deletions.v1"  # RunDeleted
AVRO_TOPICS = [RUNS, IO, SMART, METRICS_1S, LATENCY, LATENCY_SCATTER, WAF, STEADY_STATE, RUN_SUMMARY, RESULT_SETS,
               RUN_DELETIONS]

# the largest integer that a double (a JavaScript number) holds exactly
MAX_SAFE_INTEGER = 2 ** 53 - 1


def serializer(schema_registry_url):
    """Confluent's message serializer (magic byte, schema id, Avro binary) on a cached registry client."""
    return MessageSerializer(CachedSchemaRegistryClient({"url": schema_registry_url}))


def consumer_config(bootstrap_servers, group_id):
    return {
        "bootstrap.servers": bootstrap_servers,
        "group.id": group_id,
        # the analytics write with exactly-once transactions: read only what they committed
        "isolation.level": "read_committed",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    }


def producer_config(bootstrap_servers):
    return {
        "bootstrap.servers": bootstrap_servers,
        # the Java clients' partitioner: a run's records land in the partition that ssdpulse's own producers
        # would choose, so the runs and io topics stay co-partitioned by run id
        "partitioner": "murmur2_random",
        "enable.idempotence": True,
        "acks": "all",
    }


def to_json(value):
    """A decoded Avro value as strict JSON: timestamps (datetime) as ISO-8601, bytes as base64, and NaN or an
    infinity (a double the analytics could not compute yet, such as the slope of a one-sample window) as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


def unsafe_integers(value, path=""):
    """Paths of integers beyond what a double holds exactly (a JavaScript consumer would lose precision)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [path] if abs(value) > MAX_SAFE_INTEGER else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in unsafe_integers(v, path + "." + k if path else k)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in unsafe_integers(v, "%s[%d]" % (path, i))]
    return []
