/*
 * test_files.c - result files read back: settle_load_json on good,
 * foreign and truncated files; compare pools repetitions by name and
 * warns about different machines; the machine's description written and
 * read back; the noise of a run (other work, steal, the clock) pooled
 * over processes, written, read back and warned about.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "settle.h"
#include "helpers.h"
#include "env/env.h"
#include "model/model.h"
#include "view/view.h"

static char dir[] = "/tmp/settle-files-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[8][128];
	static int k;
	char *p = path[k++ % 8];
	FILE *f;

	snprintf(p, 128, "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* A result file with one claim "c", variants base and v at 4 KiB; the
 * samples arrays are given (one JSON array text per repetition). */
static const char *result_file(const char *name, const char *model,
			       const char *const *base, const char *const *v,
			       size_t reps)
{
	static char text[16384];
	size_t n = 0;

	n += (size_t)snprintf(text + n, sizeof(text) - n,
		"{\"schema\": \"settle-result/1\", \"machine\": {\"model_name\": "
		"\"%s\", \"isa\": [\"sse2\"], \"kernel\": \"k\"},"
		"\"build\": {\"compiler\": \"cc\"}, \"settings\": {\"samples\": 3},"
		"\"claims\": {\"c\": {\"title\": \"c\", \"op_name\": \"op\","
		"\"baseline\": \"base\", \"sizes\": true, \"bytes_per_op\": 0,"
		"\"show_cycles\": false}}, \"results\": [", model);
	for (size_t r = 0; r < reps; r++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
			"%s{\"claim\": \"c\", \"variant\": \"base\", \"params\": "
			"{\"size_bytes\": 4096}, \"samples_ns\": %s},"
			"{\"claim\": \"c\", \"variant\": \"v\", \"params\": "
			"{\"size_bytes\": 4096}, \"samples_ns\": %s}",
			r ? "," : "", base[r], v[r]);
	snprintf(text + n, sizeof(text) - n, "]}");
	return write_file(name, text);
}

static const char *const old_base[] = { "[100, 101, 99]", "[100, 100]",
					"[101, 99, 100, 100]" };
static const char *const old_v[] = { "[200, 201, 199]", "[200, 202]",
				     "[201, 199, 200, 200]" };
static const char *const new_base[] = { "[100, 101, 99, 100]", "[100]" };
static const char *const new_v[] = { "[220, 221, 219, 222]", "[220]" };

static void test_load_and_recompute(void **st)
{
	struct settle_report rep;
	char err[256];
	const char *f = result_file("a.json", "CPU One", old_base, old_v, 3);

	(void)st;
	assert_int_equal(settle_load_json(f, 0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.nresults, 6);
	assert_int_equal(rep.results[1].nsamples, 3);
	assert_true(rep.results[1].size_bytes == 4096);
	/* statistics recomputed from the samples: v takes twice as long */
	assert_true(rep.results[1].has_cmp);
	assert_float_equal(rep.results[1].cmp.ratio, 2, 0.02);
	assert_float_equal(rep.results[1].sum.median, 200, 1e-9);
	assert_string_equal(rep.machine.model_name, "CPU One");
	settle_report_free(&rep);
}

/* The settings describe the run; a value no run of settle's writes
 * (processes below 0 or above 256, not a number) reads as unknown, 0. */
static void test_settings_ranges(void **st)
{
	static const struct { const char *json; unsigned processes; } t[] = {
		{ "5", 5 }, { "256", 256 }, { "-3", 0 }, { "1e12", 0 },
		{ "257", 0 }, { "\"5\"", 0 }, { "null", 0 },
	};
	char text[4096], from[] = "\"samples\": 3}";

	(void)st;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct settle_report rep;
		char err[256];
		const char *f = result_file("s.json", "CPU", old_base, old_v,
					    1);
		FILE *in = fopen(f, "r");
		size_t n = fread(text, 1, sizeof(text) - 1, in);
		char *at, rest[4096];

		fclose(in);
		text[n] = '\0';
		at = strstr(text, from);
		assert_non_null(at);
		snprintf(rest, sizeof(rest), "%s", at + strlen(from));
		snprintf(at, sizeof(text) - (size_t)(at - text),
			 "\"samples\": 3, \"processes\": %s}%s", t[i].json,
			 rest);
		f = write_file("s.json", text);
		assert_int_equal(settle_load_json(f, 0.01, &rep, err,
						  sizeof(err)), 0);
		if (rep.options.processes != t[i].processes)
			fprintf(stderr, "processes %s read as %u\n", t[i].json,
				rep.options.processes);
		assert_int_equal(rep.options.processes, t[i].processes);
		assert_int_equal(rep.options.samples, 3);
		settle_report_free(&rep);
	}
}

