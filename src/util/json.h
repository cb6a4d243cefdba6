// JSON output that is valid for any bytes (issue 22): every JSON document
// diffsched writes goes through dump_json, which first makes every string
// (and object key) valid UTF-8 with one rule, utf8_text:
//
//   util::utf8_text("caf\xc3\xa9")  -> "caf\xc3\xa9"  (valid UTF-8 is kept as it is)
//   util::utf8_text("caf\xe9")      -> "caf\xc3\xa9"  (the byte 0xE9 becomes U+00E9)
//   util::dump_json(doc, 2)         -> doc.dump(2) after utf8_text on every string
//
// The rule: a byte that does not begin a well-formed UTF-8 sequence (RFC 3629:
// no overlong forms, no surrogates, nothing past U+10FFFF) stands for the
// code point of the same number, U+0080..U+00FF (its Latin-1 reading), so a
// Latin-1 line reads right and nothing throws nlohmann::type_error. A reader
// cannot tell such a byte from a real U+00XX in the text: the JSON is for
// reading and tools, not for recovering a file name byte for byte.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace diffsched::util {

// `bytes` as valid UTF-8, by the rule above. O(n).
std::string utf8_text(std::string_view bytes);

// `doc` with every string value and key made valid UTF-8 (utf8_text).
// O(size of doc). Json: nlohmann::json or nlohmann::ordered_json.
template <class Json>
Json utf8_json(const Json& doc) {
  if (doc.is_string()) return utf8_text(doc.template get_ref<const std::string&>());
  if (doc.is_array()) {
    Json out = Json::array();
    for (const auto& e : doc) out.push_back(utf8_json(e));
    return out;
  }
  if (doc.is_object()) {
    Json out = Json::object();
    for (const auto& [key, value] : doc.items()) out[utf8_text(key)] = utf8_json(value);
    return out;
  }
  return doc;
}

// utf8_json(doc).dump(indent): never throws on the bytes of a string.
template <class Json>
std::string dump_json(const Json& doc, int indent = -1) {
  return utf8_json(doc).dump(indent);
}

}  // namespace diffsched::util
