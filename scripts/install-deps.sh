#!/usr/bin/env bash
# Installs every package diffsched needs on Debian 12, as root (or through
# sudo). Idempotent: packages already present are skipped, and apt-get update
# runs once, only when something has to be looked up or installed. Then the
# kernel image that kernel-check --in-kernel boots (scripts/fetch-kernel.sh)
# and the report validators (scripts/install-validators.sh).
# Every step is printed; a failure prints one line naming the step and the
# reason, and exits non-zero (scripts/lib/steps.sh).
_prog=install-deps
source "$(dirname "$0")/lib/steps.sh"

packages=(
  cmake g++ make git
  clang-14 libclang-rt-14-dev llvm-14 libclang-14-dev
  libfmt-dev libboost-container-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev
  libz3-dev
  valgrind gnuplot-nox jq
  procps                                       # ps, pgrep: the campaign interrupt test
  libxml2-utils
  afl++ zip unzip
  bubblewrap                                   # kernel-check's sandbox for the candidate
  patch                                        # check-patch applies a patch to a copy of its base
  b4                                           # ctest patch.cli.b4-am: the real b4 am (0.12) feeding check-patch
  linux-source-6.1 xz-utils python3            # the kernel's own KTAP parser and cpumask/bitmap tests
  qemu-system-x86 busybox-static cpio          # kernel-check --in-kernel
)

# kernel-check --in-kernel builds a module against the headers of Debian's
# current kernel: the installed linux-headers-<ver>-amd64, else the version the
# linux-headers-amd64 metapackage depends on (which needs the package lists).
step "resolve the kernel headers' version"
kver=$(installed_kernel_headers)
if [[ -z $kver ]]; then
  apt_update_once
  kver=$({ apt-cache depends linux-headers-amd64 2>/dev/null || true; } |
         sed -n 's/.*Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
  [[ -n $kver ]] || die "$_step: apt-cache depends linux-headers-amd64 names no linux-headers-<ver>-amd64 (is this Debian 12 amd64 with main in its apt sources?)"
fi
packages+=("linux-headers-$kver")
echo "$_prog: kernel headers: linux-headers-$kver"

step "check which of ${#packages[@]} packages are installed"
missing=()
for p in "${packages[@]}"; do
  is_installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "$_prog: all ${#packages[@]} packages present"
else
  apt_update_once
  step "apt-get install ${missing[*]}"
  run as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  for p in "${missing[@]}"; do
    is_installed "$p" || die "$_step: apt-get install succeeded but $p is not installed"
  done
  echo "$_prog: installed ${#missing[@]} packages"
fi

step "fetch the kernel image for --in-kernel (scripts/fetch-kernel.sh $kver)"
sub "$(dirname "$0")/fetch-kernel.sh" "$kver"

step "install the report validators (scripts/install-validators.sh)"
sub "$(dirname "$0")/install-validators.sh"
echo "$_prog: done"
