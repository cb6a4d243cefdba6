// The libFuzzer entry points of `diffsched fn --fuzz` (fuzz.h): linked per
// pair with the two sides' objects, whose entries are fnh_one_old and
// fnh_one_new (harness_gen.cpp, FNH_LIBRARY). It reads the pair from the
// configuration fn wrote (DIFFSCHED_FN_FUZZ), extracts and lays out both
// sides as fn does, so the inputs it decodes are the ones fn decodes from
// the files it leaves, and compares the records with fn's comparison.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "fn/fuzz.h"

extern "C" unsigned long fnh_one_old(unsigned int nr, const unsigned long long* vals,
                                     unsigned long nvals, const char** record);
extern "C" unsigned long fnh_one_new(unsigned int nr, const unsigned long long* vals,
                                     unsigned long nvals, const char** record);

namespace {

using namespace diffsched::fn;
using nlohmann::json;

struct Pair {
  Side old_side, new_side;
  FnLevel level = FnLevel::kExact;
  unsigned nr_cpus = 0;
  std::string stats;
  std::uint64_t runs = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

Pair* g_pair = nullptr;

[[noreturn]] void stop(const std::string& line) {
  std::fprintf(stderr, "diffsched: error: fn --fuzz runner: %s\n", line.c_str());
  std::_Exit(2);
}

void write_stats() {
  if (!g_pair) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - g_pair->start).count();
  std::ofstream f(g_pair->stats, std::ios::trunc);
  f << json{{"runs", g_pair->runs}, {"seconds", seconds}}.dump() << "\n";
}

using Entry = unsigned long (*)(unsigned int, const unsigned long long*, unsigned long, const char**);

void call(Entry entry, const Input& in, const char** text, unsigned long* len) {
  *len = entry(in.nr_cpu_ids, reinterpret_cast<const unsigned long long*>(in.values.data()),
               in.values.size(), text);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* path = std::getenv("DIFFSCHED_FN_FUZZ");
  if (!path) stop("DIFFSCHED_FN_FUZZ is not set: run it through `diffsched fn --fuzz SECONDS`");
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  FuzzConfig c;
  if (!f || !from_json(json::parse(text.str(), nullptr, false), &c))
    stop(fmt::format("cannot read the configuration {}", path));
  Spec spec;
  if (!c.spec_file.empty()) {
    std::ifstream sf(c.spec_file);
    std::stringstream st;
    st << sf.rdbuf();
    if (std::string error; !sf || !parse_spec(st.str(), c.spec_file, &spec, &error)) stop(error);
  }
  if (std::string error; !add_config_options(c.config, &spec, &error)) stop(error);
  spec.kernel = c.kernel;  // as the pair was prepared: the era is not chosen again
  auto* p = new Pair{{"old", c.old_file, c.old_function, {}}, {"new", c.new_file, c.new_function, {}}};
  const std::string level = !c.level.empty() ? c.level : spec.level;
  if (!level.empty() && !parse_level(level, &p->level)) stop("unknown level " + level);
  p->nr_cpus = c.nr_cpus;
  p->stats = c.stats;
  if (std::string error; !prepare_pair(spec, p->old_side, p->new_side, &error)) stop(error);
  p->start = std::chrono::steady_clock::now();  // the rate is of the fuzzing, not the extraction
  g_pair = p;
  std::atexit(write_stats);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Pair& p = *g_pair;
  const Input in = decode_input(p.old_side.layout, {data, size}, p.nr_cpus);
  const char *ta = nullptr, *tb = nullptr;
  unsigned long na = 0, nb = 0;
  call(fnh_one_old, in, &ta, &na);
  call(fnh_one_new, in, &tb, &nb);
  if (!ta || !tb)  // never compared in part
    stop(fmt::format("the {} side's record of {} is over the harness's 1 MiB buffer: --fuzz cannot "
                     "compare it", !ta ? "old" : "new", show_input(p.old_side.layout, in)));
  ++p.runs;
  if (na == nb && std::memcmp(ta, tb, na) == 0) return 0;  // the same record: equal at every level
  Observation a, b;
  a.run = b.run = true;
  a.record = json::parse(std::string_view(ta, na), nullptr, false);
  b.record = json::parse(std::string_view(tb, nb), nullptr, false);
  const Layout& layout = p.old_side.layout;
  if (equal_at(layout, a, b, p.level, true)) return 0;
  std::fprintf(stderr, "diffsched fn --fuzz: the sides differ at `%s` (level %s) on %s\n",
               first_differing_row(layout, a, b, p.level, true).c_str(), level_name(p.level),
               show_input(layout, in).c_str());
  write_stats();
  std::abort();  // libFuzzer saves the input; fn decodes and judges it
}
