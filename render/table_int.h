/*
 * table_int.h - what the comparison table's writers share (table.h is
 * their API): the value marks (table_cell.c), the pivot of the text and
 * Markdown tables (blocks, labels, the grid of cell strings, geomean
 * rows, table_pivot.c), each format's writer (table_text.c,
 * table_formats.c), and the CSV and JSON record writers that export.c
 * uses too.
 */
#ifndef KB_RENDER_TABLE_INT_H
#define KB_RENDER_TABLE_INT_H

#include "table.h"

#include <jansson.h>

struct buf;

/* Width limit of a text table: 80 columns (a mail); more variants than
 * fit wrap into blocks of columns. */
#define TEXT_NARROW 80

/* The value marks, most important first (RENDER_MARKS, in order): the
 * flag, its mark after a value, what it means. */
struct render_mark {
	unsigned bit;
	char mark;
	const char *text;
};
#define RENDER_NMARKS (sizeof(RENDER_MARKS) - 1)
extern const struct render_mark render_marks[];

/* Variant names longer than this are shown as "[N]" in text tables, with
 * a key line per table: a column must not be as wide as a kernel name. */
#define VARIANT_LABEL_MAX 16

/* A block: the table rows sharing a benchmark and the block dimension's
 * value (a metric, or a config). */
struct pivot_block {
	size_t *rows;
	size_t n;
};

struct pivot {
	int variant_cols;	/* 1: columns are variants; 0: rows are variants */
	int block_by_metric;	/* 1: a block is one metric; 0: one config */
	int color;		/* verdict marks in colour */
	struct pivot_block *blocks;
	size_t nblocks;
};

/*
 * Labels of a block's configs: the items every row shares go to *common
 * (one header line), each row shows only the rest; when that rest is one
 * key in every row, the row shows its bare value and *key names it.
 * Arrays of b->n strings, owned by the caller (pivot_labels_free()).
 */
struct pivot_labels {
	char **row;             /* per block row */
	char *common;           /* "impl=perf,ipc=pipe" or NULL */
	char *key;              /* the one varying key, or NULL */
	size_t n;
};

/* One grid position as strings. */
struct pivot_gcell {
	char *value;		/* "5.54(0.10)" */
	char flags[16];		/* every value mark ("ne"), "" for none */
	char *change;		/* "-76.4%" or "" */
	char mark;		/* verdict mark or ' ' */
	const char *color;	/* the mark's colour, "" for none */
	int has_change_col;
	size_t n;		/* values behind the cell; 0 = unknown */
	int has_value;
	int has_data;		/* the variant has a cell here (maybe "-") */
	char *pub;		/* the published table's own verdict ("+3.30%*"), or "" */
};

struct pivot_grid {
	size_t nlines, ncols;
	char **line_labels, **col_labels;
	char **line_n;		/* "5", "3/5", "?" (unknown) per line */
	struct pivot_gcell *cells;	/* nlines x ncols */
	size_t *vw, *cw;	/* value and change widths per column */
	size_t *fw;		/* value-mark widths per column (at least 1) */
	size_t *pw;		/* published-verdict widths per column, 0: no such column */
	size_t lw, nw;		/* label and n widths */
};

/*
 * The geomean row of a block (benchstat's): per variant, the geometric
 * mean of new/base over the block's rows with a change, in the table's
 * convention.  Only for variant columns and a block of one metric (one
 * direction) with two rows or more.  geo[v] is the printed change ("" for
 * none), used[v] how many rows entered; returns 1 when a row is shown.
 */
struct pivot_geomean {
	char **change;		/* per variant */
	size_t *used;
	int shown, partial;	/* partial: some variant's geomean omits rows */
};

/* The blocks of t for o's --rows/--cols; -1 with err when neither or both
 * are 'variant'.  pivot_release() frees them. */
int pivot_init(struct pivot *p, const struct an_table *t,
	       const struct render_table_opts *o, struct kb_err *err);
void pivot_release(struct pivot *p);

