/*
 * load.c - read a result file back (jansson, a strict RFC 8259 parser) into
 * the result model, so that `settle show` and `settle compare` work from
 * the samples, not from a stored summary. Google Benchmark JSON files
 * (--benchmark_format=json) are read too: their repetitions become samples.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "settle.h"

/* Every allocation of a loaded report, freed together. */
struct arena {
	void **p;
	size_t n, cap;
};

static void *keep(struct arena *a, void *p)
{
	if (!p)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		void **np = realloc(a->p, cap * sizeof(*np));

		if (!np) {
			free(p);
			return NULL;
		}
		a->p = np;
		a->cap = cap;
	}
	a->p[a->n++] = p;
	return p;
}

void settle_arena_free(void *owned)
{
	struct arena *a = owned;

	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->p[i]);
	free(a->p);
	free(a);
}

struct loader {
	struct arena *a;
	const char *path;
	char *err;
	size_t errlen;
};

static int fail(struct loader *l, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(l->err, l->errlen, "%s: ", l->path);

	va_start(ap, fmt);
	if (k > 0 && (size_t)k < l->errlen)
		vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *str(struct loader *l, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? keep(l->a, strdup(json_string_value(v))) : NULL;
}

/*
 * A number of the file's metadata: a count, a rate, a time. Values that
 * no settle run writes (negative, not finite, beyond 1e12) read as 0, so
 * that a doctored file cannot make a report print nonsense.
 */
static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;

	return isfinite(d) && d >= 0 && d <= 1e12 ? d : 0;
}

/* A sample in ns: 0 (no time), or from 1e-6 ns to about 11 days. */
static int is_time(json_t *s)
{
	double d = json_is_number(s) ? json_number_value(s) : -1;

	return d == 0 || (d >= 1e-6 && d <= 1e15);
}

