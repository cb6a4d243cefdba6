#!/usr/bin/env bash
# Inputs are read as what they are, in bounded memory (docs/input-format.md):
# one class of input per CASE, each checked on several commands and files.
#   properties/io/check-inputs.sh DIFFSCHED SOURCE_DIR CASE
# CASE: text-under-target directory stdin duplicate-header bad-level bom-crlf
#       long-line expect-validation size-cap streaming-memory out-of-memory
# Exit 0 if every check holds, 1 otherwise.
set -uo pipefail
diffsched=$1
src=$2
case_name=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
tie=$src/corpus/regressions/cpudl/tie-exact.ops
pick=$src/corpus/regressions/pick/small-nr.ops

# expect WANT_STATUS PATTERN COMMAND...: the exit status, and PATTERN (grep -E)
# in stdout+stderr; a status 2 must come with exactly one "diffsched: error:"
# line on stderr, of at most 400 bytes.
expect() {
  local want=$1 pattern=$2
  shift 2
  "$@" >out 2>err
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: $*: exit $got, want $want"; head -c 600 err; fail=1; return
  fi
  if [[ -n $pattern ]] && ! cat out err | grep -Eq -- "$pattern"; then
    echo "FAIL: $*: no '$pattern' in:"; head -c 600 out; head -c 600 err; fail=1; return
  fi
  if [[ $want -eq 2 ]]; then
    if [[ $(wc -l <err) -ne 1 ]] || ! grep -q '^diffsched: error: ' err || [[ $(wc -c <err) -gt 400 ]]; then
      echo "FAIL: $*: not one short error line:"; head -c 600 err; fail=1
    fi
  fi
}

case $case_name in
text-under-target)
  # .ops text given with --target is parsed as text, at the target's level.
  expect 0 "minimised 2 ops to 2 .* keeping signature cpudl:divergence:exact:slot.cpu:set" \
    "$diffsched" minimize --target cpudl_exact "$tie" -o m
  expect 1 "signature cpudl:divergence:exact:slot.cpu:set" "$diffsched" replay --target cpudl_exact "$tie"
  expect 0 "equivalent at level deadline after 2 ops" "$diffsched" replay --target cpudl "$tie"
  expect 0 "wrote" "$diffsched" encode --target cpudl "$tie" -o t.bin
  expect 0 "^set 1 5" "$diffsched" decode --target cpudl t.bin
  expect 0 "^set 1 5" "$diffsched" decode --target cpudl "$tie"
  # comments first, then an op: still text
  printf '# a comment\n\n   # another\nset 0 1\nset 1 1\n' >c.ops
  expect 1 "exact:slot.cpu:set" "$diffsched" replay --target cpudl_exact c.ops
  # text of another subject under a target: refused, naming both
  expect 2 "of subject pick, but --target cpudl reads cpudl inputs" "$diffsched" replay --target cpudl "$pick"
  expect 2 "of subject cpudl, but --target pick" "$diffsched" minimize --target pick t.bin -o m2
  # printable bytes that do not start like .ops text stay a raw input
  printf 'hello world\n' >raw.txt
  expect 0 "raw input" "$diffsched" replay -q --target cpudl raw.txt
  # a bad text line under a target is a text error, not a raw input
  printf 'set 0 1\nset 99 1\n' >bad.ops
  expect 2 "bad.ops: line 2: .*out of range" "$diffsched" replay --target cpudl bad.ops
  ;;
directory)
  mkdir d
  expect 2 "d is a directory" "$diffsched" replay d
  expect 2 "d is a directory" "$diffsched" replay --target cpudl d
  expect 2 "d is a directory" "$diffsched" replay --check-expect d
  expect 2 "d is a directory" "$diffsched" decode d
  expect 2 "d is a directory" "$diffsched" encode d -o x.bin
  expect 2 "d is a directory" "$diffsched" minimize d -o x
  expect 2 "cannot read nope: No such file" "$diffsched" replay nope
  ;;
stdin)
  expect 0 "equivalent at level deadline after 2 ops" \
    sh -c "printf 'cpus 4\nset 0 1\nset 1 2\n' | '$diffsched' replay -q -"
  expect 1 "exact:slot.cpu:set" sh -c "'$diffsched' replay --target cpudl_exact - <'$tie'"
  expect 0 "^set 1 5" sh -c "'$diffsched' decode - <'$tie'"
  expect 0 "ok .* standard input at level exact" sh -c "'$diffsched' replay --check-expect - <'$tie'"
  "$diffsched" encode --raw "$tie" -o tie.raw >/dev/null
  expect 1 "exact:slot.cpu:set" sh -c "'$diffsched' replay --target cpudl_exact - <tie.raw"
  expect 2 "standard input is empty" sh -c "'$diffsched' replay - </dev/null"
  # a FIFO is read like a file
  expect 0 "equivalent" bash -c "'$diffsched' replay <(cat '$tie')"
  ;;
