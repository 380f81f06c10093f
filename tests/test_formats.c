/*
 * test_formats.c - the output formats on a report built in memory: JSON
 * strings escaped to strict, pure-ASCII RFC 8259 (read back by jansson),
 * '.' decimals in every format under a German locale set by the program
 * itself, CSV quoting (read back by an RFC 4180 parser), text lines of at
 * most 72 columns (counted with wcwidth), Markdown tables whose cells
 * line up, Google Benchmark's layout written and read, --format names.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <cmocka.h>
#include <jansson.h>

#include "helpers.h"
#include "model/model.h"
#include "settle.h"

static char dir[] = "/tmp/settle-formats-XXXXXX";

/* ---- a report built in memory ---------------------------------------- */

static const uint64_t sizes[] = { 4096 };

static const struct settle_param bits32[] = {
	{ "elem_bits", "32", SETTLE_PARAM_INT, "32-bit" },
};

static struct settle_variant variants[4];
static struct settle_claim claim;
static double samples[4][5] = {
	{ 2.0, 2.1, 2.2, 2.0, 2.1 },
	{ 1.5, 1.5, 1.5, 1.5, 1.5 },
	{ 3.0, 3.1, 3.0, 3.2, 3.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0 },
};

/*
 * One claim called cname with the baseline "base" and the variants vname
 * (1.5 ns every sample), "32-bit wide" (a parameter) and "skipme"
 * (skipped), at 4 KiB.
 */
static void make_report(struct settle_report *rep, const char *cname,
			const char *title, const char *vname)
{
	struct settle_claim_info info;
	const struct settle_claim_info *ci;

	assert_int_equal(settle_report_open(rep), 0);
	memset(variants, 0, sizeof(variants));
	variants[0].name = "base";
	variants[1].name = vname;
	variants[2].name = "wide";
	variants[2].params = bits32;
	variants[2].nparams = 1;
	variants[3].name = "skipme";
	memset(&claim, 0, sizeof(claim));
	claim.name = cname;
	claim.title = title;
	claim.description = "a claim";
	claim.op_name = "op";
	claim.variants = variants;
	claim.nvariants = 4;
	claim.baseline = "base";
	claim.default_sizes = sizes;
	claim.ndefault_sizes = 1;
	claim.bytes_per_op = SETTLE_BYTES_SIZE;
	claim.show_cycles = 1;
	claim.original = "the original post said 1.5 ns, and 2.5 ns at -O0";

	snprintf(rep->machine.vendor, sizeof(rep->machine.vendor), "GenuineTest");
	snprintf(rep->machine.model_name, sizeof(rep->machine.model_name),
		 "Test CPU 1.5 GHz");
	snprintf(rep->machine.isa, sizeof(rep->machine.isa), "sse2 avx2");
	snprintf(rep->machine.kernel, sizeof(rep->machine.kernel),
		 "6.1.0-test #1 SMP");
	rep->machine.ncaches = 1;
	rep->machine.caches[0].level = 1;
	snprintf(rep->machine.caches[0].type, 12, "Data");
	rep->machine.caches[0].size_bytes = 32768;
	rep->machine.logical_cpus = 4;
	rep->timer.clock = SETTLE_CLOCK_TSC;
	rep->timer.tsc_ghz = 2.5;
	rep->timer.core_ghz = 2.5;
	rep->timer.why = "test";
	rep->timer.resolution_ns = 1;
	snprintf(rep->compiler, sizeof(rep->compiler), "cc 1.0");
	snprintf(rep->build_flags, sizeof(rep->build_flags), "-O2");
	snprintf(rep->noise.governor, sizeof(rep->noise.governor), "unknown");
	rep->noise.core_ghz_before = rep->noise.core_ghz_after = 2.5;
	rep->options.samples = 5;
	rep->options.min_sample_ns = 1.5e6;
	rep->options.band = 0.01;
	rep->options.processes = 1;
	settle_claim_describe(&claim, &info);
	assert_non_null(ci = settle_report_claim(rep, &info));
	for (size_t i = 0; i < 4; i++) {
		struct settle_result *r =
			settle_report_append_variant(rep, ci, &variants[i], 4096);

		assert_non_null(r);
		r->iters = 1000;
		r->ops_per_sample = 1000;
		if (i == 3) {
			r->skipped = "CPU lacks the test extension, which is a "
				     "long reason to print on one line";
			continue;
		}
		assert_int_equal(settle_result_add_samples(r, samples[i], NULL, 5), 0);
	}
	settle_report_analyze(rep, 0, rep->nresults);
}

/* The format printed into memory (NUL-terminated; free it). */
static char *render(const struct settle_report *rep, const char *fmt)
{
	char path[64], *buf;
	char err[256];

	snprintf(path, sizeof(path), "%s/out", dir);
	assert_int_equal(settle_write_report(rep, fmt, path, err, sizeof(err)), 0);
	buf = read_whole(path);
	unlink(path);
	assert_non_null(buf);
	return buf;
}

/* The table with each line break and the indent after it read as one
 * space: a conclusion's words, wherever the table wrapped them. */
static char *render_flat(const struct settle_report *rep)
{
	char *text = render(rep, "table"), *to = text;

	for (const char *p = text; *p; p++) {
		if (*p != '\n') {
			*to++ = *p;
			continue;
		}
		while (p[1] == ' ')
			p++;
		*to++ = ' ';
	}
	*to = '\0';
	return text;
}

