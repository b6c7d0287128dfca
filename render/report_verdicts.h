/*
 * report_verdicts.h - the report's verdicts, what the text and HTML
 * backends both show: the comparisons of a section or of the whole
 * report with their counts, and the change, interval and verdict of a
 * cell as text.
 */
#ifndef KB_RENDER_REPORT_VERDICTS_H
#define KB_RENDER_REPORT_VERDICTS_H

#include "report.h"

struct buf;

/* One comparison (a non-baseline cell with a change) of the report. */
struct report_item {
	const struct report_section *sec;
	const struct an_table *t;       /* the section's table, or one of its pairs */
	const struct an_row *row;
	size_t variant;
	const struct an_cell *cell;
};

struct report_summary {
	size_t nworse, nbetter, nchanged, ninconclusive, nsame, ntotal;
	struct report_item *worse;      /* largest |change| first */
	struct report_item *better;     /* largest |change| first */
	size_t nworse_items, nbetter_items;
};

/* The verdicts of every section of r (their tables must exist); the
 * items point into r.  Release with report_summary_release(). */
void report_summarise(const struct report *r, struct report_summary *s);
void report_summary_release(struct report_summary *s);

/* The report's verdicts over every section, gathered section by section
 * while each one's tables exist (a store's report does not keep them all):
 * counts, and the worse and better comparisons as text, largest |change|
 * first once ended. */
struct report_ditem {
	char *bench, *metric, *config, *variant, *baseline;
	char *values;		/* "base -> value" with the row's decimals */
	char *change, *ci;	/* "+3.1%", "[+1.0, +5.2]" or "" */
	double key;		/* |change|, the order */
	double q, ci_low;
	enum an_verdict verdict;
};

struct report_gsum {
	size_t nworse, nbetter, nchanged, ninconclusive, nsame, ntotal;
	struct report_ditem *worse, *better;
	size_t nworse_items, nbetter_items, capw, capb;
};

void report_gsum_add(struct report_gsum *g, const struct report_section *sec);
void report_gsum_end(struct report_gsum *g);
void report_gsum_release(struct report_gsum *g);

/* "+12.3%" in the report's convention; "" when the cell has no change. */
void report_format_change(struct buf *out, const struct an_cell *c);
/* "[-5.1, +19.8]" interval of the change, or "" when there is none. */
void report_format_ci(struct buf *out, const struct an_cell *c);
/* Verdict word: worse, better, changed, same, inconclusive, "" for none. */
const char *report_verdict_word(enum an_verdict v);

#endif
