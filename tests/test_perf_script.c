/*
 * test_perf_script.c - the parser of `perf script -F period,ip,sym,dso` text
 * (src/runner/perf_script.c): on captured perf output (tests/data/), where
 * perf report's own figures for the same recording are the oracle, and on
 * small hand-written cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner/perf_script.h"

static const char *data_dir(void)
{
	const char *d = getenv("SETTLE_TESTDATA");

	return d ? d : "tests/data";
}

/* Feed a whole file to p, line by line; returns the malformed lines. */
static size_t feed_file(struct settle_perf_parser *p, const char *name)
{
	char path[512], *line = NULL;
	size_t cap = 0, bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0)
		bad += settle_perf_parse_line(p, line) < 0;
	free(line);
	fclose(f);
	settle_perf_parser_finish(p);
	return bad;
}

/* What perf report says of a symbol: its columns, as printed. */
struct oracle {
	double children_pct, self_pct; /* children_pct = self without -g */
	unsigned long samples;         /* self samples */
	double event_count;            /* of the whole recording */
};

static void oracle_of(const char *name, const char *sym, int children,
		      struct oracle *o)
{
	char path[512], line[512], tail[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	f = fopen(path, "r");
	assert_non_null(f);
	memset(o, 0, sizeof(*o));
	while (fgets(line, sizeof(line), f)) {
		char *end = line + strlen(line);

		while (end > line && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		sscanf(line, "# Event count (approx.): %lf", &o->event_count);
		if (line[0] == '#' || !strstr(line, "] "))
			continue;
		if (strcmp(strstr(line, "] ") + 2, sym) != 0)
			continue;
		if (children)
			assert_int_equal(sscanf(line, " %lf%% %lf%% %lu %255s",
						&o->children_pct, &o->self_pct,
						&o->samples, tail), 4);
		else
			assert_int_equal(sscanf(line, " %lf%% %lu %255s",
						&o->self_pct, &o->samples,
						tail), 3);
		if (!children)
			o->children_pct = o->self_pct;
		found = 1;
	}
	fclose(f);
	assert_true(found);
	assert_true(o->event_count > 0);
}

/*
 * perf report prints percentages to 2 decimals: the parser's share must
 * round to the same value (within 0.005 percentage points).
 */
static void check_against_report(const char *script, const char *report,
				 int children, const char *const *syms,
				 size_t n, uint64_t period)
{
	struct settle_perf_parser p;
	struct oracle o;

	settle_perf_parser_init(&p, syms, n);
	assert_int_equal(feed_file(&p, script), 0);
	assert_int_equal(p.count.malformed, 0);
	assert_true(p.count.samples > 100);
	for (size_t i = 0; i < n; i++) {
		double total;

		oracle_of(report, syms[i], children, &o);
		total = o.event_count / (double)period;
		assert_int_equal(p.count.samples, (uint64_t)llround(total));
		assert_true((double)p.count.period_sum == o.event_count);
		assert_int_equal(p.count.self[i], o.samples);
		assert_float_equal(100.0 * (double)p.count.self[i] / total,
				   o.self_pct, 0.005 + 1e-9);
		assert_float_equal(100.0 * (double)p.count.children[i] / total,
				   o.children_pct, 0.005 + 1e-9);
		assert_true(p.count.children[i] >= p.count.self[i]);
	}
}

static void test_callchain_capture(void **st)
{
	/* leaves, a function only ever a caller (self 0), one in between */
	static const char *const syms[] = {
		"e2fsck_pass4", "ext2fs_rb_next", "ext2fs_bitcount",
		"do_syscall_64", "entry_SYSCALL_64_after_hwframe",
		"__x64_sys_futex",
	};
	struct settle_perf_parser p;

	(void)st;
	check_against_report("perf-script-e2fsck-callchain.txt",
			     "perf-report-e2fsck-callchain.txt", 1, syms,
			     sizeof(syms) / sizeof(syms[0]), 1000000);
	/* the caller-only symbol really is found only in chains */
	settle_perf_parser_init(&p, syms, 6);
	feed_file(&p, "perf-script-e2fsck-callchain.txt");
	assert_int_equal(p.count.self[4], 0);
	assert_true(p.count.children[4] > 10);
}

static void test_flat_capture(void **st)
{
	static const char *const syms[] = {
		"e2fsck_pass4", "ext2fs_rb_next", "ext2fs_bitcount",
	};
	struct settle_perf_parser p;

	(void)st;
	check_against_report("perf-script-e2fsck-flat.txt",
			     "perf-report-e2fsck-flat.txt", 0, syms, 3, 1000000);
	/* without call chains, with callees is the same as self */
	settle_perf_parser_init(&p, syms, 3);
	feed_file(&p, "perf-script-e2fsck-flat.txt");
	for (int i = 0; i < 3; i++)
		assert_int_equal(p.count.children[i], p.count.self[i]);
}

/* A symbol that perf never saw is counted 0 times, not an error. */
static void test_absent_symbol(void **st)
{
	static const char *const syms[] = { "no_such_function_anywhere" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(feed_file(&p, "perf-script-e2fsck-callchain.txt"), 0);
	assert_true(p.count.samples > 100);
	assert_int_equal(p.count.self[0], 0);
	assert_int_equal(p.count.children[0], 0);
}

static const char hand[] =
	"    250000 \n"
	"\t    7f0000001000 leaf\n"
	"\t    7f0000002000 mid\n"
	"\t    7f0000003000 mid\n"          /* recursion: counted once */
	"\t    7f0000004000 main\n"
	"\n"
	"    250000 \n"
	"\t    7f0000002000 mid\n"
	"\t    7f0000004000 main\n"
	"\n"
	"    500000 \n"
	"\tffffffff81000000 do_syscall_64\n"
	"\t           1ab70 std::vector<int, std::allocator<int> >::push_back(int const&)\n"
	"\t               0 [unknown]\n"
	"\n"
	"    250000 \n"                    /* the last sample has no blank */
	"\t    7f0000001000 leaf@plt\n"
	"\t    7f0000004000 main";

static void test_by_hand(void **st)
{
	static const char *const syms[] = {
		"leaf", "mid", "main",
		"std::vector<int, std::allocator<int> >::push_back(int const&)",
		"[unknown]", "mai",
	};
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 6);
	assert_int_equal(settle_perf_parse_text(&p, hand, strlen(hand)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 4);
	assert_int_equal(p.count.period_sum, 1250000);
	assert_int_equal(p.count.self[0], 1);      /* leaf@plt is not leaf */
	assert_int_equal(p.count.children[0], 1);
	assert_int_equal(p.count.self[1], 1);
	assert_int_equal(p.count.children[1], 2);  /* once per sample */
	assert_int_equal(p.count.self[2], 0);
	assert_int_equal(p.count.children[2], 3);
	assert_int_equal(p.count.children[3], 1);  /* a name with blanks */
	assert_int_equal(p.count.self[3], 0);
	assert_int_equal(p.count.children[4], 1);
	assert_int_equal(p.count.children[5], 0);  /* no prefix match */
	assert_int_equal(p.count.malformed, 0);
}

/*
 * glibc's implementations: perf names a sample after the function that
 * ran, __memmove_avx512_unaligned_erms for a call of memcpy, so memcpy
 * has none of those samples; they are counted apart, innermost frames
 * only, with the first name seen. Not one: a name that only starts so,
 * __strlenx, my__strlen_x, the symbol itself, a helper with no CPU's
 * tag (__printf_fp_l, __qsort_r), or a sample with the symbol in its
 * chain (its share has it already).
 */
static void test_implementations(void **st)
{
	static const char text[] =
		"    100 \n"
		"\t    7f0000001000 __memmove_avx512_unaligned_erms\n"
		"\t    7f0000002000 copy\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 __memcpy_evex_unaligned\n"
		"\t    7f0000002000 copy\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 __strlen_avx2\n"
		"\t    7f0000002000 __memmove_sse2_unaligned\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 __strlenx\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 my__strlen_x\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 strlen\n"
		"\t    7f0000003000 _start\n\n"
		"    100      7f0000001000 __strlen_evex\n"
		"    100 \n"
		"\t    7f0000001000 __strlen_sse2\n"
		"\t    7f0000002000 strlen\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 __printf_fp_l\n"
		"\t    7f0000003000 _start\n\n"
		"    100 \n"
		"\t    7f0000001000 __qsort_r\n"
		"\t    7f0000003000 _start\n\n";
	static const char *const syms[] = { "memcpy", "strlen", "copy",
					    "printf", "qsort" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 5);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 10);
	assert_int_equal(p.count.impl[0], 2);    /* not the outer memmove */
	assert_string_equal(p.count.impl_name[0],
			    "__memmove_avx512_unaligned_erms");
	assert_int_equal(p.count.self[0], 0);
	assert_int_equal(p.count.impl[1], 2);    /* chained and flat */
	assert_string_equal(p.count.impl_name[1], "__strlen_avx2");
	assert_int_equal(p.count.self[1], 1);
	assert_int_equal(p.count.children[1], 2);
	assert_int_equal(p.count.impl[2], 0);
	assert_string_equal(p.count.impl_name[2], "");
	assert_int_equal(p.count.impl[3], 0);
	assert_int_equal(p.count.impl[4], 0);
}

/*
 * Chains cut short and the union of the symbols: a chain that reaches no
 * process or thread entry is cut (perf's DWARF unwinder once lost its
 * way in a whole run of a command, its chains ending in main below
 * memcpy); a sample counts once in the union however many symbols it
 * has; " (inlined)" after a name is still that name's frame.
 */
static void test_cut_and_union(void **st)
{
	static const char text[] =
		"    100000 \n"                   /* whole, glibc 2.34 on */
		"\t          16da1f leaf (inlined)\n"
		"\t            11e7 mid\n"
		"\t           27249 __libc_start_call_main\n"
		"\t           27304 __libc_start_main_impl (inlined)\n"
		"\t            4780 [unknown]\n"
		"\n"
		"    100000 \n"                   /* cut below main */
		"\t          16da1f __memcpy_avx512_unaligned_erms (inlined)\n"
		"\t            10a8 main\n"
		"\t           27249 __libc_start_call_main\n"
		"\n"
		"    100000 \n"                   /* kernel frames only: cut */
		"\tffffffff82242009 pvm_irq_enable\n"
		"\tffffffff81000c82 asm_exc_page_fault\n"
		"\n"
		"    100000 \n"                   /* a thread: whole */
		"\t            1200 work\n"
		"\t            1300 mid\n"
		"\t           92b14 start_thread\n"
		"\t          118a2f clone3\n"
		"\n"
		"    100000 \n"                   /* a static program: whole */
		"\t            1200 other\n"
		"\t            1000 _start\n"
		"\n"
		"    100000 \n"   /* a program's own start(), cut above it */
		"\t            1200 other\n"
		"\t            1300 start\n"
		"\t            1400 mid\n"
		"\t            1400 mid\n"
		"\t            1500 [unknown]\n";
	static const char *const syms[] = { "leaf", "mid", "main", "work" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 4);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 6);
	assert_int_equal(p.count.cut, 3);
	/* of the two, the one that ends where frame pointers end */
	assert_int_equal(p.count.fell_back, 1);
	assert_int_equal(p.count.self[0], 1);     /* leaf (inlined) */
	assert_int_equal(p.count.children[1], 3); /* mid */
	assert_int_equal(p.count.children[2], 1); /* main */
	assert_int_equal(p.count.self[3], 1);     /* work */
	/* leaf+mid, main, work+mid, mid: 4 samples, not the 6 of the sum */
	assert_int_equal(p.count.any, 4);
	/* the first, whole, has a frame perf could not name */
	assert_int_equal(p.count.unnamed, 1);
}

/*
 * With thread IDs (-F comm,tid,period,ip,sym): the threads that took
 * samples, told apart by their ID, the samples of the first thread while
 * its command is a shell aside (the shell that started the command, before
 * it forks it or execs it); a command's name may hold blanks; the frames
 * read as without IDs.
 */
static void one(struct settle_perf_parser *p, const char *head)
{
	assert_int_equal(settle_perf_parse_line(p, head), 0);
	assert_int_equal(settle_perf_parse_line(p, "\t            1200 work"), 0);
	assert_int_equal(settle_perf_parse_line(p, "\t            1000 _start"), 0);
	assert_int_equal(settle_perf_parse_line(p, ""), 0);
}

static void test_tids(void **st)
{
	static const char *const syms[] = { "work" };
	struct settle_perf_parser p;

	(void)st;
	/* dash forks the program: its samples aside, two threads */
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parser_tids(&p);
	for (int i = 0; i < 100; i++)
		one(&p, i < 5 ? "sh  7308     100000 " : i < 60 ?
			"prog  7310     100000 " : "prog  7311     100000 ");
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 100);
	assert_int_equal(p.count.self[0], 100);
	assert_int_equal(p.count.cut, 0);
	assert_int_equal(p.count.busy_threads, 2);
	/* exec: the shell's thread becomes the program's main thread, which
	 * waits (2 samples of 50) while a second thread works: two */
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parser_tids(&p);
	for (int i = 0; i < 50; i++)
		one(&p, i < 2 ? "sh  7308     100000 " : i < 4 ?
			"prog  7308     100000 " : "prog  7309     100000 ");
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.busy_threads, 2);
	/* one program, a name with blanks: one */
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parser_tids(&p);
	one(&p, "    Web Content  7310     100000 ");
	one(&p, "    Web Content  7310     100000 ");
	assert_int_equal(settle_perf_parse_line(&p, "x 100000"), -1);
	assert_int_equal(settle_perf_parse_line(&p, "x 7310"), -1);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 2);
	assert_int_equal(p.count.busy_threads, 1);
}

