/*
 * order.c - the order in which one round runs the variants.
 *
 * Round k runs row k of a Williams design (E. J. Williams, "Experimental
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
 */
#include "runner/runner.h"

size_t settle_round_order(size_t n, unsigned long k, size_t j)
{
	size_t period = n % 2 ? 2 * n : n, r, w;

	if (n < 2 || j >= n)
		return 0;
	r = (size_t)(k % period);
	if (r >= n) { /* n odd: the second n rows, reversed */
		r -= n;
		j = n - 1 - j;
	}
	if (j == 0)
		w = 0;
	else if (j % 2)
		w = (j + 1) / 2;
	else
		w = n - j / 2;
	return (w + r) % n;
}
