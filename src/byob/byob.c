/*
 * byob.c - bring your own benchmark: `settle run FILE.c --build CMD...`.
 *
 * FILE.c includes <settle.h>, defines claims and lists them with
 * SETTLE_CLAIMS(). For each build (a compiler command and its flags),
 * settle compiles it into a shared object:
 *
 *   CMD... -shared -fPIC -I<include dir> -MD -MF <cache>/<key>.d.tmp.<pid>
 *          -o <cache>/<key>.so.tmp.<pid> FILE.c
 *          -Wl,--wrap=_exit,--wrap=_Exit <libsettle-prim.a>
 *          -Wl,-Bsymbolic-functions
 *
 * renamed to <cache>/<object>.so once the compiler succeeded, so that the
 * cache never holds a partial object. <key> is 64-bit FNV-1a over the
 * file's contents and real path, the compile command, the compiler's
 * identity (real path, contents, `--version` output), the contents of
 * libsettle-prim.a and, for a command
 * that mentions "native", the CPU (-march=native depends on it); <object>
 * adds every file the compiler read, listed by the compiler (-MD), with
 * their contents. The list is kept in <cache>/<key>.manifest, so that a
 * later run finds the object by hashing the listed files as they are then
 * (ccache's direct mode): a changed header never loads stale code. An
 * object whose name is already in the cache is loaded as is.
 *
 * Each object is loaded with dlopen(RTLD_NOW | RTLD_LOCAL), so one build's
 * symbols never bind another's, and an undefined symbol is reported at
 * load. The settle command is linked with -rdynamic (mk/byob.mk), so a
 * claim can call settle's own functions.
 *
 * libsettle-prim.a holds the primitives (src/prim, src/cpu, src/arch),
 * compiled -fPIC with the library's flags. The linker takes from it the
 * members the claim uses, after FILE.c's code, and -Bsymbolic-functions
 * binds the claim's calls to them rather than to the executable's copies.
 * So a claim that calls settle_popcount() calls code that moves with the
 * layouts, as a peer library's inlined code does; a verdict between them
 * then averages both sides' placements (docs/layouts.md). Their state
 * (the chosen kernel) is the copy's own, chosen from the same CPU and the
 * same SETTLE_POPCOUNT / SETTLE_BSWAP. Without the archive (not found:
 * a warning), the claim calls the executable's.
 *
 * The builds are merged into one claim per claim name: its variants are
 * every build's variants, in build order, with .build set to the build
 * string. Each merged variant's arg is its slot (the original variant and
 * its build), and its run() calls the original run() with that build's
 * state and the original arg; the merged claim's setup() (which finds its
 * merged claim through params.claim) runs every build's setup() into one
 * combined state, then checks the variants, each build against its own
 * baseline and every build against the others, before anything is timed.
 * One extra indirect call per timed call of run() is the cost; a sample
 * lasts milliseconds.
 *
 * With --layouts N (N > 1) every build is compiled N times, once per
 * layout L, with -fno-toplevel-reorder -include <cache>/layout-L.h: that
 * generated header's top-level asm starts the object's .text with
 * SETTLE_LAYOUT_CODE_PAD(L) bytes after a page boundary (and .rodata,
 * .data and .bss with SETTLE_LAYOUT_DATA_PAD(L)), so that the claim's
 * code sits at another 16-byte slot of its cache line and another line of
 * its page in each layout (docs/layouts.md). The header is a file the
 * compiler reads, so it is part of the object's key like any other. All N
 * objects are loaded; a merged claim set up in layout L runs layout L's
 * code.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "byob/byob.h"
#include "settle.h"
#include "util/elf.h"
#include "util/placement.h"
#include "util/util.h"

#define MAX_WORDS 64    /* words of one compile command */
#define EXTRA_WORDS 20  /* of them, what make_build() adds, with NULL */
#define MAX_FILE_CLAIMS 64

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* One variant of one build in a merged claim: a merged variant's arg. */
struct slot {
	const struct settle_variant *orig; /* in the build's shared object
					      (of layout 0) */
	size_t build;                      /* index into the claim's builds */
	size_t index;                      /* the variant's, in its build */
	size_t i;                          /* the merged variant's */
};

/* One claim name with its builds. */
struct mclaim {
	struct settle_claim claim;   /* what the runner measures (first) */
	const struct settle_claim *per_build[SETTLE_BYOB_MAX_BUILDS];
	const char *build_names[SETTLE_BYOB_MAX_BUILDS];
	size_t nbuilds;
	struct slot *slots;          /* one per variant of claim */
	/* per_layout[L * nbuilds + b]: build b's claim in layout L's object
	 * (L = 0: per_build[b]) */
	const struct settle_claim **per_layout;
	unsigned nlayouts;
};

/* State of a merged claim: every build's state, in one layout. */
struct mstate {
	const struct mclaim *mc;
	unsigned layout;
	void *st[SETTLE_BYOB_MAX_BUILDS];
	int up[SETTLE_BYOB_MAX_BUILDS]; /* set up: tear down at the end */
	const struct settle_variant **var; /* each slot's variant in layout */
};

/* Where a build's inputs and outputs are, the same for every build. */
struct places {
	char inc[PATH_MAX];    /* the directory holding settle.h */
	char cache[PATH_MAX];  /* the object cache */
	char prim[PATH_MAX];   /* libsettle-prim.a, or empty */
	uint64_t prim_hash;    /* of its contents */
	int verbose;
};

/* The merged claims of this process (one file's). */
static struct mclaim **mclaims;
static size_t nmclaims;

/* Build b's claim in layout L's object. */
static const struct settle_claim *in_layout(const struct mclaim *mc,
					    unsigned l, size_t b)
{
	return l ? mc->per_layout[l * mc->nbuilds + b] : mc->per_build[b];
}

/*
 * The user's code that is running, for one line when it crashes or calls
 * exit(): the file, the claim, the build, the variant (NULL outside run()
 * and unavailable()) and the function (NULL: settle's own code). Set
 * around every call into the file: four stores per call of run(), whose
 * sample lasts milliseconds.
 */
static const char *user_file;
static const char *volatile user_claim, *volatile user_build,
		  *volatile user_variant, *volatile user_fn;
static pid_t settle_pid; /* settle's process, not a child the claim forks */
/* Shared with the processes the claim forks: set by one that returned
 * from the user's code into settle (NULL when it could not be mapped). */
static volatile sig_atomic_t *copy_returned;

/* In the user's code, in settle's own process: a process the claim
 * forked (its child ending with _exit(0), as a fork benchmark's does)
 * ends as it asks, without a word and with settle's files left alone. */
static int in_user_code(void)
{
	return user_fn && getpid() == settle_pid;
}

static void user_enter(const struct mclaim *mc, size_t build,
		       const char *variant, const char *fn)
{
	user_claim = mc ? mc->claim.name : NULL;
	user_build = mc ? mc->build_names[build] : NULL;
	user_variant = variant;
	user_fn = fn;
}

static void say(const char *s)
{
	ssize_t k = write(STDERR_FILENO, s, strlen(s));

	(void)k;
}

static void say_where(void);

/*
 * Back from the user's code. In a process the claim forked (fork()
 * returned twice and the child returned too), the copy would go on as a
 * second settle: measure beside the first, print a second report and
 * write the same --output (a run did, exit 0). It says where and ends,
 * leaving settle's files alone, and tells settle's process, which stops
 * at its next return from the user's code (or before it writes, through
 * settle_byob_copy_returned()).
 */
static void user_leave(void)
{
	if (getpid() != settle_pid) {
		say_where();
		say(" returned in a process it forked: that copy of settle "
		    "ends here\n");
		if (copy_returned)
			*copy_returned = 1;
		_exit(1);
	}
	user_fn = NULL;
	if (settle_byob_copy_returned())
		_exit(1);
}

/* "settle: FILE.c: claim 'c', variant 'v' (build 'b'): run()"; only
 * async-signal-safe calls. */
static void say_where(void)
{
	say("settle: ");
	say(user_file ? user_file : "FILE.c");
	if (user_claim) {
		say(": claim '");
		say(user_claim);
		say("'");
	}
	if (user_variant) {
		say(", variant '");
		say(user_variant);
		say("'");
	}
	if (user_build) {
		say(user_claim ? " (build '" : ": build '");
		say(user_build);
		say(user_claim ? "')" : "'");
	}
	say(": ");
	say(user_fn);
}

/* A fatal signal in the user's code: say where, remove settle's
 * temporary files, end with the signal (SA_RESETHAND, SA_NODEFER). */
static void user_crash(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGSEGV, "SIGSEGV (a bad memory access)" },
		{ SIGBUS, "SIGBUS (a bad memory access)" },
		{ SIGILL, "SIGILL (an instruction this CPU lacks)" },
		{ SIGFPE, "SIGFPE (an arithmetic error)" },
		{ SIGABRT, "SIGABRT (abort(), a failed assert)" },
		{ SIGSYS, "SIGSYS (a bad system call)" },
	};

	if (getpid() != settle_pid) { /* a process the claim forked */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (user_fn) {
		say_where();
		say(" crashed with ");
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (names[i].sig == sig)
				say(names[i].name);
		say("; nothing was written\n");
	}
	settle_temp_cleanup();
	raise(sig);
}

/* exit() called by the user's code: say where; the run has failed. */
static void user_exit(int status, void *arg)
{
	char num[16];

	(void)arg;
	if (!in_user_code())
		return;
	fflush(stdout);
	say_where();
	snprintf(num, sizeof(num), "%d", status);
	say(" called exit(");
	say(num);
	say("); nothing was written\n");
	settle_temp_cleanup();
	_exit(1);
}

/*
 * _exit() and _Exit() called by the user's code: the claim's object is
 * linked with -Wl,--wrap=_exit,--wrap=_Exit, so its calls come here
 * (settle exports these, -rdynamic) instead of ending settle without a
 * word and with the claim's status, 0 too. Said as exit() is; then the
 * run has failed.
 */
static _Noreturn void user_quick_exit(const char *how, int status)
{
	char num[16];

	if (in_user_code()) {
		fflush(stdout);
		say_where();
		snprintf(num, sizeof(num), "%d", status);
		say(" called ");
		say(how);
		say("(");
		say(num);
		say("); nothing was written\n");
		settle_temp_cleanup();
		status = 1;
	}
	_exit(status);
}

