/*
 * report_build.h - a report's model (report.h) and charts from its plan
 * (analyze/report.h), and the report written through the one output
 * writer (core/outfile.h).  `kbench report` is options and this:
 *
 *   report_build_init(&b, &opts);
 *   report_build_sections(&b, db, &list, &plan, &pl, &err);  first pass
 *   report_build_write(&b, db, out, &err);                   second pass
 *   report_build_release(&b);
 *
 * Nothing here prints: progress and warnings go to the events, if any.
 * Functions return 0, or -1 with err set.
 */
#ifndef KB_RENDER_REPORT_BUILD_H
#define KB_RENDER_REPORT_BUILD_H

#include <stddef.h>

#include "../analyze/placement.h"
#include "../analyze/regress.h"
#include "../analyze/report.h"
#include "../core/err.h"
#include "chart_model.h"
#include "report.h"
#include "../analyze/alerts.h"

struct db;
struct db_list;
struct db_placement;

struct report_build_events {
	/* a step of the work (what, i of n; n 0: no count) */
	void (*step)(void *ctx, const char *what, size_t i, size_t n);
	/* the findings left out, with why */
	void (*no_findings)(void *ctx, const struct kb_err *why);
	void *ctx;
};

struct report_build_opts {
	int html;                       /* else a text mail body */
	int charts;                     /* html and charts wanted */
	int findings;                   /* the regress findings at the top */
	int errbar;                     /* enum chart_errbar of the bar charts */
	const char *title;              /* NULL: "kbench report" */
	const char *selection;          /* the selection in words */
	const char *assets;             /* html: the charts' directory; NULL: embedded */
	const struct an_query *q;       /* the report's selection (findings) */
	const char *alerts;             /* the Alerts section: "on"; "auto" (NULL) when
					 * kbench alerts has stored summaries; "off" */
	struct report_build_events ev;
};

struct report_build {
	struct report_build_opts o;
	struct report rep;
	struct an_report_plan *plan;    /* borrowed */
	const struct db_placement *pl;  /* borrowed */
	struct an_pindex pix;
	struct chart_model_opts sco;    /* one look per variant */
	const char **styles;
	struct an_regress g;
	int have_g;
	struct an_alerts alerts;
	int have_alerts;
	char **envseen;                 /* "machine\nbaseline\nvariant" of the pairs looked at */
	size_t nenvseen, envseen_cap;
};

void report_build_init(struct report_build *b, const struct report_build_opts *o);
/* The first pass: every section of plan compared (its p values into the
 * plan's family), wide sections charted, the family corrected, the chart
 * budget given out, job tables and placement charts, the overview.  0;
 * 1 when no section has anything to show (saying "nothing matches" is
 * the caller's); -1 with err. */
int report_build_sections(struct report_build *b, struct db *db, const struct db_list *list,
			  struct an_report_plan *plan, const struct db_placement *pl,
			  struct kb_err *err);
/* The second pass, written to out (NULL: standard output) through
 * outfile_write(): each section built again, charted, searched for
 * findings, written and released; then the page. */
int report_build_write(struct report_build *b, struct db *db, const char *out,
		       struct kb_err *err);
void report_build_release(struct report_build *b);

#endif
