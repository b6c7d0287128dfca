/*
 * chart_frame.c - from a chart model to a list of marks: the frame kit.
 *
 * Stages: data ranges -> scales -> ticks (nice steps 1, 2, 2.5, 5 x 10^k)
 * -> boxes (title, legend at the right of the plot, axis labels, plot)
 * -> data marks per chart type (chart_kinds.c, picked by chart_layout.c)
 * -> decoration and legend marks.  All sizes are logical units; text is
 * measured through the gc so boxes fit it.
 */
#include "chart_frame.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TITLE_SIZE 15.0
#define LEGEND_SIZE 11.0
#define LEGEND_SWATCH 22.0

#define AXIS_INK 0x444444u
#define GRID 0xE3E3E3u

/*
 * Series look: Okabe-Ito colours (safe for the common colour-vision
 * deficiencies), ordered so the first are the most distinct, combined
 * with a marker shape and, past the eighth series, a dash pattern, so
 * that no two of the first 40 series look alike even without colour.
 */
static const unsigned series_colors[] = {
	0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0xF0E442, 0x000000,
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

unsigned lay_series_color(const struct chart *c, int s)
{
	return chart_style_color(style_of(c, s));
}

int lay_series_shape(const struct chart *c, int s)
{
	return style_of(c, s) % CHART_SHAPE_COUNT;
}

/* 0 solid for the first eight styles, then dashed, dotted, dash-dot. */
int lay_series_dash(const struct chart *c, int s)
{
	return (style_of(c, s) / (int)ARRAY_SIZE(series_colors)) % 4;
}

/* Do the series need their shapes to stay apart (more than the colours)? */
int lay_many_series(const struct chart *c)
{
	size_t s;

	for (s = 0; s < c->nseries; s++)
		if (style_of(c, (int)s) >= (int)ARRAY_SIZE(series_colors))
			return 1;
	return 0;
}

/*
 * text shortened with a trailing ellipsis until it is at most maxw wide
 * at size; the whole text when it fits.  Caller frees.
 */
char *lay_fit_text(struct chart_gc *gc, const char *text, double size, int bold, double maxw)
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
		char *t = buf_aprintf("%.*s\u2026", (int)(end - text), text);

		chart_text_size(gc, t, size, bold, &w, &h);
		free(t);
		if (w <= maxw)
			lo = mid;
		else
			hi = mid - 1;
	}
	out = buf_aprintf("%.*s\u2026", (int)(g_utf8_offset_to_pointer(text, lo) - text), text);
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

void lay_mark_key(struct chart_mark *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->key, sizeof(m->key), fmt, ap);
	va_end(ap);
}

