#include "record.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rec_batch_init(struct rec_batch *b)
{
	memset(b, 0, sizeof(*b));
	arena_init(&b->arena);
}

void rec_batch_release(struct rec_batch *b)
{
	free(b->runs);
	free(b->summaries);
	free(b->variants);
	free(b->segments);
	free(b->notes);
	free(b->metrics);
	free(b->machines);
	free(b->env);
	arena_release(&b->arena);
	memset(b, 0, sizeof(*b));
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rec_kv *)a)->key, ((const struct rec_kv *)b)->key);
}

static void put_escaped(struct buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == '=' || *s == '\\')
			buf_putc(out, '\\');
		buf_putc(out, *s);
	}
}

const char *rec_config_string(struct arena *a, struct rec_kv *kv, size_t n)
{
	struct buf out = BUF_INIT;
	const char *res;
	size_t i;

	if (n > 1)
		qsort(kv, n, sizeof(*kv), kv_cmp);
	for (i = 0; i < n; i++) {
		if (i)
			buf_putc(&out, ',');
		put_escaped(&out, kv[i].key);
		buf_putc(&out, '=');
		put_escaped(&out, kv[i].value);
	}
	res = arena_strdup(a, buf_str(&out));
	buf_release(&out);
	return res;
}

/* One pair of a config as it is written (escapes in place). */
struct raw_pair {
	const char *key, *val;
	size_t klen, vlen;      /* val NULL: a key with no '=' */
};

/* Cut the pair at *pp; 0 at the end. */
static int next_raw(const char **pp, struct raw_pair *r)
{
	const char *p = *pp;

	if (!p || !*p)
		return 0;
	r->key = p;
	r->val = NULL;
	r->vlen = 0;
	while (*p && *p != '=' && *p != ',')
		p += p[0] == '\\' && p[1] ? 2 : 1;
	r->klen = (size_t)(p - r->key);
	if (*p == '=') {
		r->val = ++p;
		while (*p && *p != ',')
			p += p[0] == '\\' && p[1] ? 2 : 1;
		r->vlen = (size_t)(p - r->val);
	}
	*pp = *p ? p + 1 : p;
	return 1;
}

/* Is the escaped s[0..len) the plain string plain? */
static int raw_is(const char *s, size_t len, const char *plain)
{
	const char *end = s + len;

	while (s < end) {
		if (*s == '\\' && s + 1 < end)
			s++;
		if (*plain++ != *s++)
			return 0;
	}
	return *plain == '\0';
}

static void raw_unescape(struct buf *out, const char *s, size_t len)
{
	const char *end = s + len;

	buf_reset(out);
	for (; s < end; s++) {
		if (*s == '\\' && s + 1 < end)
			s++;
		buf_putc(out, *s);
	}
}

int rec_config_next(const char **pp, struct buf *key, struct buf *val)
{
	struct raw_pair r;

	if (!next_raw(pp, &r))
		return 0;
	if (key)
		raw_unescape(key, r.key, r.klen);
	if (val)
		raw_unescape(val, r.val ? r.val : "", r.vlen);
	return 1;
}

int rec_config_value(const char *config, const char *key, struct buf *val)
{
	struct raw_pair r;

	while (next_raw(&config, &r))
		if (raw_is(r.key, r.klen, key)) {
			if (val)
				raw_unescape(val, r.val ? r.val : "", r.vlen);
			return 0;
		}
	return -1;
}

int rec_config_has(const char *config, const char *key, const char *value)
{
	struct raw_pair r;

	while (next_raw(&config, &r))
		if (raw_is(r.key, r.klen, key) && raw_is(r.val ? r.val : "", r.vlen, value))
			return 1;
	return 0;
}

#define FILTER(base, i, stride) (*(const char *const *)((const char *)(base) + (i) * (stride)))

int rec_config_match(const char *config, const char *const *key0, const char *const *value0,
		     size_t n, size_t stride)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const char *key = FILTER(key0, i, stride);
		int seen = 0, ok = 0;

		for (j = 0; j < i && !seen; j++)
			seen = strcmp(FILTER(key0, j, stride), key) == 0;
		if (seen)
			continue;   /* decided with its first mention */
		for (j = i; j < n && !ok; j++)
			if (strcmp(FILTER(key0, j, stride), key) == 0)
				ok = rec_config_has(config, key, FILTER(value0, j, stride));
		if (!ok)
			return 0;
	}
	return 1;
}

