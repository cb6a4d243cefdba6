// Building a candidate through the kshim (kcheck/kernel_check.h): staging it,
// the clang command, and the one-line reason when it does not build.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "kcheck/build_cache.h"
#include "kcheck/kernel_check.h"
#include "kcheck/subject_hooks.h"
#include "kcheck/work.h"
#include "kcheck/options.h"
#include "engine/exit_status.h"
#include "tools/process.h"
#include "util/owned_dir.h"
#include "util/text.h"

namespace diffsched::tools {

namespace {

std::string contract_version(const std::string& version) {
  const auto v = kernel_version_of(version);
  return v ? fmt::format("{}.{}", v->first, v->second) : "6.19";
}

// A call of a function whose arguments changed between kernels, with the
// other era's count: the file is of another era than the shim follows.
std::string summarize_era_errors(const std::string& out, const std::string& version) {
  struct Changed {
    const char* name;
    const char* what;
  };
  static constexpr Changed kChanged[] = {
      {"cpumask_next_wrap", "cpumask_next_wrap() takes (n, mask, start, wrap) up to v6.14 and "
                            "(n, mask) from v6.15"},
  };
  // clang: "error: too many arguments to function call, expected 2, have 4",
  // then the line of the call.
  for (std::size_t at = 0; (at = out.find(" arguments to function call", at)) != std::string::npos; ++at) {
    const std::size_t eol = out.find('\n', at);
    const std::size_t next = eol == std::string::npos ? eol : out.find('\n', eol + 1);
    const std::string context = out.substr(at, next == std::string::npos ? next : next - at);
    for (const Changed& c : kChanged)
      if (context.find(std::string(c.name) + "(") != std::string::npos)
        return fmt::format("{}; the shim follows v{} (give the file's kernel with --kernel-version, "
                           "e.g. 6.14)", c.what, contract_version(version));
  }
  return {};
}

// Every file of the kernel shim (kshim/: its headers, runtime and glue), as
// one string: the part of the build cache's key that the shim's own sources
// on the compile's command line read. Read once per process.
const std::string& shim_tree_contents(const ShimTree& tree) {
  static const std::string all = [&] {
    std::vector<fs::path> files;
    for (const fs::path& d : {tree.include(), tree.abi(), tree.sched(), tree.runtime("")}) {
      std::error_code ec;
      for (auto it = fs::recursive_directory_iterator(d, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    std::string out;
    for (const fs::path& f : files) {
      const std::string text = util::read_text(f);
      out += fmt::format("{} {}\n", f.string(), text.size());
      out += text;
    }
    return out;
  }();
  return all;
}

// The build cache's key of a compile (kcheck/build_cache.h): the candidate
// preprocessed (clang -E with the compile's flags, in the sandbox, with its
// deadline), so that whatever it includes from anywhere is in it; the
// staged header, which the glue includes; and the shim's files, which are
// the rest of the command line's sources. "" when -E fails: the compile
// then runs and says why.
struct CacheKey {
  std::string key;
  bool timed_out = false;
};

CacheKey cache_key(const std::vector<std::string>& argv, const fs::path& clang,
                   const CandidateStage& st, const fs::path& staged, const ShimTree& tree,
                   double deadline) {
  CacheKey k;
  std::vector<std::string> e;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "-o") {  // to stdout
      ++i;
      continue;
    }
    const bool other_source = argv[i].ends_with(".c") && argv[i] != staged.string();
    if (other_source || argv[i] == "-shared" || argv[i].starts_with("-Wl,")) continue;
    e.push_back(argv[i]);
  }
  e.insert(e.begin() + 1, "-E");
  const fs::path out = st.preprocessed();
  std::string why;
  const auto boxed = sandboxed(e, {st.dir}, &why);
  if (boxed.empty()) return k;
  const int rc = run({.argv = boxed, .log = out, .deadline = deadline, .stdin_null = true});
  k.timed_out = rc == kExitTimedOut;
  if (rc == kExitOk)
    k.key = BuildCache::key(clang, argv,
                            util::read_text(out) + "\n@HEADER@\n" + util::read_text(st.header()) +
                                "\n@SHIM@\n" + shim_tree_contents(tree),
                            st.dir.string());
  std::error_code ec;
  fs::remove(out, ec);
  return k;
}

}  // namespace

BuildResult build_candidate(const CandidateSpec& spec, const fs::path& work_dir) {
  BuildResult r;
  const auto start = std::chrono::steady_clock::now();
  const ShimTree tree = ShimTree::of(source_dir());
  const CandidateStage st = KcheckWork{work_dir}.stage(spec.role);
  const fs::path stage = st.dir;
  std::error_code ec;
  std::string why;
  // Afresh, but never the candidate or its header when they lie in it (issue 22).
  if (!util::remove_except(stage, {spec.file, spec.header}, &why)) {
    r.summary = fmt::format("cannot clear {}: {}", stage.string(), why);
    return r;
  }
  fs::create_directories(stage, ec);
  if (ec) {
    r.summary = fmt::format("cannot create {}: {}", stage.string(), ec.message());
    return r;
  }
  const fs::path file = fs::absolute(spec.file);
  const fs::path staged = st.file(file);
  auto copy_into = [&](const fs::path& from, const fs::path& to) {  // not onto itself
    std::error_code same;
    if (!ec && !(fs::equivalent(from, to, same) && !same))
      fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  };
  copy_into(file, staged);
  fs::path header;
  with_tool_subject(*spec.tool, [&]<class S>(std::type_identity<S>) {
    header = spec.header.empty() ? kcheck::staged_header<S>(spec, tree) : fs::absolute(spec.header);
  });
  copy_into(header, st.header());
  if (ec) {
    r.summary = fmt::format("cannot stage {}: {}", file.string(), ec.message());
    return r;
  }
  fs::path clang = find_program("clang-14");
  if (clang.empty()) clang = find_program("clang");
  if (clang.empty()) {
    r.summary = "clang-14 not found on PATH (run scripts/install-deps.sh)";
    return r;
  }
  r.shared_object = st.shared_object();
  std::vector<std::string> argv = {
      clang.string(), "-std=gnu11", "-g", "-O1", "-fPIC", "-shared", "-nostdinc",
      "-fsanitize=address,undefined,fuzzer-no-link", "-fno-sanitize-recover=all",
      "-fno-omit-frame-pointer", "-fno-strict-aliasing", "-fno-common",
      "-Wall", "-Wno-unused-function", "-Werror=implicit-function-declaration",
      "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
      "-Werror=return-type", "-fdiagnostics-color=never",
      // Messages and WARN_ON() records name the user's file, not the stage.
      fmt::format("-ffile-prefix-map={}/={}/", stage.string(), file.parent_path().string()),
      "-iquote", stage.string(), "-iquote", tree.sched().string(),
      "-I", tree.include().string(), "-I", tree.abi().string(),
      // Any file name (a '"', a newline): a C literal, passed without a shell.
      "-DKCHECK_SOURCE=" + util::c_string_literal(file.string())};
  with_tool_subject(*spec.tool, [&]<class S>(std::type_identity<S>) {
    const auto glue = kcheck::glue_args<S>(spec, tree, staged);
    argv.insert(argv.end(), glue.begin(), glue.end());
  });
  argv.insert(argv.begin() + 1, spec.extra_flags.begin(), spec.extra_flags.end());
  if (const std::string era = kernel_version_flag(spec.kernel_version); !era.empty())
    argv.insert(argv.begin() + 1, era);
  argv.insert(argv.end(), {tree.runtime("runtime.c").string(),
                           tree.runtime("bitmap.c").string(), "-Wl,-Bsymbolic", "-o",
                           r.shared_object.string()});
  // The file's own definitions win over the shim's (the shim defines only
  // what "sched.h" or <linux/...> would, and only where the file does not).
  for (const auto& name : shim_helpers_defined_by(util::read_text(file) + "\n" + util::read_text(header)))
    argv.insert(argv.begin() + 1, "-DKSHIM_OWN_" + name);
  r.command = util::shell_join(argv);
  const fs::path log = st.compile_log();
  const std::string timed_out = fmt::format(
      "the compile did not finish within {:g} s (--build-seconds; does an #include name a FIFO "
      "or a device?)",
      spec.build_seconds);
  const BuildCache cache = BuildCache::resolve();
  std::string key;
  if (cache.enabled()) {
    const CacheKey pre = cache_key(argv, clang, st, staged, tree, spec.build_seconds);
    if (pre.timed_out) {
      r.summary = timed_out;
      return r;
    }
    key = pre.key;
  }
  if (!key.empty() && cache.fetch(key, r.shared_object, stage.string(), &r.compiler_output)) {
    r.cached = true;
    r.ok = true;
  } else {
    const auto boxed = sandboxed(argv, {stage}, &r.summary);
    if (boxed.empty()) return r;
    const int rc =
        run({.argv = boxed, .log = log, .deadline = spec.build_seconds, .stdin_null = true});
    r.compiler_output = util::read_text(log);
    if (rc == kExitTimedOut) {
      r.summary = timed_out;
      return r;
    }
    r.ok = rc == kExitOk;
    if (r.ok && !key.empty()) cache.store(key, r.shared_object, stage.string(), r.compiler_output);
  }
  // Messages name the user's files, not the staged copies.
  r.compiler_output = replace_all(r.compiler_output, staged.string(), file.string());
  r.compiler_output = replace_all(r.compiler_output, st.header().string(), header.string());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.ok) {
    with_tool_subject(*spec.tool, [&]<class S>(std::type_identity<S>) {
      r.summary = kcheck::form_errors<S>(r.compiler_output, file.string());
      if (r.summary.empty())
        r.summary = summarize_missing_api(without_glue_errors(r.compiler_output, kcheck::glue_file<S>()));
    });
    if (r.summary.empty())
      r.summary = summarize_link_errors(r.compiler_output, util::read_text(file), file.string());
    if (r.summary.empty()) r.summary = summarize_era_errors(r.compiler_output, spec.kernel_version);
    return r;
  }
  return r;
}

}  // namespace diffsched::tools
