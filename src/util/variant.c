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

int settle_same_group(const char *build_a, const struct settle_param *pa,
		      size_t na, const char *build_b,
		      const struct settle_param *pb, size_t nb)
{
	if (!same_str(build_a, build_b) || na != nb)
		return 0;
	/* in any order: a file's params are a JSON object */
	for (size_t i = 0; i < na; i++) {
		size_t j = 0;

		while (j < nb && !same_str(pa[i].key, pb[j].key))
			j++;
		if (j == nb || !same_str(pa[i].value, pb[j].value))
			return 0;
	}
	return 1;
}

int settle_variant_same_group(const struct settle_variant *a,
			      const struct settle_variant *b)
{
	return settle_same_group(a->build, a->params, a->nparams, b->build,
				 b->params, b->nparams);
}

char *settle_label(const char *build, const struct settle_param *params,
		   size_t nparams, const char *name, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	if (!len)
		return buf;
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
	if (v->label && *v->label) { /* "": none, as NULL */
		snprintf(buf, len, "%s", v->label);
		return buf;
	}
	return settle_label(v->build, v->params, v->nparams, v->name, buf, len);
}
