/*
 * chart_layout.c - from a chart model to a list of marks.
 *
 * Stages: data ranges -> scales -> ticks (nice steps 1, 2, 2.5, 5 x 10^k)
 * -> boxes (title, legend at the right of the plot, axis labels, plot)
 * -> data marks per chart type -> decoration and legend marks.  All sizes
 * are logical units; text is measured through the gc so boxes fit it.
 */
#include "chart_int.h"
#include "../core/buf.h"
#include "../core/err.h"
#include "../core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 12.0
#define TITLE_SIZE 15.0
#define AXIS_TITLE_SIZE 12.0
#define TICK_SIZE 11.0
#define LEGEND_SIZE 11.0
#define SMALL_SIZE 9.5
#define TICK_LEN 5.0
#define LEGEND_ROW 18.0
#define LEGEND_SWATCH 22.0

#define INK 0x222222u
#define AXIS_INK 0x444444u
#define GRID 0xE3E3E3u
#define BAND_FILL 0xEBEBEBu

/*
 * Series look: Okabe-Ito colours (safe for the common colour-vision
 * deficiencies), ordered so the first are the most distinct, combined
 * with a marker shape and, past the eighth series, a dash pattern, so
 * that no two of the first 40 series look alike even without colour.
 */
static const unsigned series_colors[] = {
	0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0xF0E442, 0x000000,
};

static const unsigned verdict_colors[] = {
	0x56B4E9,       /* same */
	0x009E73,       /* better */
	0xD55E00,       /* worse */
	0x999999,       /* inconclusive: grey, so it never reads as worse */
	0xCC79A7,       /* changed */
};

unsigned chart_style_color(int style)
{
	return series_colors[(size_t)(style < 0 ? 0 : style) % ARRAY_SIZE(series_colors)];
}

static int style_of(const struct chart *c, int s)
{
	if (c->series_style && s >= 0 && (size_t)s < c->nseries && c->series_style[s] >= 0)
		return c->series_style[s];
	return s < 0 ? 0 : s;
}

static unsigned series_color(const struct chart *c, int s)
{
	return chart_style_color(style_of(c, s));
}

static int series_shape(const struct chart *c, int s)
{
	return style_of(c, s) % CHART_SHAPE_COUNT;
}

/* 0 solid for the first eight styles, then dashed, dotted, dash-dot. */
static int series_dash(const struct chart *c, int s)
{
	return (style_of(c, s) / (int)ARRAY_SIZE(series_colors)) % 4;
}

/* Do the series need their shapes to stay apart (more than the colours)? */
static int many_series(const struct chart *c)
{
	size_t s;

	for (s = 0; s < c->nseries; s++)
		if (style_of(c, (int)s) >= (int)ARRAY_SIZE(series_colors))
			return 1;
	return 0;
}

static unsigned verdict_color(enum chart_verdict v)
{
	if ((unsigned)v < ARRAY_SIZE(verdict_colors))
		return verdict_colors[v];
	return 0x999999;
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

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (!b.data)
		buf_puts(&b, "");
	return buf_detach(&b);
}

/*
 * text shortened with a trailing ellipsis until it is at most maxw wide
 * at size; the whole text when it fits.  Caller frees.
 */
static char *fit_text(struct chart_gc *gc, const char *text, double size, int bold, double maxw)
{
	double w, h;
	glong n, lo, hi;
	char *out = NULL;

	chart_text_size(gc, text, size, bold, &w, &h);
	if (w <= maxw || !g_utf8_validate(text, -1, NULL))
		return xstrdup(text);
	n = g_utf8_strlen(text, -1);
	lo = 0;
	hi = n;
	/* the longest prefix that fits with the ellipsis */
	while (lo < hi) {
		glong mid = (lo + hi + 1) / 2;
		const char *end = g_utf8_offset_to_pointer(text, mid);
		char *t = xprintf("%.*s\u2026", (int)(end - text), text);

		chart_text_size(gc, t, size, bold, &w, &h);
		free(t);
		if (w <= maxw)
			lo = mid;
		else
			hi = mid - 1;
	}
	out = xprintf("%.*s\u2026", (int)(g_utf8_offset_to_pointer(text, lo) - text), text);
	return out;
}

/* ---- marks ---- */

static struct chart_mark *add_mark(struct chart_layout *L, enum chart_pk pk)
{
	struct chart_mark *m;

	xgrow(&L->marks, &L->marks_cap, L->nmarks + 1, sizeof(*L->marks));
	m = &L->marks[L->nmarks++];
	memset(m, 0, sizeof(*m));
	m->pk = pk;
	m->fill = CHART_NOCOLOR;
	m->stroke = CHART_NOCOLOR;
	return m;
}

static void mark_key(struct chart_mark *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mark_key(struct chart_mark *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->key, sizeof(m->key), fmt, ap);
	va_end(ap);
}

static struct chart_mark *add_rect(struct chart_layout *L, double x, double y, double w,
				   double h, unsigned fill, unsigned stroke, double lw)
{
	struct chart_mark *m = add_mark(L, CHART_PK_RECT);

	m->x = x;
	m->y = y;
	m->w = w;
	m->h = h;
	m->fill = fill;
	m->stroke = stroke;
	m->lw = lw;
	return m;
}

static struct chart_mark *add_line(struct chart_layout *L, double x, double y, double x2,
				   double y2, unsigned color, double lw)
{
	struct chart_mark *m = add_mark(L, CHART_PK_LINE);

	m->x = x;
	m->y = y;
	m->x2 = x2;
	m->y2 = y2;
	m->stroke = color;
	m->lw = lw;
	return m;
}

static struct chart_mark *add_marker(struct chart_layout *L, double x, double y, double r,
				     int shape, unsigned fill, unsigned stroke)
{
	struct chart_mark *m = add_mark(L, CHART_PK_MARKER);

	m->x = x;
	m->y = y;
	m->w = r;
	m->shape = shape;
	m->fill = fill;
	m->stroke = stroke;
	m->lw = stroke == CHART_NOCOLOR ? 0 : 1;
	return m;
}

static struct chart_mark *add_text(struct chart_layout *L, double x, double y, const char *text,
				   double size, int halign, int valign, unsigned color)
{
	struct chart_mark *m = add_mark(L, CHART_PK_TEXT);

	m->x = x;
	m->y = y;
	m->text = xstrdup(text);
	m->size = size;
	m->halign = halign;
	m->valign = valign;
	m->fill = color;
	return m;
}

/* A vertical error bar with caps; the stem carries the dump key. */
static struct chart_mark *add_whisker(struct chart_layout *L, double x, double y1, double y2,
				      double cap, unsigned color, double lw)
{
	struct chart_mark *m;

	add_line(L, x - cap / 2, y1, x + cap / 2, y1, color, lw);
	add_line(L, x - cap / 2, y2, x + cap / 2, y2, color, lw);
	m = add_line(L, x, y1, x, y2, color, lw);
	return m;
}

/* ---- scales and ticks ---- */

