#!/usr/bin/env bash
# docs/extending.md's "Add an op to a subject", checked against the code by
# planting an op (ctest contract.add-an-op):
#   plant-op.sh CXX SOURCE_DIR LIBCLANG_INCLUDE_DIR
# A copy of the tree gets one new cpudl update op made of existing kernel
# calls (planted_op CPU DL: cpudl_clear() then cpudl_set(), the next free
# code, appended to cpudl::Op) with every edit the doc's table says it takes:
# src/subjects/cpudl/ops.h, src/subjects/cpudl/apply.h, src/subjects/cpudl/model.cpp, the driver's op
# table kshim/abi/kc_ops.h and its handler in kshim/kmod/kc_subject_cpudl.c. Then
#   - with all of them every unit below compiles, and so does a sample of
#     the files the doc says follow from the op list with no edit (text and
#     binary forms, traces, JSON, the verifier, the minimiser, the
#     fuzz-target table, kernel-check's C side, the in-kernel driver lines);
#   - with any one left out, the units that need it fail to compile, with an
#     error at that file (the visit without the new case, the static_assert,
#     the driver's handler table): the compiler rejects every forgotten file;
#   - each of those files is named in the table's first column, and the
#     doc's "So an op touches N source files" counts them with ops.h.
# Without the plant every unit compiles (the failures are the plant's).
set -u
cxx=$1
src=$2
clang_include=$3  # the build's own (src/CMakeLists.txt's find_path)
cc=${CC:-cc}
doc="$src/docs/extending.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/testlib.sh"  # fail: counted in $fails

# file-the-doc-names : a unit whose compile shows it is left out : where the
# error is (default: the file itself; a header is shown by a unit that
# instantiates it). A ".c" unit is the in-kernel driver, compiled as C.
forced=(
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/perf_clock.cpp"
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/perf_cost.cpp"
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/side.cpp"
  "src/subjects/cpudl/apply.h:src/subjects/cpudl/kcheck_harness.cpp"
  "src/subjects/cpudl/model.cpp:src/subjects/cpudl/model.cpp"
  "kshim/abi/kc_ops.h:src/subjects/cpudl/kcheck_check.cpp:src/subjects/cpudl/kcheck_check.cpp"
  "kshim/kmod/kc_subject_cpudl.c:kshim/kmod/kc_subject_cpudl.c"
)
follows=(src/io/trace.cpp src/io/json.cpp src/subjects/cpudl/print.cpp src/io/program.cpp src/io/binary.cpp src/io/fields.cpp
         src/subjects/cpudl/verify_bfs.cpp src/engine/minimize.cpp src/targets.cpp
         src/subjects/cpudl/kcheck_harness.cpp src/subjects/cpudl/kcheck_check.cpp
         src/kcheck/in_kernel_programs.cpp src/subjects/cpudl/perf_search.cpp)

compile() {  # root unit -> output
  case $2 in
    *.c) "$cc" -std=gnu11 -fsyntax-only -Wall -Werror -I"$1/kshim/abi" "$1/$2" 2>&1 ;;
    *) "$cxx" -std=c++20 -fsyntax-only -DBOOST_ALL_NO_LIB -DDIFFSCHED_SOURCE_DIR=\"$1\" \
         -DDIFFSCHED_LIBCLANG_PATH=\"\" -DDIFFSCHED_VERSION=\"0\" -I"$1/src" -I"$1/kshim/abi" \
         -I"$1/kshim/harness" -isystem "$clang_include" "$1/$2" 2>&1 ;;
  esac
}

# The table's rows: the text between its heading and the next heading.
table=$(awk '/^## Add an op to a subject/{on=1; next} /^## /{on=0} on' "$doc")
[ -n "$table" ] || { echo "FAIL: no 'Add an op to a subject' section in $doc"; exit 1; }

# The plant: the op and its edit in every file of the table.
mkdir -p "$tmp/tree"
cp -r "$src/src" "$src/kshim" "$tmp/tree/"
python3 - "$tmp/tree" <<'PY' || { echo "FAIL: could not plant the op"; exit 1; }
import re, sys
root = sys.argv[1]

def edit(rel, fn):
    p = f"{root}/{rel}"
    s = open(p).read()
    t = fn(s)
    if t == s:
        sys.exit(f"{rel}: nothing to plant at")
    open(p, "w").write(t)

