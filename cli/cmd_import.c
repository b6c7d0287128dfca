/*
 * cmd_import.c - `kbench import`: files, directories (recursive) and
 * stdin into the store, each source file all or nothing.  The options
 * and what is printed; the engine is import/.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/term.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../import/pipe.h"
#include "../ingest/ingest.h"
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What is printed.  VERBOSE: a line per file on stdout (the default
 * when stdout or stderr is not a terminal, and --verbose).  COMPACT (both
 * are terminals): the progress line, and per-file lines only for errors,
 * skips and notes.  QUIET (--quiet): errors only.  COMPACT and QUIET end
 * with the summary (for one file: that file's line).
 */
enum import_talk { TALK_VERBOSE, TALK_COMPACT, TALK_QUIET };

struct import_cli {
	struct import_opts o;
	struct strlist set;     /* o.set */
	const char *db;
	int list_formats, verbose, quiet;
	enum import_talk talk;
	char *last;             /* the last file line not printed (COMPACT, QUIET) */
	struct progress prog;
};

/* The kinds of line printed: a file's (stored, already), a note or a
 * skip, an error (on stderr). */
enum line_kind { LINE_FILE, LINE_SKIP, LINE_ERR };

/* "path: 12 runs ..." for a source stored, or that would be. */
static void stored_line(struct buf *line, const struct import_cli *c, const char *shown,
			const struct import_event *e)
{
	const struct db_import_result *r = e->res;

	buf_printf(line, "%s: %s%s, %zu runs", shown, c->o.dry_run ? "would import " : "",
		   e->text, r->runs);
	if (r->failed_runs)
		buf_printf(line, " (%zu failed)", r->failed_runs);
	buf_printf(line, ", %zu samples", r->samples);
	if (r->summaries)
		buf_printf(line, ", %zu summaries", r->summaries);
	if (r->copied_runs || r->copied_summaries) {
		char *other = term_line(r->copied_from);

		buf_printf(line, "; ");
		if (r->copied_runs)
			buf_printf(line, "%zu runs", r->copied_runs);
		if (r->copied_runs && r->copied_summaries)
			buf_printf(line, " and ");
		if (r->copied_summaries)
			buf_printf(line, "%zu summaries", r->copied_summaries);
		buf_printf(line, " already stored from %s", other);
		free(other);
	}
	buf_putc(line, '\n');
}

/* The line(s) an event prints, and their kind. */
static enum line_kind event_lines(struct buf *line, const struct import_cli *c,
				  const struct import_event *e)
{
	/* names as they may be shown: a newline or ESC in a file name escaped */
	char *shown = term_line(e->path ? e->path : ""), *other;
	enum line_kind kind = LINE_SKIP;
	const char *s, *end;

	switch (e->kind) {
	case IMPORT_EV_EXPLAIN:
		break;
	case IMPORT_EV_NOTES:
		/* "path: line 12: HTML part skipped" per note */
		for (s = e->text, end = s + strlen(s); s < end;) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

			buf_printf(line, "%s: %.*s\n", shown, (int)n, s);
			s += n + 1;
		}
		break;
	case IMPORT_EV_SKIPPED:
		buf_printf(line, "%s: skipped, %s\n", shown, e->text);
		break;
	case IMPORT_EV_FAILED:
		cli_report_to(line, "import", e->err);
		kind = LINE_ERR;
		break;
	case IMPORT_EV_LOST:
		/* files reported as imported whose transaction group was rolled back */
		buf_printf(line, "kbench import: the %zu file%s before this error %s not stored "
			   "after all (the store rolled back their transaction); import them "
			   "again\n", e->lost, e->lost == 1 ? "" : "s", e->lost == 1 ? "was" : "were");
		kind = LINE_ERR;
		break;
	case IMPORT_EV_ALREADY:
		other = term_line(e->res->already_path);
		buf_printf(line, "%s: already imported%s%s, nothing changed "
			   "(use --replace to import again)\n", shown,
			   strcmp(e->res->already_path, e->path) ? " as " : "",
			   strcmp(e->res->already_path, e->path) ? other : "");
		free(other);
		kind = LINE_FILE;
		break;
	case IMPORT_EV_STORED:
		stored_line(line, c, shown, e);
		kind = LINE_FILE;
		break;
	}
	free(shown);
	return kind;
}

