/*
 * regress_history.c - a history and its change points as text, JSON and a
 * history chart (see regress.h).
 */
#include "regress.h"
#include "json.h"

#include "../analyze/compare.h"
#include "../analyze/history.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../ingest/record.h"
#include "chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void change_text(char *out, size_t n, const struct an_hchange *c)
{
	snprintf(out, n, "%+.1f%% %s", c->change_pct, an_verdict_name(c->verdict));
}

static void fmt_p(char *out, size_t n, double p)
{
	if (isnan(p))
		snprintf(out, n, "-");
	else if (p < 1e-300)
		snprintf(out, n, "<1e-300");
	else
		snprintf(out, n, "%.2g", p);
}

static int text(FILE *f, const struct an_history *h)
{
	size_t s, i, c;

	if (!h->nseries)
		fprintf(f, "no series\n");
	for (s = 0; s < h->nseries; s++) {
		const struct an_hseries *se = &h->series[s];
		size_t w = 7;

		for (i = 0; i < se->npoints; i++)
			if (strlen(se->points[i].variant) > w)
				w = strlen(se->points[i].variant);
		if (w > 60)
			w = 60;
		fprintf(f, "%s%s %s%s%s%s %s%s%s%s: %zu variants, %zu change point%s\n", s ? "\n" : "",
			se->benchmark, se->machine ? "on " : "", se->machine ? se->machine : "",
			se->machine ? " " : "", se->config[0] ? se->config : "-", se->metric,
			se->unit[0] ? " (" : "", se->unit, se->unit[0] ? ")" : "", se->npoints,
			se->nchanges, se->nchanges == 1 ? "" : "s");
		fprintf(f, "  (%s order; Welch p <= %g, change >= %g%%, window %zu; %s is better)\n",
			an_order_name(h->opts.order), h->opts.pvalue, h->opts.threshold,
			h->opts.window, an_direction_name(se->dir));
		for (i = 0; i < se->npoints && !se->points[i].harmonic; i++)
			;
		if (i < se->npoints)
			fprintf(f, "  (mean: the harmonic mean of the runs, as mmtests' Hmean)\n");
		fprintf(f, "  %-*s %5s %12s %12s\n", (int)w, "variant", "n", "median", "mean");
		for (i = 0, c = 0; i < se->npoints; i++) {
			const struct an_hpoint *p = &se->points[i];

			for (; c < se->nchanges && se->changes[c].index == i; c++) {
				const struct an_hchange *ch = &se->changes[c];
				char what[128], ps[32];

				change_text(what, sizeof(what), ch);
				fmt_p(ps, sizeof(ps), ch->p);
				fprintf(f, "  \xc2\xb7\xc2\xb7\xc2\xb7 %s \xc2\xb7\xc2\xb7\xc2\xb7  median %.6g -> %.6g%s%s, p=%s, "
					   "n %zu vs %zu, first after: %s\n",
					what, ch->before_median, ch->after_median, se->unit[0] ? " " : "",
					se->unit, ps, ch->n_before, ch->n_after, p->variant);
			}
			fprintf(f, "  %-*s %5zu %12.6g %12.6g\n", (int)w, p->variant, p->n, p->median,
				p->mean);
		}
	}
	return ferror(f) ? -1 : 0;
}