static void copy(char *dst, size_t len, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static void load_machine(struct loader *l, struct settle_report *rep,
			 json_t *doc)
{
	struct settle_machine *m = &rep->machine;
	json_t *jm = json_object_get(doc, "machine");
	json_t *t = json_object_get(doc, "timer"), *v;
	size_t i;

	copy(m->vendor, sizeof(m->vendor), jm, "vendor");
	copy(m->model_name, sizeof(m->model_name), jm, "model_name");
	m->family = (unsigned)num(jm, "family");
	m->model = (unsigned)num(jm, "model");
	m->stepping = (unsigned)num(jm, "stepping");
	json_array_foreach(json_object_get(jm, "isa"), i, v) {
		if (!json_is_string(v))
			continue;
		if (m->isa[0])
			strncat(m->isa, " ", sizeof(m->isa) - strlen(m->isa) - 1);
		strncat(m->isa, json_string_value(v),
			sizeof(m->isa) - strlen(m->isa) - 1);
	}
	json_array_foreach(json_object_get(jm, "caches"), i, v) {
		struct settle_cache *c = &m->caches[m->ncaches];

		if (m->ncaches == SETTLE_MAX_CACHES)
			break;
		c->level = (int)num(v, "level");
		copy(c->type, sizeof(c->type), v, "type");
		c->size_bytes = (uint64_t)num(v, "size_bytes");
		m->ncaches++;
	}
	m->logical_cpus = (long)num(jm, "logical_cpus");
	copy(m->kernel, sizeof(m->kernel), jm, "kernel");
	m->hypervisor = json_is_true(json_object_get(jm, "hypervisor"));
	copy(m->hypervisor_vendor, sizeof(m->hypervisor_vendor), jm,
	     "hypervisor_vendor");
	copy(m->emulator, sizeof(m->emulator), jm, "emulator");
	copy(m->seccomp, sizeof(m->seccomp), jm, "seccomp");
	copy(m->mitigations, sizeof(m->mitigations), jm, "mitigations");
	m->mem_available = (uint64_t)num(jm, "mem_available_bytes");
	copy(m->popcount_impl, sizeof(m->popcount_impl),
	     json_object_get(jm, "primitives"), "popcount");
	copy(m->bswap_impl, sizeof(m->bswap_impl),
	     json_object_get(jm, "primitives"), "bswap");
	rep->timer.tsc_ghz = num(jm, "tsc_ghz");
	rep->timer.core_ghz = num(jm, "core_ghz_estimate");
	v = json_object_get(t, "clock");
	rep->timer.clock = settle_clock_parse(json_is_string(v) ?
					      json_string_value(v) : NULL);
	rep->timer.why = str(l, t, "why");
	if (!rep->timer.why)
		rep->timer.why = "unknown";
	rep->timer.overhead_ns = num(t, "overhead_ns");
	rep->timer.resolution_ns = num(t, "resolution_ns");
}

static void load_noise(struct settle_report *rep, json_t *doc)
{
	json_t *j = json_object_get(doc, "noise");
	struct settle_noise *n = &rep->noise;

	n->loadavg = num(j, "loadavg");
	n->steal_pct = num(j, "steal_pct");
	n->nvcsw = (long)num(j, "voluntary_switches");
	n->nivcsw = (long)num(j, "involuntary_switches");
	n->migrations = (long)num(j, "migrations");
	copy(n->governor, sizeof(n->governor), j, "frequency_governor");
	n->core_ghz_before = num(j, "core_ghz_before");
	n->core_ghz_after = num(j, "core_ghz_after");
	n->drift_pct = num(j, "core_clock_drift_pct");
}

static void load_settings(struct settle_report *rep, json_t *doc)
{
	json_t *b = json_object_get(doc, "build");
	json_t *s = json_object_get(doc, "settings");
	struct settle_options *o = &rep->options;

	copy(rep->compiler, sizeof(rep->compiler), b, "compiler");
	copy(rep->build_flags, sizeof(rep->build_flags), b, "flags");
	o->samples = (unsigned)num(s, "samples");
	o->min_sample_ns = num(s, "min_sample_ns");
	o->cpu = rep->cpu = (int)num(s, "cpu");
	o->quick = json_is_true(json_object_get(s, "quick"));
	o->full = json_is_true(json_object_get(s, "full"));
	o->device_mbps = num(s, "device_mbps");
	o->processes = (unsigned)num(s, "processes");
}

/* The claim called name, built from doc's "claims" once and reused. */
static const struct settle_claim *claim_of(struct loader *l, json_t *doc,
					   const char *name,
					   struct settle_report *rep)
{
	json_t *c = json_object_get(json_object_get(doc, "claims"), name), *b;
	struct settle_claim *k;

	for (size_t i = 0; i < rep->nresults; i++)
		if (strcmp(rep->results[i].claim->name, name) == 0)
			return rep->results[i].claim;
	if (!json_is_object(c) || !json_is_string(json_object_get(c, "baseline")))
		return NULL;
	k = keep(l->a, calloc(1, sizeof(*k)));
	if (!k)
		return NULL;
	k->name = keep(l->a, strdup(name));
	k->description = str(l, c, "description");
	k->title = str(l, c, "title");
	k->op_name = str(l, c, "op_name");
	k->baseline = str(l, c, "baseline");
	k->original = str(l, c, "original");
	k->show_cycles = json_is_true(json_object_get(c, "show_cycles"));
	b = json_object_get(c, "bytes_per_op");
	k->bytes_per_op = json_is_string(b) ? SETTLE_BYTES_SIZE :
			  (uint64_t)json_integer_value(b);
	if (json_is_true(json_object_get(c, "sizes"))) {
		static const uint64_t any[1] = { 0 };

		k->default_sizes = any; /* marks "takes a size" */
		k->ndefault_sizes = 1;
	}
	return k->name && k->baseline ? k : NULL;
}

static int load_params(struct loader *l, json_t *params,
		       struct settle_variant *v, uint64_t *size)
{
	struct settle_param *p;
	const char *key;
	json_t *val;
	size_t n = 0;

	p = keep(l->a, calloc(json_object_size(params) + 1, sizeof(*p)));
	if (!p)
		return -1;
	json_object_foreach(params, key, val) {
		if (strcmp(key, "size_bytes") == 0) {
			*size = (uint64_t)json_integer_value(val);
		} else if (strcmp(key, "build") == 0 && json_is_string(val)) {
			v->build = keep(l->a, strdup(json_string_value(val)));
		} else {
			char *txt = json_dumps(val, JSON_ENCODE_ANY);

			p[n].key = keep(l->a, strdup(key));
			p[n].value = keep(l->a, json_is_string(val) ?
				strdup(json_string_value(val)) : txt);
			if (json_is_string(val))
				free(txt);
			p[n].type = json_is_string(val) ? SETTLE_PARAM_STRING :
				    json_is_boolean(val) ? SETTLE_PARAM_BOOL :
				    SETTLE_PARAM_INT;
			n++;
		}
	}
	v->params = p;
	v->nparams = n;
	return 0;
}

static int load_figures(struct loader *l, json_t *arr, struct settle_result *r)
{
	size_t i, n = json_array_size(arr);
	json_t *f;

	if (n == 0)
		return 0;
	r->figures = calloc(n, sizeof(*r->figures));
	if (!r->figures)
		return -1;
	json_array_foreach(arr, i, f) {
		copy(r->figures[i].label, sizeof(r->figures[i].label), f, "label");
		copy(r->figures[i].unit, sizeof(r->figures[i].unit), f, "unit");
		copy(r->figures[i].note, sizeof(r->figures[i].note), f, "note");
		r->figures[i].value = num(f, "value");
	}
	r->nfigures = n;
	(void)l;
	return 0;
}

static int load_result(struct loader *l, json_t *doc, json_t *jr, size_t idx,
		       struct settle_report *rep)
{
	json_t *samples = json_object_get(jr, "samples_ns"), *s;
	json_t *params = json_object_get(jr, "params");
	const char *cname = json_string_value(json_object_get(jr, "claim"));
	const char *vname = json_string_value(json_object_get(jr, "variant"));
	struct settle_variant *v;
	struct settle_result *r;
	size_t i;

	if (!cname || !vname || !json_is_object(params) || !json_is_array(samples))
		return fail(l, "malformed: results[%zu] lacks claim, variant, "
			    "params or samples_ns", idx);
	if (rep->nresults == rep->cap) {
		size_t cap = rep->cap ? 2 * rep->cap : 32;
		void *p = realloc(rep->results, cap * sizeof(*rep->results));

		if (!p)
			return fail(l, "out of memory");
		rep->results = p;
		rep->cap = cap;
	}
	r = &rep->results[rep->nresults];
	memset(r, 0, sizeof(*r));
	r->claim = claim_of(l, doc, cname, rep);
	if (!r->claim)
		return fail(l, "malformed: claim '%s' is not described under "
			    "\"claims\"", cname);
	v = keep(l->a, calloc(1, sizeof(*v)));
	if (!v || load_params(l, params, v, &r->size_bytes) < 0)
		return fail(l, "out of memory");
	v->name = keep(l->a, strdup(vname));
	v->label = str(l, jr, "label");
	v->description = "";
	if (json_is_true(json_object_get(jr, "reference")))
		v->flags |= SETTLE_REFERENCE;
	r->variant = v;
	r->iters = (uint64_t)num(jr, "iterations");
	r->ops_per_sample = (uint64_t)num(jr, "ops_per_sample");
	if (json_is_string(json_object_get(jr, "check")))
		r->check = strtoull(json_string_value(json_object_get(jr, "check")),
				    NULL, 10);
	r->below_resolution = json_is_true(json_object_get(jr, "below_resolution"));
	r->cycles_source = str(l, jr, "cycles_source");
	if (r->cycles_source && !strcmp(r->cycles_source, "perf_event_open")) {
		/* counted: keep the stored means (the counts are not stored) */
		r->cycles_per_op = num(jr, "cycles_per_op");
		r->instructions_per_op = num(jr, "instructions_per_op");
	} else {
		r->cycles_source = NULL; /* recomputed from the samples */
	}
	r->samples_ns = calloc(json_array_size(samples) + 1, sizeof(double));
	if (!r->samples_ns)
		return fail(l, "out of memory");
	rep->nresults++;
	json_array_foreach(samples, i, s) {
		if (!is_time(s))
			return fail(l, "malformed: results[%zu].samples_ns[%zu] "
				    "is not a time in ns", idx, i);
		r->samples_ns[r->nsamples++] = json_number_value(s);
	}
	if (load_figures(l, json_object_get(jr, "scale"), r) < 0)
		return fail(l, "out of memory");
	return 0;
}

/* The variants that could not run, with their reasons. */
static int load_skipped(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(doc, "skipped"), i, e) {
		const char *why = json_string_value(json_object_get(e, "reason"));
		json_t *copy = json_deep_copy(e);
		int rc;

		if (!copy || json_object_set_new(copy, "samples_ns", json_array()))
			return fail(l, "out of memory");
		rc = load_result(l, doc, copy, i, rep);
		json_decref(copy);
		if (rc < 0)
			return -1;
		rep->results[rep->nresults - 1].skipped =
			keep(l->a, strdup(why ? why : "skipped"));
	}
	return 0;
}