void __wrap__exit(int status);
void __wrap__Exit(int status);

void __wrap__exit(int status)
{
	user_quick_exit("_exit", status);
}

void __wrap__Exit(int status)
{
	user_quick_exit("_Exit", status);
}

/* Standard output while the user's code may run: settle's own, kept
 * here, while descriptor 1 is standard error (-1: not redirected). */
static int saved_stdout = -1;

/* What the user's code prints goes to standard error, so that settle's
 * output (a JSON document on standard output) stays whole. */
static void user_stdout_aside(void)
{
	fflush(stdout);
	saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_stdout >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		close(saved_stdout);
		saved_stdout = -1;
	}
}

void settle_byob_stdout_restore(void)
{
	if (saved_stdout < 0)
		return;
	fflush(stdout); /* what the claims printed, to standard error */
	dup2(saved_stdout, STDOUT_FILENO);
	close(saved_stdout);
	saved_stdout = -1;
}

int settle_byob_copy_returned(void)
{
	if (!copy_returned || !*copy_returned)
		return 0;
	say("settle: ");
	say(user_file);
	say(": a process the claim's code forked returned into settle, and "
	    "ran beside it (see above); nothing was written\n");
	settle_temp_cleanup();
	return 1;
}

/* Watch the user's code for crashes, exit() and forked copies, from
 * loading on. */
static void user_watch(const char *file)
{
	void *shared = mmap(NULL, sizeof(*copy_returned),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);

	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
				    SIGSYS };
	struct sigaction sa;
	stack_t ss;

	user_file = file;
	settle_pid = getpid();
	copy_returned = shared == MAP_FAILED ? NULL : shared;
	user_stdout_aside();
	/* a stack of its own: a run-away recursion overflows the stack */
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	ss.ss_sp = malloc(ss.ss_size);
	if (ss.ss_sp && sigaltstack(&ss, NULL) < 0)
		free(ss.ss_sp);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = user_crash;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	on_exit(user_exit, NULL);
}

static uint64_t slot_run(void *state, const void *arg, uint64_t iters)
{
	const struct mstate *s = state;
	const struct slot *sl = arg;
	const struct settle_variant *v = s->var[sl->i];
	uint64_t r;

	user_enter(s->mc, sl->build, v->name, "run()");
	r = v->run(s->st[sl->build], v->arg, iters);
	user_leave();
	return r;
}

static const char *slot_unavailable(void *state, const void *arg)
{
	const struct mstate *s = state;
	const struct slot *sl = arg;
	const struct settle_variant *v = s->var[sl->i];
	const char *why;

	user_enter(s->mc, sl->build, v->name, "unavailable()");
	why = v->unavailable(s->st[sl->build], v->arg);
	user_leave();
	return why;
}

/* The merged claim that c is, or a copy of (settle run --variant runs a
 * copy with fewer variants): claim names are unique in a run. */
static const struct mclaim *mclaim_of(const struct settle_claim *c)
{
	for (size_t k = 0; c && k < nmclaims; k++)
		if (&mclaims[k]->claim == c ||
		    !strcmp(mclaims[k]->claim.name, c->name))
			return mclaims[k];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Set-up, checks, tear-down and scale of a merged claim.              */

static void mstate_free(struct mstate *s)
{
	for (size_t b = 0; b < s->mc->nbuilds; b++) {
		const struct settle_claim *c = in_layout(s->mc, s->layout, b);

		if (s->up[b] && c->teardown) {
			user_enter(s->mc, b, NULL, "teardown()");
			c->teardown(s->st[b]);
			user_leave();
		}
	}
	free(s->var);
	free(s);
}

static void mclaim_teardown(void *state)
{
	if (state)
		mstate_free(state);
}

static size_t mclaim_scale(const struct settle_result *r,
			   const struct settle_scale_ctx *ctx,
			   struct settle_figure *out, size_t max)
{
	const struct mclaim *mc = mclaim_of(ctx->claim);
	const struct slot *sl = ctx->variant ? ctx->variant->arg : NULL;
	const struct settle_claim *c;

	if (!mc || !sl)
		return 0;
	size_t n;

	c = mc->per_build[sl->build];
	if (!c->scale)
		return 0;
	user_enter(mc, sl->build, sl->orig->name, "scale()");
	n = c->scale(r, ctx, out, max);
	user_leave();
	return n;
}

static void size_note(uint64_t size, char *buf, size_t len)
{
	char sz[32];

	buf[0] = '\0';
	if (size)
		snprintf(buf, len, " at size %s",
			 settle_format_size(size, sz, sizeof(sz)));
}

/*
 * Run every variant of every build once with the claim's check_iters and
 * compare: each with its build's baseline (the runner's own check, done
 * here first so that its message wins), then each with the same variant
 * of the first build that has it. Returns 0, or -1 with a message in err.
 */
static int check_builds(const struct mclaim *mc, struct mstate *s,
			uint64_t size, char *err, size_t len)
{
	uint64_t it = mc->claim.check_iters ? mc->claim.check_iters : 1;
	size_t n = mc->claim.nvariants;
	uint64_t *val = calloc(n + 1, sizeof(*val));
	int *have = calloc(n + 1, sizeof(*have));
	char a[96], b[96], at[48];
	const struct slot *sl = mc->slots;
	const struct settle_variant *mv = mc->claim.variants;
	int rc = -1;

	if (!val || !have) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	size_note(size, at, sizeof(at));
	for (size_t i = 0; i < n; i++) {
		const struct settle_variant *v = s->var[i];
		void *st = s->st[sl[i].build];

		user_enter(mc, sl[i].build, v->name, "unavailable()");
		have[i] = !(v->flags & SETTLE_REFERENCE) &&
			  !(v->unavailable && v->unavailable(st, v->arg));
		user_enter(mc, sl[i].build, v->name, "run()");
		if (have[i])
			val[i] = v->run(st, v->arg, it);
		user_leave();
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n && have[i]; j++) {
			if (!have[j] || sl[j].build != sl[i].build ||
			    strcmp(sl[j].orig->name, mc->claim.baseline) ||
			    !settle_variant_same_group(sl[i].orig, sl[j].orig))
				continue;
			if (val[i] == val[j])
				break;
			snprintf(err, len, "claim %s: variant '%s' computed "
				 "%llu but the baseline '%s' computed %llu%s; "
				 "refusing to report it (" SETTLE_CHECK_HINT ")",
				 mc->claim.name,
				 settle_variant_label(&mv[i], a, sizeof(a)),
				 (unsigned long long)val[i],
				 settle_variant_label(&mv[j], b, sizeof(b)),
				 (unsigned long long)val[j], at);
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i && have[i]; j++) {
			if (!have[j] || sl[j].build == sl[i].build ||
			    strcmp(sl[j].orig->name, sl[i].orig->name) ||
			    !settle_variant_same_group(sl[i].orig, sl[j].orig))
				continue;
			if (val[i] == val[j])
				break;
			snprintf(err, len, "claim %s: the builds disagree: "
				 "variant '%s' computed %llu under build '%s' "
				 "but %llu under build '%s' (%llu "
				 "repetition%s%s); a build changes the answer, "
				 "refusing to report it", mc->claim.name,
				 sl[i].orig->name,
				 (unsigned long long)val[j],
				 mc->build_names[sl[j].build],
				 (unsigned long long)val[i],
				 mc->build_names[sl[i].build],
				 (unsigned long long)it, it == 1 ? "" : "s", at);
			goto out;
		}
	}
	rc = 0;
out:
	free(val);
	free(have);
	return rc;
}

static void *mclaim_setup(const struct settle_params *p, char *err,
			  size_t len)
{
	const struct mclaim *mc = mclaim_of(p->claim);
	struct mstate *s = mc ? calloc(1, sizeof(*s)) : NULL;

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->mc = mc;
	s->layout = mc->nlayouts > 1 ? p->layout % mc->nlayouts : 0;
	s->var = calloc(mc->claim.nvariants + 1, sizeof(*s->var));
	if (!s->var) {
		snprintf(err, len, "out of memory");
		free(s);
		return NULL;
	}
	for (size_t i = 0; i < mc->claim.nvariants; i++) {
		const struct slot *sl = &mc->slots[i];

		s->var[i] = &in_layout(mc, s->layout,
				       sl->build)->variants[sl->index];
	}
	for (size_t b = 0; b < mc->nbuilds; b++) {
		const struct settle_claim *c = in_layout(mc, s->layout, b);
		char e[256] = "";

		if (!c->setup) {
			s->up[b] = 1;
			continue;
		}
		user_enter(mc, b, NULL, "setup()");
		s->st[b] = c->setup(p, e, sizeof(e));
		user_leave();
		if (!s->st[b]) {
			/* the claim's text, escaped as its names are (a
			 * newline and a clear-screen sequence reached the
			 * terminal raw) */
			e[sizeof(e) - 1] = '\0';
			settle_escape_in(e, sizeof(e));
			snprintf(err, len, "claim %s, build '%s': %s",
				 mc->claim.name, mc->build_names[b],
				 e[0] ? e : "set-up failed (setup() returned "
				 "NULL and left its err empty)");
			mstate_free(s);
			return NULL;
		}
		s->up[b] = 1;
	}
	if (check_builds(mc, s, p->size_bytes, err, len) < 0) {
		mstate_free(s);
		return NULL;
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Files, hashing, processes.                                          */

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= FNV_PRIME;
	}
}

/* A length-prefixed field, so that no two inputs hash the same stream. */
static void fnv_field(uint64_t *h, const void *p, size_t n)
{
	uint64_t len = n;

	fnv(h, &len, sizeof(len));
	fnv(h, p, n);
}

static void fnv_str(uint64_t *h, const char *s)
{
	fnv_field(h, s, strlen(s));
}

/* Read a whole file into a new buffer, with room for one more byte after
 * its *len bytes; -1 with errno set. */
static int slurp(const char *path, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *p = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0 || !p)
		goto fail;
	while ((got = read(fd, p + n, cap - n)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		n += (size_t)got;
		if (n == cap) {
			char *q = realloc(p, cap *= 2);

			if (!q)
				goto fail;
			p = q;
		}
	}
	close(fd);
	*buf = p;
	*len = n;
	return 0;
fail:
	{
		int saved = errno;

		if (fd >= 0)
			close(fd);
		free(p);
		errno = saved;
	}
	return -1;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_header(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/settle.h", dir) >=
	    (int)sizeof(path))
		return 0;
	return access(path, R_OK) == 0;
}

