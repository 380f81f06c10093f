/*
 * test_command.c - whole commands (src/runner/command.c, model/command.c):
 * the options and their refusals, what runs when (warm-up, prepare,
 * interleaved rounds, standard input), failures with their exit status
 * and message, and --share through a stand-in for perf that replays a
 * captured recording (tests/data/), so that the plumbing is checked on
 * any machine. Plumbing only: nothing here depends on how long anything
 * takes.
 */
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

#include "runner/command.h"
#include "runner/perf_script.h"

static char dir[] = "/tmp/settle-test-command-XXXXXX";
static char err[2048];

static const char *data_dir(void)
{
	const char *d = getenv("SETTLE_TESTDATA");

	return d ? d : "tests/data";
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Text of a file in the test directory ("" when missing). */
static const char *slurp(const char *name)
{
	static char text[4096];
	char p[256];
	size_t n = 0;
	FILE *f;

	path_of(p, sizeof(p), name);
	text[0] = '\0';
	f = fopen(p, "r");
	if (!f)
		return text;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static int opt(struct settle_command_set *s, int which, const char *arg)
{
	return settle_command_option(s, which, arg, err, sizeof(err));
}

/* ---- options ---------------------------------------------------------- */

static void test_option_command(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	assert_int_equal(opt(&s, SETTLE_CMDOPT_COMMAND, "fast=sleep 0.1"), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_COMMAND, "slow.2=a=b c"), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.cmd[0].name, "fast");
	assert_string_equal(s.cmd[0].shell, "sleep 0.1");
	assert_string_equal(s.cmd[1].name, "slow.2");
	assert_string_equal(s.cmd[1].shell, "a=b c"); /* the first '=' */
}

static void refused(struct settle_command_set *s, int which, const char *arg,
		    const char *says)
{
	size_t n = s->n;

	assert_int_equal(opt(s, which, arg), -1);
	assert_non_null(strstr(err, says));
	assert_int_equal(s->n, n);
}

static void test_option_refusals(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	refused(&s, SETTLE_CMDOPT_COMMAND, "", "empty --command");
	refused(&s, SETTLE_CMDOPT_COMMAND, "  ", "empty --command");
	refused(&s, SETTLE_CMDOPT_COMMAND, "sleep 1", "expected NAME=SHELL");
	refused(&s, SETTLE_CMDOPT_COMMAND, "=sleep 1", "NAME before '=' is empty");
	refused(&s, SETTLE_CMDOPT_COMMAND, "a=", "no command after 'a='");
	refused(&s, SETTLE_CMDOPT_COMMAND, "a= \t", "no command after 'a='");
	refused(&s, SETTLE_CMDOPT_COMMAND, "a b=true", "a NAME is 1 to 32");
	refused(&s, SETTLE_CMDOPT_COMMAND,
		"abcdefghijklmnopqrstuvwxyz0123456=true", "a NAME is 1 to 32");
	assert_int_equal(opt(&s, SETTLE_CMDOPT_COMMAND, "a=true"), 0);
	refused(&s, SETTLE_CMDOPT_COMMAND, "a=false", "two --command named 'a'");
	refused(&s, SETTLE_CMDOPT_WARMUP, "x", "malformed --warmup");
	refused(&s, SETTLE_CMDOPT_WARMUP, "-1", "malformed --warmup");
	refused(&s, SETTLE_CMDOPT_WARMUP, "1001", "malformed --warmup");
	refused(&s, SETTLE_CMDOPT_PREPARE, " ", "empty --prepare");
	refused(&s, SETTLE_CMDOPT_SHARE, "", "malformed --share");
	refused(&s, SETTLE_CMDOPT_SHARE, " main", "malformed --share");
	refused(&s, SETTLE_CMDOPT_SHARE, "ma\nin", "malformed --share");
	assert_int_equal(s.n, 1);
	for (int i = 1; i < SETTLE_CMD_MAX; i++) {
		char a[32];

		snprintf(a, sizeof(a), "c%d=true", i);
		assert_int_equal(opt(&s, SETTLE_CMDOPT_COMMAND, a), 0);
	}
	refused(&s, SETTLE_CMDOPT_COMMAND, "one-more=true", "too many");
}

static void test_option_values(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	assert_int_equal(opt(&s, SETTLE_CMDOPT_WARMUP, "0"), 0);
	assert_true(s.have_warmup && s.warmup == 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_WARMUP, "1000"), 0);
	assert_int_equal(s.warmup, 1000);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_SHARE, "ext2fs_bitcount"), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_SHARE, "ext2fs_bitcount"), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_SHARE,
			     "std::vector<int>::push_back(int const&)"), 0);
	assert_int_equal(s.nshare, 2); /* a symbol once */
	assert_int_equal(opt(&s, SETTLE_CMDOPT_SHOW_OUTPUT, NULL), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_IGNORE_FAILURE, NULL), 0);
	assert_true(s.show_output && s.ignore_failure);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_N, "x"), -1);
}