static int json(FILE *f, const struct an_history *h, struct kb_err *err)
{
	json_t *root = json_object(), *series = json_array();
	size_t s, i;

	json_object_set_new(root, "kbench", json_string("history"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "metric", h->nseries ? json_string(h->series[0].metric) : json_null());
	json_object_set_new(root, "order", json_string(an_order_name(h->opts.order)));
	json_object_set_new(root, "pvalue", render_jnum(h->opts.pvalue));
	json_object_set_new(root, "threshold", render_jnum(h->opts.threshold));
	json_object_set_new(root, "window", json_integer((json_int_t)h->opts.window));
	for (s = 0; s < h->nseries; s++) {
		const struct an_hseries *se = &h->series[s];
		json_t *o = json_object(), *pts = json_array(), *chs = json_array();

		json_object_set_new(o, "benchmark", json_string(se->benchmark));
		json_object_set_new(o, "config", json_string(se->config));
		if (se->machine)
			json_object_set_new(o, "machine", json_string(se->machine));
		json_object_set_new(o, "metric", json_string(se->metric));
		json_object_set_new(o, "unit", json_string(se->unit));
		json_object_set_new(o, "better", json_string(an_direction_name(se->dir)));
		for (i = 0; i < se->npoints; i++) {
			const struct an_hpoint *p = &se->points[i];
			json_t *po = json_object();

			json_object_set_new(po, "variant", json_string(p->variant));
			json_object_set_new(po, "version", json_string(p->version));
			json_object_set_new(po, "n", json_integer((json_int_t)p->n));
			json_object_set_new(po, "runs", json_integer((json_int_t)p->nruns));
			json_object_set_new(po, "median", render_jnum(p->median));
			json_object_set_new(po, "mean", render_jnum(p->mean));
			json_object_set_new(po, "mean_kind",
					    json_string(p->harmonic ? "harmonic" : p->nruns ? "arithmetic"
										   : "published"));
			json_array_append_new(pts, po);
		}
		for (i = 0; i < se->nchanges; i++) {
			const struct an_hchange *c = &se->changes[i];
			json_t *co = json_object();

			json_object_set_new(co, "index", json_integer((json_int_t)c->index));
			json_object_set_new(co, "variant", json_string(se->points[c->index].variant));
			json_object_set_new(co, "before_median", render_jnum(c->before_median));
			json_object_set_new(co, "after_median", render_jnum(c->after_median));
			json_object_set_new(co, "change_pct", render_jnum(c->change_pct));
			json_object_set_new(co, "p", c->p == 0 ? json_real(0) : render_jnum(c->p));
			json_object_set_new(co, "verdict", json_string(an_verdict_name(c->verdict)));
			json_object_set_new(co, "n_before", json_integer((json_int_t)c->n_before));
			json_object_set_new(co, "n_after", json_integer((json_int_t)c->n_after));
			json_array_append_new(chs, co);
		}
		json_object_set_new(o, "points", pts);
		json_object_set_new(o, "changes", chs);
		json_array_append_new(series, o);
	}
	json_object_set_new(root, "series", series);
	return render_json_write(f, root, err);
}

int render_history(FILE *f, const struct an_history *h, enum render_regress_fmt fmt,
		   struct kb_err *err)
{
	if (fmt == RENDER_REGRESS_JSON)
		return json(f, h, err);
	if (text(f, h) < 0)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

enum chart_verdict render_chart_verdict(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_WORSE: return CHART_WORSE;
	case AN_VERDICT_BETTER: return CHART_BETTER;
	case AN_VERDICT_CHANGED: return CHART_CHANGED;
	case AN_VERDICT_INCONCLUSIVE: return CHART_INCONCLUSIVE;
	default: return CHART_SAME;
	}
}

/* The keys of the series' configurations, each once; and whether each
 * takes more than one value (varies 1) or one value and goes missing
 * from some series (2) across them. */
struct hkeys {
	char **key;
	int *varies;
	size_t n, cap, vcap;
};

static void hkeys_build(struct hkeys *k, const struct an_history *h)
{
	struct buf kk = BUF_INIT, v = BUF_INIT, first = BUF_INIT;
	size_t s, i;

	memset(k, 0, sizeof(*k));
	for (s = 0; s < h->nseries; s++) {
		const char *cfg = h->series[s].config;

		while (rec_config_next(&cfg, &kk, &v)) {
			for (i = 0; i < k->n && strcmp(k->key[i], buf_str(&kk)); i++)
				;
			if (i < k->n)
				continue;
			xgrow(&k->key, &k->cap, k->n + 1, sizeof(*k->key));
			xgrow(&k->varies, &k->vcap, k->n + 1, sizeof(*k->varies));
			k->key[k->n] = xstrdup(buf_str(&kk));
			k->varies[k->n++] = 0;
		}
	}
	for (i = 0; i < k->n; i++) {
		int seen = 0, missing = 0;      /* first: the value where first seen */

		/* 1: two values; 2: one value, missing from some series (a
		 * numa_test disturb= only the raw blocks' posts state) */
		for (s = 0; s < h->nseries && k->varies[i] != 1; s++) {
			if (rec_config_value(h->series[s].config, k->key[i], &v) < 0)
				missing = 1;
			else if (!seen++)
				buf_puts(&first, buf_str(&v));
			else if (strcmp(buf_str(&first), buf_str(&v)))
				k->varies[i] = 1;
		}
		if (k->varies[i] != 1 && missing)
			k->varies[i] = 2;
		buf_reset(&first);
	}
	buf_release(&kk);
	buf_release(&v);
	buf_release(&first);
}

static void hkeys_release(struct hkeys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->key[i]);
	free(k->key);
	free(k->varies);
}

/* config's keys whose varies is want, as k=v,k=v. */
static void put_keys(struct buf *b, const char *config, const struct hkeys *k, int want)
{
	struct buf kk = BUF_INIT, v = BUF_INIT;
	size_t i, n0 = b->len;

	while (rec_config_next(&config, &kk, &v)) {
		for (i = 0; i < k->n && strcmp(k->key[i], buf_str(&kk)); i++)
			;
		if (i < k->n && k->varies[i] == want)
			buf_printf(b, "%s%s=%s", b->len > n0 ? "," : "", buf_str(&kk), buf_str(&v));
	}
	buf_release(&kk);
	buf_release(&v);
}

/* Legend order: benchmark, machine, then configuration (natural). */
static int cmp_series(const void *a, const void *b, void *ctx)
{
	const struct an_history *h = ctx;
	const struct an_hseries *x = &h->series[*(const size_t *)a];
	const struct an_hseries *y = &h->series[*(const size_t *)b];
	int c = strcmp(x->benchmark, y->benchmark);

	if (!c)
		c = an_machine_cmp(x->machine, y->machine);
	if (!c)
		c = an_natural_cmp(x->config, y->config);
	if (!c)
		c = *(const size_t *)a < *(const size_t *)b ? -1 : 1;
	return c;
}

