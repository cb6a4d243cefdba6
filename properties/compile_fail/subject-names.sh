#!/usr/bin/env bash
# A subject's name is resolved once, at the edge (src/subject_tools.h): no
# code compares it with a literal. For a subject NAME (every `kName = "..."`
# of src/subjects/*/lockstep.h), fails on any of, in src/, kshim/, fuzz/ and bench/
# outside the registries (src/subject_tools.*, src/subjects.h, src/registry.def):
#   x == "NAME", "NAME" != x, x == std::string("NAME"), std::string_view{"NAME"} == x
#   .compare("NAME"), strcmp(x, "NAME"), starts_with("NAME"), IsMember({... "NAME" ...})
# Then plants each form in a copy of a real file and checks that the scan
# finds every one, so the test cannot pass by finding nothing.
#   subject-names.sh SOURCE_DIR
set -u
root=$1
cd "$root" || { echo "FAIL: no source directory $root"; exit 2; }
names=$(grep -ho 'kName = "[a-z_]*"' src/subjects/*/lockstep.h | sed 's/.*"\(.*\)"/\1/' | sort -u | paste -sd'|')
if [ -z "$names" ]; then echo "FAIL: no subject names found in src/subjects/*/lockstep.h"; exit 1; fi
lit="(u8)?\"($names)\"(sv|s)?"
wrap="((std::)?(string|string_view)[[:space:]]*[({][[:space:]]*)?"
pattern="[!=]=[[:space:]]*$wrap$lit|$lit[[:space:]]*[)}]?[[:space:]]*[!=]="
pattern+="|(compare|strcmp|strncmp|starts_with|ends_with)[[:space:]]*\\([^;]*$lit"
pattern+="|IsMember[[:space:]]*\\([^;]*$lit"
scan() {  # DIR...: the offending lines, file:line:text
  grep -rnE --include='*.cpp' --include='*.cc' --include='*.h' --include='*.hpp' \
    --include='*.c' --include='*.inc' "$pattern" "$@" 2>/dev/null |
    grep -vE '^([^:]*/)?src/(subject_tools\.(h|cpp)|subjects\.h|registry\.def):' |
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
first=${names%%|*}
forms=("o.subject->name == \"$first\"" "\"$first\" != o.subject->name"
       "o.subject->name == std::string(\"$first\")" "std::string_view{\"$first\"} == o.subject->name"
       "o.subject->name.compare(\"$first\") == 0" "strcmp(o.name, \"$first\") == 0"
       "o.subject->name.starts_with(\"$first\")" "CLI::IsMember({\"x\", \"$first\"})")
for i in "${!forms[@]}"; do
  mkdir -p "$tmp/$i/src/perf"
  cp src/perf/run.cpp "$tmp/$i/src/perf/run.cpp"
  printf '\nauto planted(const PerfSettings& o) { return %s; }\n' "${forms[$i]}" >>"$tmp/$i/src/perf/run.cpp"
  if [ -z "$(scan "$tmp/$i/src")" ]; then
    echo "FAIL: a planted ${forms[$i]} was not found"; status=1
  else
    echo "ok: a planted ${forms[$i]} is found"
  fi
done
exit $status
