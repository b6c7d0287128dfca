/*
 * chart_kinds.c - the layout of each chart kind: bars, nodeload,
 * points, lines, history, change and placement.  Each turns the model
 * into data marks within the frame that chart_frame.c builds.  Also the
 * verdict look (colours and chart_verdict_name()) the change and history
 * kinds draw with.
 */
#include "chart_frame.h"
#include "chart_kinds.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const unsigned verdict_colors[] = {
	0x56B4E9,       /* same */
	0x009E73,       /* better */
	0xD55E00,       /* worse */
	0x999999,       /* inconclusive: grey, so it never reads as worse */
	0xCC79A7,       /* changed */
};

static unsigned verdict_color(enum chart_verdict v)
{
	if ((unsigned)v < ARRAY_SIZE(verdict_colors))
		return verdict_colors[v];
	return 0x999999;
}

static const char *const verdict_names[] = {
	"same", "better", "worse", "inconclusive", "changed",
};

const char *chart_verdict_name(enum chart_verdict v)
{
	if ((unsigned)v < ARRAY_SIZE(verdict_names))
		return verdict_names[v];
	return "?";
}

/* Sequential light-to-dark blue ramp for 0..100 %: monotone lightness. */
static unsigned heat_color(double pct)
{
	static const unsigned stops[] = { 0xF7FBFF, 0xC6DBEF, 0x6BAED6, 0x2171B5, 0x08306B };
	double t, f;
	unsigned a, b, out = 0;
	int i, sh;

	if (!isfinite(pct))
		return 0xFFFFFF;
	t = (pct < 0 ? 0 : pct > 100 ? 100 : pct) / 100.0 * 4;
	i = (int)floor(t);
	if (i >= 4)
		return stops[4];
	f = t - i;
	a = stops[i];
	b = stops[i + 1];
	for (sh = 16; sh >= 0; sh -= 8) {
		double ca = (a >> sh) & 255, cb = (b >> sh) & 255;

		out |= (unsigned)lround(ca + (cb - ca) * f) << sh;
	}
	return out;
}

/* ---- data helpers ---- */

static const struct chart_value *find_value(const struct chart *c, int series, int cat)
{
	size_t i;

	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->series == series && v->cat == cat && !v->sample && v->node < 0)
			return v;
	}
	return NULL;
}

struct range {
	double lo, hi;
	int any;
};

static void range_add(struct range *r, double v)
{
	if (!isfinite(v))
		return;
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = 1;
}

/* Positive-only variant for log axes. */
static void range_add_pos(struct range *r, double v, int log)
{
	if (log && !(v > 0))
		return;
	range_add(r, v);
}

static void y_range_finish(const struct chart *c, struct range *r, int from_zero)
{
	if (!r->any) {
		r->lo = 0;
		r->hi = 1;
	}
	if (!c->log_y && (from_zero || (r->lo > 0 && r->lo < r->hi * 0.5)))
		if (r->lo > 0)
			r->lo = 0;
	if (!c->log_y && r->hi < 0 && from_zero)
		r->hi = 0;
	if (isfinite(c->y_min))
		r->lo = c->y_min;
	if (isfinite(c->y_max))
		r->hi = c->y_max;
}

/* Are there values, and is every one of them 0?  Such a chart would be an
 * empty plot: the layout says so in the plot and in the note instead. */
static int all_zero(const struct chart *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nvals; i++) {
		if (!isfinite(c->vals[i].y))
			continue;
		if (c->vals[i].y != 0)
			return 0;
		n++;
	}
	return n > 0;
}

static void say_all_zero_text(struct chart_layout *L)
{
	struct chart_mark *m;

	m = lay_add_text(L, L->plot.x + L->plot.w / 2, L->plot.y + L->plot.h / 2, "every value is 0",
			 AXIS_TITLE_SIZE, 1, 1, 0x666666);
	lay_mark_key(m, "allzero");
}

static const char *errbar_label(enum chart_errbar e)
{
	return e == CHART_ERR_CI95 ? "whiskers: 95% CI" : "whiskers: \u00b1 sd";
}

/* y position of the bar baseline: 0 when visible, else the axis floor. */
static double baseline_pos(const struct chart_layout *L)
{
	if (L->y.kind == CHART_AXIS_LOG || L->y.min > 0)
		return L->y.p0;
	if (L->y.max < 0)
		return L->y.p1;
	return chart_axis_pos(&L->y, 0);
}

/* Clamp v into the y axis range (for whiskers running past the floor). */
static double y_clamped(const struct chart_layout *L, double v)
{
	double lo = L->y.min, hi = L->y.max;

	if (L->y.kind == CHART_AXIS_LOG && !(v > 0))
		return L->y.p0;
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return chart_axis_pos(&L->y, v);
}

static void spec_cats_x(struct frame_spec *sp, const struct chart *c)
{
	sp->xk = CHART_AXIS_BAND;
	sp->xcats = (const char *const *)c->cats;
	sp->nx = c->ncats;
}

static void spec_release(struct frame_spec *sp)
{
	free(sp->xtitle);
	free(sp->ytitle);
	lay_free_labels(sp->xlab, sp->nx);
	lay_free_labels(sp->ylab, sp->ny);
	free(sp->xshow);
}

/* ---- bars ---- */

