// diffsched export --ktap-module and --boot: a finding (or a directory of
// programs) as a kselftest-style test module that prints KTAP itself
// (kshim/kmod/kc_ktap.c), staged like kernel-check --in-kernel's module
// (stage_module, ModuleShape{.main = "kc_ktap"}); and one guest that builds
// and loads several such modules, its console a KTAP document for kunit.py.
#include <stdlib.h>

#include <algorithm>
#include <cctype>

#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "io/load.h"
#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::tools {

namespace {

using in_kernel_detail::HostProgram;

// A KTAP test name or a module name: [a-z0-9_] (kunit.py reads a name up
// to '#'; a module name is a C identifier).
std::string ident(const std::string& s) {
  std::string out;
  for (unsigned char c : s)
    out += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
  return out.empty() ? std::string("x") : out;
}

// A NULL-terminated C array of string literals.
std::string c_array(const std::string& name, const std::vector<std::string>& items) {
  std::string out = fmt::format("static const char *const {}[] = {{\n", name);
  for (const auto& s : items) out += "\t" + util::c_string_literal(s) + ",\n";
  return out + "\tNULL,\n};\n";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (auto& l : in_kernel_detail::split(text, '\n'))
    if (!l.empty()) out.push_back(l);
  return out;
}

// The command that replays `ops` in the shim, with its trace.
std::string replay_command(const CandidateSpec& spec, const fs::path& ops) {
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  std::vector<std::string> argv = {ec ? std::string("diffsched") : self.string(), "kernel-check",
                                   std::string(spec.tool->name), "--candidate", fs::absolute(spec.file).string()};
  with_tool_subject(*spec.tool, [&]<class S>(std::type_identity<S>) {
    const std::vector<std::string> own = kcheck::replay_args<S>(spec);  // kcheck/subject_hooks.h
    argv.insert(argv.end(), own.begin(), own.end());
  });
  argv.insert(argv.end(), {"--replay", fs::absolute(ops).string()});
  return util::shell_join(argv);
}

}  // namespace

bool export_ktap_module(const CandidateSpec& spec, const std::vector<fs::path>& ops,
                        const ExportTarget& to, std::string* error) {
  const SubjectTool& subject = *spec.tool;
  std::string header = fmt::format(
      "/* diffsched export --ktap-module: the cases of kc_ktap.c (generated). */\n"
      "#define KC_KTAP_SUITE {}\n",
      util::c_string_literal("diffsched_" + ident(std::string(subject.name)) + "_" + ident(spec.file.stem().string())));
  std::string table = "static const struct kc_ktap_case kc_ktap_cases[] = {\n";
  nlohmann::json nrs = nlohmann::json::array();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    HostProgram p;
    if (!in_kernel_detail::load_ops_file(ops[i], subject, &p, error)) return false;
    const auto driver = lines_of(in_kernel_detail::programs_text({p}, {0}, false));
    header += c_array(fmt::format("kc_lines_{}", i), driver);
    header += c_array(fmt::format("kc_ops_{}", i), lines_of(read_text(ops[i])));
    table += fmt::format("\t{{ {}, {}, kc_lines_{}, kc_ops_{}, {} }},\n",
                         util::c_string_literal(ident(ops[i].stem().string())), p.nr, i, i,
                         util::c_string_literal(replay_command(spec, ops[i])));
    nrs.push_back(p.nr);
  }
  header += table + "};\n";
  std::vector<fs::path> inputs = to.inputs;
  inputs.insert(inputs.end(), {spec.file, spec.header});
  inputs.insert(inputs.end(), ops.begin(), ops.end());
  auto files = in_kernel_detail::module_files(false);
  for (const char* f : {ModuleStage::kKtapPrograms, ModuleStage::kKtapMeta, ModuleStage::kKtapReadme})
    files.push_back({util::OwnedEntry::kFile, f});
  util::OwnedDir dir;
  const std::string name = "diffsched_" + ident(fs::absolute(to.dir).lexically_normal().filename().string());
  if (!dir.open(to.dir, {.mode = "export --ktap-module", .option = "-o", .inputs = inputs,
                         .claim = files, .force = to.force},
                error) ||
      !dir.clean(error) ||
      !in_kernel_detail::stage_module(spec, dir, error, {.name = name, .main = "kc_ktap"}))
    return false;
  std::error_code ec;
  if (const fs::path init = ModuleStage{dir.dir()}.guest_init(); !dir.protects(init)) fs::remove(init, ec);
  const nlohmann::json meta = {{"diffsched_ktap_module", 1}, {"module", name},
                               {"candidate", fs::absolute(spec.file).string()},
                               {"subject", std::string(subject.name)}, {"nr_cpus", nrs}};
  const auto put = [&](const char* rel, const std::string& text) {
    return io::write_file(dir.file(rel).string(), text, error);
  };
  return put("ktap_programs.h", header) && put("ktap.json", meta.dump(1) + "\n") &&
         put("README",
             fmt::format("Build: make -C /lib/modules/$(uname -r)/build M=$PWD modules  (a kernel "
                         "booted with nr_cpu_ids == the programs', ktap.json)\n"
                         "Run:   sudo insmod {}.ko; sudo dmesg | python3 "
                         "tools/testing/kunit/kunit.py parse   (a kselftest-style test module: a KTAP "
                         "document in the kernel log, `not ok` for a failed case; insmod itself "
                         "succeeds either way)\n"
                         "Guest: diffsched export --boot $PWD --log console.txt  (builds it and "
                         "loads it in the QEMU guest of kernel-check --in-kernel)\n",
                         name));
}

