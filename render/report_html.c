/*
 * report_html.c - the report as one HTML page: CSS inline, charts as
 * base64 PNG data: URIs (or PNG files in an assets directory), no
 * JavaScript, no network.  Every string from the model goes through
 * html_escape(); the only markup written unescaped is this file's own.
 */
#include "report_backend.h"
#include "alerts.h"
#include "report_verdicts.h"
#include "chart.h"
#include "chart_pool.h"
#include "html.h"
#include "table.h"
#include "../analyze/regress.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
	":root{--ink:#1d2330;--mute:#5b6472;--rule:#d8dde5;--bg:#fff;--head:#f3f5f8;"
	"--worse:#fbd5d0;--worse-ink:#8a1c0e;--better:#d3f0dc;--better-ink:#14602c;"
	"--inc:#fdefc8;--inc-ink:#7a5300;--same:#eef0f3;--changed:#dbe7fb;--changed-ink:#1d4f91}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:1180px;padding:24px 28px 48px;color:var(--ink);"
	"background:var(--bg);font:15px/1.45 system-ui,-apple-system,'Segoe UI',"
	"'DejaVu Sans',sans-serif}\n"
	"h1{font-size:26px;margin:0 0 4px}h2{font-size:21px;margin:34px 0 10px;"
	"padding-bottom:4px;border-bottom:2px solid var(--rule)}"
	"h3{font-size:16px;margin:22px 0 6px}\n"
	".meta{color:var(--mute);margin:0 0 14px}\n"
	"table{border-collapse:collapse;margin:6px 0 10px;font-size:13.5px}\n"
	"th,td{border:1px solid var(--rule);padding:3px 7px;vertical-align:top}\n"
	"th{background:var(--head);text-align:left;font-weight:600}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".wide{overflow-x:auto;max-width:100%}\n"
	".v-worse{background:var(--worse);color:var(--worse-ink)}"
	".v-better{background:var(--better);color:var(--better-ink)}"
	".v-inconclusive{background:var(--inc);color:var(--inc-ink)}"
	".v-same{background:var(--same)}.v-changed{background:var(--changed);color:var(--changed-ink)}\n"
	".ci{display:block;font-size:11.5px;opacity:.85}\n"
	".mark{font-size:11px;font-weight:700;margin-left:2px;color:#a23b00}\n"
	".base{font-weight:600}\n"
	".counts{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0 12px}\n"
	".counts span{padding:6px 12px;border-radius:6px;font-weight:600}\n"
	".notes{font-size:13px;color:var(--mute);margin:2px 0 14px;padding-left:18px}\n"
	"figure{margin:10px 0 18px;break-inside:avoid;page-break-inside:avoid}\n"
	"figure img{max-width:100%;height:auto;border:1px solid var(--rule)}\n"
	"figcaption{font-size:13px;color:var(--mute)}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:8px 18px}\n"
	".jobs{display:flex;flex-wrap:wrap;gap:6px 22px}\n"
	".jobs table{font-size:12.5px}.jobs caption{text-align:left;font-weight:600;padding:2px 0}\n"
	"td.moved{color:#a23b00;font-weight:700}\n"
	"tr.ev td{border-top:0;font-size:12.5px;color:var(--mute);padding-top:0}\n"
	"footer{margin-top:36px;font-size:13.5px;color:var(--mute)}\n"
	"@media print{body{max-width:none;padding:0;font-size:11pt}.wide{overflow:visible}"
	"h2{break-after:avoid}table{break-inside:auto}tr{break-inside:avoid}"
	".charts{display:block}}\n";

static void esc(struct buf *o, const char *s)
{
	html_escape(o, s);
}

static const char *vclass(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_WORSE: return "v-worse";
	case AN_VERDICT_BETTER: return "v-better";
	case AN_VERDICT_INCONCLUSIVE: return "v-inconclusive";
	case AN_VERDICT_CHANGED: return "v-changed";
	case AN_VERDICT_SAME: return "v-same";
	default: return "";
	}
}

/* Charts ------------------------------------------------------------------- */

struct ctx {
	struct buf *o;
	const char *assets_dir, *assets_href;
	size_t nimg;
	struct kb_err *err;
	size_t charts_max;
	struct chart_pool *pool;        /* writes given charts' files, or NULL */
	struct report_pend *pend;              /* inline charts drawn by the pool: the
					 * section's text in pieces, or NULL */
};

/*
 * A section whose inline charts the pool is drawing: its text in pieces,
 * each but the last followed by one chart's PNG bytes (as base64 in the
 * page).  It is written out when the next section comes, or at the end,
 * once the pool has drawn them: meanwhile the report builds the next
 * section.  Pieces are allocated one by one, so that the PNG buffer the
 * pool fills stays where it is.
 */
struct report_pend_piece {
	struct buf text;
	struct buf png;
	int has_png;
};

struct report_pend {
	struct report_pend_piece **v;
	size_t n, cap;
};

static void pend_free(struct report_pend *pd)
{
	size_t i;

	if (!pd)
		return;
	for (i = 0; i < pd->n; i++) {
		buf_release(&pd->v[i]->text);
		buf_release(&pd->v[i]->png);
		free(pd->v[i]);
	}
	free(pd->v);
	free(pd);
}

/* End the piece being written with o's text (o is left empty); the new
 * piece's PNG is to come. */
static struct report_pend_piece *pend_cut(struct report_pend *pd, struct buf *o)
{
	struct report_pend_piece *pc = xcalloc(1, sizeof(*pc));

