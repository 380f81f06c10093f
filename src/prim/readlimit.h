/*
 * readlimit.h - the read limit: how fast this CPU can read a buffer
 * (private to settle; the runner and the claims call it).
 *
 * settle_read_limit(buf, len) reads every byte of the len bytes at buf
 * once, with the widest loads this CPU and OS can run, and adds them up so
 * that no load can be dropped. Timing it over a buffer gives the bound
 * that any operation which must read the same buffer (a bit count, a
 * checksum, a scan) cannot beat: the popcount claim's `read-limit` row,
 * and the runner's test for impossible throughputs.
 *
 * The value returned is the sum, modulo 2^64, of the naturally aligned
 * 64-bit words (host byte order) that overlap the buffer, with the bytes
 * outside the buffer taken as zero. It depends only on the bytes and
 * their addresses, so every kernel returns the same value, and the sum
 * over two adjacent ranges is the sum of their values. It is a sink for
 * the loads, not a checksum worth keeping.
 *
 * How the kernels are built (every one reads exactly the len bytes, never
 * a byte outside them, at any alignment):
 *   - an unaligned head up to the kernel's vector alignment, then aligned
 *     vector loads, eight per loop step into four accumulators of 64-bit
 *     lanes (the avx512 kernel's 512-bit loop: four or eight a step,
 *     into as many accumulators, by CPU; see settle_read_limit_widths
 *     below), one addition per load (the loop is bound by the loads), then
 *     the remaining whole vectors spread over the accumulators (no
 *     accumulator takes more than two), then the tail;
 *   - generic (portable C, every architecture): 64-bit words, four per
 *     step into four accumulators; head and tail as partial words;
 *   - neon (AArch64): 16-byte vectors (LD1, ADD on 64-bit lanes); head
 *     and tail with the generic code, inline (readlimit_span.h);
 *   - sse2 (x86-64 baseline), avx2: 16 and 32-byte vectors; head and tail
 *     with the generic code, inline (fewer than 16 or 32 bytes each; a
 *     call to the generic kernel for each took 8 ns a pass on the Zen 4
 *     guest: readlimit_span.h). Not masked loads: AMD's manual leaves the
 *     faults of VPMASKMOV's masked-out elements to the implementation
 *     (AMD64 APM vol. 4, VPMASKMOVD);
 *   - avx512 (AVX512F, BW, VL, and AVX2): 64-byte vectors, or 32-byte ones
 *     where those read faster (below); head and tail with one
 *     byte-masked load each (VMOVDQU8 with a zeroing mask reads no
 *     masked-out byte and takes no fault on it: Intel SDM vol. 1, 15.4
 *     "Memory fault suppression"), so no scalar code;
 *   - every kernel takes a pass count (settle_read_limit_fn) and runs
 *     the passes itself: the split into head, steps, single vectors and
 *     tail (and the avx512 masks) is worked out once per call, the
 *     pointer is laundered at the start of each pass, the accumulators
 *     run on across the passes and are added up once, at the end; a
 *     buffer of whole steps only (aligned, a multiple of a step)
 *     runs a pass loop with nothing but the steps in it. At 1 KiB a call
 *     per pass (a return-address load, jumps, the entry and the final
 *     reduction) took 15 % of the time of the fastest inlined plain read
 *     of examples/readlimit-peers.c on the Zen 4 guest below;
 *   - the load width follows the buffer size and the CPU (struct
 *     settle_read_limit_widths below): on AMD family 19h the avx512
 *     kernel reads with 512-bit loads below 2 MiB (eight a step into
 *     four accumulators; below 64 KiB 256-bit ones where those read
 *     faster at the start of the process: tune_below) and with 256-bit
 *     loads from 2 MiB (the avx2 kernel itself; every
 *     AVX-512 CPU has AVX2, and the dispatch asks for both), and the
 *     avx2 and avx512 kernels read with 128-bit loads (the sse2 kernel)
 *     from 64 MiB on; on every other CPU with the widest loads at every
 *     size (on Intel eight a step into four accumulators from 64 KiB).
 *     Measured
 *     on the AMD Zen 4 guest (docs/primitives.md;
 *     examples/readlimit-peers.c with these kernels called directly, cc
 *     -O3 -march=native, --processes 3 --layouts 2, median B/ns): 1 KiB
 *     230 with 256-bit loads against 223 with 512-bit, 2-32 KiB 228
 *     against 214-220 (the fastest inlined plain read: 220-223);
 *     64-256 KiB all widths 116-117 (L2); 512 KiB 115.4 against 114.0,
 *     1 MiB 98.9 against 95.7 (512-bit ahead); 4 MiB 98.7 with 256-bit,
 *     99.4 with 128-bit, 98.0 with 512-bit; 16 MiB 68.6, 70.4, 66.9;
 *     32 MiB (the L3's size) 45.7, 41.8, 38.0; 64 MiB 26.3, 26.9, 22.8;
 *     256 MiB 27.3, 27.9, 24.6; 1 GiB 28.2, 28.4, 25.7. On the AMD Zen 5
 *     guest (family 1Ah; the bench of 2026-12-01, 5 processes, 4
 *     layouts): 1 KiB and 32 KiB 202-208 B/ns with 256-bit loads against
 *     415-421 with 512-bit; 32 MiB 47.5 against 52.5; 1 GiB 28.3 with
 *     128-bit loads against 31.9-32.1 with 256- and 512-bit.
 * The unroll, the accumulators and the aligned loads are those of the
 * fastest plain read of examples/readlimit-peers.c on that guest (see the
 * README's performance section).
 */