static void test_check(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	assert_int_equal(settle_command_check(&s, 1, err, sizeof(err)), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_SHARE, "main"), 0);
	assert_int_equal(settle_command_check(&s, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "go with --command"));
	assert_int_equal(opt(&s, SETTLE_CMDOPT_COMMAND, "a=true"), 0);
	assert_int_equal(settle_command_check(&s, 0, err, sizeof(err)), 0);
	assert_int_equal(settle_command_check(&s, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "do not mix"));
}

/* ---- the record a result carries -------------------------------------- */

static struct settle_command_data *data_with(size_t runs, const char *sym,
					     uint64_t self, uint64_t children)
{
	struct settle_command_data *d = settle_command_data_new("true", NULL);

	assert_non_null(d);
	assert_int_equal(settle_command_data_reserve(d, runs), 0);
	for (size_t i = 0; i < runs; i++) {
		d->user_ns[d->n] = 1000.0 * (double)(i + 1);
		d->sys_ns[d->n++] = 10.0 * (double)(i + 1);
	}
	if (sym) {
		snprintf(d->event, sizeof(d->event), "cpu-clock");
		d->period_ns = 100000;
		d->profiled_runs = 1;
		d->samples = 100;
		assert_int_equal(settle_command_data_add_symbol(d, sym), 0);
		d->share[0].self = self;
		d->share[0].children = children;
	}
	return d;
}

static void test_pool(void **st)
{
	struct settle_command_data *a = data_with(2, NULL, 0, 0);
	struct settle_command_data *b = data_with(3, "f", 4, 6);
	struct settle_command_data *c = data_with(1, "f", 1, 2);
	struct settle_command_data *other = data_with(1, "g", 1, 1);

	(void)st;
	assert_int_equal(settle_command_data_pool(a, b), 0);
	assert_int_equal(settle_command_data_pool(a, c), 0);
	assert_int_equal(a->n, 6);
	assert_true(a->user_ns[2] == 1000 && a->user_ns[4] == 3000 &&
		    a->user_ns[5] == 1000 && a->sys_ns[5] == 10);
	assert_string_equal(a->event, "cpu-clock");
	assert_int_equal(a->samples, 200);
	assert_int_equal(a->profiled_runs, 2);
	assert_int_equal(a->share[0].self, 5);
	assert_int_equal(a->share[0].children, 8);
	/* another symbol cannot be added up with f */
	assert_int_equal(settle_command_data_pool(a, other), -1);
	assert_int_equal(a->n, 6);
	assert_int_equal(settle_command_data_add_symbol(a, "x"), 1);
	settle_command_data_free(a);
	settle_command_data_free(b);
	settle_command_data_free(c);
	settle_command_data_free(other);
	settle_command_data_free(NULL);
}

/* ---- running ---------------------------------------------------------- */

static struct settle_report rep;

static void begin(unsigned samples)
{
	struct settle_options o;
	char e[256];

	settle_options_default(&o, 1);
	o.samples = samples;
	assert_int_equal(settle_report_init(&rep, &o, e, sizeof(e)), 0);
}

