/* variant.c - a variant's identity: its build and parameters. */
#include <stdio.h>
#include <string.h>

#include "settle.h"

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

int settle_variant_same_group(const struct settle_variant *a,
			      const struct settle_variant *b)
{
	if (!same_str(a->build, b->build) || a->nparams != b->nparams)
		return 0;
	for (size_t i = 0; i < a->nparams; i++)
		if (!same_str(a->params[i].key, b->params[i].key) ||
		    !same_str(a->params[i].value, b->params[i].value))
			return 0;
	return 1;
}

char *settle_label(const char *build, const struct settle_param *params,
		   size_t nparams, const char *name, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	if (build && (k = snprintf(buf, len, "%s ", build)) > 0)
		used = (size_t)k < len ? (size_t)k : len - 1;
	for (size_t i = 0; i < nparams && used < len; i++) {
		const struct settle_param *p = &params[i];

		k = snprintf(buf + used, len - used, "%s ",
			     p->label ? p->label : p->value);
		if (k > 0)
			used += (size_t)k < len - used ? (size_t)k : len - used - 1;
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s", name);
	return buf;
}

char *settle_variant_label(const struct settle_variant *v, char *buf,
			   size_t len)
{
	if (v->label) {
		snprintf(buf, len, "%s", v->label);
		return buf;
	}
	return settle_label(v->build, v->params, v->nparams, v->name, buf, len);
}
