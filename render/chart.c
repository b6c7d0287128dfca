/*
 * chart.c - the chart model (building, freeing), the layout dump and the
 * output back ends (PNG file, PNG in memory, SVG, PDF).
 */
#include "chart_int.h"
#include "../core/buf.h"
#include "../core/err.h"
#include "../core/outfile.h"
#include "../core/util.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
	"bars", "lines", "points", "placement", "nodeload", "change", "history",
};

const char *chart_type_name(enum chart_type t)
{
	if ((unsigned)t < ARRAY_SIZE(type_names))
		return type_names[t];
	return "?";
}

int chart_type_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(type_names); i++)
		if (!strcmp(name, type_names[i]))
			return (int)i;
	return -1;
}

struct chart *chart_new(enum chart_type type)
{
	struct chart *c = xcalloc(1, sizeof(*c));

	c->type = type;
	c->y_min = NAN;
	c->y_max = NAN;
	c->threshold = NAN;
	c->width = 800;
	c->height = 500;
	c->scale = 1;
	return c;
}

static void free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void chart_free(struct chart *c)
{
	size_t i, j;

	if (!c)
		return;
	free(c->title);
	free(c->x_label);
	free(c->x_unit);
	free(c->y_label);
	free(c->y_unit);
	free_strings(c->cats, c->ncats);
	free_strings(c->series, c->nseries);
	free(c->series_style);
	free_strings(c->series_variant, c->nseries);
	free_strings(c->series_machine, c->nseries);
	free_strings(c->cat_config, c->ncats);
	free(c->note);
	free(c->vals);
	for (i = 0; i < c->npanels; i++) {
		struct chart_panel *p = &c->panels[i];

		for (j = 0; j < p->njobs; j++) {
			free(p->jobs[j].label);
			free(p->jobs[j].pct);
		}
		free(p->jobs);
		free(p->title);
	}
	free(c->panels);
	for (i = 0; i < c->nmarks; i++)
		free(c->marks[i].text);
	free(c->marks);
	free(c);
}

static void replace(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? xstrdup(s) : NULL;
}

void chart_set_title(struct chart *c, const char *title)
{
	replace(&c->title, title);
}

void chart_set_axis(struct chart *c, int axis, const char *label, const char *unit)
{
	if (axis == 'x') {
		replace(&c->x_label, label);
		replace(&c->x_unit, unit);
	} else {
		replace(&c->y_label, label);
		replace(&c->y_unit, unit);
	}
}

void chart_set_size(struct chart *c, double width, double height, double scale)
{
	if (width > 0)
		c->width = width;
	if (height > 0)
		c->height = height;
	if (scale > 0)
		c->scale = scale;
}

int chart_size_check(double width, double height, struct kb_err *err)
{
	if (!(width >= CHART_MIN_SIDE && width <= CHART_USER_MAX_SIDE &&
	      height >= CHART_MIN_SIDE && height <= CHART_USER_MAX_SIDE))
		return kb_err_set(err, "", 0, "--width and --height must lie between %.0f and %.0f",
				  CHART_MIN_SIDE, CHART_USER_MAX_SIDE);
	if (width * height > CHART_MAX_AREA)
		return kb_err_set(err, "", 0, "a %.0f x %.0f canvas is more than %.0f megapixels",
				  width, height, CHART_MAX_AREA / (1024 * 1024));
	return 0;
}

static int intern(char ***v, size_t *n, size_t *cap, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return (int)i;
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[*n] = xstrdup(name);
	return (int)(*n)++;
}

int chart_category(struct chart *c, const char *name)
{
	size_t before = c->ncats, cap = c->cats_cap;
	int g = intern(&c->cats, &c->ncats, &c->cats_cap, name);

	if (c->ncats != before) {
		if (c->cats_cap != cap || !c->cat_config)
			c->cat_config = xrealloc(c->cat_config, c->cats_cap * sizeof(*c->cat_config));
		c->cat_config[g] = NULL;
	}
	return g;
}

int chart_series(struct chart *c, const char *name)
{
	size_t before = c->nseries, cap = c->series_cap;
	int s = intern(&c->series, &c->nseries, &c->series_cap, name);

	if (c->nseries != before) {
		if (c->series_cap != cap || !c->series_style) {
			c->series_style = xrealloc(c->series_style,
						   c->series_cap * sizeof(*c->series_style));
			c->series_variant = xrealloc(c->series_variant,
						     c->series_cap * sizeof(*c->series_variant));
			c->series_machine = xrealloc(c->series_machine,
						     c->series_cap * sizeof(*c->series_machine));
		}
		c->series_style[s] = -1;
		c->series_variant[s] = NULL;
		c->series_machine[s] = NULL;
	}
	return s;
}

