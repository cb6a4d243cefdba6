/* SPDX-License-Identifier: MIT */
/*
 * kshim runtime: the out-of-line part of the bitmap and cpumask API
 * (lib/bitmap.c, lib/cpumask.c, vsprintf.c's "%*pb"/"%*pbl"), written for
 * diffsched from the kernel's documented contracts (v6.1 lib/bitmap.c's
 * kernel-doc; the formats and error codes are the ones lib/test_bitmap.c
 * checks). Linked into every candidate with runtime.c.
 */
#include <kshim/kshim.h>

/* ---- bitmap_cut(): bits [first, first + cut) removed, the rest moved down;
 * the bits below first are kept, the top cut bits of the words become 0.
 * dst may overlap src. O(nbits). */
void bitmap_cut(unsigned long *dst, const unsigned long *src, unsigned int first, unsigned int cut,
		unsigned int nbits)
{
	unsigned long len = BITS_TO_LONGS(nbits) * BITS_PER_LONG, i;

	memmove(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
	for (i = first; i < len; i++) {
		bool b = (unsigned long)cut < len - i && test_bit(i + cut, dst);
		if (b)
			__set_bit(i, dst);
		else
			__clear_bit(i, dst);
	}
}

/* The first index >= start of nr clear bits below size, the index aligned so
 * that (index + align_offset) & align_mask == 0; a value > size if none. */
unsigned long bitmap_find_next_zero_area_off(unsigned long *map, unsigned long size, unsigned long start,
					     unsigned int nr, unsigned long align_mask, unsigned long align_offset)
{
	for (;;) {
		unsigned long index = find_next_zero_bit(map, size, start), end, i;

		index = ((index + align_offset + align_mask) & ~align_mask) - align_offset;
		end = index + nr;
		if (end > size)
			return end;
		i = find_next_bit(map, end, index);
		if (i >= end)
			return index;
		start = i + 1;
	}
}

/* ---- parsing ---------------------------------------------------------------- */
static bool kshim_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool kshim_sep(char c) { return kshim_space(c) || c == ','; }
static bool kshim_eos(char c) { return c == '\0' || c == '\n'; }
static int kshim_hex(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A number of a list region: 'N' is last; else decimal digits. Returns the
 * text after it, or NULL with *err set (-EINVAL none, -EOVERFLOW too big). */
static const char *kshim_list_num(const char *s, unsigned int *num, unsigned int last, int *err)
{
	unsigned long long v = 0;
	bool overflow = false;
	const char *p = s;

	if (*s == 'N') {
		*num = last;
		return s + 1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');
		if (v > (~0ULL - d) / 10)
			overflow = true;
		v = v * 10 + d;
	}
	if (p == s) {
		*err = -EINVAL;
		return NULL;
	}
	if (overflow || v > 0xffffffffULL) {
		*err = -EOVERFLOW;
		return NULL;
	}
	*num = (unsigned int)v;
	return p;
}

struct kshim_region { unsigned int start, end, used, group; };

/* One region "A[-B][:U/G]" or "all[:U/G]" at s; returns the text after it
 * (NULL with *err on a syntax error). */
static const char *kshim_list_region(const char *s, struct kshim_region *r, unsigned int last, int *err)
{
	bool all = (s[0] | 0x20) == 'a' && (s[1] | 0x20) == 'l' && (s[2] | 0x20) == 'l';

	if (all) {
		r->start = 0;
		r->end = last;
		s += 3;
	} else {
		if (!(s = kshim_list_num(s, &r->start, last, err)))
			return NULL;
		r->end = r->start;
		if (kshim_sep(*s) || kshim_eos(*s))
			goto no_pattern;
		if (*s != '-') {
			*err = -EINVAL;
			return NULL;
		}
		if (!(s = kshim_list_num(s + 1, &r->end, last, err)))
			return NULL;
	}
	if (kshim_sep(*s) || kshim_eos(*s))
		goto no_pattern;
	if (*s != ':' || !(s = kshim_list_num(s + 1, &r->used, last, err)))
		goto bad;
	if (*s != '/' || !(s = kshim_list_num(s + 1, &r->group, last, err)))
		goto bad;
	return s;
bad:
	if (s)
		*err = -EINVAL;
	return NULL;
no_pattern:
	r->used = r->group = r->end + 1;
	return s;
}

int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits)
{
	unsigned int nbits = (unsigned int)nmaskbits, last = nbits - 1;

	bitmap_zero(maskp, nbits);
	for (;;) {
		struct kshim_region r;
		int err = 0;
		unsigned int at;

		while (kshim_sep(*buf))
			buf++;
		if (kshim_eos(*buf))
			return 0;
		if (!(buf = kshim_list_region(buf, &r, last, &err)))
			return err;
		if (r.start > r.end || r.group == 0 || r.used > r.group)
			return -EINVAL;
		if (r.end >= nbits)
			return -ERANGE;
		for (at = r.start; at <= r.end; at += r.group) {
			bitmap_set(maskp, at, min(r.end - at + 1, r.used));
			if (at > ~0U - r.group)
				break;
		}
	}
}

/* bitmap_parse(): comma-separated 32-bit hex chunks, the last one lowest;
 * buflen bytes at most, ending early at NUL or newline. */
int bitmap_parse(const char *buf, unsigned int buflen, unsigned long *maskp, int nmaskbits)
{
	unsigned int nbits = (unsigned int)nmaskbits, chunks = BITS_TO_U32(nbits), used = 0;
	u32 *words = (u32 *)maskp;
	const char *end = buf;

	while ((unsigned int)(end - buf) < buflen && !kshim_eos(*end))
		end++;
	for (;;) {
		u32 v = 0;
		int shift;

		while (end > buf && kshim_sep(end[-1]))
			end--;
		if (end == buf)
			break;
		if (used == chunks)
			return -EOVERFLOW;
		for (shift = 0; shift < 32; shift += 4) {
			int d = kshim_hex(*--end);
			if (d < 0)
				return -EINVAL;
			v |= (u32)d << shift;
			if (end == buf || kshim_sep(end[-1]))
				break;
		}
		/* Eight digits: a ninth is an overflow; any other character
		 * ends the chunk and is passed over, as in the kernel. */
		if (shift == 32 && kshim_hex(*--end) >= 0)
			return -EOVERFLOW;
		words[used++] = v;
	}
	if (used * 32 < nbits) {
		bitmap_clear(maskp, used * 32, nbits - used * 32);
		return 0;
	}
	return find_next_bit(maskp, used * 32, nbits) != used * 32 ? -EOVERFLOW : 0;
}

/* ---- printing ---------------------------------------------------------------- */
struct kshim_out { char *buf; size_t size, len; };

static void kshim_put(struct kshim_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}
static void kshim_put_num(struct kshim_out *o, unsigned long v, unsigned int base, int width)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (width-- > n)
		kshim_put(o, '0');
	while (n--)
		kshim_put(o, tmp[n]);
}

