/*
 * chart.h - the chart engine: a plain in-memory chart model drawn with
 * cairo + pango to PNG, SVG or PDF.
 *
 * Fill a model, then render it:
 *
 *     struct chart *c = chart_new(CHART_BARS);
 *     chart_set_title(c, "hackbench");
 *     chart_set_axis(c, 'y', "Time", "s");
 *     int g = chart_category(c, "N=10");          // x groups / rows / labels
 *     int s = chart_series(c, "A");               // variants
 *     chart_value(c, s, g, 5.54, 0.10);           // mean and error half-width
 *     chart_render_file(c, "out.png", &err);       // .png / .svg / .pdf
 *     chart_free(c);
 *
 * Categories and series are looked up by name, so a caller walking query
 * rows can call chart_category()/chart_series() for every row and get the
 * same index back.  Which calls a chart type reads:
 *
 *   bars       chart_value (one per series and category), errbar kind
 *   lines      chart_xy (numeric x per series), log_x / log_y
 *   points     chart_sample (many per series and category); chart_value
 *              optionally gives the mean and error, else the mean is computed
 *   placement  chart_panel + chart_job (rows = jobs, columns = nodes)
 *   nodeload   chart_node_jobs (jobs on a node for a series and category)
 *   change     chart_change (one row per category: delta % and interval),
 *              threshold for the shaded +-band
 *   history    chart_value (categories are ordered x labels such as kernel
 *              versions) and chart_history_mark for change points
 *
 * Drawing runs in stages over a thin cairo layer: data -> scales -> ticks
 * -> layout boxes -> marks -> paint.  The layout is in logical units of a
 * width x height canvas (default 800 x 500); "scale" multiplies the output
 * resolution only, so the layout and its dump do not depend on it.
 *
 * Ownership: the chart owns copies of every string passed in.  Functions
 * that can fail return 0 on success and -1 with a message in err.
 * Out of memory aborts (xmalloc).
 */
#ifndef KB_CHART_H
#define KB_CHART_H

#include <stddef.h>
#include <stdio.h>

struct buf;
struct kb_err;

/* No chart is drawn larger than this many logical units on a side:
 * longer selections become more pages or a chart that says what it
 * left out. */
#define CHART_MAX_SIDE 4000.0

enum chart_type {
	CHART_BARS,
	CHART_LINES,
	CHART_POINTS,
	CHART_PLACEMENT,
	CHART_NODELOAD,
	CHART_CHANGE,
	CHART_HISTORY,
};

/* What the error half-widths mean; drives the legend text. */
enum chart_errbar {
	CHART_ERR_NONE,
	CHART_ERR_SD,
	CHART_ERR_CI95,
};

enum chart_verdict {
	CHART_SAME,
	CHART_BETTER,
	CHART_WORSE,
	CHART_INCONCLUSIVE,
	CHART_CHANGED,
};

/* One number.  Which fields matter depends on the chart type (above). */
struct chart_value {
	int series;
	int cat;
	int node;               /* nodeload: node index, else -1 */
	int sample;             /* points: 1 for a raw sample */
	double x;               /* lines: numeric x */
	double y;               /* the value (change: delta in %) */
	double lo, hi;          /* interval ends, NAN when none */
	enum chart_verdict verdict;
};

/* One numa_test job row: percent of time on each node of its panel. */
struct chart_job {
	char *label;
	int initial;            /* node it started on, -1 unknown */
	int main;               /* node with most time (argmax if not given) */
	double *pct;            /* [nnodes] 0..100, NAN = missing */
};

struct chart_panel {
	char *title;            /* e.g. "testD7-59\ntasks=4 (run 3)": lines split at \n */
	int nnodes;
	struct chart_job *jobs;
	size_t njobs, cap;
};

struct chart_mark_def {
	int cat;
	char *text;             /* e.g. "+12.9% worse" */
	enum chart_verdict verdict;
};

struct chart {
	enum chart_type type;
	char *title;
	char *x_label, *x_unit;
	char *y_label, *y_unit;
	int log_x, log_y;
	double y_min, y_max;    /* fixed y range; NAN = automatic */
	enum chart_errbar errbar;
	double threshold;       /* change: +-threshold % band, NAN = none */
	double width, height;   /* logical canvas size asked for (800 x 500);
				 * the layout grows it to fit the content,
				 * never past CHART_MAX_SIDE */
	double scale;           /* output resolution factor (1) */
	size_t max_rows;        /* change: most rows drawn (0 = as many as fit);
				 * the rest are named in a note in the chart */
	int *series_style;      /* per series: palette index (colour, marker,
				 * dash); -1 = the series' own index */
	/* What a value stands for, in the layout dump (NULL = not said):
	 * per series its variant and machine, per category its canonical
	 * configuration.  A bar is placed by these keys, never by position. */
	char **series_variant, **series_machine;
	char **cat_config;
	char *note;             /* what the model left out (the layout adds
				 * its own), said in the chart and the dump */

	char **cats;
	size_t ncats, cats_cap;
	char **series;
	size_t nseries, series_cap;
	struct chart_value *vals;
	size_t nvals, vals_cap;
	struct chart_panel *panels;
	size_t npanels, panels_cap;
	struct chart_mark_def *marks;
	size_t nmarks, marks_cap;
};

