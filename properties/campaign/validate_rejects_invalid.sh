#!/usr/bin/env bash
# validate_rejects_invalid.sh VALIDATE DIR: copies the valid reports in DIR,
# breaks one file at a time and checks that VALIDATE (scripts/validate-reports.sh)
# exits 1 for each: the validators really look at what they are given.
set -uo pipefail
. "$(dirname "$0")/../support/testlib.sh"
TL_FAIL_PREFIX="FAIL "  # fail (properties/support/testlib.sh): "FAIL NAME: ...", counted
validate=$1 good=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_invalid() {  # expect_invalid NAME FILE SED-EXPRESSION
  rm -rf "$tmp/case" && cp -r "$good" "$tmp/case"
  sed -i "$3" "$tmp/case/$2"
  if cmp -s "$good/$2" "$tmp/case/$2"; then
    fail "$1: the edit did not change $2"; return
  fi
  "$validate" "$tmp/case" >"$tmp/log" 2>&1
  local rc=$?
  if ((rc == 1)) && grep -q "INVALID $tmp/case/$2" "$tmp/log"; then
    echo "ok   $1: rejected"
  else
    fail "$1: validate-reports exited $rc, expected 1 naming $2"; cat "$tmp/log"
  fi
}

expect_invalid "markdown: heading level skipped" summary.md 's/^## Targets/#### Targets/'
expect_invalid "markdown: table row with a missing cell" summary.md '0,/^| `cpudl` |/s/^| `cpudl` |/|/'
expect_invalid "junit: unknown element" junit.xml 's#<properties>#<bogus/><properties>#'
expect_invalid "junit: testcase without name" junit.xml '0,/ name="cpudl"/s/ name="cpudl"//'
expect_invalid "junit: not well-formed" junit.xml 's#</testsuites>##'
expect_invalid "sarif: result level outside the enum" results.sarif '0,/"level": "error"/s/"level": "error"/"level": "fatal"/'
expect_invalid "sarif: ruleIndex not an integer" results.sarif '0,/"ruleIndex": 0/s/"ruleIndex": 0/"ruleIndex": "0"/'
expect_invalid "sarif: version not 2.1.0" results.sarif 's/"version": "2.1.0"/"version": "2.2.0"/'
[[ $fails -eq 0 ]]
