/*
 * bswap_kernels.h - the byte-swap kernels behind settle_bswap16/32/64
 * (private to settle and its tests).
 *
 * Every kernel has the contract of settle_bswap16/32/64
 * (include/settle_byteorder.h): it reverses the bytes of each of n
 * elements (n counts elements, not bytes) read at src and writes them to
 * dst; any alignment of dst and of src, each on its own; dst == src swaps
 * in place; no other overlap. Each ISA's kernels live in their own object
 * (src/arch/x86/bswap_ssse3.c, bswap_avx2.c, bswap_avx512.c), compiled for
 * that ISA only (see the Makefile); the caller guarantees that the CPU and
 * the OS support it (settle_bswap_usable(), src/prim/dispatch.h).
 *
 * The vector kernels write a copy of more than settle_bswap_nt_bytes()
 * bytes with non-temporal stores (ordinary ones would only evict the
 * cache) when dst is a multiple of the element size, so that an element
 * boundary of dst reaches 64-byte alignment; in place (the line was just
 * read into the cache) and otherwise with ordinary stores. The AVX2 and
 * AVX-512 kernels hand large buffers to the SSSE3 kernel, and the
 * AVX-512 kernel some copies to the AVX2 one (struct
 * settle_bswap_copy_rule below).
 *
 * The helper below is static inline, so each file compiles it with its own
 * flags; it uses no instruction beyond the baseline (x86-64 BSWAP, or ROL
 * for 16 bits; AArch64 REV, REV16).
 */
#ifndef SETTLE_BSWAP_KERNELS_H
#define SETTLE_BSWAP_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "settle_byteorder.h"

/* One bswap per element, memcpy loads and stores (src/prim/bswap.c). */
void settle_bswap16_scalar(void *dst, const void *src, size_t n);
void settle_bswap32_scalar(void *dst, const void *src, size_t n);
void settle_bswap64_scalar(void *dst, const void *src, size_t n);

/* PSHUFB, 16 bytes per instruction (src/arch/x86/bswap_ssse3.c); needs SSSE3. */
void settle_bswap16_ssse3(void *dst, const void *src, size_t n);
void settle_bswap32_ssse3(void *dst, const void *src, size_t n);
void settle_bswap64_ssse3(void *dst, const void *src, size_t n);

/* VPSHUFB on 256-bit vectors (src/arch/x86/bswap_avx2.c); needs AVX and AVX2
 * with OS support for AVX state. */
void settle_bswap16_avx2(void *dst, const void *src, size_t n);
void settle_bswap32_avx2(void *dst, const void *src, size_t n);
void settle_bswap64_avx2(void *dst, const void *src, size_t n);

/* AVX-512BW VPSHUFB on 512-bit vectors, byte-masked head and tail
 * (src/arch/x86/bswap_avx512.c); needs AVX512F, BW and VL with OS support for
 * opmask and ZMM state. */
void settle_bswap16_avx512(void *dst, const void *src, size_t n);
void settle_bswap32_avx512(void *dst, const void *src, size_t n);
void settle_bswap64_avx512(void *dst, const void *src, size_t n);

/* AArch64 AdvSIMD REV16/REV32/REV64 on 128-bit vectors, STNP beyond the
 * last-level cache (src/arch/aarch64/bswap_neon.c); needs HWCAP_ASIMD. */
void settle_bswap16_neon(void *dst, const void *src, size_t n);
void settle_bswap32_neon(void *dst, const void *src, size_t n);
void settle_bswap64_neon(void *dst, const void *src, size_t n);

