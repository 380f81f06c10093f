/*
 * popcount_neon.c - population count with AdvSIMD (Arm Architecture
 * Reference Manual for A-profile: CNT "population count per byte",
 * UADDLP "unsigned add long pairwise", UADALP "unsigned add and
 * accumulate long pairwise"); called when HWCAP_ASIMD is set (dispatch.c).
 * AdvSIMD is part of the base architecture, so no flags are needed.
 *
 * Each 64-byte block is four 16-byte loads, four CNT and three adds into
 * one vector of byte counts (at most 32 per byte); up to BLOCKS blocks are
 * summed in an accumulator of bytes (at most 7 x 32 = 224, no carry),
 * which is then widened by pairwise adds into 16-, 32- and 64-bit lanes:
 * three instructions per 448 bytes. Then single 16-byte vectors, and the
 * last len % 16 bytes with SWAR.
 */
#include <arm_neon.h>

#include "prim/popcount_kernels.h"

#define BLOCKS 7 /* 7 blocks x 4 vectors x 8 bits = 224 < 256 */

static inline uint8x16_t cnt16(const unsigned char *p)
{
	return vcntq_u8(vld1q_u8(p));
}

uint64_t settle_popcount_kernel_neon(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64x2_t total = vdupq_n_u64(0);
	uint64_t n = 0;

	while (len >= 64) {
		size_t blocks = len / 64 < BLOCKS ? len / 64 : BLOCKS;
		uint8x16_t acc = vdupq_n_u8(0);

		for (size_t i = 0; i < blocks; i++, p += 64) {
			uint8x16_t a = vaddq_u8(cnt16(p), cnt16(p + 16));
			uint8x16_t b = vaddq_u8(cnt16(p + 32), cnt16(p + 48));

			acc = vaddq_u8(acc, vaddq_u8(a, b));
		}
		total = vpadalq_u32(total, vpaddlq_u16(vpaddlq_u8(acc)));
		len -= blocks * 64;
	}
	for (; len >= 16; p += 16, len -= 16)
		total = vpadalq_u32(total, vpaddlq_u16(vpaddlq_u8(cnt16(p))));
	for (; len >= 8; p += 8, len -= 8)
		n += settle_swar64(settle_load64(p));
	return n + vaddvq_u64(total) + settle_swar64(settle_tail_word(p, len));
}
