/*
 * popcount_sve.c - population count with SVE (Arm Architecture Reference
 * Manual for A-profile, SVE: CNT "count non-zero bits" on 64-bit
 * elements, UADDV "unsigned add reduction", WHILELT); compiled for SVE
 * (arch.mk: *_sve.c) and called only when HWCAP_SVE is set (dispatch.c).
 *
 * Vector-length agnostic: four whole vectors per step (svcntb() bytes
 * each, 16 to 256), loaded as bytes (no alignment needed) and counted as
 * 64-bit lanes into four accumulators; then whole vectors one at a time;
 * then the last bytes with a WHILELT predicate, whose inactive lanes load
 * as zero and are not read, counted per byte.
 */
#include <arm_sve.h>

#include "prim/popcount_kernels.h"

static inline svuint64_t cnt(svbool_t all, const unsigned char *p)
{
	return svcnt_u64_x(all, svreinterpret_u64_u8(svld1_u8(svptrue_b8(), p)));
}

uint64_t settle_popcount_kernel_sve(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	const size_t vl = svcntb();
	const svbool_t all = svptrue_b64();
	svuint64_t a = svdup_n_u64(0), b = a, c = a, d = a;
	uint64_t n;
	size_t i = 0;

	for (; len - i >= 4 * vl; i += 4 * vl) {
		a = svadd_u64_x(all, a, cnt(all, p + i));
		b = svadd_u64_x(all, b, cnt(all, p + i + vl));
		c = svadd_u64_x(all, c, cnt(all, p + i + 2 * vl));
		d = svadd_u64_x(all, d, cnt(all, p + i + 3 * vl));
	}
	for (; len - i >= vl; i += vl)
		a = svadd_u64_x(all, a, cnt(all, p + i));
	a = svadd_u64_x(all, svadd_u64_x(all, a, b), svadd_u64_x(all, c, d));
	n = svaddv_u64(all, a);
	if (i < len) {
		svbool_t pg = svwhilelt_b8_u64(i, len);
		svuint8_t v = svld1_u8(pg, p + i);

		n += svaddv_u8(pg, svcnt_u8_z(pg, v));
	}
	return n;
}
