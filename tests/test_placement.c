/*
 * test_placement.c - layouts (docs/layouts.md), without timing:
 *   - settle_alloc keeps the declared alignment in every layout, starts a
 *     page in layout 0, puts buffers of other layouts at whole cache
 *     lines into a page and at other page colours, each buffer of one
 *     set-up at its own place, and settle_free frees them (ASan run);
 *   - the stack and code offsets: multiples of 16 under 4 KiB, every
 *     16-byte slot of a cache line in any 4 consecutive layouts;
 *   - the F distribution against published table values;
 *   - the analysis of a result measured in layouts (exact samples): the
 *     spread, the test, a verdict on the mean over the layouts (balanced
 *     rounds in one process, one estimate per process with several),
 *     "unclear (layout-sensitive)", and no flag for a row that does not
 *     move;
 *   - a process's estimate against its baseline is the mean over the
 *     layouts of each layout's median ratio: 4 of a layout's 10 rounds
 *     30 % off (a placement that did not keep its speed for part of a
 *     visit) do not move it, where a Hodges-Lehmann estimate would; a
 *     process's level (compare's unit) is the mean of the layouts' log
 *     medians;
 *   - whether a block-by-layout table of log ratios moves with the layout
 *     (settle_table_moves(): the two-way analysis of variance by hand),
 *     and whether every layout says a verdict (settle_layouts_agree()).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/model.h"
#include "settle.h"
#include "stats/nonparam.h"
#include "util/placement.h"

static void test_alloc_alignment(void **st)
{
	static const size_t aligns[] = { 1, 16, 64, 128, 4096, 8192 };
	struct settle_params p = { .cpu = -1 };

	(void)st;
	for (unsigned k = 0; k < 16; k++) {
		p.layout = k;
		settle_layout_begin();
		for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
			size_t al = aligns[a] < 16 ? 16 : aligns[a];
			unsigned char *b = settle_alloc(&p, 1000, aligns[a]);

			assert_non_null(b);
			assert_int_equal((uintptr_t)b % al, 0);
			if (k == 0)
				assert_int_equal((uintptr_t)b % 4096, 0);
			else if (al <= 64)
				assert_int_equal((uintptr_t)b % 64, 0);
			memset(b, 0xa5, 1000); /* the whole buffer is ours */
			settle_free(b);
		}
	}
	settle_free(NULL);
	errno = 0;
	assert_null(settle_alloc(&p, 64, 48));
	assert_int_equal(errno, EINVAL);
	/* below 16 means 16, but only for 0 and powers of two */
	for (size_t bad = 3; bad < 16; bad += 2) {
		errno = 0;
		assert_null(settle_alloc(&p, 64, bad));
		assert_int_equal(errno, EINVAL);
	}
	errno = 0;
	assert_null(settle_alloc(&p, 64, (size_t)1 << 31));
	assert_int_equal(errno, EINVAL);
	{
		unsigned char *z = settle_alloc(&p, 64, 0);

		assert_non_null(z);
		assert_int_equal((uintptr_t)z % 16, 0);
		settle_free(z);
	}
	assert_null(settle_alloc(&p, SIZE_MAX - 100, 64));
}

static void test_alloc_places(void **st)
{
	struct settle_params p = { .cpu = -1 };
	unsigned lines[64] = { 0 }, differ = 0, colours = 0;
	size_t prev = 0;

	(void)st;
	for (unsigned k = 1; k < 33; k++) {
		size_t a = settle_layout_data_offset(k, 0, 64);
		size_t b = settle_layout_data_offset(k, 1, 64);

		assert_int_equal(a % 64, 0);
		assert_true(a < 16 * 4096);
		lines[a % 4096 / 64]++;
		differ += a != b;
		colours += a / 4096 != prev / 4096;
		prev = a;
	}
	for (unsigned l = 0, used = 0; l < 64; l++) {
		used += lines[l] != 0;
		if (l == 63)
			assert_true(used >= 16); /* many lines of a page */
	}
	assert_true(differ >= 30); /* two buffers: two places */
	assert_true(colours >= 16);
	assert_int_equal(settle_layout_data_offset(0, 5, 64), 0);
	assert_int_equal(settle_layout_data_offset(3, 0, 4096) % 4096, 0);
	/* the same set-up in the same layout: the same places */
	p.layout = 7;
	settle_layout_begin();
	unsigned char *x = settle_alloc(&p, 100, 64);
	settle_layout_begin();
	unsigned char *y = settle_alloc(&p, 100, 64);
	assert_int_equal((uintptr_t)x % 4096, (uintptr_t)y % 4096);
	settle_free(x);
	settle_free(y);
}