double chart_axis_pos(const struct chart_axis *a, double v)
{
	double t;

	if (a->kind == CHART_AXIS_LOG)
		t = (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	else
		t = (v - a->min) / (a->max - a->min);
	return a->p0 + t * (a->p1 - a->p0);
}

static void add_tick(struct chart_axis *a, double v, const char *label)
{
	a->ticks = xrealloc(a->ticks, sizeof(*a->ticks) * (a->nticks + 1));
	a->ticks[a->nticks].v = v;
	a->ticks[a->nticks].pos = 0;
	snprintf(a->ticks[a->nticks].label, sizeof(a->ticks[a->nticks].label), "%s", label);
	a->nticks++;
}

/* Smallest step m x 10^k (m in 1, 2, 2.5, 5) not below raw. */
static double nice_step(double raw, int *decimals)
{
	static const double mult[] = { 1, 2, 2.5, 5, 10 };
	double p = pow(10, floor(log10(raw)));
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(mult); i++)
		if (mult[i] * p >= raw * (1 - 1e-9))
			break;
	if (i == ARRAY_SIZE(mult))
		i = ARRAY_SIZE(mult) - 1;
	k = (int)lround(log10(p));
	if (mult[i] == 10)
		k++;
	/* 2.5 x 10^k needs one digit more than 10^k: 0.25, 2.5, but 25. */
	if (mult[i] == 2.5)
		k--;
	*decimals = k < 0 ? -k : 0;
	return mult[i] * p;
}

/*
 * Linear ticks over [lo, hi] with about target intervals.  With extend the
 * range grows to whole steps; otherwise it stays and ticks fall inside.
 */
static void linear_ticks(struct chart_axis *a, double lo, double hi, double target, int extend)
{
	double step, v;
	int dec, i, n;
	char label[40];

	a->kind = CHART_AXIS_LINEAR;
	if (!(hi > lo)) {
		double d = fabs(lo) > 0 ? fabs(lo) * 0.1 : 1;

		lo -= d;
		hi += d;
	}
	if (target < 2)
		target = 2;
	step = nice_step((hi - lo) / target, &dec);
	if (extend) {
		lo = floor(lo / step + 1e-9) * step;
		hi = ceil(hi / step - 1e-9) * step;
	}
	a->min = lo;
	a->max = hi;
	n = (int)floor((hi - lo) / step + 1e-9) + 2;
	for (i = 0; i < n; i++) {
		v = (ceil(lo / step - 1e-9) + i) * step;
		if (v > hi + step * 1e-9)
			break;
		if (fabs(v) < step * 1e-9)
			v = 0;
		snprintf(label, sizeof(label), "%.*f", dec, v);
		add_tick(a, v, label);
	}
}

/* Decade ticks (and 2, 5 within few decades); lo, hi > 0. */
static void log_ticks(struct chart_axis *a, double lo, double hi, int extend)
{
	static const double few[] = { 1, 2, 5 };
	int d0, d1, k;
	size_t i;
	char label[40];

	a->kind = CHART_AXIS_LOG;
	d0 = (int)floor(log10(lo) + 1e-9);
	d1 = (int)ceil(log10(hi) - 1e-9);
	if (d1 <= d0)
		d1 = d0 + 1;
	if (extend) {
		a->min = pow(10, d0);
		a->max = pow(10, d1);
	} else {
		double pad = (log10(hi) - log10(lo)) * 0.05;

		if (pad <= 0)
			pad = 0.1;
		a->min = pow(10, log10(lo) - pad);
		a->max = pow(10, log10(hi) + pad);
	}
	for (k = d0; k <= d1; k++)
		for (i = 0; i < ARRAY_SIZE(few); i++) {
			double v = few[i] * pow(10, k);

			if (i > 0 && d1 - d0 > 2)
				break;
			if (v < a->min * (1 - 1e-9) || v > a->max * (1 + 1e-9))
				continue;
			snprintf(label, sizeof(label), "%g", v);
			add_tick(a, v, label);
		}
}

/* Ticks at powers of two, for task counts such as 4, 8, 16, 32, 64. */
static void log2_ticks(struct chart_axis *a, double lo, double hi)
{
	double pad = (log10(hi) - log10(lo)) * 0.05, v;
	int k0 = (int)floor(log2(lo) + 1e-9), k1 = (int)ceil(log2(hi) - 1e-9), k, every;
	char label[40];

	a->kind = CHART_AXIS_LOG;
	if (pad <= 0)
		pad = 0.1;
	a->min = pow(10, log10(lo) - pad);
	a->max = pow(10, log10(hi) + pad);
	every = (k1 - k0) / 8 + 1;
	for (k = k0; k <= k1; k += every) {
		v = ldexp(1, k);
		if (v < a->min || v > a->max)
			continue;
		snprintf(label, sizeof(label), "%g", v);
		add_tick(a, v, label);
	}
}

static void place_ticks(struct chart_axis *a)
{
	size_t i;

	for (i = 0; i < a->nticks; i++)
		a->ticks[i].pos = chart_axis_pos(a, a->ticks[i].v);
}

/* ---- legend ---- */

enum legend_kind {
	LEG_SWATCH,
	LEG_LINE,
	LEG_MARKER,
	LEG_WHISKER,
	LEG_OUTLINE,
	LEG_SYMBOL,
	LEG_MEAN,
	LEG_DASH,
};

struct legend_item {
	enum legend_kind kind;
	char *label;
	unsigned color;
	int shape;
	int dash;               /* LEG_LINE: the series' dash pattern */
	int mark;               /* LEG_SWATCH: draw the shape on the swatch */
};

struct frame {
	struct legend_item *items;
	size_t nitems, cap;
	double legend_w;
};

static struct legend_item *legend_add(struct frame *f, enum legend_kind kind, const char *label,
				      unsigned color, int shape)
{
	struct legend_item *it;

	xgrow(&f->items, &f->cap, f->nitems + 1, sizeof(*f->items));
	it = &f->items[f->nitems++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->label = xstrdup(label);
	it->color = color;
	it->shape = shape;
	return it;
}

/* The legend entry of series s in the look of chart type kind. */
static void legend_series(struct frame *f, const struct chart *c, size_t s, enum legend_kind kind)
{
	struct legend_item *it = legend_add(f, kind, c->series[s], series_color(c, (int)s),
					    series_shape(c, (int)s));

	it->dash = series_dash(c, (int)s);
	it->mark = kind == LEG_SWATCH && many_series(c);
}

static void legend_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->nitems; i++)
		free(f->items[i].label);
	free(f->items);
}

#define LEGEND_MAX_LABEL 210.0

/* Width the legend needs (0 when empty); labels too long are shortened. */
static double legend_measure(struct chart_gc *gc, struct frame *f)
{
	double w, h, max = 0;
	size_t i;

	for (i = 0; i < f->nitems; i++) {
		char *t = fit_text(gc, f->items[i].label, LEGEND_SIZE, 0, LEGEND_MAX_LABEL);

		free(f->items[i].label);
		f->items[i].label = t;
		chart_text_size(gc, f->items[i].label, LEGEND_SIZE, 0, &w, &h);
		if (w > max)
			max = w;
	}
	f->legend_w = f->nitems ? LEGEND_SWATCH + 6 + max + 12 : 0;
	return f->legend_w;
}