static int readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, R_OK) == 0;
}

/*
 * The first of <dir of the executable>/<rel> and fallback (a path
 * compiled in, or NULL) for which ok() holds, as a real path in out
 * (PATH_MAX bytes). -1 when neither.
 */
static int find_beside_exe(const char *rel, const char *fallback,
			   int (*ok)(const char *), char *out)
{
	char exe[PATH_MAX], cand[2 * PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(cand, sizeof(cand), "%s/%s", exe, rel);
			if (ok(cand) && realpath(cand, out))
				return 0;
		}
	}
	if (fallback && ok(fallback) && realpath(fallback, out))
		return 0;
	return -1;
}

#ifndef SETTLE_BYOB_INCLUDE
#define SETTLE_BYOB_INCLUDE NULL
#endif
#ifndef SETTLE_BYOB_PRIM
#define SETTLE_BYOB_PRIM NULL
#endif

/*
 * The directory holding settle.h: <dir of the executable>/../include (the
 * build tree's build/settle, and an installed PREFIX/bin/settle), else
 * the source tree's include directory, compiled in. -1 after a message.
 */
static int find_include(char *dir)
{
	if (find_beside_exe("../include", SETTLE_BYOB_INCLUDE, has_header,
			    dir) == 0)
		return 0;
	fprintf(stderr, "settle: cannot find settle.h (looked in the "
		"executable's ../include%s%s)\n",
		SETTLE_BYOB_INCLUDE ? " and " : "",
		SETTLE_BYOB_INCLUDE ? SETTLE_BYOB_INCLUDE : "");
	return -1;
}

/*
 * Whether buf[0..len) is settle's primitives archive: an ar archive
 * ("!<arch>\n") whose symbol index names settle_popcount. An empty or
 * unrelated archive would link nothing, and the claim would call the
 * executable's copies without a word.
 */
static int prim_archive(const char *buf, size_t len)
{
	static const char sym[] = "settle_popcount"; /* with its NUL */

	return len > 8 && !memcmp(buf, "!<arch>\n", 8) &&
	       memmem(buf, len, sym, sizeof(sym));
}

/*
 * The primitives' archive the claims link (see above): installed, as
 * <dir of the executable>/../lib/settle/libsettle-prim.a; in the build
 * tree, the path compiled in. Its path in path (PATH_MAX bytes) and the
 * hash of its contents in *hash; when there is none, or it cannot be
 * read, or it is not settle's primitives, path empty and *hash 0, after
 * a warning when warn is nonzero.
 */
static void find_prim(char *path, uint64_t *hash, int warn)
{
	static const char *const lose = "the claims call the settle "
		"executable's primitives, whose code does not move with "
		"--layouts";
	char *buf = NULL;
	size_t len = 0;
	int ok;

	*hash = 0;
	if (find_beside_exe("../lib/settle/libsettle-prim.a",
			    SETTLE_BYOB_PRIM, readable, path) < 0 ||
	    slurp(path, &buf, &len) < 0) {
		if (warn)
			fprintf(stderr, "settle: warning: cannot find or read "
				"libsettle-prim.a (looked in the executable's "
				"../lib/settle%s%s): %s\n",
				SETTLE_BYOB_PRIM ? " and at " : "",
				SETTLE_BYOB_PRIM ? SETTLE_BYOB_PRIM : "", lose);
		path[0] = '\0';
		return;
	}
	ok = prim_archive(buf, len);
	if (ok) {
		*hash = FNV_OFFSET;
		fnv_field(hash, buf, len);
	} else {
		if (warn)
			fprintf(stderr, "settle: warning: %s is not settle's "
				"primitives archive (no settle_popcount in "
				"it): %s\n", path, lose);
		path[0] = '\0';
	}
	free(buf);
}

/* mkdir -p, the directories created with mode. */
static int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp))
		return -1;
	strcpy(tmp, path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -1;
	return is_dir(tmp) ? 0 : -1;
}

/*
 * The cache directory: $SETTLE_CACHE_DIR, else $XDG_CACHE_HOME/settle,
 * else $HOME/.cache/settle, each of the last two only when absolute (a
 * relative HOME made a cache in whatever directory settle ran in);
 * created when missing. -1 after a message.
 */
static int cache_dir(char *dir, size_t len)
{
	const char *e;
	int n;

	if ((e = getenv("SETTLE_CACHE_DIR")) && *e)
		n = snprintf(dir, len, "%s", e);
	else if ((e = getenv("XDG_CACHE_HOME")) && *e == '/')
		n = snprintf(dir, len, "%s/settle", e);
	else if ((e = getenv("HOME")) && *e == '/')
		n = snprintf(dir, len, "%s/.cache/settle", e);
	else {
		fprintf(stderr, "settle: no cache directory for compiled "
			"files: set SETTLE_CACHE_DIR, or HOME to an absolute "
			"path\n");
		return -1;
	}
	if (n < 0 || (size_t)n >= len || mkdir_p(dir, 0700) < 0) {
		fprintf(stderr, "settle: cannot create the cache directory "
			"%s: %s\n", dir, errno == EEXIST || errno == ENOTDIR ?
			"a file that is not a directory is in its way" :
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Start argv[0] (searched in PATH) with stdout on out_fd (-1: unchanged),
 * close_fd closed (-1: none) and stderr on /dev/null when quiet. Returns
 * its pid, or -1 after a message when it cannot start.
 */
static pid_t spawn(char *const *argv, int out_fd, int close_fd, int quiet)
{
	struct settle_spawn_opts o = {
		SETTLE_SPAWN_INHERIT, out_fd, quiet ? SETTLE_SPAWN_NULL :
		SETTLE_SPAWN_INHERIT, close_fd, NULL, NULL, NULL, 0,
	};
	pid_t pid = settle_spawn(argv, &o);

	if (pid < 0)
		fprintf(stderr, "settle: cannot run '%s': %s\n", argv[0],
			strerror(errno));
	return pid;
}

/* Hash the output of `compiler --version`; -1 after a message, -2 when
 * interrupted (said). */
static int hash_version(uint64_t *h, const char *compiler)
{
	char *argv[] = { (char *)compiler, "--version", NULL };
	char buf[4096];
	int fd[2], st;
	pid_t pid;
	ssize_t n;

	if (pipe2(fd, O_CLOEXEC)) {
		fprintf(stderr, "settle: pipe: %s\n", strerror(errno));
		return -1;
	}
	pid = spawn(argv, fd[1], fd[0], 1);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	/* read to the end, or until interrupted, and then pass the signal
	 * on (a compiler whose --version hung held a Ctrl-C for the 10 s of
	 * the interrupt's grace) */
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR && !settle_interrupted())
			continue;
		if (n < 0)
			break;
		fnv(h, buf, (size_t)n);
	}
	close(fd[0]);
	if (settle_interrupted())
		kill(pid, settle_interrupted());
	st = settle_wait(pid, NULL);
	if (settle_interrupted()) {
		fprintf(stderr, "settle: '%s --version' interrupted\n",
			compiler);
		return -2;
	}
	if (st != 0) {
		fprintf(stderr, "settle: '%s --version' failed (status %d): "
			"is '%s' a C compiler?\n", compiler, st, compiler);
		return -1;
	}
	return 0;
}

/*
 * The program that `cmd` runs, as posix_spawnp() finds it: cmd itself if
 * it holds a '/', else the first executable cmd in $PATH. Its real path
 * in out; -1 when there is none (spawn() then says so).
 */
static int which(const char *cmd, char *out)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX];

	if (strchr(cmd, '/'))
		return realpath(cmd, out) ? 0 : -1;
	if (!path || !*path)
		path = "/bin:/usr/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		int len = snprintf(cand, sizeof(cand), "%.*s%s%s", (int)n,
				   n ? path : ".", "/", cmd);

		path += n + (path[n] == ':');
		if (len < (int)sizeof(cand) && access(cand, X_OK) == 0 &&
		    !is_dir(cand) && realpath(cand, out))
			return 0;
	}
	return -1;
}

#define IDENTITY_MAX_BYTES (64u << 20)

/*
 * The compiler's identity: the real path of the program the build string
 * runs, its contents (or, above IDENTITY_MAX_BYTES, its size, inode and
 * modification time), and its `--version` output. A wrapper script that
 * changes, another compiler of the same name earlier in PATH, or an
 * upgrade changes the hash. -1 after a message.
 */
static int hash_compiler(uint64_t *h, const char *cmd)
{
	char real[PATH_MAX], *buf;
	struct stat st;
	size_t len;

	if (which(cmd, real) == 0 && stat(real, &st) == 0) {
		fnv_str(h, real);
		if (st.st_size <= (off_t)IDENTITY_MAX_BYTES &&
		    slurp(real, &buf, &len) == 0) {
			fnv_field(h, buf, len);
			free(buf);
		} else {
			fnv(h, &st.st_size, sizeof(st.st_size));
			fnv(h, &st.st_ino, sizeof(st.st_ino));
			fnv(h, &st.st_mtim, sizeof(st.st_mtim));
		}
	}
	return hash_version(h, cmd);
}

/* The CPU, for builds that compile for the machine at hand. */
static void hash_cpu(uint64_t *h)
{
	struct settle_machine m;

	settle_machine_describe(&m);
	fnv_str(h, m.vendor);
	fnv_str(h, m.model_name);
	fnv_str(h, m.isa);
}

/* ------------------------------------------------------------------ */
/* Dependencies and manifests (the cache's direct mode).               */

/*
 * A build's object is named by the hash of its command key (the file's
 * real path and contents, the compile command, the compiler's identity,
 * the CPU for -march=native) and of every file the compiler read, each
 * path with its contents. The compiler lists those files itself (-MD -MF:
 * the source, every header, system headers included); the list goes into
 * <cache>/<command key>.manifest with each file's content hash, so that a
 * later run can name the object without compiling: it hashes the listed
 * files as they are now. A changed header gives another name, so stale
 * code is never loaded. As in ccache's direct mode, a header that did not
 * exist at compile time and would now be found first on the include path
 * is not noticed.
 */
struct dep {
	char *path;     /* real path */
	uint64_t hash;  /* of its contents */
};

