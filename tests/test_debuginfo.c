/*
 * test_debuginfo.c - whether a file perf sampled has debug information
 * (src/runner/debuginfo.c): on small ELF files written here in this
 * machine's class and byte order, each with one thing changed, on a
 * separate debug file found by build ID or by path below a folder of the
 * test's own, and on names that are no ELF file.
 */
#include <elf.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner/debuginfo.h"

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Shdr Shdr;
typedef Elf64_Nhdr Nhdr;
#define CLASS ELFCLASS64
#define OTHER_CLASS ELFCLASS32
#else
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Shdr Shdr;
typedef Elf32_Nhdr Nhdr;
#define CLASS ELFCLASS32
#define OTHER_CLASS ELFCLASS64
#endif

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DATA ELFDATA2MSB
#define OTHER_DATA ELFDATA2LSB
#else
#define DATA ELFDATA2LSB
#define OTHER_DATA ELFDATA2MSB
#endif

static char dir[1024]; /* the test's folder: files and debug root */
static char root[1024 + 16];

static const unsigned char id[] = { 0xab, 0xcd, 0x01, 0x02, 0x03 };
#define NAMES "\0.shstrtab\0.debug_info\0.note.gnu.build-id\0.zdebug_info"
#define N_SHSTRTAB 1
#define N_DEBUG_INFO 11
#define N_BUILD_ID 23
#define N_ZDEBUG 42

/* An ELF file: header, section names, a build-ID note, 16 bytes of
 * "debug information", then four section headers: none, the names, the
 * note, the debug section named debug_name of type debug_type. */
struct elf {
	Ehdr eh;
	char names[sizeof(NAMES)];
	unsigned char note[sizeof(Nhdr) + 4 + sizeof(id)];
	unsigned char info[16];
	Shdr sh[4];
};

static void make(struct elf *e, unsigned debug_name, unsigned debug_type)
{
	Nhdr n = { .n_namesz = 4, .n_descsz = sizeof(id),
		   .n_type = NT_GNU_BUILD_ID };

	memset(e, 0, sizeof(*e));
	memcpy(e->eh.e_ident, ELFMAG, SELFMAG);
	e->eh.e_ident[EI_CLASS] = CLASS;
	e->eh.e_ident[EI_DATA] = DATA;
	e->eh.e_ident[EI_VERSION] = EV_CURRENT;
	e->eh.e_type = ET_EXEC;
	e->eh.e_version = EV_CURRENT;
	e->eh.e_ehsize = sizeof(Ehdr);
	e->eh.e_shentsize = sizeof(Shdr);
	e->eh.e_shnum = 4;
	e->eh.e_shstrndx = 1;
	e->eh.e_shoff = offsetof(struct elf, sh);
	memcpy(e->names, NAMES, sizeof(NAMES));
	memcpy(e->note, &n, sizeof(n));
	memcpy(e->note + sizeof(n), "GNU", 4);
	memcpy(e->note + sizeof(n) + 4, id, sizeof(id));
	e->sh[1].sh_name = N_SHSTRTAB;
	e->sh[1].sh_type = SHT_STRTAB;
	e->sh[1].sh_offset = offsetof(struct elf, names);
	e->sh[1].sh_size = sizeof(NAMES);
	e->sh[2].sh_name = N_BUILD_ID;
	e->sh[2].sh_type = SHT_NOTE;
	e->sh[2].sh_offset = offsetof(struct elf, note);
	e->sh[2].sh_size = sizeof(e->note);
	e->sh[3].sh_name = debug_name;
	e->sh[3].sh_type = debug_type;
	e->sh[3].sh_offset = offsetof(struct elf, info);
	e->sh[3].sh_size = sizeof(e->info);
}

