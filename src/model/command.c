/*
 * command.c (model) - the record of a whole command's runs that a result
 * owns (see model/command.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command.h"

struct settle_command_data *settle_command_data_new(const char *shell,
						    const char *prepare)
{
	struct settle_command_data *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->shell = strdup(shell ? shell : "");
	d->prepare = prepare ? strdup(prepare) : NULL;
	if (!d->shell || (prepare && !d->prepare)) {
		settle_command_data_free(d);
		return NULL;
	}
	return d;
}

void settle_share_count_add(struct settle_share_count *s, uint64_t self,
			    uint64_t children, uint64_t impl,
			    const char *impl_name, const char *no_debug)
{
	s->self += self;
	s->children += children;
	s->impl += impl;
	if (!s->impl_name[0])
		snprintf(s->impl_name, sizeof(s->impl_name), "%s", impl_name);
	if (!s->no_debug[0])
		snprintf(s->no_debug, sizeof(s->no_debug), "%s", no_debug);
}

long settle_command_data_add_symbol(struct settle_command_data *d,
				    const char *symbol)
{
	char *s;

	if (d->nshare == SETTLE_SHARE_MAX || !(s = strdup(symbol)))
		return -1;
	d->share[d->nshare].symbol = s;
	d->share[d->nshare].self = d->share[d->nshare].children = 0;
	d->share[d->nshare].impl = 0;
	d->share[d->nshare].impl_name[0] = '\0';
	d->share[d->nshare].no_debug[0] = '\0';
	return (long)d->nshare++;
}

void settle_command_data_free(struct settle_command_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nshare; i++)
		free(d->share[i].symbol);
	free(d->shell);
	free(d->prepare);
	free(d->user_ns);
	free(d->sys_ns);
	free(d);
}

int settle_command_data_reserve(struct settle_command_data *d, size_t more)
{
	double *u = realloc(d->user_ns, (d->n + more + 1) * sizeof(*u));

	if (!u)
		return -1;
	d->user_ns = u;
	u = realloc(d->sys_ns, (d->n + more + 1) * sizeof(*u));
	if (!u)
		return -1;
	d->sys_ns = u;
	return 0;
}

/* Profiles whose counts add up: the same event, chains and symbols. The
 * period may differ (each of --processes chooses its own from its runs'
 * CPU time, steps of 100 us): a share is a count over the samples, each
 * a point in the CPU time, whatever their spacing. */
static int same_profile(const struct settle_command_data *a,
			const struct settle_command_data *b)
{
	if (strcmp(a->event, b->event) ||
	    a->call_chains != b->call_chains || a->nshare != b->nshare)
		return 0;
	for (size_t i = 0; i < a->nshare; i++)
		if (strcmp(a->share[i].symbol, b->share[i].symbol))
			return 0;
	return 1;
}

int settle_command_data_pool(struct settle_command_data *dst,
			     const struct settle_command_data *src)
{
	if (src->event[0] && dst->event[0] && !same_profile(dst, src))
		return -1;
	if (settle_command_data_reserve(dst, src->n) < 0)
		return -1;
	memcpy(dst->user_ns + dst->n, src->user_ns, src->n * sizeof(double));
	memcpy(dst->sys_ns + dst->n, src->sys_ns, src->n * sizeof(double));
	dst->n += src->n;
	dst->failed += src->failed;
	dst->failed_untimed += src->failed_untimed;
	dst->escaped += src->escaped;
	if (!src->event[0])
		return 0;
	if (!dst->event[0]) {
		memcpy(dst->event, src->event, sizeof(dst->event));
		dst->period_ns = src->period_ns;
		dst->call_chains = src->call_chains;
		dst->counted = src->counted;
		for (size_t i = 0; i < src->nshare; i++)
			if (settle_command_data_add_symbol(dst,
					src->share[i].symbol) < 0)
				return -1;
	}
	dst->counted &= src->counted; /* pooled with a file without them */
	if (src->period_ns > dst->period_ns)
		dst->period_ns = src->period_ns; /* "one sample per" at most */
	dst->profiled_runs += src->profiled_runs;
	dst->profiled_again += src->profiled_again;
	dst->samples += src->samples;
	dst->any += src->any;
	dst->cut += src->cut;
	dst->unnamed += src->unnamed;
	if (src->busy_threads > dst->busy_threads)
		dst->busy_threads = src->busy_threads;
	for (size_t i = 0; i < src->nshare; i++) {
		const struct settle_share_count *s = &src->share[i];

		settle_share_count_add(&dst->share[i], s->self, s->children,
				       s->impl, s->impl_name, s->no_debug);
	}
	return 0;
}

