/*
 * common.c - what every verb shares (cli.h): the store's path, --color,
 * and the one line an error is reported as.  A leaf: it calls no other
 * file of cli/, so a verb that uses it is not tied to main.c.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_db_path(const char *opt)
{
	const char *env = getenv("KBENCH_DB");

	if (opt && *opt)
		return opt;
	if (env && *env)
		return env;
	return "kbench.db";
}

int cli_color(const char *verb, const char *when, FILE *f, int *on)
{
	const char *no = getenv("NO_COLOR");

	if (!when || strcmp(when, "auto") == 0)
		*on = term_ansi(term_fd(f)) && !(no && *no);
	else if (strcmp(when, "always") == 0)
		*on = 1;
	else if (strcmp(when, "never") == 0)
		*on = 0;
	else {
		fprintf(stderr, "kbench %s: --color must be auto, always or never, not '%s'\n",
			verb, when);
		return -1;
	}
	return 0;
}

void cli_report_to(struct buf *out, const char *verb, const struct kb_err *e)
{
	/* one line: a newline or a control character in a file name or in
	 * the text a message quotes is shown escaped */
	if (e->file[0]) {
		term_escape(out, e->file, strlen(e->file), 0);
		if (e->line > 0)
			buf_printf(out, ":%ld", e->line);
		buf_puts(out, ": ");
	} else {
		buf_printf(out, "kbench %s: ", verb);
	}
	term_escape(out, e->msg, strlen(e->msg), 0);
	buf_putc(out, '\n');
}

void cli_report(const char *verb, const struct kb_err *e)
{
	struct buf b = BUF_INIT;

	cli_report_to(&b, verb, e);
	fputs(buf_str(&b), stderr);
	buf_release(&b);
}
