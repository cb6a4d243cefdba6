#include "kcheck/record.h"

#include <cstring>
#include <fstream>
#include <random>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/text.h"

namespace diffsched::tools {

namespace {

constexpr std::uint32_t kMagic = 0x6b636869;  // "kchi"
// The mapping's header: magic, kind, length (then the bytes).
constexpr std::size_t kHeader = 16;

}  // namespace

std::string record_json(const std::string& token, const HarnessRecord& r) {
  nlohmann::json j = {{"kcheck_record", 1},
                      {"token", token},
                      {"mode", r.mode},
                      {"outcome", r.outcome},
                      {"programs", r.programs},
                      {"random_programs", r.random_programs},
                      {"ops", r.ops},
                      {"executions", r.executions},
                      {"race_inputs", r.race_inputs},
                      {"race_cut", r.race_cut},
                      {"seconds", r.seconds},
                      {"minimize_seconds", r.minimize_seconds},
                      {"reproducer", r.reproducer},
                      {"input", r.input},
                      {"input_raw", r.input_raw},
                      {"signature", r.signature},
                      {"detail", r.detail}};
  // Bytes that are not UTF-8 (a path, a candidate's message) become U+FFFD.
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool write_record(const std::filesystem::path& path, const std::string& token,
                  const HarnessRecord& r) {
  // Written whole to a temporary file, then renamed: a reader sees the whole
  // record or none.
  const std::string text = record_json(token, r);
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) return false;
  }
  return ::rename(tmp.c_str(), path.c_str()) == 0;
}

std::optional<HarnessRecord> read_record(const std::filesystem::path& path,
                                         const std::string& token, std::string* why) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    *why = "no result record";
    return std::nullopt;
  }
  const nlohmann::json j = nlohmann::json::parse(util::read_text(path), nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("kcheck_record", 0) != 1) {
    *why = fmt::format("{} is not a result record", path.string());
    return std::nullopt;
  }
  try {
    if (j.at("token").get<std::string>() != token) {
      *why = fmt::format("{} is not this run's result record", path.string());
      return std::nullopt;
    }
    HarnessRecord r;
    r.mode = j.at("mode").get<std::string>();
    r.outcome = j.at("outcome").get<std::string>();
    r.programs = j.at("programs").get<std::uint64_t>();
    r.random_programs = j.at("random_programs").get<std::uint64_t>();
    r.ops = j.at("ops").get<std::uint64_t>();
    r.executions = j.at("executions").get<std::uint64_t>();
    r.race_inputs = j.at("race_inputs").get<std::uint64_t>();
    r.race_cut = j.value("race_cut", std::uint64_t{0});  // absent: a harness before the bound
    r.seconds = j.at("seconds").get<double>();
    r.minimize_seconds = j.value("minimize_seconds", 0.0);  // absent: a harness before issue 28
    r.reproducer = j.at("reproducer").get<std::string>();
    r.input = j.at("input").get<std::string>();
    r.input_raw = j.at("input_raw").get<bool>();
    r.signature = j.at("signature").get<std::string>();
    r.detail = j.at("detail").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    *why = fmt::format("{}: a malformed result record ({})", path.string(), e.what());
    return std::nullopt;
  }
}

std::string new_token() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 4; ++i) t += fmt::format("{:08x}", rd());
  return t;
}

bool CurrentInput::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::size_t size = kHeader + kCurrentInputMax;
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    ::close(fd);
    return false;
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return false;
  map_ = static_cast<unsigned char*>(p);
  std::memcpy(map_, &kMagic, sizeof kMagic);
  clear();
  return true;
}

void CurrentInput::set(InputKind kind, std::span<const std::uint8_t> bytes) {
  if (!map_) return;
  std::uint32_t k = static_cast<std::uint32_t>(InputKind::kNone);
  std::memcpy(map_ + 4, &k, sizeof k);
  if (bytes.size() > kCurrentInputMax) return;  // too large to keep: unknown
  const std::uint64_t n = bytes.size();
  std::memcpy(map_ + 8, &n, sizeof n);
  if (!bytes.empty()) std::memcpy(map_ + kHeader, bytes.data(), bytes.size());
  k = static_cast<std::uint32_t>(kind);
  std::memcpy(map_ + 4, &k, sizeof k);
}

void CurrentInput::clear() {
  if (!map_) return;
  const std::uint32_t k = static_cast<std::uint32_t>(InputKind::kNone);
  std::memcpy(map_ + 4, &k, sizeof k);
}

StoppedInput read_current_input(const std::filesystem::path& path) {
  StoppedInput in;
  const std::string text = util::read_text(path);
  if (text.size() < kHeader) return in;
  std::uint32_t magic = 0, kind = 0;
  std::uint64_t n = 0;
  std::memcpy(&magic, text.data(), 4);
  std::memcpy(&kind, text.data() + 4, 4);
  std::memcpy(&n, text.data() + 8, 8);
  if (magic != kMagic || n > kCurrentInputMax || text.size() < kHeader + n) return in;
  if (kind != static_cast<std::uint32_t>(InputKind::kRaw) &&
      kind != static_cast<std::uint32_t>(InputKind::kText))
    return in;
  in.kind = static_cast<InputKind>(kind);
  in.bytes = text.substr(kHeader, n);
  return in;
}

}  // namespace diffsched::tools
