#include "util/json.h"

namespace diffsched::util {

namespace {

// The length of the well-formed UTF-8 sequence at s[i], or 0 (RFC 3629,
// table 3-7 of the Unicode standard).
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = at(i);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the second byte's range
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b == 0xe0) lo = 0xa0;  // no overlong forms
    if (b == 0xed) hi = 0x9f;  // no surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b == 0xf0) lo = 0x90;
    if (b == 0xf4) hi = 0x8f;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
  return n;
}

}  // namespace

std::string utf8_text(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    if (const std::size_t n = utf8_sequence(bytes, i); n > 0) {
      out.append(bytes.substr(i, n));
      i += n;
      continue;
    }
    const auto b = static_cast<unsigned char>(bytes[i++]);  // U+0080..U+00FF, two bytes
    out += static_cast<char>(0xc0 | (b >> 6));
    out += static_cast<char>(0x80 | (b & 0x3f));
  }
  return out;
}

}  // namespace diffsched::util
