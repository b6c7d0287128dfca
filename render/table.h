/*
 * table.h - render a comparison table (analyze/compare.h) as text for a
 * mail, GitHub Markdown, CSV (libcsv) or JSON (Jansson), and stored
 * samples/summaries (db/query.h) as CSV or JSON for other tools.
 *
 * Text and Markdown are pivots: one block per (benchmark, metric) by
 * default, rows = configs, columns = variants, each non-baseline variant
 * followed by its change and a verdict mark.  CSV and JSON are long: one
 * record per variant per (benchmark, config, metric), the JSON contract
 * of docs/compare.md.
 *
 * Functions write to f and return 0, or -1 with err set (write error,
 * unsupported pivot).  Nothing here touches SQLite.
 */
#ifndef KB_RENDER_TABLE_H
#define KB_RENDER_TABLE_H

#include "../core/term.h"

#include <stdio.h>

#include "../analyze/compare.h"
#include "../core/err.h"

struct db_qdata;

enum render_fmt { RENDER_TEXT = 0, RENDER_MD, RENDER_CSV, RENDER_JSON };

/* Pivot dimensions for --rows / --cols. */
enum render_dim { RENDER_DIM_CONFIG = 0, RENDER_DIM_METRIC, RENDER_DIM_VARIANT };

struct render_table_opts {
	enum render_fmt fmt;
	enum render_dim rows, cols;	/* default config x variant; one of them
					 * must be variant (text and md) */
	int color;		/* text: verdict marks in ANSI colour (a terminal) */
	int no_legend;			/* text/md: leave out the legend (a
					 * report prints it once) */
	int width;			/* text: widest line; 0 = 80 (more variants
					 * than fit wrap into blocks of columns) */
};

/* The text table's legend (what values, marks and verdicts mean) for t,
 * appended to out; render_table() prints it once after the blocks.  With
 * baseline NULL the legend says "each section's baseline" (a report). */
struct buf;
void render_table_legend(struct buf *out, const struct an_table *t, const char *baseline);

void render_table_opts_init(struct render_table_opts *o);
int render_fmt_parse(const char *s, enum render_fmt *f);	/* text|md|csv|json */
int render_dim_parse(const char *s, enum render_dim *d);	/* config|metric|variant */
/* "mean(sd)" of c with dec decimals ("~" before an estimated sd), "-" when
 * the cell is empty; appended to out. */
struct buf;
void render_format_value(struct buf *out, const struct an_cell *c, int dec);
/* Decimals to print a row's values with: as many as its largest mean
 * needs (0 for whole numbers of 10 and more); cells without a mean do
 * not count. */
int render_row_decimals(const struct an_table *t, const struct an_row *row);

/* A value's marks, most important first, as the text table prints them
 * after a value: f footnoted, m more than one published value for the
 * cell in one source, d E-H of published cells, N very noisy,
 * b bimodal, o outliers, n noisy (not with N), e sd estimated, a
 * arithmetic mean of a throughput (a value <= 0), h harmonic mean.  out has
 * room for RENDER_MARKS_MAX + 1; "" when none apply.  And what a mark
 * means ("" for none). */
#define RENDER_MARKS "fmdNboneah"
#define RENDER_MARKS_MAX 10
void render_value_marks(unsigned flags, char *out);
const char *render_value_mark_text(char mark);

/* Verdict mark of the text table: '+' better, '-' worse, '~' changed,
 * '=' same, '?' inconclusive, ' ' none. */
char render_verdict_mark(enum an_verdict v);
/* The ANSI colour that starts a verdict's mark or word ("" for none),
 * as TERM_CSI (which only the terminal filter makes ESC [);
 * RENDER_COLOR_END ends it. */
const char *render_verdict_color(enum an_verdict v);
#define RENDER_COLOR_END TERM_CSI "0m"

int render_table(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		 struct kb_err *err);

/* What kbench export --what samples|summary writes: one record per
 * stored sample (variant, machine, benchmark, config, run, iteration, job,
 * metric, value, unit) or per summary row.  fmt is RENDER_CSV or
 * RENDER_JSON. */
int render_samples(FILE *f, const struct db_qdata *q, enum render_fmt fmt, struct kb_err *err);
int render_summaries(FILE *f, const struct db_qdata *q, enum render_fmt fmt,
		     struct kb_err *err);

/* The machine a row names in output, or NULL: every row when the table
 * spans several machines, else only a machine known by name. */
const char *render_row_machine(const struct an_table *t, const struct an_row *row);

#endif