/* Analyse runs of results of the same claim and size, as the runner did. */
static void analyze_groups(struct settle_report *rep)
{
	size_t i = 0;

	while (i < rep->nresults) {
		size_t j = i + 1;

		while (j < rep->nresults &&
		       rep->results[j].claim == rep->results[i].claim &&
		       rep->results[j].size_bytes == rep->results[i].size_bytes)
			j++;
		settle_analyze(&rep->results[i], j - i, rep->timer.core_ghz,
			       rep->options.band);
		if (rep->options.processes > 1)
			settle_analyze_processes(&rep->results[i], j - i,
						 rep->options.processes,
						 rep->options.band);
		i = j;
	}
}

/* ---- Google Benchmark files ------------------------------------------ */

/* ns per time_unit, 0 for an unknown unit. */
static double unit_ns(const char *u)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].u))
			return units[i].ns;
	return 0;
}

/* An aggregate in a file written before run_type existed? */
static int aggregate_name(const char *name)
{
	static const char *const suffix[] = { "_mean", "_median", "_stddev",
					      "_cv" };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t k = strlen(suffix[i]);

		if (n > k && !strcmp(name + n - k, suffix[i]))
			return 1;
	}
	return 0;
}

static struct settle_result *gbench_result(struct loader *l,
					   struct settle_report *rep,
					   const char *name)
{
	const char *slash = strchr(name, '/');
	size_t clen = slash ? (size_t)(slash - name) : strlen(name);
	const char *vname = slash && slash[1] ? slash + 1 : name;
	const struct settle_claim *claim = NULL;
	struct settle_variant *v;
	struct settle_claim *k;
	struct settle_result *r;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];

		if (strlen(x->claim->name) == clen &&
		    !strncmp(x->claim->name, name, clen)) {
			claim = x->claim;
			if (!strcmp(x->variant->name, vname))
				return &rep->results[i];
		}
	}
	if (rep->nresults == rep->cap) {
		size_t cap = rep->cap ? 2 * rep->cap : 32;
		void *p = realloc(rep->results, cap * sizeof(*rep->results));

		if (!p)
			return NULL;
		rep->results = p;
		rep->cap = cap;
	}
	if (!claim) {
		k = keep(l->a, calloc(1, sizeof(*k)));
		if (!k || !(k->name = keep(l->a, strndup(name, clen))))
			return NULL;
		k->description = "Google Benchmark family";
		k->title = k->name;
		k->op_name = "iteration";
		k->baseline = ""; /* no variant: repetitions are not paired */
		claim = k;
	}
	v = keep(l->a, calloc(1, sizeof(*v)));
	if (!v || !(v->name = keep(l->a, strdup(vname))))
		return NULL;
	v->description = "";
	r = &rep->results[rep->nresults++];
	memset(r, 0, sizeof(*r));
	r->claim = claim;
	r->variant = v;
	return r;
}

