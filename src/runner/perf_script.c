/*
 * perf_script.c - the samples of `perf script -F period,ip,sym,dso` output
 * that fall in given functions (see perf_script.h for the layout read).
 */
#include <stdlib.h>
#include <string.h>

#include "runner/perf_script.h"
#include "util/elf.h"

void settle_perf_parser_init(struct settle_perf_parser *p,
			     const char *const *symbols, size_t nsymbols)
{
	memset(p, 0, sizeof(*p));
	p->symbols = symbols;
	p->nsymbols = nsymbols < SETTLE_PERF_MAX_SYMBOLS ?
		      nsymbols : SETTLE_PERF_MAX_SYMBOLS;
}

void settle_perf_parser_tids(struct settle_perf_parser *p)
{
	p->tids = 1;
}

void settle_perf_parser_addresses(struct settle_perf_parser *p)
{
	p->addresses = 1;
}

#define FILES_MAX 64            /* files whose addresses are kept */
#define ADDRESSES_MAX (1 << 22) /* distinct addresses kept a file */

static int by_address(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* f's addresses sorted, each once. */
static void distinct(struct settle_perf_file *f)
{
	size_t k = 0;

	if (!f->n)
		return;
	qsort(f->addr, f->n, sizeof(*f->addr), by_address);
	for (size_t i = 0; i < f->n; i++)
		if (!k || f->addr[k - 1] != f->addr[i])
			f->addr[k++] = f->addr[i];
	f->n = k;
}

/* Room for one more address in f: made distinct, then grown. */
static int room(struct settle_perf_file *f)
{
	uint64_t *a;
	size_t cap;

	if (f->n < f->cap)
		return 0;
	distinct(f);
	if (f->n < f->cap / 2)
		return 0;
	cap = f->cap ? 2 * f->cap : 1024;
	if (cap > ADDRESSES_MAX || !(a = realloc(f->addr, cap * sizeof(*a))))
		return -1;
	f->addr = a;
	f->cap = cap;
	return 0;
}

/* The file named dso (n bytes) among p's, added; NULL when there is no
 * room. */
static struct settle_perf_file *file_of(struct settle_perf_parser *p,
					const char *dso, size_t n)
{
	struct settle_perf_file *f;

	for (size_t i = 0; i < p->nfiles; i++)
		if (strlen(p->files[i].name) == n &&
		    !memcmp(p->files[i].name, dso, n))
			return &p->files[i];
	if (p->nfiles == FILES_MAX || n >= SETTLE_PERF_DSO_LEN)
		return NULL;
	if (!p->files && !(p->files = calloc(FILES_MAX, sizeof(*p->files))))
		return NULL;
	f = &p->files[p->nfiles++];
	memcpy(f->name, dso, n);
	f->name[n] = '\0';
	return f;
}

/* The address a (hex digits, n of them) of a frame in file dso (dlen). */
static void keep_address(struct settle_perf_parser *p, const char *a,
			 size_t n, const char *dso, size_t dlen)
{
	struct settle_perf_file *f;
	uint64_t v = 0;

	if (!p->addresses || dlen == 0 || dso[0] != '/' || n > 16)
		return;
	for (size_t i = 0; i < n; i++)
		v = v << 4 | (uint64_t)(a[i] <= '9' ? a[i] - '0' :
					(a[i] | 0x20) - 'a' + 10);
	f = file_of(p, dso, dlen);
	if (!f)
		return; /* more files than kept: said by their absence */
	if (room(f) < 0) {
		f->lost = 1;
		return;
	}
	f->addr[f->n++] = v;
}

const struct settle_perf_file *settle_perf_parser_file(
	const struct settle_perf_parser *p, const char *file)
{
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i].name, file))
			return &p->files[i];
	return NULL;
}

void settle_perf_parser_free(struct settle_perf_parser *p)
{
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i].addr);
	free(p->files);
	p->files = NULL;
	p->nfiles = 0;
}

/* One more sample of thread tid. */
static void count_tid(struct settle_perf_parser *p, uint32_t tid)
{
	for (size_t i = 0; i < p->ntids; i++)
		if (p->seen_tids[i].tid == tid) {
			p->seen_tids[i].samples++;
			return;
		}
	if (p->ntids == SETTLE_PERF_MAX_TIDS) {
		p->more_tids = 1;
		return;
	}
	p->seen_tids[p->ntids].tid = tid;
	p->seen_tids[p->ntids++].samples = 1;
}

