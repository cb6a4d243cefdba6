// diffsched fn: the harness's number printing, the C text between its
// output buffer (fnh_putn(), fnh_puts()) and its mask printing
// (harness_gen.cpp's prologue). `fnh_putu(v)` and `fnh_puti(v)` append v in
// decimal to the record (or to the stubs' trace while fnh_to_tr is set).
//
// The cost: records are made for every call, and a sort's output of up to
// 64 structs is up to 128 numbers, many of them drawn values of 19-20
// digits. perf on the --clock build had the two-digits-per-division loop's
// chain of ten 64-bit divisions for such a value as the hot spot; here a
// 64-bit division takes eight digits at a time (two at most), and the eight
// digits' four pairs are made from 32-bit divisions that do not wait on
// each other. The length comes from the bit length and one compare, not a
// scan of the powers of ten. (Tried and slower on that build: all 20 digits
// made without a branch, in registers (SWAR) or through a scratch buffer.)
#include "fn/model.h"

namespace diffsched::fn {

const char* harness_numbers() {
  return R"(
/* The pairs "00" to "99": two digits per division. */
static const char fnh_digits[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* 10^0 to 10^19. */
static const unsigned long long fnh_pow10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* The number of decimal digits of v (1 for 0): log10 from its bit length, then one compare. */
static inline __attribute__((always_inline)) unsigned int fnh_ndigits(unsigned long long v)
{
	unsigned int t = (unsigned int)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return t + 1 - ((v | 1) < fnh_pow10[t]);
}

/* The two digits of d < 100 at o. */
static inline __attribute__((always_inline)) void fnh_put2(char *o, unsigned int d)
{
	__builtin_memcpy(o, fnh_digits + 2 * d, 2);
}

/* The eight digits of x < 10^8 at o, leading zeros included: its four pairs
 * do not wait on each other. */
static inline __attribute__((always_inline)) void fnh_put8(char *o, unsigned int x)
{
	unsigned int hi = x / 10000, lo = x % 10000;

	fnh_put2(o, hi / 100);
	fnh_put2(o + 2, hi % 100);
	fnh_put2(o + 4, lo / 100);
	fnh_put2(o + 6, lo % 100);
}

/* Decimal, written in place from its last digit (no copy, no call: inlined,
 * the record's position stays in a register between numbers): eight digits
 * per 64-bit division (two at most), then two per 32-bit one. */
static inline __attribute__((always_inline)) void fnh_putu(unsigned long long v)
{
	char b[20], *o;
	unsigned int n = fnh_ndigits(v), w;

	if (!fnh_to_tr && n > sizeof(fnh_out) - fnh_olen)
		fnh_full();
	o = (fnh_to_tr ? b : fnh_out + fnh_olen) + n;
	while (v >= 100000000ULL) {
		unsigned long long q = v / 100000000ULL;

		o -= 8;
		fnh_put8(o, (unsigned int)(v - q * 100000000ULL));
		v = q;
	}
	for (w = (unsigned int)v; w >= 100; w /= 100) {
		o -= 2;
		fnh_put2(o, w % 100);
	}
	if (w >= 10)
		fnh_put2(o - 2, w);
	else
		o[-1] = (char)('0' + w);
	if (fnh_to_tr)
		fnh_putn(b, n);
	else
		fnh_olen += n;
}

static inline __attribute__((always_inline)) void fnh_puti(long long v)
{
	if (v < 0) {
		fnh_puts("-");
		fnh_putu(0ULL - (unsigned long long)v);
	} else {
		fnh_putu((unsigned long long)v);
	}
}
)";
}

}  // namespace diffsched::fn