	xgrow(&pd->v, &pd->cap, pd->n + 1, sizeof(*pd->v));
	pd->v[pd->n++] = pc;
	pc->text = *o;
	*o = (struct buf)BUF_INIT;
	return pc;
}

/* One chart as a figure.  take: the same chart, the caller's to give
 * away: with a pool, the pool writes its file (with an assets directory)
 * or draws its PNG into the section's pieces (x->pend), and frees it,
 * while the report goes on; take->chart is left NULL.  Everything the
 * figure says of the chart is read before. */
static int put_chart(struct ctx *x, const struct report_chart *rc, struct report_chart *take)
{
	const char *alt = rc->caption ? rc->caption : rc->chart->title;
	double cw, ch;
	char *path = NULL;
	struct report_pend_piece *later = NULL;
	int given = 0;

	buf_puts(x->o, "<figure>");
	if (x->assets_dir) {
		char name[64];
		struct buf p = BUF_INIT;

		snprintf(name, sizeof(name), "chart-%zu.png", ++x->nimg);
		buf_printf(&p, "%s/%s", x->assets_dir, name);
		path = buf_detach(&p);
		if (!(take && x->pool) && chart_render_file(rc->chart, path, x->err) < 0) {
			free(path);
			return -1;
		}
		buf_puts(x->o, "<img src=\"");
		if (x->assets_href && *x->assets_href) {
			html_url_path(x->o, x->assets_href);    /* a#b c?d: a path */
			buf_putc(x->o, '/');
		}
		html_url_path(x->o, name);
		buf_puts(x->o, "\"");
	} else if (take && x->pool && x->pend) {
		buf_puts(x->o, "<img src=\"data:image/png;base64,");
		later = pend_cut(x->pend, x->o);
		later->has_png = 1;
		buf_puts(x->o, "\"");
		x->nimg++;
	} else {
		struct buf png = BUF_INIT;

		if (chart_render_png_buf(rc->chart, &png, x->err) < 0) {
			buf_release(&png);
			return -1;
		}
		buf_puts(x->o, "<img src=\"data:image/png;base64,");
		html_base64(x->o, png.data, png.len);
		buf_puts(x->o, "\"");
		buf_release(&png);
		x->nimg++;
	}
	if (chart_size(rc->chart, &cw, &ch, x->err) < 0) {
		free(path);
		return -1;
	}
	buf_printf(x->o, " width=\"%.0f\" height=\"%.0f\" alt=\"", cw, ch);
	esc(x->o, alt);
	buf_puts(x->o, "\">");
	if (rc->caption) {
		buf_puts(x->o, "<figcaption>");
		esc(x->o, rc->caption);
		buf_puts(x->o, "</figcaption>");
	}
	buf_puts(x->o, "</figure>\n");
	if (take && x->pool && (later || path)) {
		struct chart *c = take->chart;

		take->chart = NULL;
		given = later ? chart_pool_png(x->pool, c, &later->png, x->err)
			      : chart_pool_file(x->pool, c, path, x->err);
	}
	free(path);
	return given;
}

/* take: cs itself, the caller's to give away (put_chart()), or NULL. */
static int put_charts(struct ctx *x, const struct report_charts *cs, struct report_charts *take)
{
	size_t i;

	if (!cs->n)
		return 0;
	buf_puts(x->o, "<div class=\"charts\">\n");
	for (i = 0; i < cs->n; i++)
		if (put_chart(x, &cs->v[i], take ? &take->v[i] : NULL) < 0)
			return -1;
	buf_puts(x->o, "</div>\n");
	return 0;
}

/* Summary ------------------------------------------------------------------ */

static void item_row(struct buf *o, const struct report_ditem *d)
{
	buf_puts(o, "<tr><td>");
	esc(o, d->bench);
	buf_puts(o, "</td><td>");
	esc(o, d->metric);
	buf_puts(o, "</td><td>");
	esc(o, *d->config ? d->config : "-");
	buf_puts(o, "</td><td>");
	esc(o, d->variant);
	buf_puts(o, " vs ");
	esc(o, d->baseline);
	buf_puts(o, "</td><td class=\"num\">");
	esc(o, d->values);
	buf_printf(o, "</td><td class=\"num %s\">", vclass(d->verdict));
	esc(o, d->change);
	if (*d->ci) {
		buf_puts(o, "<span class=\"ci\">");
		esc(o, d->ci);
		buf_puts(o, "</span>");
	}
	buf_puts(o, "</td><td class=\"num\">");
	if (!isnan(d->q))
		buf_printf(o, "%.2g", d->q);
	buf_puts(o, "</td></tr>\n");
}

static void items_table(struct buf *o, const struct report_ditem *items, size_t n)
{
	size_t i;

	buf_puts(o, "<div class=\"wide\"><table><tr><th>benchmark</th><th>metric</th>"
		    "<th>config</th><th>variant</th><th class=\"num\">mean(sd)</th>"
		    "<th class=\"num\">change [95% CI]</th><th class=\"num\">q</th></tr>\n");
	for (i = 0; i < n; i++)
		item_row(o, &items[i]);
	buf_puts(o, "</table></div>\n");
}