static int cmp_point_rank(const void *a, const void *b)
{
	const struct an_hpoint *x = *(const struct an_hpoint *const *)a;
	const struct an_hpoint *y = *(const struct an_hpoint *const *)b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * Series are named by what varies among them (benchmark, machine, the
 * configuration keys that differ), the title by what they share, so a
 * legend of six numa_test series on one machine reads tasks=4 .. tasks=64
 * rather than the same cut-off prefix six times.  The x axis is the
 * history order of every variant (points carry their rank in it), so
 * series of different machines interleave in that order.
 */
int render_history_chart(struct chart *c, const struct an_history *h, const char *title,
			 struct kb_err *err)
{
	size_t s, i, npts = 0, k;
	struct buf t = BUF_INIT, name = BUF_INIT, common = BUF_INIT;
	const struct an_hpoint **all;
	size_t *order;
	struct hkeys keys;
	int vary_bench = 0, vary_machine = 0;

	for (s = 0; s < h->nseries; s++) {
		npts += h->series[s].npoints;
		if (strcmp(h->series[s].benchmark, h->series[0].benchmark))
			vary_bench = 1;
		if (an_machine_cmp(h->series[s].machine, h->series[0].machine))
			vary_machine = 1;
	}
	if (!npts)
		return kb_err_set(err, "", 0, "the history has no points to draw");
	all = xmalloc(npts * sizeof(*all));
	for (s = k = 0; s < h->nseries; s++)
		for (i = 0; i < h->series[s].npoints; i++)
			all[k++] = &h->series[s].points[i];
	qsort(all, npts, sizeof(*all), cmp_point_rank);
	for (i = 0; i < npts; i++)
		chart_category(c, all[i]->variant);
	free(all);
	hkeys_build(&keys, h);
	order = xmalloc((h->nseries + 1) * sizeof(*order));
	for (s = 0; s < h->nseries; s++)
		order[s] = s;
	qsort_r(order, h->nseries, sizeof(*order), cmp_series, (void *)h);
	for (k = 0; k < h->nseries; k++) {
		const struct an_hseries *se = &h->series[order[k]];
		int ser;

		buf_reset(&name);
		if (vary_bench)
			buf_puts(&name, se->benchmark);
		{
			struct buf cfg = BUF_INIT;

			put_keys(&cfg, se->config, &keys, 1);
			if (cfg.len)
				buf_printf(&name, "%s%s", name.len ? " " : "", buf_str(&cfg));
			buf_release(&cfg);
		}
		/* the machine next: a legend cuts the end of a long label, and
		 * a key only some series have is the least telling */
		if (vary_machine)
			buf_printf(&name, "%son %s", name.len ? " " : "",
				   se->machine ? se->machine : "an unknown machine");
		{
			struct buf cfg = BUF_INIT;

			put_keys(&cfg, se->config, &keys, 2);
			if (cfg.len)
				buf_printf(&name, "%s%s", name.len ? ", " : "", buf_str(&cfg));
			buf_release(&cfg);
		}
		if (!name.len)
			buf_puts(&name, se->metric);
		ser = chart_series(c, buf_str(&name));
		for (i = 0; i < se->npoints; i++)
			chart_value(c, ser, chart_category(c, se->points[i].variant),
				    se->points[i].median, NAN);
		for (i = 0; i < se->nchanges; i++) {
			char what[640];

			change_text(what, sizeof(what), &se->changes[i]);
			if (h->nseries > 1) {
				size_t l = strlen(what);
				snprintf(what + l, sizeof(what) - l, " (%s)", buf_str(&name));
			}
			chart_history_mark(c, chart_category(c, se->points[se->changes[i].index].variant),
					   what, render_chart_verdict(se->changes[i].verdict));
		}
	}
	/* what every series shares */
	if (!vary_bench)
		buf_puts(&common, h->series[0].benchmark);
	{
		struct buf cfg = BUF_INIT;

		put_keys(&cfg, h->series[0].config, &keys, 0);
		if (cfg.len)
			buf_printf(&common, "%s%s", common.len ? " " : "", buf_str(&cfg));
		buf_release(&cfg);
	}
	if (!vary_machine && h->series[0].machine)
		buf_printf(&common, "%son %s", common.len ? " " : "", h->series[0].machine);
	if (title)
		buf_puts(&t, title);
	else
		buf_printf(&t, "%s%s%s history", buf_str(&common), common.len ? ": " : "",
			   h->series[0].metric);
	chart_set_title(c, buf_str(&t));
	free(order);
	hkeys_release(&keys);
	buf_release(&t);
	buf_release(&name);
	buf_release(&common);
	chart_set_axis(c, 'x', "variant", NULL);
	chart_set_axis(c, 'y', h->series[0].metric, h->series[0].unit[0] ? h->series[0].unit : NULL);
	return 0;
}