void lay_bars(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	size_t i, g, s;
	double bw, gw, sw;
	int zero;

	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->sample || v->node >= 0)
			continue;
		range_add_pos(&r, v->y, c->log_y);
		if (c->errbar != CHART_ERR_NONE) {
			range_add_pos(&r, v->hi, c->log_y);
			range_add_pos(&r, v->lo, c->log_y);
		}
	}
	range_add(&r, c->log_y ? NAN : 0);
	y_range_finish(c, &r, 1);
	if (!c->log_y && r.lo < 0 && r.hi > 0) {
		/* Bars need 0 in range: keep the whisker ends below 0 clipped. */
		r.lo = 0;
		for (i = 0; i < c->nvals; i++)
			if (c->vals[i].y < r.lo)
				r.lo = c->vals[i].y;
	}
	for (s = 0; s < c->nseries; s++)
		lay_legend_series(&f, c, s, LEG_SWATCH);
	if (c->errbar != CHART_ERR_NONE)
		lay_legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
	spec_cats_x(&sp, c);
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, NULL);
	/* at least 3 units a bar; 9 when the bars carry their series' marker */
	sp.min_band_w = (double)c->nseries * (lay_many_series(c) ? 9 : 3) / 0.8;
	zero = all_zero(c);
	if (zero) {
		lay_note_add(L, "every value is 0");
		sp.ylo = 0;     /* a plain 0..1 axis, not one around 0 */
		sp.yhi = 1;
	} else if (c->log_y) {
		size_t nonpos = 0;

		for (i = 0; i < c->nvals; i++)
			if (!c->vals[i].sample && c->vals[i].node < 0 && c->vals[i].y <= 0)
				nonpos++;
		if (nonpos) {
			char *t = buf_aprintf("%zu value%s <= 0 not drawn on the log axis", nonpos,
					      nonpos == 1 ? "" : "s");

			lay_note_add(L, t);
			free(t);
		}
	}
	lay_frame_layout(L, gc, &f, &sp);
	lay_frame_back(L);
	if (zero)
		say_all_zero_text(L);

	bw = lay_band_width(&L->x);
	gw = bw * 0.8;
	sw = gw / (c->nseries ? c->nseries : 1);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			const struct chart_value *v = find_value(c, (int)s, (int)g);
			double x, yb, yv, gap;
			struct chart_mark *m;
			char *keys;

			if (!v || !isfinite(v->y))
				continue;
			x = L->x.p0 + g * bw + (bw - gw) / 2 + s * sw;
			gap = sw * 0.12 < 3 ? sw * 0.12 : 3;
			yb = baseline_pos(L);
			yv = y_clamped(L, v->y);
			m = lay_add_rect(L, x + gap / 2, yv < yb ? yv : yb, sw - gap, fabs(yb - yv),
					 lay_series_color(c, (int)s), CHART_NOCOLOR, 0);
			lay_mark_key(m, "bar.%zu.%zu", g, s);
			keys = lay_value_keys(c, s, g);
			m->info = buf_aprintf("group=%s series=%s value=%g color=#%06X%s", c->cats[g],
					      c->series[s], v->y, lay_series_color(c, (int)s), keys);
			free(keys);
			if (lay_many_series(c) && sw - gap >= 6) {
				/* the series' shape on its bar: more series than colours */
				double r = fmin(4, (sw - gap) / 2 - 0.5);

				lay_add_marker(L, x + sw / 2, (yv < yb ? yv : yb) + fmin(r + 2, fabs(yb - yv) / 2),
					       r, lay_series_shape(c, (int)s), 0xFFFFFF, INK);
			}
			if (c->errbar != CHART_ERR_NONE && isfinite(v->lo) && isfinite(v->hi)) {
				double cap = (sw - gap) * 0.5 < 12 ? (sw - gap) * 0.5 : 12;

				m = lay_add_whisker(L, x + sw / 2, y_clamped(L, v->hi), y_clamped(L, v->lo),
						    cap, INK, 1.2);
				lay_mark_key(m, "whisker.%zu.%zu", g, s);
				m->info = buf_aprintf("lo=%g hi=%g", v->lo, v->hi);
			}
		}
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
}

/* ---- nodeload: stacked bars, one per series in each group ---- */

static int node_count(const struct chart *c)
{
	int n = 0;
	size_t i;

	for (i = 0; i < c->nvals; i++)
		if (c->vals[i].node + 1 > n)
			n = c->vals[i].node + 1;
	return n;
}

static double node_jobs(const struct chart *c, int s, int g, int node)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->series == s && v->cat == g && v->node == node && isfinite(v->y))
			sum += v->y;
	}
	return sum;
}

