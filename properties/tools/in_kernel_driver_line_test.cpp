// kernel-check --in-kernel's driver lines (kshim/kmod/kc_driver.h): the host
// writes a cpudl op as its letter from the shared op table
// (kshim/abi/kc_ops.h) and its fields in order, with no per-op code. These
// are the lines the per-op driver_line() of before the table wrote, byte for
// byte, for one op of each kind (and the field forms: an empty mask, both
// bools, the largest deadline, a mask above 64 CPUs).
#include <gtest/gtest.h>

#include <limits>

#include "kernel/cpumask.h"
#include "support/masks.h"
#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"

namespace diffsched::tools::in_kernel_detail {
namespace {

using test::mask;

TEST(InKernelDriverLine, EveryCpudlOpKindIsTheLineThePerOpCodeWrote) {
  kernel::NrCpuIdsScope scope(130);
  const kernel::u64 max = std::numeric_limits<kernel::u64>::max();
  const std::pair<cpudl::Op, const char*> cases[] = {
      {cpudl::Set{{3}, {100}}, "s 3 100"},
      {cpudl::Set{{0}, {max}}, "s 0 18446744073709551615"},
      {cpudl::Clear{{2}}, "c 2"},
      {cpudl::ClearOnline{{1}, false}, "o 1 0"},
      {cpudl::ClearOnline{{129}, true}, "o 129 1"},
      {cpudl::SetFreecpu{{2}}, "S 2"},
      {cpudl::ClearFreecpu{{3}}, "C 3"},
      {cpudl::Find{{50}, mask({0, 1, 2, 3})}, "f 50 0-3"},
      {cpudl::Find{{50}, mask({})}, "f 50 -"},
      {cpudl::FindNomask{{7}, mask({1, 3, 64, 65, 66, 129})}, "n 7 1,3,64-66,129"},
      {cpudl::FindCap{{50}, mask({0, 1, 2, 3}), {1}, {512}, {1024}}, "F 50 0-3 1 512 1024"},
      {cpudl::FindCap{{max}, mask({}), {0}, {0}, {0}}, "F 18446744073709551615 - 0 0 0"},
      {cpudl::CpuDown{{2}}, "d 2"},
      {cpudl::CpuUp{{2}}, "u 2"},
  };
  std::size_t kinds = 0;
  std::vector<bool> seen(std::variant_size_v<cpudl::Op>);
  for (const auto& [op, line] : cases) {
    EXPECT_EQ(kcheck::driver_line<cpudl::Subject>(op), line);
    if (!seen[op.index()]) ++kinds;
    seen[op.index()] = true;
  }
  EXPECT_EQ(kinds, std::variant_size_v<cpudl::Op>) << "a cpudl op kind without a case here";
}

TEST(InKernelDriverLine, PickIsItsThreeMasks) {
  kernel::NrCpuIdsScope scope(8);
  EXPECT_EQ(kcheck::driver_line<pick::Subject>(pick::Op{pick::Pick{mask({0, 1}), mask({}), mask({3})}}), "p 0-1 - 3");
}

}  // namespace
}  // namespace diffsched::tools::in_kernel_detail
