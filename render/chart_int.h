/*
 * chart_int.h - the chart engine's internal stages, shared by chart.c
 * (model, outputs, dump), chart_layout.c (the layout entry point),
 * chart_frame.c (scales, ticks, boxes, marks), chart_kinds.c (each
 * kind's data marks) and chart_paint.c (the thin cairo/pango layer).
 * Not for other modules.
 *
 * The layout turns a model into a flat list of marks in logical units:
 * rectangles, lines, markers and texts, in paint order.  Marks with a key
 * are data (or legend) marks and appear in the layout dump; the rest
 * (grid, axes, labels) are decoration.
 */
#ifndef KB_CHART_INT_H
#define KB_CHART_INT_H

#include "chart.h"

#include <cairo.h>
#include <pango/pangocairo.h>

#define CHART_NOCOLOR 0xFFFFFFFFu

enum chart_pk {
	CHART_PK_RECT,          /* x, y, w, h */
	CHART_PK_LINE,          /* x, y -> x2, y2 */
	CHART_PK_MARKER,        /* centre x, y; radius w; shape */
	CHART_PK_TEXT,          /* anchor x, y; halign/valign; angle */
};

enum chart_shape {
	CHART_SHAPE_CIRCLE,
	CHART_SHAPE_SQUARE,
	CHART_SHAPE_TRIANGLE,
	CHART_SHAPE_DIAMOND,
	CHART_SHAPE_TRIANGLE_DOWN,
	CHART_SHAPE_COUNT,
};

struct chart_mark {
	enum chart_pk pk;
	char key[48];           /* dump key; "" = decoration, not dumped */
	char *info;             /* dump attributes (owned) or NULL */
	char *text;             /* TEXT (owned) */
	double x, y, x2, y2, w, h;
	unsigned fill, stroke;  /* 0xRRGGBB or CHART_NOCOLOR */
	double lw;
	int dash;
	int shape;
	double size;            /* TEXT: font size in logical units */
	int bold;
	double angle;           /* TEXT: radians */
	int halign, valign;     /* 0 left/top, 1 centre, 2 right/bottom */
};

struct chart_box {
	double x, y, w, h;
};

enum chart_axis_kind {
	CHART_AXIS_NONE,
	CHART_AXIS_LINEAR,
	CHART_AXIS_LOG,
	CHART_AXIS_BAND,
};

struct chart_tick {
	double v;
	double pos;
	char label[40];
};

struct chart_axis {
	enum chart_axis_kind kind;
	double min, max;        /* band: 0 .. n */
	double p0, p1;          /* logical positions of min and max */
	struct chart_tick *ticks;
	size_t nticks;
};

struct chart_lentry {
	char *label;
	struct chart_box box;
};

/* Text measuring and drawing context. */
struct chart_gc {
	cairo_surface_t *surface;   /* own 1x1 surface when measuring only */
	cairo_t *cr;
	PangoContext *pc;
	PangoFontDescription *font;
};

struct chart_layout {
	const struct chart *c;
	double width, height;           /* the canvas chosen (grown to fit) */
	char *title_text;               /* the title as drawn (shortened to fit) */
	double title_size;
	char *note;                     /* what the chart leaves out, or NULL */
	double note_y;
	struct chart_box title, plot, legend;
	int has_plot, has_legend;
	struct chart_axis x, y;
	struct chart_lentry *lentries;
	size_t nlentries, lentries_cap;
	struct chart_mark *marks;
	size_t nmarks, marks_cap;
};

/* chart_paint.c */
int chart_gc_open(struct chart_gc *gc, cairo_t *cr);
void chart_gc_close(struct chart_gc *gc);
void chart_text_size(struct chart_gc *gc, const char *text, double size, int bold,
		     double *w, double *h);
/* Free what this thread keeps for painting (its text-size cache), for a
 * thread that ends (chart_pool.c's workers). */
void chart_thread_done(void);
void chart_paint(struct chart_gc *gc, const struct chart_layout *lay, double scale);
/* The box a text mark covers (its rotation included) and the corners of
 * the rotated box, x0,y0 .. x3,y3. */
void chart_text_box(struct chart_gc *gc, const struct chart_mark *m, struct chart_box *b,
		    double quad[8]);

/* chart_layout.c */
int chart_layout_compute(const struct chart *c, struct chart_gc *gc,
			 struct chart_layout *lay, struct kb_err *err);
void chart_layout_release(struct chart_layout *lay);

/* chart_frame.c */
double chart_axis_pos(const struct chart_axis *a, double v);

#endif
