/*
 * regress.h - render the findings of analyze/regress.h as text (one line
 * per finding, regressions first), JSON (the contract of docs/regress.md,
 * Jansson) or JUnit XML (one test case per comparison, a <failure> per
 * regression, <skipped> for inconclusive ones; every string XML-escaped).
 *
 * Functions write to f and return 0, or -1 with err set on a write error.
 * Nothing here touches SQLite.
 */
#ifndef KB_RENDER_REGRESS_H
#define KB_RENDER_REGRESS_H

#include <stdio.h>

#include "../analyze/regress.h"
#include "chart.h"
#include "../core/err.h"

enum render_regress_fmt { RENDER_REGRESS_TEXT = 0, RENDER_REGRESS_JSON, RENDER_REGRESS_JUNIT };

struct render_regress_opts {
	enum render_regress_fmt fmt;
	int verbose;		/* text: evidence of performance findings too,
				 * and the `same` ones */
	int color;		/* text: verdict words in ANSI colour (a terminal) */
};

/* "text" | "json" | "junit"; -1 when unknown. */
int render_regress_fmt_parse(const char *s, enum render_regress_fmt *f);

int render_regress(FILE *f, const struct an_regress *r, const struct render_regress_opts *o,
		   struct kb_err *err);

/* One finding as a single text line (no newline) into out: what the text
 * output and the report's findings list print. */
void render_finding_line(const struct an_finding *fd, char *out, size_t n);

/* History (analyze/history.h) ---------------------------------------------
 *
 * Text: one block per series, the points in history order, and before the
 * first point after each change point a line
 *     ··· +15.0% worse ···  median 0.364 -> 0.419 s, p=1.2e-40, first after: 5.19
 * JSON: {"kbench": "history", "version": 1, "metric", "order", "pvalue",
 * "threshold", "window", "series": [{"benchmark", "config", "metric",
 * "unit", "better", "points": [{"variant", "version", "n", "runs",
 * "median", "mean"}], "changes": [{"index", "variant", "before_median",
 * "after_median", "change_pct", "p", "verdict", "n_before", "n_after"}]}]}
 * fmt is RENDER_REGRESS_TEXT or RENDER_REGRESS_JSON. */
struct an_history;
struct chart;
int render_history(FILE *f, const struct an_history *h, enum render_regress_fmt fmt,
		   struct kb_err *err);
/* Fill a CHART_HISTORY chart: categories = the variants in history order
 * (of every series), one chart series per (benchmark, config) with each
 * point's median, and a mark "+15.0% worse" at each change point.  title
 * NULL = one from the data.  -1 with err when h holds no points. */
int render_history_chart(struct chart *c, const struct an_history *h, const char *title,
			 struct kb_err *err);
/* The chart's mark for a change point's verdict (history, alerts). */
enum chart_verdict render_chart_verdict(enum an_verdict v);

/* XML/HTML escape of s (& < > " ' and control characters other than tab,
 * newline and carriage return, which XML 1.0 cannot carry) to f. */
void render_xml_escape(FILE *f, const char *s);

#endif
