/* SPDX-License-Identifier: MIT */
/*
 * kshim: the bitmap API (include/linux/bitmap.h, lib/bitmap.c), written for
 * diffsched from the kernel's documented contracts. Included by
 * kshim/kshim.h after kshim/find.h; do not include it alone.
 *
 *   DECLARE_BITMAP(b, 100);  bitmap_zero(b, 100);  bitmap_set(b, 3, 5);
 *   bool any = bitmap_and(dst, b, other, 100);    // dst's last word masked
 *
 * Which words a call writes is part of the contract, as in the kernel:
 * bitmap_zero(), bitmap_copy(), bitmap_or(), bitmap_xor(),
 * bitmap_complement() and bitmap_replace() write every word below
 * BITS_TO_LONGS(nbits) whole, including the bits past nbits in the last
 * one; bitmap_and() and bitmap_andnot() mask the last word (their result
 * says whether any of the nbits bits is set); bitmap_set()/bitmap_clear()
 * touch only the bits they name. Queries (equal, empty, weight, ...) look
 * at the nbits bits only.
 * Where kernels differ: bitmap_fill() set only the nbits bits before v4.19
 * and every bit of the last word from v4.19 on (the kernel's "make
 * bitmap_fill() and bitmap_zero() consistent"); the shim follows
 * KSHIM_KERNEL_VERSION (kshim/kshim.h). The shifts leave the bits past
 * nbits of the last word clear (the kernel leaves them unspecified).
 * lib/bitmap.c's out-of-line functions are in kshim/runtime/bitmap.c.
 */
#ifndef KSHIM_BITMAP_H
#define KSHIM_BITMAP_H

#define bitmap_size(nbits) (BITS_TO_LONGS(nbits) * sizeof(unsigned long))
#define BITMAP_FROM_U64(n) ((unsigned long)(n))

/* Apply EXPR to every word index k below BITS_TO_LONGS(nbits). */
#define KSHIM_EACH_WORD(nbits, EXPR) \
	do { for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++) { EXPR; } } while (0)

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = 0); }
static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	KSHIM_EACH_WORD(nbits, dst[k] = ~0UL);
#if KSHIM_KERNEL_VERSION < KSHIM_KV(4, 19)
	if (nbits % BITS_PER_LONG)
		dst[nbits / BITS_PER_LONG] = BITMAP_LAST_WORD_MASK(nbits);
#endif
}
static inline void bitmap_copy(unsigned long *dst, const unsigned long *src, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = src[k]); }
/* bitmap_copy_clear_tail(): the copy with the bits past nbits cleared. */
static inline void bitmap_copy_clear_tail(unsigned long *dst, const unsigned long *src, unsigned int nbits)
{
	bitmap_copy(dst, src, nbits);
	if (nbits % BITS_PER_LONG)
		dst[nbits / BITS_PER_LONG] &= BITMAP_LAST_WORD_MASK(nbits);
}
static inline void bitmap_or(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = b1[k] | b2[k]); }
static inline void bitmap_xor(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = b1[k] ^ b2[k]); }
static inline void bitmap_complement(unsigned long *dst, const unsigned long *src, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = ~src[k]); }
/* dst = (old & ~mask) | (new & mask), whole words (v5.7+). */
static inline void bitmap_replace(unsigned long *dst, const unsigned long *old, const unsigned long *new_, const unsigned long *mask, unsigned int nbits)
{ KSHIM_EACH_WORD(nbits, dst[k] = (old[k] & ~mask[k]) | (new_[k] & mask[k])); }

/* The masked binary ops: the last word is masked, the result is "any set". */
#define KSHIM_BITMAP_MASKED(dst, nbits, EXPR) ({ \
	unsigned int k, __lim = (nbits) / BITS_PER_LONG; \
	unsigned long __any = 0; \
	for (k = 0; k < __lim; k++) __any |= ((dst)[k] = (EXPR)); \
	if ((nbits) % BITS_PER_LONG) __any |= ((dst)[k] = (EXPR) & BITMAP_LAST_WORD_MASK(nbits)); \
	__any != 0; })
static inline bool bitmap_and(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_MASKED(dst, nbits, b1[k] & b2[k]); }
static inline bool bitmap_andnot(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_MASKED(dst, nbits, b1[k] & ~b2[k]); }

/* Queries over the nbits bits: true when no word k has EXPR != 0. */
#define KSHIM_BITMAP_NONE(nbits, EXPR) ({ \
	unsigned int k, __lim = (nbits) / BITS_PER_LONG; \
	bool __none = true; \
	for (k = 0; k < __lim && __none; k++) __none = !(EXPR); \
	if (__none && (nbits) % BITS_PER_LONG) __none = !((EXPR) & BITMAP_LAST_WORD_MASK(nbits)); \
	__none; })