namespace {

// The guest's init. One module is loaded in its standalone form (a plain
// insmod: the module prints a whole KTAP document, header and plan, as it
// does on a user's machine). Several are one document: the init prints the
// header and the plan, and loads module K as test K (its ktap_index). Then a
// line that says it finished.
constexpr const char* kDoneLine = "diffsched-ktap-boot-done";

std::string ktap_init(std::size_t modules) {
  std::string s =
      "#!/bin/busybox sh\n"
      "# diffsched export --boot: the guest's init (busybox), generated. Loads the\n"
      "# test modules; their KTAP goes to the kernel log.\n"
      "/bin/busybox mount -t proc proc /proc\n"
      "/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null\n";
  if (modules == 1) {
    s += "/bin/busybox insmod /m1.ko || echo \"# insmod m1.ko: status $?\" > /dev/kmsg\n";
  } else {
    s += fmt::format("echo 'KTAP version 1' > /dev/kmsg\necho '1..{}' > /dev/kmsg\n", modules);
    for (std::size_t k = 1; k <= modules; ++k)
      s += fmt::format("/bin/busybox insmod /m{0}.ko ktap_index={0} || echo \"# insmod m{0}.ko: "
                       "status $?\" > /dev/kmsg\n", k);
  }
  return s + fmt::format("echo '{}' > /dev/kmsg\n/bin/busybox sync\n/bin/busybox reboot -f\n", kDoneLine);
}

// A console line without its printk time stamp ("[    1.234567] ").
std::string_view unstamped(std::string_view line) {
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > 1 && line[0] == '[')
    if (const auto end = line.find("] "); end != std::string_view::npos) return line.substr(end + 2);
  return line;
}

}  // namespace

