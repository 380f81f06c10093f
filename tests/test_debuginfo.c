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

/* DWARF 5, 7.5.1.1: unit types */
#define DW_UT_compile 1
#define DW_UT_skeleton 4

static char dir[1024]; /* the test's folder: files and debug root */
static char root[1024 + 16];

static const unsigned char id[] = { 0xab, 0xcd, 0x01, 0x02, 0x03 };
static const char names[] = "\0.shstrtab\0.debug_info\0.note.gnu.build-id"
	"\0.zdebug_info\0.comment\0.gnu_debuglink\0.debug_addr"
	"\0.debug_gnu_pubnames\0.debug_aranges";

/* The offset of section name n in names. */
static unsigned name_of(const char *n)
{
	for (size_t i = 0; i < sizeof(names); i += strlen(names + i) + 1)
		if (!strcmp(names + i, n))
			return (unsigned)i;
	fail_msg("no section name %s", n);
	return 0;
}

/* An ELF file: header, section names, a build-ID note, a unit header of
 * "debug information", the compilers (.comment), a debug link, then six
 * section headers: none, the names, the note, the debug section, the
 * comment and the link. */
struct elf {
	Ehdr eh;
	char names[sizeof(names)];
	unsigned char note[sizeof(Nhdr) + 4 + sizeof(id)];
	unsigned char info[64];
	char comment[48];
	char link[16];
	unsigned char aranges[64];
	Shdr sh[7];
};

static void section(struct elf *e, int i, const char *name, unsigned type,
		    size_t off, size_t size)
{
	e->sh[i].sh_name = name_of(name);
	e->sh[i].sh_type = type;
	e->sh[i].sh_offset = off;
	e->sh[i].sh_size = size;
}

/* A file whose debug section is debug_name, of type debug_type, its first
 * unit of DWARF version v and unit type ut, built by comment. */
static void make(struct elf *e, const char *debug_name, unsigned debug_type,
		 uint16_t v, uint8_t ut, const char *comment)
{
	Nhdr n = { .n_namesz = 4, .n_descsz = sizeof(id),
		   .n_type = NT_GNU_BUILD_ID };
	uint32_t length = 12;

	memset(e, 0, sizeof(*e));
	memcpy(e->eh.e_ident, ELFMAG, SELFMAG);
	e->eh.e_ident[EI_CLASS] = CLASS;
	e->eh.e_ident[EI_DATA] = DATA;
	e->eh.e_ident[EI_VERSION] = EV_CURRENT;
	e->eh.e_type = ET_EXEC;
	e->eh.e_version = EV_CURRENT;
	e->eh.e_ehsize = sizeof(Ehdr);
	e->eh.e_shentsize = sizeof(Shdr);
	e->eh.e_shnum = 7;
	e->eh.e_shstrndx = 1;
	e->eh.e_shoff = offsetof(struct elf, sh);
	memcpy(e->names, names, sizeof(names));
	memcpy(e->note, &n, sizeof(n));
	memcpy(e->note + sizeof(n), "GNU", 4);
	memcpy(e->note + sizeof(n) + 4, id, sizeof(id));
	memcpy(e->info, &length, 4); /* this machine's byte order */
	memcpy(e->info + 4, &v, 2);
	e->info[6] = ut;
	e->sh[3].sh_size = 16; /* one unit; unit() adds more */
	snprintf(e->comment, sizeof(e->comment), "%s", comment);
	section(e, 1, ".shstrtab", SHT_STRTAB, offsetof(struct elf, names),
		sizeof(names));
	section(e, 2, ".note.gnu.build-id", SHT_NOTE,
		offsetof(struct elf, note), sizeof(e->note));
	section(e, 3, debug_name, debug_type, offsetof(struct elf, info), 16);
	section(e, 4, ".comment", SHT_PROGBITS, offsetof(struct elf, comment),
		strlen(e->comment) + 1);
	section(e, 5, ".gnu_debuglink", SHT_PROGBITS,
		offsetof(struct elf, link), 0);
	section(e, 6, ".debug_aranges", SHT_PROGBITS,
		offsetof(struct elf, aranges), 0);
}

/* e's .debug_aranges: one set (DWARF 5, 6.1.2, version 2) of the range
 * [lo, lo + len), this machine's address size, aligned after its header
 * to twice that size. */
