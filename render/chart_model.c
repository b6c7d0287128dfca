/*
 * chart_model.c - chart models filled from a comparison table: bars,
 * points and lines of one (benchmark, metric), and the change (forest)
 * chart; `kbench chart` and `kbench report` both build theirs here.
 */
#include "chart_model.h"
#include "../core/buf.h"
#include "../core/num.h"
#include "../core/util.h"
#include "../ingest/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Configuration labels --------------------------------------------------- */

/* Split a canonical config into keys and values (unescaped copies). */
struct kvs {
	char **k, **v;
	size_t n, cap, vcap;
};

static void kvs_parse(struct kvs *kv, const char *config)
{
	struct buf k = BUF_INIT, v = BUF_INIT;

	memset(kv, 0, sizeof(*kv));
	while (rec_config_next(&config, &k, &v)) {
		xgrow(&kv->k, &kv->cap, kv->n + 1, sizeof(*kv->k));
		xgrow(&kv->v, &kv->vcap, kv->n + 1, sizeof(*kv->v));
		kv->k[kv->n] = xstrdup(buf_str(&k));
		kv->v[kv->n] = xstrdup(buf_str(&v));
		kv->n++;
	}
	buf_release(&k);
	buf_release(&v);
}

static void kvs_release(struct kvs *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		free(kv->k[i]);
		free(kv->v[i]);
	}
	free(kv->k);
	free(kv->v);
}

/* Does key take more than one value (or go missing) across configs? */
static int key_varies(const char *const *configs, size_t n, const char *key)
{
	struct buf first = BUF_INIT;
	int have_first, varies = 0;
	size_t i;

	have_first = rec_config_value(configs[0], key, &first) == 0;
	for (i = 1; i < n && !varies; i++)
		varies = have_first ? !rec_config_has(configs[i], key, buf_str(&first))
				    : rec_config_value(configs[i], key, NULL) == 0;
	buf_release(&first);
	return varies;
}

/* Does key hold two different values in configs (where it is there)? */
static int key_values_differ(const char *const *configs, size_t n, const char *key)
{
	struct buf first = BUF_INIT;
	int seen = 0, differ = 0;
	size_t i;

	for (i = 0; i < n && !differ; i++) {
		if (!seen)
			seen = rec_config_value(configs[i], key, &first) == 0;
		else if (rec_config_value(configs[i], key, NULL) == 0)
			differ = !rec_config_has(configs[i], key, buf_str(&first));
	}
	buf_release(&first);
	return differ;
}

/* Label of config within a set: only the keys that vary across the set;
 * with exactly one key of several values, its bare value.  A key of one
 * value that only some configs have (numa_test's disturb= where a post
 * states it) comes after: ", disturb=hackbench:20".  Caller frees. */
static char *config_label(const char *config, const char *const *all, size_t nall)
{
	struct kvs kv;
	struct buf b = BUF_INIT;
	size_t i, nvary = 0, last = 0;
	int *kind = NULL;       /* per key: 0 same everywhere, 1 values differ, 2 only present */

	kvs_parse(&kv, config);
	kind = xcalloc(kv.n + 1, sizeof(*kind));
	for (i = 0; i < kv.n; i++)
		if (nall > 1 && key_varies(all, nall, kv.k[i]))
			kind[i] = key_values_differ(all, nall, kv.k[i]) ? 1 : 2;
	for (i = 0; i < kv.n; i++)
		if (kind[i] == 1) {
			nvary++;
			last = i;
		}
	if (nvary == 1) {
		buf_puts(&b, kv.v[last]);
	} else {
		for (i = 0; i < kv.n; i++)
			if ((nvary == 0 && kind[i] != 2) || kind[i] == 1)
				buf_printf(&b, "%s%s=%s", b.len ? "," : "", kv.k[i], kv.v[i]);
	}
	for (i = 0; i < kv.n; i++)
		if (kind[i] == 2)
			buf_printf(&b, "%s%s=%s", b.len ? ", " : "", kv.k[i], kv.v[i]);
	if (!b.len)
		buf_puts(&b, "(all)");
	free(kind);
	kvs_release(&kv);
	return buf_detach(&b);
}

