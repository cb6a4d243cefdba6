// kernel-check --in-kernel: minimising a finding. One that the shim twin
// shows by itself is reduced in the twin (milliseconds a round) and confirmed
// in one boot; a kernel-vs-shim one is reduced in rounds of one guest boot
// each (every variant of a round in the same guest), bounded by
// --minimize-boots.
#include <sstream>

#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"

namespace diffsched::tools::in_kernel_detail {

// `p` and the programs without each half, quarter, ..., single op of it.
namespace {

std::vector<HostProgram> variants_of(const HostProgram& p) {
  std::vector<HostProgram> variants = {p};
  const std::size_t n = p.ops.size();
  for (std::size_t chunk = std::max<std::size_t>(n / 2, 1);; chunk /= 2) {
    for (std::size_t at = 0; at < n && variants.size() < 400; at += chunk) {
      if (chunk >= n) break;
      HostProgram v = p;
      const auto end = std::min(n, at + chunk);
      v.ops.erase(v.ops.begin() + static_cast<long>(at), v.ops.begin() + static_cast<long>(end));
      v.lines.erase(v.lines.begin() + static_cast<long>(at), v.lines.begin() + static_cast<long>(end));
      variants.push_back(std::move(v));
    }
    if (chunk <= 1) break;
  }
  return variants;
}

// The first finding of program `id` that the shim twin shows by itself: its
// driver checks and warnings (the same signatures as judge()'s).
std::optional<Finding> judge_twin(const SubjectTool& subject, const HostProgram& p, int id,
                                  const RunResult& shim) {
  const auto si = shim.traces.find(id);
  if (si == shim.traces.end() || !si->second.started) return std::nullopt;
  const Trace& s = si->second;
  for (int op = 1; op <= static_cast<int>(p.ops.size()); ++op) {
    if (s.warnings.count(op))
      return Finding{id, op, fmt::format("{}:invariant:WARN_ON:warning:{}", subject.name, op_name(p, op)),
                     "in the guest", {}};
    if (const auto v = s.violations.find(op); v != s.violations.end()) {
      const auto w = split(v->second, ' ');
      const std::string inv = w.size() > 0 ? w[0] : "?", field = w.size() > 1 ? w[1] : "?";
      return Finding{id, op,
                     fmt::format("{}:{}:{}:{}:{}", subject.name, kind_of_invariant(inv), inv, field,
                                 op_name(p, op)),
                     "in the guest", {}};
    }
  }
  return std::nullopt;
}

}  // namespace

Minimized minimize(Env& env, const HostProgram& start, const Finding& finding, unsigned max_rounds) {
  Minimized m;
  m.program = start;
  m.program.ops.resize(static_cast<std::size_t>(finding.op));
  m.program.lines.resize(static_cast<std::size_t>(finding.op));
  m.finding = finding;
  // A finding the shim twin shows too (a driver check, a warning in both) is
  // minimised in the twin (milliseconds a round), then confirmed in one boot.
  if (finding.kind != "kernel-vs-shim" && finding.signature.find(":BUG:") == std::string::npos) {
    HostProgram cur = m.program;
    for (unsigned round = 1; round <= 500; ++round) {
      std::vector<HostProgram> variants = variants_of(cur);
      std::vector<int> ids(variants.size());
      for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
      const RunResult shim = run_twin(env, programs_text(variants, ids, false), "twinmin");
      std::optional<std::size_t> best;
      std::size_t best_len = cur.ops.size();
      for (std::size_t i = 1; i < variants.size(); ++i) {
        auto f = judge_twin(*env.subject, variants[i], static_cast<int>(i), shim);
        if (f && f->signature == finding.signature && static_cast<std::size_t>(f->op) < best_len) {
          best = i;
          best_len = static_cast<std::size_t>(f->op);
        }
      }
      m.variants += variants.size() - 1;
      if (!best) break;
      cur = variants[*best];
      cur.ops.resize(best_len);
      cur.lines.resize(best_len);
    }
    std::vector<HostProgram> one = {cur};
    const RunResult shim = run_twin(env, programs_text(one, {0}, true), "confirm");
    const RunResult guest = run_guest(env, cur.nr, programs_text(one, {0}, true), cur.ops.size(), "confirm");
    std::string why;
    auto f = judge(*env.subject, cur, 0, guest, shim, &why);
    m.rounds = 1;
    if (f && f->signature == finding.signature) {
      m.program = cur;
      m.finding = f;
      m.minimal = true;
      return m;
    }
    // Not the same in the guest: reduce in the guest from the start.
  }
  for (unsigned round = 1; round <= max_rounds; ++round) {
    if (m.program.ops.size() <= 1) {
      m.minimal = true;  // nothing left to drop
      break;
    }
    std::vector<HostProgram> variants = variants_of(m.program);
    const std::size_t n = m.program.ops.size();
    std::vector<int> ids(variants.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
    const RunResult shim = run_twin(env, programs_text(variants, ids, true), fmt::format("min{}", round));
    const RunResult guest =
        run_guest(env, m.program.nr, programs_text(variants, ids, true), n * variants.size(),
                  fmt::format("min{}", round));
    ++m.rounds;
    m.variants += variants.size() - 1;
    std::optional<std::size_t> best;
    std::size_t best_len = n;
    std::optional<Finding> best_finding;
    bool reproduced = false;  // by any variant, the program itself included
    for (std::size_t i = 0; i < variants.size(); ++i) {
      std::string why;
      auto f = judge(*env.subject, variants[i], static_cast<int>(i), guest, shim, &why);
      if (!f || f->signature != finding.signature) continue;
      reproduced = true;
      if (i == 0) m.finding = f;  // the verbose states of the current reproducer
      const std::size_t len = static_cast<std::size_t>(f->op);  // ops up to the finding
      if (i > 0 && len < best_len) {
        best = i;
        best_len = len;
        best_finding = f;
      }
    }
    if (round == 1 && !reproduced) {
      m.reproduced = false;  // neither the program nor a part of it: nothing to reduce against
      m.finding = finding;
      break;
    }
    if (!best) {
      m.minimal = true;  // no chunk, down to single ops, can go
      break;
    }
    m.program = variants[*best];
    m.program.ops.resize(best_len);
    m.program.lines.resize(best_len);
    m.finding = best_finding;
  }
  return m;
}

std::string reproducer_text(const SubjectTool& subject, const HostProgram& p, const Finding& f,
                            bool minimal, const CandidateSpec& spec) {
  std::string text = fmt::format("# kernel-check --in-kernel: {}{}\n", f.signature,
                                 minimal ? "" : " (not minimal: the boot budget ran out)");
  text += fmt::format("# candidate: {}\n", fs::absolute(spec.file).string());
  with_tool_subject(subject, [&]<class S>(std::type_identity<S>) {
    text += kcheck::reproducer_comments<S>(spec);  // its package's (kcheck/subject_hooks.h)
  });
  text += fmt::format("subject {}\ncpus {}\n", subject.name, p.nr);
  if (!p.capacity.empty()) text += fmt::format("capacity {}\n", p.capacity);
  for (const auto& op : p.ops) text += op + "\n";
  return text;
}

}  // namespace diffsched::tools::in_kernel_detail

namespace diffsched::kcheck {

std::string reproducer_comment(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string prefix = "# " + key + ": ";
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return {};
}

}  // namespace diffsched::kcheck