/* Write len bytes of e to the test's file name; returns its path. */
static const char *put(const char *name, const void *e, size_t len)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(e, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int has(const char *name, const void *e, size_t len)
{
	return settle_has_debug_info_in(put(name, e, len), root);
}

static void test_sections(void **st)
{
	struct elf e;

	(void)st;
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	assert_int_equal(has("debug", &e, sizeof(e)), 1);
	make(&e, N_ZDEBUG, SHT_PROGBITS);
	assert_int_equal(has("zdebug", &e, sizeof(e)), 1);
	/* a stripped file: no such section, or one without contents */
	make(&e, N_SHSTRTAB, SHT_PROGBITS);
	assert_int_equal(has("none", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_NOBITS);
	assert_int_equal(has("nobits", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.sh[3].sh_size = 0;
	assert_int_equal(has("empty", &e, sizeof(e)), 0);
}

/* Headers that point outside the file, or another machine's file. */
static void test_malformed(void **st)
{
	struct elf e;

	(void)st;
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	assert_int_equal(has("cut", &e, offsetof(struct elf, sh) + 3 *
			     sizeof(Shdr)), 0);
	e.eh.e_shoff = UINT32_MAX;
	assert_int_equal(has("far", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.eh.e_shstrndx = 4;
	assert_int_equal(has("strndx", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.sh[3].sh_name = sizeof(NAMES) + 100;
	assert_int_equal(has("name", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.sh[3].sh_size = 1u << 20; /* beyond the end */
	assert_int_equal(has("big", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.eh.e_shentsize = sizeof(Shdr) + 8;
	assert_int_equal(has("entsize", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.eh.e_ident[EI_CLASS] = OTHER_CLASS;
	assert_int_equal(has("class", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.eh.e_ident[EI_DATA] = OTHER_DATA;
	assert_int_equal(has("data", &e, sizeof(e)), 0);
	make(&e, N_DEBUG_INFO, SHT_PROGBITS);
	e.eh.e_ident[1] = 'X';
	assert_int_equal(has("magic", &e, sizeof(e)), 0);
	assert_int_equal(has("tiny", &e, 10), 0);
}

/* No debug section, but a separate file: by build ID (abcd0102...:
 * .build-id/ab/cd010203.debug) or by path (ROOT/PATH.debug). */
static void test_separate(void **st)
{
	char path[2 * PATH_MAX];
	const char *file;
	struct elf e;

	(void)st;
	make(&e, N_SHSTRTAB, SHT_PROGBITS);
	assert_int_equal(has("stripped", &e, sizeof(e)), 0);
	snprintf(path, sizeof(path), "%s/.build-id", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.build-id/ab", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.build-id/ab/cd010203.debug", root);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(has("stripped", &e, sizeof(e)), 1);
	/* the note's ID is another: not found */
	e.note[sizeof(Nhdr) + 4] = 0xac;
	assert_int_equal(has("other-id", &e, sizeof(e)), 0);
	/* a note of another kind */
	make(&e, N_SHSTRTAB, SHT_PROGBITS);
	e.note[offsetof(Nhdr, n_type)] ^= 1;
	assert_int_equal(has("other-note", &e, sizeof(e)), 0);
	assert_int_equal(unlink(path), 0);
	/* by path */
	make(&e, N_SHSTRTAB, SHT_PROGBITS);
	file = put("by-path", &e, sizeof(e));
	assert_int_equal(settle_has_debug_info_in(file, root), 0);
	snprintf(path, sizeof(path), "%s%s", root, dir);
	{
		char cmd[sizeof(path) + 16];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(path, sizeof(path), "%s%s.debug", root, file);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(settle_has_debug_info_in(file, root), 1);
}

/* Names perf gives that are no file, and files that are no ELF. */
static void test_not_elf(void **st)
{
	(void)st;
	assert_int_equal(settle_has_debug_info("[kernel.kallsyms]"), 0);
	assert_int_equal(settle_has_debug_info("[vdso]"), 0);
	assert_int_equal(settle_has_debug_info("[unknown]"), 0);
	assert_int_equal(settle_has_debug_info(""), 0);
	assert_int_equal(settle_has_debug_info("relative/prog"), 0);
	assert_int_equal(settle_has_debug_info_in(dir, root), 0);
	assert_int_equal(settle_has_debug_info("/nonexistent/settle/x"), 0);
	assert_int_equal(has("text", "#!/bin/sh\nexit 0\n", 17), 0);
}

static int setup(void **st)
{
	const char *t = getenv("TMPDIR");

	(void)st;
	snprintf(dir, sizeof(dir), "%s/settle-debuginfo.XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(root, sizeof(root), "%s/root", dir);
	return mkdir(root, 0700);
}

static int teardown(void **st)
{
	char cmd[sizeof(dir) + 32];

	(void)st;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_separate),
		cmocka_unit_test(test_not_elf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
