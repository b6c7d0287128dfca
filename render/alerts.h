/*
 * alerts.h - render analyze/alerts.h's summaries: text (a mail in the
 * 0-day robot's spirit, every line within 80 columns) or JSON (the
 * contract of docs/alerts.md).
 *
 * Each function writes to f and returns 0, or -1 with err set on a write
 * error.  Nothing here touches the store.
 */
#ifndef KB_RENDER_ALERTS_H
#define KB_RENDER_ALERTS_H

#include <stdio.h>

#include "../analyze/alerts.h"
#include "../core/err.h"

enum render_alerts_fmt { RENDER_ALERTS_TEXT = 0, RENDER_ALERTS_JSON };

struct render_alerts_opts {
	enum render_alerts_fmt fmt;
	/* which summaries: show[i] for a->summaries[i] */
	const char *show;
	/* --git: the first-parent history, oldest first, and each commit's
	 * subject; NULL/0 without */
	const char *const *commits, *const *subjects;
	size_t ncommits;
	const char *git_dir;	/* as given, for the mail */
};

/* "text" | "json"; -1 when unknown. */
int render_alerts_fmt_parse(const char *s, enum render_alerts_fmt *f);

int render_alerts(FILE *f, const struct an_alerts *a, const struct render_alerts_opts *o,
		  struct kb_err *err);

/* Summary i of a as the mail shows it, appended to out (lines within
 * 80 columns, control characters escaped). */
struct buf;
void render_alerts_summary_text(struct buf *out, const struct an_alerts *a, size_t i,
				const struct render_alerts_opts *o);
/* The state as shown: "new", "acknowledged", "invalid", "fixed". */
const char *render_alerts_state_word(const struct an_alert_summary *sm);
/* An alert's history chart: its series' medians along the commits, the
 * last good and first bad commits marked.  Into c (a CHART_HISTORY chart);
 * -1 with err when the series has no points. */
struct chart;
int render_alert_chart(struct chart *c, const struct an_alerts *a, size_t alert,
		       struct kb_err *err);

/* Subjects a mail lists per summary (--git); the JSON has them all. */
#define RENDER_ALERTS_SUBJECTS 20

/* The width of a mail line (text). */
#define RENDER_ALERTS_COLUMNS 80

#endif