static void ranges(struct elf *e, uintptr_t lo, uintptr_t len)
{
	unsigned char *a = e->aranges;
	size_t asz = sizeof(uintptr_t), at = 4 + 2 + 4 + 1 + 1;
	uint32_t length;
	uint16_t v = 2;
	uintptr_t zero = 0;

	memset(a, 0, sizeof(e->aranges));
	at = (at + 2 * asz - 1) / (2 * asz) * (2 * asz);
	memcpy(a + at, &lo, asz);
	memcpy(a + at + asz, &len, asz);
	memcpy(a + at + 2 * asz, &zero, asz);
	memcpy(a + at + 3 * asz, &zero, asz);
	length = (uint32_t)(at + 4 * asz - 4);
	memcpy(a, &length, 4);
	memcpy(a + 4, &v, 2);
	a[10] = (unsigned char)asz;
	e->sh[6].sh_size = at + 4 * asz;
}

/* One more unit in e's debug section: DWARF version v, unit type ut,
 * 64-bit DWARF with wide set (12 bytes of header, 4 more of contents). */
static void unit(struct elf *e, uint16_t v, uint8_t ut, int wide)
{
	unsigned char *u = e->info + e->sh[3].sh_size;
	uint32_t mark = 0xffffffff, length = 12;
	uint64_t length64 = 8;

	assert_true(e->sh[3].sh_size + 16 + 4 * wide <= sizeof(e->info));
	if (wide) {
		memcpy(u, &mark, 4);
		memcpy(u + 4, &length64, 8);
		u += 8;
	} else {
		memcpy(u, &length, 4);
	}
	memcpy(u + 4, &v, 2);
	u[6] = ut;
	e->sh[3].sh_size += 16 + 4 * wide;
}

/* A stripped file: no debug section (the fourth is a second comment). */
static void stripped(struct elf *e)
{
	make(e, ".comment", SHT_PROGBITS, 5, DW_UT_compile, "GCC: 12.2.0");
}