static void summary(struct buf *o, const struct report_gsum *s)
{
	size_t show;

	buf_puts(o, "<section id=\"verdicts\"><h2>Verdicts</h2>\n");
	buf_printf(o, "<div class=\"counts\"><span class=\"v-worse\">%zu worse</span>"
		   "<span class=\"v-better\">%zu better</span>"
		   "<span class=\"v-inconclusive\">%zu inconclusive</span>"
		   "<span class=\"v-changed\">%zu changed</span>"
		   "<span class=\"v-same\">%zu same</span></div>\n"
		   "<p>%zu comparisons against the baseline of each benchmark.</p>\n",
		   s->nworse, s->nbetter, s->ninconclusive, s->nchanged, s->nsame, s->ntotal);
	if (s->nworse_items) {
		show = s->nworse_items < 10 ? s->nworse_items : 10;
		buf_printf(o, "<h3>Worst regressions%s</h3>\n", s->nworse_items > show ? " (top 10)" : "");
		items_table(o, s->worse, show);
	} else {
		buf_puts(o, "<p>No regression: no comparison is significantly worse.</p>\n");
	}
	if (s->nbetter_items) {
		show = s->nbetter_items < 5 ? s->nbetter_items : 5;
		buf_printf(o, "<h3>Largest improvements%s</h3>\n", s->nbetter_items > show ? " (top 5)" : "");
		items_table(o, s->better, show);
	}
	buf_puts(o, "</section>\n");
}

/* Findings of one verdict, at most max of them (worse: all up to 50). */
static void findings_of(struct buf *o, const struct an_regress *g, enum an_verdict want,
			size_t max)
{
	size_t i, n = 0, total = 0;

	total = an_regress_count(g, want);
	for (i = 0; i < g->nfindings && n < max; i++) {
		const struct an_finding *f = &g->findings[i];
		struct buf b = BUF_INIT;

		if (f->verdict != want)
			continue;
		n++;
		buf_printf(o, "<tr><td class=\"%s\">%s</td><td>%s</td><td>", vclass(f->verdict),
			   an_verdict_name(f->verdict),
			   f->kind == AN_FINDING_PLACEMENT ? "placement" : "performance");
		esc(o, f->benchmark);
		if (f->machine) {
			buf_puts(o, " on ");
			esc(o, f->machine);
		}
		buf_puts(o, "</td><td>");
		esc(o, *f->config ? f->config : "-");
		buf_puts(o, "</td><td>");
		esc(o, f->metric);
		buf_puts(o, "</td><td>");
		esc(o, f->variant);
		buf_printf(o, "</td><td class=\"num %s\">", vclass(f->verdict));
		if (!isnan(f->change_pct))
			buf_printf(&b, "%+.1f%%", f->change_pct);
		esc(o, buf_str(&b));
		buf_reset(&b);
		if (!isnan(f->ci_low) && !isnan(f->ci_high)) {
			buf_printf(&b, "[%+.1f, %+.1f]", f->ci_low, f->ci_high);
			buf_puts(o, "<span class=\"ci\">");
			esc(o, buf_str(&b));
			buf_puts(o, "</span>");
		}
		buf_puts(o, "</td><td class=\"num\">");
		if (!isnan(f->q))
			buf_printf(o, "%.2g", f->q);
		buf_puts(o, "</td></tr>\n");
		if (f->evidence && *f->evidence) {
			buf_puts(o, "<tr class=\"ev\"><td></td><td colspan=\"7\">");
			esc(o, f->evidence);
			buf_puts(o, "</td></tr>\n");
		}
		buf_release(&b);
	}
	if (total > n)
		buf_printf(o, "<tr class=\"ev\"><td></td><td colspan=\"7\">and %zu more %s "
			   "(see the tables below, or kbench regress)</td></tr>\n", total - n,
			   an_verdict_name(want));
}

static int findings(struct ctx *x, const struct report *r)
{
	const struct an_regress *g = r->regress;
	struct buf *o = x->o;
	size_t k;

	if (!g)
		return 0;
	buf_puts(o, "<section id=\"findings\"><h2>Findings</h2>\n<p>What <code>kbench regress</code> "
		    "finds against ");
	esc(o, g->baseline ? g->baseline : "the baseline");
	buf_printf(o, ": %zu worse, %zu better, %zu changed, %zu inconclusive (performance and "
		   "numa_test placement checks).</p>\n",
		   g->nworse, g->nbetter, g->nchanged, g->ninconclusive);
	if (g->nworse + g->nbetter + g->nchanged + g->ninconclusive) {
		buf_puts(o, "<div class=\"wide\"><table class=\"findings\"><tr><th>verdict</th>"
			    "<th>kind</th><th>benchmark</th><th>config</th><th>metric / check</th>"
			    "<th>variant</th><th class=\"num\">change [95% CI]</th>"
			    "<th class=\"num\">q</th></tr>\n");
		findings_of(o, g, AN_VERDICT_WORSE, 50);
		findings_of(o, g, AN_VERDICT_BETTER, 8);
		findings_of(o, g, AN_VERDICT_CHANGED, 8);
		findings_of(o, g, AN_VERDICT_INCONCLUSIVE, 5);
		buf_puts(o, "</table></div>\n");
	} else {
		buf_puts(o, "<p>No finding: every comparison is the same.</p>\n");
	}
	if (r->nfinding_charts) {
		buf_puts(o, "<div class=\"charts\">\n");
		for (k = 0; k < r->nfinding_charts; k++)
			if (put_chart(x, &r->finding_charts[k].c, NULL) < 0)
				return -1;
		buf_puts(o, "</div>\n");
	}
	buf_puts(o, "</section>\n");
	return 0;
}

/* Comparison tables ----------------------------------------------------------- */

/* Metrics of the table in order of first appearance. */
static size_t table_metrics(const struct an_table *t, const char ***out)
{
	size_t r, i, n = 0;

	*out = xmalloc((t->nrows + 1) * sizeof(**out));
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < n; i++)
			if (!strcmp((*out)[i], t->rows[r].metric))
				break;
		if (i == n)
			(*out)[n++] = t->rows[r].metric;
	}
	return n;
}

