#!/usr/bin/env bash
# Inputs are read as what they are, in bounded memory (docs/input-format.md):
# one class of input per CASE, each checked on several commands and files.
#   properties/io/check-inputs.sh DIFFSCHED SOURCE_DIR CASE
# CASE: text-under-target directory stdin duplicate-header bad-level bom-crlf
#       long-line expect-validation size-cap streaming-memory out-of-memory
# Exit 0 if every check holds, 1 otherwise.
set -uo pipefail
. "$(dirname "$0")/../support/testlib.sh"
diffsched=$1
src=$2
case_name=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
tie=$src/corpus/regressions/cpudl/tie-exact.ops
pick=$src/corpus/regressions/pick/small-nr.ops

# expect_status WANT_STATUS PATTERN COMMAND... (properties/support/testlib.sh):
# the exit status, and PATTERN (grep -E) in stdout+stderr; a status 2 must come
# with exactly one "diffsched: error:" line on stderr, of at most 400 bytes.
TL_OUT=out TL_ERR=err TL_MATCH=output TL_ERROR_MAX=400

case $case_name in
text-under-target)
  # .ops text given with --target is parsed as text, at the target's level.
  expect_status 0 "minimised 2 ops to 2 .* keeping signature cpudl:divergence:exact:slot.cpu:set" \
    "$diffsched" minimize --target cpudl_exact "$tie" -o m
  expect_status 1 "signature cpudl:divergence:exact:slot.cpu:set" "$diffsched" replay --target cpudl_exact "$tie"
  expect_status 0 "equivalent at level deadline after 2 ops" "$diffsched" replay --target cpudl "$tie"
  expect_status 0 "wrote" "$diffsched" encode --target cpudl "$tie" -o t.bin
  expect_status 0 "^set 1 5" "$diffsched" decode --target cpudl t.bin
  expect_status 0 "^set 1 5" "$diffsched" decode --target cpudl "$tie"
  # comments first, then an op: still text
  printf '# a comment\n\n   # another\nset 0 1\nset 1 1\n' >c.ops
  expect_status 1 "exact:slot.cpu:set" "$diffsched" replay --target cpudl_exact c.ops
  # text of another subject under a target: refused, naming both
  expect_status 2 "of subject pick, but --target cpudl reads cpudl inputs" "$diffsched" replay --target cpudl "$pick"
  expect_status 2 "of subject cpudl, but --target pick" "$diffsched" minimize --target pick t.bin -o m2
  # printable bytes that do not start like .ops text stay a raw input
  printf 'hello world\n' >raw.txt
  expect_status 0 "raw input" "$diffsched" replay -q --target cpudl raw.txt
  # a bad text line under a target is a text error, not a raw input
  printf 'set 0 1\nset 99 1\n' >bad.ops
  expect_status 2 "bad.ops: line 2: .*out of range" "$diffsched" replay --target cpudl bad.ops
  ;;
directory)
  mkdir d
  expect_status 2 "d is a directory" "$diffsched" replay d
  expect_status 2 "d is a directory" "$diffsched" replay --target cpudl d
  expect_status 2 "d is a directory" "$diffsched" replay --check-expect d
  expect_status 2 "d is a directory" "$diffsched" decode d
  expect_status 2 "d is a directory" "$diffsched" encode d -o x.bin
  expect_status 2 "d is a directory" "$diffsched" minimize d -o x
  expect_status 2 "cannot read nope: No such file" "$diffsched" replay nope
  ;;
stdin)
  expect_status 0 "equivalent at level deadline after 2 ops" \
    sh -c "printf 'cpus 4\nset 0 1\nset 1 2\n' | '$diffsched' replay -q -"
  expect_status 1 "exact:slot.cpu:set" sh -c "'$diffsched' replay --target cpudl_exact - <'$tie'"
  expect_status 0 "^set 1 5" sh -c "'$diffsched' decode - <'$tie'"
  expect_status 0 "ok .* standard input at level exact" sh -c "'$diffsched' replay --check-expect - <'$tie'"
  "$diffsched" encode --raw "$tie" -o tie.raw >/dev/null
  expect_status 1 "exact:slot.cpu:set" sh -c "'$diffsched' replay --target cpudl_exact - <tie.raw"
  expect_status 2 "standard input is empty" sh -c "'$diffsched' replay - </dev/null"
  # a FIFO is read like a file
  expect_status 0 "equivalent" bash -c "'$diffsched' replay <(cat '$tie')"
  ;;
duplicate-header)
  # Each repeated or late header line: properties/io/malformed_test.cpp. Here
  # the CLI's side: the reader's error is one line on stderr, exit 2.
  printf 'cpus 4\ncpus 4\nset 0 1\n' >dup.ops
  expect_status 2 "dup.ops: line 2: a second 'cpus' line \\(the first is line 1\\)" "$diffsched" replay dup.ops
  ;;
bad-level)
  # A file's level line, "# expect:" line or level byte: malformed_test.cpp;
  # here one at the CLI, and the --level option's own checks.
  printf 'subject pick\nlevel deadline\n' >p.ops
  expect_status 2 "line 2: level deadline means nothing for subject pick \\(its levels: exact\\)" "$diffsched" replay p.ops
  expect_status 2 "--level deadline means nothing for .*small-nr.ops" "$diffsched" replay --level deadline "$pick"
  expect_status 2 "--level deadline means nothing" "$diffsched" minimize --level deadline "$pick" -o m
  expect_status 2 "--level: fuzzy not in" "$diffsched" replay --level fuzzy "$tie"
  ;;
