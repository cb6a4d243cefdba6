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
  qemu-system-x86 busybox-static cpio   # kernel-check --in-kernel
)

# kernel-check --in-kernel: the headers of Debian's current kernel, resolved
# once from the linux-headers-amd64 metapackage (its linux-headers-<ver>-amd64
# brings -common and linux-kbuild); the image itself is only fetched into a
# cache by scripts/fetch-kernel.sh, never installed.
kver=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' | sort -V | tail -n1)
if [[ -z $kver ]]; then
  kver=$(apt-cache depends linux-headers-amd64 2>/dev/null | sed -n 's/.*Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
  if [[ -z $kver && $(id -u) -eq 0 ]]; then
    apt-get update -qq
    kver=$(apt-cache depends linux-headers-amd64 2>/dev/null | sed -n 's/.*Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
  fi
fi
[[ -n $kver ]] && packages+=("linux-headers-$kver")

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

# The kernel image kernel-check --in-kernel boots (apt-get download + dpkg -x
# into a cache; idempotent).
"$(dirname "$0")/fetch-kernel.sh" >/dev/null || echo "install-deps: warning: could not fetch the kernel image (kernel-check --in-kernel will say so)" >&2

# The campaign reports' validators (npm packages; idempotent, quick when present).
"$(dirname "$0")/install-validators.sh"
