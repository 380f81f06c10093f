/*
 * debuginfo.c - whether perf can read where the compiler inlined code in
 * an ELF file (see debuginfo.h): DWARF it reads in the file itself, or in
 * a separate file of the same build found as GDB and perf find it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/debuginfo.h"
#include "util/elf.h"

#define BUILD_ID_MAX 64    /* bytes of a GNU build ID kept (SHA-1: 20) */
#define NAMES_MAX 65536    /* bytes of section names read */
#define COMMENT_MAX 4096   /* bytes of .comment read */
#define DW_UT_SKELETON 4   /* DWARF 5, 7.5.1.1: a split unit's skeleton */

/* An open ELF file and its section names. */
struct sections {
	struct settle_elf e;
	char names[NAMES_MAX];
	size_t n;
};

/* Open path and read its section names. Returns 0, or -1 (closed). */
static int open_sections(struct sections *s, const char *path)
{
	settle_elf_shdr strtab;

	if (settle_elf_open(&s->e, path) < 0)
		return -1;
	if (settle_elf_section(&s->e, s->e.eh.e_shstrndx, &strtab) == 0) {
		s->n = strtab.sh_size < NAMES_MAX ? strtab.sh_size : NAMES_MAX;
		if (settle_elf_read(&s->e, s->names, s->n,
				    strtab.sh_offset) == 0)
			return 0;
	}
	settle_elf_close(&s->e);
	return -1;
}

/* Section name of s, with contents in the file (not SHT_NOBITS, not
 * empty, inside the file), into sh. Returns 0, or -1: none. */
static int find(const struct sections *s, const char *name,
		settle_elf_shdr *sh)
{
	for (unsigned i = 0; i < s->e.eh.e_shnum; i++) {
		if (settle_elf_section(&s->e, i, sh) < 0)
			return -1;
		if (sh->sh_name >= s->n ||
		    !memchr(s->names + sh->sh_name, '\0', s->n - sh->sh_name) ||
		    strcmp(s->names + sh->sh_name, name))
			continue;
		return sh->sh_type != SHT_NOBITS && sh->sh_size > 0 &&
		       sh->sh_offset <= (uint64_t)s->e.size &&
		       sh->sh_size <= (uint64_t)s->e.size - sh->sh_offset ?
		       0 : -1;
	}
	return -1;
}

/* Whether clang built code of the file (.comment names the compilers). */
static int by_clang(const struct sections *s)
{
	char text[COMMENT_MAX + 1];
	settle_elf_shdr sh;
	size_t n;

	if (find(s, ".comment", &sh) < 0)
		return 0;
	n = sh.sh_size < COMMENT_MAX ? sh.sh_size : COMMENT_MAX;
	if (settle_elf_read(&s->e, text, n, sh.sh_offset) < 0)
		return 0;
	text[n] = '\0';
	for (size_t i = 0; i < n; i += strlen(text + i) + 1)
		if (strstr(text + i, "clang version"))
			return 1;
	return 0;
}

/* Whether the units are split into .dwo files (-gsplit-dwarf, DWARF 4 as
 * GCC writes it: the skeleton has addresses in .debug_addr and names in
 * .debug_gnu_pubnames; DWARF 5 skeletons are told by their unit type). */
static int split_sections(const struct sections *s)
{
	settle_elf_shdr sh;

	return find(s, ".debug_addr", &sh) == 0 &&
	       find(s, ".debug_gnu_pubnames", &sh) == 0;
}

/* n bytes (4 or 8) at p, in the file's byte order (this machine's). */
static uint64_t word(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[SETTLE_ELF_DATA == ELFDATA2LSB ? i :
				 n - 1 - i] << 8 * i;
	return v;
}

/*
 * Whether any unit of .debug_info (sh) is one perf cannot read inlined
 * code from: a split unit's skeleton, or one of DWARF 5 in a file clang
 * built. Reads every unit's header (DWARF 5, 7.5.1: unit_length, 4 bytes,
 * or 0xffffffff and 8; version, 2; unit_type, 1, from version 5). 1 also
 * when the headers do not add up to the section.
 */
static int unreadable_unit(const struct sections *s, const settle_elf_shdr *sh)
{
	int clang = by_clang(s);
	uint64_t off = 0;

	while (off < sh->sh_size) {
		unsigned char h[16];
		uint64_t len, left = sh->sh_size - off;
		size_t at = 4;
		unsigned v;

		if (left < 12 || settle_elf_read(&s->e, h, left < sizeof(h) ?
						 12 : sizeof(h),
						 sh->sh_offset + off))
			return 1;
		len = word(h, 4);
		if (len == 0xffffffff) { /* 64-bit DWARF */
			if (left < sizeof(h))
				return 1;
			len = word(h + 4, 8);
			at = 12;
		}
		v = (unsigned)word(h + at, 2);
		if ((v >= 5 && (clang || h[at + 2] == DW_UT_SKELETON)) ||
		    len > left - at)
			return 1;
		off += at + len;
	}
	return 0;
}