struct deps {
	struct dep *d;
	size_t n, cap;
};

static void deps_free(struct deps *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		free(ds->d[i].path);
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

/* FNV-1a of a file's contents; -1 when it cannot be read. */
static int hash_file(const char *path, uint64_t *out)
{
	char *buf;
	size_t len;

	if (slurp(path, &buf, &len) < 0)
		return -1;
	*out = FNV_OFFSET;
	fnv_field(out, buf, len);
	free(buf);
	return 0;
}

static int deps_add(struct deps *ds, const char *path, uint64_t hash)
{
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? 2 * ds->cap : 64;
		struct dep *d = realloc(ds->d, cap * sizeof(*d));

		if (!d)
			return -1;
		ds->d = d;
		ds->cap = cap;
	}
	ds->d[ds->n].path = strdup(path);
	if (!ds->d[ds->n].path)
		return -1;
	ds->d[ds->n++].hash = hash;
	return 0;
}

/* The run's --output (settle_byob_protect()), and the file a build read
 * that it is, once one is ("" until then). */
static struct stat protect_st;
static int protecting;
static char protect_hit[PATH_MAX];

void settle_byob_protect(const char *path)
{
	protecting = path && stat(path, &protect_st) == 0;
}

/* Note in protect_hit a file of ds that is the run's --output. */
static void deps_protect(const struct deps *ds)
{
	struct stat st;

	for (size_t i = 0; protecting && i < ds->n; i++)
		if (stat(ds->d[i].path, &st) == 0 &&
		    st.st_dev == protect_st.st_dev &&
		    st.st_ino == protect_st.st_ino)
			snprintf(protect_hit, sizeof(protect_hit), "%s",
				 ds->d[i].path);
}

/* The object's name: the command key and every dependency's content. */
static uint64_t object_key(uint64_t key, const struct deps *ds)
{
	uint64_t h = key;

	fnv_str(&h, "deps");
	for (size_t i = 0; i < ds->n; i++) {
		fnv_str(&h, ds->d[i].path);
		fnv(&h, &ds->d[i].hash, sizeof(ds->d[i].hash));
	}
	return h;
}

/*
 * One path of a make-style dependency file (gcc and clang -MD): tokens
 * separated by blanks and backslash-newlines, "\ " and "\#" for a space
 * and '#', "$$" for '$'. Returns the next token's length in out (0 at the
 * end); *p advances past it.
 */
static size_t dep_token(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
	       (s[0] == '\\' && (s[1] == '\n' || s[1] == '\r')))
		s += s[0] == '\\' ? 2 : 1;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
		char c = *s++;

		if (c == '\\' && (*s == ' ' || *s == '#'))
			c = *s++;
		else if (c == '\\' && *s == '\n')
			break;
		else if (c == '$' && *s == '$')
			s++;
		if (n + 1 < len)
			out[n++] = c;
	}
	out[n] = '\0';
	*p = s;
	return n;
}

/*
 * The files a dependency file lists after its target, each with its real
 * path and content hash, into ds. -1 when it cannot be read or a listed
 * file cannot.
 */
static int parse_depfile(const char *dfile, struct deps *ds)
{
	char *text, tok[PATH_MAX], real[PATH_MAX];
	const char *p;
	size_t len;
	int target = 1;

	if (slurp(dfile, &text, &len) < 0)
		return -1;
	text[len] = '\0'; /* slurp() leaves room */
	p = text;
	while (dep_token(&p, tok, sizeof(tok))) {
		uint64_t h;

		if (target) { /* "target:" or "target :" */
			target = tok[strlen(tok) - 1] != ':';
			continue;
		}
		if (!realpath(tok, real) || hash_file(real, &h) < 0 ||
		    deps_add(ds, real, h) < 0) {
			free(text);
			return -1;
		}
	}
	free(text);
	return ds->n ? 0 : -1;
}

/*
 * Read manifest mf (lines "<16 hex digits> <path length> <path>") and hash
 * the listed files as they are now into ds. -1 when there is none, it is
 * malformed or a listed file is gone. With verbose, say which changed.
 */
static int read_manifest(const char *mf, struct deps *ds, int verbose)
{
	FILE *f = fopen(mf, "re");
	char path[PATH_MAX];
	unsigned long long was;
	size_t n;
	int rc = 0;

	if (!f)
		return -1;
	if (fscanf(f, "settle-byob-manifest/1\n") != 0)
		rc = -1;
	while (!rc && fscanf(f, "%16llx %zu ", &was, &n) == 2) {
		uint64_t now;

		if (n == 0 || n >= sizeof(path) || fread(path, 1, n, f) != n ||
		    fgetc(f) != '\n') {
			rc = -1;
			break;
		}
		path[n] = '\0';
		if (hash_file(path, &now) < 0 || deps_add(ds, path, now) < 0) {
			rc = -1;
			break;
		}
		if (verbose && now != was)
			fprintf(stderr, "settle: %s changed\n", path);
	}
	if (!rc && (!feof(f) || ds->n == 0))
		rc = -1;
	fclose(f);
	if (rc)
		deps_free(ds);
	return rc;
}

/* Write manifest mf for ds, whole or not at all. -1 when it cannot. */
static int write_manifest(const char *mf, const struct deps *ds)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	int ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", mf, (long)getpid());
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	fprintf(f, "settle-byob-manifest/1\n");
	for (size_t i = 0; i < ds->n; i++)
		fprintf(f, "%016llx %zu %s\n",
			(unsigned long long)ds->d[i].hash,
			strlen(ds->d[i].path), ds->d[i].path);
	ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, mf)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Non-zero when one of ds was modified at or after *t: the compiler may
 * have read another version than the one hashed. */
