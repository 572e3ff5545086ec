#!/usr/bin/env bash
# Builds the ssdpulse image (docker/Dockerfile) from the binary distribution, with podman or Docker.
#
#   docker/build-images.sh [--base auto|local|IMAGE] [--engine podman|docker] [--tag TAG]
#
# The base is any image with Java 17+ and bash. --base auto (the default) uses the public eclipse-temurin:17-jre
# when the engine can pull it, and otherwise (no image registry reachable, as on the development machine) builds
# a local one from Debian packages: debootstrap --variant=minbase with openjdk-17-jre-headless, imported as
# localhost/ssdpulse-base:bookworm-jre17 (kept, so later builds reuse it). The Debian mirror is the one apt on this
# machine uses (or DEBIAN_MIRROR). Needs the distribution first: ./mvnw -B -DskipTests package.
# The image runs every ssdpulse command, a Kafka broker (`kafka`, compatible with the apache/kafka image's
# KAFKA_* environment, from the Kafka jars in lib/) and the schema registry (`registry`).
set -euo pipefail
cd "$(dirname "$0")/.."

base=auto
engine="${CONTAINER_ENGINE:-}"
tag=""
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --engine) engine="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "build-images.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$engine" ]; then
  if command -v podman >/dev/null 2>&1; then engine=podman
  elif command -v docker >/dev/null 2>&1; then engine=docker
  else echo "build-images.sh: neither podman nor docker is installed" >&2; exit 1; fi
fi

tarball="$(ls dist/target/ssdpulse-*.tar.gz 2>/dev/null | head -n 1)"
if [ -z "$tarball" ]; then
  echo "build-images.sh: no dist/target/ssdpulse-*.tar.gz; build it first: ./mvnw -B -DskipTests package" >&2
  exit 1
fi
version="$(basename "$tarball" .tar.gz)"; version="${version#ssdpulse-}"
tag="${tag:-localhost/ssdpulse:$version}"

local_base=localhost/ssdpulse-base:bookworm-jre17

debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  # the first plain Debian archive that apt on this machine uses (deb822 .sources or one-line .list files)
  local uri
  uri="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' | head -n 1)"
  [ -n "$uri" ] || uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
      | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' | head -n 1)"
  if [ -z "$uri" ]; then
    echo "build-images.sh: no Debian mirror in /etc/apt; set DEBIAN_MIRROR" >&2; exit 1
  fi
  echo "$uri"
}

build_local_base() {
  if $engine image exists "$local_base" 2>/dev/null || $engine image inspect "$local_base" >/dev/null 2>&1; then
    echo "base image $local_base exists" >&2
    return
  fi
  command -v debootstrap >/dev/null 2>&1 || { echo "build-images.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
  local root; root="$(mktemp -d /tmp/ssdpulse-base-XXXXXX)"
  local mirror; mirror="$(debian_mirror)"
  echo "building $local_base with debootstrap from $mirror ..." >&2
  local t0=$SECONDS
  debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$root" "$mirror" >/tmp/ssdpulse-debootstrap.log 2>&1 \
    || { echo "build-images.sh: debootstrap failed, see /tmp/ssdpulse-debootstrap.log" >&2; rm -rf "$root"; exit 1; }
  # the package cache and lists are not needed at run time
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | $engine import --change 'CMD ["/bin/bash"]' - "$local_base" >/dev/null
  rm -rf "$root"
  echo "built $local_base in $((SECONDS - t0)) s" >&2
}

case "$base" in
  auto)
    if timeout 120 $engine pull -q eclipse-temurin:17-jre >/dev/null 2>&1; then base_image=eclipse-temurin:17-jre
    else build_local_base; base_image=$local_base; fi ;;
  local) build_local_base; base_image=$local_base ;;
  *) base_image="$base" ;;
esac

t0=$SECONDS
$engine build -q -f docker/Dockerfile --build-arg BASE_IMAGE="$base_image" --build-arg VERSION="$version" -t "$tag" . >/dev/null
echo "built $tag on $base_image in $((SECONDS - t0)) s" >&2
echo "$tag"