/*
 * The reference loops of the bswap claim ("touch"): each implementation's
 * loop with the shuffle removed, every byte stored unchanged (an empty asm
 * keeps the compiler from dropping the store). nbytes bytes from src to
 * dst, any alignment, any length; dst == src in place, otherwise no
 * overlap. They take the path their kernel would take for nbytes bytes of
 * esz-byte elements (esz 2, 4 or 8) between these addresses: the same
 * loads, unroll and stores, the same hand-over to a narrower loop (in
 * place from SETTLE_BSWAP_NARROW_INPLACE_BYTES on, copies by the copy
 * rule below), the same direction and the same non-temporal stores above
 * the threshold; where a vector kernel swaps an element at a time (heads
 * and tails), they copy a byte at a time (the scalar one moves an element
 * at a time, as its kernel). So the claim's `load-store` rows, in place
 * and for the copies, tell the cost of moving the bytes the kernel's way
 * from the cost of the swap. Each needs what its implementation needs.
 */
typedef void (*settle_bswap_touch_fn)(void *dst, const void *src,
				      size_t nbytes, size_t esz);
void settle_bswap_touch_scalar(void *dst, const void *src, size_t nbytes,
			       size_t esz);
void settle_bswap_touch_ssse3(void *dst, const void *src, size_t nbytes,
			      size_t esz);
void settle_bswap_touch_avx2(void *dst, const void *src, size_t nbytes,
			     size_t esz);
void settle_bswap_touch_avx512(void *dst, const void *src, size_t nbytes,
			       size_t esz);
void settle_bswap_touch_neon(void *dst, const void *src, size_t nbytes,
			     size_t esz);
/* The touch function of which; NULL out of range. */
settle_bswap_touch_fn settle_bswap_touch_impl_fn(enum settle_bswap_impl which);

/*
 * The AVX2 and AVX-512 kernels, and their touch loops (above), swap in
 * place with the SSSE3 loop (128-bit loads and stores) from
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES on, where the buffer streams from
 * memory: on the AMD Zen 4 KVM guest (the kernels timed side by side as
 * below, bytes per ns, 32-bit elements)
 *
 *   in place  64 MiB: ssse3 28.8-29.0, avx2 29.7-30.5, avx512 29.9
 *            128 MiB: ssse3 23.8-24.4, avx2 23.1-23.8, avx512 23.5-24.0
 *
 * and in make bench the SSSE3 kernel was 1-4 % faster at 256 MiB and
 * 1 GiB in place. Up to 64 MiB (from L1, L2 or L3) the wide loops are up
 * to twice as fast (the 128-bit loop stores 16 bytes a cycle) and are
 * kept. Between 64 and 128 MiB in place is not measured. Copies follow
 * the CPU's rule (below).
 */
#define SETTLE_BSWAP_NARROW_INPLACE_BYTES ((size_t)128 << 20)

/*
 * Where the AVX2 and AVX-512 kernels copy (dst != src) with which loop, by
 * CPU family (settle_bswap_copy_rule(); docs/primitives.md, "Byte
 * swap"). In place they run the SSSE3 loop from
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES on and their own loop below it, but
 * for the AVX-512 kernel's range ymm_inplace_to, where it runs the AVX2
 * one.
 */
struct settle_bswap_copy_rule {
	/* AVX-512 copies of zmm_end bytes or more run the AVX2 kernel */
	size_t zmm_end;
	/* AVX2 and AVX-512 copies of narrow_from bytes or more run the
	 * SSSE3 kernel (settle_bswap_ssse3_bytes()) */
	size_t narrow_from;
	/* nonzero: an AVX-512 copy at a 4K-aliasing distance goes from the
	 * end to the start (bswap_avx512.c) */
	int backward;
	/* nonzero: a non-temporal copy writes four 4 KiB stretches at once,
	 * a 64-byte line of each in turn (bswap_ssse3.c), not one stretch
	 * from start to end */
	int nt_interleave;
	/* AVX-512 swaps in place of SETTLE_BSWAP_NARROW_COPY_MIN to
	 * ymm_inplace_to bytes run the AVX2 loop (0: none do) */
	size_t ymm_inplace_to;
};

