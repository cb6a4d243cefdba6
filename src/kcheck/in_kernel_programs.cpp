// kernel-check --in-kernel: the program set (the checked-in .ops files, one
// --replay file, random programs of the total decoder) as the driver's input
// lines (kshim/kmod/kc_driver.h), and the driver's output parsed back.
#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "engine/op.h"
#include "io/binary.h"
#include "io/load.h"
#include "io/text.h"
#include "kernel/cpumask.h"
#include "subjects.h"
#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"
#include "tools/process.h"


namespace diffsched::tools::in_kernel_detail {

using io::AnyProgram;
using io::Program;

bool write_text(const fs::path& file, const std::string& text) {
  std::string ignored;  // callers say what could not be written
  return io::write_file(file.string(), text, &ignored);  // checked to the close
}

namespace {

template <class S>
HostProgram host_program(const Program<S>& p, std::string name) {
  HostProgram h;
  h.name = std::move(name);
  h.nr = p.config.nr_cpu_ids;
  if constexpr (requires { p.config.capacity; })
    for (std::size_t i = 0; i < p.config.capacity.size(); ++i)
      h.capacity += fmt::format("{}{}", i ? "," : "", p.config.capacity[i]);
  kernel::NrCpuIdsScope scope(h.nr);
  for (const auto& op : p.ops) {
    h.ops.push_back(io::format_op(op));
    h.lines.push_back(kcheck::driver_line<S>(op));
  }
  return h;
}

}  // namespace

bool to_host(const AnyProgram& any, const SubjectTool& subject, std::string name, HostProgram* out,
             std::string* error) {
  if (io::subject_name(any) != subject.name) {
    *error = fmt::format("{} is a program of subject {}, not {}", name, io::subject_name(any),
                         subject.name);
    return false;
  }
  bool done = false;
  std::visit(
      [&]<class S>(const Program<S>& p) {
        if constexpr (kIsToolSubject<S>) {
          *out = host_program(p, std::move(name));
          done = true;
        }
      },
      any);
  if (done) return true;
  *error = fmt::format("{}: subject {} has no in-kernel driver", name, subject.name);
  return false;
}

bool load_ops_file(const fs::path& file, const SubjectTool& subject, HostProgram* out,
                   std::string* error) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    *error = fmt::format("{}: no such file", file.string());
    return false;
  }
  std::string why;
  auto program = io::parse_program(read_text(file), &why);
  if (!program) {
    *error = fmt::format("{}: {}", file.string(), why);
    return false;
  }
  return to_host(*program, subject, file.string(), out, error);
}

std::vector<fs::path> ops_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".ops") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// A random program of the total decoder at nr_cpu_ids `nr` (the body's
// first bytes 0xf0 + nr-1 pick it exactly).
template <class S>
HostProgram random_of(std::mt19937_64& rng, unsigned nr, unsigned max_ops, std::string name) {
  std::vector<std::uint8_t> body = {0xf0, static_cast<std::uint8_t>((nr - 1) & 0xff),
                                    static_cast<std::uint8_t>((nr - 1) >> 8)};
  const std::size_t n = 8 + rng() % (max_ops * 6);
  for (std::size_t i = 0; i < n; ++i) body.push_back(static_cast<std::uint8_t>(rng()));
  Program<S> p = io::decode_body<S>(body);
  if (p.ops.size() > max_ops) p.ops.resize(max_ops);
  return host_program(p, std::move(name));
}


HostProgram random_program(const SubjectTool& subject, std::mt19937_64& rng, unsigned nr,
                           unsigned max_ops, std::string name) {
  HostProgram out;
  with_tool_subject(subject, [&]<class S>(std::type_identity<S>) {
    out = random_of<S>(rng, nr, max_ops, std::move(name));
  });
  return out;
}

std::string programs_text(const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                          bool verbose) {
  std::string text;
  for (int id : ids) {
    const HostProgram& p = programs[static_cast<std::size_t>(id)];
    text += fmt::format("P {} {} {}\n", id, p.nr, verbose && p.nr <= 1024 ? 1 : 0);
    if (!p.capacity.empty()) text += fmt::format("A {}\n", p.capacity);
    for (const auto& l : p.lines) text += l + "\n";
    text += "E\n";
  }
  return text;
}