/* The one key that varies across configs, or NULL.  Caller frees. */
static char *varying_key(const char *const *configs, size_t n)
{
	struct kvs kv;
	char *key = NULL;
	size_t i, nvary = 0;

	if (n < 2)
		return NULL;
	kvs_parse(&kv, configs[0]);
	for (i = 0; i < kv.n; i++)
		if (key_varies(configs, n, kv.k[i])) {
			nvary++;
			if (!key)
				key = xstrdup(kv.k[i]);
		}
	kvs_release(&kv);
	if (nvary != 1) {
		free(key);
		return NULL;
	}
	return key;
}

static int cmp_name_idx(const void *pa, const void *pb, void *ctx)
{
	const char *const *names = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(names[a], names[b]);

	return c ? c : (a < b ? -1 : a > b);
}

void chart_model_styles_init(struct chart_model_opts *o, const char *const *names, size_t n)
{
	size_t *sorted = xmalloc((n + 1) * sizeof(*sorted)), i;

	for (i = 0; i < n; i++)
		sorted[i] = i;
	qsort_r(sorted, n, sizeof(*sorted), cmp_name_idx, (void *)names);
	o->styles = names;
	o->nstyles = n;
	o->styles_sorted = sorted;
}

void chart_model_styles_release(struct chart_model_opts *o)
{
	free((size_t *)o->styles_sorted);
	o->styles = NULL;
	o->styles_sorted = NULL;
	o->nstyles = 0;
}

void chart_model_styles(struct chart *c, const struct chart_model_opts *o)
{
	size_t s, k;

	for (s = 0; s < c->nseries && o->styles; s++) {
		if (o->styles_sorted) {
			/* the last entry of that name, as the scan below finds */
			size_t lo = 0, hi = o->nstyles;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (strcmp(o->styles[o->styles_sorted[mid]], c->series[s]) <= 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo && !strcmp(o->styles[o->styles_sorted[lo - 1]], c->series[s]))
				chart_series_style(c, (int)s, (int)o->styles_sorted[lo - 1]);
			continue;
		}
		for (k = 0; k < o->nstyles; k++)
			if (!strcmp(c->series[s], o->styles[k]))
				chart_series_style(c, (int)s, (int)k);
	}
}

/* Verdicts --------------------------------------------------------------- */

static enum chart_verdict verdict_of(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_BETTER: return CHART_BETTER;
	case AN_VERDICT_WORSE: return CHART_WORSE;
	case AN_VERDICT_CHANGED: return CHART_CHANGED;
	case AN_VERDICT_INCONCLUSIVE: return CHART_INCONCLUSIVE;
	default: return CHART_SAME;
	}
}

/* Builders from a comparison table --------------------------------------- */

/* The half-width of a cell's error bar.  A bar is symmetric, and the CI
 * of a harmonic mean (a throughput cell) is not: its larger side, so the
 * bar covers the interval; none when that side is unbounded (too few or
 * too noisy runs: 1 / x's interval reaches 0). */
static double err_width(const struct an_desc *d, enum chart_errbar e)
{
	if (e == CHART_ERR_SD)
		return d->sd;
	if (e == CHART_ERR_CI95 && !isnan(d->ci_low) && !isnan(d->ci_high)) {
		if (!isfinite(d->ci_high) || !isfinite(d->ci_low))
			return NAN;
		return fmax(d->mean - d->ci_low, d->ci_high - d->mean);
	}
	return NAN;
}

/* Rows of t for (bench, metric), in table order. */
static size_t pick_rows(const struct an_table *t, const char *bench, const char *metric,
			size_t *rows)
{
	size_t r, n = 0;

	for (r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].benchmark, bench) && !strcmp(t->rows[r].metric, metric))
			rows[n++] = r;
	return n;
}

