# Sourced by the install scripts (scripts/install-deps.sh, install-validators.sh,
# fetch-kernel.sh, check-fresh-machine.sh). Under `set -euo pipefail` a failing
# command ends a script; these helpers make sure it never ends silently:
#   step TEXT      says what the script does next (printed, and named on failure)
#   run CMD...     runs CMD with its output kept in a log; on failure prints one
#                  line: the step, the command's status and its last error line
#   die TEXT       one error line, exit 2
#   sub SCRIPT...  runs another script of these; when it fails it has said why
#                  in its own one line, so this one exits with its status quietly
# and an ERR trap names the step and the command for anything else that fails.
# Set _prog before sourcing.

set -Eeuo pipefail
: "${_prog:?set _prog before sourcing steps.sh}"
_step="starting"
_log=$(mktemp "${TMPDIR:-/tmp}/$_prog.XXXXXX.log")
_keep_log=0

step() { _step=$1; echo "$_prog: $1"; }

die() {
  trap - ERR
  echo "$_prog: error: $*" >&2
  exit 2
}

# The line of a command's output that says why it failed: apt's "E: ..." line,
# npm's "npm ERR!"/"npm error" line, else the last non-empty line.
_reason() {
  local r
  r=$(grep -E '^(E: |npm ERR! |npm error |error: |fatal: )' "$1" 2>/dev/null | head -n1 || true)
  [[ -n $r ]] || r=$(grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1 || true)
  [[ -n $r ]] || r="(no output)"
  printf '%s' "$r"
}

run() {
  local rc=0 cmd="$*"
  "$@" >"$_log" 2>&1 || rc=$?
  if ((rc != 0)); then
    trap - ERR
    _keep_log=1
    ((${#cmd} <= 100)) || cmd="${cmd:0:97}..."
    echo "$_prog: error: $_step: '$cmd' exited $rc: $(_reason "$_log") (full output: $_log)" >&2
    exit "$rc"
  fi
}

sub() {
  local rc=0
  "$@" || rc=$?
  if ((rc != 0)); then trap - ERR; exit "$rc"; fi
}

_on_err() {
  local rc=$? cmd=$BASH_COMMAND
  trap - ERR
  echo "$_prog: error: $_step: '$cmd' exited $rc" >&2
  exit "$rc"
}
trap _on_err ERR
trap '((_keep_log)) || rm -f "$_log"' EXIT

# root runs apt-get itself; anyone else through sudo (which must exist).
as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "$_step: needs root (or sudo) to run: $*"
  fi
}

# apt-get update, at most once per run (the scripts this one calls see it in
# the environment), before any apt-cache lookup or install that needs the lists.
apt_update_once() {
  [[ ${DIFFSCHED_APT_UPDATED:-} == 1 ]] && return 0
  local saved=$_step
  step "apt-get update"
  run as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  export DIFFSCHED_APT_UPDATED=1
  _step=$saved
}

# is_installed PKG: dpkg says "install ok installed" (a missing package is not an error).
is_installed() {
  local s
  s=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
  [[ $s == "install ok installed" ]]
}

# The version <ver> of the newest installed linux-headers-<ver>-amd64, or
# nothing when none is installed (asked of dpkg, not of /usr/src).
installed_kernel_headers() {
  { dpkg-query -W -f='${Package} ${Status}\n' 'linux-headers-*-amd64' 2>/dev/null || true; } |
    sed -n 's/^linux-headers-\(.*-amd64\) install ok installed$/\1/p' | sort -V | tail -n1
}