static void debug(struct elf *e)
{
	make(e, ".debug_info", SHT_PROGBITS, 5, DW_UT_compile, "GCC: 12.2.0");
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

/* DWARF perf reads in the file: a .debug_info (compressed with -gz too),
 * not .zdebug_info, not empty, not a split unit's skeleton, not clang's
 * DWARF 5 (binutils 2.40's addr2line reads no inlined function of it). */
static void test_sections(void **st)
{
	struct elf e;

	(void)st;
	debug(&e);
	assert_int_equal(has("debug", &e, sizeof(e)), 1);
	e.sh[3].sh_flags = SHF_COMPRESSED; /* -gz: its header unread */
	e.info[6] = DW_UT_skeleton;
	assert_int_equal(has("gz", &e, sizeof(e)), 1);
	make(&e, ".zdebug_info", SHT_PROGBITS, 4, 0, "GCC: 12.2.0");
	assert_int_equal(has("zdebug", &e, sizeof(e)), 0);
	stripped(&e);
	assert_int_equal(has("none", &e, sizeof(e)), 0);
	make(&e, ".debug_info", SHT_NOBITS, 5, DW_UT_compile, "GCC");
	assert_int_equal(has("nobits", &e, sizeof(e)), 0);
	debug(&e);
	e.sh[3].sh_size = 0;
	assert_int_equal(has("empty", &e, sizeof(e)), 0);
	make(&e, ".debug_info", SHT_PROGBITS, 5, DW_UT_skeleton, "GCC");
	assert_int_equal(has("skeleton", &e, sizeof(e)), 0);
	make(&e, ".debug_info", SHT_PROGBITS, 4, 0, "GCC");
	assert_int_equal(has("dwarf4", &e, sizeof(e)), 1);
	make(&e, ".debug_info", SHT_PROGBITS, 5, DW_UT_compile,
	     "Debian clang version 14.0.6");
	assert_int_equal(has("clang5", &e, sizeof(e)), 0);
	make(&e, ".debug_info", SHT_PROGBITS, 4, 0,
	     "Debian clang version 14.0.6");
	assert_int_equal(has("clang4", &e, sizeof(e)), 1);
	/* every unit is read, not the first alone: an assembler's DWARF 4
	 * unit before clang's DWARF 5 ones let the file through */
	unit(&e, 5, DW_UT_compile, 0);
	assert_int_equal(has("clang45", &e, sizeof(e)), 0);
	debug(&e);
	unit(&e, 5, DW_UT_compile, 1); /* 64-bit DWARF */
	assert_int_equal(has("wide", &e, sizeof(e)), 1);
	unit(&e, 5, DW_UT_skeleton, 0);
	assert_int_equal(has("wideskel", &e, sizeof(e)), 0);
	debug(&e);
	e.sh[3].sh_size = 20; /* a unit cut short */
	assert_int_equal(has("cutunit", &e, sizeof(e)), 0);
	/* compressed (-gz): its units unread, a file clang built refused */
	make(&e, ".debug_info", SHT_PROGBITS, 5, DW_UT_compile,
	     "Debian clang version 14.0.6");
	e.sh[3].sh_flags = SHF_COMPRESSED;
	assert_int_equal(has("clanggz", &e, sizeof(e)), 0);
	/* DWARF 4 split into .dwo files, as GCC writes it */
	make(&e, ".debug_info", SHT_PROGBITS, 4, 0, "GCC: 12.2.0");
	section(&e, 4, ".debug_addr", SHT_PROGBITS,
		offsetof(struct elf, comment), 8);
	assert_int_equal(has("addr", &e, sizeof(e)), 1);
	section(&e, 5, ".debug_gnu_pubnames", SHT_PROGBITS,
		offsetof(struct elf, link), 8);
	assert_int_equal(has("split4", &e, sizeof(e)), 0);
}

/* Headers that point outside the file, or another machine's file. */
static void test_malformed(void **st)
{
	struct elf e;

	(void)st;
	debug(&e);
	assert_int_equal(has("cut", &e, offsetof(struct elf, sh) + 3 *
			     sizeof(Shdr)), 0);
	e.eh.e_shoff = UINT32_MAX;
	assert_int_equal(has("far", &e, sizeof(e)), 0);
	debug(&e);
	e.eh.e_shstrndx = 6;
	assert_int_equal(has("strndx", &e, sizeof(e)), 0);
	debug(&e);
	e.sh[3].sh_name = sizeof(names) + 100;
	assert_int_equal(has("name", &e, sizeof(e)), 0);
	debug(&e);
	e.sh[3].sh_size = 1u << 20; /* beyond the end */
	assert_int_equal(has("big", &e, sizeof(e)), 0);
	debug(&e);
	e.eh.e_shentsize = sizeof(Shdr) + 8;
	assert_int_equal(has("entsize", &e, sizeof(e)), 0);
	debug(&e);
	e.eh.e_ident[EI_CLASS] = OTHER_CLASS;
	assert_int_equal(has("class", &e, sizeof(e)), 0);
	debug(&e);
	e.eh.e_ident[EI_DATA] = OTHER_DATA;
	assert_int_equal(has("data", &e, sizeof(e)), 0);
	debug(&e);
	e.eh.e_ident[1] = 'X';
	assert_int_equal(has("magic", &e, sizeof(e)), 0);
	assert_int_equal(has("tiny", &e, 10), 0);
}

/* mkdir -p of path (1 when done). */
static int folders(const char *path)
{
	char cmd[2400];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	return system(cmd) == 0;
}

/*
 * No debug section, but a separate file of the same build (its build ID,
 * readable DWARF): by build ID (abcd0102...: .build-id/ab/cd010203.debug
 * below the root), by path (ROOT/PATH.debug), or by .gnu_debuglink beside
 * the file, in .debug/ beside it, or below the root. A file of another
 * build, one without DWARF, or one that is no ELF file is none.
 */
static void test_separate(void **st)
{
	char folder[2200], path[sizeof(folder) + 64];
	struct elf e, d;
	const char *file;

	(void)st;
	stripped(&e);
	assert_int_equal(has("stripped", &e, sizeof(e)), 0);
	snprintf(folder, sizeof(folder), "%s/.build-id/ab", root);
	assert_true(folders(folder));
	snprintf(path, sizeof(path), "%s/cd010203.debug", folder);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(has("stripped", &e, sizeof(e)), 0);
	assert_int_equal(unlink(path), 0);
	debug(&d);
	put("id.debug", &d, sizeof(d));
	snprintf(path, sizeof(path), "%s/id.debug", dir);
	snprintf(folder, sizeof(folder), "%s/.build-id/ab/cd010203.debug",
		 root);
	assert_int_equal(rename(path, folder), 0);
	assert_int_equal(has("stripped", &e, sizeof(e)), 1);
	/* another build's file by that name: not the program's */
	d.note[sizeof(Nhdr) + 4 + 1] ^= 1;
	put("other.debug", &d, sizeof(d));
	snprintf(path, sizeof(path), "%s/other.debug", dir);
	assert_int_equal(rename(path, folder), 0);
	assert_int_equal(has("stripped", &e, sizeof(e)), 0);
	/* the program's build, without DWARF */
	stripped(&d);
	put("nodwarf.debug", &d, sizeof(d));
	snprintf(path, sizeof(path), "%s/nodwarf.debug", dir);
	assert_int_equal(rename(path, folder), 0);
	assert_int_equal(has("stripped", &e, sizeof(e)), 0);
	assert_int_equal(unlink(folder), 0);
	/* by path, with the build's ID */
	file = put("by-path", &e, sizeof(e));
	snprintf(folder, sizeof(folder), "%s%s", root, dir);
	assert_true(folders(folder));
	debug(&d);
	snprintf(path, sizeof(path), "%s%s/by-path.debug", root, dir);
	{
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(&d, 1, sizeof(d), f), sizeof(d));
		assert_int_equal(fclose(f), 0);
	}
	assert_int_equal(settle_has_debug_info_in(file, root), 1);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(settle_has_debug_info_in(file, root), 0);
	/* by .gnu_debuglink: beside it, then in .debug/ beside it */
	stripped(&e);
	snprintf(e.link, sizeof(e.link), "x.dbg");
	e.sh[5].sh_size = sizeof(e.link);
	assert_int_equal(has("linked", &e, sizeof(e)), 0);
	put("x.dbg", &d, sizeof(d));
	assert_int_equal(has("linked", &e, sizeof(e)), 1);
	snprintf(path, sizeof(path), "%s/x.dbg", dir);
	snprintf(folder, sizeof(folder), "%s/.debug", dir);
	assert_true(folders(folder));
	snprintf(folder, sizeof(folder), "%s/.debug/x.dbg", dir);
	assert_int_equal(rename(path, folder), 0);
	assert_int_equal(has("linked", &e, sizeof(e)), 1);
	assert_int_equal(unlink(folder), 0);
	assert_int_equal(has("linked", &e, sizeof(e)), 0);
}

