/*
 * select.c - the selection options shared by chart, report (and compare).
 */
#include "select.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../db/query.h"
#include "../ingest/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_select_init(struct cli_select *s)
{
	memset(s, 0, sizeof(*s));
	s->threshold = NAN;
	s->alpha = NAN;
}

void cli_short_output(int argc, char **argv)
{
	static char output[] = "--output";
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-o"))
			argv[i] = output;
	}
}

void cli_split_commas(const struct strlist *l, char ***out, size_t *n)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const char *p = l->v[i];

		while (*p) {
			const char *e = strchr(p, ',');
			size_t len = e ? (size_t)(e - p) : strlen(p);

			if (len) {
				*out = xrealloc(*out, (*n + 1) * sizeof(**out));
				(*out)[(*n)++] = xstrndup(p, len);
			}
			p += len;
			if (*p == ',')
				p++;
		}
	}
}

void cli_strings_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int cli_kv_parse(char *str, struct an_kv *kv)
{
	char *eq = strchr(str, '=');

	if (!eq || eq == str)
		return -1;
	*eq = '\0';
	kv->key = str;
	kv->value = eq + 1;
	return 0;
}

int cli_better_parse(char *str, struct an_better *b)
{
	char *eq = strchr(str, '=');

	if (!eq || eq == str || an_direction_parse(eq + 1, &b->dir) < 0)
		return -1;
	*eq = '\0';
	b->metric = str;
	return 0;
}

/* Split every value of l on commas into *out; the copies are owned by
 * s->split, the array *out by the caller. */
static void split_list(struct cli_select *s, const struct strlist *l,
		       const char ***out, size_t *n)
{
	char **v = NULL;
	size_t i;

	*n = 0;
	cli_split_commas(l, &v, n);
	if (*n)
		xgrow(&s->split, &s->splitcap, s->nsplit + *n, sizeof(*s->split));
	for (i = 0; i < *n; i++)
		s->split[s->nsplit++] = v[i];
	*out = (const char **)v;
}

int cli_select_lists(struct cli_select *s, struct an_query *q, struct kb_err *err)
{
	const char **cv, **bv;
	size_t i, ncv, nbv;

	split_list(s, &s->metric, &s->metric_v, &s->nmetric_v);
	split_list(s, &s->variants, &s->variant_v, &s->nvariant_v);
	split_list(s, &s->machine, &s->machine_v, &s->nmachine_v);
	q->machines = s->machine_v;
	q->nmachines = s->nmachine_v;
	q->metrics = s->metric_v;
	q->nmetrics = s->nmetric_v;
	q->variants = s->variant_v;
	q->nvariants = s->nvariant_v;

	split_list(s, &s->config, &cv, &ncv);
	if (ncv) {
		s->kv = xcalloc(ncv, sizeof(*s->kv));
		for (i = 0; i < ncv; i++) {
			/* cv[i] is our own copy */
			if (cli_kv_parse((char *)cv[i], &s->kv[i]) < 0) {
				kb_err_set(err, "", 0, "--config wants K=V, not '%s'", cv[i]);
				free(cv);
				return -1;
			}
			s->nkv++;
		}
		q->config = s->kv;
		q->nconfig = s->nkv;
	}
	free(cv);
	split_list(s, &s->better, &bv, &nbv);
	if (nbv) {
		s->bt = xcalloc(nbv, sizeof(*s->bt));
		for (i = 0; i < nbv; i++) {
			if (cli_better_parse((char *)bv[i], &s->bt[i]) < 0) {
				kb_err_set(err, "", 0, "--better wants METRIC=higher|lower|none, not '%s'",
					   bv[i]);
				free(bv);
				return -1;
			}
			s->nbt++;
		}
		q->better = s->bt;
		q->nbetter = s->nbt;
	}
	free(bv);
	return 0;
}

int cli_select_query(struct cli_select *s, struct an_query *q, struct kb_err *err)
{
	q->bench = s->bench && *s->bench ? s->bench : NULL;
	q->baseline = s->baseline && *s->baseline ? s->baseline : NULL;
	if (cli_select_lists(s, q, err) < 0)
		return -1;
	q->no_derived = s->no_derived;
	q->use_flagged = s->use_flagged;
	if (s->change && an_convention_parse(s->change, &q->conv) < 0)
		return kb_err_set(err, "", 0, "--change is raw, speed or better, not '%s'", s->change);
	if (s->test && an_test_parse(s->test, &q->test) < 0)
		return kb_err_set(err, "", 0, "--test is welch or mwu, not '%s'", s->test);
	if (!isnan(s->threshold)) {
		if (!(s->threshold >= 0))
			return kb_err_set(err, "", 0, "--threshold must be a percentage >= 0");
		q->threshold = s->threshold;
	}
	if (!isnan(s->alpha)) {
		if (!(s->alpha > 0 && s->alpha < 1))
			return kb_err_set(err, "", 0, "--alpha must lie between 0 and 1");
		q->alpha = s->alpha;
	}
	return 0;
}

int cli_select_config_match(const struct cli_select *s, const char *config)
{
	return REC_CONFIG_MATCH(config, s->kv, s->nkv);
}

int cli_select_resolve(struct cli_select *s, struct db *db, struct an_query *q,
		       struct kb_err *err)
{
	size_t i;

	for (i = 0; i < s->nvariant_v; i++) {
		char *d;
		if (db_variant_resolve(db, s->variant_v[i], &d, err) < 0)
			return -1;
		xgrow(&s->split, &s->splitcap, s->nsplit + 1, sizeof(*s->split));
		s->split[s->nsplit++] = d;
		s->variant_v[i] = d;
	}
	q->variants = s->variant_v;
	q->nvariants = s->nvariant_v;
	if (q->baseline) {
		char *d;
		if (db_variant_resolve(db, q->baseline, &d, err) < 0)
			return -1;
		xgrow(&s->split, &s->splitcap, s->nsplit + 1, sizeof(*s->split));
		s->split[s->nsplit++] = d;
		q->baseline = d;
	}
	return 0;
}

int cli_select_variant_match(const struct cli_select *s, const char *name)
{
	size_t i;

	if (!s->nvariant_v)
		return 1;
	for (i = 0; i < s->nvariant_v; i++)
		if (strcmp(s->variant_v[i], name) == 0)
			return 1;
	return 0;
}

void cli_select_release(struct cli_select *s)
{
	size_t i;

	for (i = 0; i < s->nsplit; i++)
		free(s->split[i]);
	free(s->split);
	free(s->metric_v);
	free(s->variant_v);
	free(s->machine_v);
	free(s->kv);
	free(s->bt);
	strlist_release(&s->metric);
	strlist_release(&s->better);
	strlist_release(&s->config);
	strlist_release(&s->variants);
	strlist_release(&s->machine);
	s->split = NULL;
	s->nsplit = s->splitcap = 0;
	s->metric_v = s->variant_v = s->machine_v = NULL;
	s->kv = NULL;
	s->nkv = 0;
	s->bt = NULL;
	s->nbt = 0;
}

int cli_placement_load(struct db *db, struct db_placement *out, struct kb_err *err)
{
	int has_jobs;

	memset(out, 0, sizeof(*out));
	if (db_query_has_jobs(db, &has_jobs, err) < 0)
		return -1;
	if (!has_jobs)
		return 0;
	return db_placement_load(db, NULL, NULL, out, err);
}