/* Place the legend with its top-left corner at (x, y) and emit its marks. */
static void legend_place(struct chart_layout *L, struct frame *f, double x, double y)
{
	size_t i;

	if (!f->nitems)
		return;
	L->has_legend = 1;
	L->legend.x = x;
	L->legend.y = y;
	L->legend.w = f->legend_w;
	L->legend.h = f->nitems * LEGEND_ROW + 8;
	add_rect(L, x, y, L->legend.w, L->legend.h, 0xFFFFFF, 0xCCCCCC, 1);
	L->lentries = xcalloc(f->nitems, sizeof(*L->lentries));
	for (i = 0; i < f->nitems; i++) {
		const struct legend_item *it = &f->items[i];
		double ry = y + 4 + i * LEGEND_ROW, cy = ry + LEGEND_ROW / 2;
		double sx = x + 6, sw = LEGEND_SWATCH;
		struct chart_lentry *e = &L->lentries[L->nlentries++];
		struct chart_mark *m;

		e->label = xstrdup(it->label);
		e->box.x = x + 2;
		e->box.y = ry;
		e->box.w = L->legend.w - 4;
		e->box.h = LEGEND_ROW;
		switch (it->kind) {
		case LEG_SWATCH:
			add_rect(L, sx + 3, cy - 6, sw - 6, 12, it->color, CHART_NOCOLOR, 0);
			if (it->mark)
				add_marker(L, sx + sw / 2, cy, 3.5, it->shape, 0xFFFFFF, INK);
			break;
		case LEG_LINE:
			m = add_line(L, sx, cy, sx + sw, cy, it->color, 2);
			m->dash = it->dash;
			add_marker(L, sx + sw / 2, cy, 3.5, it->shape, it->color, 0xFFFFFF);
			break;
		case LEG_MARKER:
			add_marker(L, sx + sw / 2, cy, 4, it->shape, it->color, 0xFFFFFF);
			break;
		case LEG_WHISKER:
			add_whisker(L, sx + sw / 2, cy - 7, cy + 7, 8, it->color, 1.2);
			break;
		case LEG_OUTLINE:
			add_rect(L, sx + 3, cy - 7, sw - 6, 14, 0xF7FBFF, it->color, 2);
			break;
		case LEG_SYMBOL:
			m = add_text(L, sx + sw / 2, cy, "*", 14, 1, 1, it->color);
			m->bold = 1;
			break;
		case LEG_MEAN:
			add_line(L, sx + 3, cy, sx + sw - 3, cy, it->color, 2.5);
			break;
		case LEG_DASH:
			m = add_line(L, sx + sw / 2, cy - 7, sx + sw / 2, cy + 7, it->color, 1.5);
			m->dash = 1;
			break;
		}
		add_text(L, sx + sw + 6, cy, it->label, LEGEND_SIZE, 0, 1, INK);
	}
}

/* ---- the frame shared by the x/y chart types ---- */

struct frame_spec {
	enum chart_axis_kind xk, yk;
	double xlo, xhi, ylo, yhi;      /* data ranges of numeric axes */
	int x_extend, y_extend;
	const char *const *xcats;       /* band labels */
	size_t nx;
	const char *const *ycats;
	size_t ny;
	int x_pow2;                     /* log x: data are powers of two */
	double strip_h;                 /* annotation strip above the plot */
	double under_h;                 /* extra space under the x axis */
	char *xtitle, *ytitle;          /* owned */
	double min_plot_h;              /* grow the canvas until the plot is this high */
	double min_band_w;              /* ... and x bands this wide */
	int xcat_rot;                   /* out: x band labels rotated */
	char **xlab, **ylab;            /* out: band labels as drawn (shortened) */
	unsigned char *xshow;           /* out: which x band labels are drawn */
	const struct chart *marks_of;   /* history: its change points keep their x labels */
};

/* Is band i a change point of c (NULL: none)? */
static int marked_cat(const struct chart *c, size_t i)
{
	size_t k;

	for (k = 0; c && k < c->nmarks; k++)
		if (c->marks[k].cat >= 0 && (size_t)c->marks[k].cat == i)
			return 1;
	return 0;
}

/* A change point's band label is always drawn; a thinned-in label that
 * would crowd it (closer than step bands) gives way. */
static void keep_marked(unsigned char *show, size_t n, size_t step, const struct chart *c)
{
	size_t i, k;

	if (!c || !c->nmarks)
		return;
	if (step < 1)
		step = 1;
	for (i = 0; i < n; i++) {
		if (!marked_cat(c, i))
			continue;
		for (k = i + 1 > step ? i + 1 - step : 0; k < i + step && k < n; k++)
			if (k != i && !marked_cat(c, k))
				show[k] = 0;
		show[i] = 1;
	}
}