static void test_code_and_stack(void **st)
{
	(void)st;
	for (unsigned k = 0; k < 64; k++) {
		size_t c = SETTLE_LAYOUT_CODE_PAD(k), s = settle_layout_stack(k);

		assert_int_equal(c % 16, 0);
		assert_true(c < 4096);
		assert_int_equal(s % 16, 0);
		assert_true(s < 4096);
		assert_int_equal(SETTLE_LAYOUT_DATA_PAD(k) % 64, 0);
		if (k % 4 == 0) { /* 4 consecutive layouts: 4 slots */
			unsigned seen = 0;

			for (unsigned j = k; j < k + 4; j++)
				seen |= 1u << (SETTLE_LAYOUT_CODE_PAD(j) % 64 / 16);
			assert_int_equal(seen, 0xf);
		}
	}
	assert_int_equal(SETTLE_LAYOUT_CODE_PAD(0), 0);
	assert_int_equal(settle_layout_stack(0), 0);
}

/* Upper 1 % and 5 % points of F from published tables (e.g. NIST/SEMATECH
 * e-Handbook of Statistical Methods, 1.3.6.7.3). */
static void test_f_distribution(void **st)
{
	(void)st;
	assert_true(fabs(settle_f_sf(29.457, 3, 3) - 0.01) < 2e-4);
	assert_true(fabs(settle_f_sf(161.448, 1, 1) - 0.05) < 2e-4);
	assert_true(fabs(settle_f_sf(2.922, 3, 30) - 0.05) < 5e-4);
	assert_true(fabs(settle_f_sf(4.510, 3, 30) - 0.01) < 2e-4);
	assert_true(fabs(settle_f_sf(3.098, 3, 20) - 0.05) < 5e-4);
	assert_true(fabs(settle_f_sf(4.938, 3, 20) - 0.01) < 2e-4);
	assert_true(fabs(settle_f_sf(1, 10, 10) - 0.5) < 1e-9);
	assert_true(settle_f_sf(0, 3, 3) == 1);
	assert_true(settle_f_sf(1e12, 3, 3) < 1e-12);
	assert_true(isnan(settle_f_sf(1, 0, 3)));
}

/* A report of claim "t": baseline "a" flat, "b" by layout (moves 1:
 * x0.9, 1.0, 1.1, 1.0 in layouts 0-3; 2: x1.04 in layout 2 only; 0:
 * flat), nproc processes, each 0 1 2 3 3 2 1 0 with per samples per
 * visit. */
static void layout_report(struct settle_report *rep, unsigned nproc,
			  int moves, unsigned per)
{
	static const double f[4] = { 0.9, 1.0, 1.1, 1.0 };
	static const double g[4] = { 1.0, 1.0, 1.04, 1.0 };
	struct settle_claim_info c = { .name = "t", .baseline = "a" };
	const struct settle_claim_info *ci;
	unsigned n = nproc * 8 * per, j = 0;
	double xa[512], xb[512];
	unsigned char l[512];

	assert_int_equal(settle_report_open(rep), 0);
	rep->options.processes = nproc;
	rep->options.samples = n;
	rep->options.band = 0.01;
	ci = settle_report_claim(rep, &c);
	for (unsigned q = 0; q < nproc; q++)
		for (unsigned v = 0; v < 8; v++)
			for (unsigned s = 0; s < per; s++, j++) {
				unsigned lay = v < 4 ? v : 7 - v;
				double jitter = 1 + 0.003 * ((j * 7) % 5) +
						0.002 * q;

				l[j] = (unsigned char)lay;
				xa[j] = 100 * jitter;
				xb[j] = 100 * jitter * (moves == 1 ? f[lay] :
					moves == 2 ? g[lay] * (1 + 0.003 *
					(double)((j * 3) % 5) - 0.006) : 1.0);
			}
	assert_non_null(settle_report_append(rep, ci, "a", NULL, NULL, 0, NULL,
					     0, 0));
	assert_non_null(settle_report_append(rep, ci, "b", NULL, NULL, 0, NULL,
					     0, 0));
	assert_int_equal(settle_result_add_samples(&rep->results[0], xa, l, n), 0);
	assert_int_equal(settle_result_add_samples(&rep->results[1], xb, l, n), 0);
	settle_report_analyze(rep, 0, rep->nresults);
}

