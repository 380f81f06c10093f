/*
 * claims.h - the built-in claims (the founding experiments).
 *
 * Each claims/<name>.c defines one `const struct settle_claim
 * settle_claim_<name>`; registry.c lists them in the order `settle list`
 * and the default `settle run` use.
 */
#ifndef SETTLE_CLAIMS_H
#define SETTLE_CLAIMS_H

#include <stddef.h>
#include "settle.h"

extern const struct settle_claim settle_claim_popcount;
extern const struct settle_claim settle_claim_endian;
extern const struct settle_claim settle_claim_syscall;
extern const struct settle_claim settle_claim_segprefix;
extern const struct settle_claim settle_claim_bswap;

/* Every built-in claim, in display order; *n receives the count. */
const struct settle_claim *const *settle_claims(size_t *n);

/* The claims `settle run` measures when none is named (the founding
 * experiments); *n receives the count. */
const struct settle_claim *const *settle_default_claims(size_t *n);

/* The claim called name, or NULL. */
const struct settle_claim *settle_claim_find(const char *name);

#endif
