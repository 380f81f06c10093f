/*
 * order.c - the order in which one round runs the variants.
 *
 * The rows are those of a Williams design (E. J. Williams, "Experimental
 * designs balanced for the estimation of residual effects of treatments",
 * Australian Journal of Scientific Research A 2 (1949), 149-168): a Latin
 * square whose first row is 0, 1, n-1, 2, n-2, 3, ... and whose row r adds
 * r to each entry, modulo n. Over n rows (n even), or over those n rows
 * and the same rows reversed (n odd, 2n rows), every variant runs once in
 * every position and directly after every other variant equally often.
 * So what one variant leaves behind for the next (lines in the caches, a
 * trained branch predictor, a warmer core) falls on every variant alike.
 * Rounds that only rotate the start (0 1 2, 1 2 0, 2 0 1) run every
 * variant after the same neighbour in every round.
 *
 * The rounds visit the rows in pairs whose positions add up: row r and
 * its reverse (n odd), row r and row r + n/2 (n even), in which a
 * variant's two positions add up to n - 1: after every two rounds from an
 * even one each variant has run as early in a round as late, and the
 * period is still a permutation of the rows. The runner gives each
 * layout a block of rounds (runner.c, visit_rounds()), so the pairs fall
 * within a layout; an odd number of rounds leaves one unpaired. n counts
 * the variants that run: a design over all with the unavailable ones
 * left out is unbalanced (runner.c, those_run()). Row after row, a claim of
 * 300 variants in 5 rounds ran its baseline near the start of each round
 * and others up to half a second later, and drift within the rounds read
 * as differences: 38 of 299 copies of the baseline `slower` on a loaded
 * guest (2026-12-07).
 */
#include "runner/runner.h"

/* The row of the design round k runs, of period rows. */
static size_t row_of(unsigned long k, size_t period)
{
	size_t half = period / 2, r;

	if (period < 2)
		return 0;
	r = (size_t)(k % period);
	return r % 2 ? r / 2 + half : r / 2;
}

/* Variant at position j of row r of the first n rows: the first row is 0,
 * 1, n-1, 2, n-2, ...; row r adds r, modulo n. */
static size_t williams(size_t n, size_t r, size_t j)
{
	size_t w;

	if (j == 0)
		w = 0;
	else if (j % 2)
		w = (j + 1) / 2;
	else
		w = n - j / 2;
	return (w + r) % n;
}

size_t settle_round_order(size_t n, unsigned long k, size_t j)
{
	size_t period = n % 2 ? 2 * n : n, r;

	if (n < 2 || j >= n)
		return 0;
	r = row_of(k, period);
	if (r >= n) /* n odd: the second n rows, reversed */
		return williams(n, r - n, n - 1 - j);
	return williams(n, r, j);
}
