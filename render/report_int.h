/*
 * report_int.h - what the text and HTML report renderers share: the
 * verdict summary over every section, number formatting, the flag marks.
 */
#ifndef KB_RENDER_REPORT_INT_H
#define KB_RENDER_REPORT_INT_H

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

/* The HTML halves of report_stream_section() and report_stream_end(). */
int report_html_section(struct report_stream *st, const struct report *r, size_t i,
			struct kb_err *err);
int report_html_end(struct report_stream *st, FILE *f, const struct report *r,
		    struct kb_err *err);
/* Append what from holds (from its start) to f. */
int report_copy_stream(FILE *f, FILE *from, struct kb_err *err);
/* report_html() / report_text(): every section at once. */
int report_render(FILE *f, const struct report *r, int html, const char *assets_dir,
		  const char *assets_href, struct kb_err *err);

/* Decimals for the values of one row (two as the mails print, fewer for
 * large or integral numbers, more for tiny ones). */


/*
 * NUMA monitors (proc-vmstat.*, numa-numastat.*, numastat.* ...) are
 * shown in their own block of a section, next to numa_test's job
 * placement: report_split_monitors() gives t's rows that are not a
 * monitor's in *rest, the NUMA ones (hint faults, migrations, numa_hit
 * ...) in *numa, and returns how many other monitor rows (free pages,
 * meminfo levels) it left out of both.  Shallow copies of t: release
 * them with report_split_release(), never an_table_release().
 */
int report_is_monitor(const char *metric);
size_t report_split_monitors(const struct an_table *t, struct an_table *rest,
			     struct an_table *numa);
void report_split_release(struct an_table *rest, struct an_table *numa);

/* The methods footnote as plain-text paragraphs separated by blank
 * lines (the HTML renderer escapes them and wraps each in <p>). */
void report_methods(struct buf *out, const struct report *r);

/* "+12.3%" in the report's convention; "" when the cell has no change. */
void report_format_change(struct buf *out, const struct an_cell *c);
/* "[-5.1, +19.8]" interval of the change, or "" when there is none. */
void report_format_ci(struct buf *out, const struct an_cell *c);
/* Verdict word: worse, better, changed, same, inconclusive, "" for none. */
const char *report_verdict_word(enum an_verdict v);

#endif
