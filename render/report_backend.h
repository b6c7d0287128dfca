/*
 * report_backend.h - what the report stream (report.c) asks of a
 * renderer.  A backend is a table of functions, one file filling it
 * (report_text.c, report_html.c); report_stream_begin() picks one and
 * every later step goes through it.  A backend reads the model through
 * report.h and the verdicts through report_verdicts.h, never the
 * stream's own code.
 *
 * The page is head, sections, tail: each section is written to st->tmp
 * as it comes; at the end the stream writes the head (which needs every
 * section seen: st->sum is complete), copies the sections, then writes
 * the tail.  Each returns 0, or -1 with err set.
 */
#ifndef KB_RENDER_REPORT_BACKEND_H
#define KB_RENDER_REPORT_BACKEND_H

#include "report.h"

struct report_backend {
	/* give: section i itself when the caller gives its charts away
	 * (report_stream_section_give()), else NULL. */
	int (*section)(struct report_stream *st, const struct report *r, size_t i,
		       struct report_section *give, struct kb_err *err);
	/* Every section is given: write what still waits (NULL: nothing). */
	int (*sections_done)(struct report_stream *st, struct kb_err *err);
	int (*head)(struct report_stream *st, FILE *f, const struct report *r,
		    struct kb_err *err);
	int (*tail)(struct report_stream *st, FILE *f, const struct report *r,
		    struct kb_err *err);
	/* Free what the backend keeps in st (NULL: nothing). */
	void (*release)(struct report_stream *st);
};

extern const struct report_backend report_text_backend;
extern const struct report_backend report_html_backend;

#endif