static void close_sample(struct settle_perf_parser *p)
{
	int any = 0;

	if (!p->open)
		return;
	if (!p->count.samples)
		p->first_tid = p->tid;
	p->count.samples++;
	/* the shell that started the command, while it is one (exec makes
	 * it the program: a main thread waiting in work() was left out) */
	if (p->tids && !(p->shell && p->tid == p->first_tid))
		count_tid(p, p->tid);
	for (size_t i = 0; i < p->nsymbols; i++) {
		p->count.self[i] += p->first[i];
		p->count.children[i] += p->seen[i];
		if (p->impl[i] && !p->seen[i] && !p->count.impl[i]++)
			memcpy(p->count.impl_name[i], p->impl_name,
			       SETTLE_PERF_IMPL_NAME);
		any |= p->seen[i];
	}
	p->count.any += any;
	p->count.cut += p->chained && !p->entry;
	p->count.unnamed += p->unknown && !(p->chained && !p->entry);
	p->count.fell_back += p->chained && !p->entry && p->last_start_call;
	p->open = 0;
}

/*
 * Where a whole call chain ends: a process's entry (glibc's _start and
 * __libc_start_main, __libc_start_main_impl since glibc 2.34; musl's
 * libc_start_main_stage2), a thread's (start_thread and clone3 in glibc,
 * clone before 2.34; musl's start and start_c11), a kernel thread's
 * (ret_from_fork), Go's runtime.goexit, runtime.rt0_go, runtime.mstart.
 */
static int entry_name(const char *sym, size_t len)
{
	static const char *const names[] = {
		"_start", "__libc_start_main", "__libc_start_main_impl",
		"libc_start_main_stage2", "start_thread", "clone3", "clone",
		"__clone", "__clone3", "start", "start_c11", "ret_from_fork",
		"ret_from_fork_asm", "runtime.goexit", "runtime.rt0_go",
		"runtime.mstart",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !memcmp(names[i], sym, len))
			return 1;
	return 0;
}

/* A run of inlined frames that ended the last sample: its last frame
 * was the function itself (inline_evidence()), placed nowhere. */
static void unplaced(struct settle_perf_parser *p)
{
	memset(p->inl_sym, 0, sizeof(p->inl_sym));
}

static void open_sample(struct settle_perf_parser *p, uint64_t period)
{
	close_sample(p);
	p->open = 1;
	p->frames = 0;
	memset(p->seen, 0, sizeof(p->seen));
	memset(p->first, 0, sizeof(p->first));
	memset(p->impl, 0, sizeof(p->impl));
	p->chained = p->entry = p->unknown = p->last_start_call = 0;
	unplaced(p);
	p->after_inlined = 0;
	p->count.period_sum += period;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

#define START_CALL "__libc_start_call_main"
#define UNKNOWN "[unknown]" /* perf's name for a frame it cannot name */

/* Whether the len bytes at t begin with the tag of a CPU glibc builds
 * an implementation for (sysdeps/.../multiarch: x86, aarch64, s390,
 * powerpc). */
static int cpu_tag(const char *t, size_t len)
{
	static const char *const tags[] = {
		"sse2", "ssse3", "sse4", "avx", "evex", "erms", "generic",
		"simd", "sve", "mops", "thunderx", "falkor", "a64fx", "oryon",
		"emag", "kunpeng", "z9", "z10", "z196", "z13", "z15", "power",
		"ppc",
	};

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (len >= strlen(tags[i]) &&
		    !memcmp(t, tags[i], strlen(tags[i])))
			return 1;
	return 0;
}

/* Whether sym (len bytes) names an implementation of s that glibc
 * chooses at load: __S_ and a CPU's tag, or for memcpy __memmove_ and
 * one (__printf_fp_l is no implementation of printf). */
static int implements(const char *s, const char *sym, size_t len)
{
	size_t n = strlen(s);

	if (len > n + 3 && !memcmp(sym, "__", 2) &&
	    !memcmp(sym + 2, s, n) && sym[n + 2] == '_')
		return cpu_tag(sym + n + 3, len - n - 3);
	return !strcmp(s, "memcpy") && len > 10 &&
	       !memcmp(sym, "__memmove_", 10) && cpu_tag(sym + 10, len - 10);
}

/* The innermost frame sym (len bytes) of the open sample: which symbols
 * counted it implements (counted when the sample closes, if the symbol
 * is nowhere in its chain), and its name. */
static void implementation(struct settle_perf_parser *p, const char *sym,
			   size_t len)
{
	size_t k = len < SETTLE_PERF_IMPL_NAME - 1 ? len :
		   SETTLE_PERF_IMPL_NAME - 1;

	memcpy(p->impl_name, sym, k);
	p->impl_name[k] = '\0';
	for (size_t i = 0; i < p->nsymbols; i++)
		p->impl[i] = (unsigned char)implements(p->symbols[i], sym, len);
}

/*
 * Whether sym (len bytes) names s: s itself, or a copy of it the compiler
 * made, s and a dot and the copy's kind (GCC: other.constprop.0 for a
 * copy with constant arguments, .isra.0, .part.0 for a part split off,
 * .cold for its cold code, .lto_priv.0; clang: .llvm. and a hash). perf
 * names a sample after the copy that ran: a function spending 48 % of a
 * program's time as other.constprop.0 read "other is under 1.59 %".
 */
static int names(const char *s, const char *sym, size_t len)
{
	static const char *const kinds[] = {
		"constprop", "isra", "part", "cold", "lto_priv", "llvm",
		"clone", "localalias",
	};
	size_t n = strlen(s);

	/* glibc's internal alias of a function (__GI_ and its name), as
	 * perf names it from libc's DWARF: __GI___strcoll_l is __strcoll_l */
	if (len > 5 && !memcmp(sym, "__GI_", 5) && strncmp(s, "__GI_", 5))
		return names(s, sym + 5, len - 5);

	if (len < n || memcmp(s, sym, n))
		return 0;
	if (len == n)
		return 1;
	if (sym[n] != '.')
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t k = strlen(kinds[i]);

		if (len - n - 1 >= k && !memcmp(sym + n + 1, kinds[i], k) &&
		    (len - n - 1 == k || sym[n + 1 + k] == '.'))
			return 1;
	}
	return 0;
}