static void test_layout_analysis(void **st)
{
	struct settle_report rep;
	const struct settle_result *a, *b;

	(void)st;
	/* one process: balanced rounds (every layout once) as the unit;
	 * b moves with the layout, a does not; b's mean over the layouts is
	 * a's */
	layout_report(&rep, 1, 1, 3);
	a = &rep.results[0];
	b = &rep.results[1];
	assert_int_equal(a->nlayouts, 4);
	assert_true(fabs(b->layout_spread - 0.2) < 0.01);
	assert_true(b->layout_p < 0.01);
	assert_true(b->layout_sensitive);
	assert_false(a->layout_sensitive);
	assert_true(a->layout_spread < 0.02);
	assert_int_equal(b->cmp.verdict, SETTLE_SAME);
	assert_true(fabs(b->cmp.ratio - 0.9972) < 0.002); /* the layouts' mean */
	assert_int_equal(b->cmp.n, 6); /* 6 rounds in each layout */
	settle_report_free(&rep);
	/* with 4 % more work in one layout only (and noise), the mean is
	 * 1 % slower and the interval straddles the band's edge: unclear,
	 * and the reason names the layouts */
	layout_report(&rep, 1, 2, 3);
	b = &rep.results[1];
	assert_true(b->layout_sensitive);
	assert_int_equal(b->cmp.verdict, SETTLE_UNCLEAR);
	assert_string_equal(b->cmp.why, "layout-sensitive");
	assert_true(fabs(b->cmp.layout_spread - b->layout_spread) < 1e-12);
	settle_report_free(&rep);
	/* three processes: one estimate each, the mean over its layouts */
	layout_report(&rep, 3, 1, 2);
	b = &rep.results[1];
	assert_true(b->layout_sensitive);
	assert_int_equal(b->cmp.n, 3);
	assert_int_equal(b->cmp.verdict, SETTLE_SAME);
	settle_report_free(&rep);
	/* nothing moves: same, and no flag */
	layout_report(&rep, 3, 0, 2);
	assert_false(rep.results[1].layout_sensitive);
	assert_int_equal(rep.results[1].cmp.verdict, SETTLE_SAME);
	settle_report_free(&rep);
}

/* One process, 4 layouts x 10 rounds: a flat, b = a x f[layout]; in
 * layout 2, rounds 0-3 of b are 30 % slower (flipped). */
static void test_process_estimate(void **st)
{
	static const double f[4] = { 1.0, 2.0, 1.0, 0.5 };
	struct settle_claim_info c = { .name = "t", .baseline = "a" };
	const struct settle_claim_info *ci;
	struct settle_report rep;
	double xa[40], xb[40], e, level, want = 0;
	unsigned char l[40];

	(void)st;
	assert_int_equal(settle_report_open(&rep), 0);
	rep.options.samples = 40;
	rep.options.band = 0.01;
	ci = settle_report_claim(&rep, &c);
	for (unsigned j = 0; j < 40; j++) {
		unsigned lay = j / 10, k = j % 10;
		double jitter = 1 + 0.001 * (double)((j * 7) % 5);

		l[j] = (unsigned char)lay;
		xa[j] = 100 * jitter;
		xb[j] = 100 * jitter * f[lay] * (lay == 2 && k < 4 ? 1.3 : 1);
	}
	/* each layout's median time: the jitter runs 1.000-1.004 twice, so
	 * the middle one, 1.002; in layout 2 the flipped rounds are the 4
	 * largest, and the middle two of its 10 are 1.003 and 1.004 */
	for (unsigned lay = 0; lay < 4; lay++)
		want += log(100 * f[lay] * (lay == 2 ? 1.0035 : 1.002)) / 4;
	assert_non_null(settle_report_append(&rep, ci, "a", NULL, NULL, 0,
					     NULL, 0, 0));
	assert_non_null(settle_report_append(&rep, ci, "b", NULL, NULL, 0,
					     NULL, 0, 0));
	assert_int_equal(settle_result_add_samples(&rep.results[0], xa, l, 40),
			 0);
	assert_int_equal(settle_result_add_samples(&rep.results[1], xb, l, 40),
			 0);
	/* b / a is exactly f in every unflipped round: log(2) + log(0.5)
	 * cancel, and the flipped rounds of layout 2 leave its median 1 */
	assert_int_equal(settle_process_estimate(&rep.results[0],
						 &rep.results[1], 0, 40, &e), 0);
	assert_true(fabs(e) < 1e-9);
	/* the level: the mean of the layouts' log median times */
	assert_int_equal(settle_layout_level(&rep.results[1], 0, 40, &level),
			 0);
	assert_true(fabs(level - want) < 1e-6); /* the times as stored */
	/* a range with no samples of any layout has no level */
	assert_int_equal(settle_layout_level(&rep.results[1], 0, 0, &level),
			 -1);
	settle_report_free(&rep);
}

