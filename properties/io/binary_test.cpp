// The binary format: decoding is total, and decode -> encode -> decode is
// the identity; the text twin round-trips too; bad file headers are refused.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "io/binary.h"
#include "io/text.h"

namespace diffsched::io {
namespace {

template <class S>
void round_trips(const std::vector<std::uint8_t>& bytes) {
  const AnyProgram decoded = decode_body<S>(bytes);
  const auto body = encode_body(decoded);
  const AnyProgram again = decode_body<S>(body);
  RC_ASSERT(programs_equal(decoded, again));
  // The file form and the .ops text form carry the same program.
  std::string error;
  auto from_file = decode_file(encode_file(decoded), &error);
  RC_ASSERT(from_file.has_value());
  RC_ASSERT(programs_equal(decoded, *from_file));
  auto from_text = parse_program(format_program(decoded), &error);
  RC_ASSERT(from_text.has_value());
  RC_ASSERT(programs_equal(decoded, *from_text));
}

RC_GTEST_PROP(BinaryFormat, DecodingNeverFailsAndEncodingIsLosslessForCpudl,
              (const std::vector<std::uint8_t>& bytes)) {
  round_trips<cpudl::Subject>(bytes);
}

RC_GTEST_PROP(BinaryFormat, DecodingNeverFailsAndEncodingIsLosslessForPick,
              (const std::vector<std::uint8_t>& bytes)) {
  round_trips<pick::Subject>(bytes);
}

RC_GTEST_PROP(BinaryFormat, DecodingNeverFailsAndEncodingIsLosslessForCpumask,
              (const std::vector<std::uint8_t>& bytes)) {
  round_trips<cpumask::Subject>(bytes);
}

// Bodies with a large-nr header byte and explicit deadline bases.
RC_GTEST_PROP(BinaryFormat, LargeNrAndExplicitBasesRoundTrip,
              (const std::vector<std::uint8_t>& tail)) {
  const std::uint8_t head = *rc::gen::element<std::uint8_t>(0xf0, 0xff, 15, 13);
  const std::uint8_t domain = *rc::gen::element<std::uint8_t>(0, 1, 2, 3, 0x80, 0x83);
  std::vector<std::uint8_t> bytes{head, 0x10, 0x01, domain};
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  round_trips<cpudl::Subject>(bytes);
}

TEST(BinaryFormat, TextProgramsEncodeAndDecodeBack) {
  std::string error;
  auto p = parse_program(
      "subject cpudl\ncpus 300\nlevel exact\nset 299 0xfffffffffffffff0\nset 1 5\n"
      "find 0x8000000000000000 0-299\nfind_nomask 7 1,3,290-299\nclear_online 3 1\n",
      &error);
  ASSERT_TRUE(p) << error;
  auto back = decode_file(encode_file(*p), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(programs_equal(*p, *back));
  EXPECT_EQ(format_program(*back), format_program(*p));
}

TEST(BinaryFormat, EveryTwoByteBodyDecodes) {
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned b = 0; b < 256; b += 7) {
      const std::vector<std::uint8_t> bytes{static_cast<std::uint8_t>(a),
                                            static_cast<std::uint8_t>(b)};
      (void)decode_body<cpudl::Subject>(bytes);
      (void)decode_body<pick::Subject>(bytes);
    }
  EXPECT_TRUE(decode_body<cpudl::Subject>({}).ops.empty());
}

TEST(BinaryFormat, BadHeadersAreRefusedWithAReason) {
  std::string error;
  const std::vector<std::uint8_t> truncated{'D', 'S', 'C', 'H', 1};
  EXPECT_FALSE(decode_file(truncated, &error));
  EXPECT_EQ(error, "truncated header: 5 bytes, the header needs 7");
  const std::vector<std::uint8_t> version{'D', 'S', 'C', 'H', 9, 0, 0};
  EXPECT_FALSE(decode_file(version, &error));
  EXPECT_EQ(error, "format version 9 (this diffsched reads versions 1 and 2)");
  const std::vector<std::uint8_t> subject{'D', 'S', 'C', 'H', 1, 7, 0};
  EXPECT_FALSE(decode_file(subject, &error));
  EXPECT_EQ(error, "unknown subject number 7");
}

// Op codes are part of the format: an existing op's code never changes (add a
// new op with a reserved code instead).
TEST(BinaryFormat, OpCodesArePinned) {
  static_assert(cpudl::Set::kCode == 0 && cpudl::Clear::kCode == 1 &&
                cpudl::ClearOnline::kCode == 2 && cpudl::SetFreecpu::kCode == 3 &&
                cpudl::ClearFreecpu::kCode == 4 && cpudl::Find::kCode == 5 &&
                cpudl::FindNomask::kCode == 6);
  static_assert(pick::Pick::kCode == 0);
  static_assert(cpumask::Load::kCode == 0 && cpumask::ForEachAnd::kCode == 11);
}

// v2: the op byte's low 5 bits are the op code; a reserved code is skipped.
TEST(BinaryFormat, OpBytesAreStableCodes) {
  // nr 2, window base 0; then `clear 1` as code 1, as 1 + 32 and as 1 + 224.
  for (std::uint8_t b : {1, 33, 225}) {
    const std::vector<std::uint8_t> body{1, 0, b, 1};
    auto p = std::get<Program<cpudl::Subject>>(decode_body_for("cpudl", body).value());
    ASSERT_EQ(p.ops.size(), 1u) << int(b);
    EXPECT_TRUE(std::holds_alternative<cpudl::Clear>(p.ops[0]));
  }
  // Code 31 is reserved: it decodes to nothing and the next byte starts an op.
  const std::vector<std::uint8_t> body{1, 0, 31, 31, 1, 1};
  auto p = std::get<Program<cpudl::Subject>>(decode_body_for("cpudl", body).value());
  ASSERT_EQ(p.ops.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<cpudl::Clear>(p.ops[0]));
  // Pick has an op byte in v2 too (code 0).
  const std::vector<std::uint8_t> pick_body{1, 32, 1, 1, 1};
  auto q = std::get<Program<pick::Subject>>(decode_body_for("pick", pick_body).value());
  ASSERT_EQ(q.ops.size(), 1u);
}

// v1 files still decode with v1's rules: op byte b % kinds, pick without one.
TEST(BinaryFormat, VersionOneFilesDecodeAsVersionOne) {
  std::string error;
  // cpudl, nr 2, base 0, op byte 16: v1 16 % 7 = 2 (clear_online 1 1).
  const std::vector<std::uint8_t> v1{'D', 'S', 'C', 'H', 1, 0, 0, 1, 0, 16, 1, 1};
  auto a = decode_file(v1, &error);
  ASSERT_TRUE(a) << error;
  const auto& pa = std::get<Program<cpudl::Subject>>(*a);
  ASSERT_EQ(pa.ops.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<cpudl::ClearOnline>(pa.ops[0]));
  // The same body as v2: 16 is a reserved code, then `clear 1` (code 1).
  auto v2 = v1;
  v2[4] = 2;
  auto b = decode_file(v2, &error);
  ASSERT_TRUE(b) << error;
  const auto& pb = std::get<Program<cpudl::Subject>>(*b);
  ASSERT_EQ(pb.ops.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<cpudl::Clear>(pb.ops[0]));
  // pick v1: no op byte; nr 1, then three one-byte masks (mode 1: all).
  const std::vector<std::uint8_t> pick_v1{'D', 'S', 'C', 'H', 1, 1, 0, 0, 1, 1, 1};
  auto c = decode_file(pick_v1, &error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(std::get<Program<pick::Subject>>(*c).ops.size(), 1u);
  // Encoding writes version 2.
  EXPECT_EQ(encode_file(*a)[4], 2);
}

TEST(BinaryFormat, TheTieDivergenceIsAFewBytes) {
  // nr 2 (table index 1), window base 0, then set 0 5, set 1 5 (mode 0).
  const std::vector<std::uint8_t> body{1, 0, 0, 0, 5, 0, 1, 5};
  auto p = std::get<Program<cpudl::Subject>>(decode_body_for("cpudl", body).value());
  ASSERT_EQ(p.ops.size(), 2u);
  kernel::NrCpuIdsScope scope(2);
  EXPECT_EQ(format_op(p.ops[0]), "set 0 5");
  EXPECT_EQ(format_op(p.ops[1]), "set 1 5");
  EXPECT_EQ(encode_body(AnyProgram(p)), body);
}

}  // namespace
}  // namespace diffsched::io

namespace diffsched::io {
namespace {

TEST(BinaryFormat, ProgramsEqualSeesEveryField) {
  std::string error;
  auto a = parse_program("cpus 8\nset 1 5\nfind 3 0-2\n", &error);
  auto b = parse_program("cpus 8\nset 1 5\nfind 3 0-3\n", &error);
  auto c = parse_program("cpus 8\nset 1 6\nfind 3 0-2\n", &error);
  auto d = parse_program("cpus 9\nset 1 5\nfind 3 0-2\n", &error);
  ASSERT_TRUE(a && b && c && d);
  EXPECT_TRUE(programs_equal(*a, *a));
  EXPECT_FALSE(programs_equal(*a, *b));
  EXPECT_FALSE(programs_equal(*a, *c));
  EXPECT_FALSE(programs_equal(*a, *d));
}

}  // namespace
}  // namespace diffsched::io