/* Does variant v's name get a "[v+1]" alias in a text table? */
int pivot_text_alias(const struct an_table *t, size_t v);
/* A variant as a text table names it: its name, or "[v+1]" in tmp. */
const char *pivot_vlabel(const struct an_table *t, size_t v, int alias, char *tmp, size_t n);
void pivot_labels_build(struct pivot_labels *L, const struct an_table *t,
			const struct pivot_block *b);
void pivot_labels_free(struct pivot_labels *L);
/* Label of a block item (the non-variant axis). */
const char *pivot_item_label(const struct an_table *t, const struct pivot *p,
			     const struct pivot_block *b, size_t i, const struct pivot_labels *L);

/* The grid of block b as strings (variant names aliased when alias);
 * pivot_grid_release() frees it. */
void pivot_grid_build(struct pivot_grid *g, const struct an_table *t, const struct pivot *p,
		      const struct pivot_block *b, const struct pivot_labels *L, int alias);
void pivot_grid_release(struct pivot_grid *g);
struct pivot_gcell *pivot_gat(struct pivot_grid *g, size_t l, size_t c);
/* Does variant v have a cell in block b?  Is grid position lc (a line,
 * or a column when is_col) a variant absent from block b? */
int pivot_variant_in_block(const struct an_table *t, const struct pivot_block *b, size_t v);
int pivot_grid_absent(const struct an_table *t, const struct pivot *p,
		      const struct pivot_block *b, size_t lc, int is_col);
/* The heading of the row-key column. */
const char *pivot_key_heading(const struct pivot *p, const struct pivot_labels *L);
/* A block's title line: benchmark, metric or config, unit, direction. */
void pivot_block_title(struct buf *out, const struct an_table *t, const struct pivot *p,
		       const struct pivot_block *b, const struct pivot_labels *L);

void pivot_geomean_build(struct pivot_geomean *gm, const struct an_table *t,
			 const struct pivot *p, const struct pivot_block *b);
void pivot_geomean_release(struct pivot_geomean *gm, const struct an_table *t);
/* The footnote of a geomean row, as text or (md) Markdown. */
void pivot_geomean_note(struct buf *out, const struct an_table *t, const struct pivot_block *b,
			const struct pivot_geomean *gm, int md);

/* End the line without its trailing blanks. */
void pivot_trim_line(struct buf *out);
/* Append text wrapped at width columns, breaking after commas or at
 * spaces; continuation lines start with indent spaces. */
void pivot_wrap_list(struct buf *out, const char *lead, const char *text, size_t width,
		     size_t indent);
/* s with Markdown's special characters escaped. */
void render_md_escape(struct buf *out, const char *s);

/* A pivot format: the lead of t's warning line, the line of a table
 * with no block, and how a block is appended. */
struct pivot_format {
	const char *warning_lead;
	const char *empty;
	void (*block)(struct buf *out, const struct an_table *t, const struct pivot *p,
		      const struct pivot_block *b, const struct render_table_opts *o);
};
/* t as blocks in fmt, then (unless o->no_legend) the legend, to f. */
int pivot_write(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		const struct pivot_format *fmt, struct kb_err *err);

/* Each format's table writer, as render_table() picks them. */
int render_table_text(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		      struct kb_err *err);
int render_table_md(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		    struct kb_err *err);
int render_table_csv(FILE *f, const struct an_table *t, struct kb_err *err);
int render_table_json(FILE *f, const struct an_table *t, struct kb_err *err);

/* Records for other tools.  One CSV record of strings (NULL = empty
 * field): 0, or -1 on a write error. */
int render_csv_record(FILE *f, const char *const *fields, size_t n);
/* A JSON value as a CSV field: strings bare, numbers shortest, null
 * empty, arrays joined with ';'.  The caller frees it. */
char *render_json_field(json_t *x);
/* Write root to f (indent 1, keys in order, 12 digits) and a newline,
 * then drop root; -1 with err on a write error. */
int render_json_dump(FILE *f, json_t *root, struct kb_err *err);
/* s as a JSON string, null for NULL. */
json_t *render_jstr(const char *s);

#endif