/*
 * The file in parentheses at the end of a frame, sym (*len bytes), if
 * any: " (" and a path or a bracketed name ("[kernel.kallsyms]") or
 * "inlined", then ")": the last " (" so followed, so that a path may hold
 * " (" but not " (/" or " ([" (the file is then taken to begin there:
 * its frames name no symbol asked for, which settles nothing). Cuts it
 * off *len; returns where its name begins (*dlen bytes), or NULL.
 */
static const char *dso_of(const char *sym, size_t *len, size_t *dlen)
{
	if (*len < 4 || sym[*len - 1] != ')')
		return NULL;
	for (size_t i = *len - 3; i > 0; i--) {
		const char *d = sym + i + 2; /* the name */
		size_t n = *len - i - 3;     /* its bytes, ")" aside */

		if (sym[i] != ' ' || sym[i + 1] != '(')
			continue;
		if (d[0] != '/' && d[0] != '[' &&
		    !(n == 7 && !memcmp(d, "inlined", 7)))
			continue;
		*dlen = n;
		*len = i;
		while (*len > 0 && is_blank(sym[*len - 1]))
			(*len)--;
		return d;
	}
	return NULL;
}

/* One more file (n bytes at dso) symbol i was named in. */
static void add_dso(struct settle_perf_count *c, size_t i, const char *dso,
		    size_t n)
{
	size_t k;

	if (n >= SETTLE_PERF_DSO_LEN) {
		c->dso_more[i] = 1;
		return;
	}
	for (k = 0; k < SETTLE_PERF_DSOS && c->dso[i][k][0]; k++)
		if (strlen(c->dso[i][k]) == n && !memcmp(c->dso[i][k], dso, n))
			return;
	if (k == SETTLE_PERF_DSOS) {
		c->dso_more[i] = 1;
		return;
	}
	memcpy(c->dso[i][k], dso, n);
	c->dso[i][k][n] = '\0';
}

/* One more file (n bytes at dso) in which perf showed an inlined frame. */
static void add_inline_dso(struct settle_perf_count *c, const char *dso,
			   size_t n)
{
	size_t k;

	if (n >= SETTLE_PERF_DSO_LEN || dso[0] != '/')
		return;
	for (k = 0; k < SETTLE_PERF_INLINE_DSOS && c->inline_dso[k][0]; k++)
		if (strlen(c->inline_dso[k]) == n &&
		    !memcmp(c->inline_dso[k], dso, n))
			return;
	if (k == SETTLE_PERF_INLINE_DSOS)
		return;
	memcpy(c->inline_dso[k], dso, n);
	c->inline_dso[k][n] = '\0';
}