static json_t *strict(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &e);

	if (!j)
		print_error("jansson: %s at line %d\n", e.text, e.line);
	assert_non_null(j);
	return j;
}

/* ---- JSON strings ------------------------------------------------------ */

/* Quotes, backslash, controls, DEL, 2/3/4-byte UTF-8, and invalid UTF-8:
 * a lone 0xff, an overlong '/', an encoded surrogate, a cut sequence. */
static const char nasty[] = "q\"uote \\back\x01" "ctl\n\t\x7f \xc3\xa9 "
	"\xe2\x82\xac \xf0\x9f\x98\x80 \xff \xc0\xaf \xed\xa0\x80 \xe2\x82";
#define FFFD "\xef\xbf\xbd"
static const char nasty_read[] = "q\"uote \\back\x01" "ctl\n\t\x7f \xc3\xa9 "
	"\xe2\x82\xac \xf0\x9f\x98\x80 " FFFD " " FFFD FFFD " "
	FFFD FFFD FFFD " " FFFD FFFD;

static void ascii_only(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if (*p >= 0x80 || (*p < 0x20 && *p != '\n')) {
			print_error("byte 0x%02x at offset %zu\n", *p,
				    (size_t)(p - (const unsigned char *)text));
			fail();
		}
}

static void test_json_escapes(void **st)
{
	struct settle_report rep;
	char *text;
	json_t *j, *r;

	(void)st;
	make_report(&rep, nasty, "title", nasty);
	text = render(&rep, "json");
	ascii_only(text);
	assert_non_null(strstr(text, "\\ud83d\\ude00")); /* U+1F600 */
	assert_non_null(strstr(text, "\\u20ac"));
	assert_non_null(strstr(text, "\\u0001"));
	assert_non_null(strstr(text, "\\u007f"));
	j = strict(text);
	r = json_array_get(json_object_get(j, "results"), 1);
	assert_string_equal(json_string_value(json_object_get(r, "claim")),
			    nasty_read);
	assert_string_equal(json_string_value(json_object_get(r, "variant")),
			    nasty_read);
	assert_non_null(json_object_get(json_object_get(j, "claims"), nasty_read));
	json_decref(j);
	free(text);

	text = render(&rep, "gbench-json");
	ascii_only(text);
	j = strict(text);
	r = json_array_get(json_object_get(j, "benchmarks"), 9); /* 2nd result */
	assert_non_null(r);
	assert_true(strncmp(json_string_value(json_object_get(r, "name")),
			    nasty_read, strlen(nasty_read)) == 0);
	json_decref(j);
	free(text);
	settle_report_free(&rep);
}

/* ---- CSV ---------------------------------------------------------------- */

#define MAX_FIELDS 32

struct record {
	char *field[MAX_FIELDS];
	size_t n;
};

/*
 * Parse one RFC 4180 record at *p (CRLF line ends); fields are new
 * strings. Returns 0, or -1 at the end of the text or on a syntax error
 * (a quote inside an unquoted field, text after a closing quote).
 */
static int csv_record(const char **p, struct record *rec)
{
	const char *s = *p;

	rec->n = 0;
	/* the trailing "# claim: settled: ..." lines are no records */
	if (!*s || (s[0] == '#' && s[1] == ' '))
		return -1;
	for (;;) {
		char *buf = malloc(strlen(s) + 1), *o = buf;

		assert_non_null(buf);
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					*o++ = '"';
					s++;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					*o++ = *s;
				}
			}
		} else {
			for (; *s && *s != ',' && *s != '\r' && *s != '\n'; s++) {
				if (*s == '"')
					return -1;
				*o++ = *s;
			}
		}
		*o = '\0';
		assert_true(rec->n < MAX_FIELDS);
		rec->field[rec->n++] = buf;
		if (*s == ',') {
			s++;
			continue;
		}
		if (s[0] == '\r' && s[1] == '\n') {
			*p = s + 2;
			return 0;
		}
		return -1; /* a bare LF or text after a closing quote */
	}
}

static void record_free(struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->field[i]);
	rec->n = 0;
}

static void test_csv_quoting(void **st)
{
	struct settle_report rep;
	struct record head, rec;
	const char *p;
	char *text;
	size_t rows = 0;

	(void)st;
	make_report(&rep, "we,ird \"q\"", "t", "multi\nline, \"v\"");
	text = render(&rep, "csv");
	assert_non_null(strstr(text, "\"we,ird \"\"q\"\"\","));
	assert_non_null(strstr(text, ",\"multi\nline, \"\"v\"\"\","));
	p = text;
	assert_int_equal(csv_record(&p, &head), 0);
	assert_int_equal(head.n, 26); /* ... layout_spread, layout_sensitive */
	assert_string_equal(head.field[0], "claim");
	assert_string_equal(head.field[7], "median_ns");
	while (csv_record(&p, &rec) == 0) {
		assert_int_equal(rec.n, head.n);
		assert_string_equal(rec.field[0], "we,ird \"q\"");
		if (rows == 1) {
			assert_string_equal(rec.field[1], "multi\nline, \"v\"");
			assert_string_equal(rec.field[7], "1.5");
			assert_string_equal(rec.field[17], "faster");
		}
		if (rows == 2)
			assert_string_equal(rec.field[5], "elem_bits=32");
		if (rows == 3) /* skipped */
			assert_non_null(strstr(rec.field[22], "lacks"));
		record_free(&rec);
		rows++;
	}
	assert_int_equal(rows, 4);
	/* everything parsed but the comment lines at the end: the
	 * conclusion, then the noise */
	assert_true(!strncmp(p, "# ", 2));
	assert_non_null(strstr(p, "settled:"));
	assert_non_null(strchr(p, '\n'));
	p = strchr(p, '\n') + 1;
	assert_true(!strncmp(p, "# noise: ", 9));
	assert_true(strchr(p, '\n')[1] == '\0');
	record_free(&head);
	free(text);
	settle_report_free(&rep);
}