/* An event of the import: print it as the talk level wants. */
static void import_said(void *ctx, const struct import_event *e)
{
	struct import_cli *c = ctx;
	struct buf line = BUF_INIT;
	enum line_kind kind;

	if (e->kind == IMPORT_EV_EXPLAIN) {
		fputs(e->text, stdout);         /* --explain: always */
		return;
	}
	kind = event_lines(&line, c, e);
	if (kind == LINE_FILE && c->talk != TALK_VERBOSE) {
		free(c->last);
		c->last = buf_detach(&line);
		return;
	}
	if (kind == LINE_SKIP && c->talk == TALK_QUIET) {
		buf_release(&line);
		return;
	}
	progress_clear(&c->prog);
	if (kind == LINE_ERR)
		fflush(stdout);
	fputs(buf_str(&line), kind == LINE_ERR ? stderr : stdout);
	if (kind == LINE_ERR)
		fflush(stderr);
	buf_release(&line);
}

/* "5210/20004 files, 27.9/106.8 MB, 498213 runs, 2604 files/s, ETA 0:06" */
static void import_progress(void *ctx, const struct import_totals *t)
{
	struct import_cli *c = ctx;
	double secs, frac = 0;
	char text[256];
	int n;

	if (!progress_due(&c->prog))
		return;
	secs = progress_elapsed(&c->prog);
	n = snprintf(text, sizeof(text), "%zu/%zu files, %.1f/%.1f MB, %zu runs, %.0f files/s",
		     t->disk_files, t->total_files, (double)t->disk_bytes / 1e6,
		     (double)t->total_bytes / 1e6, t->runs_seen,
		     secs > 0 ? (double)t->disk_files / secs : 0.0);
	if (t->total_bytes > 0)
		frac = (double)t->disk_bytes / (double)t->total_bytes;
	else if (t->total_files > 0)
		frac = (double)t->disk_files / (double)t->total_files;
	if (frac > 0.01 && frac < 1 && n > 0 && (size_t)n < sizeof(text)) {
		long eta = (long)(secs * (1 - frac) / frac + 0.5);
		snprintf(text + n, sizeof(text) - (size_t)n, ", ETA %ld:%02ld", eta / 60, eta % 60);
	}
	progress_draw(&c->prog, text);
}

static int list_formats(void)
{
	size_t n, i, w = 0;
	const struct ingest_parser *const *p = ingest_parsers(&n);

	/* the names in one column, as wide as the longest */
	for (i = 0; i < n; i++)
		if (strlen(p[i]->name) > w)
			w = strlen(p[i]->name);
	for (i = 0; i < n; i++)
		printf("%-*s  %s\n", (int)w, p[i]->name, p[i]->description);
	return EXIT_OK;
}

/* Check what the options imply beyond their types; EXIT_OK or, said,
 * EXIT_USAGE. */