static void free_labels(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Labels shortened to maxw; the widest as drawn in *mw. */
static char **fit_labels(struct chart_gc *gc, const char *const *v, size_t n, double size,
			 double maxw, double *mw)
{
	char **out = xcalloc(n + 1, sizeof(*out));
	double w, h;
	size_t i;

	*mw = 0;
	for (i = 0; i < n; i++) {
		out[i] = fit_text(gc, v[i], size, 0, maxw);
		chart_text_size(gc, out[i], size, 0, &w, &h);
		if (w > *mw)
			*mw = w;
	}
	return out;
}

/* Show every step-th of n labels, always the first and the last (the
 * one before the last gives way when they would touch). */
static void thin_labels(unsigned char *show, size_t n, size_t step)
{
	size_t i, prev = 0;

	if (step < 1)
		step = 1;
	for (i = 0; i < n; i++) {
		show[i] = i % step == 0;
		if (show[i] && i + 1 < n)
			prev = i;
	}
	if (n) {
		if (!show[n - 1] && n - 1 - prev < step && prev > 0)
			show[prev] = 0;
		show[n - 1] = 1;
	}
}

static char *axis_title(const char *label, const char *unit, const char *fallback)
{
	if (!label || !*label)
		label = fallback;
	if (!label)
		return NULL;
	if (unit && *unit)
		return xprintf("%s (%s)", label, unit);
	return xstrdup(label);
}

/*
 * The title box at the top: the title in bold at 15, smaller (down to
 * 11) when it is wider than the canvas, then shortened with an ellipsis;
 * then the note, if any, in a line of its own.  *top is the first free y.
 */
static void set_title_box(struct chart_layout *L, struct chart_gc *gc, double *top)
{
	const struct chart *c = L->c;
	double w = 0, h = 0, size, maxw = L->width - 2 * MARGIN;

	*top = MARGIN;
	if (c->title && *c->title) {
		for (size = TITLE_SIZE; size > 11; size -= 1) {
			chart_text_size(gc, c->title, size, 1, &w, &h);
			if (w <= maxw)
				break;
		}
		free(L->title_text);
		L->title_text = fit_text(gc, c->title, size, 1, maxw);
		L->title_size = size;
		chart_text_size(gc, L->title_text, size, 1, &w, &h);
		L->title.x = (L->width - w) / 2;
		L->title.y = *top;
		L->title.w = w;
		L->title.h = h;
		*top += h + 10;
	}
	if (L->note) {
		char *t = fit_text(gc, L->note, SMALL_SIZE + 1, 0, maxw);

		free(L->note);
		L->note = t;
		chart_text_size(gc, L->note, SMALL_SIZE + 1, 0, &w, &h);
		L->note_y = *top - 4;
		*top += h + 6;
	}
}

static void emit_title(struct chart_layout *L)
{
	struct chart_mark *m;

	if (L->title_text) {
		m = add_text(L, L->width / 2, L->title.y, L->title_text, L->title_size, 1, 0, INK);
		m->bold = 1;
	}
	if (L->note)
		add_text(L, L->width / 2, L->note_y, L->note, SMALL_SIZE + 1, 1, 0, 0x8A3B00);
}

static double max_label_width(struct chart_gc *gc, const char *const *labels, size_t n,
			      double size, double *height)
{
	double w, h, max = 0;
	size_t i;

	*height = 0;
	for (i = 0; i < n; i++) {
		chart_text_size(gc, labels[i], size, 0, &w, &h);
		if (w > max)
			max = w;
		if (h > *height)
			*height = h;
	}
	return max;
}

static double max_tick_width(struct chart_gc *gc, const struct chart_axis *a, double *height)
{
	double w, h, max = 0;
	size_t i;

	*height = 0;
	for (i = 0; i < a->nticks; i++) {
		chart_text_size(gc, a->ticks[i].label, TICK_SIZE, 0, &w, &h);
		if (w > max)
			max = w;
		if (h > *height)
			*height = h;
	}
	return max;
}

static void numeric_axis(struct chart_axis *a, enum chart_axis_kind k, double lo, double hi,
			 double target, int extend)
{
	free(a->ticks);
	a->ticks = NULL;
	a->nticks = 0;
	if (k == CHART_AXIS_LOG && lo > 0 && hi > 0)
		log_ticks(a, lo, hi, extend);
	else
		linear_ticks(a, lo, hi, target, extend);
}

/*
 * Boxes for an x/y chart: title on top, legend at the right of the plot,
 * y axis title and tick labels at the left, x tick labels and title under
 * the plot.  Fills L->plot and both axes (ranges, ticks, positions).
 */
static void axis_reset(struct chart_axis *a)
{
	free(a->ticks);
	memset(a, 0, sizeof(*a));
}

static void frame_layout(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
			 struct frame_spec *sp)
{
	double top, right, bottom, left, w, th, lh, xlab_h, ylab_w, text_h, legend_h;
	int tries;

	for (tries = 0;; tries++) {
		axis_reset(&L->x);
		axis_reset(&L->y);
		free_labels(sp->xlab, sp->nx);
		free_labels(sp->ylab, sp->ny);
		free(sp->xshow);
		sp->xlab = sp->ylab = NULL;
		sp->xshow = NULL;
		th = 0;
		set_title_box(L, gc, &top);
		legend_measure(gc, f);
		right = L->width - MARGIN - (f->legend_w > 0 ? f->legend_w + 16 : 0);
		legend_h = f->nitems * LEGEND_ROW + 8;
		if (top + legend_h + MARGIN > L->height && L->height < CHART_MAX_SIDE && tries < 8) {
			L->height = fmin(CHART_MAX_SIDE, top + legend_h + MARGIN);
			continue;
		}
		top += sp->strip_h;
		chart_text_size(gc, "0", TICK_SIZE, 0, &w, &text_h);
		if (sp->xtitle)
			chart_text_size(gc, sp->xtitle, AXIS_TITLE_SIZE, 0, &w, &th);
		bottom = L->height - MARGIN - (th > 0 ? th + 6 : 0) - sp->under_h;
		xlab_h = TICK_LEN + 3 + text_h;
		bottom -= xlab_h;

		/* y axis: ticks need the plot height, labels then set the left edge. */
		if (sp->yk == CHART_AXIS_BAND) {
			L->y.kind = CHART_AXIS_BAND;
			L->y.min = 0;
			L->y.max = (double)sp->ny;
			sp->ylab = fit_labels(gc, sp->ycats, sp->ny, TICK_SIZE, L->width * 0.4, &ylab_w);
		} else {
			numeric_axis(&L->y, sp->yk, sp->ylo, sp->yhi, (bottom - top) / 50, sp->y_extend);
			ylab_w = max_tick_width(gc, &L->y, &lh);
		}
		th = 0;
		if (sp->ytitle)
			chart_text_size(gc, sp->ytitle, AXIS_TITLE_SIZE, 0, &w, &th);
		left = MARGIN + (th > 0 ? th + 8 : 0) + ylab_w + TICK_LEN + 4;

		/* x axis: band labels may need rotating and thinning, which
		 * moves the bottom (and the left edge, for the first label). */
		sp->xcat_rot = 0;
		if (sp->xk == CHART_AXIS_BAND) {
			double band = (right - left) / (sp->nx ? sp->nx : 1), mw;
			size_t step = 1;

			if (sp->min_band_w > 0 && band < sp->min_band_w && L->width < CHART_MAX_SIDE &&
			    tries < 8) {
				L->width = fmin(CHART_MAX_SIDE, L->width + (sp->min_band_w - band) * sp->nx + 1);
				continue;
			}
			L->x.kind = CHART_AXIS_BAND;
			L->x.min = 0;
			L->x.max = (double)sp->nx;
			sp->xshow = xcalloc(sp->nx + 1, 1);
			sp->xlab = fit_labels(gc, sp->xcats, sp->nx, TICK_SIZE, 1e9, &mw);
			chart_text_size(gc, "Ag", TICK_SIZE, 0, &w, &lh);
			if (mw > band * 0.95) {
				double maxlab = fmin(220, (L->height - top) * 0.3 / 0.7071 - lh), need, req;

				free_labels(sp->xlab, sp->nx);
				sp->xlab = fit_labels(gc, sp->xcats, sp->nx, TICK_SIZE, maxlab, &mw);
				sp->xcat_rot = 1;
				need = (mw + lh) * 0.7071;
				bottom -= need - text_h;
				step = (size_t)ceil((lh * 1.4142 + 2) / band);
				if (sp->nx) {
					chart_text_size(gc, sp->xlab[0], TICK_SIZE, 0, &w, &lh);
					req = 2 + w * 0.7071 - band / 2 - 4;
					if (left < req)
						left = req;
					band = (right - left) / sp->nx;
					step = (size_t)ceil((lh * 1.4142 + 2) / band);
				}
			}
			thin_labels(sp->xshow, sp->nx, step);
			keep_marked(sp->xshow, sp->nx, step, sp->marks_of);
		} else {
			numeric_axis(&L->x, sp->xk, sp->xlo, sp->xhi, (right - left) / 90, sp->x_extend);
			if (sp->xk == CHART_AXIS_LOG && sp->x_pow2 && sp->xlo > 0) {
				free(L->x.ticks);
				L->x.ticks = NULL;
				L->x.nticks = 0;
				log2_ticks(&L->x, sp->xlo, sp->xhi);
			}
		}
		if (sp->min_plot_h > 0 && bottom - top < sp->min_plot_h && L->height < CHART_MAX_SIDE &&
		    tries < 8) {
			L->height = fmin(CHART_MAX_SIDE, L->height + sp->min_plot_h - (bottom - top) + 1);
			continue;
		}
		break;
	}

	L->has_plot = 1;
	L->plot.x = left;
	L->plot.y = top;
	L->plot.w = right - left;
	L->plot.h = bottom - top;
	L->x.p0 = left;
	L->x.p1 = right;
	L->y.p0 = bottom;
	L->y.p1 = top;
	if (L->y.kind == CHART_AXIS_BAND) {
		/* Rows read top to bottom. */
		L->y.p0 = top;
		L->y.p1 = bottom;
	}
	place_ticks(&L->x);
	place_ticks(&L->y);
}

/* Centre of band i on a band axis. */
static double band_pos(const struct chart_axis *a, double i)
{
	return chart_axis_pos(a, i + 0.5);
}

static double band_width(const struct chart_axis *a)
{
	return fabs(a->p1 - a->p0) / (a->max > 0 ? a->max : 1);
}

/* Grid lines behind the data. */
static void frame_back(struct chart_layout *L)
{
	const struct chart_box *p = &L->plot;
	size_t i;

	for (i = 0; i < L->y.nticks; i++)
		add_line(L, p->x, L->y.ticks[i].pos, p->x + p->w, L->y.ticks[i].pos, GRID, 1);
	for (i = 0; i < L->x.nticks; i++)
		add_line(L, L->x.ticks[i].pos, p->y, L->x.ticks[i].pos, p->y + p->h, GRID, 1);
}

/* Axes, tick labels, axis titles, title and legend over the data. */
static void frame_front(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
			struct frame_spec *sp)
{
	const struct chart_box *p = &L->plot;
	double bottom = p->y + p->h, w, h, lab_bottom = bottom + TICK_LEN + 3;
	struct chart_mark *m;
	size_t i;

	add_line(L, p->x, bottom, p->x + p->w, bottom, AXIS_INK, 1);
	add_line(L, p->x, p->y, p->x, bottom, AXIS_INK, 1);
	for (i = 0; i < L->y.nticks; i++) {
		double y = L->y.ticks[i].pos;

		add_line(L, p->x - TICK_LEN, y, p->x, y, AXIS_INK, 1);
		add_text(L, p->x - TICK_LEN - 3, y, L->y.ticks[i].label, TICK_SIZE, 2, 1, INK);
	}
	for (i = 0; i < L->x.nticks; i++) {
		double x = L->x.ticks[i].pos;

		add_line(L, x, bottom, x, bottom + TICK_LEN, AXIS_INK, 1);
		add_text(L, x, bottom + TICK_LEN + 2, L->x.ticks[i].label, TICK_SIZE, 1, 0, INK);
	}
	for (i = 0; i < sp->ny; i++) {
		double y = band_pos(&L->y, (double)i);

		add_line(L, p->x - TICK_LEN, y, p->x, y, AXIS_INK, 1);
		m = add_text(L, p->x - TICK_LEN - 3, y, sp->ylab ? sp->ylab[i] : sp->ycats[i],
			     TICK_SIZE, 2, 1, INK);
		mark_key(m, "ycat.%zu", i);
		m->info = xprintf("label=%s", sp->ycats[i]);
	}
	for (i = 0; i < sp->nx; i++) {
		double x = band_pos(&L->x, (double)i);

		if (sp->xshow && !sp->xshow[i])
			continue;
		if (sp->under_h <= 0)
			add_line(L, x, bottom, x, bottom + TICK_LEN, AXIS_INK, 1);
		m = add_text(L, x, bottom + TICK_LEN + 2 + sp->under_h,
			     sp->xlab ? sp->xlab[i] : sp->xcats[i], TICK_SIZE, 1, 0, INK);
		if (sp->xcat_rot) {
			m->angle = -M_PI / 4;
			m->halign = 2;
			m->x += 4;
		}
		mark_key(m, "xcat.%zu", i);
		m->info = xprintf("label=%s", sp->xcats[i]);
	}
	if (sp->xtitle) {
		char *t = fit_text(gc, sp->xtitle, AXIS_TITLE_SIZE, 0, p->w);
		double cx = p->x + p->w / 2;

		chart_text_size(gc, t, AXIS_TITLE_SIZE, 0, &w, &h);
		/* centred under the plot, but never past the canvas edges */
		if (cx + w / 2 > L->width - MARGIN)
			cx = L->width - MARGIN - w / 2;
		add_text(L, cx, L->height - MARGIN, t, AXIS_TITLE_SIZE, 1, 2, INK);
		free(t);
	}
	(void)lab_bottom;
	if (sp->ytitle) {
		char *t = fit_text(gc, sp->ytitle, AXIS_TITLE_SIZE, 0, p->h);

		chart_text_size(gc, t, AXIS_TITLE_SIZE, 0, &w, &h);
		m = add_text(L, MARGIN + h / 2, p->y + p->h / 2, t, AXIS_TITLE_SIZE, 1, 1, INK);
		m->angle = -M_PI / 2;
		free(t);
	}
	emit_title(L);
	legend_place(L, f, p->x + p->w + 16, p->y);
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
	free_labels(sp->xlab, sp->nx);
	free_labels(sp->ylab, sp->ny);
	free(sp->xshow);
}

/* ---- bars ---- */

static void layout_bars(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	size_t i, g, s;
	double bw, gw, sw;

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
		legend_series(&f, c, s, LEG_SWATCH);
	if (c->errbar != CHART_ERR_NONE)
		legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
	spec_cats_x(&sp, c);
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = axis_title(c->y_label, c->y_unit, NULL);
	/* at least 3 units a bar; 9 when the bars carry their series' marker */
	sp.min_band_w = (double)c->nseries * (many_series(c) ? 9 : 3) / 0.8;
	frame_layout(L, gc, &f, &sp);
	frame_back(L);

	bw = band_width(&L->x);
	gw = bw * 0.8;
	sw = gw / (c->nseries ? c->nseries : 1);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			const struct chart_value *v = find_value(c, (int)s, (int)g);
			double x, yb, yv, gap;
			struct chart_mark *m;

			if (!v || !isfinite(v->y))
				continue;
			x = L->x.p0 + g * bw + (bw - gw) / 2 + s * sw;
			gap = sw * 0.12 < 3 ? sw * 0.12 : 3;
			yb = baseline_pos(L);
			yv = y_clamped(L, v->y);
			m = add_rect(L, x + gap / 2, yv < yb ? yv : yb, sw - gap, fabs(yb - yv),
				     series_color(c, (int)s), CHART_NOCOLOR, 0);
			mark_key(m, "bar.%zu.%zu", g, s);
			m->info = xprintf("group=%s series=%s value=%g", c->cats[g], c->series[s], v->y);
			if (many_series(c) && sw - gap >= 6) {
				/* the series' shape on its bar: more series than colours */
				double r = fmin(4, (sw - gap) / 2 - 0.5);

				add_marker(L, x + sw / 2, (yv < yb ? yv : yb) + fmin(r + 2, fabs(yb - yv) / 2),
					   r, series_shape(c, (int)s), 0xFFFFFF, INK);
			}
			if (c->errbar != CHART_ERR_NONE && isfinite(v->lo) && isfinite(v->hi)) {
				double cap = (sw - gap) * 0.5 < 12 ? (sw - gap) * 0.5 : 12;

				m = add_whisker(L, x + sw / 2, y_clamped(L, v->hi), y_clamped(L, v->lo),
						cap, INK, 1.2);
				mark_key(m, "whisker.%zu.%zu", g, s);
				m->info = xprintf("lo=%g hi=%g", v->lo, v->hi);
			}
		}
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
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

static void layout_nodeload(struct chart_layout *L, struct chart_gc *gc)
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
		legend_add(&f, LEG_SWATCH, label, chart_style_color(n), 0);
	}
	spec_cats_x(&sp, c);
	sp.yk = CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = axis_title(c->y_label, c->y_unit, "jobs");
	/* Series names go under their bars, turned upright when they are wide. */
	name_w = max_label_width(gc, (const char *const *)c->series, c->nseries, SMALL_SIZE, &name_h);
	if (name_w > 160)
		name_w = 160;
	sp.under_h = name_h + 4;
	/* room for every series' name turned upright under its bar */
	sp.min_band_w = (double)c->nseries * (name_h + 2) / 0.8;
	frame_layout(L, gc, &f, &sp);
	bw = band_width(&L->x);
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
		frame_layout(L, gc, &f, &sp);
	}
	frame_back(L);

	bw = band_width(&L->x);
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
				m = add_rect(L, x + gap / 2, y1, sw - gap, y0 - y1, chart_style_color(n),
					     0xFFFFFF, 0.75);
				mark_key(m, "stack.%zu.%zu.%d", g, s, n);
				m->info = xprintf("group=%s series=%s node=%d jobs=%g", c->cats[g],
						  c->series[s], n, jobs);
			}
			total = acc;
			{
				int up = sp.under_h > name_h + 4;
				char *t = fit_text(gc, c->series[s], SMALL_SIZE, 0,
						   up ? sp.under_h - 6 : sw);

				m = add_text(L, x + sw / 2, L->y.p0 + TICK_LEN + 2, t, SMALL_SIZE, 1, 0, INK);
				free(t);
			}
			if (sp.under_h > name_h + 4) {
				m->angle = -M_PI / 2;
				m->halign = 2;
				m->valign = 1;
			}
			mark_key(m, "barlabel.%zu.%zu", g, s);
			m->info = xprintf("series=%s total=%g", c->series[s], total);
		}
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
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

