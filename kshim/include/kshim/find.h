/* SPDX-License-Identifier: MIT */
/*
 * kshim: bit operations and the find-bit API (include/linux/bitops.h,
 * include/asm-generic/bitops/, include/linux/find.h, lib/find_bit.c),
 * written for diffsched from the kernel's documented contracts. Included by
 * kshim/kshim.h; do not include it alone.
 *
 *   unsigned long b = find_next_bit(addr, size, offset);  // < size, or size
 *   for_each_set_bit(b, addr, size) ...
 *
 * Every find_*() returns its size argument when nothing is found, never
 * more (the kernel's min(found, size)), and reads only the words below
 * BITS_TO_LONGS(size). An offset at or beyond size returns size. Cost:
 * O(size / BITS_PER_LONG) words.
 * Where kernels differ: find_nth_bit() and its _and/_andnot/_and_andnot
 * forms (v6.2+), find_next_and_bit (v4.11+), find_next_andnot_bit (v6.2+),
 * find_next_or_bit (v6.5+), find_first_and_and_bit (v6.11+) and the
 * bitrange/wrap iterators (v5.18+ / v6.1+) are given in every era: a file of
 * an older era that does not call them is not affected.
 */
#ifndef KSHIM_FIND_H
#define KSHIM_FIND_H

#define BITS_PER_LONG 64
#define BITS_PER_LONG_LONG 64
#define BITS_PER_BYTE 8
#define BITS_PER_TYPE(type) (sizeof(type) * BITS_PER_BYTE)
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BITS_TO_U64(nr) (((nr) + 63) / 64)
#define BITS_TO_U32(nr) (((nr) + 31) / 32)
#define BITS_TO_BYTES(nr) (((nr) + 7) / 8)
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_ULL_WORD(nr) ((nr) / 64)
#define BIT_ULL_MASK(nr) (1ULL << ((nr) % 64))
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (63 - (h))))
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

/* ---- single bits (asm-generic/bitops: the atomic forms are the plain ones
 * here, the shim is single-threaded). The addr is read without volatile so
 * that constant bitmaps fold as the kernel's const_test_bit() does. -------- */
#define KSHIM_W(addr) ((unsigned long *)(addr))
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr) { KSHIM_W(addr)[BIT_WORD(nr)] |= BIT_MASK(nr); }
static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr) { KSHIM_W(addr)[BIT_WORD(nr)] &= ~BIT_MASK(nr); }
static inline void __change_bit(unsigned long nr, volatile unsigned long *addr) { KSHIM_W(addr)[BIT_WORD(nr)] ^= BIT_MASK(nr); }
static inline void set_bit(unsigned long nr, volatile unsigned long *addr) { __set_bit(nr, addr); }
static inline void clear_bit(unsigned long nr, volatile unsigned long *addr) { __clear_bit(nr, addr); }
static inline void change_bit(unsigned long nr, volatile unsigned long *addr) { __change_bit(nr, addr); }
static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{ return (((const unsigned long *)addr)[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1UL; }
#define const_test_bit test_bit
#define test_bit_acquire test_bit
#define clear_bit_unlock clear_bit
#define __clear_bit_unlock __clear_bit
static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long *addr) { bool old = test_bit(nr, addr); __set_bit(nr, addr); return old; }
static inline bool test_and_set_bit(unsigned long nr, volatile unsigned long *addr) { return __test_and_set_bit(nr, addr); }
#define test_and_set_bit_lock test_and_set_bit
static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long *addr) { bool old = test_bit(nr, addr); __clear_bit(nr, addr); return old; }
static inline bool test_and_clear_bit(unsigned long nr, volatile unsigned long *addr) { return __test_and_clear_bit(nr, addr); }
static inline bool __test_and_change_bit(unsigned long nr, volatile unsigned long *addr) { bool old = test_bit(nr, addr); __change_bit(nr, addr); return old; }
static inline bool test_and_change_bit(unsigned long nr, volatile unsigned long *addr) { return __test_and_change_bit(nr, addr); }
/* __assign_bit()/assign_bit() (v5.2+, a macro since v6.10): set if value. */
#define __assign_bit(nr, addr, value) ((value) ? __set_bit((nr), (addr)) : __clear_bit((nr), (addr)))
#define assign_bit(nr, addr, value) ((value) ? set_bit((nr), (addr)) : clear_bit((nr), (addr)))

