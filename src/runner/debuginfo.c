/*
 * debuginfo.c - whether an ELF file has DWARF debug information (see
 * debuginfo.h). Reads the ELF header, the section headers and the
 * section names with pread, checking every offset against the file.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/debuginfo.h"

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Shdr Shdr;
typedef Elf64_Nhdr Nhdr;
#define CLASS ELFCLASS64
#else
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Shdr Shdr;
typedef Elf32_Nhdr Nhdr;
#define CLASS ELFCLASS32
#endif

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DATA ELFDATA2MSB
#else
#define DATA ELFDATA2LSB
#endif

#define BUILD_ID_MAX 64 /* bytes of a GNU build ID kept (SHA-1: 20) */

/* Read len bytes at off of fd, all of them inside a file of size bytes. */
static int read_at(int fd, off_t size, void *buf, size_t len, uint64_t off)
{
	if (off > (uint64_t)size || len > (uint64_t)size - off)
		return -1;
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The name of section sh, from the section names (names, n bytes). */
static const char *section_name(const Shdr *sh, const char *names, size_t n)
{
	return sh->sh_name < n && memchr(names + sh->sh_name, '\0',
					 n - sh->sh_name) ?
	       names + sh->sh_name : "";
}

/* The GNU build ID in note section sh (into id, at most BUILD_ID_MAX
 * bytes); returns its length, or 0. */
static size_t build_id(int fd, off_t size, const Shdr *sh, unsigned char *id)
{
	unsigned char note[sizeof(Nhdr) + 4 + BUILD_ID_MAX];
	Nhdr n;

	if (sh->sh_size < sizeof(n) + 4 ||
	    read_at(fd, size, note, sh->sh_size < sizeof(note) ?
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

/* What the section headers of the ELF file fd (size bytes) say. */
static int sections(const char *root, int fd, off_t size, const Ehdr *eh)
{
	unsigned char id[BUILD_ID_MAX];
	size_t idlen = 0;
	char names[65536];
	Shdr sh, strtab;
	size_t n;

	if (eh->e_shentsize != sizeof(Shdr) || eh->e_shnum == 0 ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff > (uint64_t)size ||
	    read_at(fd, size, &strtab, sizeof(strtab), eh->e_shoff +
		    (uint64_t)eh->e_shstrndx * sizeof(Shdr)))
		return 0;
	n = strtab.sh_size < sizeof(names) ? strtab.sh_size : sizeof(names);
	if (read_at(fd, size, names, n, strtab.sh_offset))
		return 0;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const char *name;

		if (read_at(fd, size, &sh, sizeof(sh),
			    eh->e_shoff + (uint64_t)i * sizeof(Shdr)))
			return 0;
		name = section_name(&sh, names, n);
		if ((!strcmp(name, ".debug_info") ||
		     !strcmp(name, ".zdebug_info")) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size > 0 &&
		    sh.sh_offset <= (uint64_t)size &&
		    sh.sh_size <= (uint64_t)size - sh.sh_offset)
			return 1;
		if (sh.sh_type == SHT_NOTE && !idlen &&
		    !strcmp(name, ".note.gnu.build-id"))
			idlen = build_id(fd, size, &sh, id);
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
	struct stat st;
	int fd, has = 0;
	Ehdr eh;

	if (path[0] != '/')
		return 0;
	if (snprintf(separate, sizeof(separate), "%s%s.debug", root, path) <
	    (int)sizeof(separate) && access(separate, R_OK) == 0)
		return 1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read_at(fd, st.st_size, &eh, sizeof(eh), 0) == 0 &&
	    !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == CLASS && eh.e_ident[EI_DATA] == DATA)
		has = sections(root, fd, st.st_size, &eh);
	close(fd);
	return has;
}
