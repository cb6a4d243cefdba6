#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's own tests of its cpumask, bitmap and find-bit API, run against
# kshim/ (issue 27). Written for diffsched.
#
#   run-kernel-tests.sh prepare WORK TARBALL REPO   extract lib/cpumask_kunit.c and
#                                                  lib/test_bitmap.c into WORK, build both
#   run-kernel-tests.sh prepare-model WORK REPO    build api_model.c (the shim against a
#                                                  model of each contract) for two eras
#   run-kernel-tests.sh run WORK NAME NR           run WORK/NAME at nr_cpu_ids NR
#
# The sources come from Debian's linux-source-6.1 at test time and are never
# committed. Every failure is one for the shim; the tests are built as they
# are, through the stand-ins in properties/kshim/standin/. Cases the shim
# cannot support are listed in properties/kshim/unsupported.txt (the one
# place). Exit 0 pass, 1 a test failed, 2 could not build or run.
set -u
mode=${1:-}
work=${2:-}
case $mode in
prepare)
  tarball=$3 repo=$4
  if [ ! -f "$tarball" ]; then
    echo "error: $tarball is missing: install the Debian package linux-source-6.1 (scripts/install-deps.sh)"
    exit 2
  fi
  rm -rf "$work" && mkdir -p "$work" || exit 2
  top=$(tar -tf "$tarball" 2>/dev/null | head -1 | cut -d/ -f1)
  if ! tar -xf "$tarball" -C "$work" "$top/lib/cpumask_kunit.c" "$top/lib/test_bitmap.c"; then
    echo "error: cannot extract lib/cpumask_kunit.c and lib/test_bitmap.c from $tarball"
    exit 2
  fi
  cc=$(command -v clang-14 || command -v clang) || { echo "error: clang-14 not found (scripts/install-deps.sh)"; exit 2; }
  san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  sd=$repo/properties/kshim/standin
  # As kernel-check builds a candidate (-nostdinc, the shim's headers only),
  # optimised as the kernel is: test_bitmap_const_eval()'s BUILD_BUG_ON()s
  # need the optimiser to fold the shim's inlines, which UBSan's checks
  # prevent (the kernel's Makefile disables GCOV there for the same reason),
  # so the test files get ASan alone; the shim's runtime gets both.
  kflags="-std=gnu11 -g -O2 -nostdinc -fsanitize=address -fno-omit-frame-pointer -fno-strict-aliasing -Wall -Wno-unused-function
          -Werror=implicit-function-declaration -Werror=incompatible-pointer-types
          -I $sd/include -I $repo/kshim/include -include $sd/include/kstm_standin.h"
  "$cc" -std=gnu11 -g -O1 $san -I "$sd/include" -c "$repo/properties/kshim/kstm_runner.c" -o "$work/runner.o" || exit 2
  "$cc" -std=gnu11 -g -O1 $san -nostdinc -I "$repo/kshim/include" -I "$repo/kshim/abi" -c "$repo/kshim/runtime/runtime.c" -o "$work/runtime.o" || exit 2
  "$cc" -std=gnu11 -g -O1 $san -nostdinc -I "$repo/kshim/include" -c "$repo/kshim/runtime/bitmap.c" -o "$work/bitmap.o" || exit 2
  for t in cpumask_kunit test_bitmap; do
    # shellcheck disable=SC2086
    if ! "$cc" $kflags -c "$work/$top/lib/$t.c" -o "$work/$t.o" 2>"$work/$t.log"; then
      cat "$work/$t.log"
      echo "error: lib/$t.c does not build against the kernel shim (see above)"
      exit 2
    fi
    "$cc" $san "$work/$t.o" "$work/runner.o" "$work/runtime.o" "$work/bitmap.o" -o "$work/$t" || exit 2
  done
  echo "built $work/cpumask_kunit and $work/test_bitmap from $tarball ($top)"
  ;;
prepare-model)
  # api_model.c, once per era whose contracts differ (v6.19, v4.14).
  repo=$3
  rm -rf "$work" && mkdir -p "$work" || exit 2
  cc=$(command -v clang-14 || command -v clang) || { echo "error: clang-14 not found (scripts/install-deps.sh)"; exit 2; }
  san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  sd=$repo/properties/kshim/standin
  "$cc" -std=gnu11 -g -O1 $san -I "$sd/include" -c "$repo/properties/kshim/kstm_runner.c" -o "$work/runner.o" || exit 2
  "$cc" -std=gnu11 -g -O1 $san -nostdinc -I "$repo/kshim/include" -I "$repo/kshim/abi" -c "$repo/kshim/runtime/runtime.c" -o "$work/runtime.o" || exit 2
  for era in 6.19 4.14; do
    major=${era%.*} minor=${era#*.}
    # shellcheck disable=SC2086
    "$cc" -std=gnu11 -g -O1 -nostdinc $san -Wall -Wno-unused-function -Werror=implicit-function-declaration \
      "-DKSHIM_KERNEL_VERSION=KSHIM_KV($major,$minor)" -I "$sd/include" -I "$repo/kshim/include" \
      -include "$sd/include/kstm_standin.h" -c "$repo/properties/kshim/api_model.c" -o "$work/api_model.o" || exit 2
    "$cc" $san "-DKSHIM_KERNEL_VERSION=KSHIM_KV($major,$minor)" -std=gnu11 -g -O1 -nostdinc -I "$repo/kshim/include" \
      -c "$repo/kshim/runtime/bitmap.c" -o "$work/bitmap.o" || exit 2
    "$cc" $san "$work/api_model.o" "$work/runner.o" "$work/runtime.o" "$work/bitmap.o" -o "$work/api_model_v$era" || exit 2
  done
  echo "built $work/api_model_v6.19 and $work/api_model_v4.14"
  ;;
run)
  name=$3 nr=$4
  [ -x "$work/$name" ] || { echo "error: $work/$name was not built (the prepare test failed)"; exit 2; }
  here=$(dirname "$0")
  skips=$(grep -v '^#' "$here/unsupported.txt" | awk -v f="$name" '$1 == f { print $2 }')
  # shellcheck disable=SC2086
  "$work/$name" "$nr" $skips
  ;;
*)
  echo "error: usage: $0 prepare WORK TARBALL REPO | prepare-model WORK REPO | run WORK NAME NR"
  exit 2
  ;;
esac
