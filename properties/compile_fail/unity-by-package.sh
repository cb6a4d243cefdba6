#!/usr/bin/env bash
# ctest contract.unity-by-package: no unity file of the build joins units of
# two subject packages (src/subjects/<name>/). A new subject starts as a copy
# of a package, file-local helpers and all (docs/extending.md, "Add a
# subject"); batched with the package it came from, the two would clash.
# cmake/DiffschedHelpers.cmake's diffsched_unity_by_package keeps each
# package's units in batches of their own.
#   unity-by-package.sh BUILD_DIR
set -u
build=$1
status=0
files=0
packaged=0
while IFS= read -r -d '' f; do
  files=$((files + 1))
  mapfile -t pkgs < <(grep -o 'src/subjects/[A-Za-z0-9_]*/' "$f" | sort -u)
  ((${#pkgs[@]} > 0)) && packaged=$((packaged + 1))
  if ((${#pkgs[@]} > 1)); then
    echo "FAIL: ${f#$build/} joins units of ${#pkgs[@]} packages: ${pkgs[*]}"
    status=1
  fi
done < <(find "$build" -path '*/Unity/*.cxx' -print0)
# A build without unity files, or none with a package's units, proves nothing.
((files > 0)) || { echo "FAIL: no unity files under $build (is CMAKE_UNITY_BUILD on?)"; exit 1; }
((packaged > 0)) || { echo "FAIL: no unity file holds a subject package's units"; exit 1; }
[ $status = 0 ] && echo "ok: $files unity files, $packaged with a package's units, each of one package"
exit $status