void lay_nodeload(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	int nn = node_count(c), n;
	size_t g, s;
	double bw, gw, sw, name_w, name_h, under;
	char label[32];

	range_add(&r, 0);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			double sum = 0;

			for (n = 0; n < nn; n++)
				sum += node_jobs(c, (int)s, (int)g, n);
			range_add(&r, sum);
		}
	y_range_finish(c, &r, 1);
	for (n = 0; n < nn; n++) {
		snprintf(label, sizeof(label), "node %d", n);
		lay_legend_add(&f, LEG_SWATCH, label, chart_style_color(n), 0);
	}
	spec_cats_x(&sp, c);
	sp.yk = CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, "jobs");
	/* Series names go under their bars, turned upright when they are wide. */
	name_w = lay_max_label_width(gc, (const char *const *)c->series, c->nseries, SMALL_SIZE, &name_h);
	if (name_w > 160)
		name_w = 160;
	sp.under_h = name_h + 4;
	/* room for every series' name turned upright under its bar */
	sp.min_band_w = (double)c->nseries * (name_h + 2) / 0.8;
	lay_frame_layout(L, gc, &f, &sp);
	bw = lay_band_width(&L->x);
	sw = bw * 0.8 / (c->nseries ? c->nseries : 1);
	if (name_w > sw * 0.95) {
		/* Re-run the frame with room for upright names. */
		under = name_w + 6;
		if (under > L->height * 0.25)
			under = L->height * 0.25;
		sp.under_h = under;
		free(L->x.ticks);
		free(L->y.ticks);
		memset(&L->x, 0, sizeof(L->x));
		memset(&L->y, 0, sizeof(L->y));
		lay_frame_layout(L, gc, &f, &sp);
	}
	lay_frame_back(L);

	bw = lay_band_width(&L->x);
	gw = bw * 0.8;
	sw = gw / (c->nseries ? c->nseries : 1);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			double x = L->x.p0 + g * bw + (bw - gw) / 2 + s * sw;
			double gap = sw * 0.12 < 3 ? sw * 0.12 : 3, acc = 0, total = 0;
			struct chart_mark *m;

			for (n = 0; n < nn; n++) {
				double jobs = node_jobs(c, (int)s, (int)g, n), y0, y1;

				if (jobs <= 0)
					continue;
				y0 = chart_axis_pos(&L->y, acc);
				y1 = chart_axis_pos(&L->y, acc + jobs);
				acc += jobs;
				m = lay_add_rect(L, x + gap / 2, y1, sw - gap, y0 - y1, chart_style_color(n),
						 0xFFFFFF, 0.75);
				lay_mark_key(m, "stack.%zu.%zu.%d", g, s, n);
				m->info = buf_aprintf("group=%s series=%s node=%d jobs=%g", c->cats[g],
						      c->series[s], n, jobs);
			}
			total = acc;
			{
				int up = sp.under_h > name_h + 4;
				char *t = lay_fit_text(gc, c->series[s], SMALL_SIZE, 0,
						       up ? sp.under_h - 6 : sw);

				m = lay_add_text(L, x + sw / 2, L->y.p0 + TICK_LEN + 2, t, SMALL_SIZE, 1, 0, INK);
				free(t);
			}
			if (sp.under_h > name_h + 4) {
				m->angle = -M_PI / 2;
				m->halign = 2;
				m->valign = 1;
			}
			lay_mark_key(m, "barlabel.%zu.%zu", g, s);
			m->info = buf_aprintf("series=%s total=%g", c->series[s], total);
		}
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
}

/* ---- points: jittered strip plot with the mean ---- */

/* Deterministic jitter in [-0.5, 0.5) from the sample's identity. */
static double jitter(size_t s, size_t g, size_t i)
{
	uint32_t h = (uint32_t)(s * 73856093u) ^ (uint32_t)(g * 19349663u) ^ (uint32_t)(i * 83492791u);

	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return (h & 0xFFFF) / 65536.0 - 0.5;
}

void lay_points(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	size_t i, g, s;
	double bw, gw, sw;
	int zero;

	for (i = 0; i < c->nvals; i++) {
		range_add_pos(&r, c->vals[i].y, c->log_y);
		range_add_pos(&r, c->vals[i].lo, c->log_y);
		range_add_pos(&r, c->vals[i].hi, c->log_y);
	}
	y_range_finish(c, &r, 0);
	for (s = 0; s < c->nseries; s++)
		lay_legend_series(&f, c, s, LEG_MARKER);
	lay_legend_add(&f, LEG_MEAN, "mean", INK, 0);
	spec_cats_x(&sp, c);
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, NULL);
	zero = all_zero(c);
	if (zero) {
		lay_note_add(L, "every value is 0");
		sp.ylo = 0;     /* a plain 0..1 axis, not one around 0 */
		sp.yhi = 1;
	}
	lay_frame_layout(L, gc, &f, &sp);
	lay_frame_back(L);
	if (zero)
		say_all_zero_text(L);

	bw = lay_band_width(&L->x);
	gw = bw * 0.8;
	sw = gw / (c->nseries ? c->nseries : 1);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			double cx = L->x.p0 + g * bw + (bw - gw) / 2 + (s + 0.5) * sw;
			double sum = 0, mean;
			size_t n = 0;
			const struct chart_value *mv = find_value(c, (int)s, (int)g);
			struct chart_mark *m;
			char *keys;

			for (i = 0; i < c->nvals; i++) {
				const struct chart_value *v = &c->vals[i];
				double y;

				if (!v->sample || v->series != (int)s || v->cat != (int)g || !isfinite(v->y))
					continue;
				if (L->y.kind == CHART_AXIS_LOG && !(v->y > 0))
					continue;
				y = chart_axis_pos(&L->y, v->y);
				m = lay_add_marker(L, cx + jitter(s, g, n) * sw * 0.6, y, 3,
						   lay_series_shape(c, (int)s), lay_series_color(c, (int)s), 0xFFFFFF);
				m->lw = 0.6;
				lay_mark_key(m, "point.%zu.%zu.%zu", g, s, n);
				m->info = buf_aprintf("group=%s series=%s value=%g", c->cats[g],
						      c->series[s], v->y);
				sum += v->y;
				n++;
			}
			if (mv && isfinite(mv->y))
				mean = mv->y;
			else if (n)
				mean = sum / n;
			else
				continue;
			if (mv && isfinite(mv->lo) && isfinite(mv->hi))
				lay_add_whisker(L, cx, y_clamped(L, mv->hi), y_clamped(L, mv->lo),
						sw * 0.25, INK, 1);
			m = lay_add_line(L, cx - sw * 0.35, y_clamped(L, mean), cx + sw * 0.35,
					 y_clamped(L, mean), INK, 2.5);
			lay_mark_key(m, "mean.%zu.%zu", g, s);
			keys = lay_value_keys(c, s, g);
			m->info = buf_aprintf("group=%s series=%s value=%g n=%zu%s", c->cats[g],
					      c->series[s], mean, n, keys);
			free(keys);
		}
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
}

