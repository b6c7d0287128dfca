/*
 * chart_paint.c - the thin cairo/pango layer: text measuring with fixed
 * font options (so the layout is the same on every surface), and painting
 * a list of marks.  Axis-parallel lines and rectangles are snapped to the
 * device pixel grid so charts stay crisp at scale 1 and 2.
 */
#include "chart_int.h"
#include "../core/hidx.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHART_FONT "DejaVu Sans"

int chart_gc_open(struct chart_gc *gc, cairo_t *cr)
{
	cairo_font_options_t *fo;

	gc->surface = NULL;
	if (!cr) {
		gc->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
		cr = cairo_create(gc->surface);
		gc->cr = cr;
	} else {
		gc->cr = cairo_reference(cr);
	}
	if (cairo_status(gc->cr) != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(gc->cr);
		if (gc->surface)
			cairo_surface_destroy(gc->surface);
		return -1;
	}
	gc->pc = pango_cairo_create_context(gc->cr);
	/* Unhinted metrics: text widths do not depend on the surface. */
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(gc->pc, fo);
	cairo_font_options_destroy(fo);
	gc->font = pango_font_description_from_string(CHART_FONT);
	return 0;
}

void chart_gc_close(struct chart_gc *gc)
{
	pango_font_description_free(gc->font);
	g_object_unref(gc->pc);
	cairo_destroy(gc->cr);
	if (gc->surface)
		cairo_surface_destroy(gc->surface);
}

static PangoLayout *text_layout(struct chart_gc *gc, const char *text, double size, int bold)
{
	PangoLayout *pl = pango_layout_new(gc->pc);

	pango_font_description_set_absolute_size(gc->font, size * PANGO_SCALE);
	pango_font_description_set_weight(gc->font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_layout_set_font_description(pl, gc->font);
	if (g_utf8_validate(text, -1, NULL)) {
		pango_layout_set_text(pl, text, -1);
	} else {
		/* Labels come from imported files: show bad bytes as U+FFFD. */
		gchar *ok = g_utf8_make_valid(text, -1);

		pango_layout_set_text(pl, ok, -1);
		g_free(ok);
	}
	return pl;
}

/*
 * Text extents, measured once per (text, size, weight, user-to-device
 * matrix, surface type): a report lays out thousands of charts with the same labels,
 * and fitting a label measures it several times.  The font and its
 * options are fixed (chart_gc_open), so nothing else changes a size.
 * Per thread; emptied when it holds TEXT_CACHE_MAX sizes.
 */
#define TEXT_CACHE_MAX 200000

struct text_key {
	const char *text;
	double size, m[4];
	int bold, surface;      /* surface: its cairo_surface_type_t */
};

struct text_size {
	char *text;
	double size, m[4];
	int bold, surface;
	double w, h;
	size_t hash;
};

static __thread struct text_cache {
	struct text_size *v;
	size_t n, cap;
	struct hidx ix;
} text_cache;

static size_t hash_double(size_t h, double d)
{
	unsigned char b[sizeof(d)];
	size_t i;

	memcpy(b, &d, sizeof(d));
	for (i = 0; i < sizeof(b); i++)
		h = (h ^ b[i]) * (size_t)1099511628211ULL;
	return h;
}

static int text_eq(const void *arr, size_t i, const void *key)
{
	const struct text_size *e = (const struct text_size *)arr + i;
	const struct text_key *k = key;

	return e->size == k->size && e->bold == k->bold && e->surface == k->surface &&
	       e->m[0] == k->m[0] &&
	       e->m[1] == k->m[1] && e->m[2] == k->m[2] && e->m[3] == k->m[3] &&
	       strcmp(e->text, k->text) == 0;
}

static size_t text_hash(const void *arr, size_t i)
{
	return ((const struct text_size *)arr)[i].hash;
}

static void text_cache_empty(struct text_cache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].text);
	free(c->v);
	hidx_release(&c->ix);
	memset(c, 0, sizeof(*c));
}

void chart_thread_done(void)
{
	text_cache_empty(&text_cache);
}

