#!/bin/sh
# SPDX-License-Identifier: MIT
# The shim against a booted kernel, op by op (issue 27 section 3), written for
# diffsched. kshim/kmod/api/kc_api.c runs OPS random cpumask, bitmap and
# find-bit operations in the guest (a module, the kernel's own functions) and
# on the host against kshim/ (at the guest's era, v6.1); every op's line must
# be the same. The kernel is the reference: a difference is a finding against
# the shim, already one op on one set of masks, shown with its inputs.
#
#   scripts/inkernel-api-check.sh WORK [--nr N]... [--ops K] [--seed S]
#
# The kernel pieces are --in-kernel's (src/kcheck/in_kernel_boot.cpp): QEMU
# (DIFFSCHED_QEMU), a static busybox (DIFFSCHED_BUSYBOX), cpio, the image in
# the kernel cache (DIFFSCHED_KERNEL_CACHE, scripts/fetch-kernel.sh) and its
# headers; the guest boots under TCG with the same command line.
# Exit 0: every op of every nr_cpu_ids compared equal; 1: a difference;
# 2: could not build or run (one line says why; never a pass).
set -u
die() { echo "inkernel-api-check: error: $*"; exit 2; }
[ $# -ge 1 ] || die "usage: $0 WORK [--nr N]... [--ops K] [--seed S]"
work=$1; shift
nrs="" ops=3000 seed=1
while [ $# -gt 0 ]; do
  case $1 in
    --nr) nrs="$nrs ${2:?}"; shift 2 ;;
    --ops) ops=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[ -n "$nrs" ] || nrs="1 7 64 65 130"
for v in $nrs $ops $seed; do
  case $v in ''|*[!0-9]*) die "--nr, --ops and --seed take numbers (got '$v')" ;; esac