static void layout_points(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	struct frame_spec sp = { 0 };
	struct range r = { 0 };
	size_t i, g, s;
	double bw, gw, sw;

	for (i = 0; i < c->nvals; i++) {
		range_add_pos(&r, c->vals[i].y, c->log_y);
		range_add_pos(&r, c->vals[i].lo, c->log_y);
		range_add_pos(&r, c->vals[i].hi, c->log_y);
	}
	y_range_finish(c, &r, 0);
	for (s = 0; s < c->nseries; s++)
		legend_series(&f, c, s, LEG_MARKER);
	legend_add(&f, LEG_MEAN, "mean", INK, 0);
	spec_cats_x(&sp, c);
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.xtitle = axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = axis_title(c->y_label, c->y_unit, NULL);
	frame_layout(L, gc, &f, &sp);
	frame_back(L);

	bw = band_width(&L->x);
	gw = bw * 0.8;
	sw = gw / (c->nseries ? c->nseries : 1);
	for (g = 0; g < c->ncats; g++)
		for (s = 0; s < c->nseries; s++) {
			double cx = L->x.p0 + g * bw + (bw - gw) / 2 + (s + 0.5) * sw;
			double sum = 0, mean;
			size_t n = 0;
			const struct chart_value *mv = find_value(c, (int)s, (int)g);
			struct chart_mark *m;

			for (i = 0; i < c->nvals; i++) {
				const struct chart_value *v = &c->vals[i];
				double y;

				if (!v->sample || v->series != (int)s || v->cat != (int)g || !isfinite(v->y))
					continue;
				if (L->y.kind == CHART_AXIS_LOG && !(v->y > 0))
					continue;
				y = chart_axis_pos(&L->y, v->y);
				m = add_marker(L, cx + jitter(s, g, n) * sw * 0.6, y, 3,
					       series_shape(c, (int)s), series_color(c, (int)s), 0xFFFFFF);
				m->lw = 0.6;
				mark_key(m, "point.%zu.%zu.%zu", g, s, n);
				m->info = xprintf("group=%s series=%s value=%g", c->cats[g],
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
				add_whisker(L, cx, y_clamped(L, mv->hi), y_clamped(L, mv->lo),
					    sw * 0.25, INK, 1);
			m = add_line(L, cx - sw * 0.35, y_clamped(L, mean), cx + sw * 0.35,
				     y_clamped(L, mean), INK, 2.5);
			mark_key(m, "mean.%zu.%zu", g, s);
			m->info = xprintf("group=%s series=%s value=%g n=%zu", c->cats[g],
					  c->series[s], mean, n);
		}
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
	spec_release(&sp);
}

/* ---- lines and history: connected points per series ---- */

static const struct chart *sort_chart;

static int cmp_value_x(const void *a, const void *b)
{
	const struct chart_value *va = &sort_chart->vals[*(const size_t *)a];
	const struct chart_value *vb = &sort_chart->vals[*(const size_t *)b];
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
	sort_chart = c;
	qsort(idx, *n, sizeof(*idx), cmp_value_x);
	sort_chart = NULL;
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
				x = by_cat ? band_pos(&L->x, v->cat) : chart_axis_pos(&L->x, v->x);
				y = chart_axis_pos(&L->y, v->y);
				if (pass == 0 && have_prev) {
					m = add_line(L, px, py, x, y, series_color(c, (int)s), 2);
					m->dash = series_dash(c, (int)s);
					mark_key(m, "seg.%zu.%zu", s, i - 1);
				} else if (pass == 1 && c->errbar != CHART_ERR_NONE &&
					   isfinite(v->lo) && isfinite(v->hi)) {
					m = add_whisker(L, x, y_clamped(L, v->hi), y_clamped(L, v->lo), 8,
							series_color(c, (int)s), 1.2);
					mark_key(m, "err.%zu.%zu", s, i);
					m->info = xprintf("lo=%g hi=%g", v->lo, v->hi);
				} else if (pass == 2) {
					m = add_marker(L, x, y, by_cat ? fmax(1.5, fmin(4, band_width(&L->x) * 0.45)) : 4,
						       series_shape(c, (int)s),
						       series_color(c, (int)s), 0xFFFFFF);
					mark_key(m, "point.%zu.%zu", s, i);
					if (by_cat)
						m->info = xprintf("series=%s x=%s y=%g", c->series[s],
								  c->cats[v->cat], v->y);
					else
						m->info = xprintf("series=%s x=%g y=%g", c->series[s],
								  v->x, v->y);
				}
				px = x;
				py = y;
				have_prev = 1;
			}
			free(idx);
		}
}