/*
 * The rule for a CPU, a pure function (tests inject its inputs): l1d, the
 * L1 data cache in bytes (0: unknown); nt_bytes, the non-temporal
 * threshold (settle_bswap_nt_bytes()); amd_19h, nonzero on AMD family 19h
 * (settle_cpu_amd_19h()); intel, nonzero on an Intel CPU
 * (settle_cpu_intel()).
 *   - nt_interleave: 1 on Intel, 0 elsewhere. On the Intel family 6
 *     model 167 guest (2026-12-03, 256 MiB 32-bit swapping copies with
 *     128-bit loads and non-temporal stores, a stand-alone claim, 3
 *     processes, 2 layouts, the other vCPU busy, time / glibc
 *     memcpy's): from start to end 1.32, two 4 KiB stretches at once
 *     1.04, four 0.96, eight 0.96 (512-bit stores from start to end:
 *     1.16). On the Zen 5 guest (AMD family 1Ah, 2026-12-05, the same
 *     kind of claim, 3 processes): from start to end 0.88 at 256 MiB
 *     and 1.01 at 1 GiB, two stretches 1.27 and 1.41, four 1.06 and
 *     1.16, eight 0.98 and 1.09 (docs/performance.md, "Non-temporal
 *     copies four pages at a time on Zen 5"). Not measured on AMD family 19h.
 *   - AMD family 19h: zmm_end = narrow_from =
 *     settle_bswap_narrow_copy_decide(l1d), backward 1, ymm_inplace_to
 *     the L1d's size (l1d, or SETTLE_BSWAP_L1D_DEFAULT where it is 0 or
 *     impossible, as below). In place, where both loops run from L1 and
 *     a 512-bit store takes the one store a cycle that a 256-bit one
 *     does, the two loops ran level, and at exactly the L1d's size the
 *     512-bit one fell behind: on the Zen 4 guest (settle run bswap, the
 *     AVX2 and AVX-512 kernels in place, 32- and 64-bit elements, 3
 *     processes, 2 layouts, 2026-12-04; best times) level within 0.3 %
 *     at 4, 12, 16, 24 and 28 KiB, 279.7-280.1 against 284.5-284.6 ns at
 *     32 KiB, and the 512-bit loop ahead at 36 KiB (317.6-317.8 against
 *     326.9-328.2 ns), as from 33 KiB in steps of 1 KiB
 *     (docs/performance.md, "In place at the L1d's size"). On the Zen 4 guest (32 KiB L1d, 1 MiB
 *     L2, 32 MiB L3, ~3.7 GHz) for copies,
 *     KVM guest (32 KiB L1d, 1 MiB L2, 32 MiB L3, ~3.7 GHz), where
 *     source and destination no longer fit in L1 the 128-bit loop was
 *     the fastest copy; bytes per ns, 32-bit elements, the library's
 *     kernels timed side by side (15 to 41 interleaved rounds, median;
 *     two or three placements of the buffers, ranges over them; a
 *     stand-alone timing loop, then settle run bswap):
 *
 *       copy      16 KiB: ssse3 58, avx2 100-116, avx512 104-113 (in L1)
 *                 20 KiB: either, by placement (58 / 99 / 99, 58 / 55 / 56)
 *                 24 KiB: ssse3 57.6, avx2 55.3-55.8, avx512 56.1-56.2
 *                 32 KiB: ssse3 57.8, avx2 55.6-55.7, avx512 55.7-56.0
 *                         (memcpy 56.6-57.2)
 *                  4 MiB: ssse3 47.5-48.1, avx2 47.2-47.3, avx512 46.4-46.9
 *
 *     and in make bench (README, "Performance") the SSSE3 kernel was 1-4 %
 *     faster than the AVX2 and AVX-512 ones at 32 KiB copies.
 *   - every other CPU: zmm_end = 9/16 of the L1d (rounded down to 64
 *     bytes; a 32 KiB one's when l1d is unknown or impossible, as below;
 *     never below SETTLE_BSWAP_NARROW_COPY_MIN), narrow_from = the
 *     larger of nt_bytes + 1 and SETTLE_BSWAP_NT_MIN_BYTES (the SSSE3
 *     kernel only from where it writes with non-temporal stores, as it
 *     does when the destination is a multiple of the element size;
 *     SIZE_MAX when nt_bytes is), backward 0. On the AMD Zen 5 guest
 *     (family 1Ah, 48 KiB L1d, 1 MiB L2; settle run bswap, 3 processes, 4
 *     layouts, 2026-12-02; speed as a fraction of memcpy's, 32-bit
 *     copies) the wide loops led the 128-bit one from 24 KiB to 512 KiB
 *     (ssse3 / avx2 / avx512 with no hand-over: 24 KiB 0.50 / 0.89 /
 *     1.11, 48 KiB 0.51 / 0.69 / 0.66, 96 KiB 0.52 / 0.74 / 0.71,
 *     256 KiB 0.53 / 0.91 / 0.90, 512 KiB 0.65 / 0.74 / 0.74) and tied
 *     from 1 to 4 MiB (0.97-1.01); the 512-bit loop led the 256-bit one up
 *     to 26 KiB (24 KiB: 196-201 against 103-104 B/ns), was level with
 *     it at 28 KiB and trailed it from 30 KiB (by 4-10 % from 32 to
 *     96 KiB; the library's kernels in a stand-alone loop, destination
 *     0, 1 and 2 KiB past the source modulo 4 KiB, then settle run
 *     bswap); and the backward copy ran at
 *     59-62 B/ns at a distance of 64 bytes where the forward one ran at
 *     84 (stand-alone loop, 32 KiB). ymm_inplace_to 0 (in place not
 *     measured against the AVX2 loop at the L1d's size there).
 * Never a zmm_end or narrow_from of 0.
 */
