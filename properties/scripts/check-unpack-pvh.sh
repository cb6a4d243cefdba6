#!/usr/bin/env bash
# ctest install.unpack-pvh: scripts/lib/unpack-pvh.py (fetch-kernel.sh's PVH
# kernel) on made-up images: an ELF behind an xz stream inside other bytes is
# written whole; an image with no xz stream, a broken or truncated stream, or a stream that
# holds no ELF is exit 1 with one line, and no output file is left.
#   check-unpack-pvh.sh SOURCE_DIR
set -u
. "$(dirname "$0")/../support/testlib.sh"  # fail: "FAIL: ...", counted in $fails
py=$1/scripts/lib/unpack-pvh.py
t=$(mktemp -d "${TMPDIR:-/tmp}/unpack-pvh-XXXXXX")
trap 'rm -rf "$t"' EXIT
python3 - "$t" <<'PY'
import lzma, os, sys
t = sys.argv[1]
elf = b"\x7fELF" + bytes(range(256)) * 64
head = b"MZ setup code " * 100
open(f"{t}/good", "wb").write(head + lzma.compress(elf, format=lzma.FORMAT_XZ) + b"trailer" * 10)
open(f"{t}/elf", "wb").write(elf)
open(f"{t}/none", "wb").write(head)
open(f"{t}/broken", "wb").write(head + lzma.compress(elf, format=lzma.FORMAT_XZ)[:40] + b"\0" * 64)
whole = lzma.compress(elf, format=lzma.FORMAT_XZ)
open(f"{t}/truncated", "wb").write(head + whole[: len(whole) // 2])
open(f"{t}/notelf", "wb").write(head + lzma.compress(b"not a kernel" * 50, format=lzma.FORMAT_XZ))
PY
python3 "$py" "$t/good" "$t/good.out" 2>"$t/err" || fail "a good image: exit $?: $(cat "$t/err")"
cmp -s "$t/good.out" "$t/elf" || fail "a good image: the written kernel differs from the compressed one"
for bad in none broken truncated notelf; do
  python3 "$py" "$t/$bad" "$t/$bad.out" 2>"$t/err"; rc=$?
  [[ $rc == 1 ]] || fail "$bad: exit $rc, not 1"
  [[ $(grep -c . "$t/err") == 1 ]] || fail "$bad: stderr is not one line: $(cat "$t/err")"
  grep -q "$t/$bad" "$t/err" || fail "$bad: the error does not name the image"
  [[ ! -e $t/$bad.out && ! -e $t/$bad.out.tmp ]] || fail "$bad: an output file was left"
done
[[ $fails == 0 ]] && echo "ok: unpack-pvh writes the ELF of a good image and refuses 4 bad ones"
exit $((fails > 0))