static int check_opts(struct import_cli *c, const struct cmd_usage *u, size_t nargs)
{
	struct buf msg = BUF_INIT;

	if (nargs == 0) {
		fprintf(stderr, "kbench import: nothing to import (give files, directories or -)\n");
		opt_usage(u, stderr);
		return EXIT_USAGE;
	}
	if (import_opts_check(&c->o, &msg) < 0) {
		fprintf(stderr, "kbench import: %s\n", buf_str(&msg));
		buf_release(&msg);
		return EXIT_USAGE;
	}
	if (c->verbose && c->quiet) {
		fprintf(stderr, "kbench import: --verbose and --quiet do not go together\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The end of an import: the lost server, the summary (for one file: its
 * line).  Returns the exit status. */
static int summary(struct import_cli *c, const struct import_totals *t, struct db *db)
{
	if (t->server_lost)
		fprintf(stderr, "kbench import: the connection to %s was lost: %zu more file%s not "
			"stored; the files reported above were stored whole; import the same "
			"files again to complete the set\n", db_name(db), t->not_tried,
			t->not_tried == 1 ? "" : "s");
	if ((t->files > 1 || t->binary) && !c->o.explain) {
		if (t->messages)
			printf("%zu files (%zu mail messages): ", t->files, t->messages);
		else
			printf("%zu files: ", t->files);
		printf("%zu runs, %zu samples, %zu summaries; %zu already imported, "
		       "%zu failed, %zu skipped", t->runs, t->samples, t->summaries,
		       t->already, t->failed, t->skipped);
		if (t->binary)
			printf(" (%zu binary)", t->binary);
		putchar('\n');
	} else if (c->last) {
		fputs(c->last, stdout);  /* one file: its line is the summary */
	}
	return t->failed ? EXIT_USAGE : EXIT_OK;
}

/* Open the store, import the paths, print the summary. */
static int run_import(struct import_cli *c, const char **args, size_t nargs)
{
	const struct import_events ev = { c, import_said, c->prog.on ? import_progress : NULL };
	struct import_totals t;
	struct db *db = NULL;
	struct kb_err err;
	int rc;

	memset(&t, 0, sizeof(t));
	kb_err_clear(&err);
	if (!c->o.explain && db_open(&db, cli_db_path(c->db), &err) < 0) {
		cli_report("import", &err);
		return EXIT_USAGE;
	}
	import_pipe_run(db, &c->o, &ev, args, nargs, &t);
	progress_clear(&c->prog);
	rc = summary(c, &t, db);
	db_close(db);
	return rc;
}

int cmd_import(int argc, char **argv)
{
	struct import_cli c;
	struct import_opts *o = &c.o;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &c.db, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("variant", "NAME", &o->variant, "name the variant of every run (wins over the text)"),
		OPT_STRING("variant-prefix", "P", &o->variant_prefix, "put P before every variant name the text gives (A -> PA)"),
		OPT_STRING("machine", "NAME", &o->machine, "name the machine the runs come from"),
		OPT_STRING("kernel", "RELEASE", &o->kernel, "record the kernel release of the variant"),
		OPT_LIST("set", "KEY=VALUE", &c.set, "add KEY=VALUE to every run's config (runs=N: n of summaries)"),
		OPT_STRING("format", "NAME", &o->format, "use only this parser (see --list-formats)"),
		OPT_STRING("time-format", "FMT", &o->time_format, "fields of GNU time -f lines, e.g. '%e %S %U %c %w'"),
		OPT_STRING("layout", "mmtests|lkp|none", &o->layout_name,
			   "read paths as a result tree: mmtests, lkp, or none (default: detect mmtests)"),
		OPT_FLAG("dry-run", &o->dry_run, "parse and report, store nothing"),
		OPT_FLAG("replace", &o->replace, "import again bytes that were imported before"),
		OPT_FLAG("explain", &o->explain, "print each segment: line range, format, lines skipped"),
		OPT_FLAG("list-formats", &c.list_formats, "list the formats kbench reads"),
		OPT_FLAG("verbose", &c.verbose, "a line for every file, also on a terminal"),
		OPT_FLAG("quiet", &c.quiet, "print only errors and the summary"),
		OPT_END,
	};
	const struct cmd_usage u = { "import",
		"[options] PATH...   (PATH: file, directory, mbox, Maildir or - for stdin)",
		"Detects each file's format, stores its runs; each file all or nothing.", opts };
	const char **args;
	size_t nargs;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	o->set = c.set.v;
	o->nset = c.set.n;
	if (c.list_formats) {
		rc = list_formats();
	} else if ((rc = check_opts(&c, &u, nargs)) == EXIT_OK) {
		if (c.quiet)
			c.talk = TALK_QUIET;
		else if (!c.verbose && !o->explain && progress_tty() && isatty(STDOUT_FILENO))
			c.talk = TALK_COMPACT;
		else
			c.talk = TALK_VERBOSE;
		progress_init(&c.prog, "import", !c.quiet && !o->explain && progress_tty(), 0.2);
		rc = run_import(&c, args, nargs);
	}
	free(c.last);
	free(args);
	strlist_release(&c.set);
	return rc;
}