void rec_batch_finish(struct rec_batch *b)
{
	size_t i;

	for (i = 0; i < b->nruns; i++) {
		struct rec_run *r = b->runs[i];
		r->config_str = rec_config_string(&b->arena, r->config, r->nconfig);
	}
	for (i = 0; i < b->nsummaries; i++) {
		struct rec_summary *s = b->summaries[i];
		s->config_str = rec_config_string(&b->arena, s->config, s->nconfig);
	}
}

size_t rec_batch_nsamples(const struct rec_batch *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->nruns; i++)
		n += b->runs[i]->nsamples;
	return n;
}

struct rec_run *rec_run_new(struct rec_batch *b, const char *benchmark, long line)
{
	struct rec_run *r = arena_alloc(&b->arena, sizeof(*r));

	r->benchmark = arena_strdup(&b->arena, benchmark);
	r->line = line;
	xgrow(&b->runs, &b->runs_cap, b->nruns + 1, sizeof(*b->runs));
	b->runs[b->nruns++] = r;
	return r;
}

static void kv_set(struct arena *a, struct rec_kv **kv, size_t *n, size_t *cap,
		   const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*kv)[i].key, key) == 0) {
			(*kv)[i].value = arena_strdup(a, value);
			return;
		}
	}
	arena_grow(a, kv, cap, *n + 1, sizeof(**kv));
	(*kv)[*n].key = arena_strdup(a, key);
	(*kv)[*n].value = arena_strdup(a, value);
	(*n)++;
}

void rec_run_config(struct rec_batch *b, struct rec_run *r, const char *key, const char *value)
{
	kv_set(&b->arena, &r->config, &r->nconfig, &r->config_cap, key, value);
}

void rec_run_configf(struct rec_batch *b, struct rec_run *r, const char *key, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	rec_run_config(b, r, key, tmp);
}

const char *rec_run_config_get(const struct rec_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nconfig; i++)
		if (strcmp(r->config[i].key, key) == 0)
			return r->config[i].value;
	return NULL;
}

void rec_run_fail(struct rec_batch *b, struct rec_run *r, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	r->failed = 1;
	r->error = arena_strdup(&b->arena, tmp);
}

void rec_run_variant(struct rec_batch *b, struct rec_run *r, const char *name,
		     const char *desc, enum rec_origin origin)
{
	if (origin < r->variant_origin)
		return;
	r->variant = arena_strdup(&b->arena, name);
	if (desc)
		r->variant_desc = arena_strdup(&b->arena, desc);
	r->variant_origin = origin;
}

void rec_sample_add(struct rec_batch *b, struct rec_run *r, const char *metric,
		    double value, const char *unit, int job)
{
	struct rec_sample *s;

	arena_grow(&b->arena, &r->samples, &r->samples_cap, r->nsamples + 1, sizeof(*r->samples));
	s = &r->samples[r->nsamples++];
	s->metric = arena_strdup(&b->arena, metric);
	s->value = value;
	s->unit = arena_strdup(&b->arena, unit ? unit : "");
	s->job = job;
}

struct rec_job *rec_job_add(struct rec_batch *b, struct rec_run *r, int job,
			    int initial_node, int main_node, int moved, double user,
			    const double *pct, int nnodes)
{
	struct rec_job *j;

	arena_grow(&b->arena, &r->jobs, &r->jobs_cap, r->njobs + 1, sizeof(*r->jobs));
	j = &r->jobs[r->njobs++];
	j->job = job;
	j->initial_node = initial_node;
	j->main_node = main_node;
	j->moved = moved;
	j->user = user;
	j->nnodes = nnodes;
	j->pct = arena_alloc(&b->arena, sizeof(double) * (size_t)(nnodes > 0 ? nnodes : 1));
	if (nnodes > 0)
		memcpy(j->pct, pct, sizeof(double) * (size_t)nnodes);
	return j;
}

void rec_run_drop(struct rec_batch *b, struct rec_run *r)
{
	size_t i;

	for (i = 0; i < b->nruns; i++) {
		if (b->runs[i] == r) {
			memmove(&b->runs[i], &b->runs[i + 1], (b->nruns - i - 1) * sizeof(*b->runs));
			b->nruns--;
			return;
		}
	}
}

