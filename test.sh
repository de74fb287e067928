#!/usr/bin/env bash
# Runs every mkvet test: installs the Debian packages the end-to-end tests need when
# they are missing, then go vet and go test with MKVET_E2E=1 (end-to-end tests fail,
# rather than skip, when a tool is missing under MKVET_E2E=1).
set -euo pipefail
cd "$(dirname "$0")"

need=()
command -v gfortran >/dev/null 2>&1 || need+=(gfortran)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
[ -e /usr/include/x86_64-linux-gnu/openmpi ] || [ -e /usr/lib/x86_64-linux-gnu/openmpi/include ] || need+=(libopenmpi-dev)
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
command -v opt-14 >/dev/null 2>&1 || need+=(llvm-14)
# The SARIF schema test validates with a JSON Schema validator of its own.
python3 -c 'import jsonschema' >/dev/null 2>&1 || /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || need+=(python3-jsonschema)
if [ ${#need[@]} -gt 0 ]; then
  echo "test.sh: installing ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq
  $sudo apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 \
    gfortran openmpi-bin libopenmpi-dev clang-14 llvm-14 python3-jsonschema
fi

export MKVET_E2E=1
# Open MPI refuses to run as root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

go vet ./...
# Compile every test binary first, two at a time (no test matches the pattern).
go test -count=1 -run '^$' ./... >/dev/null
# -p 1: one test binary at a time. The calibration accuracy tests and the
# replays time real MPI runs on both cores; another package's tests beside
# them make the timings they fit and check noise, not the program. (Two at a
# time gains nothing here: the count oracles of two packages at once each
# take twice as long, their MPI ranks contending for the two cores.)
# -timeout 30m: the corpora oracles build and run NPB and CloverLeaf in one
# test binary, about five minutes on two cores, which a loaded machine can
# double past the default ten.
go test -p 1 -count=1 -timeout 30m ./...