void chart_text_size(struct chart_gc *gc, const char *text, double size, int bold,
		     double *w, double *h)
{
	struct text_cache *c = &text_cache;
	struct text_key k;
	struct text_size *e;
	cairo_matrix_t mx;
	PangoLayout *pl;
	PangoRectangle ink, logical;
	size_t hash, i;

	cairo_get_matrix(gc->cr, &mx);
	k = (struct text_key){ text, size, { mx.xx, mx.yx, mx.xy, mx.yy }, bold,
			       (int)cairo_surface_get_type(cairo_get_target(gc->cr)) };
	hash = str_hash_add(STR_HASH_INIT, text);
	hash = hash_double(hash, size);
	for (i = 0; i < 4; i++)
		hash = hash_double(hash, k.m[i]);
	hash = (hash ^ (size_t)(bold != 0) ^ ((size_t)k.surface << 1)) * (size_t)1099511628211ULL;
	i = hidx_find(&c->ix, hash, c->v, &k, text_eq);
	if (i != (size_t)-1) {
		*w = c->v[i].w;
		*h = c->v[i].h;
		return;
	}
	pl = text_layout(gc, text, size, bold);
	pango_layout_get_extents(pl, &ink, &logical);
	*w = (double)logical.width / PANGO_SCALE;
	*h = (double)logical.height / PANGO_SCALE;
	g_object_unref(pl);
	if (c->n >= TEXT_CACHE_MAX)
		text_cache_empty(c);
	xgrow(&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	e = &c->v[c->n];
	*e = (struct text_size){ xstrdup(text), size, { k.m[0], k.m[1], k.m[2], k.m[3] }, bold,
				 k.surface, *w, *h, hash };
	hidx_add(&c->ix, hash, c->n, c->v, text_hash);
	c->n++;
}

void chart_text_box(struct chart_gc *gc, const struct chart_mark *m, struct chart_box *b,
		    double quad[8])
{
	double w, h, x0, y0, ca = cos(m->angle), sa = sin(m->angle), lo_x, hi_x, lo_y, hi_y;
	static const double cx[] = { 0, 1, 1, 0 }, cy[] = { 0, 0, 1, 1 };
	int i;

	chart_text_size(gc, m->text, m->size, m->bold, &w, &h);
	x0 = -w * m->halign / 2.0;
	y0 = -h * m->valign / 2.0;
	lo_x = lo_y = INFINITY;
	hi_x = hi_y = -INFINITY;
	for (i = 0; i < 4; i++) {
		double px = x0 + cx[i] * w, py = y0 + cy[i] * h;
		double rx = m->x + px * ca - py * sa, ry = m->y + px * sa + py * ca;

		quad[2 * i] = rx;
		quad[2 * i + 1] = ry;
		lo_x = fmin(lo_x, rx);
		hi_x = fmax(hi_x, rx);
		lo_y = fmin(lo_y, ry);
		hi_y = fmax(hi_y, ry);
	}
	b->x = lo_x;
	b->y = lo_y;
	b->w = hi_x - lo_x;
	b->h = hi_y - lo_y;
}

static void set_rgb(cairo_t *cr, unsigned rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 255) / 255.0,
			     ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0);
}

/* Snap a line coordinate so a line of width lw covers whole device pixels. */
static double snap_line(double v, double lw, double scale)
{
	double d = v * scale;
	long px = lround(lw * scale);

	if (px < 1)
		px = 1;
	if (px % 2)
		d = floor(d) + 0.5;
	else
		d = round(d);
	return d / scale;
}

static double snap_edge(double v, double scale)
{
	return round(v * scale) / scale;
}

static void paint_rect(cairo_t *cr, const struct chart_mark *m, double scale)
{
	double x0 = snap_edge(m->x, scale), y0 = snap_edge(m->y, scale);
	double x1 = snap_edge(m->x + m->w, scale), y1 = snap_edge(m->y + m->h, scale);

	if (m->fill != CHART_NOCOLOR) {
		cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
		set_rgb(cr, m->fill);
		cairo_fill(cr);
	}
	if (m->stroke != CHART_NOCOLOR && m->lw > 0) {
		double in = m->lw / 2;

		cairo_rectangle(cr, x0 + in, y0 + in, x1 - x0 - m->lw, y1 - y0 - m->lw);
		set_rgb(cr, m->stroke);
		cairo_set_line_width(cr, m->lw);
		cairo_stroke(cr);
	}
}