#ifndef SETTLE_READLIMIT_H
#define SETTLE_READLIMIT_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu.h"

/*
 * A read-limit kernel: passes passes over the len bytes at buf, each
 * reading every byte once; returns the sum, modulo 2^64, of the value of
 * each pass (the aligned-word sum above), so passes times that value, and
 * 0 without reading a byte when passes is 0. Cannot fail. The pointer is
 * laundered (SETTLE_READ_LIMIT_LAUNDER) at the start of every pass, so the
 * compiler can neither hoist a pass nor merge two: a timed loop of one
 * call for all its passes pays no call and no entry work per pass.
 */
typedef uint64_t (*settle_read_limit_fn)(const void *buf, size_t len,
					 uint64_t passes);

/* p (a pointer lvalue) may have changed here, as far as the compiler
 * knows: no instruction, and every pass after it loads again. */
#define SETTLE_READ_LIMIT_LAUNDER(p) __asm__ __volatile__("" : "+r"(p))

#if SETTLE_ARCH_X86_64
/*
 * Load width by buffer size (bytes; above, "How the kernels are built"):
 * the avx512 kernel reads with 512-bit loads from zmm_min up to, not
 * including, zmm_end, with the avx2 kernel's 256-bit loads below and
 * above that range; the avx2 and avx512 kernels read with the sse2
 * kernel's 128-bit loads from stream_min on. No CPU's table has a
 * zmm_min above 0 (the tune may set one) or four loads a step now (AMD
 * family 19h's had both until 2026-12-04, below; the tests run them).
 */
struct settle_read_limit_widths {
	size_t zmm_min, zmm_end, stream_min;
	unsigned zmm_loads; /* 512-bit loads per loop step: 4 or 8 */
	/* with eight loads a step, from this size on they add into four
	 * accumulators (two loads each), below it into eight */
	size_t acc4_min;
	/* below this size the dispatch times 256-bit loads against
	 * 512-bit ones once per process, and zmm_min becomes this size
	 * when 256-bit ones were faster (settle_arch_read_limit_tune());
	 * 0: nothing timed */
	size_t tune_below;
};

/*
 * AMD family 19h (settle_cpu_amd_19h()), measured on the Zen 4 guest:
 * 512-bit loads below 2 MiB, eight a step into four accumulators, and
 * below 64 KiB 256-bit ones instead where they read 16 KiB faster at the
 * start of the process (tune_below); 256-bit loads from 2 MiB, 128-bit
 * ones from 64 MiB. Below 64 KiB the faster width depends on what else
 * the host runs on the core: on a quiet core 256-bit loads read 1-32 KiB
 * 3-6 % faster than 512-bit ones, while the core's other hardware thread
 * is busy 5-20 % slower, and on the Zen 4 guest the state held for
 * minutes at times and changed about once a second at others
 * (docs/primitives.md, "The read limit on a shared core"); no fixed
 * width is the limit in both. 2026-12-04, examples/readlimit-peers.c
 * with the loops called directly, 9 processes of 4 layouts, on a mostly
 * shared core, median time / the fastest plain read's at 1 KiB, 16 KiB,
 * 32 KiB, 1 MiB: eight 512-bit loads a step into four accumulators
 * 0.981, 1.000, 0.998, 1.002; into eight 1.001, 1.003, 0.997, 1.000;
 * four into four (64 KiB to 2 MiB until 2026-12-04) 1.012, 1.008, 1.008,
 * 0.997; the 256-bit loop 0.983, 1.010, 1.069, 1.055.
 */
#define SETTLE_READ_LIMIT_WIDTHS_19H \
	{ 0, (size_t)2 << 20, (size_t)64 << 20, 8, 0, (size_t)64 << 10 }
