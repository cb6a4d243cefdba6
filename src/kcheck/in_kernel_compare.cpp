// kernel-check --in-kernel: the guest's trace against the twin's, op by op.
// A difference in a state line is a kernel-vs-shim finding named by the
// first field that differs (slot.cpu, slot.dl, size, idx, free_cpus, ...);
// a warning in one of them only is one too; a driver check, a warning in
// both, or a BUG/oops in the guest is a finding "in the guest".
#include <memory>
#include <sstream>

#include "kcheck/in_kernel_internal.h"

namespace diffsched::tools::in_kernel_detail {

std::map<std::string, std::string> state_fields(const std::string& state) {
  std::map<std::string, std::string> f;
  std::istringstream in(state);
  std::string w;
  while (in >> w) {
    const auto eq = w.find('=');
    if (eq == std::string::npos) f[w] = "1";
    else f[w.substr(0, eq)] = w.substr(eq + 1);
  }
  return f;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The first field in which two state lines differ, by the tool's field names.
std::string differing_field(const SubjectTool& subject, const std::string& a, const std::string& b) {
  const auto fa = state_fields(a), fb = state_fields(b);
  static const std::vector<std::pair<std::string, std::string>> kOrder = {
      {"skipped", "contract"}, {"x", "state"},  {"r", "find.ret"},       {"n", "size"},
      {"h", "slot"},           {"i", "idx"},    {"f", "free_cpus"},      {"l", "find.later_mask"}};
  for (const auto& [key, name] : kOrder) {
    auto va = fa.count(key) ? fa.at(key) : std::string("(none)");
    auto vb = fb.count(key) ? fb.at(key) : std::string("(none)");
    if (va == vb) continue;
    if (key == "r") return std::string(subject.answer_field);
    if (key == "h") {
      const auto ia = split(va, ','), ib = split(vb, ',');
      for (std::size_t i = 0; i < std::min(ia.size(), ib.size()); ++i) {
        if (ia[i] == ib[i]) continue;
        const auto ca = ia[i].substr(0, ia[i].find(':')), cb = ib[i].substr(0, ib[i].find(':'));
        return ca != cb ? "slot.cpu" : "slot.dl";
      }
      return "size";
    }
    return name;
  }
  return "state";
}

std::string op_name(const HostProgram& p, int op) {
  if (op < 1 || static_cast<std::size_t>(op) > p.ops.size()) return "end";
  const std::string& text = p.ops[static_cast<std::size_t>(op - 1)];
  return text.substr(0, text.find(' '));
}

std::string kind_of_invariant(const std::string& inv) {
  return inv == "model" ? "model-mismatch" : "invariant";
}

std::optional<Finding> judge(const SubjectTool& subject, const HostProgram& p, int id,
                             const RunResult& guest, const RunResult& shim, std::string* not_run) {
  const auto gi = guest.traces.find(id);
  const auto si = shim.traces.find(id);
  const bool crashed = guest.crash_id == id && !guest.crash.empty();
  if (!crashed) {
    if (gi == guest.traces.end() || !gi->second.started) {
      *not_run = gi != guest.traces.end() && !gi->second.error.empty()
                     ? "in the guest: " + gi->second.error
                     : (guest.failure.empty() ? "the guest did not run it" : guest.failure);
      return std::nullopt;
    }
  }
  if (si == shim.traces.end() || !si->second.started) {
    *not_run = si != shim.traces.end() && !si->second.error.empty()
                   ? "in the shim twin: " + si->second.error
                   : "the shim twin did not run it";
    return std::nullopt;
  }
  static const Trace kEmpty;
  const Trace& g = gi == guest.traces.end() ? kEmpty : gi->second;
  const Trace& s = si->second;
  const int n = static_cast<int>(p.ops.size());
  for (int op = 1; op <= n; ++op) {
    const std::size_t k = static_cast<std::size_t>(op - 1);
    const bool have_g = k < g.states.size() && !(crashed && op >= guest.crash_op);
    if (crashed && op == guest.crash_op) {
      Finding f{id, op, fmt::format("{}:invariant:BUG:kernel:{}", subject.name, op_name(p, op)),
                "in the guest", {fmt::format("the guest crashed in op #{}: {}", op, guest.crash)}};
      return f;
    }
    if (!have_g) {
      if (!guest.failure.empty()) *not_run = guest.failure;
      else *not_run = fmt::format("the guest's trace ends before op #{}", op);
      return std::nullopt;
    }
    const std::string& gs = g.states[k];
    const std::string& ss = k < s.states.size() ? s.states[k] : std::string();
    if (gs != ss) {
      const std::string field = differing_field(subject, gs, ss);
      Finding f{id, op, fmt::format("{}:kernel-vs-shim:{}:{}", subject.name, field, op_name(p, op)),
                "kernel-vs-shim", {fmt::format("kernel: {}", gs), fmt::format("shim:   {}", ss)}};
      return f;
    }
    const bool gw = g.warnings.count(op) != 0, sw = s.warnings.count(op) != 0;
    if (gw || sw) {
      Finding f{id, op,
                gw && sw ? fmt::format("{}:invariant:WARN_ON:warning:{}", subject.name, op_name(p, op))
                         : fmt::format("{}:kernel-vs-shim:warning:{}", subject.name, op_name(p, op)),
                gw && sw ? "in the guest" : "kernel-vs-shim",
                {fmt::format("kernel: {}", gw ? "WARNING at " + g.warnings.at(op) : "no warning"),
                 fmt::format("shim:   {}", sw ? "warning " + s.warnings.at(op) : "no warning")}};
      return f;
    }
    if (const auto v = g.violations.find(op); v != g.violations.end()) {
      const auto w = split(v->second, ' ');
      const std::string inv = w.size() > 0 ? w[0] : "?", field = w.size() > 1 ? w[1] : "?";
      const std::string check = inv == "model" ? "model" : inv;
      Finding f{id, op,
                fmt::format("{}:{}:{}:{}:{}", subject.name, kind_of_invariant(inv), check, field,
                            op_name(p, op)),
                "in the guest",
                {fmt::format("kernel: {} (driver check: {})", gs, v->second)}};
      return f;
    }
  }
  if (crashed) {
    Finding f{id, n, fmt::format("{}:invariant:BUG:kernel:end", subject.name), "in the guest",
              {fmt::format("the guest crashed after the program: {}", guest.crash)}};
    return f;
  }
  return std::nullopt;
}


// Runs `ids` of `programs` in the twin and in one guest per nr_cpu_ids.
Outcome run_all(Env& env, const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                bool verbose, const std::string& tag, bool print_boots) {
  Outcome out;
  const RunResult shim = run_twin(env, programs_text(programs, ids, verbose), tag);
  std::map<unsigned, std::vector<int>> groups;
  for (int id : ids) groups[programs[static_cast<std::size_t>(id)].nr].push_back(id);
  std::map<int, const RunResult*> guest_of;
  std::vector<std::unique_ptr<RunResult>> guests;
  for (const auto& [nr, members] : groups) {
    std::size_t ops = 0;
    for (int id : members) ops += programs[static_cast<std::size_t>(id)].ops.size();
    guests.push_back(std::make_unique<RunResult>(
        run_guest(env, nr, programs_text(programs, members, verbose), ops, fmt::format("{}-{}", tag, nr))));
    if (print_boots)
      fmt::print("  guest nr_cpu_ids={}: {} programs, {} ops, {:.1f} s{}\n", nr, members.size(), ops,
                 guests.back()->seconds,
                 guests.back()->failure.empty() ? "" : " (" + guests.back()->failure + ")");
    std::fflush(stdout);
    for (int id : members) guest_of[id] = guests.back().get();
  }
  for (int id : ids) {
    const HostProgram& p = programs[static_cast<std::size_t>(id)];
    std::string why;
    auto f = judge(*env.subject, p, id, *guest_of[id], shim, &why);
    if (!why.empty() && !shim.failure.empty()) why += "; " + shim.failure;
    if (f) {
      if (!out.finding) out.finding = f;
      ++out.programs;
      out.ops += static_cast<std::size_t>(f->op);
      continue;
    }
    // Every op compared and the same: it counts only when both runs ended
    // with their result records (a guest or twin that stopped, or printed
    // no record of this run, proves nothing about the ops it did print).
    if (why.empty()) {
      const std::string& unfinished = guest_of[id]->failure.empty() ? shim.failure : guest_of[id]->failure;
      why.append(unfinished);
    }
    if (!why.empty()) {
      out.not_run.push_back(fmt::format("{}: {}", p.name, why));
      continue;
    }
    ++out.programs;
    out.ops += p.ops.size();
  }
  return out;
}


}  // namespace diffsched::tools::in_kernel_detail
