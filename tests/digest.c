/*
 * digest.c - what the primitives compute, printed as text, so that builds
 * for different architectures can be compared line by line: make
 * test-cross (mk/cross.mk) links it with each cross-built libsettle.a,
 * runs it under qemu-user and compares its output with that of the native
 * x86-64 build. It prints:
 *   - the bytes of settle_fill_random() for several seeds and lengths;
 *   - settle_popcount() of every length 0..600 at alignments 0..15, and of
 *     larger buffers; settle_popcount_range() of ranges around byte and
 *     word boundaries; settle_popcount64() of single words;
 *   - settle_load_le/be16/32/64() at every alignment 0..15, and the bytes
 *     settle_store_le/be16/32/64() write there;
 *   - the bytes of settle_bswap16/32/64(), copy and in place, of every
 *     length 0..300 elements at a few alignments, and of a large buffer.
 * Buffers are hashed byte by byte (FNV-1a, 64 bits), so a hash does not
 * depend on the host's byte order. Every popcount and byte-swap
 * implementation this CPU can run is checked against the dispatched one
 * (any disagreement: a message on stderr and exit status 1); which ones
 * ran goes to stderr, so that standard output is the same on every CPU.
 * Usage: digest > out.txt
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settle.h"
#include "settle_bits.h"
#include "settle_byteorder.h"

#define BIG (1u << 20)

static int bad;

/* FNV-1a over bytes (Fowler, Noll, Vo; 64-bit offset basis and prime). */
static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;
	}
	return h;
}

static void print_fill(void)
{
	static const uint64_t seeds[] = { 0, 1, 0x5e771e0b17c0u };
	static const size_t lens[] = { 0, 1, 7, 8, 9, 63, 4096 };
	unsigned char buf[4096];

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++)
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			settle_fill_random(buf, lens[l], seeds[s]);
			printf("fill %llu %zu %016llx\n",
			       (unsigned long long)seeds[s], lens[l],
			       (unsigned long long)fnv(buf, lens[l]));
		}
	settle_fill_random(buf, 16, 42);
	printf("fill 42 bytes");
	for (int i = 0; i < 16; i++)
		printf(" %02x", buf[i]);
	printf("\n");
}

/* The count of every usable implementation; all must agree. */
static uint64_t count(const unsigned char *p, size_t len)
{
	uint64_t n = settle_popcount(p, len);

	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++) {
		uint64_t k;

		if (!settle_popcount_usable(i))
			continue;
		k = settle_popcount_impl_fn(i)(p, len);
		if (k != n) {
			fprintf(stderr, "digest: popcount %s gives %llu, "
				"settle_popcount %llu (%zu bytes)\n",
				settle_popcount_impl_name(i),
				(unsigned long long)k, (unsigned long long)n,
				len);
			bad = 1;
		}
	}
	return n;
}

static void print_popcount(unsigned char *buf)
{
	static const uint64_t words[] = {
		0, 1, 0x8000000000000000u, 0x5555555555555555u, ~0ull,
		0x0123456789abcdefu,
	};

	settle_fill_random(buf, BIG + 64, 7);
	for (size_t len = 0; len <= 600; len++) {
		printf("popcount %zu", len);
		for (size_t a = 0; a < 16; a++)
			printf(" %llu", (unsigned long long)count(buf + a, len));
		printf("\n");
	}
	for (size_t a = 0; a < 3; a++)
		printf("popcount big +%zu %llu\n", a,
		       (unsigned long long)count(buf + a, BIG - a * 7));
	for (uint64_t first = 0; first < 80; first += 3)
		for (uint64_t n = 0; n < 200; n += 13)
			printf("range %llu %llu %llu\n",
			       (unsigned long long)first, (unsigned long long)n,
			       (unsigned long long)settle_popcount_range(buf,
								first, n));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		printf("popcount64 %016llx %llu\n", (unsigned long long)words[i],
		       (unsigned long long)settle_popcount64(words[i]));
}