/* ---- lines and history: connected points per series ---- */

static int cmp_value_x(const void *a, const void *b, void *ctx)
{
	const struct chart *c = ctx;
	const struct chart_value *va = &c->vals[*(const size_t *)a];
	const struct chart_value *vb = &c->vals[*(const size_t *)b];
	double xa = va->cat >= 0 ? va->cat : va->x, xb = vb->cat >= 0 ? vb->cat : vb->x;

	return (xa > xb) - (xa < xb);
}

/* Indices of series s's plotted values, sorted along x; caller frees. */
static size_t *series_points(const struct chart *c, int s, int by_cat, size_t *n)
{
	size_t *idx = xmalloc(sizeof(*idx) * (c->nvals + 1)), i;

	*n = 0;
	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->series != s || v->sample || v->node >= 0 || !isfinite(v->y))
			continue;
		if (by_cat ? v->cat < 0 : !isfinite(v->x))
			continue;
		idx[(*n)++] = i;
	}
	qsort_r(idx, *n, sizeof(*idx), cmp_value_x, (void *)c);
	return idx;
}

static void polyline_marks(struct chart_layout *L, int by_cat)
{
	const struct chart *c = L->c;
	size_t s, i, n;
	int pass;

	/* Three passes so markers sit on top of every line and error bar. */
	for (pass = 0; pass < 3; pass++)
		for (s = 0; s < c->nseries; s++) {
			size_t *idx = series_points(c, (int)s, by_cat, &n);
			double px = 0, py = 0;
			int have_prev = 0;

			for (i = 0; i < n; i++) {
				const struct chart_value *v = &c->vals[idx[i]];
				double x, y;
				struct chart_mark *m;

				if (L->y.kind == CHART_AXIS_LOG && !(v->y > 0))
					continue;
				if (!by_cat && L->x.kind == CHART_AXIS_LOG && !(v->x > 0))
					continue;
				x = by_cat ? lay_band_pos(&L->x, v->cat) : chart_axis_pos(&L->x, v->x);
				y = chart_axis_pos(&L->y, v->y);
				if (pass == 0 && have_prev) {
					m = lay_add_line(L, px, py, x, y, lay_series_color(c, (int)s), 2);
					m->dash = lay_series_dash(c, (int)s);
					lay_mark_key(m, "seg.%zu.%zu", s, i - 1);
				} else if (pass == 1 && c->errbar != CHART_ERR_NONE &&
					   isfinite(v->lo) && isfinite(v->hi)) {
					m = lay_add_whisker(L, x, y_clamped(L, v->hi), y_clamped(L, v->lo), 8,
							    lay_series_color(c, (int)s), 1.2);
					lay_mark_key(m, "err.%zu.%zu", s, i);
					m->info = buf_aprintf("lo=%g hi=%g", v->lo, v->hi);
				} else if (pass == 2) {
					m = lay_add_marker(L, x, y, by_cat ? fmax(1.5, fmin(4, lay_band_width(&L->x) * 0.45)) : 4,
							   lay_series_shape(c, (int)s),
							   lay_series_color(c, (int)s), 0xFFFFFF);
					lay_mark_key(m, "point.%zu.%zu", s, i);
					if (by_cat)
						m->info = buf_aprintf("series=%s x=%s y=%g", c->series[s],
								      c->cats[v->cat], v->y);
					else
						m->info = buf_aprintf("series=%s x=%g y=%g", c->series[s],
								      v->x, v->y);
				}
				px = x;
				py = y;
				have_prev = 1;
			}
			free(idx);
		}
}

void lay_lines(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range rx = { 0 }, ry = { 0 };
	size_t i, s;

	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->sample || v->node >= 0 || !isfinite(v->x))
			continue;
		range_add_pos(&rx, v->x, c->log_x);
		range_add_pos(&ry, v->y, c->log_y);
		if (c->errbar != CHART_ERR_NONE) {
			range_add_pos(&ry, v->lo, c->log_y);
			range_add_pos(&ry, v->hi, c->log_y);
		}
	}
	if (!rx.any) {
		rx.lo = 0;
		rx.hi = 1;
	}
	y_range_finish(c, &ry, 0);
	for (s = 0; s < c->nseries; s++)
		lay_legend_series(&f, c, s, LEG_LINE);
	if (c->errbar != CHART_ERR_NONE)
		lay_legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
	sp.xk = c->log_x ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.x_pow2 = 1;
	for (i = 0; i < c->nvals; i++) {
		double x = c->vals[i].x;

		if (isfinite(x) && !(x > 0 && ldexp(1, (int)lround(log2(x))) == x))
			sp.x_pow2 = 0;
	}
	sp.xlo = rx.lo;
	sp.xhi = rx.hi;
	if (!c->log_x) {
		double pad = (rx.hi - rx.lo) * 0.04;

		sp.xlo -= pad;
		sp.xhi += pad;
	}
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = ry.lo;
	sp.yhi = ry.hi;
	sp.y_extend = 1;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, NULL);
	lay_frame_layout(L, gc, &f, &sp);
	lay_frame_back(L);
	polyline_marks(L, 0);
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
}