/*
 * A compiler's copies of a function are the function: perf names a sample
 * after the copy that ran (other.constprop.0 held 48 % of a program's
 * samples, and --share other read "under 1.59 %"); a longer name, or a
 * dot and another word, is another function.
 */
static void test_clones(void **st)
{
	static const char text[] =
		"   1000000      401136 other.constprop.0\n"
		"   1000000      401137 other.isra.0\n"
		"   1000000      401138 other.part.1\n"
		"   1000000      401139 other.cold\n"
		"   1000000      40113a other.llvm.6613429751468\n"
		"   1000000      40113b other.lto_priv.0\n"
		"   1000000      40113c othername\n"
		"   1000000      40113d other.foo\n"
		"   1000000      40113e other.coldness\n"
		"   1000000      40113f othe\n"
		"   1000000      401140 other\n";
	static const char *const syms[] = { "other" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 11);
	assert_int_equal(p.count.self[0], 7);
	assert_int_equal(p.count.children[0], 7);
}

/*
 * Frames perf could not name ("[unknown]": a stripped program): a sample
 * with one, whole or without a chain, is unnamed; one cut short is cut
 * only (the two are disjoint, so that a bound adds them).
 */
static void test_unnamed(void **st)
{
	static const char chains[] =
		"    100000 \n"                   /* whole, unnamed inside */
		"\t            1189 [unknown]\n"
		"\t           27249 __libc_start_call_main\n"
		"\t           27304 __libc_start_main_impl\n"
		"\n"
		"    100000 \n"                   /* cut, unnamed: cut only */
		"\t            1189 [unknown]\n"
		"\t            1190 [unknown]\n"
		"\n"
		"    100000 \n"                   /* whole, every frame named */
		"\t            1200 work\n"
		"\t           92b14 start_thread\n"
		"\n"
		"    100000 \n"                   /* whole: a name holding it */
		"\t            1200 not[unknown]\n"
		"\t            1000 _start\n";
	static const char flat[] =
		"   1000000      55d0c1a01189 [unknown]\n"
		"   1000000      7f31d701399a _dl_lookup_symbol_x\n";
	static const char *const syms[] = { "work" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, chains, strlen(chains)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 4);
	assert_int_equal(p.count.cut, 1);
	assert_int_equal(p.count.unnamed, 1);
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, flat, strlen(flat)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 2);
	assert_int_equal(p.count.unnamed, 1);
}

