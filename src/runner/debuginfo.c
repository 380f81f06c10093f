/*
 * debuginfo.c - whether an ELF file has DWARF debug information (see
 * debuginfo.h), from its section headers and section names.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runner/debuginfo.h"
#include "util/elf.h"

#define BUILD_ID_MAX 64 /* bytes of a GNU build ID kept (SHA-1: 20) */

/* The name of section sh, from the section names (names, n bytes). */
static const char *section_name(const settle_elf_shdr *sh, const char *names,
				size_t n)
{
	return sh->sh_name < n && memchr(names + sh->sh_name, '\0',
					 n - sh->sh_name) ?
	       names + sh->sh_name : "";
}

/* The GNU build ID in note section sh (into id, at most BUILD_ID_MAX
 * bytes); returns its length, or 0. */
static size_t build_id(const struct settle_elf *e, const settle_elf_shdr *sh,
		       unsigned char *id)
{
	unsigned char note[sizeof(settle_elf_nhdr) + 4 + BUILD_ID_MAX];
	settle_elf_nhdr n;

	if (sh->sh_size < sizeof(n) + 4 ||
	    settle_elf_read(e, note, sh->sh_size < sizeof(note) ?
			    sh->sh_size : sizeof(note), sh->sh_offset))
		return 0;
	memcpy(&n, note, sizeof(n));
	if (n.n_type != NT_GNU_BUILD_ID || n.n_namesz != 4 ||
	    memcmp(note + sizeof(n), "GNU", 4) || n.n_descsz == 0 ||
	    n.n_descsz > BUILD_ID_MAX ||
	    sizeof(n) + 4 + n.n_descsz > sh->sh_size)
		return 0;
	memcpy(id, note + sizeof(n) + 4, n.n_descsz);
	return n.n_descsz;
}

/* Whether the separate debug file of build ID id (len bytes) exists
 * below root. */
static int separate_by_id(const char *root, const unsigned char *id,
			  size_t len)
{
	char path[PATH_MAX];
	size_t k;

	k = (size_t)snprintf(path, sizeof(path), "%s/.build-id/%02x/", root,
			     id[0]);
	if (k + 2 * len + sizeof(".debug") > sizeof(path))
		return 0;
	for (size_t i = 1; i < len; i++)
		k += (size_t)snprintf(path + k, sizeof(path) - k, "%02x",
				      id[i]);
	snprintf(path + k, sizeof(path) - k, ".debug");
	return access(path, R_OK) == 0;
}

/* What the section headers of e say. */
static int sections(const char *root, const struct settle_elf *e)
{
	unsigned char id[BUILD_ID_MAX];
	size_t idlen = 0;
	char names[65536];
	settle_elf_shdr sh, strtab;
	size_t n;

	if (settle_elf_section(e, e->eh.e_shstrndx, &strtab))
		return 0;
	n = strtab.sh_size < sizeof(names) ? strtab.sh_size : sizeof(names);
	if (settle_elf_read(e, names, n, strtab.sh_offset))
		return 0;
	for (unsigned i = 0; i < e->eh.e_shnum; i++) {
		const char *name;

		if (settle_elf_section(e, i, &sh))
			return 0;
		name = section_name(&sh, names, n);
		if ((!strcmp(name, ".debug_info") ||
		     !strcmp(name, ".zdebug_info")) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size > 0 &&
		    sh.sh_offset <= (uint64_t)e->size &&
		    sh.sh_size <= (uint64_t)e->size - sh.sh_offset)
			return 1;
		if (sh.sh_type == SHT_NOTE && !idlen &&
		    !strcmp(name, ".note.gnu.build-id"))
			idlen = build_id(e, &sh, id);
	}
	return idlen && separate_by_id(root, id, idlen);
}

int settle_has_debug_info(const char *path)
{
	return settle_has_debug_info_in(path, "/usr/lib/debug");
}

int settle_has_debug_info_in(const char *path, const char *root)
{
	char separate[PATH_MAX];
	struct settle_elf e;
	int has;

	if (path[0] != '/')
		return 0;
	if (snprintf(separate, sizeof(separate), "%s%s.debug", root, path) <
	    (int)sizeof(separate) && access(separate, R_OK) == 0)
		return 1;
	if (settle_elf_open(&e, path) < 0)
		return 0;
	has = sections(root, &e);
	settle_elf_close(&e);
	return has;
}
