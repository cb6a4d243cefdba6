// A cpumask from a list of CPUs, for hand-made test cases.
#pragma once

#include <initializer_list>

#include "kernel/cpumask.h"

namespace diffsched::test {

inline kernel::Cpumask mask(std::initializer_list<unsigned> cpus) {
  kernel::Cpumask m{};
  for (unsigned c : cpus) kernel::cpumask_set_cpu(c, &m);
  return m;
}

}  // namespace diffsched::test
