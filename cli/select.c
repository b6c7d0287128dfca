/*
 * select.c - the selection options of every verb that reads one, and the
 * one converter from them to an an_query (select.h).
 */
#include "select.h"
#include "cli.h"
#include "../core/util.h"
#include "../core/buf.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../db/query.h"

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

	for (i = 0; i < l->n; i++)
		an_list_split(l->v[i], out, n);
}

void cli_strings_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
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

/* --metric, --variants, --machine, --config and --better into q. */
static int select_lists(struct cli_select *s, struct an_query *q, struct kb_err *err)
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
			if (an_kv_parse((char *)cv[i], &s->kv[i]) < 0) {
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
			if (an_better_parse((char *)bv[i], &s->bt[i]) < 0) {
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

void cli_select_rejoin(struct cli_select *s, struct an_query *q, struct db *db)
{
	size_t i, k, out = 0;

	for (i = 0; i < s->nvariant_v; i++) {
		struct kb_err e;
		char *d;
		const char *name = s->variant_v[i];

		kb_err_clear(&e);
		if (db_variant_resolve(db, name, &d, &e) == 0) {
			free(d);
			s->variant_v[out++] = name;
			continue;
		}
		/* "Before this patch, schedutil" was cut at its comma */
		for (k = i + 1; k < s->nvariant_v && k < i + 4; k++) {
			size_t m;
			struct buf b = BUF_INIT;
			for (m = i; m <= k; m++)
				buf_printf(&b, "%s%s", m > i ? "," : "", s->variant_v[m]);
			kb_err_clear(&e);
			if (db_variant_resolve(db, buf_str(&b), &d, &e) == 0) {
				free(d);
				xgrow(&s->split, &s->splitcap, s->nsplit + 1, sizeof(*s->split));
				s->split[s->nsplit++] = xstrdup(buf_str(&b));
				name = s->split[s->nsplit - 1];
				buf_release(&b);
				i = k;
				break;
			}
			buf_release(&b);
		}
		s->variant_v[out++] = name;
	}
	s->nvariant_v = out;
	q->variants = s->variant_v;
	q->nvariants = s->nvariant_v;
}

/* An empty --bench or --baseline: not given, unless the verb keeps it. */
static const char *select_name(const char *v, unsigned flags)
{
	if (flags & CLI_SELECT_KEEP_EMPTY)
		return v;
	return v && *v ? v : NULL;
}

int cli_select_to_query(struct cli_select *s, const struct an_query *defaults, unsigned flags,
			struct an_query *q, struct kb_err *err)
{
	if (defaults)
		*q = *defaults;
	if (s->bench)
		q->bench = select_name(s->bench, flags);
	if (s->baseline)
		q->baseline = select_name(s->baseline, flags);
	if (select_lists(s, q, err) < 0)
		return -1;
	if (s->no_derived)
		q->no_derived = 1;
	if (s->use_flagged)
		q->use_flagged = 1;
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

int cli_select_query(struct cli_select *s, struct an_query *q, struct kb_err *err)
{
	return cli_select_to_query(s, NULL, 0, q, err);
}

int cli_select_config_match(const struct cli_select *s, const char *config)
{
	return an_config_match(s->kv, s->nkv, config);
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
	return an_variant_selected(s->variant_v, s->nvariant_v, name);
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

/* Selection errors --------------------------------------------------------- */

/* One dimension of a selection: how its option is called, what its
 * values are called, and where the store's names come from. */
struct dim {
	const char *what;               /* "benchmark" */
	const char *option;             /* "--bench" */
};

static const struct dim dim_bench = { "benchmark", "--bench" };
static const struct dim dim_variant = { "variant", "--variants" };
static const struct dim dim_baseline = { "variant", "--baseline" };
static const struct dim dim_machine = { "machine", "--machine" };

static int has_name(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* "no benchmark 'x' (--bench); the store has 3: a, b, c" */
static int missing(struct kb_err *err, const struct dim *d, const char *name,
		   const char *const *names, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_printf(&b, "no %s '%s' (%s) in the store", d->what, name, d->option);
	if (!n)
		buf_printf(&b, "; it has no %ss at all", d->what);
	else
		buf_printf(&b, "; it has %zu: ", n);
	for (i = 0; i < n && i < 24; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
	if (n > 24)
		buf_printf(&b, ", ... (kbench ls lists them all)");
	kb_err_set(err, "", 0, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

static int check_names(struct kb_err *err, const struct dim *d, const char *const *want,
		       size_t nwant, const char *const *have, size_t nhave)
{
	size_t i;

	for (i = 0; i < nwant; i++)
		if (want[i] && !has_name(have, nhave, want[i]))
			return missing(err, d, want[i], have, nhave);
	return 0;
}

/* Variants as users name them: display name, name alone when unique,
 * name@start-of-post; an ambiguous name says which it could be. */
static int check_variants(struct db *db, struct kb_err *err, const struct dim *d,
			  const char *const *want, size_t nwant, const char *const *have,
			  size_t nhave)
{
	size_t i;

	for (i = 0; i < nwant; i++) {
		struct kb_err e2;
		char *disp;

		if (!want[i])
			continue;
		kb_err_clear(&e2);
		if (db_variant_resolve(db, want[i], &disp, &e2) == 0) {
			free(disp);
			continue;
		}
		if (strstr(e2.msg, "ambiguous")) {
			*err = e2;
			return -1;
		}
		return missing(err, d, want[i], have, nhave);
	}
	return 0;
}

/* Every name of n is in the store, asked name by name (the usual case,
 * and cheap in a store of any size); 0 when one is not, or a lookup
 * failed: the caller then lists what the store has. */
static int selection_known(struct db *db, const struct cli_names *n)
{
	struct kb_err e;
	size_t i;
	char *d;

	kb_err_clear(&e);
	if (n->bench && db_name_exists(db, DB_NAME_BENCH, n->bench, &e) != 1)
		return 0;
	for (i = 0; i < n->nvariants + (n->baseline != NULL); i++) {
		const char *v = i < n->nvariants ? n->variants[i] : n->baseline;
		if (!v)
			continue;
		if (db_variant_resolve(db, v, &d, &e) < 0)
			return 0;
		free(d);
	}
	for (i = 0; i < n->nmachines; i++)
		if (strcmp(n->machines[i], "unknown") != 0 &&
		    db_name_exists(db, DB_NAME_MACHINE, n->machines[i], &e) != 1)
			return 0;
	return 1;
}

int cli_selection_check(struct db *db, const struct cli_names *n, struct kb_err *err)
{
	struct db_list l;
	const char **v, **b, **m;
	size_t i;
	int rc = 0;

	if (selection_known(db, n))
		return 0;
	/* What did not match, and what the store has instead. */
	if (db_list(db, &l, err) < 0)
		return -1;
	v = xmalloc((l.nvariants + 1) * sizeof(*v));
	b = xmalloc((l.nbenches + 1) * sizeof(*b));
	m = xmalloc((l.nmachines + 1) * sizeof(*m));
	for (i = 0; i < l.nvariants; i++)
		v[i] = l.variants[i].name;
	for (i = 0; i < l.nbenches; i++)
		b[i] = l.benches[i].benchmark;
	for (i = 0; i < l.nmachines; i++)
		m[i] = l.machines[i].name;
	if (n->bench)
		rc = check_names(err, &dim_bench, &n->bench, 1, b, l.nbenches);
	if (!rc)
		rc = check_variants(db, err, &dim_variant, n->variants, n->nvariants, v, l.nvariants);
	if (!rc && n->baseline)
		rc = check_variants(db, err, &dim_baseline, &n->baseline, 1, v, l.nvariants);
	for (i = 0; !rc && i < n->nmachines; i++)       /* "unknown": no named machine */
		if (strcmp(n->machines[i], "unknown") != 0)
			rc = check_names(err, &dim_machine, &n->machines[i], 1, m, l.nmachines);
	free(v);
	free(b);
	free(m);
	db_list_release(&l);
	return rc;
}

int cli_select_open(struct cli_select *s, struct an_query *q, struct db **db,
		    struct kb_err *err)
{
	struct cli_names nm;

	if (db_open_existing(db, cli_db_path(s->db), err) < 0)
		return -1;
	if (q)
		cli_select_rejoin(s, q, *db);
	cli_select_names(s, &nm);
	return cli_selection_check(*db, &nm, err);
}

void cli_select_names(const struct cli_select *s, struct cli_names *n)
{
	memset(n, 0, sizeof(*n));
	n->bench = s->bench && *s->bench ? s->bench : NULL;
	n->variants = s->variant_v;
	n->nvariants = s->nvariant_v;
	n->baseline = s->baseline && *s->baseline ? s->baseline : NULL;
	n->machines = s->machine_v;
	n->nmachines = s->nmachine_v;
}

int cli_selection_empty(struct kb_err *err, const struct cli_names *n, const char *more)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, "nothing in the store matches the selection");
	if (n->bench)
		buf_printf(&b, " --bench %s", n->bench);
	if (n->nvariants) {
		buf_puts(&b, " --variants ");
		for (i = 0; i < n->nvariants; i++)
			buf_printf(&b, "%s%s", i ? "," : "", n->variants[i]);
	}
	if (n->baseline)
		buf_printf(&b, " --baseline %s", n->baseline);
	if (more && *more)
		buf_printf(&b, " %s", more);
	kb_err_set(err, "", 0, "%s", buf_str(&b));
	buf_release(&b);
	return -1;
}

int cli_select_empty(struct kb_err *err, const struct cli_select *s)
{
	struct cli_names n;
	struct buf more = BUF_INIT;
	size_t i;
	int rc;

	cli_select_names(s, &n);
	for (i = 0; i < s->nmetric_v; i++)
		buf_printf(&more, "%s%s", i ? "," : "--metric ", s->metric_v[i]);
	for (i = 0; i < s->nkv; i++)
		buf_printf(&more, "%s--config %s=%s", more.len ? " " : "", s->kv[i].key, s->kv[i].value);
	rc = cli_selection_empty(err, &n, buf_str(&more));
	buf_release(&more);
	return rc;
}
