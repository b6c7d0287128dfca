/*
 * chart_model.h - fill a chart model (chart.h) from a comparison table
 * (analyze/compare.h).  Used by `kbench chart` and `kbench report`.
 * Builders return 0, or -1 with err set; they print nothing.
 */
#ifndef KB_CHART_MODEL_H
#define KB_CHART_MODEL_H

#include "../analyze/compare.h"
#include "../core/err.h"
#include "chart.h"

#include <stddef.h>

struct chart_model_opts {
	const char *title;      /* NULL = a title from the data */
	const char *xkey;       /* lines: config key on x; NULL = the varying one */
	int errbar;             /* enum chart_errbar */
	int log_x, log_y;
	/* A report's variants in a fixed order: variant i is drawn in palette
	 * entry i in every chart (NULL = each chart numbers its own). */
	const char *const *styles;
	size_t nstyles;
	/* Optional: the indexes of styles sorted by name (ties by index), so
	 * that a store of 20,000 variants is looked up, not scanned. */
	const size_t *styles_sorted;
};

/* The one colour rule of `chart` and `report`: a variant's look is its
 * place among the store's variants (names in id order, as db_list() lists
 * them), so it has the same colour in every chart.  Sets o->styles (names
 * borrowed) and o->styles_sorted (owned: chart_model_styles_release). */
void chart_model_styles_init(struct chart_model_opts *o, const char *const *names, size_t n);
void chart_model_styles_release(struct chart_model_opts *o);

/* Give each series of c named in o->styles that entry's look. */
void chart_model_styles(struct chart *c, const struct chart_model_opts *o);

/* "sd" (or NULL), "ci", "none" -> enum chart_errbar in *e; -1 if unknown. */
int chart_model_errbar(const char *s, int *e);

/* Names shortened to what varies: a post's own labels ("A@001_84b9...")
 * lose their "@post" when every suffixed name of names[0..n) has the same
 * one and the names stay distinct without it.  Returns n new strings
 * (free each and the array with chart_model_names_free) and sets *suffix
 * to the part left off (owned, NULL when nothing was). */
char **chart_model_short_names(const char *const *names, size_t n, char **suffix);
void chart_model_names_free(char **v, size_t n);
/* The one (benchmark, metric) of t; -1 (err names them) when t holds
 * none or several.  The strings point into t. */
int chart_model_table_metric(const struct an_table *t, const char **bench, const char **metric,
			     struct kb_err *err);
/* bars / points / lines chart c of t's rows for (bench, metric).  -1 with
 * err when there are no such rows or (lines) no numeric x key. */
int chart_model_from_table(struct chart *c, const struct an_table *t, const char *bench,
			   const char *metric, const struct chart_model_opts *o, struct kb_err *err);
/* change chart (forest plot) of every change in t (bench NULL = all rows). */
int chart_model_change(struct chart *c, const struct an_table *t, const char *bench,
		       const struct chart_model_opts *o, struct kb_err *err);

#endif