void lay_history(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	size_t i, s;
	double w, h, row_h, row_right[2];
	unsigned used = 0;

	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];

		if (v->sample || v->node >= 0 || v->cat < 0)
			continue;
		range_add_pos(&r, v->y, c->log_y);
		if (c->errbar != CHART_ERR_NONE) {
			range_add_pos(&r, v->lo, c->log_y);
			range_add_pos(&r, v->hi, c->log_y);
		}
	}
	y_range_finish(c, &r, 0);
	for (s = 0; s < c->nseries; s++)
		lay_legend_series(&f, c, s, LEG_LINE);
	if (c->errbar != CHART_ERR_NONE)
		lay_legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
	for (i = 0; i < c->nmarks; i++)
		used |= 1u << c->marks[i].verdict;
	for (i = 0; i < ARRAY_SIZE(verdict_colors); i++)
		if (used & (1u << i)) {
			char label[64];

			snprintf(label, sizeof(label), "change: %s", chart_verdict_name((enum chart_verdict)i));
			lay_legend_add(&f, LEG_DASH, label, verdict_color((enum chart_verdict)i), 0);
		}
	chart_text_size(gc, "Ag", SMALL_SIZE, 0, &w, &row_h);
	spec_cats_x(&sp, c);
	sp.marks_of = c;
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.strip_h = c->nmarks ? (c->nmarks > 1 ? 2 : 1) * row_h + 6 : 0;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, NULL);
	lay_frame_layout(L, gc, &f, &sp);
	lay_frame_back(L);

	/* Change points: a dashed line in the plot, the label in the strip. */
	row_right[0] = row_right[1] = -1e9;
	for (i = 0; i < c->nmarks; i++) {
		const struct chart_mark_def *d = &c->marks[i];
		double x, tx, ty;
		struct chart_mark *m;
		int row;

		if (d->cat < 0 || (size_t)d->cat >= c->ncats)
			continue;
		x = lay_band_pos(&L->x, d->cat);
		m = lay_add_line(L, x, L->plot.y - 2, x, L->plot.y + L->plot.h,
				 verdict_color(d->verdict), 1.5);
		m->dash = 1;
		lay_mark_key(m, "change.%zu", i);
		m->info = buf_aprintf("at=%s verdict=%s text=%s", c->cats[d->cat],
				      chart_verdict_name(d->verdict), d->text);
		chart_text_size(gc, d->text, SMALL_SIZE, 0, &w, &h);
		tx = x - w / 2;
		if (tx < L->plot.x)
			tx = L->plot.x;
		if (tx + w > L->plot.x + L->plot.w)
			tx = L->plot.x + L->plot.w - w;
		row = tx > row_right[0] + 4 ? 0 : 1;
		row_right[row] = tx + w;
		if (c->nmarks < 2)
			row = 0;
		ty = L->plot.y - 4 - row * row_h;
		m = lay_add_text(L, tx, ty, d->text, SMALL_SIZE, 0, 2, verdict_color(d->verdict));
		m->bold = 1;
	}
	polyline_marks(L, 1);
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
}

/* ---- change: forest plot ---- */