void chart_series_key(struct chart *c, int series, const char *variant, const char *machine)
{
	if (series < 0 || (size_t)series >= c->nseries)
		return;
	replace(&c->series_variant[series], variant);
	replace(&c->series_machine[series], machine);
}

void chart_category_config(struct chart *c, int cat, const char *config)
{
	if (cat >= 0 && (size_t)cat < c->ncats)
		replace(&c->cat_config[cat], config);
}

void chart_note(struct chart *c, const char *text)
{
	char *old = c->note;

	if (!text || !*text)
		return;
	c->note = old ? buf_aprintf("%s; %s", old, text) : xstrdup(text);
	free(old);
}

void chart_series_style(struct chart *c, int series, int style)
{
	if (series >= 0 && (size_t)series < c->nseries)
		c->series_style[series] = style;
}

static struct chart_value *new_value(struct chart *c, int series, int cat)
{
	struct chart_value *v;

	xgrow(&c->vals, &c->vals_cap, c->nvals + 1, sizeof(*c->vals));
	v = &c->vals[c->nvals++];
	memset(v, 0, sizeof(*v));
	v->series = series;
	v->cat = cat;
	v->node = -1;
	v->x = NAN;
	v->lo = NAN;
	v->hi = NAN;
	v->verdict = CHART_SAME;
	return v;
}

void chart_value(struct chart *c, int series, int cat, double y, double err)
{
	struct chart_value *v = new_value(c, series, cat);

	v->y = y;
	if (isfinite(err) && err > 0) {
		v->lo = y - err;
		v->hi = y + err;
	}
}

void chart_sample(struct chart *c, int series, int cat, double y)
{
	struct chart_value *v = new_value(c, series, cat);

	v->y = y;
	v->sample = 1;
}

void chart_xy(struct chart *c, int series, double x, double y, double err)
{
	struct chart_value *v = new_value(c, series, -1);

	v->x = x;
	v->y = y;
	if (isfinite(err) && err > 0) {
		v->lo = y - err;
		v->hi = y + err;
	}
}

void chart_node_jobs(struct chart *c, int series, int cat, int node, double jobs)
{
	struct chart_value *v = new_value(c, series, cat);

	v->node = node;
	v->y = jobs;
}

void chart_change(struct chart *c, const char *label, double delta,
		  double lo, double hi, enum chart_verdict verdict)
{
	int cat = chart_category(c, label);
	struct chart_value *v = new_value(c, 0, cat);

	v->y = delta;
	v->lo = lo;
	v->hi = hi;
	v->verdict = verdict;
}

void chart_history_mark(struct chart *c, int cat, const char *text, enum chart_verdict verdict)
{
	struct chart_mark_def *m;

	xgrow(&c->marks, &c->marks_cap, c->nmarks + 1, sizeof(*c->marks));
	m = &c->marks[c->nmarks++];
	m->cat = cat;
	m->text = xstrdup(text ? text : "");
	m->verdict = verdict;
}

int chart_panel(struct chart *c, const char *title, int nnodes)
{
	struct chart_panel *p;

	xgrow(&c->panels, &c->panels_cap, c->npanels + 1, sizeof(*c->panels));
	p = &c->panels[c->npanels];
	memset(p, 0, sizeof(*p));
	p->title = xstrdup(title ? title : "");
	p->nnodes = nnodes > 0 ? nnodes : 1;
	return (int)c->npanels++;
}

void chart_job(struct chart *c, int panel, const char *label, int initial,
	       int main, const double *pct)
{
	struct chart_panel *p;
	struct chart_job *j;
	int n;

	if (panel < 0 || (size_t)panel >= c->npanels)
		return;
	p = &c->panels[panel];
	xgrow(&p->jobs, &p->cap, p->njobs + 1, sizeof(*p->jobs));
	j = &p->jobs[p->njobs++];
	j->label = xstrdup(label ? label : "");
	j->initial = initial;
	j->pct = xmalloc(sizeof(double) * (size_t)p->nnodes);
	for (n = 0; n < p->nnodes; n++)
		j->pct[n] = pct ? pct[n] : NAN;
	if (main < 0) {
		double best = -1;

		for (n = 0; n < p->nnodes; n++)
			if (isfinite(j->pct[n]) && j->pct[n] > best) {
				best = j->pct[n];
				main = n;
			}
	}
	j->main = main;
}

/* ---- layout dump ---- */

static const char *axis_kind_name(enum chart_axis_kind k)
{
	switch (k) {
	case CHART_AXIS_LINEAR: return "linear";
	case CHART_AXIS_LOG: return "log";
	case CHART_AXIS_BAND: return "band";
	default: return "none";
	}
}