/*
 * A frame at address a (n hex digits) that is inlined or not, in file dso
 * (dlen bytes, or NULL): an inlined one followed by the frame of the
 * function it was inlined into, at the same address, shows that perf
 * reads that file's inlined code. A run of inlined frames followed by a
 * frame at another address (or by none) had no such frame: perf 6.1
 * names the function itself "(inlined)" where it found it in DWARF only
 * (libc's __strcoll_l with libc6-dbg installed: "__GI___strcoll_l
 * (inlined)" in every sample, then its caller), so the run's symbols were
 * in that function, in a file whose DWARF perf read, and are placed
 * nowhere (they read "a file perf did not name", which settled nothing).
 * A run whose function's frame follows at its address without a file is
 * unplaced.
 */
static void inline_evidence(struct settle_perf_parser *p, const char *a,
			    size_t n, int inlined, const char *dso,
			    size_t dlen)
{
	int same = p->after_inlined && n < sizeof(p->inlined_at) &&
		   strlen(p->inlined_at) == n && !memcmp(p->inlined_at, a, n);

	if (!inlined && dso && same)
		add_inline_dso(&p->count, dso, dlen);
	/* the end of a run of inlined frames: the symbols named in it
	 * were inlined into the function of this frame, in its file */
	if (!(inlined && same)) {
		for (size_t i = 0; i < p->nsymbols; i++) {
			if (!p->inl_sym[i])
				continue;
			if (!inlined && dso && same)
				add_dso(&p->count, i, dso, dlen);
			else if (same)
				p->count.dso_unplaced[i] = 1;
		}
		memset(p->inl_sym, 0, sizeof(p->inl_sym));
	}
	p->after_inlined = inlined && n < sizeof(p->inlined_at);
	if (p->after_inlined) {
		memcpy(p->inlined_at, a, n);
		p->inlined_at[n] = '\0';
	}
}

/* Whether sym (len bytes) is code the C runtime links into every program
 * (crti.o, crtbegin.o: built without debug information) or a PLT stub
 * (memcpy@plt): no code of the program is inlined there. */
static int startup_code(const char *sym, size_t len)
{
	char name[64];

	if (len >= sizeof(name))
		return 0;
	memcpy(name, sym, len);
	name[len] = '\0';
	return settle_runtime_function(name);
}

/* "ADDRESS SYMBOL" or "ADDRESS SYMBOL (FILE)" (leading blanks skipped):
 * the frame of the open sample. */
static int frame(struct settle_perf_parser *p, const char *s)
{
	const char *sym, *end, *dso, *addr;
	size_t len, alen, dlen = 0;
	int unknown, inlined;

	while (is_blank(*s))
		s++;
	if (!is_hex(*s))
		return -1;
	addr = s;
	while (is_hex(*s))
		s++;
	alen = (size_t)(s - addr);
	if (*s != ' ' && *s != '\t')
		return -1;
	sym = s;
	while (is_blank(*sym))
		sym++;
	end = sym + strlen(sym);
	while (end > sym && is_blank(end[-1]))
		end--;
	len = (size_t)(end - sym);
	if (len == 0)
		return -1;
	dso = dso_of(sym, &len, &dlen);
	inlined = dso && dlen == sizeof("inlined") - 1 &&
		  !memcmp(dso, "inlined", dlen);
	inline_evidence(p, addr, alen, inlined,
			inlined ? NULL : dso, dlen);
	unknown = len == sizeof(UNKNOWN) - 1 && !memcmp(sym, UNKNOWN, len);
	/* an entry ends a whole chain: frames perf could not name may
	 * follow it, a named function may not (a program's own function
	 * named start or clone is no entry: a chain cut above it read as
	 * whole, and a bound settled at a quarter of what was saved) */
	if (entry_name(sym, len))
		p->entry = 1;
	else if (!unknown)
		p->entry = 0;
	if (!inlined && dso && !entry_name(sym, len) && !unknown &&
	    !startup_code(sym, len))
		keep_address(p, addr, alen, dso, dlen);
	p->unknown |= unknown;
	if (p->frames == 0)
		implementation(p, sym, len);
	p->last_start_call = len == sizeof(START_CALL) - 1 &&
			     !memcmp(sym, START_CALL, len);
	for (size_t i = 0; i < p->nsymbols; i++) {
		if (!names(p->symbols[i], sym, len))
			continue;
		p->seen[i] = 1;
		if (p->frames == 0)
			p->first[i] = 1;
		if (dso && !inlined)
			add_dso(&p->count, i, dso, dlen);
		else if (inlined)
			p->inl_sym[i] = 1; /* its file: the next frame's */
	}
	p->frames++;
	return 0;
}