/* ---- text --------------------------------------------------------------- */

/* Display columns of a UTF-8 line, by the C library's wcwidth. */
static int columns(const char *line, size_t len)
{
	char buf[1024];
	wchar_t w[1024];
	size_t n;

	assert_true(len < sizeof(buf));
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = mbstowcs(w, buf, 1024);
	assert_true(n != (size_t)-1);
	return wcswidth(w, n);
}

static void test_text_width(void **st)
{
	static const char long_label[] =
		"an-extraordinarily-long-variant-name-that-fits-no-column";
	struct settle_report rep;
	char *text, *line, *save;
	int lines = 0;

	(void)st;
	assert_non_null(setlocale(LC_CTYPE, "C.UTF-8"));
	make_report(&rep, "c", "a claim whose title is far longer than one "
		    "line of a mailing-list post could ever hold, so that it "
		    "has to wrap", long_label);
	variants[2].name = "\xe6\x95\xb0\xe6\x8d\xae\xe5\xba\x93-wide-"
			   "\xe5\x8f\x98\xe4\xbd\x93"; /* CJK: two columns */
	/* a name longer than a line, without a space to break at */
	variants[3].name = "skipped-variant-whose-name-is-longer-than-a-whole-"
			   "line-of-seventy-two-columns";
	text = render(&rep, "text");
	assert_non_null(strstr(text, "machine: Test CPU"));
	assert_non_null(strstr(text, long_label)); /* whole, on its own line */
	assert_non_null(strstr(text, "1.500 ns"));
	assert_non_null(strstr(text, "faster"));
	assert_non_null(strstr(text, "baseline"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int w = columns(line, strlen(line));

		if (w > 72)
			print_error("%d columns: %s\n", w, line);
		assert_true(w <= 72);
		lines++;
	}
	assert_true(lines > 10);
	free(text);
	settle_report_free(&rep);
	setlocale(LC_CTYPE, "C");
}

/* ---- Markdown ----------------------------------------------------------- */

/* Cells of a table line: '|' not escaped by a backslash, minus one. */
static int cells(const char *line)
{
	int n = 0;

	for (const char *p = line; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		n += *p == '|';
	}
	return n - 1;
}

static int separator(const char *line)
{
	if (line[0] != '|')
		return 0;
	for (const char *p = line; *p; p++)
		if (!strchr("|:-", *p))
			return 0;
	return strstr(line, "---") != NULL;
}

static void test_md_tables(void **st)
{
	struct settle_report rep;
	char *text, *line, *save, *prev = NULL;
	int tables = 0, width = 0, in_table = 0;

	(void)st;
	make_report(&rep, "c", "pipes | in the title", "a|b *c* _d_");
	text = render(&rep, "md");
	assert_non_null(strstr(text, "**machine:** Test CPU"));
	assert_non_null(strstr(text, "a\\|b \\*c\\* \\_d\\_"));
	assert_non_null(strstr(text, "### pipes \\| in the title"));
	assert_non_null(strstr(text, "1.500 ns"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (separator(line)) {
			/* a header line, then the separator, same width */
			assert_non_null(prev);
			assert_int_equal(prev[0], '|');
			width = cells(prev);
			assert_int_equal(cells(line), width);
			tables++;
			in_table = 1;
		} else if (in_table && line[0] == '|') {
			if (cells(line) != width)
				print_error("%d cells, header %d: %s\n",
					    cells(line), width, line);
			assert_int_equal(cells(line), width);
		} else {
			in_table = 0;
		}
		prev = line;
	}
	assert_int_equal(tables, 1); /* one claim, no scale section */
	free(text);
	settle_report_free(&rep);
}

/* ---- locale ------------------------------------------------------------- */

static void test_german_locale(void **st)
{
	struct settle_report rep;
	struct record head, rec;
	char probe[16], *text;
	const char *p;
	json_t *j, *b;
	size_t i;

	(void)st;
	if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
		fprintf(stderr, "SKIP test_german_locale: the de_DE.UTF-8 "
			"locale is not generated (localedef -i de_DE -f "
			"UTF-8 de_DE.UTF-8, as root)\n");
		skip();
	}
	snprintf(probe, sizeof(probe), "%.1f", 1.5);
	assert_string_equal(probe, "1,5"); /* the locale is in force */
	make_report(&rep, "c", "t", "v");

	text = render(&rep, "text");
	assert_non_null(strstr(text, "1.500 ns"));
	assert_null(strstr(text, "1,500"));
	assert_non_null(strstr(text, "2.500 GHz"));
	free(text);

	text = render(&rep, "md");
	assert_non_null(strstr(text, "1.500 ns"));
	assert_null(strstr(text, "1,500"));
	free(text);

	text = render(&rep, "table");
	assert_non_null(strstr(text, "1.500 ns"));
	free(text);

	text = render(&rep, "csv");
	p = text;
	assert_int_equal(csv_record(&p, &head), 0);
	for (i = 0; csv_record(&p, &rec) == 0; i++) {
		assert_int_equal(rec.n, head.n); /* "1,5" would add a field */
		if (i == 1)
			assert_string_equal(rec.field[7], "1.5");
		record_free(&rec);
	}
	record_free(&head);
	free(text);

	text = render(&rep, "json");
	j = strict(text);
	b = json_array_get(json_object_get(j, "results"), 1);
	assert_true(json_real_value(json_object_get(b, "median_ns")) == 1.5);
	json_decref(j);
	free(text);

	text = render(&rep, "gbench-json");
	j = strict(text);
	json_array_foreach(json_object_get(j, "benchmarks"), i, b)
		if (!strcmp(json_string_value(json_object_get(b, "name")),
			    "c/v/size:4096") ||
		    !strcmp(json_string_value(json_object_get(b, "name")),
			    "c/v/size:4096_median"))
			assert_true(json_number_value(json_object_get(b,
						"real_time")) == 1.5);
	json_decref(j);
	free(text);
	settle_report_free(&rep);
	setlocale(LC_ALL, "C");
}

/* ---- Google Benchmark ----------------------------------------------------- */

static void test_gbench_layout(void **st)
{
	static const char *const aggr[] = { "mean", "median", "stddev", "cv" };
	struct settle_report rep;
	char *text;
	json_t *j, *ctx, *b, *benchmarks;
	size_t i = 0;

	(void)st;
	make_report(&rep, "c", "t", "v");
	text = render(&rep, "gbench-json");
	j = strict(text);
	ctx = json_object_get(j, "context");
	assert_true(json_is_string(json_object_get(ctx, "date")));
	assert_true(json_is_string(json_object_get(ctx, "host_name")));
	assert_true(json_is_string(json_object_get(ctx, "executable")));
	assert_int_equal(json_integer_value(json_object_get(ctx, "num_cpus")), 4);
	assert_true(json_number_value(json_object_get(ctx, "mhz_per_cpu")) == 2500);
	assert_true(json_is_boolean(json_object_get(ctx, "cpu_scaling_enabled")));
	assert_string_equal(json_string_value(json_object_get(ctx,
			    "library_build_type")), "release");
	b = json_array_get(json_object_get(ctx, "caches"), 0);
	assert_string_equal(json_string_value(json_object_get(b, "type")), "Data");
	assert_int_equal(json_integer_value(json_object_get(b, "level")), 1);
	assert_int_equal(json_integer_value(json_object_get(b, "size")), 32768);
	benchmarks = json_object_get(j, "benchmarks");
	/* three measured results: 5 repetitions and 4 aggregates each */
	assert_int_equal(json_array_size(benchmarks), 3 * (5 + 4));
	for (size_t r = 0; r < 3; r++) {
		static const char *const names[] = { "c/base/size:4096",
			"c/v/size:4096", "c/wide/elem_bits:32/size:4096" };

		for (size_t k = 0; k < 5; k++, i++) {
			b = json_array_get(benchmarks, i);
			assert_string_equal(json_string_value(json_object_get(b,
					    "name")), names[r]);
			assert_string_equal(json_string_value(json_object_get(b,
					    "run_name")), names[r]);
			assert_string_equal(json_string_value(json_object_get(b,
					    "run_type")), "iteration");
			assert_int_equal(json_integer_value(json_object_get(b,
					 "family_index")), r);
			assert_int_equal(json_integer_value(json_object_get(b,
					 "per_family_instance_index")), 0);
			assert_int_equal(json_integer_value(json_object_get(b,
					 "repetitions")), 5);
			assert_int_equal(json_integer_value(json_object_get(b,
					 "repetition_index")), k);
			assert_int_equal(json_integer_value(json_object_get(b,
					 "threads")), 1);
			assert_int_equal(json_integer_value(json_object_get(b,
					 "iterations")), 1000);
			assert_true(json_number_value(json_object_get(b,
				    "real_time")) == samples[r][k]);
			assert_true(json_number_value(json_object_get(b,
				    "cpu_time")) == samples[r][k]);
			assert_string_equal(json_string_value(json_object_get(b,
					    "time_unit")), "ns");
			/* 4096 bytes per operation */
			assert_true(json_number_value(json_object_get(b,
				    "bytes_per_second")) > 4096 / samples[r][k] * 1e9 * 0.999);
		}
		for (size_t k = 0; k < 4; k++, i++) {
			char name[80];

			b = json_array_get(benchmarks, i);
			snprintf(name, sizeof(name), "%s_%s", names[r], aggr[k]);
			assert_string_equal(json_string_value(json_object_get(b,
					    "name")), name);
			assert_string_equal(json_string_value(json_object_get(b,
					    "run_type")), "aggregate");
			assert_string_equal(json_string_value(json_object_get(b,
					    "aggregate_name")), aggr[k]);
			assert_string_equal(json_string_value(json_object_get(b,
					    "aggregate_unit")), k == 3 ?
					    "percentage" : "time");
			assert_null(json_object_get(b, "repetition_index"));
			if (k == 1)
				assert_true(json_number_value(json_object_get(b,
					    "real_time")) == rep.results[r].sum.median);
		}
	}
	json_decref(j);
	free(text);
	settle_report_free(&rep);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* As Google Benchmark 1.7 writes it: repetitions in us, aggregates, an
 * error, a benchmark without '/'. */
static const char gbench_file[] =
"{\"context\": {\"date\": \"2024-01-01T00:00:00+00:00\", \"host_name\": \"h\","
" \"executable\": \"./bm\", \"num_cpus\": 8, \"mhz_per_cpu\": 3000,"
" \"cpu_scaling_enabled\": false, \"caches\": [{\"type\": \"Data\","
" \"level\": 1, \"size\": 49152, \"num_sharing\": 2}],"
" \"load_avg\": [0.1, 0.2, 0.3], \"library_build_type\": \"release\"},"
" \"benchmarks\": ["
"{\"name\": \"BM_a/8\", \"run_name\": \"BM_a/8\", \"run_type\": \"iteration\","
" \"repetitions\": 3, \"repetition_index\": 0, \"threads\": 1,"
" \"iterations\": 100, \"real_time\": 1.0, \"cpu_time\": 1.0,"
" \"time_unit\": \"us\"},"
"{\"name\": \"BM_a/8\", \"run_name\": \"BM_a/8\", \"run_type\": \"iteration\","
" \"repetitions\": 3, \"repetition_index\": 1, \"threads\": 1,"
" \"iterations\": 100, \"real_time\": 2.0, \"cpu_time\": 2.0,"
" \"time_unit\": \"us\"},"
"{\"name\": \"BM_a/8\", \"run_name\": \"BM_a/8\", \"run_type\": \"iteration\","
" \"repetitions\": 3, \"repetition_index\": 2, \"threads\": 1,"
" \"iterations\": 100, \"real_time\": 3.0, \"cpu_time\": 3.0,"
" \"time_unit\": \"us\"},"
"{\"name\": \"BM_a/8_mean\", \"run_name\": \"BM_a/8\", \"run_type\": \"aggregate\","
" \"repetitions\": 3, \"threads\": 1, \"aggregate_name\": \"mean\","
" \"aggregate_unit\": \"time\", \"iterations\": 3, \"real_time\": 2.0,"
" \"cpu_time\": 2.0, \"time_unit\": \"us\"},"
"{\"name\": \"BM_a/8_cv\", \"run_name\": \"BM_a/8\", \"run_type\": \"aggregate\","
" \"repetitions\": 3, \"threads\": 1, \"aggregate_name\": \"cv\","
" \"aggregate_unit\": \"percentage\", \"iterations\": 3, \"real_time\": 0.5,"
" \"cpu_time\": 0.5, \"time_unit\": \"us\"},"
"{\"name\": \"BM_a/64\", \"run_name\": \"BM_a/64\", \"run_type\": \"iteration\","
" \"repetitions\": 1, \"repetition_index\": 0, \"threads\": 1,"
" \"iterations\": 10, \"real_time\": 0.25, \"cpu_time\": 0.25,"
" \"time_unit\": \"ms\"},"
"{\"name\": \"BM_err\", \"run_name\": \"BM_err\", \"run_type\": \"iteration\","
" \"error_occurred\": true, \"error_message\": \"no\", \"iterations\": 0,"
" \"real_time\": 0, \"cpu_time\": 0, \"time_unit\": \"ns\"},"
"{\"name\": \"BM_b\", \"iterations\": 5, \"real_time\": 7,"
" \"cpu_time\": 7, \"time_unit\": \"ns\"},"
"{\"name\": \"BM_b_median\", \"iterations\": 5, \"real_time\": 7,"
" \"cpu_time\": 7, \"time_unit\": \"ns\"}"
"]}";

static void test_load_gbench(void **st)
{
	struct settle_report rep;
	char err[256];
	const char *f = write_file("gb.json", gbench_file);

	(void)st;
	assert_int_equal(settle_load_json(f, 0.01, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.nresults, 4);
	assert_string_equal(rep.results[0].claim->name, "BM_a");
	assert_string_equal(rep.results[0].variant, "8");
	assert_int_equal(rep.results[0].nsamples, 3);
	assert_true(rep.results[0].samples_ns[0] == 1000);
	assert_true(rep.results[0].samples_ns[2] == 3000);
	assert_true(rep.results[0].sum.median == 2000);
	assert_int_equal(rep.results[0].iters, 100);
	assert_true(rep.results[1].claim == rep.results[0].claim);
	assert_string_equal(rep.results[1].variant, "64");
	assert_true(rep.results[1].samples_ns[0] == 250000);
	/* a benchmark whose runs failed: skipped, with its message */
	assert_string_equal(rep.results[2].claim->name, "BM_err");
	assert_int_equal(rep.results[2].nsamples, 0);
	assert_string_equal(rep.results[2].skipped,
			    "Google Benchmark reported an error: no");
	assert_string_equal(rep.results[3].claim->name, "BM_b");
	assert_string_equal(rep.results[3].variant, "BM_b");
	assert_int_equal(rep.results[3].nsamples, 1);
	assert_int_equal(rep.machine.logical_cpus, 8);
	assert_int_equal(rep.machine.caches[0].size_bytes, 49152);
	assert_false(rep.results[0].has_cmp); /* no baseline to pair with */
	settle_report_free(&rep);

	/* a bad time unit is malformed, not a wrong number */
	f = write_file("gbad.json", "{\"context\": {}, \"benchmarks\": "
		       "[{\"name\": \"x\", \"real_time\": 1, \"time_unit\": "
		       "\"fortnights\"}]}");
	assert_int_equal(settle_load_json(f, 0.01, &rep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "time_unit"));
}

/* settle's gbench-json read back by settle: the same rows (claim,
 * variant, size, build and parameters: settle_claim, settle_variant,
 * settle_params) and samples, exactly. */
static void test_gbench_roundtrip(void **st)
{
	struct settle_report rep, back;
	char path[80], err[256];

	(void)st;
	make_report(&rep, "c", "t", "v");
	snprintf(path, sizeof(path), "%s/rt.json", dir);
	assert_int_equal(settle_write_report(&rep, "gbench-json",
					     path, err, sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err, sizeof(err)), 0);
	assert_int_equal(back.nresults, 3);
	for (size_t r = 0; r < 3; r++) {
		assert_string_equal(back.results[r].claim->name, "c");
		assert_true(settle_result_same_key(&back.results[r],
						   &rep.results[r]));
		assert_int_equal(back.results[r].nsamples, 5);
		for (size_t k = 0; k < 5; k++)
			assert_true(back.results[r].samples_ns[k] == samples[r][k]);
	}
	assert_string_equal(back.results[1].variant, "v");
	assert_int_equal(back.results[1].size_bytes, 4096);
	assert_string_equal(back.machine.model_name, "Test CPU 1.5 GHz");
	/* settle's compiler and flags come back, not the executable's path
	 * as flags (compare then warned of different build flags) */
	assert_string_equal(back.compiler, "cc 1.0");
	assert_string_equal(back.build_flags, "-O2");
	settle_report_free(&back);
	settle_report_free(&rep);
	unlink(path);
}

static void test_format_names(void **st)
{
	static const char *const names[] = { "table", "json", "md", "text",
					     "csv", "json-lines" };
	char list[256];

	(void)st;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_true(settle_format_known(names[i], 0));
		assert_true(settle_format_known(names[i], 1));
		assert_non_null(strstr(settle_format_names(0, list,
							   sizeof(list)),
				       names[i]));
		assert_non_null(strstr(settle_format_names(1, list,
							   sizeof(list)),
				       names[i]));
	}
	/* gbench-json is a layout of results, not of comparisons */
	assert_true(settle_format_known("gbench-json", 0));
	assert_false(settle_format_known("gbench-json", 1));
	assert_null(strstr(settle_format_names(1, list, sizeof(list)),
			   "gbench"));
	assert_false(settle_format_known("markdown", 0));
	assert_false(settle_format_known("JSON", 0));
	assert_false(settle_format_known(NULL, 0));
}

/* A conclusion names a row with parameters as the table does (without
 * the build), so that rows of one name in two groups are told apart. */
static void test_conclusion_names_params(void **st)
{
	struct settle_report rep;
	char *text;

	(void)st;
	make_report(&rep, "c", "t", "quick");
	text = render_flat(&rep);
	assert_non_null(strstr(text, "fastest quick ("));
	assert_non_null(strstr(text, "slowest 32-bit wide ("));
	assert_null(strstr(text, "not told apart"));
	free(text);
	settle_report_free(&rep);
}

/* The same read back from a result file (as show, and a run of several
 * processes, read it): the parameter's label, not its value ("32 wide"). */
static void test_conclusion_names_params_loaded(void **st)
{
	struct settle_report rep, back;
	char path[80], err[256], *text;

	(void)st;
	make_report(&rep, "c", "t", "quick");
	snprintf(path, sizeof(path), "%s/names.json", dir);
	assert_int_equal(settle_write_report(&rep, "json", path, err,
					     sizeof(err)), 0);
	assert_int_equal(settle_load_json(path, 0.01, &back, err,
					  sizeof(err)), 0);
	text = render(&back, "table");
	assert_non_null(strstr(text, "slowest 32-bit wide ("));
	assert_null(strstr(text, "slowest 32 wide"));
	free(text);
	settle_report_free(&back);
	settle_report_free(&rep);
	unlink(path);
}

/* A conclusion's rows: each named once; by time only when every naming
 * was by time (a row also taken by its ratio is held by its baseline). */
static void test_conclusion_rows_by_time(void **st)
{
	struct settle_result a, b;
	struct settle_conclusion c;

	(void)st;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	a.label = "pipe-loop";
	b.label = "null";
	settle_conclusion_row_time(&c, &a);
	settle_conclusion_row_time(&c, &a);
	settle_conclusion_row_time(&c, &b);
	settle_conclusion_row(&c, &b);
	assert_int_equal(c.nrows, 2);
	assert_string_equal(c.rows[0].label, "pipe-loop");
	assert_int_equal(c.rows[0].by_time, 1);
	assert_string_equal(c.rows[1].label, "null");
	assert_int_equal(c.rows[1].by_time, 0);
	settle_conclusion_row(&c, &a);
	assert_int_equal(c.rows[0].by_time, 0);
	settle_conclusion_row_time(&c, &a);
	assert_int_equal(c.rows[0].by_time, 0);
}

/* make_report() with quick's samples about as fast as the fastest row's
 * (1.5 ns; quick ranks at its ratio times base's median). */
static void close_report(struct settle_report *rep)
{
	static const double close[5] = { 1.51, 1.53, 1.5, 1.52, 1.51 };
	double keep[5];

	memcpy(keep, samples[2], sizeof(keep));
	memcpy(samples[2], close, sizeof(close));
	make_report(rep, "c", "t", "quick");
	memcpy(samples[2], keep, sizeof(keep));
}

/* A row of another group (no interval against the fastest in the table)
 * about as fast as the fastest, round by round, is not told apart from
 * it; twice as slow it is (above). (quick ranks at its ratio, 0.716,
 * times base's median, 2.1: 1.503 ns.) */
static void test_conclusion_across_groups(void **st)
{
	struct settle_report rep;
	char *text;

	(void)st;
	close_report(&rep);
	text = render_flat(&rep);
	assert_non_null(strstr(text, "fastest quick (1.500 ns; not told "
				     "apart from 32-bit wide)"));
	free(text);
	settle_report_free(&rep);
}

/* Rows whose comparisons have too few units for an interval (as with
 * --processes 2) were never compared: ranked by time, never "not told
 * apart" (a new user read it of rows 2.3x apart). The close samples
 * above are told apart by no verdict either way. */
static void test_conclusion_too_few(void **st)
{
	struct settle_report rep;
	char *text;

	(void)st;
	close_report(&rep);
	for (size_t i = 0; i < rep.nresults; i++)
		if (!rep.results[i].is_baseline && rep.results[i].nsamples) {
			rep.results[i].cmp.verdict = SETTLE_UNCLEAR;
			rep.results[i].cmp.why = SETTLE_WHY_TOO_FEW;
		}
	text = render_flat(&rep);
	assert_non_null(strstr(text, "fastest quick (1.500 ns), slowest "));
	assert_null(strstr(text, "not told apart"));
	free(text);
	settle_report_free(&rep);
}

/* The same for the slowest: the baseline as slow as the row of another
 * group, round by round, is not told apart from it. */
static void test_conclusion_slowest_tie(void **st)
{
	static const double close[5] = { 3.02, 3.1, 3.0, 3.2, 3.0 };
	struct settle_report rep;
	double keep[5];
	char *text;

	(void)st;
	memcpy(keep, samples[0], sizeof(keep));
	memcpy(samples[0], close, sizeof(close));
	make_report(&rep, "c", "t", "quick");
	memcpy(samples[0], keep, sizeof(keep));
	text = render_flat(&rep);
	assert_non_null(strstr(text, "slowest base (3.020 ns; not told apart "
				     "from 32-bit wide)"));
	free(text);
	settle_report_free(&rep);
	/* twice as slow it is told apart (make_report's own samples) */
	make_report(&rep, "c", "t", "quick");
	text = render_flat(&rep);
	assert_non_null(strstr(text, "slowest 32-bit wide (3.000 ns)"));
	free(text);
	settle_report_free(&rep);
}

/*
 * Rows of two groups ranked in any order alike: y's per-round ratio to
 * its baseline is below 1 though its median is the largest of the three
 * (10.2 against base's 10 and the other group's baseline's 10.1); ranked
 * by ratio within a group and by median across, the fastest was the
 * 32-bit base in this order and y in another.
 */
static void ranked_report(struct settle_report *rep, const int *order)
{
	static double t[3][5] = {
		{ 10, 10, 10, 11, 11 },
		{ 9.9, 9.9, 10.2, 10.5, 10.5 },
		{ 10.1, 10.1, 10.1, 10.1, 10.1 },
	};
	struct settle_claim_info info;
	const struct settle_claim_info *ci;

	make_report(rep, "c", "t", "quick");
	settle_report_free(rep);
	assert_int_equal(settle_report_open(rep), 0);
	memset(variants, 0, sizeof(variants));
	variants[0].name = "base";
	variants[1].name = "y";
	variants[2].name = "base";
	variants[2].params = bits32;
	variants[2].nparams = 1;
	claim.nvariants = 3;
	settle_claim_describe(&claim, &info);
	assert_non_null(ci = settle_report_claim(rep, &info));
	for (size_t i = 0; i < 3; i++) {
		struct settle_result *r = settle_report_append_variant(
			rep, ci, &variants[order[i]], 4096);

		assert_non_null(r);
		r->iters = r->ops_per_sample = 1000;
		assert_int_equal(settle_result_add_samples(r, t[order[i]],
							   NULL, 5), 0);
	}
	settle_report_analyze(rep, 0, rep->nresults);
}

static void test_conclusion_rank_any_order(void **st)
{
	static const int orders[][3] = { { 0, 1, 2 }, { 2, 0, 1 },
					 { 1, 2, 0 } };
	struct settle_report rep;
	char *text;

	(void)st;
	for (size_t k = 0; k < 3; k++) {
		ranked_report(&rep, orders[k]);
		text = render_flat(&rep);
		assert_non_null(strstr(text, "0.9"));
		assert_non_null(strstr(text, "fastest y ("));
		assert_non_null(strstr(text, "slowest 32-bit base ("));
		free(text);
		settle_report_free(&rep);
	}
}

/*
 * 30 variants this run cannot tell apart: the conclusion names what fits
 * and counts the rest ("and 7 more"); 300 such rows once named 22, cut
 * without a word.
 */
static void test_conclusion_ties_counted(void **st)
{
	static struct settle_variant many[30];
	static char names[30][8];
	struct settle_claim_info info;
	const struct settle_claim_info *ci;
	struct settle_report rep;
	size_t named = 0, more = 0;
	char *text, *p, *end;

	(void)st;
	make_report(&rep, "c", "t", "quick");
	settle_report_free(&rep);
	assert_int_equal(settle_report_open(&rep), 0);
	for (size_t k = 0; k < 30; k++) {
		snprintf(names[k], sizeof(names[k]), "v%02zu", k);
		memset(&many[k], 0, sizeof(many[k]));
		many[k].name = names[k];
	}
	claim.variants = many;
	claim.nvariants = 30;
	claim.baseline = "v00";
	settle_claim_describe(&claim, &info);
	assert_non_null(ci = settle_report_claim(&rep, &info));
	for (size_t k = 0; k < 30; k++) {
		struct settle_result *r = settle_report_append_variant(
			&rep, ci, &many[k], 4096);
		double t[5];

		assert_non_null(r);
		r->iters = r->ops_per_sample = 1000;
		/* +-10 %, in another order for each variant */
		for (size_t j = 0; j < 5; j++)
			t[j] = 10 * (1 + 0.05 * (double)((k * 7 + j * 3) % 5) -
				     0.1);
		assert_int_equal(settle_result_add_samples(r, t, NULL, 5), 0);
	}
	settle_report_analyze(&rep, 0, rep.nresults);
	text = render(&rep, "md"); /* the conclusion on one line */
	p = strstr(text, "not told apart from ");
	assert_non_null(p);
	end = strstr(p, " more)");
	assert_non_null(end);
	for (char *q = p; q < end; q++)
		named += q[0] == 'v' && q[1] >= '0' && q[1] <= '9';
	while (end > p && end[-1] >= '0' && end[-1] <= '9')
		end--;
	more = strtoul(end, NULL, 10);
	assert_true(named > 0 && more > 0);
	assert_int_equal(named + more, 29); /* every row but the fastest */
	free(text);
	settle_report_free(&rep);
}

/* A claim name with a line break (a claim file may give one): the csv
 * conclusion comment stays one line, the break written out. */
static void test_csv_comment_one_line(void **st)
{
	struct settle_report rep;
	char *text, *p;

	(void)st;
	make_report(&rep, "w\"x,\ny", "t", "quick");
	text = render(&rep, "csv");
	p = strstr(text, "\n# w\"x,");
	assert_non_null(p);
	assert_non_null(strstr(p, "# w\"x,\\x0ay: "));
	assert_null(strstr(text, "\ny: "));
	free(text);
	settle_report_free(&rep);
}

/* One sample is "1 sample", in the run's line and in the notes. */
static void test_one_sample(void **st)
{
	struct settle_report rep;
	char *text;

	(void)st;
	make_report(&rep, "c", "t", "quick");
	rep.options.samples = 1;
	for (size_t i = 0; i < rep.nresults; i++) /* the samples counted */
		rep.results[i].nsamples = 1;
	text = render(&rep, "table");
	assert_non_null(strstr(text, "1 sample per variant"));
	assert_non_null(strstr(text, "of 1 sample;"));
	assert_null(strstr(text, "1 samples"));
	free(text);
	settle_report_free(&rep);
}

/* --output without --format: the name's ending chooses, json otherwise;
 * each choice is a format settle run knows. */
static void test_format_for_path(void **st)
{
	static const struct { const char *path, *format; } cases[] = {
		{ "r.md", "md" }, { "out/r.csv", "csv" }, { "r.txt", "text" },
		{ "r.jsonl", "json-lines" }, { "R.MD", "md" },
		{ "r.json", "json" }, { "results", "json" },
		{ "a.md/results", "json" }, { "r.md.json", "json" },
		{ ".csv/r", "json" }, { "r.", "json" },
	};

	(void)st;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *f = settle_format_for_path(cases[i].path);

		assert_string_equal(f, cases[i].format);
		assert_true(settle_format_known(f, 0));
	}
	assert_string_equal(settle_format_for_path(NULL), "json");
}

/* A label or list into len bytes: cut to fit, and nothing written at all
 * when len is 0 (it wrote a '\0' into the byte before). */
static void test_labels_cut(void **st)
{
	static const struct settle_param prm[] = { { .value = "long" } };
	const struct settle_variant v = { .name = "avx2", .build = "-O2",
					  .params = prm, .nparams = 1 };
	char buf[16];

	(void)st;
	assert_string_equal(settle_variant_label(&v, buf, sizeof(buf)),
			    "-O2 long avx2");
	memset(buf, '#', sizeof(buf));
	settle_label("-O2", prm, 1, "avx2", buf + 4, 0);
	settle_variant_label(&v, buf + 4, 0);
	settle_format_names(0, buf + 4, 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], '#');
	settle_label(NULL, NULL, 0, "avx2", NULL, 0); /* nothing to write */
	settle_label("-O2", prm, 1, "avx2", buf, 1);
	assert_string_equal(buf, "");
	assert_int_equal(buf[1], '#');
	settle_label("-O2", prm, 1, "avx2", buf, 5);
	assert_string_equal(buf, "-O2 ");
	settle_format_names(0, buf, 6);
	assert_int_equal(strlen(buf), 5);
	assert_int_equal(buf[7], '#');
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char path[96];

	(void)st;
	snprintf(path, sizeof(path), "%s/gb.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gbad.json", dir);
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_md_tables),
		cmocka_unit_test(test_german_locale),
		cmocka_unit_test(test_gbench_layout),
		cmocka_unit_test(test_load_gbench),
		cmocka_unit_test(test_gbench_roundtrip),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_format_for_path),
		cmocka_unit_test(test_labels_cut),
		cmocka_unit_test(test_conclusion_names_params),
		cmocka_unit_test(test_conclusion_names_params_loaded),
		cmocka_unit_test(test_conclusion_rows_by_time),
		cmocka_unit_test(test_conclusion_too_few),
		cmocka_unit_test(test_conclusion_slowest_tie),
		cmocka_unit_test(test_conclusion_rank_any_order),
		cmocka_unit_test(test_conclusion_ties_counted),
		cmocka_unit_test(test_csv_comment_one_line),
		cmocka_unit_test(test_conclusion_across_groups),
		cmocka_unit_test(test_one_sample),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
