/*
 * bswap_rules.h - the byte-swap copy rules the tests inject (struct
 * settle_bswap_copy_rule, src/prim/bswap_kernels.h), with sizes small
 * enough for their lengths to cross, and cmocka group set-ups that
 * install them and go back to this machine's rule.
 *   - rule_19h, AMD family 19h's shape: the SSSE3 kernel from 24 KiB,
 *     AVX-512 copies at a 4K-aliasing distance from the end, AVX-512
 *     swaps in place of 12 to 32 KiB with the AVX2 loop;
 *   - rule_other, every other CPU's shape: the AVX2 kernel from 24 KiB,
 *     the SSSE3 kernel from 48 KiB, no backward copy.
 */
#ifndef SETTLE_TESTS_BSWAP_RULES_H
#define SETTLE_TESTS_BSWAP_RULES_H

#include "prim/bswap_kernels.h"

static const struct settle_bswap_copy_rule rule_19h = {
	.zmm_end = 24 << 10, .narrow_from = 24 << 10, .backward = 1,
	.ymm_inplace_to = 32 << 10,
};
static const struct settle_bswap_copy_rule rule_other = {
	.zmm_end = 24 << 10, .narrow_from = 48 << 10, .backward = 0,
};

static inline int use_rule_19h(void **state)
{
	(void)state;
	settle_bswap_set_copy_rule(&rule_19h);
	return 0;
}

static inline int use_rule_other(void **state)
{
	(void)state;
	settle_bswap_set_copy_rule(&rule_other);
	return 0;
}

static inline int use_this_rule(void **state)
{
	(void)state;
	settle_bswap_set_copy_rule(NULL);
	return 0;
}

/* The cmocka group (an array of struct CMUnitTest) run under each rule
 * in turn; nonzero when a test failed under either. */
#define RUN_UNDER_BOTH_RULES(group)					\
	(cmocka_run_group_tests_name("AMD family 19h copy rule", group,	\
				     use_rule_19h, use_this_rule) |	\
	 cmocka_run_group_tests_name("other CPUs' copy rule", group,	\
				     use_rule_other, use_this_rule))
#endif
