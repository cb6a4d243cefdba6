// util::dump_json (issue 22): JSON output is valid for any bytes, by one
// rule (util/json.h): valid UTF-8 kept, every other byte as U+00XX.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/json.h"

namespace diffsched::util {
namespace {

TEST(Utf8Text, ValidUtf8IsKept) {
  for (const std::string& s : std::vector<std::string>{"", "plain", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                              "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", std::string("nul\0x", 5)})
    EXPECT_EQ(utf8_text(s), s);
}

TEST(Utf8Text, EveryOtherByteIsItsLatin1CodePoint) {
  EXPECT_EQ(utf8_text("caf\xe9"), "caf\xc3\xa9");             // Latin-1 e-acute
  EXPECT_EQ(utf8_text("\xff\xfe"), "\xc3\xbf\xc3\xbe");
  EXPECT_EQ(utf8_text("\xc0\xaf"), "\xc3\x80\xc2\xaf");       // overlong '/'
  EXPECT_EQ(utf8_text("\xed\xa0\x80"), "\xc3\xad\xc2\xa0\xc2\x80");  // a surrogate
  EXPECT_EQ(utf8_text("\xf4\x90\x80\x80"), "\xc3\xb4\xc2\x90\xc2\x80\xc2\x80");  // > U+10FFFF
  EXPECT_EQ(utf8_text("\xe2\x82"), "\xc3\xa2\xc2\x82");       // cut short
  EXPECT_EQ(utf8_text("a\x80z"), "a\xc2\x80z");               // a lone continuation byte
}

TEST(DumpJson, AnyBytesGiveValidJsonThatParsesBack) {
  std::mt19937 rng(22);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 16, ' ');
    for (char& c : bytes) c = static_cast<char>(rng());
    nlohmann::json keyed = nlohmann::json::object();
    keyed[bytes] = {bytes, 1};  // a key of any bytes too
    const nlohmann::json doc = {{"file", bytes}, {"keyed", keyed}, {"n", i}};
    std::string text;
    ASSERT_NO_THROW(text = dump_json(doc, 2));
    nlohmann::json back;
    ASSERT_NO_THROW(back = nlohmann::json::parse(text)) << text;
    EXPECT_EQ(back["file"], utf8_text(bytes));
    EXPECT_EQ(back["keyed"][utf8_text(bytes)][0], utf8_text(bytes));
    EXPECT_EQ(back["n"], i);
  }
}

TEST(DumpJson, PlainDumpWouldThrowAndThisDoesNot) {
  const nlohmann::json doc = {{"file", "m\xe9.ops"}};
  EXPECT_THROW((void)doc.dump(), nlohmann::json::type_error);  // what the issue hit
  EXPECT_EQ(dump_json(doc), "{\"file\":\"m\xc3\xa9.ops\"}");
  const nlohmann::ordered_json sarif = {{"uri", "\xff"}};
  EXPECT_EQ(dump_json(sarif), "{\"uri\":\"\xc3\xbf\"}");
}

}  // namespace
}  // namespace diffsched::util
