/*
 * ext2count.c - count the used blocks of an ext2/3/4 file system from its
 * block bitmaps with settle's popcount, per block group and in total, and
 * compare them with the free-block counters that the group descriptors and
 * the superblock keep. The real-data check of settle's bit counting: this
 * is what a file-system checker does with it.
 *
 * The image (or device) is opened read-only with libext2fs. The bitmaps
 * are read with ext2fs_read_block_bitmap(), which reads each group's bitmap
 * block from disk (for a group flagged BLOCK_UNINIT it builds the bitmap
 * from the group's metadata layout, as the kernel does), and each group's
 * bytes are copied out with ext2fs_get_block_bitmap_range2() and counted
 * here. The counters are only compared, never used for a count.
 *
 * With bigalloc, a bitmap bit stands for a cluster: groups are counted and
 * shown in clusters, and the superblock's count, which is in blocks, is
 * compared with free clusters times blocks per cluster.
 *
 * Exit status: 0 the counters agree with the bitmaps, 1 a counter disagrees,
 * 2 bad usage or an image that cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>
#include <ext2fs/ext2_err.h>
#include <ext2fs/ext2fs.h>

#include "settle_bits.h"

static const char usage[] =
"usage: ext2count IMAGE\n"
"\n"
"Count the used blocks of an ext2/3/4 image or device from its block\n"
"bitmaps (with settle_popcount), per group and in total, and compare them\n"
"with the free-block counts of the group descriptors and the superblock.\n"
"The image is opened read-only.\n"
"\n"
"Exit status: 0 the counters agree with the bitmaps, 1 a counter\n"
"disagrees (each mismatch is reported), 2 bad usage or unreadable image.\n";

static const char *prog = "ext2count";

/* One line on stderr and exit status 2. */
static void __attribute__((noreturn)) fail(const char *image, const char *what,
					   errcode_t err)
{
	fprintf(stderr, "%s: %s: %s: %s\n", prog, image, what,
		error_message(err));
	exit(2);
}

/* Set bits in the first nbits bits of map: whole bytes, then the tail. */
static uint64_t count_bits(const unsigned char *map, uint64_t nbits)
{
	return settle_popcount(map, nbits / 8) +
	       settle_popcount_range(map, nbits / 8 * 8, nbits % 8);
}

/*
 * Bitmap bits of group g: blocks, or clusters with bigalloc. The first one
 * goes to *first; the last group may have fewer than a full group's.
 */
static uint64_t group_bits(ext2_filsys fs, dgrp_t g, uint64_t *first)
{
	uint64_t last = EXT2FS_B2C(fs, ext2fs_group_last_block2(fs, g));

	*first = EXT2FS_B2C(fs, ext2fs_group_first_block2(fs, g));
	return last - *first + 1;
}

int main(int argc, char **argv)
{
	const char *image, *unit, *impl;
	ext2_filsys fs;
	errcode_t err;
	unsigned char *map;
	uint64_t *used, ratio, total_size = 0, total_used = 0;
	uint64_t total_desc_free = 0, bm_free_blocks, sb_free_blocks;
	int mismatches = 0;
	dgrp_t g;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s IMAGE (%s --help for more)\n",
			prog, prog);
		return 2;
	}
	image = argv[1];
	/* may refuse a forced SETTLE_POPCOUNT: do it before any output */
	impl = settle_popcount_impl_name(settle_popcount_active());

	initialize_ext2_error_table();
	err = ext2fs_open(image, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (err)
		fail(image, "cannot open as ext2/3/4", err);
	err = ext2fs_read_block_bitmap(fs);
	if (err)
		fail(image, "cannot read the block bitmaps", err);

	ratio = EXT2FS_CLUSTER_RATIO(fs);
	unit = ratio > 1 ? "clusters" : "blocks";
	map = calloc(EXT2_CLUSTERS_PER_GROUP(fs->super) / 8 + 8, 1);
	used = calloc(fs->group_desc_count, sizeof(*used));
	if (!map || !used)
		fail(image, "out of memory", EXT2_ET_NO_MEMORY);

	printf("%s: %u groups, %llu blocks of %u bytes", image,
	       fs->group_desc_count,
	       (unsigned long long)ext2fs_blocks_count(fs->super),
	       fs->blocksize);
	if (ratio > 1)
		printf(", bigalloc: %" PRIu64 " blocks per cluster", ratio);
	printf(", popcount %s\n", impl);
	printf("%6s %10s %10s %10s %10s   (%s)\n", "group", "size", "used",
	       "free", "desc-free", unit);

	for (g = 0; g < fs->group_desc_count; g++) {
		uint64_t first, size = group_bits(fs, g, &first);
		uint64_t desc_free = ext2fs_bg_free_blocks_count(fs, g);

		err = ext2fs_get_block_bitmap_range2(fs->block_map, first,
						     size, map);
		if (err)
			fail(image, "cannot get a group's bitmap", err);
		used[g] = count_bits(map, size);

		printf("%6u %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		       " %10" PRIu64 "%s\n", g, size, used[g], size - used[g],
		       desc_free, desc_free != size - used[g] ? "  !" : "");
		total_size += size;
		total_used += used[g];
		total_desc_free += desc_free;
	}
	printf("%6s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
	       "total", total_size, total_used, total_size - total_used,
	       total_desc_free);

	for (g = 0; g < fs->group_desc_count; g++) {
		uint64_t first, size = group_bits(fs, g, &first);
		uint64_t desc_free = ext2fs_bg_free_blocks_count(fs, g);

		if (desc_free == size - used[g])
			continue;
		printf("group %u: descriptor says %" PRIu64 " free %s, "
		       "bitmap says %" PRIu64 "\n",
		       g, desc_free, unit, size - used[g]);
		mismatches++;
	}

	/* The superblock counts blocks, also with bigalloc. */
	bm_free_blocks = (total_size - total_used) * ratio;
	sb_free_blocks = ext2fs_free_blocks_count(fs->super);
	if (sb_free_blocks != bm_free_blocks) {
		printf("superblock says %" PRIu64 " free blocks, "
		       "bitmaps say %" PRIu64 "\n",
		       sb_free_blocks, bm_free_blocks);
		mismatches++;
	}
	if (mismatches)
		printf("%d counter%s disagree%s with the bitmaps\n", mismatches,
		       mismatches > 1 ? "s" : "", mismatches > 1 ? "" : "s");
	else
		printf("superblock and group descriptors agree with the "
		       "bitmaps: %" PRIu64 " free blocks\n", sb_free_blocks);

	free(used);
	free(map);
	ext2fs_close_free(&fs);
	return mismatches ? 1 : 0;
}