duplicate-header)
  for d in 'cpus 4' 'subject cpudl' 'level exact'; do
    printf '%s\ncpus 3\n%s\nset 0 1\n' "$d" "$d" | sed '2{/cpus 3/d}' >dup.ops
    expect 2 "line [23]: a second '${d%% *}' line \\(the first is line 1\\)" "$diffsched" replay dup.ops
  done
  printf 'set 0 1\ncpus 4\n' >late.ops
  expect 2 "line 2: 'cpus' must come before the first op" "$diffsched" replay late.ops
  printf 'set 0 1\n# expect: deadline equivalent\n' >late-expect.ops
  expect 2 "line 2: '# expect:' lines must come before the first op" "$diffsched" replay late-expect.ops
  ;;
bad-level)
  printf 'subject pick\nlevel deadline\n' >p.ops
  expect 2 "line 2: level deadline means nothing for subject pick \\(its levels: exact\\)" "$diffsched" replay p.ops
  printf 'level deadline\ncpus 8\nr0 = empty\n' >/dev/null
  printf 'subject cpumask\ncpus 8\nlevel deadline\n' >m.ops
  expect 2 "line 3: level deadline means nothing for subject cpumask" "$diffsched" decode m.ops
  printf '# expect: deadline equivalent\nsubject pick\n' >pe.ops
  expect 2 "line 1: level deadline means nothing for subject pick" "$diffsched" replay --check-expect pe.ops
  expect 2 "--level deadline means nothing for .*small-nr.ops" "$diffsched" replay --level deadline "$pick"
  expect 2 "--level deadline means nothing" "$diffsched" minimize --level deadline "$pick" -o m
  expect 2 "--level: fuzzy not in" "$diffsched" replay --level fuzzy "$tie"
  # a binary file whose level byte names deadline for pick
  printf 'DSCH\001\001\002\000' >p.bin
  expect 2 "p.bin: level deadline means nothing for subject pick" "$diffsched" replay p.bin
  ;;
bom-crlf)
  printf '\357\273\277# BOM and CRLF\r\ncpus 2\r\nset 0 5\r\nset 1 5\r\n' >bom.ops
  expect 0 "^set 1 5$" "$diffsched" decode bom.ops
  expect 1 "exact:slot.cpu:set" "$diffsched" replay --level exact bom.ops
  "$diffsched" decode bom.ops | tr -d '\r' >a.txt
  printf 'cpus 2\nset 0 5\nset 1 5\n' | "$diffsched" decode - >b.txt
  cmp -s a.txt b.txt || { echo "FAIL: a BOM+CRLF file decodes differently"; fail=1; }
  # A NUL or control byte in the first 64 KiB: not text (a raw input with
  # --target); further on, an error naming its line.
  printf 'cpus 2\nset 0 5\nset 1\0005\n' >nul.ops
  expect 2 "nul.ops is binary without the DSCH header" "$diffsched" replay nul.ops
  expect 0 "raw input" "$diffsched" replay -q --target cpudl nul.ops
  { printf 'cpus 2\n'; for i in $(seq 1 10000); do printf 'set 0 %d\n' $i; done; printf 'set 1\0005\n'; } >late-nul.ops
  expect 2 "late-nul.ops: line 10002: NUL byte" "$diffsched" replay -q late-nul.ops
  expect 2 "late-nul.ops: line 10002: NUL byte" "$diffsched" replay -q --target cpudl late-nul.ops
  { printf 'cpus 2\n'; for i in $(seq 1 10000); do printf 'set 0 %d\n' $i; done; printf 'set 1 \0335\n'; } >late-esc.ops
  expect 2 "line 10002: control byte 0x1b" "$diffsched" decode late-esc.ops -o x.ops
  [[ ! -e x.ops ]] || { echo "FAIL: decode left a partial x.ops behind"; fail=1; }
  ;;
long-line)
  # a 1 MB word on a line: the error quotes 40 bytes of it
  { printf 'cpus 4\nset 0 '; head -c 1000000 /dev/zero | tr '\0' 7; printf '\n'; } >long.ops
  expect 2 "line 2: 'set' argument 'dl': '7{40}\\.\\.\\.' is out of range" "$diffsched" replay long.ops
  { printf 'cpus 4\n'; head -c 500000 /dev/zero | tr '\0' x; printf ' 1\n'; } >longop.ops
  expect 2 "line 2: unknown op 'x{40}\\.\\.\\.'" "$diffsched" replay longop.ops
  { printf 'cpus 4\nset 0 '; head -c 2000000 /dev/zero | tr '\0' 7; printf '\n'; } >huge.ops
  expect 2 "line 2 is longer than 1048576 bytes" "$diffsched" replay huge.ops
  { printf 'subject pick\ncpus 8\npick dst=0-3 cpus=0-3 allowed='; head -c 300000 /dev/zero | tr '\0' 9; printf '\n'; } >mask.ops
  expect 2 "line 3:" "$diffsched" replay mask.ops
  ;;
