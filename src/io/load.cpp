#include "io/load.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "io/binary.h"

namespace diffsched::io {

std::optional<AnyProgram> load_program(const std::string& path, const FuzzTarget* target,
                                       std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string data = buf.str();
  const auto bytes = std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  if (has_magic(bytes)) {
    auto p = decode_file(bytes, error);
    if (!p) *error = fmt::format("{}: {}", path, *error);
    return p;
  }
  if (target) {
    auto p = decode_body_for(target->subject, bytes);
    std::visit([&](auto& prog) { prog.level = target->level; }, *p);
    return p;
  }
  if (data.empty()) {
    *error = fmt::format("{} is empty", path);
    return std::nullopt;
  }
  const bool binary = std::any_of(data.begin(), data.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t');
  });
  if (binary) {
    *error = fmt::format(
        "{} is binary without the DSCH header: for a raw fuzzer input pass --target ({})",
        path, target_names());
    return std::nullopt;
  }
  auto p = parse_program(data, error);
  if (!p) *error = fmt::format("{}: {}", path, *error);
  return p;
}

bool write_file(const std::string& path, std::string_view contents, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(contents.data(), static_cast<std::streamsize>(contents.size()))) {
    *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace diffsched::io