/* Every other x86-64 CPU (AMD family 1Ah, and others): the widest loads at
 * every size (on the Zen 5 guest 512-bit loads read 1 KiB and 32 KiB
 * twice as fast as 256-bit ones, and 128-bit loads read 1 GiB 10 %
 * slower than 256-bit ones: docs/primitives.md), eight a step into
 * eight accumulators (there four a step read 32 KiB 5-7 % slower than
 * the plain reads of examples/readlimit-peers.c). */
#define SETTLE_READ_LIMIT_WIDTHS_WIDEST { 0, SIZE_MAX, SIZE_MAX, 8, SIZE_MAX, 0 }
/* Intel (settle_cpu_intel()): the widest loads at every size, eight a
 * step, into eight accumulators below 64 KiB and into four from there
 * on. On the Intel family 6 model 167 guest (48 KiB L1d, 2 MiB L2;
 * 2026-12-03, stand-alone loops of eight 512-bit loads a step that run
 * their passes themselves, as the kernel does, 3 processes, 2 layouts,
 * the other vCPU busy; time / the kernel's, then with eight
 * accumulators): four accumulators 1.01 at 32 KiB and 1.06 at 48 KiB,
 * the L1d's size (the same loop with eight: 1.02 and 1.09), 0.93 at 96
 * and 256 KiB, 0.94 at 1 MiB (eight: 0.98-1.00); two 0.92-0.93 beyond
 * the L1d; the plain read with eight
 * loads into four accumulators of examples/readlimit-peers.c read
 * 32 MiB and 1 GiB as fast as eight accumulators (make bench, the same
 * day: 0.998 and 0.994 of the kernel's time). */
#define SETTLE_READ_LIMIT_WIDTHS_INTEL \
	{ 0, SIZE_MAX, SIZE_MAX, 8, (size_t)64 << 10, 0 }

/*
 * The widths of the CPU whose words are id (a pure function: one of the
 * three above), and the widths the x86 kernels use: this CPU's, decided at
 * the first call (threads may race through it; each stores the same
 * pointer), or those that settle_read_limit_set_widths() set. Never NULL.
 */
const struct settle_read_limit_widths *
settle_read_limit_widths_of(const struct settle_cpuid *id);
const struct settle_read_limit_widths *settle_read_limit_widths(void);

/* Tests: make the kernels use *w (kept by pointer), so that every range
 * runs on any CPU; NULL goes back to this CPU's. Not thread-safe against
 * kernels running at the same time. */
void settle_read_limit_set_widths(const struct settle_read_limit_widths *w);

/*
 * The timed widths (settle_arch_read_limit_tune() below):
 * settle_read_limit_widths_timed() returns *base with zmm_min set to
 * base->tune_below (256-bit loads below it) when ymm_ns < zmm_ns, else
 * *base unchanged (ties keep the 512-bit loads); ymm_ns and zmm_ns are
 * the median times of the same passes over the same buffer with the
 * 256-bit and the 512-bit loop (any unit, the same for both). Pure.
 * settle_read_limit_use_timed() makes the kernels use *w (kept by
 * pointer; NULL: this CPU's table again) whenever no test set widths
 * (settle_read_limit_set_widths() comes first).
 */
struct settle_read_limit_widths
settle_read_limit_widths_timed(const struct settle_read_limit_widths *base,
			       double ymm_ns, double zmm_ns);
void settle_read_limit_use_timed(const struct settle_read_limit_widths *w);

#endif

/* The read-limit kernels, narrowest first. */
enum settle_read_limit_impl {
	SETTLE_READ_LIMIT_GENERIC, /* portable C, 64-bit words */
	SETTLE_READ_LIMIT_SSE2,    /* x86-64: 16-byte loads */
	SETTLE_READ_LIMIT_AVX2,    /* x86-64: 32-byte loads */
	SETTLE_READ_LIMIT_AVX512,  /* x86-64: 64-byte loads, masked edges */
	SETTLE_READ_LIMIT_NEON,    /* AArch64: 16-byte loads */
	SETTLE_READ_LIMIT_NIMPL
};

/* What settle_arch_read_limit_tune() measured. */
struct settle_read_limit_timing {
	size_t bytes;    /* the buffer timed (16 KiB, 64-byte aligned) */
	unsigned passes; /* passes a sample; 31 samples of each width */
	double ymm_ns;   /* median ns a pass with 256-bit loads */
	double zmm_ns;   /* median ns a pass with 512-bit loads */
	unsigned bits;   /* the loads chosen: 256 or 512 */
	int done;        /* 1 once the figures above are whole */
};

