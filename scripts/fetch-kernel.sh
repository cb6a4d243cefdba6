#!/usr/bin/env bash
# Fetches the Debian kernel image that kernel-check --in-kernel boots, without
# installing it: `apt-get download linux-image-<ver>` + `dpkg -x` into a cache
# directory (default /var/cache/diffsched/kernel, else ~/.cache/diffsched/kernel
# when that is not writable). Idempotent: nothing is fetched when the image is
# there. The version is the one of the installed kernel headers
# (scripts/install-deps.sh resolves it once from linux-headers-amd64), or $1.
# Prints the path of the vmlinuz.
set -euo pipefail

ver=${1:-}
if [[ -z $ver ]]; then
  ver=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' | sort -V | tail -n1)
fi
if [[ -z $ver ]]; then
  echo "fetch-kernel: error: no linux-headers-*-amd64 installed (run scripts/install-deps.sh)" >&2
  exit 2
fi

cache=${DIFFSCHED_KERNEL_CACHE:-}
if [[ -z $cache ]]; then
  cache=/var/cache/diffsched/kernel
  if ! mkdir -p "$cache" 2>/dev/null || [[ ! -w $cache ]]; then
    cache=${XDG_CACHE_HOME:-$HOME/.cache}/diffsched/kernel
  fi
fi
mkdir -p "$cache"
dest=$cache/$ver
vmlinuz=$dest/boot/vmlinuz-$ver
if [[ -f $vmlinuz ]]; then
  echo "$vmlinuz"
  exit 0
fi
tmp=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq "linux-image-$ver" >/dev/null 2>&1) || {
  echo "fetch-kernel: error: apt-get download linux-image-$ver failed (apt-get update first?)" >&2
  exit 2
}
mkdir -p "$tmp/x"
dpkg -x "$tmp"/linux-image-"$ver"_*.deb "$tmp/x"
rm -rf "$dest"
mv "$tmp/x" "$dest"
echo "$vmlinuz"