/* Feed file name to p with thread IDs (-F comm,tid,...); returns the
 * malformed lines. */
static size_t feed_tids(struct settle_perf_parser *p, const char *const *syms,
			size_t n, const char *name)
{
	settle_perf_parser_init(p, syms, n);
	settle_perf_parser_tids(p);
	return feed_file(p, name);
}

/*
 * -F ...,dso: one recording of a program built without -g whose work()
 * ran inlined in main for three quarters of its calls (tests/data/
 * inlined.c), read with and without the files. The files change no count
 * (perf report's samples of the recording the oracle); work's frames are
 * in the program alone, its inlined calls named main.
 */
static void test_dso_capture(void **st)
{
	static const char *const syms[] = { "work", "main", "_start" };
	struct settle_perf_parser a, b;
	struct oracle o;

	(void)st;
	assert_int_equal(feed_tids(&a, syms, 3, "perf-script-inlined.txt"), 0);
	assert_int_equal(feed_tids(&b, syms, 3, "perf-script-inlined-dso.txt"),
			 0);
	assert_true(a.count.samples > 50);
	assert_int_equal(b.count.samples, a.count.samples);
	assert_int_equal(b.count.period_sum, a.count.period_sum);
	assert_int_equal(b.count.cut, a.count.cut);
	assert_int_equal(b.count.unnamed, a.count.unnamed);
	assert_int_equal(b.count.any, a.count.any);
	assert_int_equal(b.count.busy_threads, a.count.busy_threads);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(b.count.self[i], a.count.self[i]);
		assert_int_equal(b.count.children[i], a.count.children[i]);
		assert_string_equal(a.count.dso[i][0], "");
	}
	oracle_of("perf-report-inlined.txt", "work", 0, &o);
	assert_int_equal(b.count.self[0], o.samples);
	oracle_of("perf-report-inlined.txt", "main", 0, &o);
	assert_int_equal(b.count.self[1], o.samples);
	assert_true(b.count.self[1] > 2 * b.count.self[0]);
	assert_string_equal(b.count.dso[0][0], "/tmp/settle-inl/inl");
	assert_string_equal(b.count.dso[0][1], "");
	assert_int_equal(b.count.dso_more[0], 0);
	assert_string_equal(b.count.dso[2][0],
			    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
	assert_string_equal(b.count.dso[2][1], "/tmp/settle-inl/inl");
	/* perf showed inlined frames in the loader (its debug information
	 * is installed), none in the program built without -g */
	assert_string_equal(b.count.inline_dso[0],
			    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
	assert_string_equal(b.count.inline_dso[1], "");
	assert_string_equal(a.count.inline_dso[0], "");
}

/*
 * Evidence that perf reads a file's inlined code: an inlined frame, then
 * the function it was inlined into at the same address, named in the
 * file. Not at another address, not a name that is no file.
 */
static void test_inline_evidence(void **st)
{
	static const char text[] =
		"    100000 \n"
		"\t            11c8 work (inlined)\n"
		"\t            11c8 caller (/tmp/pg)\n"
		"\t            1000 _start (/tmp/pg)\n"
		"\n"
		"    100000 \n"
		"\t            11c8 work (inlined)\n"
		"\t            11d0 caller (/tmp/other)\n"
		"\t            1000 _start (/tmp/other)\n"
		"\n"
		"    100000 \n"
		"\t        ffff11c8 x (inlined)\n"
		"\t        ffff11c8 y ([kernel.kallsyms])\n"
		"\n"
		"    100000 \n"
		"\t            11c8 work (inlined)\n"
		"\n"
		"    100000 \n"
		"\t            11c8 caller (/tmp/third)\n"
		"\t            1000 _start (/tmp/third)\n"
		"\n"
		"    100000 \n"
		"\t            11c8 work (inlined)\n"
		"\t            11c8 more (inlined)\n"
		"\t            11c8 caller (/tmp/pg)\n"
		"\t            2000 main (/tmp/fourth)\n"
		"\t            1000 _start (/tmp/fourth)\n";
	static const char *const syms[] = { "work" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_string_equal(p.count.inline_dso[0], "/tmp/pg");
	assert_string_equal(p.count.inline_dso[1], "");
	assert_int_equal(p.count.children[0], 4);
	/* work ran inlined only: its copies' file is that of the frame at
	 * their address; where none follows (another address, or none),
	 * the run's last frame was the function itself (perf 6.1 names one
	 * it found in DWARF only so), in no file named */
	assert_string_equal(p.count.dso[0][0], "/tmp/pg");
	assert_string_equal(p.count.dso[0][1], "");
	assert_int_equal(p.count.dso_unplaced[0], 0);
}

/*
 * perf 6.1 on sort calling libc's strcoll, libc6-dbg installed: the
 * function that ran is named from DWARF, glibc's internal alias and
 * "(inlined)", its inlined helpers before it, then the caller at another
 * address (a stripped program: [unknown]). --share __strcoll_l names it
 * (it read "in none of its samples"), with callees in every sample and
 * self where it is the innermost frame, and in no unnamed file (it read
 * "a file perf did not name", which settled nothing); a frame of the
 * function it was inlined into, at its address, without a file (perf
 * script without -F dso) leaves it unplaced.
 */
static void test_inlined_itself(void **st)
{
	static const char two[] =
		"sort 22818     250000 \n"
		"\t           9da88 get_next_seq (inlined)\n"
		"\t           9da88 __GI___strcoll_l (inlined)\n"
		"\t           145b4 [unknown] (/usr/bin/sort)\n"
		"\t           27249 __libc_start_call_main (/lib/libc.so.6)\n"
		"\t           27304 __libc_start_main_impl (inlined)\n"
		"\n"
		"sort 22818     250000 \n"
		"\t           9db14 __GI___strcoll_l (inlined)\n"
		"\t           145b4 [unknown] (/usr/bin/sort)\n"
		"\t           27249 __libc_start_call_main (/lib/libc.so.6)\n"
		"\t           27304 __libc_start_main_impl (inlined)\n";
	static const char own[] =
		"sort 22818     250000 \n"
		"\t           9db20 __GI___strcoll_l (inlined)\n"
		"\t           9db20 strcoll\n"
		"\t           1000 _start (/usr/bin/sort)\n";
	static const char *const syms[] = { "__strcoll_l", "strcoll_l" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 2);
	settle_perf_parser_tids(&p); /* the "COMM TID PERIOD" lines */
	assert_int_equal(settle_perf_parse_text(&p, two, strlen(two)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 2);
	assert_int_equal(p.count.children[0], 2);
	assert_int_equal(p.count.self[0], 1);
	assert_string_equal(p.count.dso[0][0], "");
	assert_int_equal(p.count.dso_unplaced[0], 0);
	/* __GI_ is glibc's alias of a name, not a prefix of any */
	assert_int_equal(p.count.children[1], 0);
	settle_perf_parser_init(&p, syms, 2);
	settle_perf_parser_tids(&p);
	assert_int_equal(settle_perf_parse_text(&p, own, strlen(own)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.children[0], 1);
	assert_int_equal(p.count.dso_unplaced[0], 1);
}

/*
 * The file after a frame: a path (which may hold " (" itself), a
 * bracketed name, or "(inlined)", which is no file; a symbol's own
 * parentheses are its name. Each symbol keeps its distinct files, the
 * first SETTLE_PERF_DSOS of them; more, or a name too long, are said.
 */
static void test_dso_by_hand(void **st)
{
	static const char text[] =
		"    100000 \n"
		"\t            1200 work (/tmp/a (copy)/prog)\n"
		"\t            1300 main (/tmp/a (copy)/prog)\n"
		"\t           27249 __libc_start_call_main (/lib/libc.so.6)\n"
		"\t           27304 __libc_start_main_impl (inlined)\n"
		"\n"
		"    100000 \n"
		"\t            1200 work (inlined)\n"
		"\t            1200 main (/usr/bin/prog)\n"
		"\t            1000 _start (/usr/bin/prog)\n"
		"\n"
		"    100000 \n"
		"\t            1189 [unknown] ([unknown])\n"
		"\t           27249 __libc_start_call_main (/lib/libc.so.6)\n"
		"\t           27304 __libc_start_main_impl (inlined)\n"
		"\n"
		"    100000 \n"
		"\t            1200 work.constprop.0 ([kernel.kallsyms])\n"
		"\t            1000 _start (/usr/bin/prog)\n"
		"\n"
		"    100000 \n"
		"\t            1200 op(int) (/usr/bin/prog)\n"
		"\t            1210 (anonymous) (/usr/bin/prog)\n"
		"\t            1000 _start (/usr/bin/prog)\n";
	static const char flat[] =
		"   1000000      55d0c1a01189 work (/usr/bin/flat)\n";
	static const char *const syms[] = {
		"work", "main", "op(int)", "(anonymous)", "[unknown]",
	};
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 5);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 5);
	assert_int_equal(p.count.cut, 0);
	assert_int_equal(p.count.unnamed, 1);
	assert_int_equal(p.count.self[0], 3);
	assert_string_equal(p.count.dso[0][0], "/tmp/a (copy)/prog");
	/* the file of the function its copy was inlined into */
	assert_string_equal(p.count.dso[0][1], "/usr/bin/prog");
	assert_string_equal(p.count.dso[0][2], "[kernel.kallsyms]");
	assert_string_equal(p.count.dso[0][3], "");
	assert_int_equal(p.count.dso_unplaced[0], 0);
	assert_int_equal(p.count.children[1], 2);
	assert_string_equal(p.count.dso[1][0], "/tmp/a (copy)/prog");
	assert_string_equal(p.count.dso[1][1], "/usr/bin/prog");
	assert_int_equal(p.count.self[2], 1);
	assert_string_equal(p.count.dso[2][0], "/usr/bin/prog");
	assert_int_equal(p.count.children[3], 1);
	assert_int_equal(p.count.children[4], 1);
	assert_string_equal(p.count.dso[4][0], "[unknown]");
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(p.count.dso_more[i], 0);

	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, flat, strlen(flat)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.self[0], 1);
	assert_string_equal(p.count.dso[0][0], "/usr/bin/flat");
}

static void test_dso_more(void **st)
{
	static const char *const syms[] = { "work" };
	struct settle_perf_parser p;
	char line[512], name[300];

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	for (int i = 0; i <= SETTLE_PERF_DSOS; i++) {
		snprintf(line, sizeof(line), "   1000 1200 work (/lib/%d.so)",
			 i % SETTLE_PERF_DSOS);
		assert_int_equal(settle_perf_parse_line(&p, line), 0);
	}
	assert_int_equal(p.count.dso_more[0], 0); /* the same 8 again */
	assert_string_equal(p.count.dso[0][SETTLE_PERF_DSOS - 1], "/lib/7.so");
	assert_int_equal(settle_perf_parse_line(&p, "   1000 1 work (/9.so)"),
			 0);
	assert_int_equal(p.count.dso_more[0], 1);

	settle_perf_parser_init(&p, syms, 1);
	memset(name, 'a', sizeof(name));
	name[0] = '/';
	name[SETTLE_PERF_DSO_LEN] = '\0'; /* 256 bytes: one too many */
	snprintf(line, sizeof(line), "   1000 1200 work (%s)", name);
	assert_int_equal(settle_perf_parse_line(&p, line), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.self[0], 1);
	assert_string_equal(p.count.dso[0][0], "");
	assert_int_equal(p.count.dso_more[0], 1);
}

/*
 * settle_perf_parser_addresses(): the addresses of the frames in each
 * file, distinct and sorted; an entry, a frame perf could not name, a PLT
 * stub and the C runtime's start-up code aside (built without debug
 * information, they hold no inlined code of the program); inlined frames
 * are their function's address, kept once; a name that is no file
 * aside. Off unless asked for.
 */
static void test_addresses(void **st)
{
	static const char text[] =
		"    100000 \n"
		"\t            11c8 work (inlined)\n"
		"\t            11c8 caller (/tmp/pg)\n"
		"\t            1050 main (/tmp/pg)\n"
		"\t            1000 _start (/tmp/pg)\n"
		"\n"
		"    100000 \n"
		"\t            1030 memcpy@plt (/tmp/pg)\n"
		"\t            1010 frame_dummy (/tmp/pg)\n"
		"\t            1020 [unknown] (/tmp/pg)\n"
		"\t            11c8 caller (/tmp/pg)\n"
		"\t        ffff1000 y ([kernel.kallsyms])\n"
		"\t           27304 memcpy (/lib/libc.so.6)\n"
		"\t            1000 _start (/tmp/pg)\n";
	static const char *const syms[] = { "work" };
	const struct settle_perf_file *f;
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_null(settle_perf_parser_file(&p, "/tmp/pg"));
	settle_perf_parser_free(&p);
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parser_addresses(&p);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	f = settle_perf_parser_file(&p, "/tmp/pg");
	assert_non_null(f);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->addr[0], 0x1050);
	assert_int_equal(f->addr[1], 0x11c8);
	assert_int_equal(f->lost, 0);
	f = settle_perf_parser_file(&p, "/lib/libc.so.6");
	assert_non_null(f);
	assert_int_equal(f->n, 1);
	assert_int_equal(f->addr[0], 0x27304);
	assert_null(settle_perf_parser_file(&p, "[kernel.kallsyms]"));
	settle_perf_parser_free(&p);
	assert_null(p.files);
	/* many: kept distinct as they come (3000 of 9000 frames) */
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parser_addresses(&p);
	for (unsigned i = 0; i < 9000; i++) {
		char line[64];

		snprintf(line, sizeof(line), "   1000 %x work (/tmp/many)",
			 0x4000 + 16 * ((i * 7) % 3000));
		assert_int_equal(settle_perf_parse_line(&p, line), 0);
	}
	settle_perf_parser_finish(&p);
	f = settle_perf_parser_file(&p, "/tmp/many");
	assert_non_null(f);
	assert_int_equal(f->n, 3000);
	assert_int_equal(f->addr[0], 0x4000);
	assert_int_equal(f->addr[2999], 0x4000 + 16 * 2999);
	for (size_t i = 1; i < f->n; i++)
		assert_true(f->addr[i - 1] < f->addr[i]);
	settle_perf_parser_free(&p);
}

