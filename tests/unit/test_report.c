/* render/report.c: the stream picks one backend when it begins and every
 * step goes through it; writing a report section by section gives what
 * report_text() / report_html() give over the whole report. */
#include "unit.h"
#include "../../core/err.h"
#include "../../core/util.h"
#include "../../render/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A report of two sections without tables (no store needed). */
static void small_report(struct report *r)
{
	struct report_section *s;

	report_init(r);
	r->title = xstrdup("backend test");
	r->generated = xstrdup("2026-01-01 00:00");
	report_variant(r, "base", "6.8", NULL);
	report_variant(r, "patched", NULL, "the series <v2>");
	report_machine(r, "box: 2 nodes");
	s = report_section(r, "hackbench");
	s->note = xstrdup("a note & more");
	report_section(r, "numa01");
}

/* The text (html 0) or HTML page of r, written at once or section by
 * section (streamed), as a malloc'd string. */
static char *written(int html, int streamed, const struct report *r)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);
	struct kb_err err;
	int rc;

	kb_err_clear(&err);
	if (!streamed) {
		rc = html ? report_html(f, r, NULL, NULL, &err) : report_text(f, r, &err);
	} else {
		struct report_stream st;

		rc = report_stream_begin(&st, html, NULL, NULL, &err);
		for (i = 0; i < r->nsections && rc == 0; i++)
			rc = report_stream_section(&st, r, i, &err);
		if (rc == 0)
			rc = report_stream_end(&st, f, r, &err);
		report_stream_release(&st);
	}
	fclose(f);
	CHECK_INT(rc, 0);
	return text;
}

TEST(report_stream_text_backend)
{
	struct report r;
	char *whole, *streamed;

	small_report(&r);
	whole = written(0, 0, &r);
	streamed = written(0, 1, &r);
	CHECK_STR(streamed, whole);
	CHECK(strncmp(whole, "backend test\n============\n", 26) == 0);
	/* head, sections in order, then the tail */
	CHECK(strstr(whole, "Verdicts") < strstr(whole, "hackbench\n"));
	CHECK(strstr(whole, "hackbench\n") < strstr(whole, "numa01\n"));
	CHECK(strstr(whole, "numa01\n") < strstr(whole, "Methods\n"));
	CHECK(strstr(whole, "a note & more") != NULL);
	CHECK(strstr(whole, "<html") == NULL);
	free(whole);
	free(streamed);
	report_release(&r);
}

TEST(report_stream_html_backend)
{
	struct report r;
	char *whole, *streamed;

	small_report(&r);
	whole = written(1, 0, &r);
	streamed = written(1, 1, &r);
	CHECK_STR(streamed, whole);
	CHECK(strncmp(whole, "<!DOCTYPE html>\n", 16) == 0);
	CHECK(strstr(whole, "id=\"bench-0\"") < strstr(whole, "id=\"bench-1\""));
	CHECK(strstr(whole, "id=\"bench-1\"") < strstr(whole, "<footer id=\"methods\">"));
	CHECK(strstr(whole, "a note &amp; more") != NULL);
	CHECK(strstr(whole, "the series &lt;v2&gt;") != NULL);
	CHECK(strstr(whole, "</html>\n") != NULL);
	free(whole);
	free(streamed);
	report_release(&r);
}
