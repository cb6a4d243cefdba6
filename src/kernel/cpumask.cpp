#include "kernel/cpumask.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "util/text.h"

namespace diffsched::kernel {

thread_local unsigned nr_cpu_ids = NR_CPUS;

NrCpuIdsScope::NrCpuIdsScope(unsigned n) : saved_(nr_cpu_ids) {
  if (n == 0 || n > NR_CPUS) {
    fmt::print(stderr, "diffsched: nr_cpu_ids {} out of range 1..{}\n", n, NR_CPUS);
    std::abort();
  }
  nr_cpu_ids = n;
}

void cpumask_check_failed(unsigned cpu) {
  fmt::print(stderr, "diffsched: cpumask_check: cpu {} >= nr_cpu_ids {}\n", cpu,
             nr_cpu_ids);
  std::abort();
}

unsigned bitmap_weight(const unsigned long* src, unsigned bits) {
  unsigned w = 0;
  unsigned k;
  for (k = 0; k < bits / BITS_PER_LONG; ++k) w += static_cast<unsigned>(std::popcount(src[k]));
  if (bits % BITS_PER_LONG)
    w += static_cast<unsigned>(std::popcount(src[k] & BITMAP_LAST_WORD_MASK(bits)));
  return w;
}

std::string cpumask_to_cpulist(const Cpumask& m) {
  std::string out;
  unsigned cpu = cpumask_first(&m);
  while (cpu < nr_cpu_ids) {
    unsigned last = cpu;
    while (last + 1 < nr_cpu_ids && cpumask_test_cpu(last + 1, &m)) ++last;
    if (!out.empty()) out += ',';
    if (last == cpu)
      fmt::format_to(std::back_inserter(out), "{}", cpu);
    else
      fmt::format_to(std::back_inserter(out), "{}-{}", cpu, last);
    cpu = cpumask_next(static_cast<int>(last), &m);
  }
  return out;
}

namespace {

using util::trim;

bool parse_cpu(std::string_view s, unsigned* cpu, std::string* error) {
  s = trim(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *cpu);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size()) {
    *error = fmt::format("'{}' is not a CPU number", s);
    return false;
  }
  if (*cpu >= nr_cpu_ids) {
    *error = fmt::format("CPU {} is out of range (nr_cpu_ids is {})", *cpu, nr_cpu_ids);
    return false;
  }
  return true;
}

}  // namespace

bool cpulist_parse(std::string_view text, Cpumask* out, std::string* error) {
  Cpumask m{};
  text = trim(text);
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    auto dash = item.find('-');
    unsigned lo, hi;
    if (dash == std::string_view::npos) {
      if (!parse_cpu(item, &lo, error)) return false;
      hi = lo;
    } else {
      if (!parse_cpu(item.substr(0, dash), &lo, error) ||
          !parse_cpu(item.substr(dash + 1), &hi, error))
        return false;
      if (hi < lo) {
        *error = fmt::format("range '{}' runs backwards", trim(item));
        return false;
      }
    }
    for (unsigned c = lo; c <= hi; ++c) cpumask_set_cpu(c, &m);
    if (comma != std::string_view::npos && trim(text).empty()) {
      *error = "cpulist ends with ','";
      return false;
    }
  }
  *out = m;
  return true;
}

}  // namespace diffsched::kernel