expect-validation)
  for bad in 'bogus' 'cpudl:divergence:exact:slot.cpu' 'nosuch:divergence:exact:f:set' \
             'cpudl:weird:exact:f:set' 'cpudl:divergence::f:set' 'cpudl:divergence:exact:f:frob'; do
    expect 2 "--expect: (verdict|signature) '" "$diffsched" replay --expect "$bad" "$tie"
    printf '# expect: exact %s\ncpus 2\nset 0 1\n' "$bad" >e.ops
    expect 2 "e.ops: line 1: (verdict|signature) '" "$diffsched" replay --check-expect e.ops
  done
  printf '# expect: exact pick:divergence:exact:pick.ret:pick\ncpus 2\nset 0 1\n' >other.ops
  expect 2 "line 1: signature .* is not of subject cpudl" "$diffsched" replay other.ops
  for good in ok equivalent; do
    expect 0 "as expected" "$diffsched" replay --level deadline --expect $good "$tie"
    printf '# expect: deadline %s\ncpus 2\nset 0 1\n' "$good" >g.ops
    expect 0 "^ok " "$diffsched" replay --check-expect g.ops
  done
  expect 0 "as expected" "$diffsched" replay --level exact --expect cpudl:divergence:exact:slot.cpu:set "$tie"
  ;;
size-cap)
  expect 2 "/dev/urandom is larger than the input size cap of 64 MiB .*--max-input-bytes" \
    "$diffsched" replay -q --target cpudl /dev/urandom
  expect 2 "/dev/zero is larger than the input size cap of 1 MiB" \
    "$diffsched" decode --max-input-bytes 1MiB --target pick /dev/zero
  head -c 2048 /dev/urandom >r.raw
  expect 2 "larger than the input size cap of 1 KiB" "$diffsched" replay -q --target cpudl --max-input-bytes 1KiB r.raw
  expect 2 "larger than the input size cap of 1 KiB" "$diffsched" encode --target pick --max-input-bytes 1024 r.raw -o r.bin
  expect 0 "equivalent|FINDING" "$diffsched" replay -q --target cpumask --max-input-bytes 4KiB r.raw
  # a program held whole (minimize, encode, --stats) is capped too
  { printf 'cpus 8\n'; for i in $(seq 1 200); do printf 'set %d %d\n' $((i % 8)) $i; done; } >held.ops
  expect 2 "held.ops has more than [0-9]+ ops: held whole in memory" "$diffsched" minimize --max-input-bytes 64KiB held.ops -o m
  expect 2 "more than [0-9]+ ops" "$diffsched" encode --max-input-bytes 64KiB held.ops -o h.bin
  expect 0 "equivalent at level deadline after 200 ops" "$diffsched" replay -q --max-input-bytes 64KiB held.ops
  expect 2 "--max-input-bytes" "$diffsched" replay --max-input-bytes lots held.ops
  ;;
streaming-memory)
  # 300 000 ops: held whole that is over 300 MB (about 1 KB per cpudl op);
  # streamed, replay, decode and --check-expect fit in 100 MB of address space.
  awk 'BEGIN { print "# expect: deadline equivalent"; print "# expect: exact equivalent";
               print "cpus 8"; for (i = 0; i < 300000; i++) print "set " i % 8 " " i + 1 }' >big.ops
  expect 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay -q big.ops"
  expect 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay --tree big.ops | tail -n 1"
  expect 0 "^ok .* at level exact" sh -c "ulimit -v 100000; '$diffsched' replay --check-expect big.ops"
  expect 0 "" sh -c "ulimit -v 100000; '$diffsched' decode big.ops -o big2.ops"
  [[ $(wc -l <big2.ops) -eq 300004 ]] || { echo "FAIL: decode wrote $(wc -l <big2.ops) lines"; fail=1; }
  "$diffsched" encode --raw --max-input-bytes 1GiB big.ops -o big.raw >/dev/null
  expect 0 "equivalent at level deadline after 300000 ops" sh -c "ulimit -v 100000; '$diffsched' replay -q --target cpudl big.raw"
  ;;
out-of-memory)
  awk 'BEGIN { print "cpus 8"; for (i = 0; i < 300000; i++) print "set " i % 8 " " i + 1 }' >big.ops
  expect 2 "out of memory" sh -c "ulimit -v 100000; '$diffsched' minimize --max-input-bytes 4GiB big.ops -o m"
  expect 2 "out of memory" sh -c "ulimit -v 100000; '$diffsched' replay --stats --max-input-bytes 4GiB big.ops"
  ;;
*)
  echo "check-inputs: unknown case '$case_name'" >&2
  exit 2
  ;;
esac
if ((fail)); then exit 1; fi
echo "check-inputs: $case_name: ok"