static void value_cell(struct buf *o, const struct an_cell *c, int dec, unsigned *seen,
		       int is_base)
{
	struct buf b = BUF_INIT;
	char marks[RENDER_MARKS_MAX + 1];
	size_t i;

	render_value_marks(c->flags, marks);
	render_format_value(&b, c, dec);
	buf_printf(o, "<td class=\"num%s\"", is_base ? " base" : "");
	if (c->origin == AN_ORIGIN_SAMPLES)
		buf_printf(o, " title=\"n=%zu runs=%zu\"", c->d.n, c->nruns);
	else if (c->origin == AN_ORIGIN_SUMMARY)
		buf_printf(o, " title=\"published summary, n=%zu\"", c->d.n);
	buf_putc(o, '>');
	esc(o, buf_str(&b));
	if (*marks && c->origin != AN_ORIGIN_NONE) {
		/* Every mark that applies, as compare prints them ("ne"). */
		buf_printf(o, "<span class=\"mark\">%s</span>", marks);
		for (i = 0; marks[i]; i++)
			*seen |= 1u << (strchr(RENDER_MARKS, marks[i]) - RENDER_MARKS);
	}
	buf_puts(o, "</td>");
	buf_release(&b);
}

static void change_cell(struct buf *o, const struct an_cell *c)
{
	struct buf b = BUF_INIT;

	if (!c->has_change || c->chg.verdict == AN_VERDICT_NONE) {
		buf_puts(o, "<td></td>");
		return;
	}
	buf_printf(o, "<td class=\"num %s\" title=\"%s", vclass(c->chg.verdict),
		   report_verdict_word(c->chg.verdict));
	if (!isnan(c->chg.q))
		buf_printf(o, ", q=%.3g", c->chg.q);
	if (c->chg.verdict == AN_VERDICT_INCONCLUSIVE && !isnan(c->chg.runs_needed))
		buf_printf(o, ", about %.0f runs per side needed", c->chg.runs_needed);
	buf_puts(o, "\">");
	report_format_change(&b, c);
	esc(o, buf_str(&b));
	buf_printf(o, " <small>%s</small>", report_verdict_word(c->chg.verdict));
	buf_reset(&b);
	report_format_ci(&b, c);
	if (b.len) {
		buf_puts(o, "<span class=\"ci\">");
		esc(o, buf_str(&b));
		buf_puts(o, "</span>");
	}
	buf_puts(o, "</td>");
	buf_release(&b);
}

/* Notes of a table, each distinct text once with the cells it is about. */
struct note {
	const char *text;
	struct buf who;
};

static void note_add(struct note **ns, size_t *n, size_t *cap, const char *text,
		     const char *variant, const char *config)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*ns)[i].text, text))
			break;
	if (i == *n) {
		xgrow(ns, cap, *n + 1, sizeof(**ns));
		(*ns)[i].text = text;
		buf_init(&(*ns)[i].who);
		(*n)++;
	}
	buf_printf(&(*ns)[i].who, "%s%s %s", (*ns)[i].who.len ? ", " : "", variant, config);
}

static void metric_table(struct buf *o, const struct an_table *t, const char *metric)
{
	size_t r, v, nnotes = 0, notes_cap = 0;
	unsigned seen = 0;
	const struct an_row *first = NULL;
	struct note *notes = NULL;

	for (r = 0; r < t->nrows && !first; r++)
		if (!strcmp(t->rows[r].metric, metric))
			first = &t->rows[r];
	buf_puts(o, "<h3>");
	esc(o, metric);
	if (first->unit && *first->unit) {
		buf_puts(o, " [");
		esc(o, first->unit);
		buf_putc(o, ']');
	}
	buf_printf(o, "<small> &mdash; %s is better%s</small></h3>\n",
		   first->dir == AN_DIR_LOWER ? "lower" : first->dir == AN_DIR_HIGHER ? "higher" :
		   "neither", first->derived ? "; derived by kbench" : "");
	buf_puts(o, "<div class=\"wide\"><table class=\"cmp\"><tr><th>config</th>");
	for (v = 0; v < t->nvariants; v++) {
		buf_printf(o, "<th class=\"num\"%s>", v == t->baseline ? "" : " colspan=\"2\"");
		esc(o, t->variants[v].name);
		if (v == t->baseline)
			buf_puts(o, " <small>(baseline)</small>");
		buf_puts(o, "</th>");
	}
	buf_puts(o, "</tr>\n");
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		int dec;

		if (strcmp(row->metric, metric))
			continue;
		dec = render_row_decimals(t, row);
		buf_puts(o, "<tr><td>");
		esc(o, *row->config ? row->config : "-");
		buf_puts(o, "</td>");
		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];

			value_cell(o, c, dec, &seen, v == t->baseline);
			if (v != t->baseline)
				change_cell(o, c);
			if (c->note && *c->note)
				note_add(&notes, &nnotes, &notes_cap, c->note, t->variants[v].name,
					 *row->config ? row->config : "-");
		}
		buf_puts(o, "</tr>\n");
	}
	buf_puts(o, "</table></div>\n");
	if (seen || nnotes) {
		size_t i;

		buf_puts(o, "<ul class=\"notes\">\n");
		for (i = 0; RENDER_MARKS[i]; i++)
			if (seen & (1u << i))
				buf_printf(o, "<li><span class=\"mark\">%c</span> %s</li>\n", RENDER_MARKS[i],
					   render_value_mark_text(RENDER_MARKS[i]));
		for (i = 0; i < nnotes; i++) {
			buf_puts(o, "<li>");
			esc(o, notes[i].text);
			buf_puts(o, " &mdash; ");
			esc(o, buf_str(&notes[i].who));
			buf_puts(o, "</li>\n");
		}
		buf_puts(o, "</ul>\n");
	}
	for (r = 0; r < nnotes; r++)
		buf_release(&notes[r].who);
	free(notes);
}