static int cmp_abs_change(const void *a, const void *b, void *ctx)
{
	const struct chart *c = ctx;
	double x = fabs(c->vals[*(const size_t *)a].y);
	double y = fabs(c->vals[*(const size_t *)b].y);

	if (isnan(x))
		x = -1;
	if (isnan(y))
		y = -1;
	if (x != y)
		return x > y ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/*
 * Which rows of a forest plot are drawn: all when they fit at a legible
 * row height in CHART_MAX_SIDE (and c->max_rows allows), else the largest
 * |change|, in their order.  row_of[cat] = drawn row or -1; returns the
 * number drawn and sets L->note when rows are left out.
 */
static size_t change_rows(struct chart_layout *L, double row_h, double overhead, int *row_of)
{
	const struct chart *c = L->c;
	size_t fit = (size_t)floor((CHART_MAX_SIDE - overhead) / row_h), i, n = 0, nrows = 0;
	size_t *idx = xmalloc((c->nvals + 1) * sizeof(*idx));
	unsigned char *keep = xcalloc(c->ncats + 1, 1);

	if (c->max_rows && c->max_rows < fit)
		fit = c->max_rows;
	if (fit < 1)
		fit = 1;
	for (i = 0; i < c->ncats; i++)
		row_of[i] = -1;
	for (i = 0; i < c->nvals; i++)
		if (c->vals[i].cat >= 0 && (size_t)c->vals[i].cat < c->ncats)
			idx[n++] = i;
	if (n > fit) {
		qsort_r(idx, n, sizeof(*idx), cmp_abs_change, (void *)c);
		{
			char *t = buf_aprintf("top %zu of %zu rows by |change|; see the table for the rest",
					      fit, n);

			lay_note_add(L, t);
			free(t);
		}
		n = fit;
	}
	for (i = 0; i < n; i++)
		keep[c->vals[idx[i]].cat] = 1;
	for (i = 0; i < c->ncats; i++)
		if (keep[i])
			row_of[i] = (int)nrows++;
	free(idx);
	free(keep);
	return nrows;
}

void lay_change(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	unsigned used = 0;
	size_t i, nrows;
	char label[64];
	double t = c->threshold, w, lh, row_h;
	int *row_of = xmalloc((c->ncats + 1) * sizeof(*row_of));
	const char **cats = xmalloc((c->ncats + 1) * sizeof(*cats));

	chart_text_size(gc, "Ag", TICK_SIZE, 0, &w, &lh);
	row_h = ceil(lh + 4);
	nrows = change_rows(L, row_h, 190, row_of);
	for (i = 0; i < c->ncats; i++)
		if (row_of[i] >= 0)
			cats[row_of[i]] = c->cats[i];
	range_add(&r, 0);
	if (isfinite(t)) {
		range_add(&r, -fabs(t));
		range_add(&r, fabs(t));
	}
	for (i = 0; i < c->nvals; i++) {
		if (c->vals[i].cat < 0 || row_of[c->vals[i].cat] < 0)
			continue;
		range_add(&r, c->vals[i].y);
		range_add(&r, c->vals[i].lo);
		range_add(&r, c->vals[i].hi);
		used |= 1u << c->vals[i].verdict;
	}
	for (i = 0; i < ARRAY_SIZE(verdict_colors); i++)
		if (used & (1u << i))
			lay_legend_add(&f, LEG_MARKER, chart_verdict_name((enum chart_verdict)i),
				       verdict_color((enum chart_verdict)i), CHART_SHAPE_DIAMOND);
	lay_legend_add(&f, LEG_WHISKER, "95% interval", INK, 0);
	if (isfinite(t)) {
		snprintf(label, sizeof(label), "\u00b1%g%% threshold", fabs(t));
		lay_legend_add(&f, LEG_SWATCH, label, 0xD5D5D5, 0);
	}
	sp.xk = CHART_AXIS_LINEAR;
	sp.xlo = r.lo;
	sp.xhi = r.hi;
	sp.x_extend = 1;
	sp.yk = CHART_AXIS_BAND;
	sp.ycats = cats;
	sp.ny = nrows;
	sp.min_plot_h = row_h * (double)nrows;
	sp.xtitle = lay_axis_title(c->x_label, c->x_unit, "change (%)");
	sp.ytitle = lay_axis_title(c->y_label, c->y_unit, NULL);
	lay_frame_layout(L, gc, &f, &sp);
	/* Rows: light separators instead of a y grid. */
	if (isfinite(t)) {
		double x0 = chart_axis_pos(&L->x, -fabs(t)), x1 = chart_axis_pos(&L->x, fabs(t));
		struct chart_mark *m = lay_add_rect(L, x0, L->plot.y, x1 - x0, L->plot.h, BAND_FILL,
						    CHART_NOCOLOR, 0);

		lay_mark_key(m, "band");
		m->info = buf_aprintf("threshold=%g", fabs(t));
	}
	lay_frame_back(L);
	{
		double x0 = chart_axis_pos(&L->x, 0);
		struct chart_mark *m = lay_add_line(L, x0, L->plot.y, x0, L->plot.y + L->plot.h, INK, 1.2);

		lay_mark_key(m, "zero");
	}
	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];
		double y, rh = lay_band_width(&L->y);
		unsigned col = verdict_color(v->verdict);
		struct chart_mark *m;

		if (v->cat < 0 || !isfinite(v->y) || row_of[v->cat] < 0)
			continue;
		y = lay_band_pos(&L->y, row_of[v->cat]);
		if (isfinite(v->lo) && isfinite(v->hi)) {
			double x0 = chart_axis_pos(&L->x, v->lo), x1 = chart_axis_pos(&L->x, v->hi);
			double cap = rh * 0.35 < 10 ? rh * 0.35 : 10;

			lay_add_line(L, x0, y - cap / 2, x0, y + cap / 2, col, 2);
			lay_add_line(L, x1, y - cap / 2, x1, y + cap / 2, col, 2);
			m = lay_add_line(L, x0, y, x1, y, col, 2.5);
			lay_mark_key(m, "ci.%d", v->cat);
			m->info = buf_aprintf("lo=%g hi=%g", v->lo, v->hi);
		}
		m = lay_add_marker(L, chart_axis_pos(&L->x, v->y), y, rh * 0.25 < 6 ? rh * 0.25 : 6,
				   CHART_SHAPE_DIAMOND, col, INK);
		lay_mark_key(m, "row.%d", v->cat);
		m->info = buf_aprintf("label=%s delta=%g lo=%g hi=%g verdict=%s", c->cats[v->cat],
				      v->y, v->lo, v->hi, chart_verdict_name(v->verdict));
	}
	lay_frame_front(L, gc, &f, &sp);
	lay_legend_free(&f);
	spec_release(&sp);
	free(row_of);
	free(cats);
}

