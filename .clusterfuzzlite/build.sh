#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script for diffsched's fuzz targets.
#
# Runs inside the base-builder image (Dockerfile here) with the variables the
# builder sets: CC, CXX, CFLAGS, CXXFLAGS (sanitizer and coverage flags),
# LIB_FUZZING_ENGINE (the engine's link flags), SRC (sources), OUT (where the
# targets go), WORK (scratch), SANITIZER, FUZZING_ENGINE, ARCHITECTURE.
# scripts/check-oss-fuzz-build.sh runs it outside Docker with the same names.
#
# Produces in $OUT, for each target T of the registry (src/registry.def):
#   T                  the fuzz target (the same fuzz/T.cpp harness as
#                      libFuzzer and AFL++ builds; engine: $LIB_FUZZING_ENGINE)
#   T_seed_corpus.zip  corpus/T/* (raw inputs, made from corpus/seeds/T/*.ops)
#   T.dict             fuzz/<dict>.dict, the registry's dictionary of T, if any
#   T.options          fuzz/T.options (libFuzzer flags: max_len, dict)
# A crash file from any engine reproduces with
#   diffsched replay --target T CRASH_FILE

src_dir=${DIFFSCHED_SRC:-$SRC/diffsched}
build_dir=$WORK/diffsched-build
# A self_check target (cpudl_exact) fails on every tie by design (a check that
# a fuzzer finds the known, accepted divergence), so it would fail every
# ClusterFuzzLite run; it is built only on request
# (scripts/check-oss-fuzz-build.sh asks for it).
source "$src_dir/scripts/registry.sh"
roles=(lockstep front_end race)
[[ ${DIFFSCHED_WITH_SELF_CHECK:-0} == 1 ]] && roles+=(self_check)
mapfile -t targets < <(registry_targets "${roles[@]}")

# fmt header-only: the targets need no libfmt at run time (the runner image
# has none), and nothing clashes when $CXXFLAGS selects libc++. --as-needed
# (cmake/DiffschedHelpers.cmake, engine external) then drops the unused
# libfmt and libz3 from the targets' dependencies.
cmake -S "$src_dir" -B "$build_dir" \
  -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="$CXXFLAGS -DFMT_HEADER_ONLY" \
  -DDIFFSCHED_FUZZ=ON -DDIFFSCHED_FUZZ_ENGINE=external \
  -DDIFFSCHED_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DDIFFSCHED_BUILD_TESTS=OFF -DDIFFSCHED_BUILD_BENCH=OFF
cmake --build "$build_dir" -j"$(nproc)" \
  --target "${targets[@]/#/fuzz_}"

zip_dir() {  # zip_dir DIR ZIP: the files of DIR, flat, into ZIP
  rm -f "$2"
  if command -v zip >/dev/null; then
    (cd "$1" && zip -q -X -j "$2" ./*)
  else
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            z.write(path, name)
PY
  fi
}

for t in "${targets[@]}"; do
  cp "$build_dir/fuzz/$t" "$OUT/$t"
  zip_dir "$src_dir/corpus/$t" "$OUT/${t}_seed_corpus.zip"
  cp "$src_dir/fuzz/$t.options" "$OUT/$t.options"
  dict=$(registry_field "$t" dict)
  if [[ -n $dict ]]; then
    cp "$src_dir/fuzz/$dict.dict" "$OUT/$t.dict"
    # The options name the subject's dict; point them at the target's own.
    sed -i "s/^dict = .*/dict = $t.dict/" "$OUT/$t.options"
  fi
done
