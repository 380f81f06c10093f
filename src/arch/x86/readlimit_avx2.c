/*
 * readlimit_avx2.c - the read-limit kernel with 32-byte loads (the loop
 * of readlimit_ymm.h); see readlimit.h. Compiled with -mavx2
 * (arch.mk: *_avx2.c); called only when AVX2 and the OS's AVX state are
 * usable (dispatch_readlimit.c). From the CPU's stream_min bytes on
 * (AMD family 19h: 64 MiB) it hands the buffer to the sse2 kernel
 * (readlimit.h). The head up to 32-byte alignment and the tail are read
 * with scalar loads inline in every pass (readlimit_span.h). The split
 * of the buffer is worked out once per call; the accumulators run on
 * across the passes and are added up once, at the end.
 */
#include "prim/readlimit.h"
#include "prim/readlimit_span.h"
#include "readlimit_ymm.h"

uint64_t settle_read_limit_avx2(const void *buf, size_t len, uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 31);
	size_t n, vecs, tail;
	__m256i a[4];
	uint64_t s = 0;
	struct settle_rl_span hs, ts;

	if (len >= settle_read_limit_widths()->stream_min)
		return settle_read_limit_sse2(buf, len, passes);

	a[0] = a[1] = a[2] = a[3] = _mm256_setzero_si256();
	if (head > len)
		head = len;
	n = (len - head) / 256;
	vecs = (len - head) % 256 / 32;
	tail = (len - head) % 32;
	hs = settle_rl_span_plan(buf, head, 0, len - head);
	ts = settle_rl_span_plan((const unsigned char *)buf + len - tail,
				 tail, len - tail, 0);
	if (!head && !vecs && !tail) {
		/* whole steps only: nothing else in a pass */
		settle_rl_ymm_passes(buf, n, passes, a);
		passes = 0;
	}
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head)
			s += settle_rl_span_read(p, &hs);
		p += head;
		settle_rl_ymm_steps(p, n, a);
		p += n * 256;
		settle_rl_ymm_rest(p, vecs, a);
		p += vecs * 32;
		if (tail)
			s += settle_rl_span_read(p, &ts);
	}
	return s + settle_rl_ymm_sum(a);
}