static void dump_axis(FILE *out, const char *name, const struct chart_axis *a)
{
	size_t i;

	fprintf(out, "%saxis=%s min=%g max=%g from=%.2f to=%.2f\n", name,
		axis_kind_name(a->kind), a->min, a->max, a->p0, a->p1);
	for (i = 0; i < a->nticks; i++)
		fprintf(out, "%stick.%zu=%.2f value=%g label=%s\n", name, i,
			a->ticks[i].pos, a->ticks[i].v, a->ticks[i].label);
}

static void dump_box(FILE *out, const char *key, const struct chart_box *b)
{
	fprintf(out, "%s=%.2f,%.2f,%.2f,%.2f\n", key, b->x, b->y, b->w, b->h);
}

static void dump_layout(struct chart_gc *gc, const struct chart_layout *lay, FILE *out)
{
	const struct chart *c = lay->c;
	size_t i, nt = 0;

	fprintf(out, "chart.type=%s\n", chart_type_name(c->type));
	fprintf(out, "chart.size=%gx%g\n", lay->width, lay->height);
	fprintf(out, "chart.scale=%g\n", c->scale);
	if (c->title)
		fprintf(out, "title=%.2f,%.2f,%.2f,%.2f text=%s\n", lay->title.x,
			lay->title.y, lay->title.w, lay->title.h, c->title);
	if (lay->has_plot)
		dump_box(out, "plot", &lay->plot);
	if (lay->x.kind != CHART_AXIS_NONE)
		dump_axis(out, "x", &lay->x);
	if (lay->y.kind != CHART_AXIS_NONE)
		dump_axis(out, "y", &lay->y);
	if (lay->has_legend)
		dump_box(out, "legend", &lay->legend);
	for (i = 0; i < lay->nlentries; i++)
		fprintf(out, "legend.%zu=%.2f,%.2f,%.2f,%.2f label=%s\n", i,
			lay->lentries[i].box.x, lay->lentries[i].box.y,
			lay->lentries[i].box.w, lay->lentries[i].box.h,
			lay->lentries[i].label);
	if (lay->note)
		fprintf(out, "note=%s\n", lay->note);
	for (i = 0; i < lay->nmarks; i++) {
		const struct chart_mark *m = &lay->marks[i];
		struct chart_box b;
		double q[8];

		if (m->pk != CHART_PK_TEXT || !m->text || !*m->text)
			continue;
		chart_text_box(gc, m, &b, q);
		fprintf(out, "text.%zu=%.2f,%.2f,%.2f,%.2f size=%g angle=%g "
			"quad=%.2f:%.2f;%.2f:%.2f;%.2f:%.2f;%.2f:%.2f text=%s\n", nt++,
			b.x, b.y, b.w, b.h, m->size, m->angle * 180 / M_PI,
			q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], m->text);
	}
	for (i = 0; i < lay->nmarks; i++) {
		const struct chart_mark *m = &lay->marks[i];

		if (!m->key[0])
			continue;
		switch (m->pk) {
		case CHART_PK_RECT:
			fprintf(out, "%s=%.2f,%.2f,%.2f,%.2f", m->key, m->x, m->y, m->w, m->h);
			break;
		case CHART_PK_LINE:
			fprintf(out, "%s=%.2f,%.2f,%.2f,%.2f", m->key, m->x, m->y, m->x2, m->y2);
			break;
		case CHART_PK_MARKER:
		case CHART_PK_TEXT:
			fprintf(out, "%s=%.2f,%.2f", m->key, m->x, m->y);
			break;
		}
		if (m->info)
			fprintf(out, " %s", m->info);
		fputc('\n', out);
	}
}

int chart_dump_layout(const struct chart *c, FILE *out, struct kb_err *err)
{
	struct chart_gc gc;
	struct chart_layout lay;
	int rc;

	if (chart_gc_open(&gc, NULL) < 0)
		return kb_err_set(err, NULL, 0, "chart: cannot create a cairo context");
	rc = chart_layout_compute(c, &gc, &lay, err);
	if (rc == 0)
		dump_layout(&gc, &lay, out);
	chart_layout_release(&lay);
	chart_gc_close(&gc);
	return rc;
}

/* ---- output back ends ---- */

enum chart_format { FMT_PNG, FMT_SVG, FMT_PDF };

static int format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot)
		return -1;
	if (str_ieq(dot, ".png"))
		return FMT_PNG;
	if (str_ieq(dot, ".svg"))
		return FMT_SVG;
	if (str_ieq(dot, ".pdf"))
		return FMT_PDF;
	return -1;
}