static void layout_lines(struct chart_layout *L, struct chart_gc *gc)
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
		legend_series(&f, c, s, LEG_LINE);
	if (c->errbar != CHART_ERR_NONE)
		legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
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
	sp.xtitle = axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = axis_title(c->y_label, c->y_unit, NULL);
	frame_layout(L, gc, &f, &sp);
	frame_back(L);
	polyline_marks(L, 0);
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
	spec_release(&sp);
}

static void layout_history(struct chart_layout *L, struct chart_gc *gc)
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
		legend_series(&f, c, s, LEG_LINE);
	if (c->errbar != CHART_ERR_NONE)
		legend_add(&f, LEG_WHISKER, errbar_label(c->errbar), INK, 0);
	for (i = 0; i < c->nmarks; i++)
		used |= 1u << c->marks[i].verdict;
	for (i = 0; i < ARRAY_SIZE(verdict_colors); i++)
		if (used & (1u << i)) {
			char label[64];

			snprintf(label, sizeof(label), "change: %s", chart_verdict_name((enum chart_verdict)i));
			legend_add(&f, LEG_DASH, label, verdict_color((enum chart_verdict)i), 0);
		}
	chart_text_size(gc, "Ag", SMALL_SIZE, 0, &w, &row_h);
	spec_cats_x(&sp, c);
	sp.marks_of = c;
	sp.yk = c->log_y ? CHART_AXIS_LOG : CHART_AXIS_LINEAR;
	sp.ylo = r.lo;
	sp.yhi = r.hi;
	sp.y_extend = 1;
	sp.strip_h = c->nmarks ? (c->nmarks > 1 ? 2 : 1) * row_h + 6 : 0;
	sp.xtitle = axis_title(c->x_label, c->x_unit, NULL);
	sp.ytitle = axis_title(c->y_label, c->y_unit, NULL);
	frame_layout(L, gc, &f, &sp);
	frame_back(L);

	/* Change points: a dashed line in the plot, the label in the strip. */
	row_right[0] = row_right[1] = -1e9;
	for (i = 0; i < c->nmarks; i++) {
		const struct chart_mark_def *d = &c->marks[i];
		double x, tx, ty;
		struct chart_mark *m;
		int row;

		if (d->cat < 0 || (size_t)d->cat >= c->ncats)
			continue;
		x = band_pos(&L->x, d->cat);
		m = add_line(L, x, L->plot.y - 2, x, L->plot.y + L->plot.h,
			     verdict_color(d->verdict), 1.5);
		m->dash = 1;
		mark_key(m, "change.%zu", i);
		m->info = xprintf("at=%s verdict=%s text=%s", c->cats[d->cat],
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
		m = add_text(L, tx, ty, d->text, SMALL_SIZE, 0, 2, verdict_color(d->verdict));
		m->bold = 1;
	}
	polyline_marks(L, 1);
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
	spec_release(&sp);
}

