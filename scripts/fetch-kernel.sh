#!/usr/bin/env bash
# Fetches the Debian kernel image that kernel-check --in-kernel boots, without
# installing it: `apt-get download linux-image-<ver>` + `dpkg -x` into a cache
# directory (default /var/cache/diffsched/kernel, else ~/.cache/diffsched/kernel
# when that is not writable; DIFFSCHED_KERNEL_CACHE overrides). Idempotent:
# nothing is fetched when the image is there. The version is $1, else the one
# of the installed kernel headers (scripts/install-deps.sh installs them).
# Prints each step and, last, the path of the vmlinuz; a failure is one line
# naming the step (scripts/lib/steps.sh).
_prog=fetch-kernel
source "$(dirname "$0")/lib/steps.sh"

step "resolve the kernel version"
ver=${1:-}
[[ -n $ver ]] || ver=$(installed_kernel_headers)
[[ -n $ver ]] || die "$_step: no linux-headers-*-amd64 is installed, and no version was given (run scripts/install-deps.sh)"

cache=${DIFFSCHED_KERNEL_CACHE:-}
if [[ -z $cache ]]; then
  cache=/var/cache/diffsched/kernel
  if ! mkdir -p "$cache" 2>/dev/null || [[ ! -w $cache ]]; then
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/diffsched/kernel
  fi
fi
step "use the cache $cache"
mkdir -p "$cache" || die "$_step: cannot create $cache"
dest=$cache/$ver
vmlinuz=$dest/boot/vmlinuz-$ver
# The uncompressed kernel beside the image, when the kernel has a PVH entry
# (CONFIG_PVH): kernel-check boots it without decompressing (10 s of every
# TCG boot; scripts/lib/unpack-pvh.py). Made once; an image without it still
# boots, from the bzImage.
unpack_pvh() {
  local pvh=$dest/boot/vmlinux-$ver config=$dest/boot/config-$ver
  [[ -f $pvh ]] && return 0
  if ! grep -qx 'CONFIG_PVH=y' "$config" 2>/dev/null; then
    echo "$_prog: no PVH entry in $ver (CONFIG_PVH): guests boot the compressed image"
    return 0
  fi
  step "unpack the PVH kernel $pvh"
  run python3 "$(dirname "$0")/lib/unpack-pvh.py" "$vmlinuz" "$pvh"
}
if [[ -f $vmlinuz ]]; then
  unpack_pvh
  echo "$_prog: image present: $vmlinuz"
  exit 0
fi

tmp=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$tmp"; ((_keep_log)) || rm -f "$_log"' EXIT
step "apt-get download linux-image-$ver"
if ! (cd "$tmp" && apt-get download -qq "linux-image-$ver") >"$_log" 2>&1; then
  apt_update_once   # the package lists may be missing or stale
  step "apt-get download linux-image-$ver"
  run bash -c 'cd "$1" && apt-get download -qq "linux-image-$2"' _ "$tmp" "$ver"
fi
debs=("$tmp"/linux-image-"$ver"_*.deb)
[[ -f ${debs[0]} ]] || die "$_step: apt-get download left no linux-image-${ver}_*.deb"
step "unpack ${debs[0]##*/}"
mkdir -p "$tmp/x"
run dpkg -x "${debs[0]}" "$tmp/x"
[[ -f $tmp/x/boot/vmlinuz-$ver ]] || die "$_step: the package holds no boot/vmlinuz-$ver"
rm -rf "$dest"
mv "$tmp/x" "$dest"
unpack_pvh
echo "$_prog: image fetched: $vmlinuz"