/* numa_test job tables ----------------------------------------------------------- */

static void job_table(struct buf *o, const struct report_run *run)
{
	size_t i;
	int k;

	buf_puts(o, "<table><caption>");
	esc(o, run->variant);
	buf_puts(o, ", ");
	esc(o, *run->config ? run->config : "-");
	buf_printf(o, " (run %lld)</caption>\n<tr><th>job</th>", run->run_id);
	for (k = 0; k < run->nnodes; k++)
		buf_printf(o, "<th class=\"num\">node%02d</th>", k);
	buf_puts(o, "<th class=\"num\">iSched</th><th class=\"num\">MSched</th><th></th>"
		    "<th class=\"num\">user (s)</th></tr>\n");
	for (i = 0; i < run->njobs; i++) {
		const struct report_job *j = &run->jobs[i];

		buf_printf(o, "<tr><td class=\"num\">%d</td>", j->job);
		for (k = 0; k < run->nnodes; k++) {
			double p = j->pct[k];

			if (isnan(p)) {
				buf_puts(o, "<td class=\"num\">-</td>");
				continue;
			}
			/* shade by the share of time, as the heatmap does */
			buf_printf(o, "<td class=\"num\" style=\"background:rgba(8,81,156,%.2f);"
				   "color:%s\">%.1f</td>", p / 100 * 0.85, p > 55 ? "#fff" : "inherit", p);
		}
		buf_printf(o, "<td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"moved\">%s</td>",
			   j->initial, j->main, j->moved ? "*" : "");
		if (isnan(j->user))
			buf_puts(o, "<td class=\"num\">-</td></tr>\n");
		else
			buf_printf(o, "<td class=\"num\">%.2f</td></tr>\n", j->user);
	}
	buf_puts(o, "</table>\n");
}

/* The page ------------------------------------------------------------------- */

/* Rows a wide section lists, at most. */
#define WIDE_WORSE 40
#define WIDE_BETTER 10

/* A wide section's worse and better cells, largest change first. */
static void section_findings(struct buf *o, const struct report_section *s)
{
	struct report_summary sum;
	struct report one;
	size_t i, k;

	memset(&one, 0, sizeof(one));
	one.sections = (struct report_section *)s;
	one.nsections = 1;
	report_summarise(&one, &sum);
	buf_printf(o, "<p>%zu variants: too many to compare side by side. ", s->wide);
	if (s->wide_baseline) {
		buf_printf(o, "Each variant against ");
		esc(o, s->wide_baseline);
		buf_printf(o, " wherever both have numbers: %zu comparisons, %zu worse, %zu better, "
			      "%zu inconclusive, %zu changed, %zu same (q over the report&rsquo;s one "
			      "family, see Methods).", sum.ntotal, sum.nworse, sum.nbetter,
			   sum.ninconclusive, sum.nchanged, sum.nsame);
	} else {
		buf_puts(o, "The baseline has no numbers here: nothing is compared.");
	}
	buf_puts(o, " <code>kbench compare --variants V,...</code> gives a table of a few, "
		    "<code>kbench regress</code> every finding.</p>\n");
	buf_printf(o, "<div class=\"wide\"><table class=\"findings\"><tr><th>verdict</th>"
		      "<th>metric</th><th>config</th><th>variant</th><th class=\"num\">change</th>"
		      "<th class=\"num\">95%% interval</th><th class=\"num\">q</th></tr>\n");
	for (k = 0; k < 2; k++) {
		const struct report_item *v = k ? sum.better : sum.worse;
		size_t n = k ? sum.nbetter_items : sum.nworse_items;
		size_t max = k ? WIDE_BETTER : WIDE_WORSE;

		for (i = 0; i < n && i < max; i++) {
			struct buf b = BUF_INIT;

			buf_printf(o, "<tr><td class=\"v-%s\">%s</td><td>", k ? "better" : "worse",
				   k ? "better" : "worse");
			esc(o, v[i].row->metric);
			buf_puts(o, "</td><td>");
			esc(o, *v[i].row->config ? v[i].row->config : "-");
			buf_puts(o, "</td><td>");
			esc(o, v[i].t->variants[v[i].variant].name);
			buf_puts(o, "</td><td class=\"num\">");
			report_format_change(&b, v[i].cell);
			esc(o, buf_str(&b));
			buf_reset(&b);
			buf_puts(o, "</td><td class=\"num\">");
			report_format_ci(&b, v[i].cell);
			esc(o, buf_str(&b));
			buf_printf(o, "</td><td class=\"num\">%.2g</td></tr>\n", v[i].cell->chg.q);
			buf_release(&b);
		}
		if (n > max)
			buf_printf(o, "<tr><td colspan=\"7\">and %zu more %s</td></tr>\n", n - max,
				   k ? "better" : "worse");
	}
	if (!sum.nworse_items && !sum.nbetter_items)
		buf_puts(o, "<tr><td colspan=\"7\">no change against the baseline passes the "
			    "test and the threshold</td></tr>\n");
	buf_puts(o, "</table></div>\n");
	report_summary_release(&sum);
}

