/*
 * settle_bits.h - bit counting over bitmaps (population count, Hamming
 * weight), with the implementation chosen at run time, once, from cpuid
 * and XCR0 (x86-64) or the hardware capabilities of the auxiliary vector
 * (AArch64): never an instruction the CPU or the OS does not support.
 *
 * Bit numbering of bitmaps: bit i is bit (i % 8), counted from the least
 * significant, of byte i / 8 - the layout of ext2/3/4 block bitmaps and of
 * the Linux kernel's little-endian bitmaps.
 */
#ifndef SETTLE_BITS_H
#define SETTLE_BITS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Number of set bits (the population count, or Hamming weight) in the len
 * bytes at buf: any alignment, any length, including more than 4 GiB (the
 * count is 64-bit throughout). Reads exactly those bytes. buf may be NULL
 * when len is 0. Never fails. Returns a count of bits, 0 .. 8 * len.
 */
uint64_t settle_popcount(const void *buf, size_t len);

/* Number of set bits of one 64-bit word (0..64), portable SWAR. */
uint64_t settle_popcount64(uint64_t w);

/*
 * Number of set bits among bits [first, first + nbits) of the bitmap at
 * bitmap (bit numbering above). Exact at every boundary: a range may start
 * and end anywhere inside a byte; nbits 0 returns 0. The caller guarantees
 * that bytes first / 8 to (first + nbits - 1) / 8 are readable; no other
 * byte is read (none for nbits 0). first and nbits are in bits; returns a
 * count of bits, 0 .. nbits.
 */
uint64_t settle_popcount_range(const void *bitmap, uint64_t first,
			       uint64_t nbits);

/*
 * The implementations. Each architecture has its own (SWAR is portable);
 * the others exist as names everywhere and are never usable on another
 * architecture. Which is best is the architecture's choice (x86-64: AVX512,
 * AVX512VL, AVX2, POPCNT, SWAR; AArch64: SVE, NEON, SWAR).
 */
enum settle_popcount_impl {
	SETTLE_POPCOUNT_SWAR,   /* portable 64-bit SWAR (Hacker's Delight 5-1) */
	SETTLE_POPCOUNT_POPCNT, /* x86-64: the POPCNT instruction */
	SETTLE_POPCOUNT_AVX2,   /* x86-64: Harley-Seal carry-save adders over
				   AVX2 (Mula, Kurz, Lemire, "Faster
				   Population Counts Using AVX2
				   Instructions", 2016) */
	SETTLE_POPCOUNT_AVX512VL, /* x86-64: the AVX2 path's Harley-Seal with
				   each carry-save adder as two VPTERNLOGQ
				   (needs AVX2, AVX512F and AVX512VL; for
				   CPUs without VPOPCNTDQ) */
	SETTLE_POPCOUNT_AVX512, /* x86-64: AVX-512 VPOPCNTDQ (needs AVX512F,
				   BW, VL and VPOPCNTDQ) */
	SETTLE_POPCOUNT_NEON,   /* AArch64: AdvSIMD CNT per byte, widening
				   pairwise adds (UADALP) into 64-bit lanes */
	SETTLE_POPCOUNT_SVE,    /* AArch64: SVE CNT on 64-bit lanes, any
				   vector length, predicated tail */
	SETTLE_POPCOUNT_NIMPL
};

typedef uint64_t (*settle_popcount_fn)(const void *buf, size_t len);

/* Name of an implementation ("swar", "popcnt", "avx2", "avx512vl",
 * "avx512", "neon", "sve"), or "?". */
const char *settle_popcount_impl_name(enum settle_popcount_impl which);

/*
 * The implementation settle_popcount() uses, decided once, on the first
 * call of settle_popcount(), settle_popcount_range(), this function or
 * settle_popcount_env_refusal(), by whichever thread comes first (others
 * wait for the decision; any thread may make the first call): the best
 * that this CPU and OS support, or the one named by the environment
 * variable SETTLE_POPCOUNT (swar, popcnt, avx2, avx512vl, avx512 on x86-64;
 * swar,
 * neon, sve on AArch64; unset or empty: the best). A forced implementation
 * the CPU or OS lacks, one of another architecture, or an unknown name, is
 * ignored: the best is used and settle_popcount_env_refusal() says why.
 * The library never exits. Changing the variable later has no
 * effect. When avx2 is chosen (automatically or forced) on a CPU that also
 * has POPCNT, settle_popcount() counts short buffers (below 192 bytes)
 * with POPCNT and longer ones with AVX2, using POPCNT for the last words
 * and, from 2 KiB to 16 MiB, side by side with the vectors; it still
 * reports avx2. The same holds for avx512vl. The first call takes a lock
 * and reads the environment; once a call of settle_popcount(),
 * settle_popcount_range() or this function has returned, the counting
 * functions take no lock, allocate nothing and make no system call, so a
 * signal handler may call them then (not during the first call of the
 * thread it interrupts: that deadlocks).
 */
enum settle_popcount_impl settle_popcount_active(void);