int chart_model_table_metric(const struct an_table *t, const char **bench, const char **metric,
			     struct kb_err *err)
{
	size_t r;
	struct buf names = BUF_INIT;
	int many = 0;

	*bench = *metric = NULL;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];

		if (!*bench) {
			*bench = row->benchmark;
			*metric = row->metric;
		} else if (strcmp(*bench, row->benchmark) || strcmp(*metric, row->metric)) {
			many = 1;
		}
	}
	if (!*bench)
		return kb_err_set(err, "", 0, "nothing in the store matches the selection "
				  "(kbench ls shows what it holds)");
	if (!many)
		return 0;
	for (r = 0; r < t->nrows && names.len < 300; r++) {
		char item[256];

		snprintf(item, sizeof(item), "%s/%s", t->rows[r].benchmark, t->rows[r].metric);
		if (!strstr(buf_str(&names), item))
			buf_printf(&names, "%s%s", names.len ? ", " : "", item);
	}
	kb_err_set(err, "", 0, "the selection holds several benchmark/metric pairs (%s%s); "
		   "pick one with --bench and --metric", buf_str(&names),
		   names.len >= 300 ? ", ..." : "");
	buf_release(&names);
	return -1;
}

static void axis_for_metric(struct chart *c, const struct an_row *row)
{
	chart_set_axis(c, 'y', row->metric, row->unit && *row->unit ? row->unit : NULL);
}

static char *default_title(const char *bench, const char *metric, const char *what)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s: %s", bench, metric);
	if (what)
		buf_printf(&b, " (%s)", what);
	return buf_detach(&b);
}

/* Has the cell a value to draw? */
static int cell_drawn(const struct an_cell *cell)
{
	return cell->origin != AN_ORIGIN_NONE && isfinite(cell->d.mean);
}

static int cmp_config(const void *a, const void *b)
{
	return an_natural_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Style (palette entry) o gives variant name, or -1. */
static int style_for(const struct chart_model_opts *o, const char *name)
{
	size_t k;
	int found = -1;

	if (!o->styles)
		return -1;
	if (o->styles_sorted) {
		/* the last entry of that name, as the scan below finds */
		size_t lo = 0, hi = o->nstyles;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(o->styles[o->styles_sorted[mid]], name) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && !strcmp(o->styles[o->styles_sorted[lo - 1]], name))
			return (int)o->styles_sorted[lo - 1];
		return -1;
	}
	for (k = 0; k < o->nstyles; k++)
		if (!strcmp(name, o->styles[k]))
			found = (int)k;
	return found;
}

/*
 * bars / points: every value placed by its own key.  A category is a
 * configuration (labelled by what varies, in natural order); a series is
 * a variant, split by machine when the variant has values on several
 * (rows of one configuration may come from several machines or posts).
 * A variant with no value here gets no series: the note names it.
 */