/* give: s itself, whose charts the caller gives away (put_chart()), or NULL. */
static int section(struct ctx *x, const struct report_section *s, struct report_section *give,
		   size_t idx)
{
	struct buf *o = x->o;
	const char **metrics;
	struct an_table rest, numa;
	size_t nm, i, other = 0;
	int split = 0;

	buf_printf(o, "<section id=\"bench-%zu\"><h2>", idx);
	esc(o, s->title ? s->title : s->benchmark);
	buf_puts(o, "</h2>\n");
	if (s->note) {
		buf_puts(o, "<p>");
		esc(o, s->note);
		buf_puts(o, "</p>\n");
	}
	if (!s->table.nrows && !s->wide)
		buf_puts(o, "<p>No comparable numbers in the selection.</p>\n");
	if (s->wide) {
		/* too many variants for a table side by side: the section's
		 * findings, then its history (one line per configuration) */
		section_findings(o, s);
	} else {
		other = report_split_monitors(&s->table, &rest, &numa);
		split = 1;
		nm = table_metrics(&rest, &metrics);
		for (i = 0; i < nm; i++)
			metric_table(o, &rest, metrics[i]);
		free(metrics);
	}
	if (s->charts_left_out)
		buf_printf(o, "<p class=\"meta\">No charts for this section: a report draws at most "
			      "%zu, for the sections with the most worse and better verdicts first "
			      "(<code>kbench report --bench ", x->charts_max);
	if (s->charts_left_out) {
		esc(o, s->benchmark);
		buf_puts(o, " --variants V,...</code> draws this one&rsquo;s).</p>\n");
	}
	if (put_charts(x, &s->charts, give ? &give->charts : NULL) < 0)
		goto fail;
	if (s->nruns || s->placement.n) {
		buf_puts(o, "<h3>Job placement</h3>\n<p>Percent of each job's time on each node; "
			    "iSched = the node it started on, MSched = the node with most time, "
			    "* = it moved away from its initial node.</p>\n");
		if (put_charts(x, &s->placement, give ? &give->placement : NULL) < 0)
			goto fail;
		buf_puts(o, "<div class=\"jobs\">\n");
		for (i = 0; i < s->nruns; i++)
			job_table(o, &s->runs[i]);
		buf_puts(o, "</div>\n");
		if (s->runs_left_out)
			buf_printf(o, "<p>&hellip; and %zu more runs (<code>kbench show RUN_ID</code> "
				      "prints one).</p>\n", s->runs_left_out);
	}
	if (split && (numa.nrows || other)) {
		/* beside the placement: what the kernel counted while the
		 * runs ran (hint faults, migrations, local and remote pages) */
		buf_puts(o, "<h3>NUMA monitors</h3>\n<p>What the kernel counted during these runs "
			    "(numastat, /proc/vmstat, lkp&rsquo;s monitors): a counter is its change "
			    "over a run.");
		if (other) {
			buf_printf(o, " %zu other monitor metric%s (memory levels) left out: "
				      "<code>kbench compare --bench ", other, other == 1 ? "" : "s");
			esc(o, s->benchmark);
			buf_puts(o, " --metric NAME</code> shows one.");
		}
		buf_puts(o, "</p>\n");
		nm = table_metrics(&numa, &metrics);
		for (i = 0; i < nm; i++)
			metric_table(o, &numa, metrics[i]);
		free(metrics);
	}
	if (split)
		report_split_release(&rest, &numa);
	buf_puts(o, "</section>\n");
	return 0;
fail:
	if (split)
		report_split_release(&rest, &numa);
	return -1;
}

static void overview(struct buf *o, const struct report *r)
{
	size_t i;

	buf_puts(o, "<section id=\"overview\"><h2>What was compared</h2>\n");
	if (r->nvariants) {
		/* a store brings thousands: folded like the sources */
		if (r->nvariants > 40)
			buf_printf(o, "<details><summary>%zu variants</summary>\n", r->nvariants);
		buf_puts(o, "<div class=\"wide\"><table><tr><th>variant</th><th>kernel</th>"
			    "<th>description</th></tr>\n");
		for (i = 0; i < r->nvariants; i++) {
			buf_puts(o, "<tr><td>");
			esc(o, r->variants[i].name);
			buf_puts(o, "</td><td>");
			esc(o, r->variants[i].kernel);
			buf_puts(o, "</td><td>");
			esc(o, r->variants[i].description);
			buf_puts(o, "</td></tr>\n");
		}
		buf_puts(o, "</table></div>\n");
		if (r->nvariants > 40)
			buf_puts(o, "</details>\n");
	}
	if (r->nmachines) {
		buf_puts(o, "<h3>Machines</h3>\n<ul>\n");
		for (i = 0; i < r->nmachines; i++) {
			buf_puts(o, "<li>");
			esc(o, r->machines[i]);
			buf_puts(o, "</li>\n");
		}
		buf_puts(o, "</ul>\n");
	}
	if (r->nenvdiffs) {
		buf_puts(o, "<h3>Environment differences</h3>\n<ul>\n");
		for (i = 0; i < r->nenvdiffs; i++) {
			buf_puts(o, "<li>");
			esc(o, r->envdiffs[i]);
			buf_puts(o, "</li>\n");
		}
		buf_puts(o, "</ul>\n");
	}
	if (r->nsources) {
		/* a result tree brings hundreds: fold them (no script needed) */
		if (r->nsources > 15)
			buf_printf(o, "<h3>Sources</h3>\n<details><summary>%zu imported files</summary>"
				   "\n<ul>\n", r->nsources);
		else
			buf_puts(o, "<h3>Sources</h3>\n<ul>\n");
		for (i = 0; i < r->nsources; i++) {
			buf_puts(o, "<li>");
			esc(o, r->sources[i]);
			buf_puts(o, "</li>\n");
		}
		buf_puts(o, r->nsources > 15 ? "</ul>\n</details>\n" : "</ul>\n");
	}
	buf_puts(o, "</section>\n");
}