/* A new empty chart of the given type; free with chart_free(). */
struct chart *chart_new(enum chart_type type);
void chart_free(struct chart *c);

/* Name of a type ("bars", ...) and back; -1 when the name is unknown. */
const char *chart_type_name(enum chart_type t);
int chart_type_from_name(const char *name);
/* Name of a verdict ("same", "better", ...); chart_kinds.c. */
const char *chart_verdict_name(enum chart_verdict v);

void chart_set_title(struct chart *c, const char *title);
/* axis is 'x' or 'y'; unit may be NULL.  Shown as "label (unit)". */
void chart_set_axis(struct chart *c, int axis, const char *label, const char *unit);
void chart_set_size(struct chart *c, double width, double height, double scale);
/* The canvas sizes a user may ask for: each side from CHART_MIN_SIDE to
 * CHART_USER_MAX_SIDE (cairo's limit), and at most CHART_MAX_AREA pixels in
 * all, so a long thin chart is fine and a huge square one (30000 x 30000:
 * 3.5 GB of image) is not.  0, or -1 with err saying which limit. */
#define CHART_MIN_SIDE 100.0
#define CHART_USER_MAX_SIDE 32767.0
#define CHART_MAX_AREA (16.0 * 1024 * 1024)
int chart_size_check(double width, double height, struct kb_err *err);

/* Index of the category / series with this name, added at the end if new. */
int chart_category(struct chart *c, const char *name);
int chart_series(struct chart *c, const char *name);
/* The keys a series / category stands for (copied; NULL = none): the
 * layout dump prints them beside each bar, point and mean. */
void chart_series_key(struct chart *c, int series, const char *variant, const char *machine);
void chart_category_config(struct chart *c, int cat, const char *config);
/* Add a sentence to the chart's note ("; " between sentences). */
void chart_note(struct chart *c, const char *text);
/* Draw series with palette entry style (colour, marker shape, dash), so
 * a variant keeps one look across every chart of a report. */
void chart_series_style(struct chart *c, int series, int style);
/* Colour of palette entry style, 0xRRGGBB (for HTML legends). */
unsigned chart_style_color(int style);

/* Mean y of (series, cat) with error half-width err (NAN or 0 = none). */
void chart_value(struct chart *c, int series, int cat, double y, double err);
/* One raw sample of (series, cat), for points charts. */
void chart_sample(struct chart *c, int series, int cat, double y);
/* A point of a lines chart. */
void chart_xy(struct chart *c, int series, double x, double y, double err);
/* nodeload: jobs of series (variant) at cat (task count) on node. */
void chart_node_jobs(struct chart *c, int series, int cat, int node, double jobs);
/* change: row label, delta %, 95% interval [lo, hi], verdict. */
void chart_change(struct chart *c, const char *label, double delta,
		  double lo, double hi, enum chart_verdict v);
/* history: a change point at category cat, e.g. "+12.9% worse". */
void chart_history_mark(struct chart *c, int cat, const char *text, enum chart_verdict v);

/* placement: a new panel with nnodes columns; returns its index. */
int chart_panel(struct chart *c, const char *title, int nnodes);
/* A job row; pct has the panel's nnodes values; main < 0 = argmax. */
void chart_job(struct chart *c, int panel, const char *label, int initial,
	       int main, const double *pct);

/*
 * Compute the layout (without painting) and print it as key=value lines.
 * Coordinates are logical units with two decimals; boxes are x,y,w,h,
 * lines x1,y1,x2,y2, points x,y; attributes follow after a space.
 *
 *   chart.type chart.size chart.scale title plot legend legend.I
 *   xaxis/yaxis=kind min= max= from= to=   xtick.I/ytick.I=pos value= label=
 *   xcat.I / ycat.I (band labels)
 *   bars      bar.G.S  whisker.G.S          (G = category, S = series)
 *   points    point.G.S.I  mean.G.S
 *   lines     point.S.I  seg.S.I  err.S.I   (I in x order)
 *   history   point.S.I  seg.S.I  err.S.I  change.M
 *   nodeload  stack.G.S.N  barlabel.G.S
 *   change    row.R  ci.R  zero  band
 *   placement panel.P  cell.P.R.N  init.P.R  row.P.R (flagged=0/1)
 *   every text text.I=x,y,w,h (its box, rotation included) size= angle=
 *             quad=x:y;x:y;x:y;x:y (the rotated box's corners) text=
 *   note      note=... when the chart leaves something out
 *
 * chart.size is the size the layout chose (see width, height above).
 * Fails (-1, err) when the chart has no data or a bad size.
 */
int chart_dump_layout(const struct chart *c, FILE *out, struct kb_err *err);

/* The canvas size the layout chooses for c (logical units, before the
 * scale): the size asked for, grown to fit the content.  -1 with err as
 * chart_dump_layout(). */
int chart_size(const struct chart *c, double *width, double *height, struct kb_err *err);

/* Render to path; the format comes from the extension (.png .svg .pdf). */
int chart_render_file(const struct chart *c, const char *path, struct kb_err *err);
/* Render a PNG into out (appended), e.g. for a data: URI. */
int chart_render_png_buf(const struct chart *c, struct buf *out, struct kb_err *err);

#endif