def ops(s):
    codes = [int(c) for c in re.findall(r"kCode = (\d+);", s)]
    planted = (
        "struct PlantedOp {\n"
        f"  static constexpr std::uint8_t kCode = {max(codes) + 1};\n"
        "  static constexpr bool kUpdate = true;\n"
        '  static constexpr std::string_view kName = "planted_op";\n'
        '  static constexpr std::string_view kKernel = "cpudl_clear(cp, cpu); cpudl_set(cp, cpu, dl)";\n'
        "  Cpu cpu = 0;\n"
        "  Deadline dl = 0;\n"
        "  template <class Self, class F>\n"
        "  static constexpr void fields(Self& op, F&& f) {\n"
        '    f("cpu", op.cpu);\n'
        '    f("dl", op.dl);\n'
        "  }\n"
        "};\n\n")
    m = re.search(r"using Op = std::variant<([^;]*)>;", s)
    if not m:
        return s
    return s[:m.start()] + planted + "using Op = std::variant<" + m.group(1) + ", PlantedOp>;" + s[m.end():]

edit("src/subjects/cpudl/ops.h", ops)
edit("src/subjects/cpudl/apply.h", lambda s: s.replace(
    "          [&](const Find& o) {",
    "          [&](const PlantedOp& o) {\n"
    "            cpudl_clear(cp, o.cpu);\n"
    "            cpudl_set(cp, o.cpu, o.dl);\n"
    "          },\n"
    "          [&](const Find& o) {", 1))
edit("src/subjects/cpudl/model.cpp", lambda s: s.replace(
    "  } else if constexpr (FindOp<T>) {",
    "  } else if constexpr (std::is_same_v<T, PlantedOp>) {\n"
    "  } else if constexpr (FindOp<T>) {", 1))
edit("kshim/abi/kc_ops.h", lambda s: re.sub(
    r"(\tX\('u', cpu_up\))\n", "\\1 \\\\\n\tX('r', planted_op)\n", s, 1))
edit("kshim/kmod/kc_subject_cpudl.c", lambda s: s.replace(
    "/* One handler per row of KC_CPUDL_OPS",
    "static int kc_op_planted_op(struct kc_driver *d, char **s, struct kc_result *r)\n"
    "{\n\t(void)d;\n\t(void)s;\n\t(void)r;\n\treturn -1;\n}\n\n"
    "/* One handler per row of KC_CPUDL_OPS", 1))
PY

files=()
for pair in "${forced[@]}"; do
  f=${pair%%:*}
  case " ${files[*]} " in *" $f "*) ;; *) files+=("$f") ;; esac
done
# Named in the first column of a row of the table ("| `path` | ...").
for file in src/subjects/cpudl/ops.h "${files[@]}"; do
  awk -F'|' '/^\|/ {print $2}' <<<"$table" | grep -qF "\`$file\`" ||
    fail "$file is forced by the code but docs/extending.md's table does not name it"
done
count=$((${#files[@]} + 1))
grep -q "So an op touches $count source files" "$doc" ||
  fail "docs/extending.md does not say 'So an op touches $count source files' (ops.h and ${files[*]})"

units=()
for pair in "${forced[@]}"; do
  rest=${pair#*:}
  u=${rest%%:*}
  case " ${units[*]} " in *" $u "*) ;; *) units+=("$u") ;; esac
done
for unit in "${units[@]}"; do
  out=$(compile "$src" "$unit") || { fail "$unit does not compile without the plant:"; echo "$out" | head -5; }
  if out=$(compile "$tmp/tree" "$unit"); then
    echo "ok: $unit compiles with the planted op and its edits"
  else
    fail "$unit does not compile with the planted op and all its edits:"
    grep -m3 error <<<"$out" | cut -c1-300
  fi
done
for unit in "${follows[@]}"; do
  if out=$(compile "$tmp/tree" "$unit"); then
    echo "ok: $unit needs no edit for a new op"
  else
    fail "$unit does not compile with the planted op, but the doc says it follows from the op list:"
    grep -m3 error <<<"$out" | cut -c1-300
  fi
done

# Each file left out in turn (its original back in the planted tree).
for file in "${files[@]}"; do
  cp "$tmp/tree/$file" "$tmp/planted"
  cp "$src/$file" "$tmp/tree/$file"
  for pair in "${forced[@]}"; do
    [ "${pair%%:*}" = "$file" ] || continue
    rest=${pair#*:}
    unit=${rest%%:*}
    at=${rest#*:}
    [ "$at" = "$rest" ] && at=$file
    if out=$(compile "$tmp/tree" "$unit"); then
      fail "$unit compiled with the new op but without its edit in $file"; continue
    fi
    # A visitor's error is reported in <variant>; its "required from" chain
    # names the file and line of the visit that lacks the case. An error at
    # another file (a static_assert on the table) must name the file.
    if ! grep -qE "$(basename "$at"):[0-9]+:" <<<"$out" || ! grep -qF "$(basename "$file")" <<<"$out"; then
      fail "$unit failed without $file's edit, but not at $at naming it:"
      grep -m3 error <<<"$out" | cut -c1-300; continue
    fi
    echo "ok: the new op without its edit in $file does not compile ($unit)"
  done
  cp "$tmp/planted" "$tmp/tree/$file"
done
[ "$fails" = 0 ]
