#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh outside Docker with the variables OSS-Fuzz's
# base-builder sets for libFuzzer (flags as in its base-clang image), then
# checks $OUT: each target, its seed corpus zip, options and (cpudl, pick,
# inputs) dict; that the targets need no library the runner image lacks; that each
# target runs its unzipped seed corpus without a finding; that cpudl, pick and
# cpumask then run RUNS more inputs without one; and that cpudl_exact (a
# self-check, src/targets.h) finds the known tie divergence within 60 s, a
# crash file that `diffsched replay --target cpudl_exact` (DIFFSCHED, default
# build/diffsched) reproduces with signature cpudl:divergence:exact:*.
#   scripts/check-oss-fuzz-build.sh [address|undefined] [RUNS]   (default: address 1000)
# Exit 0 if all holds, 1 if a check failed, 2 if the build could not run.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sanitizer=${1:-address}
runs=${2:-1000}
source scripts/registry.sh
source properties/support/testlib.sh
mapfile -t targets < <(registry_targets)   # all of them: the registry's order
export DIFFSCHED_WITH_SELF_CHECK=1  # build.sh adds the self_check target (cpudl_exact's tie)

case $sanitizer in
  address) san_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
  undefined)
    checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr
    san_flags="-fsanitize=$checks,unsigned-integer-overflow -fno-sanitize-recover=$checks" ;;
  *) echo "check-oss-fuzz-build: error: sanitizer must be address or undefined (got '$sanitizer')" >&2; exit 2 ;;
esac
diffsched=${DIFFSCHED:-build/diffsched}
[[ -x $diffsched ]] || { echo "check-oss-fuzz-build: error: $diffsched not found (build the default preset or set DIFFSCHED)" >&2; exit 2; }
for tool in clang-14 clang++-14 unzip; do
  command -v "$tool" >/dev/null || { echo "check-oss-fuzz-build: error: $tool not found (scripts/install-deps.sh)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
ln -s "$root" "$tmp/src/diffsched"   # the Dockerfile's COPY . $SRC/diffsched

common="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
# OSS-Fuzz adds -stdlib=libc++ to CXXFLAGS; set DIFFSCHED_OSSFUZZ_LIBCXX=1
# where libc++-14-dev is installed to check that too.
libcxx=; [[ ${DIFFSCHED_OSSFUZZ_LIBCXX:-0} == 1 ]] && libcxx=" -stdlib=libc++"
env_vars=(
  SRC="$tmp/src" OUT="$tmp/out" WORK="$tmp/work"
  CC=clang-14 CXX=clang++-14
  CFLAGS="$common $san_flags -fsanitize=fuzzer-no-link"
  CXXFLAGS="$common $san_flags -fsanitize=fuzzer-no-link$libcxx"
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer
  SANITIZER="$sanitizer" FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
)
echo "check-oss-fuzz-build: build.sh with SANITIZER=$sanitizer FUZZING_ENGINE=libfuzzer (log: build.log in \$WORK)"
if ! (cd "$tmp/src/diffsched" && env "${env_vars[@]}" bash -eux .clusterfuzzlite/build.sh) \
    >"$tmp/build.log" 2>&1; then
  echo "check-oss-fuzz-build: error: build.sh failed:" >&2
  tail -30 "$tmp/build.log" >&2
  exit 2
fi

# fail: "check-oss-fuzz-build: FAIL: ...", counted in $fails (properties/support/testlib.sh)
TL_FAIL_PREFIX="check-oss-fuzz-build: FAIL: "
out=$tmp/out
for t in "${targets[@]}"; do
  dict=
  [[ -x $out/$t ]] || { fail "\$OUT/$t missing or not executable"; continue; }
  [[ -f $out/$t.options ]] || fail "\$OUT/$t.options missing"
  zip=$out/${t}_seed_corpus.zip
  if [[ ! -f $zip ]]; then fail "\$OUT/${t}_seed_corpus.zip missing"; continue; fi
  mkdir -p "$tmp/seeds/$t"
  unzip -q "$zip" -d "$tmp/seeds/$t" || fail "$zip does not unzip"
  want=$(ls corpus/$t | wc -l); got=$(ls "$tmp/seeds/$t" | wc -l)
  [[ $want == "$got" ]] || fail "$zip holds $got files, corpus/$t has $want"
  if grep -q '^dict' "$out/$t.options"; then
    dict=$(sed -n 's/^dict = //p' "$out/$t.options")
    [[ -f $out/$dict ]] || fail "$t.options names $dict, not in \$OUT"
  fi
  [[ -z $(registry_field "$t" dict) || -f $out/$t.dict ]] || fail "\$OUT/$t.dict missing"
  # The runner image has the C/C++ runtime, nothing else (no libfmt, no libz3).
  extra=$(ldd "$out/$t" | awk '{print $1}' | grep -vE '^(linux-vdso|/lib64/ld-linux|libc\.|libm\.|libpthread|libdl|librt|libgcc_s|libstdc\+\+|libc\+\+|libc\+\+abi)' || true)
  [[ -z $extra ]] || fail "$t needs libraries the runner lacks: $(echo $extra)"
  # Options as the runner passes them; crash files go to $tmp, not $OUT.
  max_len=$(sed -n 's/^max_len = //p' "$out/$t.options")
  run_target() {  # run_target LOG ARGS...: the target from $OUT on its seeds
    (cd "$out" && UBSAN_OPTIONS=print_stacktrace=1:silence_unsigned_overflow=1 \
      "./$t" -seed=1 -max_len="${max_len:-4096}" ${dict:+-dict=$dict} \
      -artifact_prefix="$tmp/$t-" "${@:2}" "$tmp/seeds/$t") >"$1" 2>&1
  }
  if ! run_target "$tmp/$t.seeds.log" -runs=0; then
    fail "$t fails on its own seed corpus:"; tail -15 "$tmp/$t.seeds.log"; continue
  fi
  if [[ $(registry_field "$t" role) != self_check ]]; then
    if run_target "$tmp/$t.log" -runs="$runs"; then
      echo "check-oss-fuzz-build: $t: $got seeds + $runs runs, no finding ($(grep -o 'cov: [0-9]*' "$tmp/$t.log" | tail -1))"
    else
      fail "$t found something or did not run:"; tail -15 "$tmp/$t.log"
    fi
    continue
  fi
  run_target "$tmp/$t.log" -max_total_time=60
  crash=$(ls "$tmp/$t-"crash-* 2>/dev/null | head -1)
  sig=
  # replay exits 1 on the finding; the signature line is what counts.
  [[ -n $crash ]] && sig=$("$diffsched" replay -q --target cpudl_exact "$crash" 2>/dev/null |
                           sed -n 's/^ *signature //p' | head -1)
  if [[ -z $crash ]]; then
    fail "cpudl_exact did not find the tie divergence in 60 s:"; tail -15 "$tmp/$t.log"
  elif [[ $sig == cpudl:divergence:exact:* ]]; then
    echo "check-oss-fuzz-build: cpudl_exact: seeds pass; found the tie divergence, replay --target reproduces it: $sig"
  else
    fail "cpudl_exact's crash $crash does not replay as an exact divergence (signature '${sig:-none}')"
  fi
done
echo "check-oss-fuzz-build: \$OUT: $(cd "$out" && ls | tr '\n' ' ')"
((fails == 0)) && echo "check-oss-fuzz-build: ok ($sanitizer)"
[[ $fails -eq 0 ]]