#define KSHIM_BITMAP_COUNT(nbits, EXPR) ({ \
	unsigned int k, __lim = (nbits) / BITS_PER_LONG, __w = 0; \
	for (k = 0; k < __lim; k++) __w += (unsigned int)hweight_long(EXPR); \
	if ((nbits) % BITS_PER_LONG) __w += (unsigned int)hweight_long((EXPR) & BITMAP_LAST_WORD_MASK(nbits)); \
	__w; })
static inline bool bitmap_equal(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_NONE(nbits, b1[k] ^ b2[k]); }
#define __bitmap_equal bitmap_equal
/* (b1 | b2) == b3 on the nbits bits (v5.6+). */
static inline bool bitmap_or_equal(const unsigned long *b1, const unsigned long *b2, const unsigned long *b3, unsigned int nbits)
{ return KSHIM_BITMAP_NONE(nbits, (b1[k] | b2[k]) ^ b3[k]); }
static inline bool bitmap_intersects(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return !KSHIM_BITMAP_NONE(nbits, b1[k] & b2[k]); }
static inline bool bitmap_subset(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_NONE(nbits, b1[k] & ~b2[k]); }
static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{ return KSHIM_BITMAP_NONE(nbits, src[k]); }
static inline bool bitmap_full(const unsigned long *src, unsigned int nbits)
{ return KSHIM_BITMAP_NONE(nbits, ~src[k]); }
static inline unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{ return KSHIM_BITMAP_COUNT(nbits, src[k]); }
#define __bitmap_weight bitmap_weight
/* bitmap_weight_and() (v6.2+), bitmap_weight_andnot() (v6.6+). */
static inline unsigned long bitmap_weight_and(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_COUNT(nbits, b1[k] & b2[k]); }
static inline unsigned long bitmap_weight_andnot(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return KSHIM_BITMAP_COUNT(nbits, b1[k] & ~b2[k]); }

/* bitmap_set(map, start, len) / bitmap_clear(): the bits [start, start+len). */
static inline void __bitmap_set(unsigned long *map, unsigned int start, int len)
{
	unsigned long end = (unsigned long)start + (unsigned long)(len > 0 ? len : 0), i = start;

	for (; i < end && i % BITS_PER_LONG; i++) __set_bit(i, map);
	for (; i + BITS_PER_LONG <= end; i += BITS_PER_LONG) map[BIT_WORD(i)] = ~0UL;
	for (; i < end; i++) __set_bit(i, map);
}
static inline void __bitmap_clear(unsigned long *map, unsigned int start, int len)
{
	unsigned long end = (unsigned long)start + (unsigned long)(len > 0 ? len : 0), i = start;

	for (; i < end && i % BITS_PER_LONG; i++) __clear_bit(i, map);
	for (; i + BITS_PER_LONG <= end; i += BITS_PER_LONG) map[BIT_WORD(i)] = 0;
	for (; i < end; i++) __clear_bit(i, map);
}
static inline void bitmap_set(unsigned long *map, unsigned int start, unsigned int nbits)
{ __bitmap_set(map, start, (int)nbits); }
static inline void bitmap_clear(unsigned long *map, unsigned int start, unsigned int nbits)
{ __bitmap_clear(map, start, (int)nbits); }

/* dst = src >> n (<< n) on nbits bits, word by word; dst may be src. The
 * bits past nbits of the source's last word are not shifted in. O(nbits/64). */
static inline unsigned long kshim_src_word(const unsigned long *src, unsigned long k, unsigned int nbits)
{
	unsigned long lim = BITS_TO_LONGS(nbits);

	if (k >= lim)
		return 0;
	return k == lim - 1 && nbits % BITS_PER_LONG ? src[k] & BITMAP_LAST_WORD_MASK(nbits) : src[k];
}
static inline void bitmap_shift_right(unsigned long *dst, const unsigned long *src, unsigned int n, unsigned int nbits)
{
	unsigned long k, lim = BITS_TO_LONGS(nbits), off = n / BITS_PER_LONG, rem = n % BITS_PER_LONG;

	for (k = 0; k < lim; k++) {
		unsigned long w = kshim_src_word(src, k + off, nbits) >> rem;
		if (rem)
			w |= kshim_src_word(src, k + off + 1, nbits) << (BITS_PER_LONG - rem);
		dst[k] = w;
	}
}
static inline void bitmap_shift_left(unsigned long *dst, const unsigned long *src, unsigned int n, unsigned int nbits)
{
	unsigned long k, lim = BITS_TO_LONGS(nbits), off = n / BITS_PER_LONG, rem = n % BITS_PER_LONG;

	for (k = lim; k-- > 0;) {
		unsigned long w = k >= off ? kshim_src_word(src, k - off, nbits) << rem : 0;
		if (rem && k >= off + 1)
			w |= kshim_src_word(src, k - off - 1, nbits) >> (BITS_PER_LONG - rem);
		dst[k] = w;
	}
	if (nbits % BITS_PER_LONG)
		dst[lim - 1] &= BITMAP_LAST_WORD_MASK(nbits);
}
#define __bitmap_shift_right bitmap_shift_right
#define __bitmap_shift_left bitmap_shift_left

