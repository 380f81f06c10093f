/*
 * settle_byteorder.h - byte order: loads and stores of little- and
 * big-endian values at any alignment, on little- and big-endian hosts,
 * and bulk byte swap of arrays with the implementation chosen at run
 * time, once. GNU C (gcc, clang), any -std from c89, or C++.
 */
#ifndef SETTLE_BYTEORDER_H
#define SETTLE_BYTEORDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__BYTE_ORDER__) || (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ && \
				  __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__)
#error "settle_byteorder.h: needs a compiler that defines __BYTE_ORDER__ as little- or big-endian"
#endif

/*
 * Load or store a 16/32/64-bit value stored little-endian (le) or
 * big-endian (be) at p, which may have any alignment, on a host of either
 * byte order: the value of settle_load_le32(p) is p[0] + 256 p[1] + ... on
 * every host. memcpy makes the access free of alignment and
 * strict-aliasing undefined behaviour; compilers turn it into one load or
 * store, and a byte swap (bswap/movbe, rev, lrv) for the order that is not
 * the host's.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SETTLE_LE16_(v) (v)
#define SETTLE_LE32_(v) (v)
#define SETTLE_LE64_(v) (v)
#define SETTLE_BE16_(v) __builtin_bswap16(v)
#define SETTLE_BE32_(v) __builtin_bswap32(v)
#define SETTLE_BE64_(v) __builtin_bswap64(v)
#else
#define SETTLE_LE16_(v) __builtin_bswap16(v)
#define SETTLE_LE32_(v) __builtin_bswap32(v)
#define SETTLE_LE64_(v) __builtin_bswap64(v)
#define SETTLE_BE16_(v) (v)
#define SETTLE_BE32_(v) (v)
#define SETTLE_BE64_(v) (v)
#endif

static __inline__ uint16_t settle_load_le16(const void *p)
{ uint16_t v; memcpy(&v, p, 2); return SETTLE_LE16_(v); }
static __inline__ uint32_t settle_load_le32(const void *p)
{ uint32_t v; memcpy(&v, p, 4); return SETTLE_LE32_(v); }
static __inline__ uint64_t settle_load_le64(const void *p)
{ uint64_t v; memcpy(&v, p, 8); return SETTLE_LE64_(v); }
static __inline__ uint16_t settle_load_be16(const void *p)
{ uint16_t v; memcpy(&v, p, 2); return SETTLE_BE16_(v); }
static __inline__ uint32_t settle_load_be32(const void *p)
{ uint32_t v; memcpy(&v, p, 4); return SETTLE_BE32_(v); }
static __inline__ uint64_t settle_load_be64(const void *p)
{ uint64_t v; memcpy(&v, p, 8); return SETTLE_BE64_(v); }

static __inline__ void settle_store_le16(void *p, uint16_t v)
{ v = SETTLE_LE16_(v); memcpy(p, &v, 2); }
static __inline__ void settle_store_le32(void *p, uint32_t v)
{ v = SETTLE_LE32_(v); memcpy(p, &v, 4); }
static __inline__ void settle_store_le64(void *p, uint64_t v)
{ v = SETTLE_LE64_(v); memcpy(p, &v, 8); }
static __inline__ void settle_store_be16(void *p, uint16_t v)
{ v = SETTLE_BE16_(v); memcpy(p, &v, 2); }
static __inline__ void settle_store_be32(void *p, uint32_t v)
{ v = SETTLE_BE32_(v); memcpy(p, &v, 4); }
static __inline__ void settle_store_be64(void *p, uint64_t v)
{ v = SETTLE_BE64_(v); memcpy(p, &v, 8); }

/*
 * Reverse the bytes of each of the n 16-, 32- or 64-bit elements at src and
 * write them to dst. n counts elements: the buffers hold 2n, 4n or 8n
 * bytes. dst == src swaps in place; any other overlap is not allowed. Any
 * alignment of dst and of src, each on its own; n may be 0 (then dst and
 * src are not accessed). The buffers may hold any type (float, double:
 * they are accessed as bytes and through may-alias vector loads, so
 * strict aliasing is respected). A copy (dst != src) larger than the
 * non-temporal threshold is written with non-temporal stores, followed by
 * a store fence, by the vector implementations when dst is a multiple of
 * the element size; in place, and otherwise, with ordinary stores, and
 * never a copy below 64 KiB. The
 * threshold is the last-level cache size the system reports (sysfs, then
 * sysconf), capped at 32 MiB on Intel CPUs and 8 MiB on every other
 * because a hypervisor may report a cache the guest does not have to
 * itself (settle_bswap_nt_bytes()), or the size in the environment variable
 * SETTLE_BSWAP_NT_BYTES (a size as settle run --size takes it: "1048576",
 * "64K", "64k", "32MiB", "1G"; read once; a value that is not a positive
 * size is ignored, and settle_bswap_nt_source() says so). Never fails;
 * returns nothing.
 */