static void expect_refusal(const char *text, const char *needle)
{
	struct settle_report rep;
	char err[256] = "";
	const char *f = write_file("bad.json", text);

	assert_int_equal(settle_load_json(f, 0.01, &rep, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fprintf(stderr, "message: %s\n", err);
	assert_non_null(strstr(err, needle));
	assert_non_null(strstr(err, f)); /* names the file */
	assert_null(strchr(err, '\n'));  /* one line */
}

/* expect_refusal() of a file of one result, v of claim c with one sample
 * of 1 ns, and fields (", \"key\": value") added to it. */
static void expect_result_refusal(const char *fields, const char *needle)
{
	char text[512];

	snprintf(text, sizeof(text), "{\"schema\": \"settle-result/1\", "
		 "\"machine\": {}, \"claims\": {\"c\": {\"baseline\": "
		 "\"v\"}}, \"results\": [{\"claim\": \"c\", \"variant\": "
		 "\"v\", \"params\": {}, \"samples_ns\": [1]%s}]}", fields);
	expect_refusal(text, needle);
}

static void test_refusals(void **st)
{
	struct settle_report rep;
	char err[256];

	(void)st;
	expect_refusal("{\"schema\": \"other-tool/2\", \"results\": []}",
		       "not a settle result file");
	expect_refusal("{\"benchmarks\": []}", "not a settle result file");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"results\": [{\"claim\": \"c\"", "truncated");
	expect_refusal("", "truncated");
	expect_refusal("[1, 2]", "not a settle result file");
	/* a table or csv written by mistake: where a result file comes from */
	expect_refusal("claim,variant\nc,v\n", "settle run --output FILE.json");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"results\": [{\"claim\": \"c\", \"variant\": \"v\", "
		       "\"params\": {}}]}", "malformed");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"results\": [{\"claim\": \"c\", \"variant\": \"v\", "
		       "\"params\": {}, \"samples_ns\": [1]}]}", "claims");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"claims\": {\"c\": {\"baseline\": \"v\"}}, "
		       "\"results\": [{\"claim\": \"c\", \"variant\": \"v\", "
		       "\"params\": {}, \"samples_ns\": [1, \"x\"]}]}",
		       "samples_ns[1]");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"claims\": {\"c\": {\"baseline\": \"v\"}}, "
		       "\"results\": [{\"claim\": \"c\", \"variant\": \"v\", "
		       "\"params\": {}, \"samples_ns\": [5e-324, 1]}]}",
		       "not a time");
	expect_refusal("{\"schema\": \"settle-result/1\", \"machine\": {}, "
		       "\"claims\": {\"c\": {\"baseline\": \"v\"}}, "
		       "\"results\": [{\"claim\": \"c\", \"variant\": \"v\", "
		       "\"params\": {}, \"samples_ns\": [1e308]}]}",
		       "not a time");
	assert_int_equal(settle_load_json(dir, 0.01, &rep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	assert_int_equal(settle_load_json("/nonexistent/r.json", 0.01, &rep,
					  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
}

static char *compare_text(const struct settle_report *old,
			  const struct settle_report *nw, size_t *slower,
			  double fail_pct)
{
	const struct settle_report *news[1] = { nw };
	char path[96], err[256], *buf;

	snprintf(path, sizeof(path), "%s/compare.txt", dir);
	assert_int_equal(settle_write_compare(old, news, 1, fail_pct, "table",
					      path, NULL, slower, err,
					      sizeof(err)), 0);
	buf = read_whole(path);
	unlink(path);
	assert_non_null(buf);
	return buf;
}

/* Every repetition of a name on both sides: 9 old samples of v, 5 new. */
/* Two rows are one key when claim (by name), variant, size, build and
 * parameters agree; any one of them differing makes another row. */
static void test_same_key(void **st)
{
	struct settle_claim_info c1 = { .name = "c" }, c2 = { .name = "c" },
				 other = { .name = "d" };
	struct settle_param p32[] = { { .key = "bits", .value = "32" } };
	struct settle_param p64[] = { { .key = "bits", .value = "64" } };
	struct settle_result a = { .claim = &c1, .variant = "v",
				   .build = "cc -O2", .params = p32,
				   .nparams = 1, .size_bytes = 4096 };
	struct settle_result b = a;

	(void)st;
	b.claim = &c2; /* another report's claim of the same name */
	assert_true(settle_result_same_key(&a, &b));
	b.claim = &other;
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.variant = "w";
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.size_bytes = 8192;
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.build = "cc -O3";
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.params = p64;
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.nparams = 0;
	assert_false(settle_result_same_key(&a, &b));
	b = a;
	b.build = NULL;
	assert_false(settle_result_same_key(&a, &b));
	a.build = NULL;
	assert_true(settle_result_same_key(&a, &b));
}

/* A variant's group, the same rule: build (none is a build of its own)
 * and parameters, key and value. */
static void test_variant_same_group(void **st)
{
	struct settle_param p32[] = { { .key = "bits", .value = "32" } };
	struct settle_param w32[] = { { .key = "width", .value = "32" } };
	struct settle_variant a = { .name = "v", .build = "cc -O2",
				    .params = p32, .nparams = 1 };
	struct settle_variant b = a;

	(void)st;
	b.name = "w";
	assert_true(settle_variant_same_group(&a, &b));
	b.params = w32;
	assert_false(settle_variant_same_group(&a, &b));
	b = a;
	b.build = NULL;
	assert_false(settle_variant_same_group(&a, &b));
	assert_false(settle_variant_same_group(&b, &a));
	a.build = NULL;
	assert_true(settle_variant_same_group(&a, &b));
	b.nparams = 0;
	assert_false(settle_variant_same_group(&a, &b));
	/* the same parameters in another order: a file's params are a JSON
	 * object (a file with its keys reordered shared no row) */
	struct settle_param ab[] = { { .key = "a", .value = "1" },
				     { .key = "b", .value = "2" } };
	struct settle_param ba[] = { { .key = "b", .value = "2" },
				     { .key = "a", .value = "1" } };
	struct settle_param bb[] = { { .key = "b", .value = "2" },
				     { .key = "b", .value = "2" } };
	a.params = ab;
	a.nparams = 2;
	b.params = ba;
	b.nparams = 2;
	assert_true(settle_variant_same_group(&a, &b));
	ba[1].value = "3";
	assert_false(settle_variant_same_group(&a, &b));
	b.params = bb;
	assert_false(settle_variant_same_group(&a, &b));
}

/* A Google Benchmark file (settle's gbench-json among them): GB(...) of
 * entries E(name, members), one sample of 1 ns each. */
#define GB(entries) "{\"context\": {}, \"benchmarks\": [" entries "]}"
#define E(name, more) "{\"name\": \"" name "\", \"run_type\": " \
	"\"iteration\", \"real_time\": 1" more "}"
#define SETTLE_ROW(params) ", \"settle_claim\": \"c\", " \
	"\"settle_variant\": \"v\", \"repetition_index\": 0, " \
	"\"settle_params\": " params

/* Entries that would pool samples of different benchmarks, or count one
 * twice, are refused, the entry named (an adversary's files read
 * `slower` from copied entries, and pooled rows of two sizes). */
static void test_gbench_refusals(void **st)
{
	(void)st;
	expect_refusal(GB(E("b/1", ", \"repetition_index\": 0") ","
			  E("b/1", ", \"repetition_index\": 0")),
		       "benchmarks[1] (b/1) repeats repetition_index 0");
	expect_refusal(GB(E("b/1", ", \"family_index\": 0") ","
			  E("b/1", ", \"family_index\": 1")),
		       "two benchmarks of one name");
	expect_refusal(GB(E("c/v", "") ","
			  E("c/v/size:8", SETTLE_ROW("{\"size_bytes\": 8}"))),
		       "benchmarks[1] names a row of 'c' by settle_params "
		       "with a size, its earlier entries by a name alone");
	expect_refusal(GB(E("c/v", SETTLE_ROW("{}")) ","
			  E("c/v/size:8", SETTLE_ROW("{\"size_bytes\": 8}"))),
		       "must name its row alike");
	expect_refusal(GB(E("c/v/size:8", SETTLE_ROW("{\"size_bytes\": 8}"))
			  "," E("c/v", "")),
		       "by a name alone, its earlier entries by settle_params");
	expect_refusal(GB(E("b", ", \"time_unit\": 3")),
		       "time_unit of the wrong type");
	expect_refusal(GB("{\"name\": \"b\", \"run_type\": 3, "
			  "\"real_time\": 1}"), "run_type of the wrong type");
	expect_refusal(GB(E("b", ", \"error_occurred\": \"true\"")),
		       "error_occurred of the wrong type");
	expect_refusal(GB(E("b", ", \"repetition_index\": -1")),
		       "repetition_index of the wrong type");
	expect_refusal(GB(E("c/v", ", \"settle_claim\": \"c\", "
			    "\"settle_variant\": 1, \"settle_params\": {}")),
		       "benchmarks[0]: settle_variant is not");
	expect_refusal(GB(E("c/v", SETTLE_ROW("[]"))),
		       "settle_params is not an object");
	expect_refusal("{\"context\": {}, \"benchmarks\": {}}",
		       "not a Google Benchmark file either");
}

/* What such files may hold is kept: each repetition of a benchmark once,
 * one family_index throughout, and a benchmark whose name ends as an
 * aggregate's (_mean) where run_type says it is an iteration. */
static void test_gbench_kept(void **st)
{
	struct settle_report rep;
	char err[256] = "";
	const char *f = write_file("gb.json", GB(
		E("BM_running_mean", ", \"repetition_index\": 0") ","
		E("BM_running_mean", ", \"repetition_index\": 1") ","
		E("BM_x/1", ", \"family_index\": 2, \"repetition_index\": 0")
		"," E("BM_x/1", ", \"family_index\": 2, "
		      "\"repetition_index\": 1") ","
		"{\"name\": \"BM_x/1_mean\", \"real_time\": 9}"));

	(void)st;
	assert_int_equal(settle_load_json(f, 0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.nresults, 2);
	assert_string_equal(rep.results[0].variant, "BM_running_mean");
	assert_int_equal(rep.results[0].nsamples, 2);
	assert_string_equal(rep.results[1].variant, "1");
	assert_int_equal(rep.results[1].nsamples, 2); /* not the _mean */
	settle_report_free(&rep);
}

static void test_compare_pools_repetitions(void **st)
{
	struct settle_report a, b;
	char err[256], *out;
	size_t slower;

	(void)st;
	assert_int_equal(settle_load_json(result_file("old.json", "CPU One",
		old_base, old_v, 3), 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(result_file("new.json", "CPU One",
		new_base, new_v, 2), 0.01, &b, err, sizeof(err)), 0);
	out = compare_text(&a, &b, &slower, -1);
	assert_non_null(strstr(out, "9/5"));     /* v: every sample pooled */
	assert_non_null(strstr(out, "9/5 "));
	assert_non_null(strstr(out, "slower"));  /* v: +10 % */
	assert_non_null(strstr(out, "geometric mean"));
	assert_null(strstr(out, "warning"));     /* same machine */
	assert_int_equal(slower, 1);
	free(out);
	out = compare_text(&a, &b, &slower, 20); /* slower by >= 20 %? no */
	assert_int_equal(slower, 0);
	free(out);
	settle_report_free(&a);
	settle_report_free(&b);
}

static void test_compare_warns_other_cpu(void **st)
{
	struct settle_report a, b;
	char err[256], *out;
	size_t slower;

	(void)st;
	assert_int_equal(settle_load_json(result_file("one.json", "CPU One",
		old_base, old_v, 3), 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(result_file("two.json", "CPU Two",
		old_base, old_v, 3), 0.01, &b, err, sizeof(err)), 0);
	out = compare_text(&a, &b, &slower, -1);
	assert_non_null(strstr(out, "warning: the files come from different "
				    "CPU models"));
	assert_non_null(strstr(out, "CPU Two"));
	free(out);
	settle_report_free(&a);
	settle_report_free(&b);
}

/* Two files of one run's results on one machine (CPU One), into a and b,
 * for a test to make them differ in one recorded field. */
static void load_twins(struct settle_report *a, struct settle_report *b)
{
	char err[256];

	assert_int_equal(settle_load_json(result_file("r1.json", "CPU One",
		old_base, old_v, 3), 0.01, a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(result_file("r2.json", "CPU One",
		old_base, old_v, 3), 0.01, b, err, sizeof(err)), 0);
}

/* Read limits that read with other widths are a difference (the
 * read-limit rows' code differs), not another machine; a file that does
 * not say (older files) is no difference. */
static void test_compare_warns_other_read_limit(void **st)
{
	const struct settle_report *news[1];
	struct settle_compare_view cv;
	struct settle_report a, b;
	char *out;
	size_t slower;

	(void)st;
	load_twins(&a, &b);
	snprintf(a.machine.read_limit, sizeof(a.machine.read_limit),
		 "avx512; 256-bit loads below 64 KiB, 512-bit beyond");
	out = compare_text(&a, &b, &slower, -1);
	assert_null(strstr(out, "warning"));
	free(out);
	snprintf(b.machine.read_limit, sizeof(b.machine.read_limit),
		 "avx512; 512-bit loads at every size");
	out = compare_text(&a, &b, &slower, -1);
	assert_non_null(strstr(out, "warning: the files come from different "
				    "read limits"));
	assert_non_null(strstr(out, "512-bit loads at every size"));
	free(out);
	news[0] = &b;
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_null(strstr(cv.summary, "different machines"));
	settle_compare_free(&cv);
	settle_report_free(&a);
	settle_report_free(&b);
}

/* Primitives dispatched otherwise (another kernel, forced or chosen;
 * other byte-swap ranges, e.g. SETTLE_BSWAP_NT_BYTES) are differences
 * of the build, warned of with both files' words; not said is none. */
static void test_compare_warns_other_primitives(void **st)
{
	struct settle_report a, b;
	char *out;
	size_t slower;

	(void)st;
	load_twins(&a, &b);
	snprintf(a.machine.popcount_impl, sizeof(a.machine.popcount_impl),
		 "avx512");
	snprintf(a.machine.bswap_sizes, sizeof(a.machine.bswap_sizes),
		 "copies: 512-bit below 24 KiB, 128-bit beyond; non-temporal "
		 "stores above 8 MiB, threshold set by: cap");
	out = compare_text(&a, &b, &slower, -1);
	assert_null(strstr(out, "warning"));
	free(out);
	snprintf(b.machine.popcount_impl, sizeof(b.machine.popcount_impl),
		 "avx2");
	snprintf(b.machine.bswap_sizes, sizeof(b.machine.bswap_sizes),
		 "copies: 512-bit below 24 KiB, 128-bit beyond; non-temporal "
		 "stores above 1 GiB, threshold set by: SETTLE_BSWAP_NT_BYTES");
	out = compare_text(&a, &b, &slower, -1);
	assert_non_null(strstr(out, "warning: the files come from different "
				    "popcount kernels"));
	assert_non_null(strstr(out, "warning: the files come from different "
				    "byte-swap size ranges"));
	assert_non_null(strstr(out, "threshold set by: SETTLE_BSWAP_NT_BYTES"));
	assert_null(strstr(out, "byte-swap kernels"));
	free(out);
	/* too long to say whole (each control byte escaped as four): cut
	 * where it shows */
	memset(a.machine.bswap_sizes, 1, 300);
	a.machine.bswap_sizes[300] = 0;
	memset(b.machine.bswap_sizes, 2, 300);
	b.machine.bswap_sizes[300] = 0;
	out = compare_text(&a, &b, &slower, -1);
	assert_non_null(strstr(out, "byte-swap size ranges"));
	assert_non_null(strstr(out, "\\x02\\x02"));
	assert_non_null(strstr(out, "...\n"));
	free(out);
	settle_report_free(&a);
	settle_report_free(&b);
}

/* The summary names what else differs: the machine, a file's noise. */
static void test_compare_summary_caveats(void **st)
{
	const struct settle_report *news[1];
	struct settle_compare_view cv;
	struct settle_report a, b;
	char err[256];

	(void)st;
	assert_int_equal(settle_load_json(result_file("c1.json", "CPU One",
		old_base, old_v, 3), 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(result_file("c2.json", "CPU One",
		old_base, old_v, 3), 0.01, &b, err, sizeof(err)), 0);
	news[0] = &b;
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_null(strstr(cv.summary, "note:"));
	settle_compare_free(&cv);

	snprintf(b.machine.model_name, sizeof(b.machine.model_name),
		 "CPU Two");
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_non_null(strstr(cv.summary, "; note: the files come from "
				   "different machines"));
	assert_null(strstr(cv.summary, "noise"));
	settle_compare_free(&cv);

	snprintf(b.machine.model_name, sizeof(b.machine.model_name),
		 "CPU One");
	b.noise.known = 1;
	b.noise.loadavg = 1.5;
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_null(strstr(cv.summary, "different machines"));
	assert_non_null(strstr(cv.summary, "; note: a file was measured "
				   "under noise"));
	settle_compare_free(&cv);

	/* other work measured speaks in place of the load average */
	b.noise.other_cpus = 0.1;
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_null(strstr(cv.summary, "noise"));
	settle_compare_free(&cv);
	b.noise.other_cpus = 0.9;
	assert_int_equal(settle_compare_build(&a, news, 1, -1, &cv), 0);
	assert_non_null(strstr(cv.summary, "; note: a file was measured "
				   "under noise"));
	assert_true(cv.nwarnings > 0);
	assert_non_null(strstr(cv.warnings[cv.nwarnings - 1], "was measured "
			       "while other work kept 0.90 CPUs busy"));
	settle_compare_free(&cv);
	settle_report_free(&a);
	settle_report_free(&b);
}

/* The file's text (at most 64 KiB), for keys that must be absent. */
static char *slurp(const char *path)
{
	static char text[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	return text;
}

/* Two processes' noise pooled: steal and other work weighted by each
 * one's seconds, the first clock estimate the first's and the last the
 * second's, the drift between them, counts added; an unknown other work
 * stays unknown. */
static void test_noise_pooled(void **st)
{
	struct settle_report a, b;
	char err[256];
	const char *f = result_file("pool.json", "CPU One", old_base, old_v,
				    1);

	(void)st;
	assert_int_equal(settle_load_json(f, 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(f, 0.01, &b, err, sizeof(err)), 0);
	a.noise = (struct settle_noise){ .loadavg = 0.2, .steal_pct = 4,
		.nivcsw = 3, .migrations = 1, .core_ghz_before = 3.0,
		.core_ghz_after = 3.0, .other_cpus = 0.1, .seconds = 1,
		.known = 1 };
	b.noise = (struct settle_noise){ .loadavg = 1.2, .steal_pct = 0,
		.nivcsw = 5, .migrations = 2, .core_ghz_before = 3.3,
		.core_ghz_after = 2.7, .other_cpus = 0.9, .seconds = 3,
		.known = 1 };
	assert_int_equal(settle_report_pool(&a, &b, err, sizeof(err)), 0);
	assert_true(fabs(a.noise.steal_pct - 1.0) < 1e-12);
	assert_true(fabs(a.noise.other_cpus - 0.7) < 1e-12);
	assert_true(a.noise.seconds == 4);
	assert_true(a.noise.loadavg == 0.2);
	assert_true(a.noise.core_ghz_before == 3.0);
	assert_true(a.noise.core_ghz_after == 2.7);
	assert_true(a.noise.drift_pct < -9.99 && a.noise.drift_pct > -10.01);
	assert_int_equal(a.noise.nivcsw, 8);
	assert_int_equal(a.noise.migrations, 3);
	/* an unknown last estimate keeps the last known one */
	b.noise.core_ghz_after = 0;
	b.noise.other_cpus = -1;
	assert_int_equal(settle_report_pool(&a, &b, err, sizeof(err)), 0);
	assert_true(a.noise.other_cpus < 0);
	assert_true(a.noise.core_ghz_after == 2.7);
	settle_report_free(&a);
	settle_report_free(&b);
}

/* The view of a report's noise: other work measured is shown and, above
 * the threshold, warned about in place of the load average at the start;
 * unknown (an older file), the line leaves it out and the load average
 * speaks. */
static int warned(const struct settle_view *v, const char *text)
{
	for (size_t i = 0; i < v->nwarnings; i++)
		if (strstr(v->warnings[i], text))
			return 1;
	return 0;
}

static void test_noise_view(void **st)
{
	static struct settle_report rep, back;
	struct settle_view v;
	char err[256], path[128];

	(void)st;
	snprintf(path, sizeof(path), "%s/noise.json", dir);
	rep.noise = (struct settle_noise){ .loadavg = 3.0, .other_cpus = 0.4,
		.steal_pct = -1, .seconds = 12.5, .known = 1 };
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_true(back.noise.other_cpus == 0.4);
	assert_true(back.noise.seconds == 12.5);
	assert_int_equal(settle_view_build(&back, &v), 0);
	assert_non_null(strstr(v.noise, "load 3.00 at the start, 0.40 CPUs "
				   "busy with other work, steal unknown, "));
	assert_non_null(strstr(slurp(path), "\"steal_pct\": null"));
	assert_true(warned(&v, "other work kept 0.40 CPUs busy"));
	assert_false(warned(&v, "load average"));
	settle_view_free(&v);

	back.noise.other_cpus = 0.1;
	assert_int_equal(settle_view_build(&back, &v), 0);
	assert_false(warned(&v, "other work"));
	assert_false(warned(&v, "load average"));
	settle_view_free(&v);
	settle_report_free(&back);

	rep.noise.other_cpus = -1;
	rep.noise.seconds = 0;
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_null(strstr(slurp(path), "other_cpus"));
	assert_null(strstr(slurp(path), "\"seconds\""));
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_true(back.noise.other_cpus < 0);
	assert_int_equal(settle_view_build(&back, &v), 0);
	assert_null(strstr(v.noise, "busy with other work"));
	assert_true(warned(&v, "other load on the machine (load average "
			       "3.00)"));
	settle_view_free(&v);
	settle_report_free(&back);
}

/*
 * This machine's description written and read back: where the caches
 * came from, what the byte swap copies with which loop and what the read
 * limit reads with survive the result file; when empty, the keys are left
 * out (as older files have
 * them) and read back empty.
 */
static void test_machine_round_trip(void **st)
{
	static struct settle_report rep, back;
	char err[256], path[128];

	(void)st;
	snprintf(path, sizeof(path), "%s/machine.json", dir);
	settle_machine_describe(&rep.machine);
	snprintf(rep.machine.caches_source, sizeof(rep.machine.caches_source),
		 "sysconf");
	snprintf(rep.machine.bswap_sizes, sizeof(rep.machine.bswap_sizes),
		 "copies: \"quoted\", 256-bit to 8 MiB");
	snprintf(rep.machine.read_limit, sizeof(rep.machine.read_limit),
		 "avx512; 512-bit loads \"below\" 2 MiB");
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_string_equal(back.machine.caches_source, "sysconf");
	assert_string_equal(back.machine.bswap_sizes,
			    "copies: \"quoted\", 256-bit to 8 MiB");
	assert_string_equal(back.machine.read_limit,
			    "avx512; 512-bit loads \"below\" 2 MiB");
	assert_int_equal(back.machine.ncaches, rep.machine.ncaches);
	settle_report_free(&back);
	rep.machine.caches_source[0] = 0;
	rep.machine.bswap_sizes[0] = 0;
	rep.machine.read_limit[0] = 0;
	rep.machine.read_limit_timed = 0; /* test_read_limit_timed */
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_null(strstr(slurp(path), "caches_source"));
	assert_null(strstr(slurp(path), "bswap_sizes"));
	assert_null(strstr(slurp(path), "read_limit"));
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_string_equal(back.machine.caches_source, "");
	assert_string_equal(back.machine.bswap_sizes, "");
	assert_string_equal(back.machine.read_limit, "");
	settle_report_free(&back);
	/* the label goes with caches, not with none */
	snprintf(rep.machine.caches_source, sizeof(rep.machine.caches_source),
		 "sysconf");
	rep.machine.ncaches = 0;
	assert_int_equal(settle_write_machine(&rep, path, err, sizeof(err)), 0);
	assert_non_null(strstr(slurp(path), "caches: unknown\n"));
	rep.machine.ncaches = 1;
	rep.machine.caches[0].level = 1;
	snprintf(rep.machine.caches[0].type, sizeof(rep.machine.caches[0].type),
		 "Data");
	rep.machine.caches[0].size_bytes = 48 << 10;
	assert_int_equal(settle_write_machine(&rep, path, err, sizeof(err)), 0);
	assert_non_null(strstr(slurp(path), "caches: L1d 48 KiB (no cache "
			       "entries in sysfs"));
}

/*
 * The shortest sample of a row: pooled as the least known over the
 * processes (an unknown one, an older file's, ignored), written and read
 * back, absent when unknown, refused when not a time; the report's is
 * the least of its measured rows' (not of a row below resolution).
 */
static void test_shortest_sample(void **st)
{
	static struct settle_report a, b, back;
	char err[256], path[128];
	const char *f = result_file("short.json", "CPU One", old_base, old_v,
				    1);

	(void)st;
	snprintf(path, sizeof(path), "%s/short-back.json", dir);
	assert_int_equal(settle_load_json(f, 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(f, 0.01, &b, err, sizeof(err)), 0);
	assert_true(a.results[0].shortest_sample_ns == 0);
	assert_true(settle_report_shortest_sample(&a) == 0);
	a.results[0].shortest_sample_ns = 2e6;
	b.results[0].shortest_sample_ns = 1.5e6;
	b.results[1].shortest_sample_ns = 2.5e6;
	assert_int_equal(settle_report_pool(&a, &b, err, sizeof(err)), 0);
	assert_true(a.results[0].shortest_sample_ns == 1.5e6);
	assert_true(a.results[1].shortest_sample_ns == 2.5e6);
	b.results[0].shortest_sample_ns = 0;
	b.results[1].shortest_sample_ns = 3e6;
	assert_int_equal(settle_report_pool(&a, &b, err, sizeof(err)), 0);
	assert_true(a.results[0].shortest_sample_ns == 1.5e6);
	assert_true(a.results[1].shortest_sample_ns == 2.5e6);
	assert_true(settle_report_shortest_sample(&a) == 1.5e6);
	/* a row below the clock's resolution is no measurement */
	a.results[0].below_resolution = 1;
	assert_true(settle_report_shortest_sample(&a) == 2.5e6);
	a.results[0].below_resolution = 0;
	assert_int_equal(settle_write_report(&a, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_true(back.results[0].shortest_sample_ns == 1.5e6);
	assert_true(back.results[1].shortest_sample_ns == 2.5e6);
	settle_report_free(&back);
	a.results[0].shortest_sample_ns = 0;
	a.results[1].shortest_sample_ns = 0;
	assert_int_equal(settle_write_report(&a, "json", path, err,
					     sizeof(err)), 0);
	assert_null(strstr(slurp(path), "shortest_sample_ns"));
	settle_report_free(&a);
	settle_report_free(&b);
	expect_result_refusal(", \"shortest_sample_ns\": -2",
			      "shortest_sample_ns");
	expect_result_refusal(", \"shortest_sample_ns\": \"2\"",
			      "shortest_sample_ns");
}

/*
 * A row's count of preempted samples: summed when processes are pooled,
 * written and read back, absent when 0 (as in older files), refused when
 * not a count of the row's samples; the header's noise sentence says it.
 */
static void test_preempted_count(void **st)
{
	static struct settle_report a, b, back;
	static struct settle_view v;
	char err[256], path[128];
	const char *f = result_file("pre.json", "CPU One", old_base, old_v,
				    1);

	(void)st;
	snprintf(path, sizeof(path), "%s/pre-back.json", dir);
	assert_int_equal(settle_load_json(f, 0.01, &a, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(f, 0.01, &b, err, sizeof(err)), 0);
	assert_int_equal(a.results[0].preempted, 0);
	a.noise.known = 1;
	assert_int_equal(settle_view_build(&a, &v), 0);
	assert_null(strstr(v.noise, "preempted"));
	settle_view_free(&v);
	a.results[0].preempted = 2;
	b.results[0].preempted = 3;
	b.results[1].preempted = 1;
	assert_int_equal(settle_report_pool(&a, &b, err, sizeof(err)), 0);
	assert_int_equal(a.results[0].preempted, 5);
	assert_int_equal(a.results[1].preempted, 1);
	assert_int_equal(settle_view_build(&a, &v), 0);
	assert_non_null(strstr(v.noise, "(6 of "));
	assert_non_null(strstr(v.noise, "samples preempted: their times hold "
			       "other tasks' time slices)"));
	settle_view_free(&v);
	assert_int_equal(settle_write_report(&a, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_int_equal(back.results[0].preempted, 5);
	assert_int_equal(back.results[1].preempted, 1);
	settle_report_free(&back);
	a.results[0].preempted = a.results[1].preempted = 0;
	assert_int_equal(settle_write_report(&a, "json", path, err,
					     sizeof(err)), 0);
	assert_null(strstr(slurp(path), "preempted_samples"));
	settle_report_free(&a);
	settle_report_free(&b);
	expect_result_refusal(", \"preempted_samples\": 2",
			      "preempted_samples");
	expect_result_refusal(", \"preempted_samples\": -1",
			      "preempted_samples");
	expect_result_refusal(", \"preempted_samples\": 0.5",
			      "preempted_samples");
}

/* A file of base (12 samples of 100 ns, CPU times alike) and v, whose
 * samples and CPU times are given (JSON arrays; cpu NULL: none). */
static const char twelve[] =
	"[100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 100, 100]";

/* The same with the base's samples and CPU times given too. */
static const char *cpu_file_base(const char *name, const char *base,
				 const char *base_cpu, const char *wall,
				 const char *cpu)
{
	static char text[4096];

	snprintf(text, sizeof(text),
		"{\"schema\": \"settle-result/1\", \"machine\": {\"model_name\": "
		"\"m\"}, \"settings\": {\"samples\": 12}, \"claims\": {\"c\": "
		"{\"title\": \"c\", \"op_name\": \"op\", \"baseline\": \"base\", "
		"\"sizes\": true}}, \"results\": ["
		"{\"claim\": \"c\", \"variant\": \"base\", \"params\": "
		"{\"size_bytes\": 4096}, \"samples_ns\": %s, "
		"\"samples_cpu_ns\": %s},"
		"{\"claim\": \"c\", \"variant\": \"v\", \"params\": "
		"{\"size_bytes\": 4096}, \"samples_ns\": %s%s%s}]}",
		base, base_cpu, wall, cpu ? ", \"samples_cpu_ns\": " : "",
		cpu ? cpu : "");
	return write_file(name, text);
}

static const char *cpu_file(const char *name, const char *wall,
			    const char *cpu)
{
	return cpu_file_base(name, twelve, twelve, wall, cpu);
}

/*
 * Rows whose samples were mostly preempted, at half their time on the
 * CPU (a busy task on settle's CPU): their times are the other task's
 * slices as much as their work, and a verdict stands only where the CPU
 * times give it too. v 3 % slower by its CPU times, its times the
 * base's: not "same" (it read 1.001x [0.997, 1.006] the same). The same
 * rows not preempted (a body that waits): the verdict stands. A partner
 * that is the work (ping-pong on one CPU): slower by both, it stands.
 */
static void test_shared_cpu(void **st)
{
	static const char wall[] =
		"[200, 201, 199, 200, 202, 198, 200, 201, 199, 200, 200, 200]";
	static const char slower_cpu[] =
		"[103, 104, 102, 103, 105, 101, 103, 104, 102, 103, 103, 103]";
	static const char pingpong[] =
		"[1400, 1401, 1399, 1400, 1402, 1398, 1400, 1401, 1399, 1400, "
		"1400, 1400]";
	static const char pingpong_cpu[] =
		"[300, 301, 299, 300, 302, 298, 300, 301, 299, 300, 300, 300]";
	struct settle_report rep;
	char err[256];

	(void)st;
	assert_int_equal(settle_load_json(cpu_file_base("sh1.json", wall,
					  twelve, wall, slower_cpu), 0.01, &rep,
					  err, sizeof(err)), 0);
	assert_false(settle_result_on_cpu(&rep.results[1]));
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_SAME);
	rep.results[1].preempted = 7; /* most of 12 */
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_SHARED_CPU);
	/* the baseline's samples preempted: the same */
	rep.results[1].preempted = 0;
	rep.results[0].preempted = 12;
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_SHARED_CPU);
	/* half of them: not most */
	rep.results[0].preempted = 6;
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_SAME);
	/* all preempted, but at 95 % of their time on the CPU or more (a
	 * switch or two a sample): their times are their work's, the
	 * interval is not widened to the CPU times' (0.9x against 0.95x) */
	rep.results[0].preempted = rep.results[1].preempted = 12;
	for (size_t k = 0; k < 12; k++) {
		double t = rep.results[0].samples_ns[k];

		rep.results[1].samples_ns[k] = 0.9 * t;
		rep.results[0].samples_cpu_ns[k] = 0.95 * t;
		rep.results[1].samples_cpu_ns[k] = 0.95 * 0.95 * t;
	}
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_FASTER);
	assert_null(rep.results[1].cmp.why);
	assert_true(rep.results[1].cmp.hi < 0.91);
	settle_report_free(&rep);
	/* the partner's work preempts the body: slower by both, it stands */
	assert_int_equal(settle_load_json(cpu_file("sh2.json", pingpong,
						   pingpong_cpu), 0.01, &rep,
					  err, sizeof(err)), 0);
	rep.results[1].preempted = 12;
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_SLOWER);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_SHARED_WIDENED);
	assert_true(rep.results[1].cmp.lo < 3.1);  /* the CPU times' 3x */
	assert_true(rep.results[1].cmp.hi > 13.9); /* the times' 14x */
	/* ...but not where its CPU times are the base's */
	for (size_t k = 0; k < rep.results[1].nsamples; k++)
		rep.results[1].samples_cpu_ns[k] =
			rep.results[0].samples_cpu_ns[k];
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_SHARED_CPU);
	settle_report_free(&rep);
	/* the busy task in the baseline's samples alone: 0.58x faster by
	 * the times, 0.97x by the CPU times; faster by both, on an
	 * interval that spans both */
	assert_int_equal(settle_load_json(cpu_file_base("sh3.json", wall,
		twelve, "[116, 117, 115, 116, 118, 114, 116, 117, 115, 116, "
		"116, 116]", "[97, 98, 96, 97, 99, 95, 97, 98, 96, 97, 97, 97]"),
		0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_FASTER);
	assert_true(rep.results[1].cmp.hi < 0.6);
	rep.results[0].preempted = 12;
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_FASTER);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_SHARED_WIDENED);
	assert_true(rep.results[1].cmp.hi > 0.96);
	assert_true(rep.results[1].cmp.lo < 0.6);
	settle_report_free(&rep);
	/* the conclusion quotes times: not settled on rows that shared
	 * the CPU (a lone row at twice its CPU time read "settled: base
	 * takes 199.8 ns") */
	{
		struct settle_view v;

		assert_int_equal(settle_load_json(cpu_file_base("sh5.json",
			wall, twelve, wall, twelve), 0.01, &rep, err,
			sizeof(err)), 0);
		assert_int_equal(settle_view_build(&rep, &v), 0);
		assert_non_null(v.claims[0].reason);
		assert_null(strstr(v.claims[0].reason, "shared its CPU"));
		settle_view_free(&v);
		rep.results[0].preempted = 12;
		settle_report_analyze(&rep, 0, rep.nresults);
		assert_int_equal(settle_view_build(&rep, &v), 0);
		assert_non_null(strstr(v.claims[0].reason, "a row it rests on "
				       "shared its CPU"));
		settle_view_free(&v);
		settle_report_free(&rep);
	}
	/* compare: the new file's v twice the old's time under a busy
	 * task, its CPU times the old's: not slower; 3 % more CPU time:
	 * slower by both, it stands */
	{
		struct settle_report a, b2;
		size_t slower;
		char *t;

		assert_int_equal(settle_load_json(cpu_file("cs1.json", twelve,
			twelve), 0.01, &a, err, sizeof(err)), 0);
		assert_int_equal(settle_load_json(cpu_file("cs2.json", wall,
			twelve), 0.01, &b2, err, sizeof(err)), 0);
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "slower"));
		assert_null(strstr(t, "shared its CPU"));
		free(t);
		b2.results[1].preempted = 12;
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "unclear (" SETTLE_WHY_SHARED_CPU
				       ")"));
		assert_non_null(strstr(t, "1 row shared the CPU (most "
				       "samples preempted"));
		free(t);
		settle_report_free(&b2);
		assert_int_equal(settle_load_json(cpu_file("cs3.json", wall,
			slower_cpu), 0.01, &b2, err, sizeof(err)), 0);
		b2.results[1].preempted = 12;
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "slower (" SETTLE_WHY_SHARED_WIDENED
				       ")"));
		free(t);
		settle_report_free(&b2);
		settle_report_free(&a);
	}
}

/*
 * A verdict must agree with the ratio of the mean times and, for rows on
 * the CPU, of the mean CPU times: v half as long in 11 samples of 12 and
 * 14x as long in 1 (a cost paid once in a while: 1.625x the base's in
 * all) is not faster, whether that sample's cost was CPU time or a wait
 * (a sleep, a pipe: its CPU time clean), on the CPU or off it, with CPU
 * times or without (an older file); the same v preempted in that sample,
 * recorded at its CPU time, is faster. The CPU times' check alone: the
 * base waited in one sample, so that the times' means agree with faster,
 * but v's CPU times hold the slow mode. The CPU times are written and
 * read back, and refused when not one a sample or not a time.
 */
static void test_means_disagree(void **st)
{
	static const char half[] =
		"[50, 51, 49, 50, 1400, 50, 51, 49, 50, 50, 50, 50]";
	static const char half_cpu[] =
		"[50, 51, 49, 50, 50, 50, 51, 49, 50, 50, 50, 50]";
	static const char slow_cpu[] =
		"[50, 51, 49, 50, 1400, 50, 51, 49, 50, 50, 50, 50]";
	struct settle_report rep, back;
	char err[256], path[128];

	(void)st;
	assert_int_equal(settle_load_json(cpu_file("m1.json", half, slow_cpu),
					  0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_MEANS_SAMPLES);
	assert_float_equal(rep.results[1].cmp.mean_ratio, 1950.0 / 1200, 1e-3);
	/* a body that waits (its thread ran half of each sample's time):
	 * its CPU time is not its work's, its time is; the repetition
	 * check's count of voluntary switches does not decide it */
	for (size_t k = 0; k < rep.results[1].nsamples; k++)
		rep.results[1].samples_cpu_ns[k] *= 0.5;
	rep.results[1].repeat_blocked = 1;
	assert_false(settle_result_on_cpu(&rep.results[1]));
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_float_equal(rep.results[1].cmp.mean_ratio, 1950.0 / 1200, 1e-3);
	for (size_t k = 0; k < rep.results[1].nsamples; k++)
		rep.results[1].samples_cpu_ns[k] *= 2;
	assert_true(settle_result_on_cpu(&rep.results[1]));
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	rep.results[1].repeat_blocked = 0;
	snprintf(path, sizeof(path), "%s/m1-back.json", dir);
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_non_null(back.results[1].samples_cpu_ns);
	assert_true(back.results[1].samples_cpu_ns[4] == 1400);
	assert_int_equal(back.results[1].cmp.verdict, SETTLE_UNCLEAR);
	settle_report_free(&back);
	settle_report_free(&rep);
	/* a wait in one sample, its CPU time clean (a sleeping flush): the
	 * times' means say so */
	assert_int_equal(settle_load_json(cpu_file("m2.json", half, half_cpu),
					  0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_float_equal(rep.results[1].cmp.mean_ratio, 1950.0 / 1200, 1e-3);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_MEANS_SAMPLES);
	/* ...preempted there: the reason names the other tasks too */
	rep.results[0].preempted = 1;
	settle_report_analyze(&rep, 0, rep.nresults);
	assert_string_equal(rep.results[1].cmp.why, SETTLE_WHY_MEANS_PREEMPTED);
	settle_report_free(&rep);
	/* preempted, not slow: recorded at its CPU time, faster */
	assert_int_equal(settle_load_json(cpu_file("m2p.json", half_cpu,
						   half_cpu),
					  0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_FASTER);
	settle_report_free(&rep);
	/* the CPU times' check alone: the base waited 2,900 ns in sample 4 */
	assert_int_equal(settle_load_json(cpu_file_base("m2c.json",
		"[100, 101, 99, 100, 3000, 98, 100, 101, 99, 100, 100, 100]",
		twelve, half, slow_cpu), 0.01, &rep, err, sizeof(err)), 0);
	assert_true(settle_result_on_cpu(&rep.results[0]));
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	assert_float_equal(rep.results[1].cmp.mean_ratio, 1950.0 / 1200, 1e-3);
	settle_report_free(&rep);
	/* no CPU times (an older file): the times' means */
	assert_int_equal(settle_load_json(cpu_file("m3.json", half, NULL),
					  0.01, &rep, err, sizeof(err)), 0);
	assert_null(rep.results[1].samples_cpu_ns);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_UNCLEAR);
	settle_report_free(&rep);
	assert_int_equal(settle_load_json(cpu_file("m3f.json", half_cpu, NULL),
					  0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_FASTER);
	settle_report_free(&rep);
	/* pooled processes: the CPU times follow their samples, and are
	 * unknown in a pool with a process that has none */
	assert_int_equal(settle_load_json(path, 0.01, &rep, err,
					  sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	back.results[1].samples_cpu_ns[4] = 7;
	assert_int_equal(settle_report_pool(&rep, &back, err, sizeof(err)), 0);
	assert_int_equal(rep.results[1].nsamples, 24);
	assert_true(rep.results[1].samples_cpu_ns[4] == 1400);
	assert_true(rep.results[1].samples_cpu_ns[16] == 7);
	settle_report_free(&back);
	assert_int_equal(settle_load_json(cpu_file("m3.json", half, NULL),
					  0.01, &back, err, sizeof(err)), 0);
	assert_int_equal(settle_report_pool(&rep, &back, err, sizeof(err)), 0);
	assert_null(rep.results[1].samples_cpu_ns);
	assert_non_null(rep.results[0].samples_cpu_ns);
	settle_report_free(&back);
	settle_report_free(&rep);
	/* compare: v of m2 (the base's time) against v of m1 (half of it in
	 * 11 samples, 14x in 1): faster by the samples, 1.6x by the means;
	 * against m2's own v (its CPU times clean): faster */
	{
		static const char whole[] = "[100, 101, 99, 100, 102, 98, "
			"100, 101, 99, 100, 100, 100]";
		struct settle_report a, b2;
		size_t slower;
		char *t;

		assert_int_equal(settle_load_json(cpu_file("c1.json", whole,
			whole), 0.01, &a, err, sizeof(err)), 0);
		assert_int_equal(settle_load_json(cpu_file("c2.json", half,
			slow_cpu), 0.01, &b2, err, sizeof(err)), 0);
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "unclear (the mean times disagree "
				       "(1.625x): a slow mode in some "
				       "samples)"));
		free(t);
		settle_report_free(&b2);
		/* a wait in one sample (CPU times clean): the times */
		assert_int_equal(settle_load_json(cpu_file("c3.json", half,
			half_cpu), 0.01, &b2, err, sizeof(err)), 0);
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "unclear (the mean times disagree "
				       "(1.625x): a slow mode in some "
				       "samples)"));
		free(t);
		b2.results[1].preempted = 1;
		t = compare_text(&a, &b2, &slower, 0);
		assert_non_null(strstr(t, "a slow mode in some samples, or "
				       "other tasks' time slices in preempted "
				       "ones)"));
		free(t);
		settle_report_free(&b2);
		/* preempted there, recorded at its CPU time: faster */
		assert_int_equal(settle_load_json(cpu_file("c4.json", half_cpu,
			half_cpu), 0.01, &b2, err, sizeof(err)), 0);
		t = compare_text(&a, &b2, &slower, 0);
		assert_null(strstr(t, "mean times disagree"));
		assert_non_null(strstr(t, "faster"));
		free(t);
		settle_report_free(&b2);
		settle_report_free(&a);
	}
	assert_int_equal(settle_load_json(cpu_file("m4.json", half, "[1, 2]"),
					  0.01, &rep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "one CPU time per sample"));
	assert_int_equal(settle_load_json(cpu_file("m5.json", half,
		"[50, 51, 49, 50, 50, 50, 51, 49, 50, 50, 50, -1]"), 0.01, &rep,
		err, sizeof(err)), -1);
	assert_non_null(strstr(err, "samples_cpu_ns[11]"));
}

/*
 * The read limit's tune, process by process: written and read back as
 * counts, absent when no process timed, added up when processes are
 * pooled and shown as the split; counts no run writes (more 256-bit
 * choices than processes) read as none.
 */
static void test_read_limit_timed(void **st)
{
	static const char *const doctored[] = {
		"{\"processes\": 2, \"chose_256_bit\": 3}",
		"{\"processes\": 2, \"chose_256_bit\": -1}",
		"{\"processes\": 2, \"chose_256_bit\": 1.5}",
		"{\"processes\": 2, \"chose_256_bit\": \"1\"}",
		"{\"processes\": 2}",
		"{\"processes\": 0, \"chose_256_bit\": 0}",
		"{\"processes\": 300, \"chose_256_bit\": 1}",
	};
	static struct settle_report rep, back, more;
	char err[256], path[128], *text, *at;

	(void)st;
	snprintf(path, sizeof(path), "%s/timed.json", dir);
	settle_machine_describe(&rep.machine);
	rep.machine.read_limit_timed = 1;
	rep.machine.read_limit_timed_256 = 1;
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_int_equal(back.machine.read_limit_timed, 1);
	assert_int_equal(back.machine.read_limit_timed_256, 1);
	rep.machine.read_limit_timed_256 = 0;
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &more, err,
					  sizeof(err)), 0);
	assert_int_equal(more.machine.read_limit_timed_256, 0);
	assert_int_equal(settle_report_pool(&back, &more, err, sizeof(err)), 0);
	assert_int_equal(back.machine.read_limit_timed, 2);
	assert_int_equal(back.machine.read_limit_timed_256, 1);
	assert_int_equal(settle_write_machine(&back, path, err, sizeof(err)), 0);
	assert_non_null(strstr(slurp(path), "read limit timed: 256-bit loads "
			       "in 1 of 2 processes, 512-bit in 1 (whichever "
			       "read 16 KiB faster at the start)\n"));
	settle_report_free(&back);
	assert_int_equal(settle_write_machine(&more, path, err, sizeof(err)), 0);
	assert_non_null(strstr(slurp(path), "read limit timed: 512-bit loads "
			       "(they read 16 KiB faster at the start)\n"));
	settle_report_free(&more);

	/* files whose counts no run writes: more chose than timed, a count
	 * that is not a count, more than settle run's 256 processes */
	for (size_t i = 0; i < sizeof(doctored) / sizeof(doctored[0]); i++) {
		static char edited[65536];
		const char *key = "\"read_limit_timed\": {\"processes\": 2, "
				  "\"chose_256_bit\": 1}";

		rep.machine.read_limit_timed = 2;
		rep.machine.read_limit_timed_256 = 1;
		snprintf(path, sizeof(path), "%s/timed.json", dir);
		assert_int_equal(settle_write_report(&rep, "json", path, err,
						     sizeof(err)), 0);
		text = slurp(path);
		at = strstr(text, key);
		assert_non_null(at);
		snprintf(edited, sizeof(edited), "%.*s\"read_limit_timed\": "
			 "%s%s", (int)(at - text), text, doctored[i],
			 at + strlen(key));
		snprintf(path, sizeof(path), "%s",
			 write_file("timed3.json", edited));
		assert_int_equal(settle_load_json(path, 0.01, &back, err,
						  sizeof(err)), 0);
		assert_int_equal(back.machine.read_limit_timed, 0);
		assert_int_equal(back.machine.read_limit_timed_256, 0);
		settle_report_free(&back);
	}

	/* none timed: no key, none read back, no line */
	rep.machine.read_limit_timed = rep.machine.read_limit_timed_256 = 0;
	snprintf(path, sizeof(path), "%s/timed.json", dir);
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_null(strstr(slurp(path), "read_limit_timed"));
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	assert_int_equal(back.machine.read_limit_timed, 0);
	assert_int_equal(settle_write_machine(&back, path, err, sizeof(err)), 0);
	assert_null(strstr(slurp(path), "read limit timed"));
	settle_report_free(&back);
}