/*
 * Whether s holds DWARF from which perf (6.1, through binutils' addr2line
 * 2.40) reads inlined functions: a .debug_info section (compressed with
 * -gz too, then of a file clang did not build: its headers are not read),
 * not .zdebug_info (-gz=zlib-gnu), not split into .dwo files, and no unit
 * of clang's DWARF 5 (addr2line named a loop inlined by clang 14's -g
 * after its caller alone; with -gdwarf-4, after the function inlined).
 */
static int readable_dwarf(const struct sections *s)
{
	settle_elf_shdr sh;

	if (find(s, ".debug_info", &sh) < 0 || sh.sh_size < 12 ||
	    split_sections(s))
		return 0;
	if (sh.sh_flags & SHF_COMPRESSED)
		return !by_clang(s);
	return !unreadable_unit(s, &sh);
}

/* The GNU build ID of s (into id, at most BUILD_ID_MAX bytes); returns its
 * length, or 0. */
static size_t build_id(const struct sections *s, unsigned char *id)
{
	unsigned char note[sizeof(settle_elf_nhdr) + 4 + BUILD_ID_MAX];
	settle_elf_nhdr n;
	settle_elf_shdr sh;

	if (find(s, ".note.gnu.build-id", &sh) < 0 ||
	    sh.sh_size < sizeof(n) + 4 ||
	    settle_elf_read(&s->e, note, sh.sh_size < sizeof(note) ?
			    sh.sh_size : sizeof(note), sh.sh_offset))
		return 0;
	memcpy(&n, note, sizeof(n));
	if (n.n_type != NT_GNU_BUILD_ID || n.n_namesz != 4 ||
	    memcmp(note + sizeof(n), "GNU", 4) || n.n_descsz == 0 ||
	    n.n_descsz > BUILD_ID_MAX ||
	    sizeof(n) + 4 + n.n_descsz > sh.sh_size)
		return 0;
	memcpy(id, note + sizeof(n) + 4, n.n_descsz);
	return n.n_descsz;
}

/* Whether path is a separate debug file of the build with ID id (len
 * bytes) that perf reads: the same build ID (a file left from another
 * build is not the program's), and readable DWARF. */
static int separate(const char *path, const unsigned char *id, size_t len)
{
	unsigned char its[BUILD_ID_MAX];
	struct sections *s = malloc(sizeof(*s));
	int ok = 0;

	if (s && open_sections(s, path) == 0) {
		ok = build_id(s, its) == len && !memcmp(its, id, len) &&
		     readable_dwarf(s);
		settle_elf_close(&s->e);
	}
	free(s);
	return ok;
}

/* root/.build-id/NN/REST.debug for build ID id (len bytes), its path
 * into path (size bytes). */
static int by_build_id(const char *root, const unsigned char *id, size_t len,
		       char *path, size_t size)
{
	size_t k;

	k = (size_t)snprintf(path, size, "%s/.build-id/%02x/", root, id[0]);
	if (k + 2 * len + sizeof(".debug") > size)
		return 0;
	for (size_t i = 1; i < len; i++)
		k += (size_t)snprintf(path + k, size - k, "%02x", id[i]);
	snprintf(path + k, size - k, ".debug");
	return separate(path, id, len);
}

/* The file .gnu_debuglink of s names (objcopy --add-gnu-debuglink), where
 * GDB looks for it: beside path, in .debug/ beside it, and below root
 * under path's folder. */
static int by_debuglink(const struct sections *s, const char *path,
			const char *root, const unsigned char *id, size_t len,
			char *cand, size_t size)
{
	static const char *const where[] = { "%.*s%s", "%.*s.debug/%s",
					     "%s%.*s%s" };
	char name[256];
	const char *slash = strrchr(path, '/');
	int dir = (int)(slash - path + 1);
	settle_elf_shdr sh;
	size_t n;

	if (find(s, ".gnu_debuglink", &sh) < 0)
		return 0;
	n = sh.sh_size < sizeof(name) - 1 ? sh.sh_size : sizeof(name) - 1;
	if (settle_elf_read(&s->e, name, n, sh.sh_offset) < 0)
		return 0;
	name[n] = '\0';
	if (!name[0] || strchr(name, '/'))
		return 0;
	for (size_t i = 0; i < 3; i++) {
		int w = i < 2 ?
			snprintf(cand, size, where[i], dir, path, name) :
			snprintf(cand, size, where[i], root, dir, path, name);

		if (w > 0 && (size_t)w < size && separate(cand, id, len))
			return 1;
	}
	return 0;
}

int settle_has_debug_info(const char *path)
{
	return settle_has_debug_info_in(path, "/usr/lib/debug");
}

/* The file holding path's DWARF (path itself, or a separate file of its
 * build) into out (len bytes). Returns 1, or 0: none perf reads. */
