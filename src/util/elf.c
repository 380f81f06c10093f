/*
 * elf.c - ELF headers read with every offset checked (see elf.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/elf.h"

int settle_elf_open(struct settle_elf *e, const char *path)
{
	struct stat st;

	/* not blocking: a FIFO by that name waited for a writer for ever */
	e->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (e->fd < 0)
		return -1;
	if (fstat(e->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		e->size = st.st_size;
		if (settle_elf_read(e, &e->eh, sizeof(e->eh), 0) == 0 &&
		    !memcmp(e->eh.e_ident, ELFMAG, SELFMAG) &&
		    e->eh.e_ident[EI_CLASS] == SETTLE_ELF_CLASS &&
		    e->eh.e_ident[EI_DATA] == SETTLE_ELF_DATA)
			return 0;
	}
	settle_elf_close(e);
	return -1;
}

int settle_elf_read(const struct settle_elf *e, void *buf, size_t len,
		    uint64_t off)
{
	if (off > (uint64_t)e->size || len > (uint64_t)e->size - off)
		return -1;
	return pread(e->fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Whether the n entries of entsize bytes at off lie inside e. */
static int table_inside(const struct settle_elf *e, uint64_t off,
			uint64_t n, uint64_t entsize)
{
	return off <= (uint64_t)e->size &&
	       n * entsize <= (uint64_t)e->size - off;
}

int settle_elf_section(const struct settle_elf *e, unsigned i,
		       settle_elf_shdr *sh)
{
	if (e->eh.e_shentsize != sizeof(*sh) || i >= e->eh.e_shnum ||
	    !table_inside(e, e->eh.e_shoff, e->eh.e_shnum, sizeof(*sh)))
		return -1;
	return settle_elf_read(e, sh, sizeof(*sh),
			       e->eh.e_shoff + (uint64_t)i * sizeof(*sh));
}

void settle_elf_close(struct settle_elf *e)
{
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

/* The ELF header's 16-bit field at offset off (16 e_type, 18 e_machine,
 * the same in both classes) of the file at path, in the file's byte
 * order, or -1 when it is no ELF file. */
static int header_half(const char *path, int off)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), n;

	if (fd < 0)
		return -1;
	n = (int)read(fd, h, sizeof(h));
	close(fd);
	if (n != (int)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return -1;
	return h[EI_DATA] == ELFDATA2MSB ? h[off] << 8 | h[off + 1] :
					  h[off + 1] << 8 | h[off];
}

int settle_elf_type(const char *path)
{
	return header_half(path, 16);
}

int settle_elf_machine(const char *path)
{
	return header_half(path, 18);
}

/* Whether e's program headers and its loadable segments' contents lie
 * inside it. */
static int segments_inside(const struct settle_elf *e)
{
	settle_elf_phdr ph;

	if (e->eh.e_phnum && (e->eh.e_phentsize != sizeof(ph) ||
	    !table_inside(e, e->eh.e_phoff, e->eh.e_phnum, sizeof(ph))))
		return 0;
	for (unsigned i = 0; i < e->eh.e_phnum; i++) {
		if (settle_elf_read(e, &ph, sizeof(ph), e->eh.e_phoff +
				    (uint64_t)i * sizeof(ph)))
			return 0;
		if (ph.p_type == PT_LOAD && ph.p_filesz &&
		    !table_inside(e, ph.p_offset, 1, ph.p_filesz))
			return 0;
	}
	return 1;
}

int settle_elf_whole(const char *path)
{
	struct settle_elf e;
	int whole;

	if (settle_elf_open(&e, path) < 0)
		return -1;
	whole = segments_inside(&e) &&
		(!e.eh.e_shnum || (e.eh.e_shentsize == sizeof(settle_elf_shdr) &&
		 table_inside(&e, e.eh.e_shoff, e.eh.e_shnum,
			      sizeof(settle_elf_shdr))));
	settle_elf_close(&e);
	return whole;
}

/* The symbol table of e (.symtab) and its string table, read whole into
 * *sym (*nsym entries) and *str (*nstr bytes; both malloc'ed). 0, or -1
 * when there is none, it lies outside e or memory runs out. */
static int symbols(const struct settle_elf *e, settle_elf_sym **sym,
		   size_t *nsym, char **str, size_t *nstr)
{
	settle_elf_shdr sh, st;

	*sym = NULL;
	*str = NULL;
	for (unsigned i = 0; i < e->eh.e_shnum; i++) {
		if (settle_elf_section(e, i, &sh) < 0)
			return -1;
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_entsize != sizeof(**sym) ||
		    settle_elf_section(e, sh.sh_link, &st) < 0 ||
		    !table_inside(e, sh.sh_offset, 1, sh.sh_size) ||
		    !table_inside(e, st.sh_offset, 1, st.sh_size) ||
		    !st.sh_size)
			return -1;
		*nsym = sh.sh_size / sizeof(**sym);
		*nstr = st.sh_size;
		*sym = malloc(sh.sh_size ? sh.sh_size : 1);
		*str = malloc(st.sh_size);
		if (!*sym || !*str ||
		    settle_elf_read(e, *sym, sh.sh_size, sh.sh_offset) ||
		    settle_elf_read(e, *str, st.sh_size, st.sh_offset)) {
			free(*sym);
			free(*str);
			return -1;
		}
		(*str)[st.sh_size - 1] = '\0';
		return 0;
	}
	return -1;
}

int settle_runtime_function(const char *name)
{
	static const char *const names[] = {
		"_init", "_fini", "deregister_tm_clones", "register_tm_clones",
		"__do_global_dtors_aux", "frame_dummy", "call_weak_fn",
	};
	size_t len = strlen(name);

	if ((len > 4 && !strcmp(name + len - 4, "@plt")) ||
	    !strncmp(name, "__x86.get_pc_thunk.", 19))
		return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

#define MAX_MARKS 8

/* Whether the function at address a (section shndx) is in cold code: the
 * nearest of the marks m[0..n) at or below it (in its section) is the
 * cold one. */
static int in_cold(const settle_elf_sym *const *m, const int *cold,
		   size_t n, const settle_elf_sym *s)
{
	const settle_elf_sym *near = NULL;
	int c = 0;

	for (size_t i = 0; i < n; i++)
		if (m[i]->st_shndx == s->st_shndx &&
		    m[i]->st_value <= s->st_value &&
		    (!near || m[i]->st_value > near->st_value)) {
			near = m[i];
			c = cold[i];
		}
	return c;
}

/* Whether section i of e holds code. */
static int code_section(const struct settle_elf *e, unsigned i)
{
	settle_elf_shdr sh;

	return i != SHN_UNDEF && i < SHN_LORESERVE &&
	       settle_elf_section(e, i, &sh) == 0 &&
	       (sh.sh_flags & SHF_EXECINSTR);
}

/* The largest power of two, at most 4096, that divides a. */
static long align_of(uint64_t a)
{
	long k = 1;

	while (k < 4096 && !(a & (uint64_t)k))
		k *= 2;
	return k;
}

long settle_elf_code_align(const char *path, const char *prefix,
			   const char *code, const char *cold, unsigned slot,
			   char *name, size_t len)
{
	struct settle_elf e;
	const settle_elf_sym *mark[MAX_MARKS];
	settle_elf_sym *sym;
	size_t nsym, nstr, nmark = 0;
	char *str;
	long worst = 4096;
	int marked = 0, is_cold[MAX_MARKS];

	if (len)
		name[0] = '\0';
	if (settle_elf_open(&e, path) < 0)
		return -1;
	if (symbols(&e, &sym, &nsym, &str, &nstr) < 0) {
		settle_elf_close(&e);
		return 0;
	}
	for (size_t i = 0; i < nsym && nmark < MAX_MARKS; i++) {
		const char *n = sym[i].st_name < nstr ? str + sym[i].st_name :
			       "";

		if (strncmp(n, prefix, strlen(prefix)) ||
		    sym[i].st_shndx == SHN_UNDEF)
			continue;
		marked |= !strcmp(n, code);
		is_cold[nmark] = !strcmp(n, cold);
		mark[nmark++] = &sym[i];
	}
	for (size_t i = 0; i < nsym; i++) {
		const settle_elf_sym *s = &sym[i];
		const char *n = s->st_name < nstr ? str + s->st_name : "?";
		long a = align_of(s->st_value);

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || a >= worst ||
		    !code_section(&e, s->st_shndx) ||
		    settle_runtime_function(n) ||
		    in_cold(mark, is_cold, nmark, s))
			continue;
		worst = a;
		if (a < (long)slot && len)
			snprintf(name, len, "%s %u byte%s into a %u-byte slot",
				 n, (unsigned)(s->st_value % slot),
				 s->st_value % slot == 1 ? "" : "s", slot);
	}
	settle_elf_close(&e);
	free(sym);
	free(str);
	return marked ? worst : -2;
}
