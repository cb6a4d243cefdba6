// diffsched fn's input model: what one call of the checked function is made
// of, built once from the C types (extract.h) refined by a spec, and used by
// the generator (generate.cpp), the C harness generator (harness_gen.cpp),
// the printers and the comparison (observe.cpp). The three walk the same
// tree, so the value stream the parent writes is the one the harness reads.
//
//   Spec spec; if (!parse_spec(text, "x.fnspec", &spec, &error)) fail(error);
//   Layout layout; if (!build_layout(x, spec, &layout, &error)) fail(error);  // exit 2
//   Input in = generate_input(layout, rng, nr_cpus);   // one call's values
//   std::string c = harness_source(layout);             // appended to the unit
//
// The value stream of one call (docs/fn.md "Batch file"): nr_cpu_ids, then
// each covered global, then each parameter in order; a scalar is one value,
// a mask BITS_TO_LONGS(nr_cpu_ids) words, a struct its fields, a fixed
// array its elements, a pointer its pointee, and an array with a length
// parameter its length first, then its elements (the length parameter is
// set from it, never drawn on its own).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fn/extract.h"

namespace diffsched::fn {

// ---- the spec (docs/fn.md "Spec files") ------------------------------------

// A bound of a range: a number, or nr_cpu_ids plus an offset.
struct Bound {
  std::int64_t value = 0;
  bool per_nr_cpu_ids = false;  // value is added to nr_cpu_ids
  std::int64_t at(unsigned nr_cpu_ids) const {
    return per_nr_cpu_ids ? static_cast<std::int64_t>(nr_cpu_ids) + value : value;
  }
};

struct ParamSpec {
  std::optional<Bound> lo, hi;  // the domain: lo <= value <= hi
  bool nested = false;          // an array of masks: each holds the one before
  std::int64_t array = -1;      // a pointer: to this many elements
  bool terminated = false;      // ... and a zeroed one after them, never drawn (`array N terminated`)
  std::string less;             // a callback: a counting `<` over this C type
  std::string cmp;              // a callback: a counting three-way comparison over this type
  bool swap = false;            // a callback: the harness's counting swap
  std::string swap_type;        // ... of this type's size, when the callback takes no size
  bool null = false;            // a function pointer: NULL (the function's own default)
  std::string fn;               // a function pointer: this function of the file (`fn NAME`)
  std::string fn_type;          // ... its type, from the extraction (build_layout fills it)
  std::shared_ptr<const CType> fn_shape;  // ... the same, as a CType (kFunction)
  std::string elements;         // a `void *`: its elements' type ("int", "u64 tagged")
  std::string elements_num;     // ... its length parameter (num=), "" if not said
  std::string elements_size;    // ... the integer set to the element's size (size=PATH)
  std::int64_t elements_size_value = -1;  // ... or the size it must be (size=N)
  bool heap = false;            // an array: a min-heap below its first element
  bool scratch = false;         // not an output: left out of the comparison
  std::string ring;             // a pointer: to ring_count structs linked through this field
  std::int64_t ring_count = 0;  // ... back to the first (`ring FIELD N`)
};

struct GlobalSpec {
  bool input = false;                   // generated from its type, per call
  bool scratch = false;                 // ... and not an output: not compared (`scratch`)
  std::optional<std::int64_t> constant;  // a stated constant (integers)
  std::string fn;                       // a function pointer: this function of the file
};

// `stub NAME input` (the default) or `stub NAME = VALUE` (docs/fn.md "Stubs").
struct StubSpec {
  std::optional<std::int64_t> constant;  // every call returns this (a pointer: 0, NULL)
};

struct Spec {
  std::map<std::string, ParamSpec> params;
  std::map<std::string, GlobalSpec> globals;
  std::map<std::string, StubSpec> stubs;
  std::string level;  // "" or exact, multiset, sorted
  std::set<std::string> intended;  // observation rows whose differences are intended
  int depth = 0;  // `depth N`: struct fields described N levels deep (0: kDefaultFieldDepth)
  std::map<std::string, std::int64_t> config;  // `config CONFIG_X [= N]`: defined for both sides
  // ... those only --config gave: not refused when neither file names one
  // (with --patch, one option goes to every changed function's run).
  std::set<std::string> config_options;
  // The shim's era, MAJOR.MINOR (--kernel-version; "" : chosen by era.h),
  // and what gave it ("--kernel-version", "the spec's `kernel` line").
  std::string kernel;
  std::string kernel_from;
};

// Parses a .fnspec text; false with *error one line "FILE:LINE: why".
bool parse_spec(const std::string& text, const std::string& file, Spec* spec, std::string* error);

// Adds `--config CONFIG_X[=N]` options to spec->config, each checked as a
// `config` line is; false with *error one line naming the option (a bad
// name, or one a spec line defines to another value).
bool add_config_options(const std::vector<std::string>& options, Spec* spec, std::string* error);

// ---- element types (elements.cpp) ------------------------------------------

// The type a spec gives a `void *` array's elements or a callback (`int`,
// `u32`, `unsigned long`, `int tagged`): an integer type, or with `tagged`
// the harness's `struct fnh_tagged_T { T key; unsigned int tag; }`, whose
// tag shows the order of equal keys (lib/sort.c has no element type).
struct ElemType {
  std::string key;  // the integer type ("unsigned long")
  unsigned bytes = 0;
  bool is_signed = false;
  bool tagged = false;
  std::string c_type() const;  // "int", "struct fnh_tagged_int"
  std::int64_t size() const;   // sizeof, as the harness's C has it
  std::string text() const;    // as the spec writes it: "int tagged"
};

// false if `text` is not an integer type name the harness knows (the
// message lists them: known_elem_types()).
bool parse_elem_type(const std::string& text, ElemType* out);
std::string known_elem_types();

// The C expression of the key an element at `ptr` (a `const void *`) holds.
std::string elem_key_expr(const ElemType& t, const std::string& ptr);

// The spec with what the tool infers for what it does not say (a `void *`
// followed by a length: `int tagged` elements, and a size parameter after
// the length set to their size; callbacks of the sort API's shapes: cmp and
// swap over them). The spec's own lines are kept.
Spec infer_spec(const Signature& f, const Spec& spec);

// ---- the layout ------------------------------------------------------------

// A length parameter's name: n, len, nr, count, size, num, cnt, or nr_*,
// num_*, *_len, *_nr, *_count, *_size, *_cnt (layout.cpp).
bool is_length_name(const std::string& name);

enum class NodeKind {
  kScalar,   // integer, bool or enum: one value
  kMask,     // a struct cpumask object: BITS_TO_LONGS(nr_cpu_ids) words
  kStruct,   // kids: the fields
  kArray,    // kids[0]: the element; count fixed, or a length parameter
  kPointer,  // kids[0]: the pointee (one object)
  kNull,     // a `void *` (opaque callback data) or a spec's `null` callback: NULL; no value
  kLess,     // a harness callback (`callback`: less, cmp or swap), counting its calls; no value
};

struct Node {
  NodeKind kind = NodeKind::kScalar;
  std::string c_type;     // the type, top-level const dropped ("struct cpu_load")
  std::string field;      // a struct field's name
  std::string path;       // the spec's name of this value (`heap.data`, `base[]`), "" if none
  std::shared_ptr<const CType> fn_type;  // kLess: the callback's type
  std::string callback;   // kLess: "less", "cmp" or "swap"
  unsigned bits = 0;      // scalars
  bool is_signed = false;
  bool is_bool = false;
  std::int64_t count = -1;    // kArray: fixed size; -1: from length_param
  std::string length_param;   // kArray: the parameter that holds its length
  bool by_pointer = false;    // kArray of fixed count: a pointer to them (a spec's `array N`)
  bool opaque = false;        // kStruct: an incomplete struct, kOpaqueBytes zeroed bytes, no fields
  bool zeroed = false;        // opaque: a defined struct past the field depth, sizeof zeroed bytes
  bool ring_link = false;     // kNull: a ring's link field (`ring FIELD N`), set by the harness
  std::vector<Node> kids;
  ParamSpec spec;             // the spec's refinement (top-level nodes)
};

// The bytes the harness allocates for an opaque struct (declared, never
// defined: its address is what the function passes on).
constexpr int kOpaqueBytes = 64;

// The node of one element of a spec's `elements TYPE`.
Node elem_node(const ElemType& t);

// Whether `function` (a kFunction, BoundFunction::shape) may be assigned to
// a function pointer of type `pointer` (kFunctionPointer) without a cast: C's
// compatible types, the pointer's own qualifiers (`volatile`) and attributes
// (`noreturn`) aside, an enum as its integer type, `int ()` as any
// parameters (a fn binding's type check).
bool compatible_binding(const CType& pointer, const CType& function);

// A function pointer the spec binds (`less`, `cmp`, `swap`, `null`): its
// node; false with *error one line naming what does not fit.
bool callback_node(const CType& t, const ParamSpec& ps, const std::string& path,
                   const std::string& where, Node* out, std::string* error);

// A harness callback in an input line: `<int` (less), `cmp(int tagged)`,
// `swap` or `swap(int)`.
std::string callback_text(const Node& node);
// A kNull node in an input line: `NULL`, or the function a spec binds (`fn`).
std::string null_text(const Node& node);

// One top-level input: a parameter or a covered global.
struct Slot {
  std::string name;
  bool is_global = false;
  bool is_length = false;  // a length parameter: set from its array, not drawn
  int array_of = -1;       // is_length: the slot of its array
  Node node;
  bool is_stub = false;    // in Layout::globals: a stub's results, `NAME()` (an array of kStubValues)
  // In Layout::globals: a covered global the other side reads and this side
  // does not (its file may not even have it): drawn into the harness's own
  // variable `fnh_absent_NAME`, which the call leaves as drawn, and observed
  // from there (merge_absent_globals()).
  bool absent = false;
  bool per_cpu = false;    // a per-CPU variable's copies (GlobalRead::per_cpu)
  std::string lvalue() const { return absent ? "fnh_absent_" + name : name; }
};

// A stub (stubs.cpp, docs/fn.md "Stubs"): an external function the shim
// lacks, defined by the harness. Its k-th call in a call of the function
// returns the k-th (mod kStubValues) of its values in the input (the slot
// `NAME()` in Layout::globals), and is recorded with its arguments in the
// call trace (the observation row `calls`).
constexpr int kStubValues = 4;

struct Stub {
  std::string name;
  CType result;                // kVoid: nothing drawn, no slot
  std::vector<CType> params;   // recorded at each call (prototyped only)
  bool prototyped = false;
  bool implicit = false;       // never declared: the unit gets a prototype first
  bool called = true;          // this side calls it (else: only its values, for the other side's sake)
  bool in_file = false;        // a function of the file a spec line makes a stub (`stub NAME`)
};

struct Layout {
  std::string function;
  std::vector<Stub> stubs;    // by name, both sides' (merge_stubs)
  // External variables the shim lacks: the harness defines them (this side
  // only: each side's unit declares its own). As any global, one the
  // function reads is an input the spec covers, or a hidden global.
  std::vector<std::string> defined_externs;
  std::vector<Slot> globals;  // covered globals, then
  std::vector<Slot> params;   // the parameters, in order
  std::vector<Slot> written;  // globals written and not covered: observed only
  // The shim's globals the function reads: not drawn, their values the
  // shim's (nr_cpu_ids and the possible/present/online masks set per input,
  // the rest fixed, e.g. the zeroed run queues of kshim/sched_fair.h).
  std::vector<std::string> shim_state;
  // The shim's era the sides were built at (fn/era.h): the version, "" for
  // the default, and the run header's line saying how it was chosen.
  std::string era;
  std::string era_why;
  Node result;                // kind kScalar, or c_type "void" / a pointer
  bool result_void = false;
  bool result_pointer = false;
  std::set<std::string> intended;  // the spec's intended rows, each one of the rows below
};

// The observation rows of a call, in the order they print: "return" (if
// not void), "*PARAM" for each pointer or array parameter, each covered or
// written global, "WARN_ON".
std::vector<std::string> observation_rows(const Layout& layout);

// Builds the layout of x's function (one side). false with *error one line
// naming the parameter or global that cannot be generated or is not covered.
bool build_layout(const Extraction& x, const Spec& spec, Layout* layout, std::string* error);

// The node of a value of type t (`where` names it in the error), as a
// parameter's without a spec line.
bool value_node(const CType& t, const std::string& where, Node* out, std::string* error);

// The run header's lines on what the function reads from outside its
// parameters and covered globals: "stubs: ..." and "shim state read: ...",
// also as j["stubs"] and j["shim_state"] (stubs.cpp).
std::string outside_text(const Layout& layout, nlohmann::json* j);

// The stubs of x's externals that the shim lacks (external functions, each
// called or declared): into layout->stubs, with their values' slots at the
// end of layout->globals. false with *error one line: an external variable
// the shim lacks, a result that cannot be generated (naming the spec line
// that fixes it).
bool stub_slots(const Extraction& x, const Spec& spec, Layout* layout, std::string* error);

// Both sides get every stub either side has (the same values slots, in
// name order), so they draw the same inputs; false with *error when the two
// declare one with different result types.
bool merge_stubs(Layout* a, Layout* b, std::string* error);

// The C the unit needs before its text (the opaque structs' tags, the
// prototypes of the implicit stubs),
// and the harness's stub definitions and trace helpers (after the unit).
std::string stub_prototypes(const Layout& layout);
std::string stub_definitions(const Layout& layout);

// The `calls` row of a record, readable: "f(&in0+0, 3), g({0-3})", or for
// two differing traces, each side's first differing call ("call 2 of 3: ...").
std::string show_calls(const Layout& layout, const nlohmann::json& calls);
std::pair<std::string, std::string> show_calls_diff(const Layout& layout, const nlohmann::json& a,
                                                    const nlohmann::json& b);

// The two sides must take the same inputs: "" or one line naming the difference.
std::string same_inputs(const Layout& old_side, const Layout& new_side);

// A covered global only one side reads (the new version no longer needs a
// scratch mask) is drawn for both: the other side gets it as an absent slot
// at the same place (pair.cpp), its value the harness's own variable, which
// the call leaves as drawn and which is observed as the global is.
void merge_absent_globals(Layout* a, Layout* b);

// The two sides' layouts made one input: the absent globals and the stubs
// merged, then the same inputs checked; "" or one line why they differ.
std::string join_sides(Layout* old_side, Layout* new_side);
// The harness's variables of the absent slots (before the call).
std::string absent_definitions(const Layout& layout);

// ---- inputs ----------------------------------------------------------------

// Array lengths are at most this (the harness allocates exactly the length).
constexpr std::int64_t kMaxArrayLength = 64;

struct Input {
  unsigned nr_cpu_ids = 1;
  std::vector<std::uint64_t> values;  // the stream after nr_cpu_ids
};

// A scalar's domain at nr_cpu_ids: its type's range within the spec's
// (an empty range is its lower end).
struct ScalarDomain {
  __int128 lo, hi;
};
ScalarDomain scalar_domain(const Node& s, const ParamSpec& spec, unsigned nr_cpu_ids);

// A scalar's value in the stream, as the number it is (signed values are
// stored as 64-bit two's complement, unsigned ones below their width).
__int128 scalar_of(const Node& s, std::uint64_t v);

// The nr_cpu_ids a run draws from when --nr-cpus is not given.
const std::vector<unsigned>& default_nr_cpus();

// One call's values: nr_cpu_ids is nr_cpus if > 0, else drawn from
// default_nr_cpus(). Deterministic in the rng's state. O(size of the input).
Input generate_input(const Layout& layout, std::mt19937_64& rng, unsigned nr_cpus);

// The same generator driven by a fuzzer's bytes instead of the rng: every
// byte string is an input within the layout's domains (fn --fuzz, fuzz.h).
Input decode_input(const Layout& layout, std::span<const std::uint8_t> bytes, unsigned nr_cpus);

// "nr_cpu_ids=65 env={dst_grpmask=0-3,64 cpus=...} target=5": one line.
std::string show_input(const Layout& layout, const Input& input);

// A mask's words as a CPU list, "0-3,64" ("" when empty).
std::string cpu_list(const std::vector<std::uint64_t>& words, unsigned nr_bits);

// The C spelling of t with its top-level const dropped ("const struct
// cpumask *" for `const struct cpumask *const`), or "" if it has none here.
std::string c_spelling(const CType& t, bool keep_const = false);

// ---- the harness -----------------------------------------------------------

// A call that has not returned after this long is a hang (SIGALRM).
constexpr unsigned kHangSeconds = 2;

// The C text appended to the extracted unit: main() reads a batch file,
// calls the function once per input and writes one JSON line per call
// (docs/fn.md "Observation records"). Kernel-style C, no #include.
std::string harness_source(const Layout& layout, const std::string& function);

// The harness's number printing, fnh_putu() and fnh_puti() (C text, part
// of harness_source(); harness_print.cpp).
const char* harness_numbers();

// The rest of harness_source()'s fixed C text (harness_text.cpp): before
// harness_numbers(), after it, fn --fuzz's library entry, and main().
const char* harness_prologue();
const char* harness_prologue_masks();
const char* harness_library_entry();
const char* harness_main();

// Writes the batch file of `inputs`; false on an I/O error.
bool write_batch(const std::string& path, const std::vector<Input>& inputs);

}  // namespace diffsched::fn