/*
 * Three blocks by four layouts. By hand (scipy.stats.f for p): layout
 * means .01 .11 .01 .01, residual sum of squares 4e-4 on 6 degrees of
 * freedom, F = 112.5, p = 1.16e-5: it moves (spread 10.5 % > 2 %). The
 * second table's layouts differ by noise (F = 0.093, p = 0.96): it does
 * not. The same move of 0.5 % in every block (no residual) is beyond
 * the noise but within twice the band: it does not; of 5 % it does. One
 * block: no test.
 */
static void test_table_moves(void **st)
{
	static const double moves[] = {
		0.00, 0.10, 0.00, 0.00,
		0.01, 0.12, 0.01, 0.00,
		0.02, 0.11, 0.02, 0.03,
	};
	static const double noise[] = {
		0.00, 0.01, 0.00, 0.02,
		0.01, 0.00, 0.02, 0.00,
		0.02, 0.01, 0.00, 0.01,
	};
	double small[12], big[12], m[4], ss, df;

	(void)st;
	assert_true(settle_table_moves(moves, 3, 4, 0.01, m, &ss, &df));
	assert_float_equal(m[0], 0.01, 1e-12);
	assert_float_equal(m[1], 0.11, 1e-12);
	assert_float_equal(ss, 4e-4, 1e-12);
	assert_float_equal(df, 6, 0);
	assert_false(settle_table_moves(noise, 3, 4, 0.01, m, &ss, &df));
	assert_float_equal(ss, 0.0007166666666666667, 1e-12);
	for (int k = 0; k < 12; k++) {
		small[k] = k % 4 == 1 ? log(1.005) : 0;
		big[k] = k % 4 == 1 ? log(1.05) : 0;
	}
	assert_false(settle_table_moves(small, 3, 4, 0.01, m, NULL, NULL));
	assert_true(settle_table_moves(big, 3, 4, 0.01, m, NULL, NULL));
	assert_false(settle_table_moves(moves, 1, 4, 0.01, m, &ss, &df));
	assert_float_equal(df, 0, 0);
	/* every layout's ratio, 1 % band: faster below 1/1.01, slower
	 * above 1.01, never same */
	assert_true(settle_layouts_agree(SETTLE_FASTER, 0.5, 0.98, 0.01));
	assert_false(settle_layouts_agree(SETTLE_FASTER, 0.5, 0.995, 0.01));
	assert_true(settle_layouts_agree(SETTLE_SLOWER, 1.02, 1.5, 0.01));
	assert_false(settle_layouts_agree(SETTLE_SLOWER, 1.005, 1.5, 0.01));
	assert_false(settle_layouts_agree(SETTLE_SAME, 1, 1, 0.01));
	/* a wide band: 0.75 is below 1/1.3, so faster (1 - 0.3 said not) */
	assert_true(settle_layouts_agree(SETTLE_FASTER, 0.375, 0.75, 0.3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_alignment),
		cmocka_unit_test(test_alloc_places),
		cmocka_unit_test(test_code_and_stack),
		cmocka_unit_test(test_f_distribution),
		cmocka_unit_test(test_layout_analysis),
		cmocka_unit_test(test_process_estimate),
		cmocka_unit_test(test_table_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