struct settle_bswap_copy_rule settle_bswap_copy_rule_decide(uint64_t l1d,
							    size_t nt_bytes,
							    int amd_19h,
							    int intel);

/* The rule in force, NULL until decided (read it with
 * settle_bswap_copy_rule()), and the decision (src/prim/bswap_nt.c). */
extern const struct settle_bswap_copy_rule *settle_bswap_copy_rule_ptr;
const struct settle_bswap_copy_rule *settle_bswap_copy_rule_decided(void);

/*
 * The rule the kernels follow: this machine's (its L1d from
 * sysconf(_SC_LEVEL1_DCACHE_SIZE), which glibc reads from cpuid;
 * settle_bswap_nt_bytes(); the cpuid family on x86-64, not AMD family
 * 19h elsewhere), decided at the first call, or the one that
 * settle_bswap_set_copy_rule() set. Never NULL. Inline, so that a kernel
 * pays one load for it, not a call.
 */
static inline const struct settle_bswap_copy_rule *settle_bswap_copy_rule(void)
{
	const struct settle_bswap_copy_rule *r =
		__atomic_load_n(&settle_bswap_copy_rule_ptr, __ATOMIC_ACQUIRE);

	return r ? r : settle_bswap_copy_rule_decided();
}

/* Tests: make the kernels follow *r (kept by pointer), so that every path
 * runs on any CPU; NULL goes back to this machine's. Not thread-safe
 * against kernels running at the same time. */
void settle_bswap_set_copy_rule(const struct settle_bswap_copy_rule *r);

/*
 * The hand-over size of AMD family 19h for an L1 data cache of l1d bytes
 * (0: unknown): 3/4 of it, rounded down to 64 bytes, where source and
 * destination together no longer fit (the crossover lay between 20 and
 * 24 KiB for a 32 KiB L1d above: a CPU with a larger L1d keeps the wide
 * loops longer). An l1d of 0, or outside [SETTLE_BSWAP_L1D_MIN,
 * SETTLE_BSWAP_L1D_MAX] (no such L1d exists; a hypervisor's report may
 * be wrong), is taken as SETTLE_BSWAP_L1D_DEFAULT (so: 24 KiB). Never below
 * SETTLE_BSWAP_NARROW_COPY_MIN, so that a kernel needs no decision for
 * shorter copies. Pure, for tests.
 */
