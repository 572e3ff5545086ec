#!/usr/bin/env bash
# Entry point of the ssdpulse image: `kafka` runs a broker (as the apache/kafka image does, from its KAFKA_*
# environment), a shell or an absolute path runs as given (Testcontainers starts its own script that way), and
# anything else is an ssdpulse command (`streams`, `registry`, `simulate`, ...).
set -euo pipefail
case "${1:-}" in
  kafka) shift; exec /etc/kafka/docker/run "$@" ;;
  sh|bash|/*) exec "$@" ;;
  *) exec /opt/ssdpulse/bin/ssdpulse "$@" ;;
esac