/* More sections than this: the navigation names each benchmark once. */
#define NAV_SECTIONS 40

/* Write what o holds to f and empty it. */
static int flush_out(FILE *f, struct buf *o, struct kb_err *err)
{
	if (o->len && fwrite(o->data, 1, o->len, f) != o->len)
		return kb_err_set(err, "", 0, "write error");
	buf_reset(o);
	return 0;
}

/* Write the section waiting for its inline charts (st->pending), once
 * the pool has drawn them. */
static int html_pending(struct report_stream *st, struct kb_err *err)
{
	struct report_pend *pd = st->pending;
	struct buf b = BUF_INIT;
	size_t k;
	int rc = 0;

	if (!pd)
		return 0;
	st->pending = NULL;
	if (chart_pool_wait(st->pool, err) < 0)
		rc = -1;
	for (k = 0; rc == 0 && k < pd->n; k++) {
		rc = flush_out(st->tmp, &pd->v[k]->text, err);
		if (rc == 0 && pd->v[k]->has_png) {
			html_base64(&b, pd->v[k]->png.data, pd->v[k]->png.len);
			rc = flush_out(st->tmp, &b, err);
		}
	}
	buf_release(&b);
	pend_free(pd);
	return rc;
}

/* HTML: one section, written to the stream's temporary file (given
 * inline charts with a pool: when they are drawn, html_pending()). */
static int html_section(struct report_stream *st, const struct report *r, size_t i,
			struct report_section *give, struct kb_err *err)
{
	struct buf o = BUF_INIT;
	struct ctx x = { &o, st->assets_dir, st->assets_href, st->nimg, err, r->charts_max,
			 st->pool, NULL };
	int rc;

	/* the section before, first: the page keeps their order */
	if (html_pending(st, err) < 0)
		return -1;
	if (give && st->pool && !st->assets_dir)
		x.pend = xcalloc(1, sizeof(*x.pend));
	rc = section(&x, &r->sections[i], give, i);
	if (rc == 0 && x.pend && x.pend->n) {
		pend_cut(x.pend, &o);   /* the text after the last chart */
		st->pending = x.pend;
		x.pend = NULL;
	} else if (rc == 0) {
		rc = flush_out(st->tmp, &o, err);
	}
	pend_free(x.pend);
	st->nimg = x.nimg;
	buf_release(&o);
	return rc;
}

/* HTML: every section is given; the last one's inline charts. */
static int html_sections_done(struct report_stream *st, struct kb_err *err)
{
	return html_pending(st, err);
}

static void html_release(struct report_stream *st)
{
	pend_free(st->pending);
	st->pending = NULL;
}

/* HTML: the page's head, findings, verdicts and overview (every section
 * seen). */
/* The Alerts section: each summary of kbench alerts with its state, its
 * range and bisect command, its alerts' table and each alert's history
 * chart with the range marked.  Every text from the store escaped. */
static int alerts_html(struct ctx *x, const struct report *r)
{
	const struct an_alerts *a = r->alerts;
	struct buf *o = x->o;
	size_t i, k, ci = 0;

	if (!a)
		return 0;
	buf_printf(o, "<section id=\"alerts\"><h2>Alerts</h2>\n<p>%zu alert summar%s: change points "
		   "along the commits (<code>kbench alerts</code>), grouped by commit range; %zu alerts "
		   "in %zu series of %zu commits, q &lt; %g.</p>\n", a->nsummaries,
		   a->nsummaries == 1 ? "y" : "ies", a->nalerts, a->nseries, a->norder, a->opts.alpha);
	for (i = 0; i < a->nsummaries; i++) {
		const struct an_alert_summary *sm = &a->summaries[i];

		buf_printf(o, "<h3>Alert summary #%lld <span class=\"state\">[", sm->id);
		esc(o, render_alerts_state_word(sm));
		buf_printf(o, "]</span>: <span class=\"%s\">%s</span> on %zu machine%s</h3>\n",
			   sm->worse ? "v-worse" : "v-changed", sm->worse ? "regression" : "change",
			   sm->nmachines, sm->nmachines == 1 ? "" : "s");
		if (sm->note) {
			buf_puts(o, "<p>Note: ");
			esc(o, sm->note);
			buf_puts(o, "</p>\n");
		}
		if (sm->state == AN_ALERT_FIXED && sm->fixed_by) {
			buf_puts(o, "<p>Fixed by ");
			esc(o, sm->fixed_by);
			buf_puts(o, "</p>\n");
		}
		buf_puts(o, "<p>Suspect range (last good .. first bad): <code>");
		esc(o, sm->good);
		buf_puts(o, "</code> .. <code>");
		esc(o, sm->bad);
		buf_puts(o, "</code>. Did not move: ");
		for (k = 0; k < sm->nquiet; k++) {
			if (k)
				buf_puts(o, ", ");
			esc(o, sm->quiet[k][0] ? sm->quiet[k] : "unknown");
		}
		if (!sm->nquiet)
			buf_puts(o, "none");
		buf_puts(o, ". To bisect: <code>git bisect start ");
		esc(o, sm->bad);
		buf_putc(o, ' ');
		esc(o, sm->good);
		buf_puts(o, "</code></p>\n<table><thead><tr><th>%change</th><th>95% interval</th>"
			    "<th>q</th><th>machine</th><th>benchmark</th><th>config</th><th>metric</th>"
			    "<th>before</th><th>after</th><th>verdict</th></tr></thead><tbody>\n");
		for (k = 0; k < sm->nalerts; k++) {
			const struct an_alert *al = &a->alerts[sm->alerts[k]];
			const struct an_hseries *s = al->series;

			buf_printf(o, "<tr class=\"%s\"><td>%+.1f%%</td><td>", vclass(al->verdict),
				   al->change_pct);
			if (isnan(al->lo_pct) || isnan(al->hi_pct))
				buf_puts(o, "-");
			else
				buf_printf(o, "%+.1f .. %+.1f%%", al->lo_pct, al->hi_pct);
			buf_printf(o, "</td><td>%.2g</td><td>", al->q);
			esc(o, s->machine ? s->machine : "unknown");
			buf_puts(o, "</td><td>");
			esc(o, s->benchmark);
			buf_puts(o, "</td><td>");
			esc(o, s->config);
			buf_puts(o, "</td><td>");
			esc(o, s->metric);
			buf_printf(o, "</td><td>%.4g</td><td>%.4g</td><td>", al->before, al->after);
			esc(o, an_verdict_name(al->verdict));
			buf_puts(o, "</td></tr>\n");
		}
		buf_puts(o, "</tbody></table>\n");
		for (; ci < r->alert_charts.n && a->alerts[r->alert_chart_of[ci]].summary == i; ci++)
			if (put_chart(x, &r->alert_charts.v[ci], NULL) < 0)
				return -1;
	}
	if (r->alert_charts_left_out)
		buf_printf(o, "<p>%zu alerts' charts left out (at most %d are drawn).</p>\n",
			   r->alert_charts_left_out, REPORT_MAX_ALERT_CHARTS);
	buf_puts(o, "</section>\n");
	return 0;
}