static int dwarf_file(const char *path, const char *root, char *out,
		      size_t len)
{
	unsigned char id[BUILD_ID_MAX];
	struct sections *s;
	size_t n;
	int has;

	if (path[0] != '/' || !(s = malloc(sizeof(*s))))
		return 0;
	if (open_sections(s, path) < 0) {
		free(s);
		return 0;
	}
	has = readable_dwarf(s);
	if (has)
		snprintf(out, len, "%s", path);
	/* a separate file is the build's only with its build ID */
	n = has ? 0 : build_id(s, id);
	if (n)
		has = by_build_id(root, id, n, out, len) ||
		      by_debuglink(s, path, root, id, n, out, len) ||
		      (snprintf(out, len, "%s%s.debug", root, path) <
		       (int)len && separate(out, id, n));
	settle_elf_close(&s->e);
	free(s);
	return has;
}

int settle_has_debug_info_in(const char *path, const char *root)
{
	char file[PATH_MAX];

	return dwarf_file(path, root, file, sizeof(file));
}

/* An address range [lo, hi) of a unit. */
struct range {
	uint64_t lo, hi;
};

static int by_start(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The n ranges r, sorted by start, made disjoint; returns how many. */
static size_t merge(struct range *r, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (k && r[i].lo <= r[k - 1].hi) {
			if (r[i].hi > r[k - 1].hi)
				r[k - 1].hi = r[i].hi;
			continue;
		}
		r[k++] = r[i];
	}
	return k;
}

/*
 * The ranges of .debug_aranges (sh) of s into *out (heap), their count
 * returned; -1 when the section cannot be read as DWARF writes it (DWARF
 * 5, 6.1.2: sets of unit_length, version 2, debug_info_offset,
 * address_size, segment_selector_size, padding to twice the address size,
 * then (address, length) pairs ending in (0, 0)).
 */
static long aranges(const struct sections *s, const settle_elf_shdr *sh,
		    struct range **out)
{
	unsigned char *d = malloc(sh->sh_size + 1);
	struct range *r = NULL;
	uint64_t off = 0;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!d || settle_elf_read(&s->e, d, sh->sh_size, sh->sh_offset))
		goto bad;
	while (off + 4 <= sh->sh_size) {
		uint64_t len = word(d + off, 4), end, at;
		int wide = len == 0xffffffff;
		unsigned asz, ssz;

		if (wide && off + 12 > sh->sh_size)
			goto bad;
		if (wide)
			len = word(d + off + 4, 8);
		at = off + (wide ? 12 : 4);
		if (len > sh->sh_size - at || len < 2 + (wide ? 8 : 4) + 2)
			goto bad;
		end = at + len;
		at += 2 + (wide ? 8 : 4); /* version, debug_info_offset */
		asz = d[at];
		ssz = d[at + 1];
		at += 2;
		if ((asz != 4 && asz != 8) || ssz)
			goto bad;
		at = off + ((at - off + 2 * asz - 1) / (2 * asz)) * (2 * asz);
		for (; at + 2 * asz <= end; at += 2 * asz) {
			uint64_t lo = word(d + at, (int)asz),
				 l = word(d + at + asz, (int)asz);

			if (!lo && !l)
				break;
			if (n == cap) {
				struct range *m;

				cap = cap ? 2 * cap : 256;
				if (!(m = realloc(r, cap * sizeof(*r))))
					goto bad;
				r = m;
			}
			r[n].lo = lo;
			r[n++].hi = lo + l < lo ? UINT64_MAX : lo + l;
		}
		off = end;
	}
	free(d);
	qsort(r, n, sizeof(*r), by_start);
	*out = r;
	return (long)merge(r, n);
bad:
	free(d);
	free(r);
	return -1;
}

/* Whether a lies in one of the n ranges r, sorted and disjoint. */
static int covered(const struct range *r, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the first range starting beyond a */
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && a < r[lo - 1].hi;
}

int settle_debug_covers(const char *path, const char *root,
			const uint64_t *addr, size_t n)
{
	char file[PATH_MAX];
	struct sections *s;
	struct range *r;
	settle_elf_shdr sh;
	int all = 1;
	long k;

	if (!dwarf_file(path, root, file, sizeof(file)) ||
	    !(s = malloc(sizeof(*s))))
		return 0;
	if (open_sections(s, file) < 0) {
		free(s);
		return 0;
	}
	/* no ranges to check (clang writes none without -gdwarf-aranges;
	 * compressed): the units are taken to cover the file */
	if (find(s, ".debug_aranges", &sh) < 0 ||
	    (sh.sh_flags & SHF_COMPRESSED)) {
		settle_elf_close(&s->e);
		free(s);
		return 1;
	}
	k = aranges(s, &sh, &r);
	for (size_t i = 0; k >= 0 && i < n && all; i++)
		all = covered(r, (size_t)k, addr[i]);
	settle_elf_close(&s->e);
	free(s);
	free(r);
	return k >= 0 && all;
}
