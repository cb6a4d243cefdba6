#!/usr/bin/env bash
# Installs every package diffsched needs on Debian 12 (idempotent: packages
# already present are skipped; apt-get update only runs when something is missing).
set -euo pipefail

packages=(
  cmake g++ make git
  clang-14 libclang-rt-14-dev llvm-14
  libfmt-dev libboost-container-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev
  libz3-dev
  valgrind gnuplot-nox jq
  libxml2-utils
  afl++ zip unzip
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
else
  if [[ $(id -u) -ne 0 ]]; then
    SUDO=sudo
  else
    SUDO=
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "install-deps: done"
fi

# The campaign reports' validators (npm packages; idempotent, quick when present).
"$(dirname "$0")/install-validators.sh"
