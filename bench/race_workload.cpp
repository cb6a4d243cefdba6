// bench_race_workload CPUS OPS: prints the bench's cpudl workload
// (workload.h, seed_cpudl_workload(): the seed patch's 75% set / 25% clear
// of random CPUs) as a .ops program, for `diffsched race cpudl` (issue 26):
//   ./build/bench/bench_race_workload 16 1000 > w.ops && ./build/diffsched race cpudl w.ops
// is_valid = 0 is cpudl_clear(), as the pre-v4.9 adapter does (cpudeadline.h).
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "workload.h"

int main(int argc, char** argv) {
  const unsigned cpus = argc == 3 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 0;
  const unsigned ops = argc == 3 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : 0;
  if (cpus < 1 || cpus > 8192 || ops < 1) {
    fmt::print(stderr, "usage: bench_race_workload CPUS OPS (CPUS in 1..8192, OPS > 0)\n");
    return 2;
  }
  fmt::print("# the bench's cpudl workload, cpus:{}/ops:{} (bench/workload.h)\n", cpus, ops);
  fmt::print("subject cpudl\ncpus {}\n", cpus);
  for (const auto& op : diffsched::bench::seed_cpudl_workload({cpus, ops})) {
    if (op.is_valid)
      fmt::print("set {} {}\n", op.cpu, op.dl);
    else
      fmt::print("clear {}\n", op.cpu);
  }
  return 0;
}