/*
 * The caches: sysfs's when it has entries (source ""), else glibc's
 * sysconf (source "sysconf", the L1d among them), else none.
 */
static void test_caches_source(void **st)
{
	struct settle_machine m;
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	int found = 0;

	(void)st;
	settle_machine_describe(&m);
	if (access("/sys/devices/system/cpu/cpu0/cache/index0/size", R_OK) == 0) {
		assert_string_equal(m.caches_source, "");
		assert_true(m.ncaches > 0);
		return;
	}
	if (l1d <= 0 && sysconf(_SC_LEVEL2_CACHE_SIZE) <= 0 &&
	    sysconf(_SC_LEVEL3_CACHE_SIZE) <= 0 &&
	    sysconf(_SC_LEVEL1_ICACHE_SIZE) <= 0) {
		assert_int_equal(m.ncaches, 0);
		assert_string_equal(m.caches_source, "");
		return;
	}
	assert_string_equal(m.caches_source, "sysconf");
	for (size_t i = 0; i < m.ncaches; i++)
		if (m.caches[i].level == 1 && !strcmp(m.caches[i].type, "Data"))
			found = m.caches[i].size_bytes == (uint64_t)l1d;
	assert_true(found || l1d <= 0);
}

/* The fallback itself, whatever sysfs has here: sysconf's sizes, the L1d
 * among them, and the source said only when it gave any. */