done
repo=$(cd "$(dirname "$0")/.." && pwd)
qemu=$(command -v "${DIFFSCHED_QEMU:-qemu-system-x86_64}") || die "needs qemu-system-x86_64 (package qemu-system-x86; run scripts/install-deps.sh)"
busybox=${DIFFSCHED_BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "needs a static busybox at $busybox (package busybox-static)"
cpio=$(command -v cpio) || die "needs cpio (package cpio)"
cc=$(command -v clang-14 || command -v clang) || die "needs clang-14 (scripts/install-deps.sh)"
cache=${DIFFSCHED_KERNEL_CACHE:-/var/cache/diffsched/kernel}
vmlinuz="" ver=""
for d in "$cache"/*/; do
  v=$(basename "$d")
  [ -f "$d/boot/vmlinuz-$v" ] && [ -f "/lib/modules/$v/build/Makefile" ] && { vmlinuz=$d/boot/vmlinuz-$v; ver=$v; }
done
[ -n "$vmlinuz" ] || die "needs a kernel image matching the installed headers in $cache (run scripts/fetch-kernel.sh)"
# The uncompressed PVH kernel beside it boots ~10 s faster under TCG (scripts/fetch-kernel.sh).
boot=$vmlinuz
[ -f "$(dirname "$vmlinuz")/vmlinux-$ver" ] && boot=$(dirname "$vmlinuz")/vmlinux-$ver

rm -rf "$work" && mkdir -p "$work/mod" "$work/shim" || die "cannot create $work"
# Absolute: kbuild runs in the headers' directory (M= relative to it otherwise).
work=$(cd "$work" && pwd)
# The module, against the kernel's headers.
cp "$repo/kshim/kmod/api/kc_api.c" "$work/mod/" && echo 'obj-m := kc_api.o' >"$work/mod/Kbuild"
make -C "/lib/modules/$ver/build" M="$work/mod" modules >"$work/mod/build.log" 2>&1 ||
  { tail -5 "$work/mod/build.log"; die "kc_api.c does not build as a module against the $ver headers"; }
# The shim side, at the guest's era.
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
era="-DKSHIM_KERNEL_VERSION=KSHIM_KV(6,1)"
s=$work/shim
# shellcheck disable=SC2086
{ "$cc" -std=gnu11 -g -O1 -nostdinc $san "$era" -Wall -I "$repo/kshim/include" -c "$repo/kshim/kmod/api/kc_api.c" -o "$s/kc_api.o" &&
  "$cc" -std=gnu11 -g -O1 -nostdinc $san "$era" -I "$repo/kshim/include" -I "$repo/kshim/abi" -c "$repo/kshim/runtime/runtime.c" -o "$s/runtime.o" &&
  "$cc" -std=gnu11 -g -O1 -nostdinc $san "$era" -I "$repo/kshim/include" -c "$repo/kshim/runtime/bitmap.c" -o "$s/bitmap.o" &&
  "$cc" -g -O1 $san -c "$repo/kshim/kmod/api/kc_api_main.c" -o "$s/main.o" &&
  "$cc" $san "$s"/*.o -o "$s/kc_api_shim"; } >"$s/build.log" 2>&1 ||
  { tail -5 "$s/build.log"; die "kc_api.c does not build against the shim"; }

status=0 compared=0 differences=0
for nr in $nrs; do
  root=$work/initramfs-$nr
  mkdir -p "$root/bin" "$root/proc" "$root/dev"
  cp "$busybox" "$root/bin/busybox" && cp "$work/mod/kc_api.ko" "$root/"
  cat >"$root/init" <<EOF
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox insmod /kc_api.ko seed=$seed ops=$ops || echo "KA X insmod failed" > /dev/console
/bin/busybox reboot -f
EOF
  chmod 755 "$root/init"
  (cd "$root" && find . | "$cpio" -o -H newc --quiet >"$work/initrd-$nr.cpio") || die "cpio failed"
  mem=$((512 + nr * 1000 / 1024))
  t0=$(date +%s)
  timeout $((300 + ops / 20 + nr / 16)) "$qemu" -accel tcg -cpu max -m "$mem" -smp 1 -nographic -no-reboot \
    -kernel "$boot" -initrd "$work/initrd-$nr.cpio" \
    -append "console=ttyS0 panic=-1 loglevel=5 possible_cpus=$nr nr_cpus=$nr cryptomgr.notests zswap.enabled=0 no_timer_check" \
    >"$work/guest-$nr.log" 2>&1 </dev/null
  sed -n 's/^.*\(KA .*\)$/\1/p' "$work/guest-$nr.log" | tr -d '\r' >"$work/kernel-$nr.txt"
  "$s/kc_api_shim" "$nr" "$seed" "$ops" >"$work/shim-$nr.txt" 2>"$work/shim-$nr.err" ||
    { cat "$work/shim-$nr.err" | head -5; die "the shim side stopped at nr_cpu_ids $nr"; }
  if ! grep -qx "KA begin nr_cpu_ids $nr seed $seed ops $ops" "$work/kernel-$nr.txt" ||
     ! grep -qx "KA end $ops" "$work/kernel-$nr.txt"; then
    tail -3 "$work/guest-$nr.log"
    die "the guest at nr_cpu_ids $nr did not run all $ops ops (console: $work/guest-$nr.log)"
  fi
  first=$(diff "$work/kernel-$nr.txt" "$work/shim-$nr.txt" | sed -n 's/^< KA \([0-9]*\) .*/\1/p' | head -1)
  n=$(diff "$work/kernel-$nr.txt" "$work/shim-$nr.txt" | grep -c '^<')
  compared=$((compared + ops))
  echo "nr_cpu_ids $nr: $ops ops compared, $n differ ($(($(date +%s) - t0)) s)"
  if [ "$n" -ne 0 ]; then
    differences=$((differences + n)) status=1
    echo "FINDING against the shim at nr_cpu_ids $nr, op $first:"
    echo "  kernel: $(grep "^KA $first " "$work/kernel-$nr.txt")"
    echo "  shim:   $(grep "^KA $first " "$work/shim-$nr.txt")"
    "$s/kc_api_shim" "$nr" "$seed" "$ops" "$first" | sed 's/^/  /'
  fi
done
echo "in-kernel API check (kernel $ver, seed $seed): $compared ops compared, $differences differences"
exit $status