/* ---- words: ffs/fls families, hweight (include/asm-generic/bitops) ------- */
/* __ffs(w)/__fls(w): undefined for w == 0 (as the kernel's); ffs/fls: 1-based, 0 for 0. */
static inline unsigned long __ffs(unsigned long w) { return (unsigned long)__builtin_ctzl(w); }
static inline unsigned long __fls(unsigned long w) { return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(w)); }
static inline unsigned long ffz(unsigned long w) { return __ffs(~w); }
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int fls_long(unsigned long x) { return fls64(x); }
static inline unsigned int hweight8(unsigned int w) { return (unsigned int)__builtin_popcount(w & 0xffu); }
static inline unsigned int hweight16(unsigned int w) { return (unsigned int)__builtin_popcount(w & 0xffffu); }
static inline unsigned int hweight32(unsigned int w) { return (unsigned int)__builtin_popcount(w); }
static inline unsigned long hweight64(u64 w) { return (unsigned long)__builtin_popcountll(w); }
static inline unsigned long hweight_long(unsigned long w) { return (unsigned long)__builtin_popcountl(w); }
/* fns(word, n) (v6.2+): the position of the n-th (from 0) set bit of word,
 * or BITS_PER_LONG if it has no more than n set bits. O(n). */
static inline unsigned long fns(unsigned long word, unsigned int n)
{
	while (word && n--)
		word &= word - 1;
	return word ? __ffs(word) : BITS_PER_LONG;
}

/* ---- find_*_bit: one walk over the words WORD(idx) ---------------------- */
/* The first set bit of WORD(idx) at or after start, below size, else size. */
#define KSHIM_FIND_NEXT(WORD, size, start) ({ \
	unsigned long __sz = (size), __st = (start), __res = __sz; \
	if (__st < __sz) { \
		unsigned long idx = __st / BITS_PER_LONG; \
		unsigned long __t = (WORD) & BITMAP_FIRST_WORD_MASK(__st); \
		while (!__t && (idx + 1) * BITS_PER_LONG < __sz) { idx++; __t = (WORD); } \
		if (__t) { \
			__res = idx * BITS_PER_LONG + (unsigned long)__builtin_ctzl(__t); \
			if (__res > __sz) __res = __sz; \
		} \
	} \
	__res; })
/* The n-th (from 0) set bit of WORD(idx) below size, else size. */
#define KSHIM_FIND_NTH(WORD, size, num) ({ \
	unsigned long __sz = (size), __n = (num), __res = __sz, idx; \
	for (idx = 0; idx * BITS_PER_LONG < __sz; idx++) { \
		unsigned long __t = (WORD); \
		unsigned long __w; \
		if ((idx + 1) * BITS_PER_LONG > __sz) __t &= BITMAP_LAST_WORD_MASK(__sz); \
		__w = hweight_long(__t); \
		if (__w > __n) { __res = idx * BITS_PER_LONG + fns(__t, (unsigned int)__n); break; } \
		__n -= __w; \
	} \
	__res < __sz ? __res : __sz; })

static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(addr[idx], size, offset); }
static inline unsigned long find_next_and_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] & a2[idx], size, offset); }
static inline unsigned long find_next_andnot_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] & ~a2[idx], size, offset); }
static inline unsigned long find_next_or_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] | a2[idx], size, offset); }
static inline unsigned long find_next_and_andnot_bit(const unsigned long *a1, const unsigned long *a2, const unsigned long *a3, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] & a2[idx] & ~a3[idx], size, offset); }
static inline unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(~addr[idx], size, offset); }
static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{ return find_next_bit(addr, size, 0); }
static inline unsigned long find_first_and_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size)
{ return find_next_and_bit(a1, a2, size, 0); }
static inline unsigned long find_first_andnot_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size)
{ return find_next_andnot_bit(a1, a2, size, 0); }
static inline unsigned long find_first_and_and_bit(const unsigned long *a1, const unsigned long *a2, const unsigned long *a3, unsigned long size)
{ return KSHIM_FIND_NEXT(a1[idx] & a2[idx] & a3[idx], size, 0); }
static inline unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size)
{ return find_next_zero_bit(addr, size, 0); }
/* find_last_bit(addr, size): the highest set bit below size, else size. */
static inline unsigned long find_last_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long idx = BITS_TO_LONGS(size);

	while (idx--) {
		unsigned long w = addr[idx];
		if ((idx + 1) * BITS_PER_LONG > size)
			w &= BITMAP_LAST_WORD_MASK(size);
		if (w)
			return idx * BITS_PER_LONG + __fls(w);
	}
	return size;
}
/* find_nth_bit(addr, size, n) (v6.2+): the n-th (from 0) set bit, else size. */
static inline unsigned long find_nth_bit(const unsigned long *addr, unsigned long size, unsigned long n)
{ return KSHIM_FIND_NTH(addr[idx], size, n); }
static inline unsigned long find_nth_and_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long n)
{ return KSHIM_FIND_NTH(a1[idx] & a2[idx], size, n); }
static inline unsigned long find_nth_andnot_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long n)
{ return KSHIM_FIND_NTH(a1[idx] & ~a2[idx], size, n); }
static inline unsigned long find_nth_and_andnot_bit(const unsigned long *a1, const unsigned long *a2, const unsigned long *a3, unsigned long size, unsigned long n)
{ return KSHIM_FIND_NTH(a1[idx] & a2[idx] & ~a3[idx], size, n); }