static int keyed_values(struct chart *c, const struct an_table *t, const size_t *rows, size_t n,
			const struct chart_model_opts *o, struct kb_err *err)
{
	const char **uniq = xmalloc((n + 1) * sizeof(*uniq));
	int *cat_of = xmalloc((n + 1) * sizeof(*cat_of));
	size_t nu = 0, i, j, v, nempty = 0, nmissing = 0;
	struct buf left = BUF_INIT, note = BUF_INIT;

	(void)err;
	for (i = 0; i < n; i++)
		uniq[nu++] = t->rows[rows[i]].config;
	qsort(uniq, nu, sizeof(*uniq), cmp_config);
	for (i = j = 0; i < nu; i++)
		if (!j || strcmp(uniq[j - 1], uniq[i]))
			uniq[j++] = uniq[i];
	nu = j;
	for (i = 0; i < nu; i++) {
		char *label = config_label(uniq[i], uniq, nu);
		int g = chart_category(c, label);

		chart_category_config(c, g, uniq[i]);
		free(label);
	}
	for (i = 0; i < n; i++) {
		const char *cfg = t->rows[rows[i]].config;

		for (j = 0; j < nu && strcmp(uniq[j], cfg); j++)
			;
		cat_of[i] = (int)j;
	}
	for (v = 0; v < t->nvariants; v++) {
		const char *name = t->variants[v].name;
		const char *m0 = NULL;
		int have = 0, split = 0, style = style_for(o, name);

		for (i = 0; i < n; i++) {
			const struct an_row *row = &t->rows[rows[i]];

			if (!cell_drawn(&row->cells[v])) {
				if (row->cells[v].origin != AN_ORIGIN_NONE)
					nempty++;
				continue;
			}
			if (!have)
				m0 = row->machine;
			else if (an_machine_cmp(m0, row->machine))
				split = 1;
			have = 1;
		}
		if (!have) {
			if (nmissing < 5)
				buf_printf(&left, "%s%s", left.len ? ", " : "", name);
			nmissing++;
			continue;
		}
		for (i = 0; i < n; i++) {
			const struct an_row *row = &t->rows[rows[i]];
			const struct an_cell *cell = &row->cells[v];
			int s;
			size_t k;

			if (!cell_drawn(cell))
				continue;
			if (split) {
				char *sname = buf_aprintf("%s on %s", name,
							  row->machine ? row->machine : "an unknown machine");

				s = chart_series(c, sname);
				free(sname);
			} else {
				s = chart_series(c, name);
			}
			chart_series_key(c, s, name, row->machine);
			if (style >= 0)
				chart_series_style(c, s, style);
			if (c->type == CHART_POINTS)
				for (k = 0; k < cell->nvalues; k++)
					if (!isnan(cell->values[k]))
						chart_sample(c, s, cat_of[i], cell->values[k]);
			chart_value(c, s, cat_of[i], cell->d.mean,
				    err_width(&cell->d, (enum chart_errbar)o->errbar));
		}
	}
	if (nmissing) {
		buf_printf(&note, "no %s values for %s%s", t->rows[rows[0]].metric, buf_str(&left),
			   nmissing > 5 ? " and more" : "");
		if (nmissing > 5)
			buf_printf(&note, " (%zu variants)", nmissing);
		chart_note(c, buf_str(&note));
	}
	if (nempty) {
		buf_reset(&note);
		buf_printf(&note, "%zu cell%s without a mean left out", nempty, nempty == 1 ? "" : "s");
		chart_note(c, buf_str(&note));
	}
	buf_release(&left);
	buf_release(&note);
	free(uniq);
	free(cat_of);
	return 0;
}