static void paint_line(cairo_t *cr, const struct chart_mark *m, double scale)
{
	double x = m->x, y = m->y, x2 = m->x2, y2 = m->y2;
	/* dash 1: dashed, 2: dotted, 3: dash-dot (series past the eighth) */
	static const double dashes[][4] = { { 4, 3 }, { 1.5, 2.5 }, { 6, 2, 1.5, 2 } };
	static const int ndash[] = { 2, 2, 4 };

	if (m->stroke == CHART_NOCOLOR)
		return;
	if (x == x2)
		x = x2 = snap_line(x, m->lw, scale);
	if (y == y2)
		y = y2 = snap_line(y, m->lw, scale);
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x2, y2);
	set_rgb(cr, m->stroke);
	cairo_set_line_width(cr, m->lw);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	if (m->dash >= 1 && m->dash <= 3)
		cairo_set_dash(cr, dashes[m->dash - 1], ndash[m->dash - 1], 0);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

static void marker_path(cairo_t *cr, int shape, double x, double y, double r)
{
	switch (shape) {
	case CHART_SHAPE_SQUARE:
		r *= 0.9;
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
		break;
	case CHART_SHAPE_TRIANGLE:
		r *= 1.2;
		cairo_move_to(cr, x, y - r);
		cairo_line_to(cr, x + r * 0.866, y + r * 0.5);
		cairo_line_to(cr, x - r * 0.866, y + r * 0.5);
		cairo_close_path(cr);
		break;
	case CHART_SHAPE_TRIANGLE_DOWN:
		r *= 1.2;
		cairo_move_to(cr, x, y + r);
		cairo_line_to(cr, x + r * 0.866, y - r * 0.5);
		cairo_line_to(cr, x - r * 0.866, y - r * 0.5);
		cairo_close_path(cr);
		break;
	case CHART_SHAPE_DIAMOND:
		r *= 1.25;
		cairo_move_to(cr, x, y - r);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	default:
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		break;
	}
}

static void paint_marker(cairo_t *cr, const struct chart_mark *m)
{
	marker_path(cr, m->shape, m->x, m->y, m->w);
	if (m->fill != CHART_NOCOLOR) {
		set_rgb(cr, m->fill);
		cairo_fill_preserve(cr);
	}
	if (m->stroke != CHART_NOCOLOR && m->lw > 0) {
		set_rgb(cr, m->stroke);
		cairo_set_line_width(cr, m->lw);
		cairo_stroke(cr);
	}
	cairo_new_path(cr);
}

static void paint_text(struct chart_gc *gc, const struct chart_mark *m)
{
	cairo_t *cr = gc->cr;
	PangoLayout *pl;
	PangoRectangle ink, logical;
	double w, h;

	cairo_save(cr);
	cairo_translate(cr, m->x, m->y);
	if (m->angle != 0)
		cairo_rotate(cr, m->angle);
	pango_cairo_update_context(cr, gc->pc);
	pl = text_layout(gc, m->text, m->size, m->bold);
	pango_layout_get_extents(pl, &ink, &logical);
	w = (double)logical.width / PANGO_SCALE;
	h = (double)logical.height / PANGO_SCALE;
	cairo_move_to(cr, -w * m->halign / 2.0, -h * m->valign / 2.0);
	set_rgb(cr, m->fill == CHART_NOCOLOR ? 0 : m->fill);
	pango_cairo_show_layout(cr, pl);
	g_object_unref(pl);
	cairo_restore(cr);
}

void chart_paint(struct chart_gc *gc, const struct chart_layout *lay, double scale)
{
	cairo_t *cr = gc->cr;
	size_t i;

	cairo_save(cr);
	cairo_rectangle(cr, 0, 0, lay->width, lay->height);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill(cr);
	for (i = 0; i < lay->nmarks; i++) {
		const struct chart_mark *m = &lay->marks[i];

		switch (m->pk) {
		case CHART_PK_RECT:
			paint_rect(cr, m, scale);
			break;
		case CHART_PK_LINE:
			paint_line(cr, m, scale);
			break;
		case CHART_PK_MARKER:
			paint_marker(cr, m);
			break;
		case CHART_PK_TEXT:
			paint_text(gc, m);
			break;
		}
	}
	cairo_restore(cr);
}