#define SETTLE_BSWAP_L1D_MIN ((uint64_t)16 << 10)
#define SETTLE_BSWAP_L1D_MAX ((uint64_t)1 << 20)
#define SETTLE_BSWAP_L1D_DEFAULT ((uint64_t)32 << 10)
#define SETTLE_BSWAP_NARROW_COPY_MIN ((size_t)12 << 10)
size_t settle_bswap_narrow_copy_decide(uint64_t l1d);

/* Does an AVX2 or AVX-512 call over nb bytes from src to dst (in place
 * when dst == src) go to the SSSE3 kernel (settle_bswap_ssse3_bytes())? */
static inline int settle_bswap_goes_narrow(const void *dst, const void *src,
					   size_t nb)
{
	if (dst == src)
		return nb >= SETTLE_BSWAP_NARROW_INPLACE_BYTES;
	return nb >= SETTLE_BSWAP_NARROW_COPY_MIN &&
	       nb >= settle_bswap_copy_rule()->narrow_from;
}

/* Does an AVX-512 swap in place of nb bytes (below
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES) run the AVX2 kernel's loop
 * (settle_bswap_avx2_bytes())? */
static inline int settle_bswap_inplace_ymm(size_t nb)
{
	return nb >= SETTLE_BSWAP_NARROW_COPY_MIN &&
	       nb <= settle_bswap_copy_rule()->ymm_inplace_to;
}

/* Does an AVX-512 copy of nb bytes (dst != src) that does not go to the
 * SSSE3 kernel run the AVX2 kernel (settle_bswap_avx2_bytes())? */
static inline int settle_bswap_goes_ymm(size_t nb)
{
	return nb >= SETTLE_BSWAP_NARROW_COPY_MIN &&
	       nb >= settle_bswap_copy_rule()->zmm_end;
}

/*
 * The hand-over of the AVX2 and AVX-512 kernels: nb bytes (a multiple of
 * esz, which is 2, 4 or 8) with settle_bswap{16,32,64}_ssse3(), which
 * writes a copy larger than the non-temporal threshold with non-temporal
 * stores when dst is a multiple of esz (from memory to memory, 128-bit
 * loads and stores were faster than 256-bit and 512-bit ones on the Zen 4
 * guest: 256 MiB copies 7-9 % faster, 1 GiB the same; make bench, README
 * "Performance"). A function of its own, so the wide kernels' common path
 * makes no call and needs no stack frame; an in-place swap below
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES stays on that path (through an
 * out-of-line function with the same loop, the AVX-512 kernel swapped
 * 32 KiB in place at 0.977-0.980 of load-store instead of 0.995, make
 * bench's settings). x86-64 only; needs SSSE3.
 */
void settle_bswap_ssse3_bytes(void *dst, const void *src, size_t nb,
			      size_t esz);

/*
 * The AVX-512 kernel's hand-over of a copy of zmm_end bytes or more, and
 * of a swap in place in the range ymm_inplace_to (struct
 * settle_bswap_copy_rule): nb bytes (a multiple of esz, which is 2, 4 or
 * 8), from src to dst (dst == src: in place), with the loop of
 * settle_bswap{16,32,64}_avx2(). The caller has made the kernel's other
 * tests: nb is at least SETTLE_BSWAP_NARROW_COPY_MIN and
 * settle_bswap_goes_narrow() is false, so they are not made again.
 * x86-64 only; needs AVX2.
 */
void settle_bswap_avx2_bytes(void *dst, const void *src, size_t nb,
			     size_t esz);
/* The same without the shuffle, for the AVX-512 touch loop (below). */
void settle_bswap_touch_avx2_bytes(void *dst, const void *src, size_t nb);

/* The smallest copy the vector kernels consider for non-temporal stores
 * (bytes), whatever the threshold below says. */
#define SETTLE_BSWAP_NT_MIN_BYTES ((size_t)64 << 10)