struct chart_mark *lay_add_rect(struct chart_layout *L, double x, double y, double w,
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

struct chart_mark *lay_add_line(struct chart_layout *L, double x, double y, double x2,
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

struct chart_mark *lay_add_marker(struct chart_layout *L, double x, double y, double r,
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

struct chart_mark *lay_add_text(struct chart_layout *L, double x, double y, const char *text,
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
struct chart_mark *lay_add_whisker(struct chart_layout *L, double x, double y1, double y2,
				   double cap, unsigned color, double lw)
{
	struct chart_mark *m;

	lay_add_line(L, x - cap / 2, y1, x + cap / 2, y1, color, lw);
	lay_add_line(L, x - cap / 2, y2, x + cap / 2, y2, color, lw);
	m = lay_add_line(L, x, y1, x, y2, color, lw);
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

struct legend_item *lay_legend_add(struct frame *f, enum legend_kind kind, const char *label,
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
void lay_legend_series(struct frame *f, const struct chart *c, size_t s, enum legend_kind kind)
{
	struct legend_item *it = lay_legend_add(f, kind, c->series[s], lay_series_color(c, (int)s),
						lay_series_shape(c, (int)s));

	it->dash = lay_series_dash(c, (int)s);
	it->mark = kind == LEG_SWATCH && lay_many_series(c);
}

void lay_legend_free(struct frame *f)
{
	size_t i;

	for (i = 0; i < f->nitems; i++)
		free(f->items[i].label);
	free(f->items);
}

#define LEGEND_MAX_LABEL 210.0

/* Width the legend needs (0 when empty); labels too long are shortened. */
double lay_legend_measure(struct chart_gc *gc, struct frame *f)
{
	double w, h, max = 0;
	size_t i;

	for (i = 0; i < f->nitems; i++) {
		char *t = lay_fit_text(gc, f->items[i].label, LEGEND_SIZE, 0, LEGEND_MAX_LABEL);

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
void lay_legend_place(struct chart_layout *L, struct frame *f, double x, double y)
{
	size_t i;

	if (!f->nitems)
		return;
	L->has_legend = 1;
	L->legend.x = x;
	L->legend.y = y;
	L->legend.w = f->legend_w;
	L->legend.h = f->nitems * LEGEND_ROW + 8;
	lay_add_rect(L, x, y, L->legend.w, L->legend.h, 0xFFFFFF, 0xCCCCCC, 1);
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
			lay_add_rect(L, sx + 3, cy - 6, sw - 6, 12, it->color, CHART_NOCOLOR, 0);
			if (it->mark)
				lay_add_marker(L, sx + sw / 2, cy, 3.5, it->shape, 0xFFFFFF, INK);
			break;
		case LEG_LINE:
			m = lay_add_line(L, sx, cy, sx + sw, cy, it->color, 2);
			m->dash = it->dash;
			lay_add_marker(L, sx + sw / 2, cy, 3.5, it->shape, it->color, 0xFFFFFF);
			break;
		case LEG_MARKER:
			lay_add_marker(L, sx + sw / 2, cy, 4, it->shape, it->color, 0xFFFFFF);
			break;
		case LEG_WHISKER:
			lay_add_whisker(L, sx + sw / 2, cy - 7, cy + 7, 8, it->color, 1.2);
			break;
		case LEG_OUTLINE:
			lay_add_rect(L, sx + 3, cy - 7, sw - 6, 14, 0xF7FBFF, it->color, 2);
			break;
		case LEG_SYMBOL:
			m = lay_add_text(L, sx + sw / 2, cy, "*", 14, 1, 1, it->color);
			m->bold = 1;
			break;
		case LEG_MEAN:
			lay_add_line(L, sx + 3, cy, sx + sw - 3, cy, it->color, 2.5);
			break;
		case LEG_DASH:
			m = lay_add_line(L, sx + sw / 2, cy - 7, sx + sw / 2, cy + 7, it->color, 1.5);
			m->dash = 1;
			break;
		}
		lay_add_text(L, sx + sw + 6, cy, it->label, LEGEND_SIZE, 0, 1, INK);
	}
}

/* ---- the frame shared by the x/y chart types ---- */

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

void lay_free_labels(char **v, size_t n)
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
		out[i] = lay_fit_text(gc, v[i], size, 0, maxw);
		chart_text_size(gc, out[i], size, 0, &w, &h);
		if (w > *mw)
			*mw = w;
	}
	return out;
}

/* Show every step-th of n labels, always the first and the last (the
 * one before the last gives way when they would touch). */
void lay_thin_labels(unsigned char *show, size_t n, size_t step)
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

char *lay_axis_title(const char *label, const char *unit, const char *fallback)
{
	if (!label || !*label)
		label = fallback;
	if (!label)
		return NULL;
	if (unit && *unit)
		return buf_aprintf("%s (%s)", label, unit);
	return xstrdup(label);
}

/*
 * The title box at the top: the title in bold at 15, smaller (down to
 * 11) when it is wider than the canvas, then shortened with an ellipsis;
 * then the note, if any, in a line of its own.  *top is the first free y.
 */
void lay_set_title_box(struct chart_layout *L, struct chart_gc *gc, double *top)
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
		L->title_text = lay_fit_text(gc, c->title, size, 1, maxw);
		L->title_size = size;
		chart_text_size(gc, L->title_text, size, 1, &w, &h);
		L->title.x = (L->width - w) / 2;
		L->title.y = *top;
		L->title.w = w;
		L->title.h = h;
		*top += h + 10;
	}
	if (L->note) {
		char *t = lay_fit_text(gc, L->note, SMALL_SIZE + 1, 0, maxw);

		free(L->note);
		L->note = t;
		chart_text_size(gc, L->note, SMALL_SIZE + 1, 0, &w, &h);
		L->note_y = *top - 4;
		*top += h + 6;
	}
}

void lay_emit_title(struct chart_layout *L)
{
	struct chart_mark *m;

	if (L->title_text) {
		m = lay_add_text(L, L->width / 2, L->title.y, L->title_text, L->title_size, 1, 0, INK);
		m->bold = 1;
	}
	if (L->note)
		lay_add_text(L, L->width / 2, L->note_y, L->note, SMALL_SIZE + 1, 1, 0, 0x8A3B00);
}

double lay_max_label_width(struct chart_gc *gc, const char *const *labels, size_t n,
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

void lay_frame_layout(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
		      struct frame_spec *sp)
{
	double top, right, bottom, left, w, th, lh, xlab_h, ylab_w, text_h, legend_h;
	int tries;

	for (tries = 0;; tries++) {
		axis_reset(&L->x);
		axis_reset(&L->y);
		lay_free_labels(sp->xlab, sp->nx);
		lay_free_labels(sp->ylab, sp->ny);
		free(sp->xshow);
		sp->xlab = sp->ylab = NULL;
		sp->xshow = NULL;
		th = 0;
		lay_set_title_box(L, gc, &top);
		lay_legend_measure(gc, f);
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

				lay_free_labels(sp->xlab, sp->nx);
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
			lay_thin_labels(sp->xshow, sp->nx, step);
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
double lay_band_pos(const struct chart_axis *a, double i)
{
	return chart_axis_pos(a, i + 0.5);
}

double lay_band_width(const struct chart_axis *a)
{
	return fabs(a->p1 - a->p0) / (a->max > 0 ? a->max : 1);
}

/* Grid lines behind the data. */
void lay_frame_back(struct chart_layout *L)
{
	const struct chart_box *p = &L->plot;
	size_t i;

	for (i = 0; i < L->y.nticks; i++)
		lay_add_line(L, p->x, L->y.ticks[i].pos, p->x + p->w, L->y.ticks[i].pos, GRID, 1);
	for (i = 0; i < L->x.nticks; i++)
		lay_add_line(L, L->x.ticks[i].pos, p->y, L->x.ticks[i].pos, p->y + p->h, GRID, 1);
}

/* Axes, tick labels, axis titles, title and legend over the data. */
void lay_frame_front(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
		     struct frame_spec *sp)
{
	const struct chart_box *p = &L->plot;
	double bottom = p->y + p->h, w, h, lab_bottom = bottom + TICK_LEN + 3;
	struct chart_mark *m;
	size_t i;

	lay_add_line(L, p->x, bottom, p->x + p->w, bottom, AXIS_INK, 1);
	lay_add_line(L, p->x, p->y, p->x, bottom, AXIS_INK, 1);
	for (i = 0; i < L->y.nticks; i++) {
		double y = L->y.ticks[i].pos;

		lay_add_line(L, p->x - TICK_LEN, y, p->x, y, AXIS_INK, 1);
		lay_add_text(L, p->x - TICK_LEN - 3, y, L->y.ticks[i].label, TICK_SIZE, 2, 1, INK);
	}
	for (i = 0; i < L->x.nticks; i++) {
		double x = L->x.ticks[i].pos;

		lay_add_line(L, x, bottom, x, bottom + TICK_LEN, AXIS_INK, 1);
		lay_add_text(L, x, bottom + TICK_LEN + 2, L->x.ticks[i].label, TICK_SIZE, 1, 0, INK);
	}
	for (i = 0; i < sp->ny; i++) {
		double y = lay_band_pos(&L->y, (double)i);

		lay_add_line(L, p->x - TICK_LEN, y, p->x, y, AXIS_INK, 1);
		m = lay_add_text(L, p->x - TICK_LEN - 3, y, sp->ylab ? sp->ylab[i] : sp->ycats[i],
				 TICK_SIZE, 2, 1, INK);
		lay_mark_key(m, "ycat.%zu", i);
		m->info = buf_aprintf("label=%s", sp->ycats[i]);
	}
	for (i = 0; i < sp->nx; i++) {
		double x = lay_band_pos(&L->x, (double)i);

		if (sp->xshow && !sp->xshow[i])
			continue;
		if (sp->under_h <= 0)
			lay_add_line(L, x, bottom, x, bottom + TICK_LEN, AXIS_INK, 1);
		m = lay_add_text(L, x, bottom + TICK_LEN + 2 + sp->under_h,
				 sp->xlab ? sp->xlab[i] : sp->xcats[i], TICK_SIZE, 1, 0, INK);
		if (sp->xcat_rot) {
			m->angle = -M_PI / 4;
			m->halign = 2;
			m->x += 4;
		}
		lay_mark_key(m, "xcat.%zu", i);
		m->info = buf_aprintf("label=%s", sp->xcats[i]);
	}
	if (sp->xtitle) {
		char *t = lay_fit_text(gc, sp->xtitle, AXIS_TITLE_SIZE, 0, p->w);
		double cx = p->x + p->w / 2;

		chart_text_size(gc, t, AXIS_TITLE_SIZE, 0, &w, &h);
		/* centred under the plot, but never past the canvas edges */
		if (cx + w / 2 > L->width - MARGIN)
			cx = L->width - MARGIN - w / 2;
		lay_add_text(L, cx, L->height - MARGIN, t, AXIS_TITLE_SIZE, 1, 2, INK);
		free(t);
	}
	(void)lab_bottom;
	if (sp->ytitle) {
		char *t = lay_fit_text(gc, sp->ytitle, AXIS_TITLE_SIZE, 0, p->h);

		chart_text_size(gc, t, AXIS_TITLE_SIZE, 0, &w, &h);
		m = lay_add_text(L, MARGIN + h / 2, p->y + p->h / 2, t, AXIS_TITLE_SIZE, 1, 1, INK);
		m->angle = -M_PI / 2;
		free(t);
	}
	lay_emit_title(L);
	lay_legend_place(L, f, p->x + p->w + 16, p->y);
}

/* ---- notes and keys ---- */

void lay_note_add(struct chart_layout *L, const char *text)
{
	char *old = L->note;

	L->note = old ? buf_aprintf("%s; %s", old, text) : xstrdup(text);
	free(old);
}

char *lay_value_keys(const struct chart *c, size_t s, size_t g)
{
	struct buf b = BUF_INIT;

	if (c->series_variant && s < c->nseries && c->series_variant[s])
		buf_printf(&b, " variant=%s machine=%s", c->series_variant[s],
			   c->series_machine[s] ? c->series_machine[s] : "-");
	if (c->cat_config && g < c->ncats && c->cat_config[g])
		buf_printf(&b, " config=%s", c->cat_config[g]);
	if (!b.len)
		buf_puts(&b, "");
	return buf_detach(&b);
}