bom-crlf)
  # How a BOM, CRLF, a NUL or a control byte is read: malformed_test.cpp. Here
  # the CLI's side: a BOM+CRLF file replays to its finding; a control byte
  # late in the file is one error line, exit 2, and no partial output file.
  printf '\357\273\277# BOM and CRLF\r\ncpus 2\r\nset 0 5\r\nset 1 5\r\n' >bom.ops
  expect_status 1 "exact:slot.cpu:set" "$diffsched" replay --level exact bom.ops
  # NUL in the first 64 KiB: under --target a raw input, which replays.
  printf 'cpus 2\nset 0 5\nset 1\0005\n' >nul.ops
  expect_status 0 "raw input" "$diffsched" replay -q --target cpudl nul.ops
  { printf 'cpus 2\n'; for i in $(seq 1 10000); do printf 'set 0 %d\n' $i; done; printf 'set 1 \0335\n'; } >late-esc.ops
  expect_status 2 "line 10002: control byte 0x1b" "$diffsched" decode late-esc.ops -o x.ops
  [[ ! -e x.ops ]] || fail "decode left a partial x.ops behind"
  ;;
long-line)
  # Over-long words and lines, quoted by 40 bytes: malformed_test.cpp. Here
  # the CLI's side: the line cap is one short error line, exit 2.
  { printf 'cpus 4\nset 0 '; head -c 2000000 /dev/zero | tr '\0' 7; printf '\n'; } >huge.ops
  expect_status 2 "line 2 is longer than 1048576 bytes" "$diffsched" replay huge.ops
  ;;
expect-validation)
  for bad in 'bogus' 'cpudl:divergence:exact:slot.cpu' 'nosuch:divergence:exact:f:set' \
             'cpudl:weird:exact:f:set' 'cpudl:divergence::f:set' 'cpudl:divergence:exact:f:frob'; do
    # the same in a file's "# expect:" line: malformed_test.cpp
    expect_status 2 "--expect: (verdict|signature) '" "$diffsched" replay --expect "$bad" "$tie"
  done
  for good in ok equivalent; do
    expect_status 0 "as expected" "$diffsched" replay --level deadline --expect $good "$tie"
    printf '# expect: deadline %s\ncpus 2\nset 0 1\n' "$good" >g.ops
    expect_status 0 "^ok " "$diffsched" replay --check-expect g.ops
  done
  expect_status 0 "as expected" "$diffsched" replay --level exact --expect cpudl:divergence:exact:slot.cpu:set "$tie"
  ;;
size-cap)
  expect_status 2 "/dev/urandom is larger than the input size cap of 64 MiB .*--max-input-bytes" \
    "$diffsched" replay -q --target cpudl /dev/urandom
  expect_status 2 "/dev/zero is larger than the input size cap of 1 MiB" \
    "$diffsched" decode --max-input-bytes 1MiB --target pick /dev/zero
  head -c 2048 /dev/urandom >r.raw
  expect_status 2 "larger than the input size cap of 1 KiB" "$diffsched" replay -q --target cpudl --max-input-bytes 1KiB r.raw
  expect_status 2 "larger than the input size cap of 1 KiB" "$diffsched" encode --target pick --max-input-bytes 1024 r.raw -o r.bin
  expect_status 0 "equivalent|FINDING" "$diffsched" replay -q --target cpumask --max-input-bytes 4KiB r.raw
  # a program held whole (minimize, encode, --stats) is capped too
  { printf 'cpus 8\n'; for i in $(seq 1 200); do printf 'set %d %d\n' $((i % 8)) $i; done; } >held.ops
  expect_status 2 "held.ops has more than [0-9]+ ops: held whole in memory" "$diffsched" minimize --max-input-bytes 64KiB held.ops -o m
  expect_status 2 "more than [0-9]+ ops" "$diffsched" encode --max-input-bytes 64KiB held.ops -o h.bin
  expect_status 0 "equivalent at level deadline after 200 ops" "$diffsched" replay -q --max-input-bytes 64KiB held.ops
  expect_status 2 "--max-input-bytes" "$diffsched" replay --max-input-bytes lots held.ops
  ;;
streaming-memory)
  # 300 000 ops: held whole that is over 300 MB (about 1 KB per cpudl op);
  # streamed, replay, decode and --check-expect fit in 100 MB of address space.
  awk 'BEGIN { print "# expect: deadline equivalent"; print "# expect: exact equivalent";
               print "cpus 8"; for (i = 0; i < 300000; i++) print "set " i % 8 " " i + 1 }' >big.ops
  expect_status 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay -q big.ops"
  expect_status 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay --tree big.ops | tail -n 1"
  expect_status 0 "^ok .* at level exact" sh -c "ulimit -v 100000; '$diffsched' replay --check-expect big.ops"
  expect_status 0 "" sh -c "ulimit -v 100000; '$diffsched' decode big.ops -o big2.ops"
  [[ $(wc -l <big2.ops) -eq 300004 ]] || fail "decode wrote $(wc -l <big2.ops) lines"
  "$diffsched" encode --raw --max-input-bytes 1GiB big.ops -o big.raw >/dev/null
  expect_status 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay -q --target cpudl big.raw"
  ;;
out-of-memory)
  awk 'BEGIN { print "cpus 8"; for (i = 0; i < 300000; i++) print "set " i % 8 " " i + 1 }' >big.ops
  expect_status 2 "out of memory" sh -c "ulimit -v 100000; '$diffsched' minimize --max-input-bytes 4GiB big.ops -o m"
  expect_status 2 "out of memory" sh -c "ulimit -v 100000; '$diffsched' replay --stats --max-input-bytes 4GiB big.ops"
  ;;
*)
  echo "check-inputs: unknown case '$case_name'" >&2
  exit 2
  ;;
esac
if ((fails)); then exit 1; fi
echo "check-inputs: $case_name: ok"