int chart_model_from_table(struct chart *c, const struct an_table *t, const char *bench,
			   const char *metric, const struct chart_model_opts *o, struct kb_err *err)
{
	size_t *rows = xmalloc((t->nrows + 1) * sizeof(*rows));
	const char **configs = xmalloc((t->nrows + 1) * sizeof(*configs));
	size_t n = pick_rows(t, bench, metric, rows), i, v;
	char *key = NULL, *title;
	int rc = 0;

	if (n == 0) {
		rc = kb_err_set(err, "", 0, "no rows for %s/%s in the selection", bench, metric);
		goto out;
	}
	for (i = 0; i < n; i++)
		configs[i] = t->rows[rows[i]].config;
	key = o->xkey ? xstrdup(o->xkey) : varying_key(configs, n);
	c->errbar = (enum chart_errbar)o->errbar;
	axis_for_metric(c, &t->rows[rows[0]]);
	title = default_title(bench, metric, NULL);
	chart_set_title(c, o->title ? o->title : title);
	free(title);
	if (c->type == CHART_BARS || c->type == CHART_POINTS) {
		c->log_y = o->log_y;
		chart_set_axis(c, 'x', key ? key : "configuration", NULL);
		rc = keyed_values(c, t, rows, n, o, err);
		if (rc)
			goto out;
	} else if (c->type == CHART_LINES) {
		if (!key) {
			rc = kb_err_set(err, "", 0, "a lines chart needs one numeric configuration key "
					"that varies (tasks, groups, jobs); pin the others with --config "
					"or name it with --x KEY");
			goto out;
		}
		chart_set_axis(c, 'x', key, NULL);
		c->log_x = o->log_x;
		c->log_y = o->log_y;
		for (v = 0; v < t->nvariants; v++)
			chart_series(c, t->variants[v].name);
		chart_model_styles(c, o);
		for (i = 0; i < n; i++) {
			const struct an_row *row = &t->rows[rows[i]];
			struct buf val = BUF_INIT;
			double x;
			int bad = rec_config_value(row->config, key, &val) < 0 ||
				  num_parse(buf_str(&val), val.len, &x) < 0;

			buf_release(&val);
			if (bad) {
				rc = kb_err_set(err, "", 0, "configuration '%s' has no numeric %s",
						row->config, key);
				goto out;
			}
			for (v = 0; v < t->nvariants; v++) {
				const struct an_cell *cell = &row->cells[v];

				if (cell->origin == AN_ORIGIN_NONE || isnan(cell->d.mean))
					continue;
				chart_xy(c, (int)v, x, cell->d.mean, err_width(&cell->d, (enum chart_errbar)o->errbar));
			}
		}
		/* configurations that differ in more than the x key would overlap */
		for (i = 0; i < n; i++) {
			struct kvs kv;
			size_t k;

			kvs_parse(&kv, configs[i]);
			for (k = 0; k < kv.n && !rc; k++)
				if (strcmp(kv.k[k], key) && key_varies(configs, n, kv.k[k]))
					rc = kb_err_set(err, "", 0, "configurations also differ in %s; "
							"pin it with --config %s=VALUE", kv.k[k], kv.k[k]);
			kvs_release(&kv);
			if (rc)
				goto out;
		}
	} else {
		rc = kb_err_set(err, "", 0, "internal: %s is not a table chart", chart_type_name(c->type));
	}
out:
	free(key);
	free(rows);
	free(configs);
	return rc;
}

/* Has row a bar in the change chart (a cell with a change to draw)? */
static int row_drawn(const struct an_table *t, const struct an_row *row)
{
	size_t v;

	for (v = 0; v < t->nvariants; v++) {
		const struct an_cell *cell = &row->cells[v];
		if (cell->has_change && cell->chg.verdict != AN_VERDICT_NONE && !isnan(cell->chg.change))
			return 1;
	}
	return 0;
}