static int html_head(struct report_stream *st, FILE *f, const struct report *r,
		     struct kb_err *err)
{
	struct buf o = BUF_INIT;
	/* (the findings' charts are the report's, not given: written here) */
	struct ctx x = { &o, st->assets_dir, st->assets_href, st->nimg, err, r->charts_max,
			 NULL, NULL };
	const char *title = r->title ? r->title : "kbench report";
	size_t i;
	int rc = 0;

	buf_puts(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		     "img-src * data:; style-src 'unsafe-inline'\">\n<title>");
	esc(&o, title);
	buf_printf(&o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", css);
	esc(&o, title);
	buf_puts(&o, "</h1>\n<p class=\"meta\">");
	if (r->generated) {
		buf_puts(&o, "Generated ");
		esc(&o, r->generated);
	}
	if (r->db) {
		buf_puts(&o, " from ");
		esc(&o, r->db);
	}
	if (r->selection) {
		buf_puts(&o, ". Selection: ");
		esc(&o, r->selection);
	}
	buf_puts(&o, ".</p>\n<nav><p>");
	if (r->nsections <= NAV_SECTIONS) {
		for (i = 0; i < r->nsections; i++) {
			buf_printf(&o, "%s<a href=\"#bench-%zu\">", i ? " &middot; " : "", i);
			esc(&o, r->sections[i].title ? r->sections[i].title : r->sections[i].benchmark);
			buf_puts(&o, "</a>");
		}
	} else {
		/* A store's thousands of sections: each benchmark's first, and
		 * how many it has (the page is in benchmark order). */
		size_t first = 0, n = 0;

		for (i = 0; i <= r->nsections; i++) {
			if (i < r->nsections &&
			    strcmp(r->sections[i].benchmark, r->sections[first].benchmark) == 0) {
				n++;
				continue;
			}
			buf_printf(&o, "%s<a href=\"#bench-%zu\">", first ? " &middot; " : "", first);
			esc(&o, r->sections[first].benchmark);
			buf_printf(&o, "</a> (%zu section%s)", n, n == 1 ? "" : "s");
			first = i;
			n = 1;
		}
	}
	buf_printf(&o, "%s<a href=\"#methods\">methods</a></p></nav>\n</header>\n",
		   r->nsections ? " &middot; " : "");
	if (findings(&x, r) < 0 || alerts_html(&x, r) < 0)
		rc = -1;
	if (rc == 0) {
		summary(&o, st->sum);
		overview(&o, r);
	}
	/* Written as it goes: a lab's whole-store report is hundreds of MB. */
	if (rc == 0)
		rc = flush_out(f, &o, err);
	st->nimg = x.nimg;
	buf_release(&o);
	return rc;
}

/* HTML: after the sections, the methods and the page's end. */
static int html_tail(struct report_stream *st, FILE *f, const struct report *r,
		     struct kb_err *err)
{
	struct buf o = BUF_INIT, m = BUF_INIT;
	const char *p;
	int rc;

	(void)st;
	buf_puts(&o, "<footer id=\"methods\"><h2>Methods</h2>\n");
	report_methods(&m, r);
	for (p = buf_str(&m); *p;) {
		const char *e = strstr(p, "\n\n");
		char *para = e ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);

		buf_puts(&o, "<p>");
		esc(&o, para);
		buf_puts(&o, "</p>\n");
		free(para);
		if (!e)
			break;
		p = e + 2;
	}
	buf_puts(&o, "<p>Made by kbench; charts are PNG images drawn with cairo. "
		     "Nothing on this page needs JavaScript or the network.</p>\n"
		     "</footer>\n</body>\n</html>\n");
	rc = flush_out(f, &o, err);
	buf_release(&m);
	buf_release(&o);
	return rc;
}

const struct report_backend report_html_backend = {
	.section = html_section,
	.sections_done = html_sections_done,
	.release = html_release,
	.head = html_head,
	.tail = html_tail,
};