static int run(struct settle_command_set *s)
{
	err[0] = '\0';
	return settle_run_commands(&rep, s, err, sizeof(err));
}

static void cmd(struct settle_command_set *s, const char *arg)
{
	assert_int_equal(opt(s, SETTLE_CMDOPT_COMMAND, arg), 0);
}

/* Rounds A B, B A, A B, ...; warm-ups first; prepare before every run. */
static void test_order(void **st)
{
	struct settle_command_set s = { 0 };
	char a[512], b[512], p[512];

	(void)st;
	snprintf(a, sizeof(a), "a=echo a >> %s/order", dir);
	snprintf(b, sizeof(b), "b=echo b >> %s/order", dir);
	snprintf(p, sizeof(p), "echo p >> %s/prepared", dir);
	cmd(&s, a);
	cmd(&s, b);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_WARMUP, "2"), 0);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_PREPARE, p), 0);
	begin(4);
	assert_int_equal(run(&s), 0);
	assert_string_equal(slurp("order"), "a\na\nb\nb\n" "a\nb\nb\na\na\nb\nb\na\n");
	assert_string_equal(slurp("prepared"), "p\np\np\np\np\np\np\np\np\np\np\np\n");
	assert_int_equal(rep.nresults, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct settle_result *r = &rep.results[i];

		assert_string_equal(r->variant, i ? "b" : "a");
		assert_string_equal(r->claim->name, "command");
		assert_string_equal(r->claim->baseline, "a");
		assert_string_equal(r->claim->op_name, "run");
		assert_false(r->claim->sized);
		assert_int_equal(r->nsamples, 4);
		assert_non_null(r->command);
		assert_int_equal(r->command->n, 4);
		assert_int_equal(r->command->warmup, 2);
		assert_string_equal(r->command->prepare, p);
		assert_int_equal(r->command->event[0], '\0');
		for (size_t k = 0; k < 4; k++)
			assert_true(r->samples_ns[k] > 0);
	}
	assert_true(rep.results[0].is_baseline);
	assert_true(rep.results[1].has_cmp);
	assert_true(rep.options.min_sample_ns == 0);
	settle_report_free(&rep);
}

/* round_first 3 (a second process of three rounds, as --processes sets
 * it): three commands run rounds 3 and 4 of the design, in paired rows:
 * row 4 (row 1, b c a, reversed) and row 2 (c a b). */
static void test_order_round_first(void **st)
{
	struct settle_command_set s = { 0 };
	char c[3][512];

	(void)st;
	for (int i = 0; i < 3; i++) {
		snprintf(c[i], sizeof(c[i]), "%c=echo %c >> %s/order3",
			 'a' + i, 'a' + i, dir);
		cmd(&s, c[i]);
	}
	assert_int_equal(opt(&s, SETTLE_CMDOPT_WARMUP, "0"), 0);
	begin(2);
	rep.options.round_first = 3;
	assert_int_equal(run(&s), 0);
	assert_string_equal(slurp("order3"), "a\nc\nb\n" "c\na\nb\n");
	settle_report_free(&rep);
}

/* Standard input is /dev/null: a command reading it ends at once. */
static void test_stdin(void **st)
{
	struct settle_command_set s = { 0 };
	char a[512];

	(void)st;
	snprintf(a, sizeof(a), "a=cat > %s/stdin; echo done >> %s/stdin", dir,
		 dir);
	cmd(&s, a);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_WARMUP, "0"), 0);
	begin(1);
	assert_int_equal(run(&s), 0);
	assert_string_equal(slurp("stdin"), "done\n");
	settle_report_free(&rep);
}

/* A failed command: exit status 1, a message with its name, status and
 * standard error, and no result of the commands left in the report. */