static int changed_since(const struct deps *ds, const struct timespec *t)
{
	for (size_t i = 0; i < ds->n; i++) {
		struct stat st;

		if (stat(ds->d[i].path, &st) ||
		    st.st_mtim.tv_sec > t->tv_sec ||
		    (st.st_mtim.tv_sec == t->tv_sec &&
		     st.st_mtim.tv_nsec >= t->tv_nsec) ||
		    st.st_ctim.tv_sec > t->tv_sec ||
		    (st.st_ctim.tv_sec == t->tv_sec &&
		     st.st_ctim.tv_nsec >= t->tv_nsec))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* One build.                                                          */

struct build {
	const char *cmd;          /* as given: "gcc -O2" */
	char *buf;                /* cmd split in place */
	char *words[MAX_WORDS];
	size_t nwords;
	char so[PATH_MAX + 64];
	int transient;            /* so is not kept in the cache */
	const char *uncached;     /* why, when transient */
	const struct settle_claim *const *claims; /* NULL-terminated */
	size_t nclaims;
	char offslot[384];        /* in layouts: why its functions do not
				     all start a 16-byte slot, else "" */
};

/* Split b->cmd on blanks; -1 after a message. */
static int split_build(struct build *b)
{
	char *save = NULL, *w;

	b->buf = strdup(b->cmd);
	if (!b->buf)
		return -1;
	for (w = strtok_r(b->buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (b->nwords == MAX_WORDS - EXTRA_WORDS) {
			fprintf(stderr, "settle: --build '%s' has too many "
				"words\n", b->cmd);
			return -1;
		}
		b->words[b->nwords++] = w;
	}
	if (b->nwords == 0) {
		fprintf(stderr, "settle: empty --build (expected a compiler "
			"and flags, e.g. --build \"gcc -O2\")\n");
		return -1;
	}
	return 0;
}

/* The argv slots of a build's command that name settle's own files. */
struct slots {
	size_t dfile, out;
};

/*
 * The build's command key: the file's real path and contents, the compile
 * command (without the temporary names), the compiler's identity and, for
 * a command that mentions "native", the CPU (-march=native depends on
 * it). -1 after a message, -2 when interrupted (said).
 */
static int command_key(const struct build *b, char *const *argv,
		       const struct slots *sl, const char *real,
		       const char *src, size_t len, uint64_t prim_hash,
		       uint64_t *key)
{
	uint64_t h = FNV_OFFSET;
	int rc;

	fnv_str(&h, "settle-byob/3");
	fnv_str(&h, real);
	fnv_field(&h, src, len);
	for (size_t i = 0; argv[i]; i++)
		if (i != sl->dfile && i != sl->out)
			fnv_str(&h, argv[i]);
	fnv(&h, &prim_hash, sizeof(prim_hash)); /* the link reads it */
	if ((rc = hash_compiler(&h, b->words[0])) < 0)
		return rc;
	if (strstr(b->cmd, "native"))
		hash_cpu(&h);
	*key = h;
	return 0;
}

/* <cache>/<16 hex digits><suffix>; -1 after a message when too long. */
static int cache_path(char *out, size_t len, const char *cache, uint64_t h,
		      const char *suffix)
{
	if (snprintf(out, len, "%s/%016llx%s", cache, (unsigned long long)h,
		     suffix) < (int)len)
		return 0;
	fprintf(stderr, "settle: cache path too long: %s\n", cache);
	return -1;
}

/* The cache directory takes the compiler's output: tmp, created there
 * (access() says yes to root for /proc, and the compiler then failed
 * with messages of its own). -1 after a message. */
static int cache_writable(const char *tmp, const char *file,
			  const char *cmd, const char *cache)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fprintf(stderr, "settle: %s: cannot compile build '%s': the cache "
		"directory %s is not writable (%s); set SETTLE_CACHE_DIR to "
		"one that is\n", file, cmd, cache, strerror(errno));
	return -1;
}

/* The compiler's output at path on the disk before it is renamed into
 * the cache (a crash then leaves no object cut short under a cached
 * name). Returns 0, or -1: kept out of the cache. */
static int synced(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/*
 * Compile file, with the command key key, into the cache: the object
 * under the name of the key and of every file the compiler read (-MD),
 * and the manifest of those files. When they cannot all be hashed, or one
 * changed while the compiler ran, the object is loaded from its temporary
 * name and not kept (b->transient). -1 after a message.
 */
static int compile(struct build *b, char **argv, const struct slots *sl,
		   const char *file, const char *cache, uint64_t key)
{
	char tmp[PATH_MAX + 64], dtmp[PATH_MAX + 64], mf[PATH_MAX];
	struct deps ds = { 0 };
	struct timespec t0;
	pid_t pid;
	int st;

	if (cache_path(mf, sizeof(mf), cache, key, ".manifest") < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s/%016llx.so.tmp.%ld", cache,
		 (unsigned long long)key, (long)getpid());
	snprintf(dtmp, sizeof(dtmp), "%s/%016llx.d.tmp.%ld", cache,
		 (unsigned long long)key, (long)getpid());
	if (cache_writable(tmp, file, b->cmd, cache) < 0)
		return -1;
	argv[sl->out] = tmp;
	argv[sl->dfile] = dtmp;
	settle_temp_add(tmp, 0);  /* a second Ctrl-C removes them */
	settle_temp_add(dtmp, 0);
	clock_gettime(CLOCK_REALTIME, &t0);
	pid = spawn(argv, STDERR_FILENO, -1, 0);
	if (pid < 0) {
		settle_temp_forget(tmp);
		settle_temp_forget(dtmp);
		unlink(tmp); /* cache_writable() made it */
		return -1;
	}
	st = settle_wait(pid, NULL);
	settle_temp_forget(dtmp);
	if (settle_interrupted()) {
		unlink(tmp);
		unlink(dtmp);
		settle_temp_forget(tmp);
		fprintf(stderr, "settle: %s: build '%s' interrupted\n", file,
			b->cmd);
		return -2;
	}
	if (st != 0) {
		settle_temp_forget(tmp);
		unlink(tmp);
		unlink(dtmp);
		fprintf(stderr, "settle: %s: build '%s' failed (%s %d); the "
			"compiler's messages are above\n", file, b->cmd,
			st > 128 ? "signal" : "exit status",
			st > 128 ? st - 128 : st);
		return -1;
	}
	/* ET_DYN: "cc -c" wrote an object file, "cc -E" text, "true"
	 * nothing, each then refused by dlopen in its own words */
	if (settle_elf_type(tmp) != ET_DYN) {
		settle_temp_forget(tmp);
		unlink(tmp);
		unlink(dtmp);
		fprintf(stderr, "settle: %s: build '%s' exited 0 but wrote no "
			"shared object; a build is a C compiler command that "
			"settle adds -shared -fPIC -o FILE to, e.g. \"cc -O2\"\n",
			file, b->cmd);
		return -1;
	}
	b->transient = parse_depfile(dtmp, &ds) < 0 ||
		       changed_since(&ds, &t0);
	b->uncached = "a file it read changed during the build, or the "
		      "compiler's list of them could not be read";
	deps_protect(&ds);
	unlink(dtmp);
	if (!b->transient && synced(tmp) < 0)
		b->uncached = "it could not be written to the disk (fsync)";
	else if (!b->transient &&
		 cache_path(b->so, sizeof(b->so), cache, object_key(key, &ds),
			    ".so") == 0 && rename(tmp, b->so) == 0) {
		write_manifest(mf, &ds); /* without it: compiled again */
		deps_free(&ds);
		settle_temp_forget(tmp);
		return 0;
	} else if (!b->transient) {
		b->uncached = "it could not be renamed into the cache";
	}
	deps_free(&ds);
	settle_temp_forget(tmp);
	b->transient = 1;
	snprintf(b->so, sizeof(b->so), "%s", tmp);
	return 0;
}

/*
 * The cached object of the build with command key key, if the files its
 * manifest lists are as they were: its path in b->so, 1. 0 when there is
 * none.
 */
static int find_cached(struct build *b, const char *cache, uint64_t key,
		       int verbose)
{
	char mf[PATH_MAX];
	struct deps ds = { 0 };
	struct stat st;
	int found;

	if (cache_path(mf, sizeof(mf), cache, key, ".manifest") < 0 ||
	    read_manifest(mf, &ds, verbose) < 0)
		return 0;
	found = cache_path(b->so, sizeof(b->so), cache, object_key(key, &ds),
			   ".so") == 0 &&
		stat(b->so, &st) == 0 && S_ISREG(st.st_mode);
	if (found)
		deps_protect(&ds);
	deps_free(&ds);
	return found;
}

/* The object at path is ELF for another machine than settle. */
static int foreign_object(const char *path)
{
	int m = settle_elf_machine(path),
	    own = settle_elf_machine("/proc/self/exe");

	return m >= 0 && own >= 0 && m != own;
}

/* dlopen the build's object, its constructors watched (user_watch()). */
static void *load(struct build *b)
{
	void *dl;

	user_enter(NULL, 0, NULL, "loading it (a constructor)");
	user_build = b->cmd;
	dl = dlopen(b->so, RTLD_NOW | RTLD_LOCAL);
	user_leave();
	return dl;
}

/* Whether build b's compiler is clang: its predefined macros (the
 * build's words, -dM -E of an empty file) hold __clang__, whatever runs
 * it (env, ccache). Asked once a build command (one per layout). */
static int is_clang(const struct build *b)
{
	static const char *asked;
	static int clang;
	char *argv[MAX_WORDS + 6], buf[4096], tail[16] = "";
	size_t argc = 0, k;
	int fd[2], found = 0;
	pid_t pid;
	ssize_t n;

	if (asked && !strcmp(asked, b->cmd))
		return clang;
	for (size_t i = 0; i < b->nwords; i++)
		argv[argc++] = b->words[i];
	argv[argc++] = "-dM";
	argv[argc++] = "-E";
	argv[argc++] = "-x";
	argv[argc++] = "c";
	argv[argc++] = "/dev/null";
	argv[argc] = NULL;
	if (pipe2(fd, O_CLOEXEC))
		return 0;
	pid = spawn(argv, fd[1], fd[0], 1);
	close(fd[1]);
	while (pid > 0 && (n = read(fd[0], buf, sizeof(buf) - 1)) != 0) {
		char join[sizeof(tail) + sizeof(buf)];

		if (n < 0 && errno == EINTR && !settle_interrupted())
			continue;
		if (n < 0)
			break;
		buf[n] = '\0';
		/* the name may straddle two reads */
		snprintf(join, sizeof(join), "%s%s", tail, buf);
		found |= strstr(join, "__clang__") != NULL;
		k = (size_t)n > 9 ? 9 : (size_t)n;
		memcpy(tail, buf + n - k, k);
		tail[k] = '\0';
	}
	close(fd[0]);
	if (pid > 0 && settle_wait(pid, NULL) != 0)
		found = 0;
	asked = b->cmd;
	clang = found;
	return clang;
}

/* Whether build b says how to align its functions itself. */
static int own_alignment(const struct build *b)
{
	for (size_t i = 0; i < b->nwords; i++)
		if (!strncmp(b->words[i], "-falign-functions", 17) ||
		    !strcmp(b->words[i], "-fno-align-functions"))
			return 1;
	return 0;
}

/*
 * Whether b's functions (but the C runtime's and its cold code,
 * settle_elf_code_align()) each start a 16-byte slot, as the layouts'
 * design needs (docs/layouts.md: each layout moves the code by a slot,
 * so a function and its copy sit in the same four slots only when both
 * start one). Why not into b->offslot, else "". gcc's -Os aligns no
 * function, whatever -falign-functions says.
 */
static void code_slots(struct build *b)
{
	char fn[128];
	long a = settle_elf_code_align(b->so, SETTLE_LAYOUT_MARK,
				       SETTLE_LAYOUT_CODE_MARK,
				       SETTLE_LAYOUT_COLD_MARK,
				       SETTLE_CODE_SLOT, fn, sizeof(fn));

	b->offslot[0] = '\0';
	if (a >= SETTLE_CODE_SLOT)
		return;
	if (a > 0)
		snprintf(b->offslot, sizeof(b->offslot), "its function %s "
			 "(gcc's -Os aligns no function, nor does "
			 "-falign-functions below 16: measure such a build "
			 "without --layouts, or at -O2)", fn);
	else if (a == -2)
		snprintf(b->offslot, sizeof(b->offslot), "its object lacks "
			 "the layout's padding (the linker dropped it: "
			 "-Wl,--gc-sections or -Wl,-x?), so its code may "
			 "not move");
	else
		snprintf(b->offslot, sizeof(b->offslot), "no symbol table "
			 "in its object says where its functions start "
			 "(-s?)");
}

/*
 * Compile (or find in the cache) and load one build of file, whose
 * contents are src[0..len). -1 after a message.
 */
static int make_build(struct build *b, const char *file, const char *real,
		      const char *src, size_t len, const struct places *pl,
		      const char *pad)
{
	const char *cache = pl->cache;
	int verbose = pl->verbose;
	char *argv[MAX_WORDS];
	struct slots sl;
	size_t argc = 0;
	uint64_t key;
	void *dl;
	int cached, cut, rc;
	char dashed[PATH_MAX + 3];

	if (split_build(b) < 0)
		return -1;
	for (size_t i = 0; i < b->nwords; i++)
		argv[argc++] = b->words[i];
	/* in layouts every function starts a 16-byte slot, as at -O2 (-O0
	 * and -O1 pack them); not where the build aligns its own (its
	 * choice, checked): after its words, where a wrapper's (env, ccache)
	 * options are not */
	if (pad && !own_alignment(b))
		argv[argc++] = "-falign-functions=16";
	if (pad) {
		/* the layout's padding first in each section (see above);
		 * clang puts a file's top-level asm first anyway, and knows
		 * no -fno-toplevel-reorder (clang 14: an error) */
		if (!is_clang(b))
			argv[argc++] = "-fno-toplevel-reorder";
		argv[argc++] = "-include";
		argv[argc++] = (char *)pad;
	}
	argv[argc++] = "-shared";
	argv[argc++] = "-fPIC";
	argv[argc++] = "-I";
	argv[argc++] = (char *)pl->inc;
	argv[argc++] = "-MD";
	argv[argc++] = "-MF";
	sl.dfile = argc++;
	argv[argc++] = "-o";
	sl.out = argc++;
	/* a name the compiler would take for an option (-x.c): ./-x.c */
	snprintf(dashed, sizeof(dashed), "%s%s", file[0] == '-' ? "./" : "",
		 file);
	argv[argc++] = dashed;
	/* its _exit() and _Exit() said, not silent (user_quick_exit()) */
	argv[argc++] = "-Wl,--wrap=_exit,--wrap=_Exit";
	if (pl->prim[0]) {
		/* settle's primitives in the object, called there (see above) */
		argv[argc++] = (char *)pl->prim;
		argv[argc++] = "-Wl,-Bsymbolic-functions";
	}
	argv[argc] = NULL;
	argv[sl.dfile] = argv[sl.out] = "";

	if ((rc = command_key(b, argv, &sl, real, src, len, pl->prim_hash,
			      &key)) < 0)
		return rc;
	cached = find_cached(b, cache, key, verbose);
	if (!cached && (rc = compile(b, argv, &sl, file, cache, key)) < 0)
		return rc;
	if (protect_hit[0]) {
		if (b->transient)
			unlink(b->so);
		fprintf(stderr, "settle: --output is a file that build '%s' "
			"of %s reads (%s): refusing to write over it\n",
			b->cmd, file, protect_hit);
		return -1;
	}
	if (verbose)
		fprintf(stderr, "settle: %s, build '%s'%s%s: %s%s%s%s %s\n",
			file, b->cmd, pad ? ", " : "", pad ? pad : "",
			cached ? "cached" : "compiled",
			!cached && b->transient ? " (not cached: " : "",
			!cached && b->transient ? b->uncached : "",
			!cached && b->transient ? ")" : "", b->so);

	/* a cached object cut short (a crash before it reached the disk)
	 * is not loaded: its pages past the end fault with SIGBUS, which
	 * read as a crash of the claim's constructor in every later run */
	cut = cached && settle_elf_whole(b->so) == 0;
	dl = cut ? NULL : load(b);
	/* a cached object that does not load (cut short, overwritten):
	 * compiled again, once, instead of failing every later run */
	if (!dl && cached && !foreign_object(b->so)) {
		fprintf(stderr, "settle: %s, build '%s': the cached object %s "
			"cannot be loaded (%s): compiling it again\n", file,
			b->cmd, b->so, cut ? "cut short: its headers or "
			"segments reach past its end" : dlerror());
		unlink(b->so);
		if ((rc = compile(b, argv, &sl, file, cache, key)) < 0)
			return rc;
		dl = load(b);
	}
	if (dl && pad)
		code_slots(b);
	if (b->transient)
		unlink(b->so);
	if (!dl) {
		const char *err = dlerror();

		fprintf(stderr, "settle: %s, build '%s': cannot load: %s%s\n",
			file, b->cmd, err, foreign_object(b->so) ?
			" (the object is built for another architecture than "
			"settle's)" : "");
		/* not kept: an object that does not load is no cache entry
		 * (an undefined symbol: the next run says so again, it is
		 * not 'cached object cannot be loaded') */
		unlink(b->so);
		return -1;
	}
	b->claims = dlsym(dl, "settle_user_claims");
	if (!b->claims || !b->claims[0]) {
		fprintf(stderr, "settle: %s declares no claims: list them at "
			"its end with SETTLE_CLAIMS(&my_claim, ...) (see "
			"docs/writing-a-claim.md)\n", file);
		return -1;
	}
	while (b->claims[b->nclaims]) {
		if (++b->nclaims > MAX_FILE_CLAIMS) {
			fprintf(stderr, "settle: %s lists more than %d claims "
				"(or SETTLE_CLAIMS is not NULL-terminated)\n",
				file, MAX_FILE_CLAIMS);
			return -1;
		}
	}
	return 0;
}

/*
 * The padding header of layout l in the cache, <cache>/layout-<l>.h,
 * written when it is missing or differs (whole or not at all), its path
 * in out. -1 after a message.
 */
static int layout_header(const char *cache, unsigned l, char *out,
			 size_t len)
{
	char text[2048], err[512], *old = NULL;
	size_t n, oldlen = 0;
	int same;

	if ((size_t)snprintf(out, len, "%s/layout-%u.h", cache, l) >= len) {
		fprintf(stderr, "settle: cache path too long: %s\n", cache);
		return -1;
	}
	n = (size_t)snprintf(text, sizeof(text),
		"/* settle layout %u (docs/layouts.md): this build's code "
		"starts %d bytes\n * and its static data %d bytes into a "
		"page. Written by settle. */\n__asm__(", l,
		SETTLE_LAYOUT_CODE_PAD(l), SETTLE_LAYOUT_DATA_PAD(l));
	/* the code's sections: .text, and those the linker puts before
	 * every .text (gcc's hot functions, such as -fprofile-use's, its
	 * cold parts and constructors), which would not move otherwise */
	for (size_t i = 0; i < 7; i++) {
		static const char *const sec[] = {
			".text", ".text.hot,\\\"ax\\\"",
			".text.unlikely,\\\"ax\\\"", ".text.startup,\\\"ax\\\"",
			".rodata", ".data", ".bss",
		};
		static const char *const mark[] = {
			SETTLE_LAYOUT_CODE_MARK, SETTLE_LAYOUT_MARK "hot",
			SETTLE_LAYOUT_COLD_MARK, SETTLE_LAYOUT_MARK "startup",
		};
		int code = i < 4;
		int pad = code ? SETTLE_LAYOUT_CODE_PAD(l) :
			  SETTLE_LAYOUT_DATA_PAD(l);
		char skip[80] = "";

		if (pad) /* .skip 0 makes the assembler warn */
			snprintf(skip, sizeof(skip), "\\t.skip %d%s\\n", pad,
				 code ? ", 0xcc" : "");
		if (code) /* where the build's own functions begin */
			snprintf(skip + strlen(skip), sizeof(skip) -
				 strlen(skip), "%s:\\n", mark[i]);
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "%s\".pushsection %s\\n\\t.p2align 12\\n"
				      "%s\\t.popsection\\n\"", i ? "\n\t" : "",
				      sec[i], skip);
	}
	n += (size_t)snprintf(text + n, sizeof(text) - n, ");\n");
	same = slurp(out, &old, &oldlen) == 0 && oldlen == n &&
	       !memcmp(old, text, n);
	free(old);
	if (same)
		return 0;
	if (settle_replace_file(out, text, n, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return -1;
	}
	return 0;
}

/* An array of sizes and its count agree: both given or neither;
 * otherwise said, 0. */
static int sizes_agree(const char *file, const struct settle_claim *c,
		       const char *what, const uint64_t *sizes, size_t n)
{
	if (!sizes == !n)
		return 1;
	fprintf(stderr, "settle: %s: claim '%s': %s is %s but its count is "
		"%zu\n", file, c->name, what, sizes ? "set" : "NULL", n);
	return 0;
}

/* Which of n texts (NULL: none) is not UTF-8: its name in what[], or
 * NULL. A result file keeps text as UTF-8 (U+FFFD for a bad byte) while
 * run prints bad bytes as \xNN: run's table and show's would differ. */
static const char *not_utf8(const char *const *text,
			    const char *const *what, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (text[i] && !settle_utf8_valid(text[i]))
			return what[i];
	return NULL;
}

/* The same for claim c's texts (not its variants'). */
static const char *claim_not_utf8(const struct settle_claim *c)
{
	static const char *const what[] = { "title", "description",
					    "op_name", "original" };
	const char *text[] = { c->title, c->description, c->op_name,
			       c->original };

	return not_utf8(text, what, 4);
}

/* The same for variant v: name, description, build, label, parameters. */
static const char *variant_not_utf8(const struct settle_variant *v)
{
	static const char *const what[] = { "name", "description", "build",
					    "label", "parameters",
					    "parameters", "parameters" };
	const char *text[] = { v->name, v->description, v->build, v->label };
	const char *bad = not_utf8(text, what, 4);

	for (size_t i = 0; !bad && v->params && i < v->nparams; i++) {
		const char *p[] = { v->params[i].key, v->params[i].value,
				    v->params[i].label };

		bad = not_utf8(p, what + 4, 3);
	}
	return bad;
}

/* Why variant v's parameters cannot be kept in a result file and read
 * back, into buf; NULL when they can. A key the file uses itself
 * ("build", "size_bytes") or one key twice made a result file with a
 * key twice, which settle show refused; an integer beyond 64 bits one
 * that jansson refused ("too big integer"), after run had exited 0. */
static const char *bad_params(const struct settle_variant *v, char *buf,
			      size_t len)
{
	for (size_t i = 0; v->params && i < v->nparams; i++) {
		const struct settle_param *p = &v->params[i];

		if (!p->key || !p->key[0] || !p->value)
			snprintf(buf, len, "parameter %zu needs a key and a "
				 "value", i + 1);
		else if (!strcmp(p->key, "build") ||
			 !strcmp(p->key, "size_bytes"))
			snprintf(buf, len, "parameter '%s' is a name settle "
				 "keeps for itself (the build, the buffer's "
				 "size)", p->key);
		else if (p->type == SETTLE_PARAM_INT &&
			 !settle_int64_text(p->value))
			snprintf(buf, len, "parameter '%s': '%s' is no decimal "
				 "integer from -2^63 to 2^63 - 1 "
				 "(SETTLE_PARAM_INT)", p->key, p->value);
		else if (p->type == SETTLE_PARAM_BOOL &&
			 strcmp(p->value, "true") && strcmp(p->value, "false"))
			snprintf(buf, len, "parameter '%s': '%s' is neither "
				 "true nor false (SETTLE_PARAM_BOOL)", p->key,
				 p->value);
		else
			for (size_t k = 0; k < i && !buf[0]; k++)
				if (v->params[k].key &&
				    !strcmp(v->params[k].key, p->key))
					snprintf(buf, len, "parameter '%s' "
						 "twice", p->key);
		if (buf[0])
			return buf;
	}
	return NULL;
}

/*
 * Whether variant j of claim c has a table label of its own: not the
 * label of an earlier variant of its group (same build and parameters),
 * and, when its .label is set, not the name of another variant. Two rows
 * labelled alike could not be told apart (one 63x the other's time), and
 * a label naming another variant made the footnote's and the
 * conclusion's names point at the wrong row. 1, or 0 after saying why.
 */
/* s without its leading and trailing blanks, in place; returns it */
static char *unblank(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static int labels_apart(const char *file, const struct settle_claim *c,
			size_t j)
{
	const struct settle_variant *v = &c->variants[j];
	char a[1024], b[1024], *la;

	if (v->label && v->label[0] && !v->label[strspn(v->label, " \t")]) {
		fprintf(stderr, "settle: %s: claim '%s': variant '%s' is "
			"labelled with blanks alone (its row would read as its "
			"build)\n", file, c->name, v->name);
		return 0;
	}
	/* "a " reads as "a" */
	la = unblank(settle_variant_label(v, a, sizeof(a)));
	for (size_t k = 0; k < c->nvariants; k++) {
		const struct settle_variant *w = &c->variants[k];

		if (k == j || !settle_variant_same_group(w, v))
			continue;
		if (k < j &&
		    !strcmp(unblank(settle_variant_label(w, b, sizeof(b))), la) &&
		    strcmp(w->name, v->name)) {
			fprintf(stderr, "settle: %s: claim '%s': variants "
				"'%s' and '%s' have the same label '%s' (their "
				"rows could not be told apart)\n", file,
				c->name, w->name, v->name, la);
			return 0;
		}
		if (v->label && v->label[0] && !strcmp(la, w->name)) {
			fprintf(stderr, "settle: %s: claim '%s': variant "
				"'%s' is labelled '%s', the name of another "
				"variant\n", file, c->name, v->name, v->label);
			return 0;
		}
	}
	return 1;
}

/* A claim settle can run: named, with named variants that run. */
static int valid_claim(const char *file, const struct settle_claim *c,
		       size_t idx)
{
	int base = !c->baseline;
	const char *bad;
	char why[160];

	if (!c->name || !c->name[0]) {
		fprintf(stderr, "settle: %s: claim %zu of SETTLE_CLAIMS has no "
			"name\n", file, idx + 1);
		return 0;
	}
	if (!settle_utf8_valid(c->name)) {
		fprintf(stderr, "settle: %s: claim %zu of SETTLE_CLAIMS: its name "
			"is not UTF-8 (a result file could not keep it)\n",
			file, idx + 1);
		return 0;
	}
	if ((bad = claim_not_utf8(c))) {
		fprintf(stderr, "settle: %s: claim '%s': its %s is not UTF-8 "
			"(a result file could not keep it)\n", file, c->name,
			bad);
		return 0;
	}
	if (!c->variants || !c->nvariants) {
		fprintf(stderr, "settle: %s: claim '%s' has no variants\n",
			file, c->name);
		return 0;
	}
	/* the check runs check_iters repetitions and one more */
	if (c->check_iters > SETTLE_MAX_CHECK_ITERS) {
		fprintf(stderr, "settle: %s: claim '%s': check_iters %llu is "
			"more than %llu repetitions (the check runs each "
			"variant that often, and once more)\n", file, c->name,
			(unsigned long long)c->check_iters,
			(unsigned long long)SETTLE_MAX_CHECK_ITERS);
		return 0;
	}
	/* a claim with sizes but a count of 0 once ran nothing and exited 0
	 * with an empty result file */
	if (!sizes_agree(file, c, "default_sizes", c->default_sizes,
			 c->ndefault_sizes) ||
	    !sizes_agree(file, c, "full_sizes", c->full_sizes,
			 c->nfull_sizes))
		return 0;
	for (size_t j = 0; j < c->ndefault_sizes + c->nfull_sizes; j++) {
		const uint64_t *s = j < c->ndefault_sizes ?
				    &c->default_sizes[j] :
				    &c->full_sizes[j - c->ndefault_sizes];

		if (!*s) { /* no file of it could be read back */
			fprintf(stderr, "settle: %s: claim '%s': a size of 0 "
				"bytes in its %s; a size is at least 1 byte\n",
				file, c->name, j < c->ndefault_sizes ?
				"default_sizes" : "full_sizes");
			return 0;
		}
		/* twice: two groups of rows of one size, which show and
		 * compare would take for one */
		for (size_t k = 0; k < j; k++)
			if ((k < c->ndefault_sizes ? c->default_sizes[k] :
			     c->full_sizes[k - c->ndefault_sizes]) == *s) {
				fprintf(stderr, "settle: %s: claim '%s': the "
					"size %llu bytes twice in its "
					"default_sizes and full_sizes\n", file,
					c->name, (unsigned long long)*s);
				return 0;
			}
	}
	/* a count a result file can keep (a JSON integer reads back up to
	 * 2^63 - 1) */
	if (c->bytes_per_op != SETTLE_BYTES_SIZE &&
	    c->bytes_per_op > (uint64_t)INT64_MAX) {
		fprintf(stderr, "settle: %s: claim '%s': bytes_per_op %llu is "
			"more than a result file can keep (2^63 - 1)\n", file,
			c->name, (unsigned long long)c->bytes_per_op);
		return 0;
	}
	for (size_t j = 0; j < c->nvariants; j++) {
		const struct settle_variant *v = &c->variants[j];

		/* a blank name's row reads as its build alone */
		if (!v->name || !v->name[strspn(v->name, " \t")] || !v->run) {
			fprintf(stderr, "settle: %s: claim '%s': variant %zu "
				"needs a name (not only blanks) and a run "
				"function\n", file, c->name, j + 1);
			return 0;
		}
		if ((bad = variant_not_utf8(v))) {
			fprintf(stderr, "settle: %s: claim '%s': the %s of "
				"variant %zu is not UTF-8 (a result file could "
				"not keep it)\n", file, c->name, bad, j + 1);
			return 0;
		}
		why[0] = '\0';
		if (bad_params(v, why, sizeof(why))) {
			fprintf(stderr, "settle: %s: claim '%s': variant '%s': "
				"%s\n", file, c->name, v->name, why);
			return 0;
		}
		/* the baseline (named, or the first variant) is checked and
		 * compared against; a reference is neither, so nothing would
		 * be (a check mismatch went unsaid, exit 0) */
		if ((c->baseline ? !strcmp(v->name, c->baseline) : j == 0) &&
		    v->flags & SETTLE_REFERENCE) {
			fprintf(stderr, "settle: %s: claim '%s': its baseline "
				"'%s' is a reference (SETTLE_REFERENCE), which "
				"is never checked or compared; name another as "
				".baseline\n", file, c->name, v->name);
			return 0;
		}
		if (c->baseline && !strcmp(v->name, c->baseline))
			base = 1;
		for (size_t k = 0; k < j; k++)
			if (!strcmp(c->variants[k].name, v->name) &&
			    settle_variant_same_group(&c->variants[k], v)) {
				fprintf(stderr, "settle: %s: claim '%s': "
					"variants %zu and %zu are both '%s' "
					"(the same name, build and parameters: "
					"their results could not be told "
					"apart)\n", file, c->name, k + 1,
					j + 1, v->name);
				return 0;
			}
	}
	/* once every variant is whole (params included) */
	for (size_t j = 0; j < c->nvariants; j++)
		if (!labels_apart(file, c, j))
			return 0;
	if (!base)
		fprintf(stderr, "settle: %s: claim '%s': its baseline '%s' is "
			"not one of its variants\n", file, c->name,
			c->baseline);
	return base;
}

/* ------------------------------------------------------------------ */
/* Merging.                                                            */

static int named(char *const *names, size_t n, const char *name)
{
	if (n == 0)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s %s", a, b);
	return s;
}

/* Add claim c of build bi to its merged claim; -1 after a message. */
static int merge_claim(const char *file, const struct settle_claim *c,
		       size_t bi)
{
	struct mclaim *mc = NULL, **more;

	for (size_t k = 0; k < nmclaims && !mc; k++)
		if (!strcmp(mclaims[k]->claim.name, c->name))
			mc = mclaims[k];
	if (!mc) {
		more = realloc(mclaims, (nmclaims + 1) * sizeof(*more));
		mc = calloc(1, sizeof(*mc));
		if (!more || !mc) {
			free(mc);
			if (more)
				mclaims = more;
			fprintf(stderr, "settle: out of memory\n");
			return -1;
		}
		mclaims = more;
		mclaims[nmclaims++] = mc;
		mc->claim = *c;
	}
	if (mc->per_build[bi]) {
		fprintf(stderr, "settle: %s: two claims are called '%s'\n",
			file, c->name);
		return -1;
	}
	mc->per_build[bi] = c;
	return 0;
}

/* Give merged claim mc its variants, one slot each; -1 after a message. */
static int make_variants(struct mclaim *mc, const struct build *builds,
			 size_t nb)
{
	struct settle_claim *cl = &mc->claim;
	struct settle_variant *mv;
	size_t n = 0;

	mc->nbuilds = nb;
	for (size_t b = 0; b < nb; b++) {
		mc->build_names[b] = builds[b].cmd;
		if (!mc->per_build[b]) {
			/* A claim this build lacks: an empty stand-in. */
			struct settle_claim *none = calloc(1, sizeof(*none));

			if (!none)
				goto nomem;
			mc->per_build[b] = none;
		}
		n += mc->per_build[b]->nvariants;
	}
	mv = calloc(n, sizeof(*mv));
	mc->slots = calloc(n, sizeof(*mc->slots));
	if (!mv || !mc->slots)
		goto nomem;
	for (size_t b = 0, i = 0; b < nb; b++) {
		const struct settle_claim *c = mc->per_build[b];

		for (size_t j = 0; j < c->nvariants; j++, i++) {
			const struct settle_variant *v = &c->variants[j];

			mc->slots[i] = (struct slot){ v, b, j, i };
			mv[i] = *v;
			mv[i].build = v->build ? join(builds[b].cmd, v->build)
					       : builds[b].cmd;
			mv[i].label = v->label && *v->label ?
				      join(builds[b].cmd, v->label) : NULL;
			mv[i].run = slot_run;
			mv[i].arg = &mc->slots[i];
			mv[i].unavailable = v->unavailable ? slot_unavailable
							   : NULL;
			if (builds[b].offslot[0])
				mv[i].flags |= SETTLE_UNALIGNED_CODE;
			if (!mv[i].build ||
			    (v->label && *v->label && !mv[i].label))
				goto nomem;
		}
	}
	cl->variants = mv;
	cl->nvariants = n;
	cl->setup = mclaim_setup;
	cl->teardown = mclaim_teardown;
	cl->scale = mclaim_scale;
	if (!cl->baseline)
		cl->baseline = cl->variants[0].name;
	if (!cl->title)
		cl->title = cl->name;
	if (!cl->description)
		cl->description = "";
	return 0;
nomem:
	fprintf(stderr, "settle: out of memory\n");
	return -1;
}

/*
 * Refuse merged claim mc when two of its rows read alike: a variant
 * labelled "-DX a" in the build "cc -O2" and variant a of the build
 * "cc -O2 -DX" were both the row "cc -O2 -DX a" (one the other's
 * baseline, one 2x slower: the table read as the flag's cost), and
 * `--variant` took both. Within one build and parameters labels_apart()
 * has said it already; rows of other parameters are told apart by them
 * (a labelled row's name leaves them out, as before). 0, or -1 after a
 * message.
 */
static int rows_apart(const char *file, const struct mclaim *mc)
{
	const struct settle_claim *c = &mc->claim;
	char a[1024], b[1024], *la;

	for (size_t i = 0; i < c->nvariants; i++) {
		la = unblank(settle_variant_label(&c->variants[i], a,
						  sizeof(a)));
		for (size_t k = 0; k < i; k++) {
			const struct slot *si = &mc->slots[i], *sk = &mc->slots[k];
			const struct settle_variant *vi = &c->variants[i];
			const struct settle_variant *vk = &c->variants[k];

			if (!settle_same_group(NULL, vi->params, vi->nparams,
					       NULL, vk->params, vk->nparams) ||
			    strcmp(unblank(settle_variant_label(
					&c->variants[k], b, sizeof(b))), la))
				continue;
			fprintf(stderr, "settle: %s: claim '%s': two rows "
				"read '%s': variant '%s' of the build '%s' and "
				"variant '%s' of the build '%s' (label one "
				"apart)\n", file, c->name, la, sk->orig->name,
				mc->build_names[sk->build], si->orig->name,
				mc->build_names[si->build]);
			return -1;
		}
	}
	return 0;
}

int settle_byob_is_file(const char *arg)
{
	size_t n = strlen(arg);

	return n > 2 && !strcmp(arg + n - 2, ".c");
}

static int duplicate_build(const char *const *builds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(builds[i], builds[j])) {
				fprintf(stderr, "settle: --build '%s' given "
					"twice\n", builds[i]);
				return 1;
			}
	return 0;
}

/* The claim called name in build bl, or NULL. */
static const struct settle_claim *claim_named(const struct build *bl,
					      const char *name)
{
	for (size_t k = 0; k < bl->nclaims; k++)
		if (bl->claims[k]->name && !strcmp(bl->claims[k]->name, name))
			return bl->claims[k];
	return NULL;
}

/*
 * Give each merged claim its claims in the objects of layouts 1 ..
 * nl - 1 (bl[L * nbuilds + b]), which must match layout 0's: the same
 * source, so the same claims and variants. -1 after a message.
 */
static int merge_layouts(const char *file, const struct build *bl,
			 size_t nbuilds, unsigned nl)
{
	for (size_t k = 0; k < nmclaims; k++) {
		struct mclaim *mc = mclaims[k];

		mc->nlayouts = nl;
		mc->per_layout = calloc((size_t)nl * nbuilds + 1,
					sizeof(*mc->per_layout));
		if (!mc->per_layout) {
			fprintf(stderr, "settle: out of memory\n");
			return -1;
		}
		for (unsigned l = 1; l < nl; l++)
			for (size_t b = 0; b < nbuilds; b++) {
				const struct settle_claim *c0 =
					mc->per_build[b], *c;

				c = claim_named(&bl[l * nbuilds + b],
						mc->claim.name);
				if (!c && c0->nvariants == 0)
					c = c0; /* the build lacks it */
				if (!c || c->nvariants != c0->nvariants) {
					fprintf(stderr, "settle: %s: claim "
						"'%s' differs between the "
						"layouts' builds\n", file,
						mc->claim.name);
					return -1;
				}
				mc->per_layout[l * nbuilds + b] = c;
			}
	}
	return 0;
}

/* Read the claim file into *src (malloc'ed, *len bytes) and its real path
 * into real (PATH_MAX bytes). Returns 0, or -1 after saying why. */
static int read_source(const char *file, char **src, size_t *len,
		       char *real)
{
	struct stat st;

	if (is_dir(file)) {
		fprintf(stderr, "settle: cannot read %s: is a directory\n",
			file);
		return -1;
	}
	/* a device or a FIFO (/dev/zero named x.c) would be read forever,
	 * or until a writer came */
	if (stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "settle: cannot read %s: not a regular file (a "
			"device, FIFO or socket); a claim file is C source\n",
			file);
		return -1;
	}
	if (slurp(file, src, len) < 0 || !realpath(file, real)) {
		fprintf(stderr, "settle: cannot read %s: %s\n", file,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Build the file once per build and layout into b[l * nbuilds + i].
 * Returns 0, 2 after saying why, or 128 + the signal when interrupted
 * (as the shell says). */
static int build_layouts(struct build *b, const char *const *builds,
			 size_t nbuilds, unsigned nl, const char *file,
			 const char *real, const char *src, size_t len,
			 struct places *pl)
{
	char pad[PATH_MAX];

	for (unsigned l = 0; l < nl; l++) {
		if (nl > 1 &&
		    layout_header(pl->cache, l, pad, sizeof(pad)) < 0)
			return 2;
		for (size_t i = 0; i < nbuilds; i++) {
			struct build *bl = &b[l * nbuilds + i];
			int rc;

			bl->cmd = builds[i];
			rc = make_build(bl, file, real, src, len, pl,
					nl > 1 ? pad : NULL);
			if (rc < 0)
				return rc == -2 ? 128 + settle_interrupted()
						: 2;
		}
	}
	return 0;
}

/* A build whose functions do not all start a slot in some layout's
 * object: said in layout 0's (b[i]), which its variants take, and, when
 * say, on stderr. */
static void off_slots(const char *file, struct build *b, size_t nbuilds,
		      unsigned nl, int say)
{
	for (size_t i = 0; i < nbuilds; i++) {
		for (unsigned l = 1; l < nl && !b[i].offslot[0]; l++)
			memcpy(b[i].offslot, b[l * nbuilds + i].offslot,
			       sizeof(b[i].offslot));
		if (b[i].offslot[0] && say)
			fprintf(stderr, "settle: %s, build '%s': %s: in "
				"layouts its rows get no verdict (%s; "
				"docs/layouts.md)\n", file, b[i].cmd,
				b[i].offslot, SETTLE_WHY_OFF_SLOT);
	}
}

/* Whether a name given with the claim names none of the file's claims
 * (said with the claims of its first build, b). */
static int missing_name(const char *file, char *const *names, size_t nnames,
			const struct build *b)
{
	for (size_t i = 0; i < nnames; i++) {
		size_t k;

		for (k = 0; k < nmclaims; k++)
			if (!strcmp(mclaims[k]->claim.name, names[i]))
				break;
		if (k < nmclaims)
			continue;
		fprintf(stderr, "settle: %s has no claim '%s'; its claims:",
			file, names[i]);
		for (k = 0; k < b->nclaims; k++)
			fprintf(stderr, "%s %s", k ? "," : "",
				b->claims[k]->name);
		fprintf(stderr, "\n");
		return 1;
	}
	return 0;
}

int settle_byob_claims(const char *file, const char *const *builds,
		       size_t nbuilds, unsigned layouts, char *const *names,
		       size_t nnames, unsigned flags,
		       const struct settle_claim **out, size_t max,
		       size_t *nout)
{
	static const char *const dflt[] = { SETTLE_BYOB_DEFAULT_BUILD };
	static struct places pl; /* big: not on the stack */
	struct build *b;
	char real[PATH_MAX], *src;
	unsigned nl = layouts > 1 ? layouts : 1;
	size_t len;
	int rc;

	if (nbuilds == 0) {
		builds = dflt;
		nbuilds = 1;
	}
	if (nbuilds > SETTLE_BYOB_MAX_BUILDS) {
		fprintf(stderr, "settle: too many --build options (at most "
			"%d)\n", SETTLE_BYOB_MAX_BUILDS);
		return 2;
	}
	if (nmclaims) {
		fprintf(stderr, "settle: one FILE.c per run\n");
		return 2;
	}
	if (duplicate_build(builds, nbuilds))
		return 2;
	if (read_source(file, &src, &len, real) < 0)
		return 2;
	if (find_include(pl.inc) < 0) {
		free(src);
		return 2;
	}
	find_prim(pl.prim, &pl.prim_hash, !(flags & SETTLE_BYOB_QUIET));
	pl.verbose = (flags & SETTLE_BYOB_VERBOSE) &&
		     !(flags & SETTLE_BYOB_QUIET);
	if (pl.verbose && pl.prim[0])
		fprintf(stderr, "settle: %s: each build links %s\n", file,
			pl.prim);
	if (cache_dir(pl.cache, sizeof(pl.cache)) < 0) {
		free(src);
		return 2;
	}
	/* the objects stay loaded, and so do their build descriptions */
	b = calloc((size_t)nl * nbuilds, sizeof(*b));
	if (!b) {
		free(src);
		fprintf(stderr, "settle: out of memory\n");
		return 2;
	}
	user_watch(file);
	rc = build_layouts(b, builds, nbuilds, nl, file, real, src, len, &pl);
	free(src);
	if (rc)
		return rc;
	off_slots(file, b, nbuilds, nl, !(flags & SETTLE_BYOB_QUIET));
	for (size_t i = 0; i < nbuilds; i++)
		for (size_t k = 0; k < b[i].nclaims; k++) {
			const struct settle_claim *c = b[i].claims[k];

			/* a count beyond its array (nvariants 5 of 2) read
			 * past it: a crash said nothing, exit 139 */
			user_enter(NULL, 0, NULL, "reading its claims' tables "
				   "(a count larger than its array, such as "
				   "nvariants?)");
			user_build = b[i].cmd;
			rc = !valid_claim(file, c, k) ||
			     (named(names, nnames, c->name) &&
			      merge_claim(file, c, i) < 0);
			user_leave();
			if (rc)
				return 2;
		}
	if (missing_name(file, names, nnames, &b[0]))
		return 2;
	if (nmclaims > max) {
		fprintf(stderr, "settle: %s: too many claims (at most %zu)\n",
			file, max);
		return 2;
	}
	for (size_t k = 0; k < nmclaims; k++) {
		if (make_variants(mclaims[k], b, nbuilds) < 0 ||
		    rows_apart(file, mclaims[k]) < 0)
			return 2;
		out[k] = &mclaims[k]->claim;
	}
	if (nl > 1 && merge_layouts(file, b, nbuilds, nl) < 0)
		return 2;
	*nout = nmclaims;
	return 0;
}