/* Without call chains no sample is cut: each is its one frame. */
static void test_flat_not_cut(void **st)
{
	static const char text[] =
		"   1000000      7f31d701399a _dl_lookup_symbol_x\n"
		"   1000000  ffffffff815ba691 truncate_inode_pages_final\n";
	static const char *const syms[] = { "_dl_lookup_symbol_x" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	settle_perf_parse_text(&p, text, strlen(text));
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 2);
	assert_int_equal(p.count.cut, 0);
	assert_int_equal(p.count.any, 1);
}

/* The layout without call chains: "PERIOD ADDRESS SYMBOL" per line. */
static void test_flat_by_hand(void **st)
{
	static const char text[] =
		"   1000000      7f31d701399a _dl_lookup_symbol_x\n"
		"   1000000  ffffffff815ba691 truncate_inode_pages_final\n"
		"   2000000      7f31d701399a _dl_lookup_symbol_x\r\n"
		"   1000000      7f31d6fa0db5 [unknown]\n";
	static const char *const syms[] = { "_dl_lookup_symbol_x" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 0);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.samples, 4);
	assert_int_equal(p.count.period_sum, 5000000);
	assert_int_equal(p.count.self[0], 2);
	assert_int_equal(p.count.children[0], 2);
}

/* Lines perf script does not write are counted and do not count as
 * samples; a frame before any sample is one of them. */