/*
 * Called by the dispatch once it has chosen which, before it hands out
 * the kernel (src/prim/readlimit.c): on x86-64, when which is the avx512
 * kernel and this CPU's widths have a tune_below, times the avx512
 * kernel over 16 KiB under the table's widths and under the table's with
 * 256-bit loads below tune_below, 31 samples of 64 passes each in turns
 * (A B, then B A; about 0.3 ms), and makes the kernels use
 * settle_read_limit_widths_timed() of the two medians; elsewhere (other
 * kernels, CPUs, architectures) nothing. Threads may race through it:
 * the first one times, the others return at once (while it times, the
 * kernels read with either width; both read every byte). Cannot fail:
 * without memory for the buffer it keeps the table.
 */
void settle_arch_read_limit_tune(enum settle_read_limit_impl which);

/* What the tune measured, or NULL when it has not timed anything. */
const struct settle_read_limit_timing *settle_read_limit_timing(void);

/*
 * Read the len bytes at buf (any alignment, any len, 0 included) with the
 * widest kernel this CPU and OS can run, chosen at the first call (the
 * architecture's words: src/arch/<arch>/dispatch_readlimit.c) and kept;
 * threads may race through the first call (each stores the same choice
 * atomically). That first call (or settle_read_limit_active()'s, or
 * settle_read_limit_kernel()'s) also runs settle_arch_read_limit_tune()
 * (on AMD family 19h with AVX-512: 0.3 ms of timing and a 16 KiB
 * buffer); no later call times or allocates. Returns the aligned-word sum
 * described above. Cannot fail.
 */
uint64_t settle_read_limit(const void *buf, size_t len);

/*
 * passes passes over the len bytes at buf with the same kernel: the sum,
 * modulo 2^64, of each pass's settle_read_limit() value (0 when passes is
 * 0, and nothing read). Cannot fail. For timed loops: one call per loop,
 * not per pass.
 */
uint64_t settle_read_limit_passes(const void *buf, size_t len,
				  uint64_t passes);

/* The kernel settle_read_limit() uses (decides it if not yet done). */
enum settle_read_limit_impl settle_read_limit_active(void);

/*
 * That kernel's function (settle_read_limit_fn: it takes a pass count),
 * to call directly from a timed loop: one call through a register for all
 * the loop's passes, instead of a call per pass and the dispatcher's jump
 * through memory (and, from a shared object, the PLT's), each of which
 * shows at 1 KiB. Never NULL.
 */
settle_read_limit_fn settle_read_limit_kernel(void);

/*
 * Pure decision for injected identification words (the architecture's:
 * src/arch/<arch>/dispatch_readlimit.c): on x86-64 AVX512 when AVX512F,
 * AVX512BW, AVX512VL and AVX2 are usable (XCR0 enables opmask and ZMM
 * state),
 * else AVX2 (AVX and AVX2 usable), else SSE2; on AArch64 NEON when
 * HWCAP_ASIMD is set; GENERIC otherwise and in the generic build.
 */
enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id);

/* Non-zero when id can run which (always for GENERIC; another
 * architecture's kernels never). */
int settle_read_limit_runs_on(enum settle_read_limit_impl which,
			      const struct settle_cpuid *id);

/* Non-zero when this CPU and OS can run which. */
int settle_read_limit_usable(enum settle_read_limit_impl which);

/* The kernel which, callable only when settle_read_limit_usable(which);
 * NULL for a value out of range or a kernel not built here. */
settle_read_limit_fn settle_read_limit_impl_fn(enum settle_read_limit_impl which);

/* "generic", "sse2", "avx2", "avx512", "neon"; "?" out of range. */
const char *settle_read_limit_impl_name(enum settle_read_limit_impl which);

/* The kernels (src/prim/readlimit_generic.c; src/arch/x86/readlimit_sse2.c,
 * readlimit_avx2.c, readlimit_avx512.c; src/arch/aarch64/readlimit_neon.c);
 * each architecture's need what settle_read_limit_choose() says, and only
 * the target's are built. */
uint64_t settle_read_limit_generic(const void *buf, size_t len,
				   uint64_t passes);
uint64_t settle_read_limit_sse2(const void *buf, size_t len, uint64_t passes);
uint64_t settle_read_limit_avx2(const void *buf, size_t len, uint64_t passes);
uint64_t settle_read_limit_avx512(const void *buf, size_t len,
				  uint64_t passes);
uint64_t settle_read_limit_neon(const void *buf, size_t len, uint64_t passes);

/* The kernel of which if it is this architecture's, else NULL
 * (src/arch/<arch>/dispatch_readlimit.c; GENERIC is portable). */
settle_read_limit_fn settle_arch_read_limit_kernel(enum settle_read_limit_impl which);

#endif
