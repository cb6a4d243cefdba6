# The shell tests' one set of helpers (issue 23), sourced, never run:
#   . "$(dirname "$0")/../support/testlib.sh"                   (properties/*/)
#   . "$(dirname "$0")/../properties/support/testlib.sh"        (scripts/)
# POSIX sh, so that the #!/bin/sh (dash) and the bash scripts share it.
#
# A script counts its failures in $fails (fail) and ends with its own check
# of it; what the scripts differ in (what a failure prints, where a command's
# output goes, what is matched) is set per script with the TL_* variables
# below, before the first call, so every copy's checks are kept as they were.
#
# fail:
#   TL_FAIL_PREFIX  printed before the message (default "FAIL: ")
#   TL_FAIL_STDERR  1: the message goes to stderr (default stdout)
#   TL_FAIL_EXIT    1: the first failure exits 1 (default: count it, go on)
#   TL_FAIL_HOOK    a command run after the message (to show the state)
# expect_status:
#   TL_PROG         the program ARGS are given to; empty: ARGS is the command
#   TL_SUB          words between TL_PROG and ARGS (a subcommand), unquoted
#   TL_SHOW         what the messages call TL_PROG (default "diffsched")
#   TL_OUT, TL_ERR  where stdout and stderr go (default out.log, err.log);
#                   the same file: both into it
#   TL_MATCH        err: PATTERN is looked for in stderr (default); output:
#                   in stdout and stderr
#   TL_ERROR_PREFIX the error line's start (default '^diffsched: error: ');
#                   set empty: any one line
#   TL_ERROR_LINES  one (default): stderr is exactly one line, which has the
#                   prefix; count: exactly one line of stderr has the prefix
#                   (others may be there: a log of both streams)
#   TL_ERROR_ON     2 (default): the one-line check is for exit status 2
#                   only; any: for every status
#   TL_ERROR_MAX    if set, the error line is at most this many bytes
#   TL_OK           1: a check that holds prints "ok: ..."

fails=0

# fail MESSAGE...: one failure, printed (TL_FAIL_*), then counted or fatal.
fail() {
  if [ "${TL_FAIL_STDERR:-0}" = 1 ]; then
    echo "${TL_FAIL_PREFIX-FAIL: }$*" >&2
  else
    echo "${TL_FAIL_PREFIX-FAIL: }$*"
  fi
  if [ -n "${TL_FAIL_HOOK:-}" ]; then "$TL_FAIL_HOOK"; fi
  if [ "${TL_FAIL_EXIT:-0}" = 1 ]; then exit 1; fi
  fails=$((fails + 1))
}

# ok MESSAGE...: a check that held, said so (for the tests that list them).
ok() { echo "ok: $*"; }

# The stderr of the last command, indented, for a failure's message.
_tl_show_err() { sed 's/^/  | /' "${TL_ERR:-err.log}"; }

# expect_status WANT PATTERN ARGS...: runs the command (TL_PROG TL_SUB ARGS);
# one failure, and status 1, unless
#   - it exits WANT;
#   - for status 2 (TL_ERROR_ON), its stderr is one error line (TL_ERROR_*);
#   - PATTERN (grep -E; '' or '-': none) matches stderr (TL_MATCH=output:
#     stdout and stderr).
# The output stays in TL_OUT and TL_ERR for the checks that follow.
expect_status() {
  _tl_want=$1 _tl_pattern=$2
  shift 2
  _tl_out=${TL_OUT:-out.log} _tl_err=${TL_ERR:-err.log}
  _tl_show=
  if [ -n "${TL_PROG:-}" ] && [ -n "${TL_SHOW-diffsched}" ]; then _tl_show="${TL_SHOW-diffsched} "; fi
  if [ -n "${TL_SUB:-}" ]; then _tl_show="$_tl_show$TL_SUB "; fi
  # shellcheck disable=SC2086  # TL_SUB is words
  if [ -n "${TL_PROG:-}" ]; then set -- "$TL_PROG" ${TL_SUB:-} "$@"; fi
  if [ "$_tl_out" = "$_tl_err" ]; then "$@" >"$_tl_out" 2>&1; else "$@" >"$_tl_out" 2>"$_tl_err"; fi
  _tl_rc=$?
  # The messages name the program by TL_SHOW: drop it and TL_SUB from "$@".
  if [ -n "${TL_PROG:-}" ]; then
    shift
    for _tl_word in ${TL_SUB:-}; do shift; done
  fi
  if [ "$_tl_rc" -ne "$_tl_want" ]; then
    fail "$_tl_show$*: exit $_tl_rc, expected $_tl_want"; _tl_show_err | head -5; return 1
  fi
  if [ "$_tl_want" -eq 2 ] || [ "${TL_ERROR_ON:-2}" = any ]; then
    _tl_prefix=${TL_ERROR_PREFIX-^diffsched: error: }
    _tl_what=${_tl_prefix#^}
    _tl_what="one '${_tl_what% }' line"
    if [ -z "$_tl_prefix" ]; then _tl_what="one line"; fi
    if [ -n "${TL_ERROR_MAX:-}" ]; then _tl_what="$_tl_what of at most $TL_ERROR_MAX bytes"; fi
    if [ "${TL_ERROR_LINES:-one}" = count ]; then
      [ "$(grep -c -- "$_tl_prefix" "$_tl_err")" -eq 1 ]
    else
      [ "$(wc -l <"$_tl_err")" -eq 1 ] && { [ -z "$_tl_prefix" ] || grep -q -- "$_tl_prefix" "$_tl_err"; }
    fi || { fail "$_tl_show$*: stderr is not $_tl_what"; _tl_show_err; return 1; }
    if [ -n "${TL_ERROR_MAX:-}" ] && [ "$(wc -c <"$_tl_err")" -gt "$TL_ERROR_MAX" ]; then
      fail "$_tl_show$*: stderr is not $_tl_what"; _tl_show_err; return 1
    fi
  fi
  if [ -n "$_tl_pattern" ] && [ "$_tl_pattern" != - ]; then
    if [ "${TL_MATCH:-err}" = output ]; then
      cat "$_tl_out" "$_tl_err" | grep -Eq -- "$_tl_pattern" ||
        { fail "$_tl_show$*: the output does not match '$_tl_pattern'"; sed 's/^/  | /' "$_tl_out" | head -20
          _tl_show_err; return 1; }
    else
      grep -Eq -- "$_tl_pattern" "$_tl_err" ||
        { fail "$_tl_show$*: stderr does not match '$_tl_pattern'"; _tl_show_err; return 1; }
    fi
  fi
  if [ "${TL_OK:-0}" = 1 ]; then
    ok "$_tl_show$* -> $_tl_rc"
  fi
  return 0
}
