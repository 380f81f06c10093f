/*
 * lookup.c - a job whose hash function's share of the samples is
 * not what a faster hash saves: an open-addressing table of 2^19 string
 * keys (32 bytes each) in 2^20 slots, looked up 6 times over, in an order
 * that misses the caches. Each lookup's first load waits on the hash of
 * its key; with a slow hash (FNV-1a, a byte at a time: a chain of 32
 * dependent multiplies) the CPU cannot start the next lookups' loads
 * early, and their cache misses do not overlap. With -DFAST_HASH the
 * hash reads the key 8 bytes at a time (the same table; the probes
 * differ by 0.01 %).
 *
 *   cc -O2 -g -o /tmp/lookup-fnv examples/hash-lookup/lookup.c
 *   cc -O2 -g -DFAST_HASH -o /tmp/lookup-fast examples/hash-lookup/lookup.c
 *   settle run --command 'fnv=/tmp/lookup-fnv' \
 *       --command 'fast=/tmp/lookup-fast' --share table_hash --processes 3
 *
 * Prints the keys found and the slots probed; exits 1 if a key was not
 * found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY 32
#define NKEYS (1u << 19)
#define NSLOTS (1u << 20)
#define ROUNDS 6

struct slot {
	uint64_t hash;
	uint32_t key; /* index of the key, + 1; 0: empty */
	uint32_t pad;
};

/* The hash of a KEY-byte key: FNV-1a 64 (Fowler, Noll, Vo), or a
 * multiply-xorshift over 8-byte words. */
__attribute__((noinline)) uint64_t table_hash(const unsigned char *k)
{
	uint64_t h = 0xcbf29ce484222325ull;
#ifdef FAST_HASH
	for (int i = 0; i < KEY; i += 8) {
		uint64_t w;

		memcpy(&w, k + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
#else
	for (int i = 0; i < KEY; i++)
		h = (h ^ k[i]) * 0x100000001b3ull;
#endif
	return h;
}

static unsigned char *key_at(unsigned char *keys, uint32_t i)
{
	return keys + (size_t)i * KEY;
}

/* The slot that holds key i (inserting it when insert is set); NULL when
 * it is not in the table. probes counts the slots read. */
static struct slot *find(struct slot *t, unsigned char *keys, uint32_t i,
			 int insert, uint64_t *probes)
{
	uint64_t h = table_hash(key_at(keys, i));

	for (uint32_t s = (uint32_t)h & (NSLOTS - 1);;
	     s = (s + 1) & (NSLOTS - 1)) {
		++*probes;
		if (!t[s].key) {
			if (!insert)
				return NULL;
			t[s] = (struct slot){ h, i + 1, 0 };
			return &t[s];
		}
		if (t[s].hash == h &&
		    !memcmp(key_at(keys, t[s].key - 1), key_at(keys, i), KEY))
			return &t[s];
	}
}

int main(void)
{
	unsigned char *keys = malloc((size_t)NKEYS * KEY);
	struct slot *t = calloc(NSLOTS, sizeof(*t));
	uint64_t found = 0, probes = 0;

	if (!keys || !t)
		return 2;
	for (uint32_t i = 0; i < NKEYS; i++) {
		memset(key_at(keys, i), 'k', KEY);
		snprintf((char *)key_at(keys, i), KEY, "user:%u",
			 i * 2654435761u);
		find(t, keys, i, 1, &probes);
	}
	probes = 0;
	for (uint32_t r = 0; r < ROUNDS; r++)
		for (uint32_t j = 0; j < NKEYS; j++)
			found += find(t, keys, (j * 40503u + r) & (NKEYS - 1),
				      0, &probes) != NULL;
	printf("found %llu of %llu, %llu slots probed\n",
	       (unsigned long long)found,
	       (unsigned long long)NKEYS * ROUNDS,
	       (unsigned long long)probes);
	return found != (uint64_t)NKEYS * ROUNDS;
}