static int load_gbench_entry(struct loader *l, json_t *b, size_t idx,
			     struct settle_report *rep)
{
	const char *name = json_string_value(json_object_get(b, "name"));
	const char *rt = json_string_value(json_object_get(b, "run_type"));
	const char *unit = json_string_value(json_object_get(b, "time_unit"));
	json_t *t = json_object_get(b, "real_time");
	struct settle_result *r;
	double ns, *p;

	if (!json_is_object(b) || !name)
		return fail(l, "malformed: benchmarks[%zu] has no name", idx);
	if (rt ? strcmp(rt, "iteration") != 0 : aggregate_name(name))
		return 0; /* an aggregate of repetitions, not a sample */
	if (json_is_true(json_object_get(b, "error_occurred")))
		return 0;
	if (!json_is_number(t))
		return fail(l, "malformed: benchmarks[%zu] (%s) has no "
			    "real_time", idx, name);
	ns = unit ? unit_ns(unit) : 1; /* Google Benchmark's default: ns */
	if (ns == 0)
		return fail(l, "malformed: benchmarks[%zu] (%s) has time_unit "
			    "'%s'", idx, name, unit);
	ns *= json_number_value(t);
	if (!isfinite(ns) || ns < 0)
		return fail(l, "malformed: benchmarks[%zu] (%s) real_time is "
			    "not a time", idx, name);
	r = gbench_result(l, rep, name);
	if (!r)
		return fail(l, "out of memory");
	p = realloc(r->samples_ns, (r->nsamples + 1) * sizeof(*p));
	if (!p)
		return fail(l, "out of memory");
	r->samples_ns = p;
	r->samples_ns[r->nsamples++] = ns;
	if (!r->iters) {
		r->iters = (uint64_t)num(b, "iterations");
		r->ops_per_sample = r->iters;
	}
	return 0;
}

