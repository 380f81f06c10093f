/*
 * select.c - which variants and sizes a run measures: --variant by name
 * or label (with the baselines they need), and whether the sizes fit in
 * memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/runner.h"

void settle_options_rigorous(struct settle_options *o)
{
	o->samples = SETTLE_RIGOROUS_SAMPLES;
	o->min_sample_ns = SETTLE_RIGOROUS_MIN_MS * 1e6;
	o->processes = SETTLE_RIGOROUS_PROCESSES;
}

/* Does names[0..k) name v: by name ("we32") or by label ("-O2 we32")? */
static int wanted(const char *const *names, size_t k,
		  const struct settle_variant *v)
{
	char lb[256];

	settle_variant_label(v, lb, sizeof(lb));
	for (size_t i = 0; i < k; i++)
		if (!strcmp(names[i], v->name) || !strcmp(names[i], lb))
			return 1;
	return 0;
}

/* Is v the baseline of a wanted variant of c? */
static int needed_baseline(const char *const *names, size_t k,
			   const struct settle_claim *c,
			   const struct settle_variant *v)
{
	if (!c->baseline || strcmp(v->name, c->baseline) != 0)
		return 0;
	for (size_t j = 0; j < c->nvariants; j++)
		if (wanted(names, k, &c->variants[j]) &&
		    settle_variant_same_group(&c->variants[j], v))
			return 1;
	return 0;
}

static int known(const struct settle_claim *const *claims, size_t n,
		 const char *name)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < claims[i]->nvariants; j++)
			if (wanted(&name, 1, &claims[i]->variants[j]))
				return 1;
	return 0;
}

/* "unknown variant 'x'; popcount has: table8, ...; endian has: ..." */
static void unknown(const struct settle_claim *const *claims, size_t n,
		    const char *name, char *err, size_t errlen)
{
	size_t used = (size_t)snprintf(err, errlen, "unknown variant '%s'",
				       name);
	char lb[128];

	for (size_t i = 0; i < n && used < errlen; i++) {
		used += (size_t)snprintf(err + used, errlen - used, "; %s has:",
					 claims[i]->name);
		for (size_t j = 0; j < claims[i]->nvariants && used < errlen; j++)
			used += (size_t)snprintf(err + used, errlen - used,
				"%s %s", j ? "," : "",
				settle_variant_label(&claims[i]->variants[j],
						     lb, sizeof(lb)));
	}
}

/* What a selection owns. */
struct owned {
	struct settle_claim *copies;
	struct settle_variant **vars;
	size_t n;
};

void settle_selection_free(struct settle_selection *s)
{
	struct owned *o = s->owned;

	for (size_t i = 0; o && i < o->n; i++)
		free(o->vars[i]);
	if (o) {
		free(o->vars);
		free(o->copies);
		free(o);
	}
	free(s->claims);
	free(s->dropped);
	memset(s, 0, sizeof(*s));
}

int settle_select_variants(const struct settle_claim *const *claims,
			   size_t n, const char *const *names, size_t k,
			   struct settle_selection *out, char *err,
			   size_t errlen)
{
	struct owned *o = calloc(1, sizeof(*o));

	memset(out, 0, sizeof(*out));
	out->owned = o;
	out->claims = calloc(n + 1, sizeof(*out->claims));
	out->dropped = calloc(n + 1, sizeof(*out->dropped));
	if (o) {
		o->copies = calloc(n + 1, sizeof(*o->copies));
		o->vars = calloc(n + 1, sizeof(*o->vars));
	}
	if (!o || !out->claims || !out->dropped || !o->copies || !o->vars)
		goto nomem;
	for (size_t i = 0; i < k; i++)
		if (!known(claims, n, names[i])) {
			unknown(claims, n, names[i], err, errlen);
			settle_selection_free(out);
			return -1;
		}
	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = claims[i];
		struct settle_variant *v;
		size_t nv = 0, hits = 0;

		if (k == 0) {
			out->claims[out->nclaims++] = c;
			continue;
		}
		v = calloc(c->nvariants + 1, sizeof(*v));
		if (!v)
			goto nomem;
		o->vars[o->n] = v;
		o->copies[o->n] = *c;
		for (size_t j = 0; j < c->nvariants; j++) {
			int w = wanted(names, k, &c->variants[j]);

			hits += w;
			if (w || needed_baseline(names, k, c, &c->variants[j]))
				v[nv++] = c->variants[j];
		}
		if (!hits) {
			free(v);
			o->vars[o->n] = NULL;
			out->dropped[out->ndropped++] = c->name;
			continue;
		}
		o->copies[o->n].variants = v;
		o->copies[o->n].nvariants = nv;
		out->claims[out->nclaims++] = &o->copies[o->n++];
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	settle_selection_free(out);
	return -1;
}

int settle_check_sizes(const struct settle_claim *const *claims, size_t n,
		       const uint64_t *sizes, size_t nsizes, int full,
		       uint64_t avail, char *err, size_t errlen)
{
	char sz[32], av[32];
	int sized = 0;

	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = claims[i];
		const uint64_t *s = nsizes ? sizes : c->default_sizes;
		size_t ns = nsizes ? nsizes : c->ndefault_sizes;
		size_t nfull = nsizes || !full ? 0 : c->nfull_sizes;
		uint64_t bufs = c->buffers ? c->buffers : 1;

		if (!c->default_sizes)
			continue;
		sized = 1;
		for (size_t k = 0; k < ns + nfull; k++) {
			uint64_t b = k < ns ? s[k] : c->full_sizes[k - ns];

			if (!avail || b <= avail / 10 * 9 / bufs)
				continue;
			snprintf(err, errlen, "size %s does not fit: %s needs "
				 "%llu buffer%s of it and this machine has %s "
				 "of memory available",
				 settle_format_size(b, sz, sizeof(sz)), c->name,
				 (unsigned long long)bufs, bufs > 1 ? "s" : "",
				 settle_format_size(avail & ~((1ull << 20) - 1),
						    av, sizeof(av)));
			return -1;
		}
	}
	if (nsizes && !sized) {
		snprintf(err, errlen, "--size given, but none of the chosen "
			 "claims takes a size");
		return -1;
	}
	return 0;
}