/*
 * The cap on the non-temporal threshold in bytes: a hypervisor's cache
 * report is not trusted above it. 32 MiB on an Intel CPU (intel nonzero:
 * settle_cpu_intel()), 8 MiB on every other. The measurements behind
 * both (settle run bswap, copies, speed against memcpy with ordinary and
 * with non-temporal stores, forced with SETTLE_BSWAP_NT_BYTES) are in
 * src/prim/bswap_nt.c and the README's performance section. A pure
 * function.
 */
uint64_t settle_bswap_nt_cap(int intel);

/*
 * The non-temporal threshold in bytes from its inputs, a pure function
 * (tests inject the inputs): env, the value of SETTLE_BSWAP_NT_BYTES or
 * NULL; llc, the reported last-level cache size in bytes, 0 if unknown;
 * cap, the CPU's cap (settle_bswap_nt_cap()), above 0.
 *   - env a positive size as settle_parse_size() reads it ("1048576",
 *     "64K", "64k", "32MiB", "1G"; binary units): that size, whatever
 *     llc says;
 *   - else min(llc, cap), or cap when llc is 0; an env that is not a
 *     positive size is ignored.
 * *source (when source is not NULL) receives the reason, as
 * settle_bswap_nt_source() gives it. Never returns 0.
 */
size_t settle_bswap_nt_decide(const char *env, uint64_t llc, uint64_t cap,
			      const char **source);

/* Number of kernel calls so far that took the non-temporal path (all
 * threads); tests use it to prove that a large buffer took it. */
uint64_t settle_bswap_nt_calls(void);

/* Count one call that took the non-temporal path. */
void settle_bswap_nt_note(void);

/*
 * Forget the dispatch decision: the next call of settle_bswap16/32/64 or
 * settle_bswap_active() decides again, reading SETTLE_BSWAP anew. For
 * tests only, in a single-threaded process (a forked child): a fresh
 * process could not be used, since under qemu-user an exec'ed program
 * runs on the host CPU, not the emulated one.
 */
void settle_bswap_forget(void);

/*
 * Reverse the bytes of each esz-byte element (esz 2, 4 or 8) of the nbytes
 * bytes at s (a multiple of esz) into d; d == s allowed. Each element is
 * loaded before it is stored, so in place is safe. Meant to be inlined
 * with a constant esz: the tails of the vector kernels and the scalar
 * implementation.
 */
static inline void settle_bswap_elems(unsigned char *d, const unsigned char *s,
				      size_t nbytes, size_t esz)
{
#ifdef __clang__
	/* One bswap per element: keep clang's vectoriser off this loop. */
	_Pragma("clang loop vectorize(disable) interleave(disable)")
#endif
	for (size_t i = 0; i < nbytes; i += esz) {
		if (esz == 2) {
			uint16_t v;

			memcpy(&v, s + i, 2);
			v = __builtin_bswap16(v);
			memcpy(d + i, &v, 2);
		} else if (esz == 4) {
			uint32_t v;

			memcpy(&v, s + i, 4);
			v = __builtin_bswap32(v);
			memcpy(d + i, &v, 4);
		} else {
			uint64_t v;

			memcpy(&v, s + i, 8);
			v = __builtin_bswap64(v);
			memcpy(d + i, &v, 8);
		}
	}
}

/* The touch loops' stand-in for settle_bswap_elems(): nbytes bytes from s
 * to d one at a time, each through an empty asm (kept, not vectorised
 * into a copy of another shape); d == s allowed. */
static inline void settle_bswap_touch_bytes(unsigned char *d,
					    const unsigned char *s,
					    size_t nbytes)
{
	for (size_t i = 0; i < nbytes; i++) {
		unsigned char v = s[i];

		__asm__("" : "+r"(v));
		d[i] = v;
	}
}

/* settle_bswap_elems(), or with touch (a constant once inlined)
 * settle_bswap_touch_bytes(). */
static inline void settle_bswap_elems_or_touch(unsigned char *d,
					       const unsigned char *s,
					       size_t nbytes, size_t esz,
					       int touch)
{
	if (touch)
		settle_bswap_touch_bytes(d, s, nbytes);
	else
		settle_bswap_elems(d, s, nbytes, esz);
}

#endif
