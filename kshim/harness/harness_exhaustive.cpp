// --exhaustive (the kcheck harness's property run over every program within
// bounds): harness_internal.h, docs/kernel-check.md. The programs are each
// subject's (exhaustive<S>() in its package's kcheck_harness.cpp).
#include <fmt/format.h>

#include "harness_internal.h"

namespace diffsched::kcheck::harness {

std::string mask_text(unsigned bits, unsigned n) {
  std::string t;
  for (unsigned c = 0; c < n; ++c)
    if (bits >> c & 1) t += (t.empty() ? "" : ",") + std::to_string(c);
  if (!t.empty()) return t;
  return io::format_value(kernel::Cpumask{});
}

int mode_exhaustive() {
  int status = kHarnessOk;
  with_tool_subject(*g_settings.tool, [&]<class S>(std::type_identity<S>) {
    status = exhaustive<S>(g_settings.o.exhaustive);
  });
  return status;
}

}  // namespace diffsched::kcheck::harness