int chart_model_change(struct chart *c, const struct an_table *t, const char *bench,
		       const struct chart_model_opts *o, struct kb_err *err)
{
	const char **configs = xmalloc((t->nrows + 1) * sizeof(*configs));
	size_t r, v, n = 0, nrows = 0, ncands = 0;
	int many_bench = 0, many_metric = 0;
	const char *b0 = NULL, *m0 = NULL;
	struct buf title = BUF_INIT;

	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];

		if (bench && strcmp(row->benchmark, bench))
			continue;
		if (b0 && strcmp(b0, row->benchmark))
			many_bench = 1;
		if (m0 && strcmp(m0, row->metric))
			many_metric = 1;
		if (!b0) {
			b0 = row->benchmark;
			m0 = row->metric;
		}
		/* labels tell apart the rows drawn: a row with no bar (a
		 * configuration only one variant has) does not lengthen them */
		if (row_drawn(t, row))
			configs[n++] = row->config;
	}
	for (v = 0; v < t->nvariants; v++)
		if (v != t->baseline)
			ncands++;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		char *cfg;

		if (bench && strcmp(row->benchmark, bench))
			continue;
		cfg = config_label(row->config, configs, n);
		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *cell = &row->cells[v];
			struct buf label = BUF_INIT;

			if (!cell->has_change || cell->chg.verdict == AN_VERDICT_NONE ||
			    isnan(cell->chg.change))
				continue;
			if (ncands > 1)
				buf_printf(&label, "%s: ", t->variants[v].name);
			if (many_bench)
				buf_printf(&label, "%s ", row->benchmark);
			buf_puts(&label, cfg);
			if (many_metric)
				buf_printf(&label, " %s", row->metric);
			chart_change(c, buf_str(&label), cell->chg.change, cell->chg.ci_low,
				     cell->chg.ci_high, verdict_of(cell->chg.verdict));
			buf_release(&label);
			nrows++;
		}
		free(cfg);
	}
	free(configs);
	if (!nrows)
		return kb_err_set(err, "", 0, "no changes to draw: the selection has no variant "
				  "with data beside the baseline");
	c->threshold = t->opts.delta;
	if (many_bench) {
		/* the title names what the rows share, never one benchmark of several */
		struct buf names = BUF_INIT;
		size_t nb = 0;

		for (r = 0; r < t->nrows; r++) {
			const char *b = t->rows[r].benchmark;
			size_t q;

			if (bench && strcmp(b, bench))
				continue;
			for (q = 0; q < r && strcmp(t->rows[q].benchmark, b); q++)
				;
			if (q < r)
				continue;
			if (nb++ < 3)
				buf_printf(&names, "%s%s", names.len ? ", " : "", b);
		}
		if (nb > 3)
			buf_printf(&title, "%zu benchmarks", nb);
		else
			buf_puts(&title, buf_str(&names));
		buf_release(&names);
	} else {
		buf_puts(&title, b0);
	}
	buf_printf(&title, "%s%s: change vs %s", many_metric ? "" : " ", many_metric ? "" : m0,
		   t->variants[t->baseline].name);
	chart_set_title(c, o->title ? o->title : buf_str(&title));
	buf_release(&title);
	chart_set_axis(c, 'x', t->opts.conv == AN_CONV_RAW ? "change" :
		       t->opts.conv == AN_CONV_SPEED ? "speed change" : "improvement", "%");
	return 0;
}

int chart_model_errbar(const char *s, int *e)
{
	if (!s || !strcmp(s, "sd"))
		*e = CHART_ERR_SD;
	else if (!strcmp(s, "ci") || !strcmp(s, "ci95"))
		*e = CHART_ERR_CI95;
	else if (!strcmp(s, "none"))
		*e = CHART_ERR_NONE;
	else
		return -1;
	return 0;
}


char **chart_model_short_names(const char *const *names, size_t n, char **suffix)
{
	char **out = xmalloc((n + 1) * sizeof(*out));
	const char *suf = NULL;
	size_t i, j;
	int ok = 1;

	*suffix = NULL;
	for (i = 0; i < n && ok; i++) {
		const char *at = strchr(names[i], '@');

		if (!at)
			continue;
		if (at == names[i] || !at[1])
			ok = 0;
		else if (!suf)
			suf = at;
		else if (strcmp(suf, at))
			ok = 0;
	}
	ok = ok && suf;
	for (i = 0; i < n; i++) {
		const char *at = strchr(names[i], '@');

		out[i] = ok && at ? buf_aprintf("%.*s", (int)(at - names[i]), names[i]) : xstrdup(names[i]);
	}
	/* distinct without it?  (the same name twice in names is fine) */
	for (i = 0; i < n && ok; i++)
		for (j = i + 1; j < n && ok; j++)
			if (!strcmp(out[i], out[j]) && strcmp(names[i], names[j]))
				ok = 0;
	if (!ok) {
		for (i = 0; i < n; i++) {
			free(out[i]);
			out[i] = xstrdup(names[i]);
		}
		return out;
	}
	*suffix = xstrdup(suf);
	return out;
}

void chart_model_names_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
