#!/usr/bin/env bash
# docs/extending.md's "Add an op to a subject", checked against the code by
# planting an op (ctest contract.add-an-op):
#   plant-op.sh CXX SOURCE_DIR LIBCLANG_INCLUDE_DIR
# A copy of the tree gets one new update op in src/subjects/cpudl/ops.h (the next
# free code, appended to cpudl::Op) and nothing else. Then
#   - every file the table says the compiler forces must fail to compile,
#     with an error inside that file (the visitor without the new case);
#   - a sample of the files the doc says follow from the op list with no
#     edit (text and binary forms, traces, JSON, the verifier, the
#     minimiser, the fuzz-target table) must still compile;
#   - each forced file must be named in the table, so the doc and the code
#     agree (a file the code forces but the doc leaves out fails here).
# Without the plant every unit compiles (the failures are the plant's).
set -u
cxx=$1
src=$2
clang_include=$3  # the build's own (src/CMakeLists.txt's find_path)
doc="$src/docs/extending.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# file-the-doc-names : the unit whose compile shows it (a header is shown by a
# .cpp that instantiates it).
forced=(
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/perf_clock.cpp"
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/perf_cost.cpp"
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/side.cpp"
  "kshim/harness/kernel_c_side.cpp:kshim/harness/kernel_c_side.cpp"
  "src/subjects/cpudl/model.cpp:src/subjects/cpudl/model.cpp"
  "src/kcheck/in_kernel_programs.cpp:src/kcheck/in_kernel_programs.cpp"
)
follows=(src/io/trace.cpp src/io/json.cpp src/subjects/cpudl/print.cpp src/io/program.cpp src/io/binary.cpp src/io/fields.cpp
         src/subjects/cpudl/verify_bfs.cpp src/engine/minimize.cpp src/targets.cpp)

compile() {  # root unit -> output
  "$cxx" -std=c++20 -fsyntax-only -DBOOST_ALL_NO_LIB -DDIFFSCHED_SOURCE_DIR=\"$1\" \
    -DDIFFSCHED_LIBCLANG_PATH=\"\" -DDIFFSCHED_VERSION=\"0\" -I"$1/src" -I"$1/kshim/abi" \
    -I"$1/kshim/harness" -isystem "$clang_include" "$1/$2" 2>&1
}

# The table's rows: the text between its heading and the next heading.
table=$(awk '/^## Add an op to a subject/{on=1; next} /^## /{on=0} on' "$doc")
[ -n "$table" ] || { echo "FAIL: no 'Add an op to a subject' section in $doc"; exit 1; }

mkdir -p "$tmp/tree"
cp -r "$src/src" "$src/kshim" "$tmp/tree/"
ops="$tmp/tree/src/subjects/cpudl/ops.h"
grep -q '^using Op = std::variant<' "$ops" || { echo "FAIL: cpudl::Op not found in ops.h"; exit 1; }
python3 - "$ops" <<'PY' || { echo "FAIL: could not plant the op"; exit 1; }
import re, sys
p = sys.argv[1]
s = open(p).read()
codes = [int(c) for c in re.findall(r"kCode = (\d+);", s)]
planted = (
    "struct PlantedOp {\n"
    f"  static constexpr std::uint8_t kCode = {max(codes) + 1};\n"
    "  static constexpr bool kUpdate = true;\n"
    '  static constexpr std::string_view kName = "planted_op";\n'
    '  static constexpr std::string_view kKernel = "planted(cp, cpu)";\n'
    "  Cpu cpu = 0;\n"
    "  template <class Self, class F>\n"
    "  static constexpr void fields(Self& op, F&& f) {\n"
    '    f("cpu", op.cpu);\n'
    "  }\n"
    "};\n\n")
m = re.search(r"using Op = std::variant<([^;]*)>;", s)
s = s[:m.start()] + planted + "using Op = std::variant<" + m.group(1) + ", PlantedOp>;" + s[m.end():]
open(p, "w").write(s)
PY

for pair in "${forced[@]}"; do
  file=${pair%%:*}
  unit=${pair#*:}
  # Named in the first column of a row of the table ("| `path` | ...").
  awk -F'|' '/^\|/ {print $2}' <<<"$table" | grep -qF "\`$file\`" ||
    fail "$file is forced by the code but docs/extending.md's table does not name it"
  if ! out=$(compile "$src" "$unit"); then
    fail "$unit does not compile without the plant:"; echo "$out" | head -5; continue
  fi
  if out=$(compile "$tmp/tree" "$unit"); then
    fail "$unit compiled with an op it does not handle ($file should reject it)"; continue
  fi
  # The visitor's error is reported in <variant>; its "required from" chain
  # names the file and line of the visit that lacks the case.
  if ! grep -qE "$(basename "$file"):[0-9]+:" <<<"$out"; then
    fail "$unit failed, but not at $file:"; grep -m3 error <<<"$out" | cut -c1-300; continue
  fi
  echo "ok: a new op without its case in $file does not compile ($unit)"
done
for unit in "${follows[@]}"; do
  if out=$(compile "$tmp/tree" "$unit"); then
    echo "ok: $unit needs no edit for a new op"
  else
    fail "$unit does not compile with the planted op, but the doc says it follows from the op list:"
    grep -m3 error <<<"$out" | cut -c1-300
  fi
done
exit $status
