/*
 * cli.h - the command table and what every verb shares.  Only cli/ calls
 * exit(); each cmd_* returns the process exit status:
 *   0 success, 1 regressions found (regress), 2 usage or input error,
 *   3 inconclusive under --strict (regress).
 */
#ifndef KB_CLI_H
#define KB_CLI_H

#include "../core/err.h"
#include "opt.h"

#define KBENCH_VERSION "0.1.0"

enum { EXIT_OK = 0, EXIT_REGRESSION = 1, EXIT_USAGE = 2, EXIT_INCONCLUSIVE = 3,
       EXIT_UNCHANGED = 1 /* relabel: nothing to change */ };

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* The command table (main.c). */
const struct cmd *cli_commands(size_t *n);

/* What every verb shares (common.c). */

/* --color WHEN (NULL: auto): *on says whether to colour what goes to f.
 * auto colours a terminal unless $NO_COLOR is set or $TERM is dumb
 * (core/term.h term_ansi); always and never say so.  -1 (after a
 * message) for any other word. */
#include <stdio.h>
int cli_color(const char *verb, const char *when, FILE *f, int *on);

/* --db value, else $KBENCH_DB, else ./kbench.db */
const char *cli_db_path(const char *opt);
/* Print "file:line: message" (or "kbench VERB: message") to stderr. */
void cli_report(const char *verb, const struct kb_err *e);
/* The same line, appended to out. */
struct buf;
void cli_report_to(struct buf *out, const char *verb, const struct kb_err *e);

/* kbench __complete CWORD WORD... (complete.c) */
int cli_complete(int argc, char **argv);

int cmd_import(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
/* compare and export share options (cmd_compare.c); fixed_what != NULL = export. */
int cli_compare(const char *verb, int argc, char **argv, const char *fixed_what);
int cmd_chart(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_regress(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_alerts(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_copy(int argc, char **argv);

#endif
