// Malformed program files, against the readers themselves (issue 23): a
// repeated or late header line, a level the subject does not have, a BOM and
// CRLF line ends, a NUL or control byte, an over-long line, a bad "# expect:"
// line. Each is refused with its one-line error, exactly as the CLI prints it
// after "diffsched: error: " (properties/io/check-inputs.sh keeps a case or two
// of each class at the CLI: one line on stderr, exit 2).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <span>
#include <string>
#include <string_view>

#include "io/load.h"
#include "io/program.h"
#include "targets.h"

namespace diffsched::io {
namespace {

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// What the CLI's reader does with a file NAME holding `contents` (replay,
// decode: Input, then the ops read to the end): the error, empty if none.
// `refused_at_open` says whether the header (or the form) was refused before
// any op was read.
struct Loaded {
  bool refused_at_open = false;
  bool loaded = false;
  std::string error;
};

Loaded load(std::string_view contents, const std::string& name,
            const FuzzTarget* target = nullptr) {
  Loaded r;
  auto in = Input::from_bytes(bytes_of(contents), name, {.target = target}, &r.error);
  if (!in) {
    r.refused_at_open = true;
    return r;
  }
  r.loaded = read_program(*in, kDefaultMaxInputBytes, &r.error).has_value();
  return r;
}

// `text` is refused by both text readers: parse_program (whole text) gives
// `error`, and the file reader gives "NAME: " + `error`.
void expect_refused(std::string_view text, const std::string& error) {
  std::string got;
  EXPECT_FALSE(parse_program(text, &got));
  EXPECT_EQ(got, error);
  const Loaded l = load(text, "f.ops");
  EXPECT_FALSE(l.loaded);
  EXPECT_EQ(l.error, "f.ops: " + error);
}

// 10 000 good ops after a cpus line, then `last`: past the first 64 KiB, so
// the file is taken as text and the bad byte is found on its line (10002).
std::string after_64k(std::string_view last) {
  std::string s = "cpus 2\n";
  for (int i = 1; i <= 10000; ++i) s += "set 0 " + std::to_string(i) + "\n";
  s += last;
  return s;
}

TEST(MalformedFile, AHeaderLineTwiceNamesBothLines) {
  expect_refused("cpus 4\ncpus 4\nset 0 1\n", "line 2: a second 'cpus' line (the first is line 1)");
  expect_refused("subject cpudl\ncpus 3\nsubject cpudl\nset 0 1\n",
                 "line 3: a second 'subject' line (the first is line 1)");
  expect_refused("level exact\ncpus 3\nlevel exact\nset 0 1\n",
                 "line 3: a second 'level' line (the first is line 1)");
}

TEST(MalformedFile, AHeaderLineAfterTheFirstOpIsRefused) {
  expect_refused("set 0 1\ncpus 4\n", "line 2: 'cpus' must come before the first op");
  expect_refused("set 0 1\n# expect: deadline equivalent\n",
                 "line 2: '# expect:' lines must come before the first op");
}

TEST(MalformedFile, ALevelTheSubjectLacksIsRefused) {
  expect_refused("subject pick\nlevel deadline\n",
                 "line 2: level deadline means nothing for subject pick (its levels: exact)");
  expect_refused("subject cpumask\ncpus 8\nlevel deadline\n",
                 "line 3: level deadline means nothing for subject cpumask (its levels: exact)");
  // A "# expect:" line's level, checked once the subject is known.
  expect_refused("# expect: deadline equivalent\nsubject pick\n",
                 "line 1: level deadline means nothing for subject pick (its levels: exact)");
  // A binary file whose level byte names deadline for pick.
  const Loaded l = load(std::string_view("DSCH\001\001\002\000", 8), "p.bin");
  EXPECT_TRUE(l.refused_at_open);
  EXPECT_EQ(l.error, "p.bin: level deadline means nothing for subject pick (its levels: exact)");
}

TEST(MalformedFile, ABomAndCrlfLineEndsReadAsPlainText) {
  std::string error;
  const auto bom = parse_program("\xEF\xBB\xBF# BOM and CRLF\r\ncpus 2\r\nset 0 5\r\nset 1 5\r\n",
                                 &error);
  ASSERT_TRUE(bom) << error;
  const auto plain = parse_program("cpus 2\nset 0 5\nset 1 5\n", &error);
  ASSERT_TRUE(plain) << error;
  EXPECT_EQ(format_program(*bom), format_program(*plain));
  EXPECT_NE(format_program(*bom).find("\nset 1 5\n"), std::string::npos) << format_program(*bom);
  const Loaded l = load("\xEF\xBB\xBF# BOM and CRLF\r\ncpus 2\r\nset 0 5\r\nset 1 5\r\n", "bom.ops");
  EXPECT_TRUE(l.loaded) << l.error;
}

TEST(MalformedFile, ANulInTheFirst64KibIsNotText) {
  const std::string nul("cpus 2\nset 0 5\nset 1\0005\n", 22);
  Loaded l = load(nul, "nul.ops");
  EXPECT_TRUE(l.refused_at_open);
  EXPECT_EQ(l.error,
            "nul.ops is binary without the DSCH header: for a raw fuzzer input pass --target (" +
                std::string(target_names()) + ")");
  // With a target it is that target's raw input.
  std::string error;
  auto in = Input::from_bytes(bytes_of(nul), "nul.ops", {.target = find_target("cpudl")}, &error);
  ASSERT_TRUE(in) << error;
  EXPECT_EQ(in->form(), "raw input");
}

TEST(MalformedFile, ANulOrControlByteLaterOnNamesItsLine) {
  const std::string late_nul = after_64k(std::string("set 1\0005\n", 8));
  for (const FuzzTarget* target : {static_cast<const FuzzTarget*>(nullptr), find_target("cpudl")}) {
    const Loaded l = load(late_nul, "late-nul.ops", target);
    EXPECT_FALSE(l.loaded);
    EXPECT_FALSE(l.refused_at_open);
    EXPECT_EQ(l.error,
              "late-nul.ops: line 10002: NUL byte 0x00 in .ops text (a binary file? a raw fuzzer "
              "input needs --target)");
  }
  const Loaded l = load(after_64k("set 1 \0335\n"), "late-esc.ops");
  EXPECT_FALSE(l.loaded);
  EXPECT_EQ(l.error,
            "late-esc.ops: line 10002: control byte 0x1b in .ops text (a binary file? a raw fuzzer "
            "input needs --target)");
}

TEST(MalformedFile, AnOverLongWordIsQuotedBy40Bytes) {
  const std::string forty_sevens(40, '7');
  expect_refused("cpus 4\nset 0 " + std::string(1000000, '7') + "\n",
                 "line 2: 'set' argument 'dl': '" + forty_sevens + "...' is out of range");
  expect_refused("cpus 4\n" + std::string(500000, 'x') + " 1\n",
                 "line 2: unknown op '" + std::string(40, 'x') + "...' and no 'subject' line");
  // A mask word's error is cut short with the rest of the line: one line of
  // at most a few hundred bytes, whatever the word.
  const Loaded l = load("subject pick\ncpus 8\npick dst=0-3 cpus=0-3 allowed=" +
                            std::string(300000, '9') + "\n",
                        "mask.ops");
  EXPECT_FALSE(l.loaded);
  EXPECT_EQ(l.error, "mask.ops: line 3: 'pick' argument 'allowed': '" + std::string(212, '9') + "...");
}

TEST(MalformedFile, ALineOverOneMibIsRefused) {
  const Loaded l = load("cpus 4\nset 0 " + std::string(2000000, '7') + "\n", "huge.ops");
  EXPECT_FALSE(l.loaded);
  EXPECT_EQ(l.error, "huge.ops: line 2 is longer than 1048576 bytes: 'set 0 " +
                         std::string(34, '7') + "...'");
}

// Reader signatures, as replay --target of a race target takes them.
TEST(ValidateVerdict, AReaderSignatureNamesAClassAndAnOp) {
  std::string why;
  EXPECT_TRUE(validate_verdict("cpudl:reader:stale:clear", &why, true)) << why;
  EXPECT_TRUE(validate_verdict("cpudl:reader:impossible:set", &why, true)) << why;
  const std::pair<std::string, std::string> bad[] = {
      {"cpudl:reader:bogus:set",
       "signature 'cpudl:reader:bogus:set': 'bogus' is not a reader class of cpudl (known: stale, "
       "torn, phantom, impossible)"},
      {"cpudl:reader:consistent:set",
       "signature 'cpudl:reader:consistent:set': 'consistent' is not a reader class of cpudl "
       "(known: stale, torn, phantom, impossible)"},
      {"cpudl:reader::set",
       "signature 'cpudl:reader::set': '' is not a reader class of cpudl (known: stale, torn, "
       "phantom, impossible)"},
      {"pick:reader:stale:pick",
       "signature 'pick:reader:stale:pick': 'stale' is not a reader class of pick (known: none)"},
      {"cpudl:reader:stale:f:clear",
       "signature 'cpudl:reader:stale:f:clear': a reader signature is subject:reader:class:op "
       "(e.g. cpudl:reader:torn:set)"},
      {"cpudl:reader:torn:frob",
       "signature 'cpudl:reader:torn:frob': 'frob' is not an op of cpudl (known: set, clear, "
       "clear_online, set_freecpu, clear_freecpu, find, find_nomask, find_cap, cpu_down, cpu_up)"},
  };
  for (const auto& [sig, want] : bad) {
    why.clear();
    EXPECT_FALSE(validate_verdict(sig, &why, true)) << sig;
    EXPECT_EQ(why, want);
  }
}

TEST(MalformedFile, ABadExpectLineIsRefusedOnItsLine) {
  const std::string kNotAVerdict =
      "' is neither 'equivalent' nor a signature subject:kind:check:field:op (e.g. "
      "cpudl:divergence:exact:slot.cpu:set)";
  const std::pair<std::string, std::string> cases[] = {
      {"bogus", "verdict 'bogus" + kNotAVerdict},
      {"cpudl:divergence:exact:slot.cpu", "verdict 'cpudl:divergence:exact:slot.cpu" + kNotAVerdict},
      {"nosuch:divergence:exact:f:set",
       "signature 'nosuch:divergence:exact:f:set': unknown subject 'nosuch' (known: cpudl, pick, "
       "cpumask)"},
      {"cpudl:weird:exact:f:set",
       "signature 'cpudl:weird:exact:f:set': unknown kind 'weird' (known: divergence, invariant, "
       "model-mismatch, out-of-domain)"},
      {"cpudl:reader:stale:clear",
       "signature 'cpudl:reader:stale:clear': a reader finding is a race target's, which the "
       "lockstep never shows (replay --target cpudl_race --expect takes it)"},
      {"cpudl:divergence::f:set",
       "signature 'cpudl:divergence::f:set': the check and the field must not be empty"},
      {"cpudl:divergence:exact:f:frob",
       "signature 'cpudl:divergence:exact:f:frob': 'frob' is not an op of cpudl (known: set, clear, "
       "clear_online, set_freecpu, clear_freecpu, find, find_nomask, find_cap, cpu_down, cpu_up)"},
  };
  for (const auto& [bad, why] : cases) {
    expect_refused("# expect: exact " + bad + "\ncpus 2\nset 0 1\n", "line 1: " + why);
  }
  expect_refused("# expect: exact pick:divergence:exact:pick.ret:pick\ncpus 2\nset 0 1\n",
                 "line 1: signature 'pick:divergence:exact:pick.ret:pick' is not of subject cpudl, "
                 "so it never matches");
}

}  // namespace
}  // namespace diffsched::io