/* ---- change: forest plot ---- */

static const struct chart *rank_chart;

static int cmp_abs_change(const void *a, const void *b)
{
	double x = fabs(rank_chart->vals[*(const size_t *)a].y);
	double y = fabs(rank_chart->vals[*(const size_t *)b].y);

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
		rank_chart = c;
		qsort(idx, n, sizeof(*idx), cmp_abs_change);
		rank_chart = NULL;
		free(L->note);
		L->note = xprintf("top %zu of %zu rows by |change|; see the table for the rest", fit, n);
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

static void layout_change(struct chart_layout *L, struct chart_gc *gc)
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
			legend_add(&f, LEG_MARKER, chart_verdict_name((enum chart_verdict)i),
				   verdict_color((enum chart_verdict)i), CHART_SHAPE_DIAMOND);
	legend_add(&f, LEG_WHISKER, "95% interval", INK, 0);
	if (isfinite(t)) {
		snprintf(label, sizeof(label), "\u00b1%g%% threshold", fabs(t));
		legend_add(&f, LEG_SWATCH, label, 0xD5D5D5, 0);
	}
	sp.xk = CHART_AXIS_LINEAR;
	sp.xlo = r.lo;
	sp.xhi = r.hi;
	sp.x_extend = 1;
	sp.yk = CHART_AXIS_BAND;
	sp.ycats = cats;
	sp.ny = nrows;
	sp.min_plot_h = row_h * (double)nrows;
	sp.xtitle = axis_title(c->x_label, c->x_unit, "change (%)");
	sp.ytitle = axis_title(c->y_label, c->y_unit, NULL);
	frame_layout(L, gc, &f, &sp);
	/* Rows: light separators instead of a y grid. */
	if (isfinite(t)) {
		double x0 = chart_axis_pos(&L->x, -fabs(t)), x1 = chart_axis_pos(&L->x, fabs(t));
		struct chart_mark *m = add_rect(L, x0, L->plot.y, x1 - x0, L->plot.h, BAND_FILL,
						CHART_NOCOLOR, 0);

		mark_key(m, "band");
		m->info = xprintf("threshold=%g", fabs(t));
	}
	frame_back(L);
	{
		double x0 = chart_axis_pos(&L->x, 0);
		struct chart_mark *m = add_line(L, x0, L->plot.y, x0, L->plot.y + L->plot.h, INK, 1.2);

		mark_key(m, "zero");
	}
	for (i = 0; i < c->nvals; i++) {
		const struct chart_value *v = &c->vals[i];
		double y, rh = band_width(&L->y);
		unsigned col = verdict_color(v->verdict);
		struct chart_mark *m;

		if (v->cat < 0 || !isfinite(v->y) || row_of[v->cat] < 0)
			continue;
		y = band_pos(&L->y, row_of[v->cat]);
		if (isfinite(v->lo) && isfinite(v->hi)) {
			double x0 = chart_axis_pos(&L->x, v->lo), x1 = chart_axis_pos(&L->x, v->hi);
			double cap = rh * 0.35 < 10 ? rh * 0.35 : 10;

			add_line(L, x0, y - cap / 2, x0, y + cap / 2, col, 2);
			add_line(L, x1, y - cap / 2, x1, y + cap / 2, col, 2);
			m = add_line(L, x0, y, x1, y, col, 2.5);
			mark_key(m, "ci.%d", v->cat);
			m->info = xprintf("lo=%g hi=%g", v->lo, v->hi);
		}
		m = add_marker(L, chart_axis_pos(&L->x, v->y), y, rh * 0.25 < 6 ? rh * 0.25 : 6,
			       CHART_SHAPE_DIAMOND, col, INK);
		mark_key(m, "row.%d", v->cat);
		m->info = xprintf("label=%s delta=%g lo=%g hi=%g verdict=%s", c->cats[v->cat],
				  v->y, v->lo, v->hi, chart_verdict_name(v->verdict));
	}
	frame_front(L, gc, &f, &sp);
	legend_free(&f);
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

static void layout_placement(struct chart_layout *L, struct chart_gc *gc)
{
	const struct chart *c = L->c;
	struct frame f = { 0 };
	double top, right, area_w, pw, ph, w, h, text_h, title_h, lw = 0, cw, rh;
	size_t p, ncols, nrows, j, maxjobs = 0, shown, step;
	int n, maxnodes = 1;
	static const double ramp[] = { 100, 75, 50, 25, 0 };
	char label[64];
	const char *xt = c->x_label && *c->x_label ? c->x_label : "node";
	const char *yt = c->y_label && *c->y_label ? c->y_label : "job";
	unsigned char *show;

	for (j = 0; j < ARRAY_SIZE(ramp); j++) {
		snprintf(label, sizeof(label), "%g%% of time", ramp[j]);
		legend_add(&f, LEG_SWATCH, label, heat_color(ramp[j]), 0);
	}
	legend_add(&f, LEG_OUTLINE, "initial node", 0xD55E00, 0);
	legend_add(&f, LEG_MARKER, "main node \u2260 initial", 0xD55E00, CHART_SHAPE_DIAMOND);
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
	ph = title_h + 4 + text_h + 4 + rh + 4 + text_h + 14;

	legend_measure(gc, &f);
	for (;;) {
		set_title_box(L, gc, &top);
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
		free(L->note);
		L->note = xprintf("first %zu of %zu runs; narrow the selection (--variants, --config) "
				  "for the rest", shown, c->npanels);
		set_title_box(L, gc, &top);
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
		gy = py + title_h + 4 + text_h + 4;
		title = fit_text(gc, P->title, AXIS_TITLE_SIZE, 1, pw - 10);
		chart_text_size(gc, title, AXIS_TITLE_SIZE, 1, &w, &h);
		{
			/* centred over the grid, inside the panel */
			double tx = gx + gw / 2;

			if (tx - w / 2 < px + 4)
				tx = px + 4 + w / 2;
			if (tx + w / 2 > px + pw - 4)
				tx = px + pw - 4 - w / 2;
			m = add_text(L, tx, py, title, AXIS_TITLE_SIZE, 1, 0, INK);
		}
		free(title);
		m->bold = 1;
		mark_key(m, "panel.%zu", p);
		m->info = xprintf("title=%s nodes=%d jobs=%zu", P->title, P->nnodes, P->njobs);
		add_text(L, gx - 6, gy - 2, yt, TICK_SIZE, 2, 2, 0x666666);
		for (n = 0; n < P->nnodes; n++) {
			snprintf(label, sizeof(label), "%d", n);
			add_text(L, gx + (n + 0.5) * cw, gy - 2, label, TICK_SIZE, 1, 2, INK);
		}
		add_text(L, gx + gw / 2, gy + gh + 4, xt, TICK_SIZE, 1, 0, 0x666666);
		thin_labels(show, P->njobs, step);
		for (j = 0; j < P->njobs; j++) {
			const struct chart_job *J = &P->jobs[j];
			double ry = gy + j * rh;
			int flagged = J->initial >= 0 && J->main >= 0 && J->initial != J->main;

			if (show[j])
				add_text(L, gx - 6, ry + rh / 2, J->label, TICK_SIZE, 2, 1, INK);
			for (n = 0; n < P->nnodes; n++) {
				double v = J->pct[n];
				unsigned col = heat_color(v);

				m = add_rect(L, gx + n * cw, ry, cw, rh, col, 0xFFFFFF, 1);
				mark_key(m, "cell.%zu.%zu.%d", p, j, n);
				m->info = xprintf("panel=%s job=%s node=%d pct=%g", P->title, J->label, n, v);
				if (isfinite(v) && v >= 0.5 && cw >= 24 && rh >= 12) {
					snprintf(label, sizeof(label), "%.0f", v);
					add_text(L, gx + (n + 0.5) * cw, ry + rh / 2, label, 8.5, 1, 1,
						 v > 55 ? 0xFFFFFF : INK);
				}
			}
			if (J->initial >= 0 && J->initial < P->nnodes) {
				m = add_rect(L, gx + J->initial * cw + 1.5, ry + 1.5, cw - 3, rh - 3,
					     CHART_NOCOLOR, 0xD55E00, rh < 12 ? 1.5 : 2);
				mark_key(m, "init.%zu.%zu", p, j);
				m->info = xprintf("node=%d", J->initial);
			}
			if (flagged)
				m = add_marker(L, gx + gw + 8, ry + rh / 2, rh < 12 ? 3.5 : 4.5,
					       CHART_SHAPE_DIAMOND, 0xD55E00, CHART_NOCOLOR);
			else
				m = add_marker(L, gx + gw + 8, ry + rh / 2, 0, CHART_SHAPE_DIAMOND,
					       CHART_NOCOLOR, CHART_NOCOLOR);
			mark_key(m, "row.%zu.%zu", p, j);
			m->info = xprintf("job=%s initial=%d main=%d flagged=%d", J->label,
					  J->initial, J->main, flagged);
		}
	}
	free(show);
	emit_title(L);
	legend_place(L, &f, right + 16, top);
	legend_free(&f);
}

/* ---- entry point ---- */

int chart_layout_compute(const struct chart *c, struct chart_gc *gc,
			 struct chart_layout *lay, struct kb_err *err)
{
	memset(lay, 0, sizeof(*lay));
	lay->c = c;
	lay->width = fmin(c->width, CHART_MAX_SIDE);
	lay->height = fmin(c->height, CHART_MAX_SIDE);
	if (!(c->width >= 100 && c->height >= 80))
		return kb_err_set(err, NULL, 0, "chart: canvas %gx%g is too small", c->width, c->height);
	if (c->type == CHART_PLACEMENT ? c->npanels == 0 : (c->nvals == 0))
		return kb_err_set(err, NULL, 0, "chart: no data to draw");
	switch (c->type) {
	case CHART_BARS:
		layout_bars(lay, gc);
		break;
	case CHART_LINES:
		layout_lines(lay, gc);
		break;
	case CHART_POINTS:
		layout_points(lay, gc);
		break;
	case CHART_PLACEMENT:
		layout_placement(lay, gc);
		break;
	case CHART_NODELOAD:
		layout_nodeload(lay, gc);
		break;
	case CHART_CHANGE:
		layout_change(lay, gc);
		break;
	case CHART_HISTORY:
		layout_history(lay, gc);
		break;
	default:
		return kb_err_set(err, NULL, 0, "chart: unknown type %d", (int)c->type);
	}
	lay->width = ceil(lay->width - 1e-6);
	lay->height = ceil(lay->height - 1e-6);
	return 0;
}

void chart_layout_release(struct chart_layout *lay)
{
	size_t i;

	for (i = 0; i < lay->nmarks; i++) {
		free(lay->marks[i].info);
		free(lay->marks[i].text);
	}
	free(lay->marks);
	for (i = 0; i < lay->nlentries; i++)
		free(lay->lentries[i].label);
	free(lay->lentries);
	free(lay->x.ticks);
	free(lay->y.ticks);
	free(lay->title_text);
	free(lay->note);
	memset(lay, 0, sizeof(*lay));
}