static void test_failure(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	cmd(&s, "good=true");
	cmd(&s, "bad=echo one >&2; echo two >&2; echo three >&2; "
		"echo four >&2; echo five >&2; exit 3");
	begin(3);
	assert_int_equal(run(&s), 1);
	assert_non_null(strstr(err, "command 'bad'"));
	assert_non_null(strstr(err, "exited with status 3"));
	assert_non_null(strstr(err, "--ignore-failure"));
	assert_non_null(strstr(err, "| two\n  | three\n  | four\n  | five"));
	assert_null(strstr(err, "| one"));      /* the last 4 lines */
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);
}

static void test_killed(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	cmd(&s, "k=kill -KILL $$");
	begin(2);
	assert_int_equal(run(&s), 1);
	assert_non_null(strstr(err, "killed by signal 9"));
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);
}

static void test_ignore_failure(void **st)
{
	struct settle_command_set s = { 0 };

	(void)st;
	cmd(&s, "a=true");
	cmd(&s, "b=exit 4");
	assert_int_equal(opt(&s, SETTLE_CMDOPT_IGNORE_FAILURE, NULL), 0);
	begin(3);
	assert_int_equal(run(&s), 0);
	assert_int_equal(rep.nresults, 2);
	assert_int_equal(rep.results[0].command->failed, 0);
	assert_int_equal(rep.results[1].command->failed, 3); /* timed runs */
	settle_report_free(&rep);
}

/* Not found or not executable: bad input, exit status 2, even with
 * --ignore-failure. */
static void test_not_found(void **st)
{
	struct settle_command_set s = { 0 };
	char a[512];

	(void)st;
	cmd(&s, "a=settle_no_such_program_anywhere --flag");
	assert_int_equal(opt(&s, SETTLE_CMDOPT_IGNORE_FAILURE, NULL), 0);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "was not found"));
	assert_non_null(strstr(err, "settle_no_such_program_anywhere"));
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);

	memset(&s, 0, sizeof(s));
	snprintf(a, sizeof(a), "x=%s/notexec", dir);
	fclose(fopen(a + 2, "w"));
	cmd(&s, a);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "cannot be executed"));
	settle_report_free(&rep);
}

static void test_prepare_fails(void **st)
{
	struct settle_command_set s = { 0 };
	char a[512];

	(void)st;
	snprintf(a, sizeof(a), "a=echo ran >> %s/notrun", dir);
	cmd(&s, a);
	assert_int_equal(opt(&s, SETTLE_CMDOPT_PREPARE,
			     "echo cannot prepare >&2; exit 7"), 0);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "--prepare command"));
	assert_non_null(strstr(err, "exit status 7"));
	assert_non_null(strstr(err, "| cannot prepare"));
	assert_string_equal(slurp("notrun"), ""); /* never ran */
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);
}

/* ---- --share through a stand-in for perf ------------------------------ */

/*
 * The stand-in: "record ... -o FILE ... -- CMD..." creates FILE and runs
 * the command (so its exit status is the command's, as with perf);
 * "script" prints the captured recording; FAKE_PERF_FAIL=record or
 * script makes that step fail with perf's words.
 */
static void fake_perf(char *path, size_t len)
{
	FILE *f;

	path_of(path, len, "perf");
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n"
		"if [ \"$FAKE_PERF_FAIL\" = \"$1\" ]; then\n"
		"  echo 'Error: Access to performance monitoring and "
		"observability operations is limited.' >&2\n"
		"  echo 'Consider adjusting /proc/sys/kernel/perf_event_paranoid "
		"setting' >&2\n"
		"  exit 255\n"
		"fi\n"
		"case \"$1\" in\n"
		"record)\n"
		"  while [ $# -gt 0 ]; do\n"
		"    case \"$1\" in -o) out=$2; shift ;; --) shift; break ;; esac\n"
		"    shift\n"
		"  done\n"
		"  : > \"$out\"; exec \"$@\" ;;\n"
		/* settle asks for -F comm,tid,period,ip,sym: the
		 * recording's "PERIOD" lines as "COMM TID PERIOD" */
		"script) sed -E 's/^ +([0-9]+) *$/e2fsck 4242 \\1/' "
		"'%s/perf-script-e2fsck-callchain.txt' ;;\n"
		"*) exit 1 ;;\n"
		"esac\n", data_dir());
	fclose(f);
	chmod(path, 0755);
}

