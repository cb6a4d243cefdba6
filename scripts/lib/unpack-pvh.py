#!/usr/bin/env python3
"""Writes the uncompressed kernel (vmlinux, an ELF with a PVH entry) held in an
xz-compressed x86 bzImage, so that QEMU boots it directly (-kernel vmlinux).

Under TCG, decompressing Debian's xz bzImage takes about 10 s of every boot
(measured: 17-20 s per boot from the bzImage, 6-9 s from the vmlinux), and
kernel-check --in-kernel boots a guest per nr_cpu_ids.

usage: unpack-pvh.py BZIMAGE OUT
Exit 0 and OUT written; exit 1 with one line on stderr when BZIMAGE holds no
xz stream or what it holds is not an ELF (OUT is then not written).
"""
import lzma
import os
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: unpack-pvh.py BZIMAGE OUT", file=sys.stderr)
        return 1
    src, out = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    at = data.find(b"\xfd7zXZ\x00")
    if at < 0:
        print(f"{src}: no xz-compressed kernel in it", file=sys.stderr)
        return 1
    xz = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        kernel = xz.decompress(data[at:])
    except lzma.LZMAError as e:
        print(f"{src}: its xz stream does not decompress: {e}", file=sys.stderr)
        return 1
    if not xz.eof:
        print(f"{src}: its xz stream ends early (a truncated image?)", file=sys.stderr)
        return 1
    if kernel[:4] != b"\x7fELF":
        print(f"{src}: the decompressed kernel is not an ELF file", file=sys.stderr)
        return 1
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(kernel)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