RunResult parse_output(const std::string& text, bool guest) {
  RunResult r;
  std::string warn_text;  // a guest warning, for the next state line
  std::istringstream in(text);
  std::string raw;
  int cur_id = -1, cur_op = 0;
  auto flush_payload = [&](std::string line) {
    if (line.empty()) return;
    std::istringstream w(line);
    std::string kind;
    w >> kind;
    if (kind == "D") {
      Record rec;
      w >> rec.programs >> rec.ops >> rec.token;
      if (w) r.records.push_back(rec);
    } else if (kind == "H") {
      const auto at = line.find("nr_cpu_ids=");
      if (at != std::string::npos) r.guest_nr = static_cast<unsigned>(std::atoi(line.c_str() + at + 11));
    } else if (kind == "P") {
      int id = -1;
      w >> id;
      r.traces[id].started = true;
      cur_id = id;
      cur_op = 0;
    } else if (kind == "X") {
      int id = -1;
      w >> id;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].error = rest.empty() ? rest : rest.substr(1);
    } else if (kind == "S") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      Trace& t = r.traces[id];
      ++r.state_lines;
      t.states.resize(static_cast<std::size_t>(std::max(op, 1)));
      t.states[static_cast<std::size_t>(op - 1)] = rest.empty() ? rest : rest.substr(1);
      if (!warn_text.empty()) {
        t.warnings.emplace(op, warn_text);
        warn_text.clear();
      }
      cur_id = id;
      cur_op = op;
    } else if (kind == "V") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].violations.emplace(op, rest.empty() ? rest : rest.substr(1));
    } else if (kind == "W") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].warnings.emplace(op, rest.empty() ? rest : rest.substr(1));
    }
  };
  std::string current;
  while (std::getline(in, raw)) {
    while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.pop_back();
    std::string_view line = raw;
    if (guest) {
      // "[    2.650023] KC S ..." : drop the timestamp.
      if (starts_with(line, "[")) {
        const auto close = line.find("] ");
        if (close != std::string_view::npos) line = line.substr(close + 2);
      }
      // A console line that is not ours: the last KC line is complete (a
      // warning during op k comes after op k-1's state line).
      if (!starts_with(line, "KC")) {
        flush_payload(current);
        current.clear();
      }
      if (line.find("WARNING: CPU:") != std::string_view::npos) {
        const auto at = line.find(" at ");
        warn_text = std::string(at == std::string_view::npos ? line : line.substr(at + 4));
        continue;
      }
      if (r.crash.empty() &&
          (starts_with(line, "BUG:") || starts_with(line, "kernel BUG at") ||
           line.find("Oops:") != std::string_view::npos ||
           starts_with(line, "general protection fault") || starts_with(line, "Kernel panic"))) {
        r.crash = std::string(line);
        r.crash_id = cur_id;
        r.crash_op = cur_op + 1;
        continue;
      }
    }
    if (starts_with(line, "KC+ ")) {
      current += line.substr(4);
      continue;
    }
    if (starts_with(line, "KC ")) {
      flush_payload(current);
      current = std::string(line.substr(3));
    }
  }
  flush_payload(current);
  return r;
}

std::string new_record_token() {
  std::random_device rd;
  return fmt::format("{:08x}{:08x}", rd(), rd());
}

std::string with_record_request(const std::string& text, const std::string& token) {
  return text + "Q " + token + "\n";
}

std::string check_record(RunResult* r, const std::string& token) {
  r->done = false;
  const auto rec = std::find_if(r->records.begin(), r->records.end(),
                                [&](const Record& x) { return x.token == token; });
  if (rec == r->records.end())
    return r->records.empty() ? "no result record (the driver's D line)"
                              : "no result record with this run's token (a D line without it "
                                "was printed by something else)";
  const auto started = static_cast<unsigned long>(std::count_if(
      r->traces.begin(), r->traces.end(), [](const auto& t) { return t.second.started; }));
  if (rec->programs != started || rec->ops != r->state_lines)
    return fmt::format("the result record says {} programs and {} ops ran, the trace holds {} and {}",
                       rec->programs, rec->ops, started, r->state_lines);
  r->done = true;
  return {};
}


}  // namespace diffsched::tools::in_kernel_detail

namespace diffsched::kcheck {

std::string driver_cpulist(const kernel::Cpumask& m) {
  const std::string s = kernel::cpumask_to_cpulist(m);
  return s.empty() ? "-" : s;
}

}  // namespace diffsched::kcheck
