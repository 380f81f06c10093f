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
#include "readlimit_ymm.h"

uint64_t settle_read_limit_avx2(const void *buf, size_t len, uint64_t passes)
{
	if (len >= settle_read_limit_widths()->stream_min)
		return settle_read_limit_sse2(buf, len, passes);
	return settle_rl_ymm_read(buf, len, passes);
}
