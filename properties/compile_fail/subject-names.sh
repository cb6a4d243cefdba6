#!/usr/bin/env bash
# A subject's name is resolved once, at the edge (src/subject_tools.h): no
# code compares it with a literal. Fails on any `== "NAME"` / `!= "NAME"`
# (either order) for a subject NAME (every `kName = "..."` of src/*/lockstep.h)
# in src/, kshim/, fuzz/ and bench/, outside the registries (subject_tools.*,
# subjects.h, registry.def). Then plants one in a copy of a real file and
# checks that the scan finds it, so the test cannot pass by finding nothing.
#   subject-names.sh SOURCE_DIR
set -u
root=$1
cd "$root" || { echo "FAIL: no source directory $root"; exit 2; }
names=$(grep -ho 'kName = "[a-z_]*"' src/*/lockstep.h | sed 's/.*"\(.*\)"/\1/' | sort -u | paste -sd'|')
if [ -z "$names" ]; then echo "FAIL: no subject names found in src/*/lockstep.h"; exit 1; fi
pattern="[!=]=[[:space:]]*\"($names)\"|\"($names)\"[[:space:]]*[!=]="
scan() {  # DIR...: the offending lines, file:line:text
  grep -rnE --include='*.cpp' --include='*.h' --include='*.c' "$pattern" "$@" 2>/dev/null |
    grep -vE '^([^:]*/)?(subject_tools\.(h|cpp)|subjects\.h|registry\.def):' |
    grep -vE ':[0-9]+:[[:space:]]*//'
}
status=0
hits=$(scan src kshim fuzz bench)
if [ -n "$hits" ]; then
  echo "FAIL: a subject name compared outside the registry (read a SubjectTool field instead):"
  echo "$hits"
  status=1
else
  echo "ok: no subject name is compared outside the registry ($names)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/perf"
cp src/perf/run.cpp "$tmp/src/perf/run.cpp"
first=${names%%|*}
printf '\nbool planted(const RunOptions& o) { return o.subject->name == "%s"; }\n' "$first" \
  >>"$tmp/src/perf/run.cpp"
if [ -z "$(scan "$tmp/src")" ]; then
  echo "FAIL: a planted comparison with \"$first\" was not found"; status=1
else
  echo "ok: a planted comparison with \"$first\" is found"
fi
exit $status
