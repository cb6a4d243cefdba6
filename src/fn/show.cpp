// diffsched fn: an array value's text, whole or only where two differ (show.h).
#include "fn/show.h"

#include <algorithm>

#include <fmt/format.h>

namespace diffsched::fn {

bool is_per_cpu(const Slot& slot) {
  return slot.per_cpu && slot.is_global && !slot.is_stub && slot.node.kind == NodeKind::kArray &&
         slot.node.count == kPerCpuCopies;
}

std::string list_text(const std::vector<std::string>& elems) {
  std::string s = "[";
  for (std::size_t i = 0; i < elems.size();) {
    std::size_t e = i + 1;
    while (e < elems.size() && elems[e] == elems[i]) ++e;
    s += (i ? ", " : "") + elems[i];
    if (e - i >= kMinRun) {
      s += fmt::format(" x{}", e - i);
      i = e;
    } else {
      ++i;
    }
  }
  return s + "]";
}

namespace {

// "X, " each padded to the wider side, so the two lines line up.
void lay_out(const std::vector<std::pair<std::string, std::string>>& items, ListDiff* d) {
  for (std::size_t k = 0; k < items.size(); ++k) {
    const char* sep = k + 1 < items.size() ? ", " : "";
    std::string x = items[k].first + sep, y = items[k].second + sep;
    const std::size_t w = std::max(x.size(), y.size());
    d->old_text += x + (k + 1 < items.size() ? std::string(w - x.size(), ' ') : "");
    d->new_text += y + (k + 1 < items.size() ? std::string(w - y.size(), ' ') : "");
  }
}

}  // namespace

ListDiff leaves_diff(const Leaves& a, const Leaves& b) {
  ListDiff d;
  if (a.size() != b.size()) return d;
  std::vector<std::pair<std::string, std::string>> items;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first) return {};
    if (a[i].second == b[i].second) continue;
    items.emplace_back(a[i].first + "=" + a[i].second, b[i].first + "=" + b[i].second);
  }
  d.count = items.size();
  lay_out(items, &d);
  d.old_text = "{" + d.old_text + "}";
  d.new_text = "{" + d.new_text + "}";
  return d;
}

ListDiff list_diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  ListDiff d;
  std::vector<std::pair<std::string, std::string>> items;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n;) {
    if (a[i] == b[i]) {
      ++i;
      continue;
    }
    std::size_t e = i + 1;  // consecutive differing elements, the same on each side
    while (e < n && a[e] != b[e] && a[e] == a[i] && b[e] == b[i]) ++e;
    const std::string at = e - i == 1 ? fmt::format("[{}]=", i) : fmt::format("[{}-{}]=", i, e - 1);
    items.emplace_back(at + a[i], at + b[i]);
    d.count += e - i;
    i = e;
  }
  lay_out(items, &d);
  return d;
}

}  // namespace diffsched::fn
