/*
 * chart_frame.h - the frame kit (chart_frame.c: frames, axes, scales,
 * ticks, legend, text fitting, mark adders) that the chart kinds
 * (chart_kinds.c, chart_kinds.h) draw their data marks in.  Internal to
 * render/'s chart files.
 */
#ifndef KB_CHART_FRAME_H
#define KB_CHART_FRAME_H

#include "chart_int.h"

#include <stddef.h>

#define MARGIN 12.0
#define AXIS_TITLE_SIZE 12.0
#define TICK_SIZE 11.0
#define SMALL_SIZE 9.5
#define TICK_LEN 5.0
#define LEGEND_ROW 18.0

#define INK 0x222222u
#define BAND_FILL 0xEBEBEBu

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

/* ---- chart_frame.c: the frame kit ---- */

unsigned lay_series_color(const struct chart *c, int s);

int lay_series_shape(const struct chart *c, int s);

/* 0 solid for the first eight styles, then dashed, dotted, dash-dot. */
int lay_series_dash(const struct chart *c, int s);

/* Do the series need their shapes to stay apart (more than the colours)? */
int lay_many_series(const struct chart *c);


/*
 * text shortened with a trailing ellipsis until it is at most maxw wide
 * at size; the whole text when it fits.  Caller frees.
 */
char *lay_fit_text(struct chart_gc *gc, const char *text, double size, int bold, double maxw);

void lay_mark_key(struct chart_mark *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct chart_mark *lay_add_rect(struct chart_layout *L, double x, double y, double w,
				double h, unsigned fill, unsigned stroke, double lw);

struct chart_mark *lay_add_line(struct chart_layout *L, double x, double y, double x2,
				double y2, unsigned color, double lw);

struct chart_mark *lay_add_marker(struct chart_layout *L, double x, double y, double r,
				  int shape, unsigned fill, unsigned stroke);

struct chart_mark *lay_add_text(struct chart_layout *L, double x, double y, const char *text,
				double size, int halign, int valign, unsigned color);

/* A vertical error bar with caps; the stem carries the dump key. */
struct chart_mark *lay_add_whisker(struct chart_layout *L, double x, double y1, double y2,
				   double cap, unsigned color, double lw);

struct legend_item *lay_legend_add(struct frame *f, enum legend_kind kind, const char *label,
				   unsigned color, int shape);

/* The legend entry of series s in the look of chart type kind. */
void lay_legend_series(struct frame *f, const struct chart *c, size_t s, enum legend_kind kind);

void lay_legend_free(struct frame *f);

/* Width the legend needs (0 when empty); labels too long are shortened. */
double lay_legend_measure(struct chart_gc *gc, struct frame *f);

/* Place the legend with its top-left corner at (x, y) and emit its marks. */
void lay_legend_place(struct chart_layout *L, struct frame *f, double x, double y);

void lay_free_labels(char **v, size_t n);

/* Show every step-th of n labels, always the first and the last (the
 * one before the last gives way when they would touch). */
void lay_thin_labels(unsigned char *show, size_t n, size_t step);

char *lay_axis_title(const char *label, const char *unit, const char *fallback);

/*
 * The title box at the top: the title in bold at 15, smaller (down to
 * 11) when it is wider than the canvas, then shortened with an ellipsis;
 * then the note, if any, in a line of its own.  *top is the first free y.
 */
void lay_set_title_box(struct chart_layout *L, struct chart_gc *gc, double *top);

void lay_emit_title(struct chart_layout *L);

double lay_max_label_width(struct chart_gc *gc, const char *const *labels, size_t n,
			   double size, double *height);

void lay_frame_layout(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
		      struct frame_spec *sp);

/* Centre of band i on a band axis. */
double lay_band_pos(const struct chart_axis *a, double i);

double lay_band_width(const struct chart_axis *a);

/* Grid lines behind the data. */
void lay_frame_back(struct chart_layout *L);

/* Axes, tick labels, axis titles, title and legend over the data. */
void lay_frame_front(struct chart_layout *L, struct chart_gc *gc, struct frame *f,
		     struct frame_spec *sp);

/* Add a sentence to L->note ("; " between): what the chart leaves out. */
void lay_note_add(struct chart_layout *L, const char *text);

/* " variant=V machine=M config=C" for series s at category g, as far as
 * the model says them ("" when it says none).  Caller frees. */
char *lay_value_keys(const struct chart *c, size_t s, size_t g);

#endif