static void test_caches_sysconf(void **st)
{
	struct settle_machine m;
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
	int saw_l1d = 0, saw_l3 = 0;

	(void)st;
	memset(&m, 0, sizeof(m));
	settle_caches_from_sysconf(&m);
	for (size_t i = 0; i < m.ncaches; i++) {
		const struct settle_cache *c = &m.caches[i];

		saw_l1d |= c->level == 1 && !strcmp(c->type, "Data") &&
			   c->size_bytes == (uint64_t)l1d;
		saw_l3 |= c->level == 3 && c->size_bytes == (uint64_t)l3;
		assert_true(c->size_bytes > 0);
	}
	assert_int_equal(saw_l1d, l1d > 0);
	assert_int_equal(saw_l3, l3 > 0);
	assert_string_equal(m.caches_source, m.ncaches ? "sysconf" : "");
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[128];

	(void)st;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_and_recompute),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_gbench_refusals),
		cmocka_unit_test(test_gbench_kept),
		cmocka_unit_test(test_same_key),
		cmocka_unit_test(test_settings_ranges),
		cmocka_unit_test(test_variant_same_group),
		cmocka_unit_test(test_compare_pools_repetitions),
		cmocka_unit_test(test_compare_warns_other_cpu),
		cmocka_unit_test(test_compare_warns_other_read_limit),
		cmocka_unit_test(test_compare_warns_other_primitives),
		cmocka_unit_test(test_read_limit_timed),
		cmocka_unit_test(test_compare_summary_caveats),
		cmocka_unit_test(test_noise_pooled),
		cmocka_unit_test(test_noise_view),
		cmocka_unit_test(test_machine_round_trip),
		cmocka_unit_test(test_shortest_sample),
		cmocka_unit_test(test_preempted_count),
		cmocka_unit_test(test_means_disagree),
		cmocka_unit_test(test_shared_cpu),
		cmocka_unit_test(test_caches_source),
		cmocka_unit_test(test_caches_sysconf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