static void share_set(struct settle_command_set *s)
{
	memset(s, 0, sizeof(*s));
	cmd(s, "a=true");
	cmd(s, "b=true");
	assert_int_equal(opt(s, SETTLE_CMDOPT_SHARE, "ext2fs_bitcount"), 0);
	assert_int_equal(opt(s, SETTLE_CMDOPT_SHARE, "entry_SYSCALL_64_after_hwframe"), 0);
	assert_int_equal(opt(s, SETTLE_CMDOPT_SHARE, "not_in_the_recording"), 0);
}

static void test_share(void **st)
{
	static const char *const syms[] = { "ext2fs_bitcount",
					    "entry_SYSCALL_64_after_hwframe" };
	struct settle_perf_parser p;
	struct settle_command_set s;
	char perf[256], file[512];
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	(void)st;
	/* what one profiled run counts: the parser on the recording */
	settle_perf_parser_init(&p, syms, 2);
	snprintf(file, sizeof(file), "%s/perf-script-e2fsck-callchain.txt",
		 data_dir());
	f = fopen(file, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0)
		settle_perf_parse_line(&p, line);
	free(line);
	fclose(f);
	settle_perf_parser_finish(&p);

	fake_perf(perf, sizeof(perf));
	setenv("SETTLE_PERF", perf, 1);
	unsetenv("FAKE_PERF_FAIL");
	share_set(&s);
	begin(3);
	assert_int_equal(run(&s), 0);
	for (size_t i = 0; i < 2; i++) {
		const struct settle_command_data *d = rep.results[i].command;

		assert_true(!strcmp(d->event, "cpu-clock") ||
			    !strcmp(d->event, "cpu-clock:u"));
		assert_int_equal(d->period_ns, 100000); /* `true` is short */
		assert_int_equal(d->profiled_runs, 3);
		assert_int_equal(d->nshare, 3);
		assert_int_equal(d->samples, 3 * p.count.samples);
		assert_int_equal(d->share[0].self, 3 * p.count.self[0]);
		assert_int_equal(d->share[0].children, 3 * p.count.children[0]);
		assert_int_equal(d->share[1].self, 0);
		assert_int_equal(d->share[1].children, 3 * p.count.children[1]);
		assert_int_equal(d->share[2].children, 0);
	}
	settle_report_free(&rep);
	unsetenv("SETTLE_PERF");
}

static void test_share_refused(void **st)
{
	struct settle_command_set s;
	char perf[256], a[512];

	(void)st;
	fake_perf(perf, sizeof(perf));
	share_set(&s);
	snprintf(a, sizeof(a), "ran=echo ran >> %s/ran", dir);
	cmd(&s, a);

	setenv("SETTLE_PERF", "/nonexistent/perf", 1);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "needs perf"));
	assert_non_null(strstr(err, "linux-perf"));
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);

	setenv("SETTLE_PERF", perf, 1);
	setenv("FAKE_PERF_FAIL", "record", 1);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "perf cannot sample here"));
	assert_non_null(strstr(err, "perf_event_paranoid"));
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);
	/* refused before anything ran */
	assert_string_equal(slurp("ran"), "");

	setenv("FAKE_PERF_FAIL", "script", 1);
	begin(2);
	assert_int_equal(run(&s), 2);
	assert_non_null(strstr(err, "perf script could not read"));
	assert_int_equal(rep.nresults, 0);
	settle_report_free(&rep);
	unsetenv("FAKE_PERF_FAIL");
	unsetenv("SETTLE_PERF");
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char rm[600];

	(void)st;
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	return system(rm) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_option_command),
		cmocka_unit_test(test_option_refusals),
		cmocka_unit_test(test_option_values),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_order_round_first),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_failure),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_ignore_failure),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_prepare_fails),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_share_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