/* ---- placement: small multiples of job x node heatmaps ---- */

/*
 * Size follows content: cells of a fixed legible size, panels as wide as
 * their nodes need and as tall as their jobs, as many columns as the
 * canvas width holds, the canvas as tall as the rows of panels (at most
 * CHART_MAX_SIDE: the panels past that are left out, and the note says
 * so).  Job labels that would touch are thinned, first and last kept.
 */
/* Row height of a panel: 15 up to 24 jobs (every label fits), else 10
 * with the labels thinned. */
static double panel_row_h(size_t njobs)
{
	return njobs > 24 ? 10 : 15;
}

void lay_placement(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	double top, right, area_w, pw, ph, w, h, text_h, title_h, lw = 0, cw, rh;
	int tlines;
	struct buf one = BUF_INIT;
	size_t p, ncols, nrows, j, maxjobs = 0, shown, step;
	int n, maxnodes = 1;
	static const double ramp[] = { 100, 75, 50, 25, 0 };
	char label[64];
	const char *xt = c->x_label && *c->x_label ? c->x_label : "node";
	const char *yt = c->y_label && *c->y_label ? c->y_label : "job";
	unsigned char *show;

	for (j = 0; j < ARRAY_SIZE(ramp); j++) {
		snprintf(label, sizeof(label), "%g%% of time", ramp[j]);
		lay_legend_add(&f, LEG_SWATCH, label, heat_color(ramp[j]), 0);
	}
	lay_legend_add(&f, LEG_OUTLINE, "initial node", 0xD55E00, 0);
	lay_legend_add(&f, LEG_MARKER, "main node \u2260 initial", 0xD55E00, CHART_SHAPE_DIAMOND);
	chart_text_size(gc, "0", TICK_SIZE, 0, &w, &text_h);
	chart_text_size(gc, "Ag", AXIS_TITLE_SIZE, 1, &w, &title_h);
	for (p = 0; p < c->npanels; p++) {
		const struct chart_panel *P = &c->panels[p];

		if (P->njobs > maxjobs)
			maxjobs = P->njobs;
		if (P->nnodes > maxnodes)
			maxnodes = P->nnodes;
		for (j = 0; j < P->njobs; j++) {
			chart_text_size(gc, P->jobs[j].label, TICK_SIZE, 0, &w, &h);
			if (w > lw)
				lw = w;
		}
	}
	chart_text_size(gc, yt, TICK_SIZE, 0, &w, &h);
	if (w > lw)
		lw = w;
	/* Cells: 30 wide (24 from 12 nodes on), rows 15 high up to 24 jobs,
	 * else 10 with the labels thinned. */
	cw = maxnodes > 12 ? 24 : 30;
	pw = 8 + lw + 6 + maxnodes * cw + 18 + 8;
	if (pw < 170)
		pw = 170;
	/* each panel's rows as high as its jobs allow; the tallest sets ph */
	rh = 0;
	for (p = 0; p < c->npanels; p++)
		rh = fmax(rh, (double)c->panels[p].njobs * panel_row_h(c->panels[p].njobs));
	/* a title of two lines (variant, then configuration and run) gets
	 * both: a line cut short loses what tells the panels apart */
	tlines = 1;
	for (p = 0; p < c->npanels; p++)
		if (strchr(c->panels[p].title, '\n'))
			tlines = 2;
	ph = tlines * title_h + 4 + text_h + 4 + rh + 4 + text_h + 14;

	lay_legend_measure(gc, &f);
	for (;;) {
		lay_set_title_box(L, gc, &top);
		right = L->width - MARGIN - f.legend_w - 16;
		area_w = right - MARGIN;
		if (area_w >= pw || L->width >= CHART_MAX_SIDE)
			break;
		L->width = fmin(CHART_MAX_SIDE, L->width + pw - area_w);
	}
	ncols = (size_t)floor(area_w / pw);
	if (ncols < 1)
		ncols = 1;
	if (ncols > c->npanels)
		ncols = c->npanels ? c->npanels : 1;
	nrows = (c->npanels + ncols - 1) / ncols;
	/* balance the rows: 7 panels in 4 columns read better as 4 + 3 */
	ncols = (c->npanels + nrows - 1) / (nrows ? nrows : 1);
	if (ncols < 1)
		ncols = 1;
	shown = c->npanels;
	if (top + nrows * ph + MARGIN > CHART_MAX_SIDE) {
		size_t fit_rows = (size_t)floor((CHART_MAX_SIDE - top - MARGIN - 20) / ph);

		if (fit_rows < 1)
			fit_rows = 1;
		shown = fit_rows * ncols;
		if (shown > c->npanels)
			shown = c->npanels;
		nrows = (shown + ncols - 1) / ncols;
		{
			char *t = buf_aprintf("first %zu of %zu runs; narrow the selection "
					      "(--variants, --config) for the rest", shown, c->npanels);

			lay_note_add(L, t);
			free(t);
		}
		lay_set_title_box(L, gc, &top);
	}
	L->height = top + nrows * ph + MARGIN;
	if (L->height < top + f.nitems * LEGEND_ROW + 8 + MARGIN)
		L->height = top + f.nitems * LEGEND_ROW + 8 + MARGIN;
	pw = area_w / ncols;
	L->has_plot = 1;
	L->plot.x = MARGIN;
	L->plot.y = top;
	L->plot.w = area_w;
	L->plot.h = nrows * ph;
	show = xcalloc(maxjobs + 1, 1);

	for (p = 0; p < shown; p++) {
		const struct chart_panel *P = &c->panels[p];
		double px = MARGIN + (p % ncols) * pw, py = top + (p / ncols) * ph;
		double gx, gy, gw, gh;
		struct chart_mark *m;
		char *title;

		rh = panel_row_h(P->njobs);
		step = (size_t)ceil((text_h + 1) / rh);
		gw = cw * P->nnodes;
		gh = rh * P->njobs;
		gx = px + 8 + lw + 6 + (pw - 8 - lw - 6 - 18 - 8 - gw) / 2;
		gy = py + tlines * title_h + 4 + text_h + 4;
		{
			/* each line centred over the grid, inside the panel */
			const char *line = P->title;
			int li = 0;

			m = NULL;
			while (line && li < 2) {
				const char *nl = strchr(line, '\n');
				char *one = nl ? buf_aprintf("%.*s", (int)(nl - line), line) : xstrdup(line);
				double tx = gx + gw / 2;
				struct chart_mark *lm;

				title = lay_fit_text(gc, one, AXIS_TITLE_SIZE, 1, pw - 10);
				free(one);
				chart_text_size(gc, title, AXIS_TITLE_SIZE, 1, &w, &h);
				if (tx - w / 2 < px + 4)
					tx = px + 4 + w / 2;
				if (tx + w / 2 > px + pw - 4)
					tx = px + pw - 4 - w / 2;
				lm = lay_add_text(L, tx, py + li * title_h, title, AXIS_TITLE_SIZE, 1, 0, INK);
				lm->bold = 1;
				free(title);
				if (!m)
					m = lm;
				line = nl ? nl + 1 : NULL;
				li++;
			}
		}
		lay_mark_key(m, "panel.%zu", p);
		{
			/* the dump's title on one line: its lines joined by ", " */
			const char *q;

			buf_reset(&one);
			for (q = P->title; *q; q++)
				if (*q == '\n')
					buf_puts(&one, ", ");
				else
					buf_putc(&one, *q);
			m->info = buf_aprintf("title=%s nodes=%d jobs=%zu", buf_str(&one), P->nnodes, P->njobs);
		}
		lay_add_text(L, gx - 6, gy - 2, yt, TICK_SIZE, 2, 2, 0x666666);
		for (n = 0; n < P->nnodes; n++) {
			snprintf(label, sizeof(label), "%d", n);
			lay_add_text(L, gx + (n + 0.5) * cw, gy - 2, label, TICK_SIZE, 1, 2, INK);
		}
		lay_add_text(L, gx + gw / 2, gy + gh + 4, xt, TICK_SIZE, 1, 0, 0x666666);
		lay_thin_labels(show, P->njobs, step);
		for (j = 0; j < P->njobs; j++) {
			const struct chart_job *J = &P->jobs[j];
			double ry = gy + j * rh;
			int flagged = J->initial >= 0 && J->main >= 0 && J->initial != J->main;

			if (show[j])
				lay_add_text(L, gx - 6, ry + rh / 2, J->label, TICK_SIZE, 2, 1, INK);
			for (n = 0; n < P->nnodes; n++) {
				double v = J->pct[n];
				unsigned col = heat_color(v);

				m = lay_add_rect(L, gx + n * cw, ry, cw, rh, col, 0xFFFFFF, 1);
				lay_mark_key(m, "cell.%zu.%zu.%d", p, j, n);
				m->info = buf_aprintf("panel=%s job=%s node=%d pct=%g", buf_str(&one), J->label,
						      n, v);
				if (isfinite(v) && v >= 0.5 && cw >= 24 && rh >= 12) {
					snprintf(label, sizeof(label), "%.0f", v);
					lay_add_text(L, gx + (n + 0.5) * cw, ry + rh / 2, label, 8.5, 1, 1,
						     v > 55 ? 0xFFFFFF : INK);
				}
			}
			if (J->initial >= 0 && J->initial < P->nnodes) {
				m = lay_add_rect(L, gx + J->initial * cw + 1.5, ry + 1.5, cw - 3, rh - 3,
						 CHART_NOCOLOR, 0xD55E00, rh < 12 ? 1.5 : 2);
				lay_mark_key(m, "init.%zu.%zu", p, j);
				m->info = buf_aprintf("node=%d", J->initial);
			}
			if (flagged)
				m = lay_add_marker(L, gx + gw + 8, ry + rh / 2, rh < 12 ? 3.5 : 4.5,
						   CHART_SHAPE_DIAMOND, 0xD55E00, CHART_NOCOLOR);
			else
				m = lay_add_marker(L, gx + gw + 8, ry + rh / 2, 0, CHART_SHAPE_DIAMOND,
						   CHART_NOCOLOR, CHART_NOCOLOR);
			lay_mark_key(m, "row.%zu.%zu", p, j);
			m->info = buf_aprintf("job=%s initial=%d main=%d flagged=%d", J->label,
					      J->initial, J->main, flagged);
		}
	}
	free(show);
	buf_release(&one);
	lay_emit_title(L);
	lay_legend_place(L, &f, right + 16, top);
	lay_legend_free(&f);
}