/* Whether comm (len bytes) names a shell. */
static int shell_name(const char *comm, size_t len)
{
	static const char *const names[] = {
		"sh", "dash", "bash", "zsh", "ksh", "mksh", "busybox",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !memcmp(names[i], comm, len))
			return 1;
	return 0;
}

/*
 * A sample's first line with thread IDs, "COMM TID PERIOD" (a command's
 * name may hold blanks: read from the right): *tid, and *shell when COMM
 * names a shell. Returns where PERIOD begins, or NULL when malformed.
 */
static const char *header(const char *line, uint64_t *tid, int *shell)
{
	const char *end = line + strlen(line), *period, *t, *c;

	while (end > line && is_blank(end[-1]))
		end--;
	period = end;
	while (period > line && period[-1] >= '0' && period[-1] <= '9')
		period--;
	t = period;
	while (t > line && is_blank(t[-1]))
		t--;
	if (period == end || t == period)
		return NULL;
	c = t;
	while (c > line && c[-1] >= '0' && c[-1] <= '9')
		c--;
	if (c == t || t - c > 10 || (c > line && !is_blank(c[-1])))
		return NULL;
	*tid = 0;
	for (const char *d = c; d < t; d++)
		*tid = *tid * 10 + (uint64_t)(*d - '0');
	if (*tid > UINT32_MAX)
		return NULL;
	while (c > line && is_blank(c[-1]))
		c--;
	while (line < c && is_blank(*line))
		line++;
	*shell = shell_name(line, (size_t)(c - line));
	return period;
}

int settle_perf_parse_line(struct settle_perf_parser *p, const char *line)
{
	const char *s = line;
	uint64_t period = 0, tid = 0;
	int shell = 0;

	while (is_blank(*s))
		s++;
	if (*s == '\0') {
		close_sample(p); /* a blank line ends a sample */
		return 0;
	}
	s = line;
	while (*s == ' ')
		s++;
	if (line[0] != '\t' && p->tids) { /* "COMM TID PERIOD" */
		s = header(line, &tid, &shell);
		if (!s)
			goto bad;
	}
	if (line[0] == '\t') {
		p->chained |= p->open;
		if (p->open && frame(p, line) == 0)
			return 0;
		/* an unreadable frame still is the innermost one, if first */
		p->frames += p->open;
		p->count.malformed++;
		return -1;
	}
	if (*s < '0' || *s > '9')
		goto bad;
	while (*s >= '0' && *s <= '9') {
		if (period > (UINT64_MAX - 9) / 10)
			goto bad;
		period = period * 10 + (uint64_t)(*s++ - '0');
	}
	if (*s && !is_blank(*s))
		goto bad;
	open_sample(p, period);
	p->tid = (uint32_t)tid;
	p->shell = shell;
	while (is_blank(*s))
		s++;
	if (*s && frame(p, s) < 0) {
		/* the sample counts; only its frame is unreadable */
		p->count.malformed++;
		return -1;
	}
	return 0;
bad:
	p->count.malformed++;
	return -1;
}

size_t settle_perf_parse_text(struct settle_perf_parser *p, const char *text,
			      size_t len)
{
	size_t bad = 0, i = 0;
	char *line = NULL;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		char *l = realloc(line, n + 1);

		if (!l) {
			bad++;
			break;
		}
		line = l;
		memcpy(line, text + i, n);
		line[n] = '\0';
		bad += settle_perf_parse_line(p, line) < 0;
		i += n + 1;
	}
	free(line);
	return bad;
}

void settle_perf_parser_finish(struct settle_perf_parser *p)
{
	unsigned busy = 0;

	close_sample(p);
	unplaced(p);
	for (size_t i = 0; i < p->nfiles; i++)
		distinct(&p->files[i]);
	/* every thread with a sample: one that waits takes few, and its
	 * wait is what hides */
	busy = (unsigned)p->ntids;
	p->count.busy_threads = p->more_tids ? SETTLE_PERF_MAX_TIDS + 1 : busy;
}