/*
 * The sampled addresses in units of the DWARF (.debug_aranges): a program
 * linked from objects with and without -g has DWARF, not for the code of
 * the others. No .debug_aranges: taken to cover; one that cannot be read
 * as DWARF writes it, or no DWARF: not. A separate file's ranges count.
 */
static void test_covers(void **st)
{
	const uint64_t in[] = { 0x1000, 0x1080, 0x10ff };
	const uint64_t out[] = { 0x1000, 0x1100 };
	const char *file;
	char path[PATH_MAX], to[2200];
	struct elf e, d;

	(void)st;
	debug(&e);
	ranges(&e, 0x1000, 0x100);
	file = put("covered", &e, sizeof(e));
	assert_int_equal(settle_debug_covers(file, root, in, 3), 1);
	assert_int_equal(settle_debug_covers(file, root, out, 2), 0);
	assert_int_equal(settle_debug_covers(file, root, out + 1, 1), 0);
	assert_int_equal(settle_debug_covers(file, root, in, 0), 1);
	e.aranges[10] = 3; /* an address size DWARF has not */
	file = put("badranges", &e, sizeof(e));
	assert_int_equal(settle_debug_covers(file, root, in, 1), 0);
	debug(&e); /* no .debug_aranges */
	file = put("noranges", &e, sizeof(e));
	assert_int_equal(settle_debug_covers(file, root, out, 2), 1);
	stripped(&e); /* no DWARF */
	ranges(&e, 0x1000, 0x100);
	file = put("nodwarf", &e, sizeof(e));
	assert_int_equal(settle_debug_covers(file, root, in, 1), 0);
	/* the ranges of a separate file of its build */
	debug(&d);
	ranges(&d, 0x1000, 0x100);
	put("sep.debug", &d, sizeof(d));
	snprintf(path, sizeof(path), "%s/sep.debug", dir);
	snprintf(to, sizeof(to), "%s/.build-id/ab", root);
	assert_true(folders(to));
	snprintf(to, sizeof(to), "%s/.build-id/ab/cd010203.debug", root);
	assert_int_equal(rename(path, to), 0);
	file = put("stripped2", &e, sizeof(e));
	assert_int_equal(settle_debug_covers(file, root, in, 3), 1);
	assert_int_equal(settle_debug_covers(file, root, out, 2), 0);
	assert_int_equal(unlink(to), 0);
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
	/* a FIFO by a sampled file's name: no wait for a writer */
	{
		char fifo[PATH_MAX];

		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		assert_int_equal(mkfifo(fifo, 0600), 0);
		assert_int_equal(settle_has_debug_info_in(fifo, root), 0);
	}
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
		cmocka_unit_test(test_covers),
		cmocka_unit_test(test_not_elf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
