// Compile-fail test of the subject contract (engine/subject.h), run by
// check.sh: built with -DCOMPLETE it must compile; built with -DMISSING=<part>
// it must fail at the static_assert below, naming the part. A subject that
// forgets part of the contract never reaches the engine.
#include <array>
#include <string_view>
#include <variant>

#include "engine/subject.h"

namespace toy {

struct Poke {
  static constexpr std::string_view kName = "poke";
  static constexpr std::string_view kKernel = "poke(cpu)";
#ifndef MISSING_kCode
  static constexpr std::uint8_t kCode = 0;
#endif
  int cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("cpu", op.cpu); }
};

struct Config {
  unsigned nr_cpu_ids = 4;
};

class Lockstep {
 public:
  void reset(const Config&) {}
  void step(const std::variant<Poke>&, std::size_t, diffsched::Level, diffsched::Verdict&) {}
#ifndef MISSING_close
  void close(std::size_t, diffsched::Level, diffsched::Verdict&) {}
#endif
  bool in_domain() const { return true; }
#ifndef MISSING_last_skipped
  bool last_skipped() const { return false; }
#endif
};

struct Subject {
  static constexpr std::string_view kName = "toy";
#ifndef MISSING_kDefaultCpus
  static constexpr unsigned kDefaultCpus = 4;
#endif
  static constexpr diffsched::Level kDefaultLevel = diffsched::Level::kExact;
  static constexpr std::array<diffsched::Level, 1> kLevels{diffsched::Level::kExact};
  using Op = std::variant<Poke>;
  using Config = toy::Config;
  using Lockstep = toy::Lockstep;
};

}  // namespace toy

static_assert(diffsched::Subject<toy::Subject>, "toy::Subject does not keep the subject contract");

int main() { return 0; }
