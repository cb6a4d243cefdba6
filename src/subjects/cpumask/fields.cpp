// The mask register's field traits (declared in ops.h beside the type).
#include <fmt/format.h>

#include "io/text.h"
#include "subjects/cpumask/ops.h"

namespace diffsched::io {

std::string FieldTraits<cpumask::Reg>::print(cpumask::Reg v) { return fmt::format("r{}", v.r); }

bool FieldTraits<cpumask::Reg>::parse(std::string_view s, cpumask::Reg* out, std::string* error) {
  if (s.size() == 2 && s[0] == 'r' && s[1] >= '0' && s[1] < '0' + int(cpumask::kRegisters)) {
    out->r = static_cast<unsigned>(s[1] - '0');
    return true;
  }
  *error = fmt::format("'{}' is not a register (r0..r{})", excerpt(s), cpumask::kRegisters - 1);
  return false;
}

bool FieldTraits<cpumask::Reg>::decode(ByteReader& r, DecodeContext&, cpumask::Reg* reg) {
  std::uint8_t b;
  if (!r.get(&b)) return false;
  reg->r = b % cpumask::kRegisters;
  return true;
}

}  // namespace diffsched::io