void settle_bswap16(void *dst, const void *src, size_t n);
void settle_bswap32(void *dst, const void *src, size_t n);
void settle_bswap64(void *dst, const void *src, size_t n);

/*
 * The implementations. Each architecture has its own (scalar is portable);
 * the others exist as names everywhere and are never usable on another
 * architecture.
 */
enum settle_bswap_impl {
	SETTLE_BSWAP_SCALAR, /* one bswap per element */
	SETTLE_BSWAP_SSSE3,  /* x86-64: PSHUFB, 16 bytes at a time */
	SETTLE_BSWAP_AVX2,   /* x86-64: VPSHUFB, 32 bytes */
	SETTLE_BSWAP_AVX512, /* x86-64: AVX-512BW VPSHUFB, 64 bytes */
	SETTLE_BSWAP_NEON,   /* AArch64: AdvSIMD REV16/REV32/REV64, 16 bytes */
	SETTLE_BSWAP_NIMPL
};

typedef void (*settle_bswap_fn)(void *dst, const void *src, size_t n);

/* Name of an implementation ("scalar", "ssse3", "avx2", "avx512", "neon"),
 * or "?". */
const char *settle_bswap_impl_name(enum settle_bswap_impl which);

/*
 * The implementation settle_bswap16/32/64 use, decided once, on the first
 * call of any of them, of this function or of settle_bswap_env_refusal(),
 * by whichever thread comes first (others wait for the decision): the
 * best this CPU and OS support, or the one named by the environment
 * variable SETTLE_BSWAP (scalar, ssse3, avx2, avx512 on x86-64; scalar,
 * neon on AArch64; unset or empty: the best). A forced one the CPU or OS
 * lacks, one of another architecture, or an unknown name, is ignored: the
 * best is used and settle_bswap_env_refusal() says why. The library never
 * exits. The first call takes a lock and reads the environment and sysfs
 * (the non-temporal threshold, settle_bswap_nt_bytes()); once a call of
 * settle_bswap16/32/64() or of this function has returned, the byte-swap
 * functions take no lock, allocate nothing and make no system call, so a
 * signal handler may call them then (not during the first call of the
 * thread it interrupts: that deadlocks). settle_bswap_nt_bytes() alone
 * decides the threshold only.
 */
enum settle_bswap_impl settle_bswap_active(void);

/*
 * NULL when SETTLE_BSWAP is unset, empty or in use. Otherwise the value
 * was ignored, and this is why, as one line of ASCII without a newline that
 * names the value (non-printable characters as '?', a value over 67
 * characters cut to 64 and "..."): "SETTLE_BSWAP=avx512 refused: this CPU
 * lacks AVX-512BW", "SETTLE_BSWAP=sse9 refused: unknown implementation
 * (scalar, ssse3, avx2 or avx512)", "SETTLE_BSWAP=neon refused: AArch64
 * only, this build is for x86-64", or "... refused: the OS does not
 * enable AVX state (XCR0)". Makes the decision if it is not made yet. The
 * string is static; it does not change once returned. The settle command
 * prints it after "settle: " and exits with status 2.
 */
const char *settle_bswap_env_refusal(void);

/*
 * The non-temporal threshold of settle_bswap16/32/64, in bytes: a copy
 * larger than this is written with non-temporal stores, never one below
 * 64 KiB (SETTLE_BSWAP_NT_BYTES=1K returns 1024, and copies below 64 KiB
 * still take ordinary stores). Decided on the first call of this
 * function or of the byte swap (threads that make it at once
 * each decide alike, and one answer is kept), from SETTLE_BSWAP_NT_BYTES and the last-level cache size the
 * system reports (sysfs, then sysconf), capped at 32 MiB on Intel CPUs
 * and 8 MiB on every other. No measurement is made inside the library.
 * Never 0; never fails.
 */
size_t settle_bswap_nt_bytes(void);

/*
 * Where settle_bswap_nt_bytes() came from, a static string:
 * "SETTLE_BSWAP_NT_BYTES" (the variable's size), "last-level cache",
 * "cap (the reported last-level cache is larger)", "cap (no last-level
 * cache size reported)", or "SETTLE_BSWAP_NT_BYTES ignored (not a positive
 * size below 2^64 bytes)" when the variable was set to anything else (the threshold is
 * then the cache's or the cap). Makes the decision if it is not made yet.
 */
const char *settle_bswap_nt_source(void);

/* Non-zero when this CPU and OS can run implementation which (0 for one of
 * another architecture). */
int settle_bswap_usable(enum settle_bswap_impl which);

/*
 * One implementation for elem_bits 16, 32 or 64, whatever the CPU (for
 * tests and benchmarks); calling one that settle_bswap_usable() rejects
 * raises SIGILL. Returns NULL for a bad which or elem_bits and for an
 * implementation of another architecture.
 */
settle_bswap_fn settle_bswap_impl_fn(enum settle_bswap_impl which,
				     unsigned elem_bits);

#ifdef __cplusplus
}
#endif
#endif
