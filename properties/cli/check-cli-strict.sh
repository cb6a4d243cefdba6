#!/bin/sh
# The CLI's edges, one class per call (issue 11, sections 5 and 6):
#   check-cli-strict.sh DIFFSCHED CORPUS CLASS
# CLASS: self-clobber, empty-output, conflicting-flags, bad-values, version,
# unknown, out-of-domain, verify-refusal. Every refusal must exit 2 with
# exactly one line on stderr, `diffsched: error: ...`, and touch no file.
set -u
. "$(dirname "$0")/../support/testlib.sh"
D=$1
CORPUS=$2
CLASS=$3
DIR=$(mktemp -d "${TMPDIR:-/tmp}/diffsched-cli-XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
: >out.log
: >err.log
# expect_status STATUS PATTERN ARGS... (properties/support/testlib.sh): runs
# diffsched ARGS; the status must be STATUS, and for 2 stderr must be one
# "diffsched: error:" line matching PATTERN.
TL_PROG=$D

# A snapshot of the directory (names and checksums), to prove nothing was written.
snapshot() { find . -path ./out.log -prune -o -path ./err.log -prune -o -type f -print | sort | xargs -r md5sum; find . | sort; }

OOD=$CORPUS/regressions/cpudl/out-of-domain.ops
TIE=$CORPUS/regressions/cpudl/tie-exact.ops

case $CLASS in
self-clobber)
  cp "$OOD" a.ops && ln -s a.ops link.ops && ln a.ops hard.ops && mkdir sub && ln -s ../a.ops sub/up.ops
  "$D" encode a.ops -o a.bin >/dev/null || fail "encode a.ops -o a.bin"
  before=$(snapshot)
  for o in a.ops ./a.ops "$PWD/a.ops" link.ops hard.ops sub/../a.ops sub/up.ops; do
    expect_status 2 'refusing to overwrite an input' encode a.ops -o "$o"
    expect_status 2 'refusing to overwrite an input' decode a.ops -o "$o"
    expect_status 2 'refusing to overwrite an input' kernel-check cpudl --candidate a.ops -o "$o"
    expect_status 2 'refusing to overwrite an input' kernel-check pick --candidate a.ops -o "$o"
  done
  expect_status 2 'refusing to overwrite an input' decode a.bin -o a.bin
  expect_status 2 'refusing to overwrite an input' encode a.bin -o a.bin
  # minimize writes OUT.ops and OUT.bin: either may be the input.
  for o in a a.ops ./a link; do
    expect_status 2 'refusing to overwrite an input' minimize a.ops -o "$o"
  done
  expect_status 2 'refusing to overwrite an input' minimize a.bin -o a
  expect_status 2 'refusing to overwrite an input' kernel-check cpudl --candidate x.c --baseline a.ops -o a.ops
  expect_status 2 'are the same file' bench --json r.json --plot r.json
  expect_status 2 'are the same file' bench --json r.json --plot ./r.json
  [ "$(snapshot)" = "$before" ] || fail "a refused command changed the directory"
  ;;
empty-output)
  cp "$OOD" a.ops && mkdir d
  before=$(snapshot)
  for sub in encode decode minimize; do
    expect_status 2 'empty file name' $sub a.ops -o ''
    expect_status 2 'empty file name|missing' $sub a.ops --output=
    expect_status 2 'is a directory' $sub a.ops -o d
    expect_status 2 'directory' $sub a.ops -o d/
    expect_status 2 'directory' $sub a.ops -o new-dir/
  done
  expect_status 2 'standard output' encode a.ops -o -
  expect_status 2 'standard output' minimize a.ops -o -
  for sub in cpudl pick; do
    expect_status 2 'empty file name' verify $sub -o ''
    expect_status 2 'is a directory' verify $sub -o d
  done
  expect_status 2 'empty file name' bench --json ''
  expect_status 2 'empty file name' bench --plot ''
  expect_status 2 'is a directory' bench --json d
  expect_status 2 'empty file name' kernel-check cpudl --candidate a.ops -o ''
  expect_status 2 'is a directory' kernel-check pick --candidate a.ops -o d
  [ "$(snapshot)" = "$before" ] || fail "a refused command wrote a file (hidden .ops/.bin?)"
  # decode -o - is standard output, as documented.
  expect_status 0 '' decode a.ops -o -
  grep -q '^set 1 0x8000000000000000' out.log || fail "decode -o - did not print the ops"
  ;;
