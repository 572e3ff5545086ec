#!/usr/bin/env bash
# A Kafka broker (KRaft) from the Kafka jars of the ssdpulse distribution, configured as the apache/kafka image
# is: every KAFKA_* variable is a server property (KAFKA_ dropped, lower case, "_" -> ".", "__" -> "_",
# "___" -> "-", e.g. KAFKA_NODE_ID -> node.id), CLUSTER_ID formats the storage on first start. Installed as
# /etc/kafka/docker/run, the path that Testcontainers' KafkaContainer and compose files call.
set -euo pipefail
lib=/opt/ssdpulse/lib
config_dir="${KAFKA_CONFIG_DIR:-/var/lib/kafka/config}"
props="$config_dir/server.properties"
mkdir -p "$config_dir"

: > "$props"
while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP_OPTS|KAFKA_OPTS|KAFKA_CONFIG_DIR) continue ;;
    KAFKA_*) ;;
    *) continue ;;
  esac
  key="$(printf '%s' "${name#KAFKA_}" | tr '[:upper:]' '[:lower:]' | sed -e 's/___/-/g' -e 's/__/\x01/g' -e 's/_/./g' -e 's/\x01/_/g')"
  printf '%s=%s\n' "$key" "$value" >> "$props"
done < <(env)

has() { grep -q "^$1=" "$props"; }
value_of() { sed -n "s/^$1=//p" "$props" | head -n 1; }
has log.dirs || echo "log.dirs=/var/lib/kafka/data" >> "$props"
has node.id || { echo "ssdpulse kafka: KAFKA_NODE_ID is required" >&2; exit 2; }
has process.roles || echo "process.roles=broker,controller" >> "$props"
# a single combined node needs no voter list from outside: it votes for itself on its CONTROLLER listener
if [[ "$(value_of process.roles)" == *controller* ]] && ! has controller.quorum.voters && ! has controller.quorum.bootstrap.servers; then
  controller_name="$(value_of controller.listener.names | cut -d, -f1)"
  controller_port="$(value_of listeners | tr ',' '\n' | sed -n "s/^${controller_name:-CONTROLLER}:\/\/[^:]*:\([0-9]*\)$/\1/p" | head -n 1)"
  [ -n "$controller_port" ] || { echo "ssdpulse kafka: no ${controller_name:-CONTROLLER} listener in KAFKA_LISTENERS" >&2; exit 2; }
  echo "controller.quorum.voters=$(value_of node.id)@localhost:$controller_port" >> "$props"
fi

log4j="$config_dir/log4j2.properties"
cat > "$log4j" <<'LOG4J'
status = warn
appender.console.type = Console
appender.console.name = STDOUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.stdout.ref = STDOUT
logger.kafkaRequest.name = kafka.request.logger
logger.kafkaRequest.level = warn
logger.stateChange.name = state.change.logger
logger.stateChange.level = warn
LOG4J

java_opts=(${KAFKA_HEAP_OPTS:--Xmx512m} ${KAFKA_OPTS:-} -Djava.awt.headless=true "-Dlog4j2.configurationFile=file:$log4j")
log_dir="$(value_of log.dirs | cut -d, -f1)"
if [ ! -f "$log_dir/meta.properties" ]; then
  java "${java_opts[@]}" -cp "$lib/*" kafka.tools.StorageTool format -t "${CLUSTER_ID:-$(java -cp "$lib/*" kafka.tools.StorageTool random-uuid)}" \
    -c "$props" --ignore-formatted
fi
exec java "${java_opts[@]}" -cp "$lib/*" kafka.Kafka "$props"
