// The one delta-debugging minimiser of the project (Zeller's ddmin, then a
// 1-minimality pass), over any list, with a predicate. `diffsched minimize`,
// the campaign (both through tools::minimize, src/engine/minimize.cpp) and
// kernel-check's out-of-process minimisation of sanitizer findings
// (src/kcheck/crash.cpp, where each try is a harness process) call it.
//
//   bool changed = util::ddmin(ops,
//       [&](const std::vector<Op>& fewer) { return still_fails(fewer); },
//       [&] { return budget.exhausted(); });
//
// `fails(candidate)` says whether a (never empty) sub-list keeps the failure;
// it owns the budget: it returns false once the budget is spent, and
// `stop()` then returns true so the passes wind down. The list keeps its
// order; `items` holds the smallest failing list found. Returns whether it
// removed anything.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace diffsched::util {

template <class T, class Fails, class Stop>
bool ddmin(std::vector<T>& items, Fails&& fails, Stop&& stop) {
  bool changed = false;
  std::size_t n = 2;
  while (items.size() >= 2 && !stop()) {
    const std::size_t chunk = (items.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t start = 0; start < items.size() && !stop(); start += chunk) {
      std::vector<T> fewer(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(start));
      fewer.insert(fewer.end(),
                   items.begin() + static_cast<std::ptrdiff_t>(std::min(start + chunk, items.size())),
                   items.end());
      if (!fewer.empty() && fails(static_cast<const std::vector<T>&>(fewer))) {
        items = std::move(fewer);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = changed = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= items.size()) break;
      n = std::min(n * 2, items.size());
    }
  }
  // 1-minimality: no single item can go.
  for (std::size_t i = 0; i < items.size() && items.size() > 1 && !stop();) {
    std::vector<T> fewer = items;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
    if (fails(static_cast<const std::vector<T>&>(fewer))) {
      items = std::move(fewer);
      changed = true;
    } else {
      ++i;
    }
  }
  return changed;
}

}  // namespace diffsched::util