/* 8-bit values at a multiple of 8 (v5.4+). */
static inline unsigned long bitmap_get_value8(const unsigned long *map, unsigned long start)
{ return (map[BIT_WORD(start)] >> (start % BITS_PER_LONG)) & 0xffUL; }
static inline void bitmap_set_value8(unsigned long *map, unsigned long value, unsigned long start)
{
	map[BIT_WORD(start)] &= ~(0xffUL << (start % BITS_PER_LONG));
	map[BIT_WORD(start)] |= (value & 0xffUL) << (start % BITS_PER_LONG);
}

/* u32[]/u64[] <-> bitmap: nbits bits; the tail past nbits is cleared in the
 * last word (element) written, nothing past it is written. */
static inline void bitmap_from_arr32(unsigned long *bitmap, const u32 *buf, unsigned int nbits)
{
	unsigned int i, halves = (nbits + 31) / 32;

	for (i = 0; i < halves; i++) {
		if (i % 2 == 0) bitmap[i / 2] = buf[i];
		else bitmap[i / 2] |= (unsigned long)buf[i] << 32;
	}
	if (nbits % BITS_PER_LONG) bitmap[(halves - 1) / 2] &= BITMAP_LAST_WORD_MASK(nbits);
}
static inline void bitmap_to_arr32(u32 *buf, const unsigned long *bitmap, unsigned int nbits)
{
	unsigned int i, halves = (nbits + 31) / 32;

	for (i = 0; i < halves; i++) buf[i] = (u32)(bitmap[i / 2] >> (32 * (i % 2)));
	if (nbits % 32) buf[halves - 1] &= 0xffffffffu >> (-nbits & 31);
}
static inline void bitmap_from_arr64(unsigned long *bitmap, const u64 *buf, unsigned int nbits)
{ bitmap_copy_clear_tail(bitmap, (const unsigned long *)buf, nbits); }
static inline void bitmap_to_arr64(u64 *buf, const unsigned long *bitmap, unsigned int nbits)
{ bitmap_copy_clear_tail((unsigned long *)buf, bitmap, nbits); }
static inline void bitmap_from_u64(unsigned long *dst, u64 mask) { dst[0] = (unsigned long)mask; }

/* Allocation (v4.19+): a whole number of words. */
static inline unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags)
{ (void)flags; return (unsigned long *)kshim_alloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), 0); }
static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags)
{ (void)flags; return (unsigned long *)kshim_alloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), 1); }
#define bitmap_alloc_node(nbits, flags, node) bitmap_alloc(nbits, flags)
#define bitmap_zalloc_node(nbits, flags, node) bitmap_zalloc(nbits, flags)
static inline void bitmap_free(const unsigned long *bitmap) { kfree(bitmap); }

/* lib/bitmap.c, out of line (kshim/runtime/bitmap.c). */
void bitmap_cut(unsigned long *dst, const unsigned long *src, unsigned int first, unsigned int cut, unsigned int nbits);
unsigned long bitmap_find_next_zero_area_off(unsigned long *map, unsigned long size, unsigned long start,
					     unsigned int nr, unsigned long align_mask, unsigned long align_offset);
static inline unsigned long bitmap_find_next_zero_area(unsigned long *map, unsigned long size, unsigned long start,
						       unsigned int nr, unsigned long align_mask)
{ return bitmap_find_next_zero_area_off(map, size, start, nr, align_mask, 0); }
int bitmap_parse(const char *buf, unsigned int buflen, unsigned long *maskp, int nmaskbits);
int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);
int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp, int nmaskbits);
int bitmap_print_bitmask_to_buf(char *buf, const unsigned long *maskp, int nmaskbits, long long off, size_t count);
int bitmap_print_list_to_buf(char *buf, const unsigned long *maskp, int nmaskbits, long long off, size_t count);
/* "%*pb" / "%*pbl" of vsprintf.c: writes at most size - 1 characters and a
 * NUL (when size > 0); returns the length of the whole text. */
int kshim_bitmap_string(char *buf, size_t size, const unsigned long *maskp, int nbits, bool list);

#endif /* KSHIM_BITMAP_H */
