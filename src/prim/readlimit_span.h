/*
 * readlimit_span.h - one pass of the read limit over a span of bytes, as
 * inline code (private to the read-limit kernels; see readlimit.h).
 *
 * The vector kernels read their edges (the head up to their vector
 * alignment, the tail after their last whole vector) and the generic
 * kernel its head and the rest after its last step with this code,
 * inline in every pass: a pass then calls nothing. How an edge is read
 * (struct settle_rl_span) is worked out once per call. With a call to
 * the generic kernel for each edge, gcc 12 spilled the four vector
 * accumulators, ran VZEROUPPER and reloaded them around the call, in
 * every pass; on the AMD Zen 4 guest (`settle run popcount --variant
 * read-limit --quick`, 2026-12-04) the avx2 kernel then read 300 B in
 * 10.2 ns and 320 B in 1.8 ns.
 *
 * A partial word at either end of a span is read with one 8-byte load
 * where those 8 bytes lie in the buffer, the bytes of the load outside
 * the span shifted out; else (a buffer under 8 bytes, or a span inside
 * one word) with a 4-, a 2- and a 1-byte load. No byte outside the
 * buffer is read.
 */
#ifndef SETTLE_READLIMIT_SPAN_H
#define SETTLE_READLIMIT_SPAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Each of these is inlined into the pass loop that uses it: a call per
 * edge in every pass is what this header is for avoiding. */
#define SETTLE_RL_INLINE static inline __attribute__((always_inline))

/* The c bytes at p (c = 1, 2, 4 or 8) as a host-order integer. */
SETTLE_RL_INLINE uint64_t settle_rl_load(const unsigned char *p, unsigned c)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (c) {
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	default:
		return *p;
	}
}

/*
 * The c bytes at p (c = 1, 2 or 4), which lie at byte j (j + c <= 8) of
 * their aligned word, as that word with its other bytes zero.
 */
SETTLE_RL_INLINE uint64_t settle_rl_piece(const unsigned char *p, unsigned c,
				       unsigned j)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return settle_rl_load(p, c) << (8 * (8 - j - c));
#else
	return settle_rl_load(p, c) << (8 * j);
#endif
}

/*
 * The k bytes at p (0 < k < 8, all in one aligned word) as that word
 * with its other bytes zero: a 4-, a 2- and a 1-byte load, as k has
 * those bits.
 */
SETTLE_RL_INLINE uint64_t settle_rl_part_word(const unsigned char *p, size_t k)
{
	unsigned j = (unsigned)((uintptr_t)p & 7);
	uint64_t w = 0;

	if (k & 4) {
		w += settle_rl_piece(p, 4, j);
		p += 4;
		j += 4;
	}
	if (k & 2) {
		w += settle_rl_piece(p, 2, j);
		p += 2;
		j += 2;
	}
	if (k & 1)
		w += settle_rl_piece(p, 1, j);
	return w;
}

/*
 * The k bytes at p (0 < k < 8) that end at a word boundary, read with
 * one 8-byte load at p: the 8 bytes at p must lie in the buffer. The
 * bytes after the k are shifted out.
 */
SETTLE_RL_INLINE uint64_t settle_rl_lead_wide(const unsigned char *p, size_t k)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return settle_rl_load(p, 8) >> (8 * (8 - k));
#else
	return settle_rl_load(p, 8) << (8 * (8 - k));
#endif
}

/*
 * The k bytes at p (0 < k < 8, p on a word boundary), read with one
 * 8-byte load that ends at p + k: the 8 bytes before p + k must lie in
 * the buffer. The bytes before p are shifted out.
 */
SETTLE_RL_INLINE uint64_t settle_rl_trail_wide(const unsigned char *p, size_t k)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return settle_rl_load(p + k - 8, 8) << (8 * (8 - k));
#else
	return settle_rl_load(p + k - 8, 8) >> (8 * (8 - k));
#endif
}

/*
 * How a span of a buffer is read, worked out once per call and used in
 * every pass (settle_rl_span_read()): lead bytes up to the first word
 * boundary, whole words, trail bytes after the last boundary. A lead or
 * trail is read with one 8-byte load (settle_rl_lead_wide(),
 * settle_rl_trail_wide()) where the 8 bytes lie in the buffer, else with
 * up to three (settle_rl_part_word()).
 */
struct settle_rl_span {
	size_t lead, words, trail; /* bytes, words, bytes */
	int lead_wide, trail_wide;
};

/*
 * The plan for the len bytes at p, with before bytes of the buffer just
 * before p and after bytes just after p + len (0 when p, or p + len, is
 * the buffer's edge).
 */
static inline struct settle_rl_span
settle_rl_span_plan(const unsigned char *p, size_t len, size_t before,
		    size_t after)
{
	size_t to_word = (size_t)(-(uintptr_t)p & 7);
	struct settle_rl_span s;

	s.lead = to_word < len ? to_word : len;
	/* a lead that stops short of the boundary is all of a short span */
	s.lead_wide = s.lead && s.lead == to_word && len + after >= 8;
	s.words = (len - s.lead) / 8;
	s.trail = (len - s.lead) % 8;
	s.trail_wide = s.trail && before + len >= 8;
	return s;
}

/* The two edges of a kernel's buffer, planned once per call. */
struct settle_rl_edges {
	struct settle_rl_span head, tail;
};

/*
 * The edges of the len bytes at buf: its first head bytes and its last
 * tail bytes (head + tail <= len), each planned with the rest of the
 * buffer beside it.
 */
static inline struct settle_rl_edges
settle_rl_edges_plan(const void *buf, size_t len, size_t head, size_t tail)
{
	const unsigned char *b = buf;
	struct settle_rl_edges e;

	e.head = settle_rl_span_plan(b, head, 0, len - head);
	e.tail = settle_rl_span_plan(b + len - tail, tail, len - tail, 0);
	return e;
}

/*
 * One pass over the bytes at p that plan s was made for: their
 * aligned-word sum, modulo 2^64 (readlimit.h).
 */
SETTLE_RL_INLINE uint64_t settle_rl_span_read(const unsigned char *p,
					     const struct settle_rl_span *s)
{
	uint64_t v = 0;

	if (s->lead) {
		v = s->lead_wide ? settle_rl_lead_wide(p, s->lead)
				 : settle_rl_part_word(p, s->lead);
		p += s->lead;
	}
	for (size_t i = s->words; i; i--, p += 8)
		v += settle_rl_load(p, 8);
	if (s->trail)
		v += s->trail_wide ? settle_rl_trail_wide(p, s->trail)
				   : settle_rl_part_word(p, s->trail);
	return v;
}

#endif