/* find_next_bit_wrap(addr, size, offset) (v6.1+): the first set bit at or
 * after offset, else the first below offset, else size. */
static inline unsigned long find_next_bit_wrap(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	unsigned long bit = find_next_bit(addr, size, offset);

	if (bit < size)
		return bit;
	bit = find_first_bit(addr, offset);
	return bit < offset ? bit : size;
}
static inline unsigned long find_next_and_bit_wrap(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{
	unsigned long bit = find_next_and_bit(a1, a2, size, offset);

	if (bit < size)
		return bit;
	bit = find_first_and_bit(a1, a2, offset);
	return bit < offset ? bit : size;
}
/* The step of for_each_set_bit_wrap(): n is the bit after the last one
 * visited; the walk goes from start to size, then from 0 to start. */
static inline unsigned long __for_each_wrap(const unsigned long *addr, unsigned long size, unsigned long start, unsigned long n)
{
	unsigned long bit;

	if (n > start) {
		bit = find_next_bit(addr, size, n);
		if (bit < size)
			return bit;
		n = 0;
	}
	bit = find_next_bit(addr, start, n);
	return bit < start ? bit : size;
}

/* find_next_clump8(&clump, addr, size, offset) (v5.4+): the offset (a
 * multiple of 8) of the next non-zero 8-bit clump at or after offset, its
 * value in *clump; size if none. */
static inline unsigned long find_next_clump8(unsigned long *clump, const unsigned long *addr, unsigned long size, unsigned long offset)
{
	offset = find_next_bit(addr, size, offset);
	if (offset == size)
		return size;
	offset &= ~7UL;
	*clump = (addr[BIT_WORD(offset)] >> (offset % BITS_PER_LONG)) & 0xffUL;
	return offset;
}
#define find_first_clump8(clump, bits, size) find_next_clump8((clump), (bits), (size), 0)

/* ---- iterators (include/linux/find.h; bitops.h before v5.19) ------------ */
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_and_bit(bit, a1, a2, size) \
	for ((bit) = 0; (bit) = find_next_and_bit((a1), (a2), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_andnot_bit(bit, a1, a2, size) \
	for ((bit) = 0; (bit) = find_next_andnot_bit((a1), (a2), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_or_bit(bit, a1, a2, size) \
	for ((bit) = 0; (bit) = find_next_or_bit((a1), (a2), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_set_bit_from(bit, addr, size) \
	for (; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_clear_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_zero_bit((addr), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_clear_bit_from(bit, addr, size) \
	for (; (bit) = find_next_zero_bit((addr), (size), (bit)), (bit) < (size); (bit)++)
/* [b, e) ranges of set (clear) bits; the _from forms start at b. */
#define for_each_set_bitrange(b, e, addr, size) \
	for ((b) = 0; (b) = find_next_bit((addr), (size), (b)), \
	     (e) = find_next_zero_bit((addr), (size), (b) + 1), (b) < (size); (b) = (e) + 1)
#define for_each_set_bitrange_from(b, e, addr, size) \
	for (; (b) = find_next_bit((addr), (size), (b)), \
	     (e) = find_next_zero_bit((addr), (size), (b) + 1), (b) < (size); (b) = (e) + 1)
#define for_each_clear_bitrange(b, e, addr, size) \
	for ((b) = 0; (b) = find_next_zero_bit((addr), (size), (b)), \
	     (e) = find_next_bit((addr), (size), (b) + 1), (b) < (size); (b) = (e) + 1)
#define for_each_clear_bitrange_from(b, e, addr, size) \
	for (; (b) = find_next_zero_bit((addr), (size), (b)), \
	     (e) = find_next_bit((addr), (size), (b) + 1), (b) < (size); (b) = (e) + 1)
#define for_each_set_bit_wrap(bit, addr, size, start) \
	for ((bit) = find_next_bit_wrap((addr), (size), (start)); (bit) < (size); \
	     (bit) = __for_each_wrap((addr), (size), (start), (bit) + 1))
#define for_each_set_clump8(start, clump, bits, size) \
	for ((start) = find_first_clump8(&(clump), (bits), (size)); (start) < (size); \
	     (start) = find_next_clump8(&(clump), (bits), (size), (start) + 8))

#endif /* KSHIM_FIND_H */