static int load_gbench(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *ctx = json_object_get(doc, "context"), *v;
	struct settle_machine *m = &rep->machine;
	size_t i, most = 0;
	const char *type;

	m->logical_cpus = (long)num(ctx, "num_cpus");
	json_array_foreach(json_object_get(ctx, "caches"), i, v) {
		struct settle_cache *c = &m->caches[m->ncaches];

		if (m->ncaches == SETTLE_MAX_CACHES)
			break;
		c->level = (int)num(v, "level");
		copy(c->type, sizeof(c->type), v, "type");
		c->size_bytes = (uint64_t)num(v, "size");
		m->ncaches++;
	}
	/* settle's own gbench-json names the CPU; Google Benchmark does not */
	copy(m->model_name, sizeof(m->model_name), ctx, "settle_cpu_model");
	type = json_string_value(json_object_get(ctx, "library_build_type"));
	snprintf(rep->compiler, sizeof(rep->compiler), "Google Benchmark "
		 "file%s%s", type ? ", library " : "", type ? type : "");
	copy(rep->build_flags, sizeof(rep->build_flags), ctx, "executable");
	rep->timer.clock = SETTLE_CLOCK_MONOTONIC;
	rep->timer.why = "Google Benchmark file";
	snprintf(rep->noise.governor, sizeof(rep->noise.governor), "unknown");
	rep->options.processes = 1;
	json_array_foreach(json_object_get(doc, "benchmarks"), i, v)
		if (load_gbench_entry(l, v, i, rep) < 0)
			return -1;
	for (i = 0; i < rep->nresults; i++)
		most = rep->results[i].nsamples > most ?
		       rep->results[i].nsamples : most;
	rep->options.samples = (unsigned)most;
	analyze_groups(rep);
	return 0;
}

static int is_gbench(json_t *doc)
{
	return json_is_object(doc) && !json_object_get(doc, "schema") &&
	       json_is_object(json_object_get(doc, "context")) &&
	       json_is_array(json_object_get(doc, "benchmarks"));
}

static int load_doc(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *schema = json_object_get(doc, "schema"), *res, *jr;
	size_t i;

	if (!json_is_object(doc) || !json_is_string(schema))
		return fail(l, "not a settle result file (no \"schema\")");
	if (strcmp(json_string_value(schema), SETTLE_SCHEMA) != 0)
		return fail(l, "not a settle result file (schema '%s', "
			    "expected '%s')", json_string_value(schema),
			    SETTLE_SCHEMA);
	res = json_object_get(doc, "results");
	if (!json_is_array(res) || !json_is_object(json_object_get(doc, "machine")))
		return fail(l, "malformed: no \"results\" array or "
			    "\"machine\" object");
	load_machine(l, rep, doc);
	load_settings(rep, doc);
	load_noise(rep, doc);
	json_array_foreach(res, i, jr)
		if (load_result(l, doc, jr, i, rep) < 0)
			return -1;
	if (load_skipped(l, doc, rep) < 0)
		return -1;
	analyze_groups(rep);
	return 0;
}

int settle_load_json(const char *path, double band, struct settle_report *rep,
		     char *err, size_t errlen)
{
	struct loader l = { NULL, path, err, errlen };
	json_error_t je;
	struct stat st;
	json_t *doc;
	FILE *f;
	int rc;

	memset(rep, 0, sizeof(*rep));
	snprintf(rep->source, sizeof(rep->source), "%s", path);
	rep->options.band = band;
	f = fopen(path, "r");
	if (!f)
		return fail(&l, "cannot read: %s", strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return fail(&l, "cannot read: is a directory");
	}
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!doc)
		return fail(&l, "not a settle result file (invalid or truncated "
			    "JSON at line %d: %s)", je.line, je.text);
	l.a = calloc(1, sizeof(*l.a));
	if (!l.a) {
		json_decref(doc);
		return fail(&l, "out of memory");
	}
	rep->owned = l.a;
	rc = is_gbench(doc) ? load_gbench(&l, doc, rep) :
	     load_doc(&l, doc, rep);
	rep->options.band = band;
	json_decref(doc);
	if (rc < 0)
		settle_report_free(rep);
	return rc;
}