static void test_malformed(void **st)
{
	static const char text[] =
		"\t    7f0000001000 leaf\n"      /* frame outside a sample */
		"Warning: something\n"
		"    12x45 \n"                   /* not a period */
		"    250000 \n"
		"\tnot-an-address leaf\n"
		"\t    7f0000001000\n"           /* no symbol */
		"\t    7f0000001000 leaf\n"
		"\n"
		"    99999999999999999999999 \n"; /* overflows */
	static const char *const syms[] = { "leaf" };
	struct settle_perf_parser p;

	(void)st;
	settle_perf_parser_init(&p, syms, 1);
	assert_int_equal(settle_perf_parse_text(&p, text, strlen(text)), 6);
	settle_perf_parser_finish(&p);
	assert_int_equal(p.count.malformed, 6);
	assert_int_equal(p.count.samples, 1);
	assert_int_equal(p.count.self[0], 0);   /* the bad frames came first */
	assert_int_equal(p.count.children[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callchain_capture),
		cmocka_unit_test(test_flat_capture),
		cmocka_unit_test(test_absent_symbol),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_implementations),
		cmocka_unit_test(test_flat_by_hand),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cut_and_union),
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_clones),
		cmocka_unit_test(test_tids),
		cmocka_unit_test(test_flat_not_cut),
		cmocka_unit_test(test_dso_capture),
		cmocka_unit_test(test_dso_by_hand),
		cmocka_unit_test(test_dso_more),
		cmocka_unit_test(test_inline_evidence),
		cmocka_unit_test(test_inlined_itself),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
