/* registry.c - the list of built-in claims; see claims.h. */
#include <string.h>

#include "claims.h"

static const struct settle_claim *const all[] = {
	&settle_claim_popcount,
	&settle_claim_endian,
	&settle_claim_syscall,
	&settle_claim_segprefix,
	&settle_claim_bswap,
};

const struct settle_claim *const *settle_claims(size_t *n)
{
	*n = sizeof(all) / sizeof(all[0]);
	return all;
}

const struct settle_claim *settle_claim_find(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

/* What `settle run` measures when no claim is named: the founding
 * experiments. */
static const struct settle_claim *const founding[] = {
	&settle_claim_popcount,
	&settle_claim_endian,
	&settle_claim_syscall,
	&settle_claim_segprefix,
};

const struct settle_claim *const *settle_default_claims(size_t *n)
{
	*n = sizeof(founding) / sizeof(founding[0]);
	return founding;
}