int boot_ktap_modules(const KtapBoot& b) {
  using in_kernel_detail::fail;
  std::string why;
  std::vector<std::string> names;
  unsigned nr = b.nr;
  for (const fs::path& dir : b.modules) {
    nlohmann::json meta = nlohmann::json::parse(read_text(ModuleStage{dir}.ktap_meta()), nullptr, false);
    if (meta.is_discarded() || !meta.contains("module") || !meta["module"].is_string() ||
        !meta.contains("nr_cpus") || !meta["nr_cpus"].is_array())
      return fail(fmt::format("{}: not a directory of export --ktap-module (no valid ktap.json)",
                              dir.string()));
    const std::string name = meta["module"];
    if (std::find(names.begin(), names.end(), name) != names.end())
      return fail(fmt::format("two modules named {} (export them to directories of other names)", name));
    names.push_back(name);
    if (nr == 0 && !meta["nr_cpus"].empty() && meta["nr_cpus"][0].is_number_unsigned())
      nr = meta["nr_cpus"][0].get<unsigned>();
  }
  const auto pieces = find_kernel_pieces(b.kernel, &why);
  if (!pieces) return fail(why);
  const fs::path tmpl = util::temp_template(KtapBootWork::kTemplate);
  const KtapBootWork boot{util::make_dir_from_template(tmpl)};
  if (boot.dir.empty())
    return fail(fmt::format("cannot make a temporary directory in {}", tmpl.parent_path().string()));
  const fs::path& work = boot.dir;
  in_kernel_detail::GuestImage image{.init = boot.init(), .loglevel = "7"};
  for (std::size_t k = 0; k < b.modules.size(); ++k) {
    const fs::path& dir = b.modules[k];
    const std::string& name = names[k];
    // Built in a copy: the exported directory stays as export wrote it.
    const ModuleStage copy = boot.module_copy(k + 1);
    const fs::path& mod = copy.dir;
    std::error_code ec;
    fs::create_directories(mod, ec);
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
      const fs::path rel = e.path().lexically_relative(dir);
      if (e.is_directory()) fs::create_directories(mod / rel, ec);
      else if (e.is_regular_file() && rel.filename().string()[0] != '.')  // not the manifest
        fs::copy_file(e.path(), mod / rel, ec);
    }
    if (ec) return fail(fmt::format("cannot copy {} to {}: {}", dir.string(), mod.string(), ec.message()));
    const fs::path log = boot.module_build_log(k + 1);
    if (!in_kernel_detail::kbuild(pieces->headers, mod, name, log, &why)) {
      fmt::print(stderr, "{}", read_text(log));
      return fail(fmt::format("{} does not build against the {} headers ({}; log {})", dir.string(),
                              pieces->version, why, log.string()));
    }
    image.files.emplace_back(copy.module(name), KtapBootWork::module_in_guest(k + 1));
  }
  if (nr == 0) nr = 1;
  if (!in_kernel_detail::write_text(image.init, ktap_init(b.modules.size())))
    return fail(fmt::format("cannot write {}", image.init.string()));
  fmt::print("booting one guest (QEMU TCG, nr_cpu_ids {}) with {} test module(s): {}{}\n", nr,
             names.size(), fmt::join(names, ", "),
             names.size() == 1 ? " (alone: a plain insmod, its own KTAP header and plan)"
                               : " (one KTAP document: module K loaded as test K, ktap_index=K)");
  std::fflush(stdout);
  const double limit = 300 + nr / 16.0;
  const int rc = in_kernel_detail::boot_guest(*pieces, work, "ktap", nr, image, limit, &why);
  if (rc == in_kernel_detail::kGuestNotStaged) return fail(why);
  const std::string console = read_text(KcheckWork{work}.guest_log("ktap"));
  if (!io::write_file(b.log.string(), console, &why)) return fail(why);
  // The top level of the KTAP document: one result line per module.
  std::vector<std::string> results;
  bool done = false;
  for (const auto& raw : in_kernel_detail::split(console, '\n')) {
    const std::string_view line = unstamped(raw);
    if (line == kDoneLine) done = true;
    if (line.rfind("ok ", 0) == 0 || line.rfind("not ok ", 0) == 0) results.emplace_back(line);
  }
  for (const auto& r : results) fmt::print("  {}\n", r);
  if (!done || results.size() != names.size())
    return fail(fmt::format("the guest {} ({} of {} modules reported; status {}; console {}; work {})",
                            done ? "finished" : "did not finish", results.size(), names.size(), rc,
                            b.log.string(), work.string()));
  std::error_code ec;
  fs::remove_all(work, ec);
  fmt::print("console: {} (KTAP version 1: python3 tools/testing/kunit/kunit.py parse {})\n",
             b.log.string(), util::shell_quote(b.log.string()));
  const bool failed = std::any_of(results.begin(), results.end(),
                                  [](const std::string& r) { return r.rfind("not ok", 0) == 0; });
  return failed ? kExitFinding : kExitOk;
}

}  // namespace diffsched::tools
