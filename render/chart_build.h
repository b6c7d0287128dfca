/*
 * chart_build.h - fill a chart model (chart.h) from stored numa_test job
 * placement (db/placement.h runs): the heatmap panels and the jobs per
 * node.  `kbench chart --type placement|nodeload` and `kbench report`
 * both draw them through here; the table charts are in chart_model.h.
 * Also the history chart from the store, for `kbench chart --type
 * history` (analyze/history.h builds, render/regress.h draws).
 * Builders print nothing; they return 0, or -1 with err set.
 */
#ifndef KB_RENDER_CHART_BUILD_H
#define KB_RENDER_CHART_BUILD_H

#include <stddef.h>

#include "../core/err.h"
#include "chart_model.h"

struct an_history_opts;
struct chart;
struct db;
struct db_prun;

/* placement: one panel for run r (title with the variant when asked),
 * its configuration less the items of common (NULL: none left out). */
void chart_build_panel(struct chart *c, const struct db_prun *r, int with_variant,
		       const char *common);
/* The config items ("k=v,...") all of runs[0..n) share, when there are
 * several runs and each keeps an item of its own; else NULL.  Malloc'd:
 * the chart says it once in a note (chart_note) instead of per panel. */
char *chart_build_common_config(const struct db_prun *const *runs, size_t n);
/* placement: a panel per run of runs[0..n) (n > 0), what they share in a
 * note, titled by o->title or by the benchmark (and the variant of one
 * run). */
void chart_build_placement(struct chart *c, const struct db_prun *const *runs, size_t n,
			   const struct chart_model_opts *o);
/* nodeload: jobs per main node, mean over the runs of each (variant,
 * tasks).  -1 when there is no run. */
int chart_build_nodeload(struct chart *c, const struct db_prun *const *runs, size_t nruns,
			 const struct chart_model_opts *o, struct kb_err *err);
/* history: builds the history of o from db (an_history_build) and
 * fills c (a CHART_HISTORY) as render_history_chart does, title NULL =
 * one from the data.  -1 with err when the build fails or finds no
 * points. */
int chart_build_history(struct db *db, const struct an_history_opts *o, struct chart *c,
			const char *title, struct kb_err *err);

#endif