struct rec_summary *rec_summary_add(struct rec_batch *b, const char *variant,
				    const char *benchmark, const char *metric,
				    const char *unit, long line)
{
	struct rec_summary *s = arena_alloc(&b->arena, sizeof(*s));

	s->variant = arena_strdup(&b->arena, variant);
	s->benchmark = arena_strdup(&b->arena, benchmark);
	s->metric = arena_strdup(&b->arena, metric);
	s->unit = arena_strdup(&b->arena, unit ? unit : "");
	s->mean = s->sd = s->min = s->max = NAN;
	s->n = 0;
	s->flags = "";
	s->line = line;
	s->pub_change = NAN;
	s->pub_mark = "";
	s->pub_base = NULL;
	xgrow(&b->summaries, &b->summaries_cap, b->nsummaries + 1, sizeof(*b->summaries));
	b->summaries[b->nsummaries++] = s;
	return s;
}

void rec_summary_config(struct rec_batch *b, struct rec_summary *s, const char *key, const char *value)
{
	kv_set(&b->arena, &s->config, &s->nconfig, &s->config_cap, key, value);
}

void rec_summary_stat(struct rec_batch *b, struct rec_summary *s, const char *name, double value)
{
	arena_grow(&b->arena, &s->stats, &s->stats_cap, s->nstats + 1, sizeof(*s->stats));
	s->stats[s->nstats].name = arena_strdup(&b->arena, name);
	s->stats[s->nstats++].value = value;
}

void rec_metric_declare(struct rec_batch *b, const char *benchmark, const char *name,
			const char *unit, const char *better, const char *description)
{
	struct rec_metric *m;
	size_t i;

	for (i = 0; i < b->nmetrics; i++)
		if (!strcmp(b->metrics[i].benchmark, benchmark) && !strcmp(b->metrics[i].name, name))
			return;
	xgrow(&b->metrics, &b->metrics_cap, b->nmetrics + 1, sizeof(*b->metrics));
	m = &b->metrics[b->nmetrics++];
	m->benchmark = arena_strdup(&b->arena, benchmark);
	m->name = arena_strdup(&b->arena, name);
	m->unit = arena_strdup(&b->arena, unit ? unit : "");
	m->better = arena_strdup(&b->arena, better);
	m->description = arena_strdup(&b->arena, description ? description : "");
}

void rec_machine_add(struct rec_batch *b, const char *name, int cpus, int nodes,
		     const char *desc, long line)
{
	struct rec_machine *m;

	xgrow(&b->machines, &b->machines_cap, b->nmachines + 1, sizeof(*b->machines));
	m = &b->machines[b->nmachines++];
	m->name = name ? arena_strdup(&b->arena, name) : NULL;
	m->cpus = cpus;
	m->nodes = nodes;
	m->description = desc ? arena_strdup(&b->arena, desc) : NULL;
	m->line = line;
}

void rec_env_add(struct rec_batch *b, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < b->nenv; i++)
		if (strcmp(b->env[i].key, key) == 0) {
			b->env[i].value = arena_strdup(&b->arena, value);
			return;
		}
	xgrow(&b->env, &b->env_cap, b->nenv + 1, sizeof(*b->env));
	b->env[b->nenv].key = arena_strdup(&b->arena, key);
	b->env[b->nenv].value = arena_strdup(&b->arena, value);
	b->nenv++;
}

void rec_variant_add(struct rec_batch *b, const char *name, const char *desc,
		     const char *kernel, long line)
{
	struct rec_variant *v;
	size_t i;

	for (i = 0; i < b->nvariants; i++) {
		v = &b->variants[i];
		if (strcmp(v->name, name) == 0) {
			if (!v->description && desc)
				v->description = arena_strdup(&b->arena, desc);
			if (!v->kernel && kernel)
				v->kernel = arena_strdup(&b->arena, kernel);
			return;
		}
	}
	xgrow(&b->variants, &b->variants_cap, b->nvariants + 1, sizeof(*b->variants));
	v = &b->variants[b->nvariants++];
	v->name = arena_strdup(&b->arena, name);
	v->description = arena_strdup(&b->arena, desc);
	v->kernel = arena_strdup(&b->arena, kernel);
	v->line = line;
}

void rec_note(struct rec_batch *b, long line, const char *fmt, ...)
{
	va_list ap;
	struct rec_note *n;

	xgrow(&b->notes, &b->notes_cap, b->nnotes + 1, sizeof(*b->notes));
	n = &b->notes[b->nnotes++];
	n->line = line;
	va_start(ap, fmt);
	n->text = arena_vprintf(&b->arena, fmt, ap);
	va_end(ap);
}