conflicting-flags)
  cp "$TIE" t.ops && cp "$OOD" o.ops
  for pair in '--json --stats' '--json --tree' '--json -q' '--check-expect --json' \
              '--check-expect --expect ok' '--check-expect --tree' '--check-expect -q' \
              '--check-expect --stats' '--tree -q' '--tree --quiet' '--quiet --json'; do
    # shellcheck disable=SC2086
    expect_status 2 'excludes' replay $pair t.ops
  done
  expect_status 2 'one JSON document for one file, got 2 files' replay --json t.ops o.ops
  expect_status 2 'excludes' bench --quick --smoke
  expect_status 2 'requires|needs' kernel-check cpudl --candidate x.c --raw
  expect_status 2 'excludes' kernel-check cpudl --candidate x.c --replay t.ops --fail-alloc
  for f in '--time 5' '--runs 10' '--seed 2' '--no-properties' '-o m.ops'; do
    # shellcheck disable=SC2086
    expect_status 2 'excludes' kernel-check pick --candidate x.c --replay t.ops $f
  done
  # One file with --json is one valid JSON document.
  "$D" replay --json t.ops >one.json
  python3 -c 'import json,sys; json.load(open("one.json"))' || fail "replay --json is not one JSON document"
  ;;
bad-values)
  cp "$TIE" t.ops
  for v in 0 -1 -0.5 abc nan; do
    expect_status 2 "progress-every: (must be greater than 0, got '$v'|'$v' is not a number)" \
      campaign --time 5 --progress-every "$v" --out co
  done
  for v in -1 -0.001 inf-; do
    expect_status 2 "max-seconds: (must be at least 0|'$v' is not a number)" \
      minimize t.ops -o m --max-seconds "$v"
  done
  for f in --quick --smoke; do
    expect_status 2 "$f given 2 times" bench $f $f
  done
  expect_status 2 'given 2 times' replay -q -q t.ops
  expect_status 2 'given 2 times' replay --json --json t.ops
  expect_status 2 'given 2 times' verify cpudl --cpus 3 --cpus 4
  expect_status 2 'given 2 times' verify pick --no-z3 --no-z3
  expect_status 2 'given 2 times' encode t.ops -o x.bin -o y.bin
  expect_status 2 'given 2 times' campaign --time 5 --time 6 --out co
  for v in 0 -1 13 x; do expect_status 2 'cpus' verify cpudl --cpus "$v"; done
  for v in 0 -2 16; do expect_status 2 'deadlines' verify cpudl --deadlines "$v"; done
  expect_status 2 'domain' verify cpudl --domain wrap65
  expect_status 2 'level' verify cpudl --level fuzzy
  for v in 0 11 -1; do expect_status 2 'bits' verify pick --bits "$v"; done
  expect_status 2 'boundary-cpus' verify pick --boundary-cpus -3
  expect_status 2 'boundary-cpus' verify pick --boundary-cpus 9000
  expect_status 2 'level' replay --level fuzzy t.ops
  expect_status 2 'target' replay --target nosuch t.ops
  expect_status 2 'level' minimize --level fuzzy t.ops -o m
  expect_status 2 'target' encode --target nosuch t.ops -o x.bin
  expect_status 2 'target' decode --target nosuch t.ops
  for v in -1 101 abc; do expect_status 2 'min-reference-optimized' coverage --min-reference-optimized "$v"; done
  expect_status 2 'corpus' coverage --corpus /nonexistent
  for v in 0 -1 257; do expect_status 2 'jobs' campaign --time 5 --jobs "$v" --out co; done
  for v in 0 -5; do expect_status 2 'time' campaign --time "$v" --out co; done
  expect_status 2 'reruns' campaign --time 5 --reruns 0 --out co
  expect_status 2 'time' kernel-check cpudl --candidate x.c --time -1
  expect_status 2 'runs|convert' kernel-check cpudl --candidate x.c --runs -1
  expect_status 2 'nr-cpus' kernel-check cpudl --candidate x.c --nr-cpus 0
  expect_status 2 'nr-cpus' kernel-check pick --candidate x.c --nr-cpus 9000
  expect_status 2 'api' kernel-check cpudl --candidate x.c --api v5
  for v in 1025 -1 x; do
    expect_status 2 'task-util' kernel-check cpudl --candidate x.c --capacity 1024,512 --task-util "$v"
  done
  expect_status 2 'task-util requires --capacity' kernel-check cpudl --candidate x.c --task-util 600
  expect_status 2 'level' kernel-check pick --candidate x.c --level fuzzy
  expect_status 2 'bench-dir' bench --bench-dir /nonexistent
  [ ! -e co ] || fail "a refused campaign created its --out directory"
  ;;
version)
  expect_status 0 '' --version
  grep -Eq '^diffsched [0-9]+\.[0-9]+\.[0-9]+( \(git [^)]+\))?$' out.log ||
    { fail "--version printed:"; cat out.log; }
  [ ! -s err.log ] || fail "--version wrote to stderr"
  ;;
