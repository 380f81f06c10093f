/*
 * segprefix.h - what the segprefix claim shares between its x86-64
 * measurement (src/arch/x86/claims/segprefix.c) and the stub the other
 * architectures list (src/arch/generic/claims/segprefix.c).
 */
#ifndef SETTLE_SEGPREFIX_H
#define SETTLE_SEGPREFIX_H

#include <stddef.h>

#include "settle.h"

/*
 * The claim's conclusion (settle_claim.conclude): the extra cost of one
 * dependent load through %fs: over a plain one, in ns and, where the core
 * clock is known, core cycles, and what one more per system call adds to
 * 10 M of them (claims/segprefix_conclude.c). Returns 1 with *out filled,
 * or 0 when res[0..n) lacks plain-dep or a compared fs-dep.
 */
int settle_segprefix_conclude(const struct settle_result *res, size_t n,
			      const struct settle_conclude_ctx *ctx,
			      struct settle_conclusion *out);

#endif