/* Lay out c and paint it on surface s (scaled by c->scale). */
static int draw_on(const struct chart *c, cairo_surface_t *s, struct kb_err *err)
{
	struct chart_gc gc;
	struct chart_layout lay;
	cairo_t *cr;
	int rc;

	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		return kb_err_set(err, NULL, 0, "chart: %s",
				  cairo_status_to_string(cairo_surface_status(s)));
	cr = cairo_create(s);
	cairo_scale(cr, c->scale, c->scale);
	if (chart_gc_open(&gc, cr) < 0) {
		cairo_destroy(cr);
		return kb_err_set(err, NULL, 0, "chart: cannot create a pango context");
	}
	rc = chart_layout_compute(c, &gc, &lay, err);
	if (rc == 0) {
		chart_paint(&gc, &lay, c->scale);
		if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
			rc = kb_err_set(err, NULL, 0, "chart: %s",
					cairo_status_to_string(cairo_status(cr)));
	}
	chart_layout_release(&lay);
	chart_gc_close(&gc);
	cairo_destroy(cr);
	return rc;
}

int chart_size(const struct chart *c, double *width, double *height, struct kb_err *err)
{
	struct chart_gc gc;
	struct chart_layout lay;

	if (chart_gc_open(&gc, NULL) < 0)
		return kb_err_set(err, NULL, 0, "chart: cannot create a cairo context");
	if (chart_layout_compute(c, &gc, &lay, err) < 0) {
		chart_layout_release(&lay);
		chart_gc_close(&gc);
		return -1;
	}
	*width = lay.width;
	*height = lay.height;
	chart_layout_release(&lay);
	chart_gc_close(&gc);
	return 0;
}

/* The device size: the canvas the layout chooses, times the scale. */
static int device_size(const struct chart *c, int *w, int *h, struct kb_err *err)
{
	double lw, lh, dw, dh;

	if (chart_size(c, &lw, &lh, err) < 0)
		return -1;
	dw = ceil(lw * c->scale);
	dh = ceil(lh * c->scale);
	if (!(lw <= CHART_USER_MAX_SIDE && lh <= CHART_USER_MAX_SIDE && dw >= 16 && dh >= 16 &&
	      dw <= 32768 && dh <= 32768))
		return kb_err_set(err, NULL, 0, "chart: bad size %gx%g at scale %g",
				  lw, lh, c->scale);
	*w = (int)dw;
	*h = (int)dh;
	return 0;
}

static cairo_status_t write_to_buf(void *closure, const unsigned char *data, unsigned int len)
{
	buf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t write_to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						    : CAIRO_STATUS_WRITE_ERROR;
}

/* PNG into f, or into out when f is NULL. */
static int render_png(const struct chart *c, FILE *f, struct buf *out, struct kb_err *err)
{
	cairo_surface_t *s;
	cairo_status_t st;
	int w, h, rc;

	if (device_size(c, &w, &h, err) < 0)
		return -1;
	s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	rc = draw_on(c, s, err);
	if (rc == 0) {
		cairo_surface_flush(s);
		if (f)
			st = cairo_surface_write_to_png_stream(s, write_to_file, f);
		else
			st = cairo_surface_write_to_png_stream(s, write_to_buf, out);
		if (st != CAIRO_STATUS_SUCCESS)
			rc = kb_err_set(err, NULL, 0, "cannot write PNG: %s",
					cairo_status_to_string(st));
	}
	cairo_surface_destroy(s);
	return rc;
}

static int render_vector(const struct chart *c, FILE *f, int fmt, struct kb_err *err)
{
	cairo_surface_t *s;
	cairo_status_t st;
	int w, h, rc;

	if (device_size(c, &w, &h, err) < 0)
		return -1;
	if (fmt == FMT_SVG)
		s = cairo_svg_surface_create_for_stream(write_to_file, f, w, h);
	else
		s = cairo_pdf_surface_create_for_stream(write_to_file, f, w, h);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		rc = kb_err_set(err, NULL, 0, "cannot create: %s",
				cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return rc;
	}
	rc = draw_on(c, s, err);
	cairo_surface_finish(s);
	st = cairo_surface_status(s);
	if (rc == 0 && st != CAIRO_STATUS_SUCCESS)
		rc = kb_err_set(err, NULL, 0, "cannot write: %s", cairo_status_to_string(st));
	cairo_surface_destroy(s);
	return rc;
}

struct chart_out {
	const struct chart *c;
	int fmt;
};

static int write_chart(FILE *f, void *ctx, struct kb_err *err)
{
	const struct chart_out *co = ctx;

	if (co->fmt == FMT_PNG)
		return render_png(co->c, f, NULL, err);
	return render_vector(co->c, f, co->fmt, err);
}

int chart_render_file(const struct chart *c, const char *path, struct kb_err *err)
{
	struct chart_out co = { c, format_from_path(path) };

	if (co.fmt < 0)
		return kb_err_set(err, path, 0, "unknown chart format (use .png, .svg or .pdf)");
	return outfile_write(path, OUTFILE_BINARY, write_chart, &co, err);
}

int chart_render_png_buf(const struct chart *c, struct buf *out, struct kb_err *err)
{
	return render_png(c, NULL, out, err);
}