static void print_loads_stores(void)
{
	unsigned char buf[32], st[32];

	settle_fill_random(buf, sizeof(buf), 11);
	for (int a = 0; a < 16; a++) {
		const unsigned char *p = buf + a;
		uint64_t v = settle_load_le64(p) ^ 0x0102030405060708u;

		printf("load %d %04x %04x %08lx %08lx %016llx %016llx\n", a,
		       settle_load_le16(p), settle_load_be16(p),
		       (unsigned long)settle_load_le32(p),
		       (unsigned long)settle_load_be32(p),
		       (unsigned long long)settle_load_le64(p),
		       (unsigned long long)settle_load_be64(p));
		memset(st, 0, sizeof(st));
		settle_store_le16(st + a, (uint16_t)v);
		settle_store_be16(st + a + 2, (uint16_t)v);
		settle_store_le32(st + a + 4, (uint32_t)v);
		settle_store_be32(st + a + 8, (uint32_t)v);
		printf("store %d %016llx", a,
		       (unsigned long long)fnv(st, sizeof(st)));
		memset(st, 0, sizeof(st));
		settle_store_le64(st + a, v);
		settle_store_be64(st + a + 8, v);
		printf(" %016llx\n", (unsigned long long)fnv(st, sizeof(st)));
	}
}

/*
 * Swap n elements of bits at src into dst (in place when dst == src) with
 * the dispatched function, then with every usable implementation into tmp
 * (in place in tmp on a copy of src, when in place); all must write the
 * same bytes.
 */
static void swap(unsigned bits, unsigned char *dst, const unsigned char *src,
		 size_t n, unsigned char *tmp)
{
	size_t nb = n * (bits / 8);
	int in_place = dst == src;
	settle_bswap_fn fn = bits == 16 ? settle_bswap16 :
			     bits == 32 ? settle_bswap32 : settle_bswap64;
	unsigned char *orig = tmp + nb + 64;

	memcpy(orig, src, nb);
	fn(dst, src, n);
	for (int i = 0; i < SETTLE_BSWAP_NIMPL; i++) {
		if (!settle_bswap_usable(i))
			continue;
		if (in_place) {
			memcpy(tmp, orig, nb);
			settle_bswap_impl_fn(i, bits)(tmp, tmp, n);
		} else {
			settle_bswap_impl_fn(i, bits)(tmp, orig, n);
		}
		if (memcmp(tmp, dst, nb) != 0) {
			fprintf(stderr, "digest: bswap%u %s differs (%zu "
				"elements)\n", bits, settle_bswap_impl_name(i),
				n);
			bad = 1;
		}
	}
}

static void print_bswap(unsigned char *src, unsigned char *dst,
			unsigned char *tmp)
{
	static const unsigned bits[] = { 16, 32, 64 };
	static const size_t aligns[] = { 0, 1, 3, 8 };

	settle_fill_random(src, BIG + 64, 13);
	for (size_t b = 0; b < 3; b++) {
		size_t esz = bits[b] / 8;

		for (size_t n = 0; n <= 300; n++) {
			printf("bswap%u %zu", bits[b], n);
			for (size_t a = 0; a < 4; a++) {
				swap(bits[b], dst + aligns[a],
				     src + aligns[(a + 1) % 4], n, tmp);
				printf(" %016llx", (unsigned long long)
				       fnv(dst + aligns[a], n * esz));
			}
			/* in place */
			memcpy(dst + 5, src, n * esz);
			swap(bits[b], dst + 5, dst + 5, n, tmp);
			printf(" %016llx\n",
			       (unsigned long long)fnv(dst + 5, n * esz));
		}
		swap(bits[b], dst, src + 1, BIG / esz, tmp);
		printf("bswap%u big %016llx\n", bits[b],
		       (unsigned long long)fnv(dst, BIG));
	}
}

int main(void)
{
	unsigned char *a = malloc(BIG + 64), *b = malloc(BIG + 64);
	unsigned char *c = malloc(2 * BIG + 192); /* swap()'s tmp and copy */

	if (!a || !b || !c) {
		fprintf(stderr, "digest: out of memory\n");
		return 2;
	}
	fprintf(stderr, "digest: popcount %s, bswap %s\n",
		settle_popcount_impl_name(settle_popcount_active()),
		settle_bswap_impl_name(settle_bswap_active()));
	print_fill();
	print_popcount(a);
	print_loads_stores();
	print_bswap(a, b, c);
	free(a);
	free(b);
	free(c);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "digest: cannot write the output\n");
		return 2;
	}
	return bad;
}