/*
 * NULL when SETTLE_POPCOUNT is unset, empty or in use. Otherwise the value
 * was ignored, and this is why, as one line of ASCII without a newline that
 * names the value (non-printable characters as '?', a value over 67
 * characters cut to 64 and "..."):
 * "SETTLE_POPCOUNT=avx512 refused: this CPU lacks AVX-512 VPOPCNTDQ",
 * "SETTLE_POPCOUNT=avx3 refused: unknown implementation (swar, popcnt,
 * avx2, avx512vl or avx512)", or "... refused: the OS has not enabled AVX2 register
 * state (XCR0 0x3)". Makes the decision if it is not made yet. The string
 * is static; it does not change once returned. The settle command prints
 * it after "settle: " and exits with status 2.
 */
const char *settle_popcount_env_refusal(void);

/*
 * Non-zero when this CPU and OS can run implementation which (0 for an
 * out-of-range which and for one of another architecture). The CPU is
 * asked once per process (cpuid and xgetbv on x86-64, which take
 * microseconds in a virtual machine); later calls only decide.
 */
int settle_popcount_usable(enum settle_popcount_impl which);

/*
 * One implementation directly, whatever the CPU (for tests and
 * benchmarks), with the contract of settle_popcount(): calling one that
 * settle_popcount_usable() rejects raises SIGILL. SETTLE_POPCOUNT_AVX2
 * (and AVX512VL) gives the kernel alone, which needs no POPCNT. Returns NULL for an
 * out-of-range which and for an implementation of another architecture.
 */
settle_popcount_fn settle_popcount_impl_fn(enum settle_popcount_impl which);

/*
 * The path settle_popcount() takes when it chooses (or is forced to)
 * implementation which on this CPU: the same as settle_popcount_impl_fn()
 * except for SETTLE_POPCOUNT_AVX2 and AVX512VL on a CPU that also has
 * POPCNT, where it
 * is the size-dispatched combination described at
 * settle_popcount_active() (POPCNT for short buffers, AVX2 and POPCNT
 * side by side for long ones). For benchmarks of one path against
 * another library's. Calling one that settle_popcount_usable() rejects
 * raises SIGILL. Returns NULL for an out-of-range which and for an
 * implementation of another architecture.
 */
settle_popcount_fn settle_popcount_path_fn(enum settle_popcount_impl which);

/*
 * Non-zero once settle_popcount() has chosen (or been forced to) the
 * AVX-512 kernel; 0 before its decision and for any other choice. Written
 * by the library only; read by the inline entry below.
 */
extern int settle_popcount_avx512_chosen;

#ifdef __cplusplus
}
#endif

/*
 * In a translation unit compiled for AVX-512 (AVX512F, BW, VL and
 * VPOPCNTDQ: e.g. -march=native on such a CPU), settle_popcount() has an
 * inline definition here, always inlined (GNU C's extern inline: used
 * for inlining only; the function and its address are the library's),
 * unless SETTLE_NO_INLINE is defined before this header: once the
 * library's choice is the AVX-512 kernel (settle_popcount_avx512_chosen),
 * that kernel's code runs inline (settle_popcount_avx512_inline(),
 * settle_popcount_avx512.h); before the choice and for any other
 * (SETTLE_POPCOUNT=avx2, ...) it calls the library as elsewhere, so the
 * count, the choice and what settle_popcount_active() says are the same.
 * The check is one load and one branch. Without it, a call through the
 * dispatch took 1.26x libpopcnt's inlined count at 64 bytes, 1.12x at 256
 * and 1.026x at 1 KiB; inline, with the length tested first (at -O3 gcc
 * unrolls the loop below 2 KiB completely), 0.97x, 0.84x and 0.92x
 * (docs/primitives.md). SETTLE_POPCOUNT_INLINE is defined when it is.
 */
#include "settle_popcount_avx512.h"
/*
 * In a translation unit compiled for AVX2 and POPCNT,
 * settle_popcount_avx2_inline() (settle_popcount_avx2.h) is settle's AVX2
 * path compiled into the caller, without dispatch; settle_popcount() there
 * stays a call: with the AVX2 code inline behind the same one-branch
 * check, a build for x86-64-v3 on a CPU whose choice is AVX-512 paid for
 * it on every call (docs/primitives.md, "Inline in callers built for
 * AVX2").
 */
#include "settle_popcount_avx2.h"
#if defined(SETTLE_POPCOUNT_AVX512_INLINE) && !defined(SETTLE_NO_INLINE)
#define SETTLE_POPCOUNT_INLINE 1
#ifdef __cplusplus
extern "C" {
#endif
/* The library's settle_popcount() under another name, for the call. */
uint64_t settle_popcount_library_(const void *buf, size_t len)
	__asm__("settle_popcount");

extern __inline__ __attribute__((__gnu_inline__, __always_inline__)) uint64_t
settle_popcount(const void *buf, size_t len)
{
	if (__builtin_expect(__atomic_load_n(&settle_popcount_avx512_chosen,
					     __ATOMIC_RELAXED), 1))
		return settle_popcount_avx512_inline(buf, len);
	return settle_popcount_library_(buf, len);
}
#ifdef __cplusplus
}
#endif
#endif
#endif