unknown)
  cp "$TIE" t.ops
  expect_status 2 "unknown subcommand 'frob'.*known: replay" frob
  expect_status 2 "unknown subcommand 'frob'.*known: replay" frob --help
  expect_status 2 "unknown option '--frob' for diffsched " --frob
  expect_status 2 "unknown option '--frob' for diffsched replay" replay --frob t.ops
  expect_status 2 "unknown option '--frob' for diffsched replay" replay t.ops --frob
  expect_status 2 "unknown option '-z' for diffsched encode" encode -z t.ops -o x.bin
  expect_status 2 "unknown subcommand 'frob' for diffsched verify.*cpudl, pick" verify frob
  expect_status 2 "unknown option '--frob' for diffsched verify cpudl" verify cpudl --frob
  expect_status 2 "unknown subcommand 'frob' for diffsched kernel-check" kernel-check frob
  expect_status 2 "unknown option '--frob' for diffsched ops" ops --frob
  expect_status 2 "unknown argument 'extra' for diffsched ops" ops extra
  expect_status 2 "unknown option '--frob' for diffsched bench" bench --frob
  expect_status 2 "unknown option '--frob' for diffsched campaign" campaign --time 5 --frob
  expect_status 2 "unknown option '--frob' for diffsched coverage" coverage --frob
  expect_status 2 'subcommand is required' verify
  expect_status 2 'subcommand is required'
  ;;
out-of-domain)
  cp "$OOD" o.ops && cp "$CORPUS/regressions/cpudl/out-of-domain-later.ops" o2.ops && cp "$TIE" t.ops
  printf 'subject cpudl\ncpus 2\nset 0 100\nset 1 200\n' >ok.ops
  expect_status 3 '' replay o.ops
  grep -q 'OUT OF DOMAIN (no verdict, exit 3)' out.log || fail "replay does not say out of domain"
  expect_status 3 '' replay -q o2.ops
  expect_status 3 '' replay --json o.ops
  expect_status 3 '' replay ok.ops o.ops
  expect_status 0 '' replay ok.ops
  expect_status 1 '' replay --level exact o.ops t.ops  # a real finding outranks out of domain
  expect_status 1 '' replay --level exact t.ops o.ops
  expect_status 0 '' replay --expect cpudl:out-of-domain:heap-order:slot.dl:set o.ops
  expect_status 0 '' replay --check-expect o.ops o2.ops
  "$D" encode o.ops -o o.bin >/dev/null && expect_status 3 '' replay o.bin
  expect_status 3 '' minimize o.ops -o m
  grep -q 'OUT OF DOMAIN' out.log || fail "minimize does not say out of domain"
  [ ! -e m.ops ] && [ ! -e m.bin ] || fail "minimize wrote files for an out-of-domain input"
  expect_status 0 '' minimize --level exact t.ops -o m
  ;;
verify-refusal)
  for args in '--cpus 12 --deadlines 15' '--cpus 8 --deadlines 4' '--cpus 7 --deadlines 2' \
              '--cpus 12 --deadlines 15 --max-depth 2' '--cpus 10 --deadlines 1 --domain wrap'; do
    # shellcheck disable=SC2086
    expect_status 2 'estimated .* states.*pass --force' verify cpudl $args -o v.ops
    [ ! -s out.log ] || fail "verify cpudl $args: refused but printed on stdout"
  done
  for args in '--boundary-cpus 8192' '--boundary-cpus 1000 --no-z3'; do
    # shellcheck disable=SC2086
    expect_status 2 'estimated .* triples.*pass --force' verify pick $args -o v.ops
  done
  expect_status 0 '' verify pick --bits 2 --boundary-cpus 4 --no-z3 -o v.ops
  grep -q '^estimate: 72 + 564 triples' out.log || fail "verify pick does not print its estimate"
  # Bounds that fit run, and say their estimate first.
  expect_status 0 '' verify cpudl --cpus 3 --deadlines 2 -o v.ops
  grep -q '^estimate: ~.* states' out.log || fail "verify cpudl does not print its estimate"
  expect_status 0 '' verify cpudl --cpus 3 --deadlines 2 --force -o v.ops
  expect_status 0 '' verify cpudl --cpus 12 --deadlines 2 --max-depth 1 -o v.ops
  [ ! -e v.ops ] || fail "verify wrote a counterexample where none was found"
  ;;
*)
  echo "unknown class $CLASS"; exit 2 ;;
esac
[ "$fails" -eq 0 ] || { echo "$fails failure(s) in class $CLASS"; exit 1; }
echo "class $CLASS: ok"