int kshim_bitmap_string(char *buf, size_t size, const unsigned long *maskp, int nbits, bool list)
{
	struct kshim_out o = { buf, size, 0 };
	unsigned long n = nbits > 0 ? (unsigned long)nbits : 0;

	if (list) {
		unsigned long b, e;
		bool first = true;

		for_each_set_bitrange(b, e, maskp, n) {
			if (!first)
				kshim_put(&o, ',');
			first = false;
			kshim_put_num(&o, b, 10, 0);
			if (e > b + 1) {
				kshim_put(&o, '-');
				kshim_put_num(&o, e - 1, 10, 0);
			}
		}
	} else {
		/* 32-bit chunks from the top, the first as wide as its bits need. */
		unsigned long chunk = n % 32 ? n % 32 : 32;
		long at = (long)((n + 31) / 32 * 32) - 32;

		for (; at >= 0; at -= 32, chunk = 32) {
			unsigned long v = (maskp[at / BITS_PER_LONG] >> (at % BITS_PER_LONG)) &
					  ((1UL << chunk) - 1);
			if (o.len)
				kshim_put(&o, ',');
			kshim_put_num(&o, v, 16, (int)((chunk + 3) / 4));
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

/* scnprintf(buf, size, "%*pb[l]\n", ...): the characters written, without NUL. */
static int kshim_bitmap_line(char *buf, size_t size, const unsigned long *maskp, int nbits, bool list)
{
	int len;

	if (!size)
		return 0;
	len = kshim_bitmap_string(buf, size, maskp, nbits, list);
	if ((size_t)len + 1 < size) {
		buf[len++] = '\n';
		buf[len] = '\0';
	}
	return (size_t)len < size ? len : (int)size - 1;
}

int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp, int nmaskbits)
{
	size_t room = PAGE_SIZE - ((unsigned long)buf & (PAGE_SIZE - 1));

	return kshim_bitmap_line(buf, room, maskp, nmaskbits, list);
}

/* The text "%*pb[l]\n" and its NUL, read from offset off into count bytes
 * of buf (memory_read_from_buffer()): the bytes copied, or -errno. */
static int kshim_print_to_buf(bool list, char *buf, const unsigned long *maskp, int nbits, loff_t off,
			      size_t count)
{
	size_t len = (size_t)kshim_bitmap_string(NULL, 0, maskp, nbits, list) + 2, n;
	char *text;

	if (off < 0)
		return -EINVAL;
	if ((size_t)off >= len)
		return 0;
	text = kshim_alloc(1, len, 0);
	if (!text)
		return -ENOMEM;
	kshim_bitmap_string(text, len, maskp, nbits, list);
	text[len - 2] = '\n';
	text[len - 1] = '\0';
	n = len - (size_t)off < count ? len - (size_t)off : count;
	memcpy(buf, text + off, n);
	kfree(text);
	return (int)n;
}
int bitmap_print_bitmask_to_buf(char *buf, const unsigned long *maskp, int nmaskbits, loff_t off, size_t count)
{ return kshim_print_to_buf(false, buf, maskp, nmaskbits, off, count); }
int bitmap_print_list_to_buf(char *buf, const unsigned long *maskp, int nmaskbits, loff_t off, size_t count)
{ return kshim_print_to_buf(true, buf, maskp, nmaskbits, off, count); }

/* ---- lib/cpumask.c ------------------------------------------------------------ */
/* cpumask_of(): row 1 + cpu % 64 of this table has bit cpu % 64 in its word
 * 0; stepping back cpu / 64 words puts that bit at cpu, and every other
 * word read (the earlier rows' zero words, row 0) is zero. */
static const unsigned long kshim_cpu_bit[BITS_PER_LONG + 1][BITS_TO_LONGS(NR_CPUS)] = {
#define KSHIM_ROW(n) [1 + (n)][0] = 1UL << (n)
#define KSHIM_ROW8(n) KSHIM_ROW(n), KSHIM_ROW(n + 1), KSHIM_ROW(n + 2), KSHIM_ROW(n + 3), \
	KSHIM_ROW(n + 4), KSHIM_ROW(n + 5), KSHIM_ROW(n + 6), KSHIM_ROW(n + 7)
	KSHIM_ROW8(0), KSHIM_ROW8(8), KSHIM_ROW8(16), KSHIM_ROW8(24),
	KSHIM_ROW8(32), KSHIM_ROW8(40), KSHIM_ROW8(48), KSHIM_ROW8(56),
};

const struct cpumask *kshim_cpumask_of(unsigned int cpu)
{
	const unsigned long *row = kshim_cpu_bit[1 + cpu % BITS_PER_LONG];

	return (const struct cpumask *)(row - cpu / BITS_PER_LONG);
}

/* Reset with every run (kshim_reset_runtime()). */
unsigned int kshim_distribute_prev;

unsigned int cpumask_any_distribute(const struct cpumask *m)
{
	unsigned int next = (unsigned int)find_next_bit_wrap(cpumask_bits(m), nr_cpumask_bits,
							     kshim_distribute_prev + 1);
	if (next < nr_cpu_ids)
		kshim_distribute_prev = next;
	return next;
}

unsigned int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int next = (unsigned int)find_next_and_bit_wrap(cpumask_bits(a), cpumask_bits(b),
								 nr_cpumask_bits, kshim_distribute_prev + 1);
	if (next < nr_cpu_ids)
		kshim_distribute_prev = next;
	return next;
}
