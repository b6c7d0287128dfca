/*
 * opt.h - option tables that parse argv and print the help text.
 *
 *   static const struct opt opts[] = {
 *       OPT_STRING("variant", "NAME", &variant, "name the variant"),
 *       OPT_FLAG("dry-run", &dry_run, "parse and report, store nothing"),
 *       OPT_END,
 *   };
 */
#ifndef KB_OPT_H
#define KB_OPT_H

#include <stddef.h>
#include <stdio.h>

enum opt_type { OPT_T_END, OPT_T_FLAG, OPT_T_STRING, OPT_T_LIST, OPT_T_DOUBLE, OPT_T_LONG };

/* A repeatable option's values, in order. */
struct strlist {
	const char **v;
	size_t n, cap;
};

struct opt {
	enum opt_type type;
	const char *name;       /* long name without "--" */
	const char *arg;        /* argument name for the help, or NULL */
	void *value;            /* int*, const char**, struct strlist*, double*, long* */
	const char *help;
};

#define OPT_FLAG(n, v, h)       { OPT_T_FLAG, n, NULL, v, h }
#define OPT_STRING(n, a, v, h)  { OPT_T_STRING, n, a, v, h }
#define OPT_LIST(n, a, v, h)    { OPT_T_LIST, n, a, v, h }
#define OPT_DOUBLE(n, a, v, h)  { OPT_T_DOUBLE, n, a, v, h }
#define OPT_LONG(n, a, v, h)    { OPT_T_LONG, n, a, v, h }
#define OPT_END                 { OPT_T_END, NULL, NULL, NULL, NULL }

struct cmd_usage {
	const char *verb;
	const char *synopsis;   /* "[options] PATH..." */
	const char *summary;    /* one line */
	const struct opt *opts;
};

/*
 * Parse argv[1..argc) (argv[0] is the verb).  Positional arguments are
 * collected in *args (malloc'd array, caller frees) in order.  "--help"
 * prints the usage to stdout and returns 1.  An unknown option (with
 * "did you mean" the nearest of the table, core/spell.h) or a
 * missing/bad value prints one line plus a pointer to "kbench VERB
 * --help" to stderr and returns -1.  Returns 0 on success.
 */
int opt_parse(const struct cmd_usage *u, int argc, char **argv, const char ***args, size_t *nargs);
void opt_usage(const struct cmd_usage *u, FILE *f);
/* Help text is at most OPT_WIDTH columns wide. */
#define OPT_WIDTH 80
/* Print text's lines to f, each broken at blanks to fit OPT_WIDTH, a
 * continuation indented by hang columns; ends with a newline. */
void opt_wrap(FILE *f, const char *text, size_t hang);

/*
 * What "--help" does.  The man pages and the shell completion are made
 * from the same tables that print the help, so they cannot drift: main()
 * sets the mode once, before it runs a verb with "--help".
 *   OPT_HELP_TEXT     print the usage (the default)
 *   OPT_HELP_MAN      print the verb's man page (troff) instead
 *   OPT_HELP_CAPTURE  print nothing; copy the verb's options into
 *                     opt_captured (for kbench __complete)
 */
enum opt_help_mode { OPT_HELP_TEXT, OPT_HELP_MAN, OPT_HELP_CAPTURE };
extern enum opt_help_mode opt_help_mode;
/* The verb's one line from the command table, for its man page's NAME:
 * main() sets it with OPT_HELP_MAN, so opt.c need not read the table
 * (main.c), which names every verb that calls opt_parse. */
extern const char *opt_man_summary;

struct opt_captured {
	char *synopsis;
	size_t n;
	char **names, **args, **helps;  /* args[i] NULL for a flag */
};
extern struct opt_captured opt_captured;
void opt_captured_release(void);

/* troff-escape s for a man page (backslashes, dashes, leading dots). */
void opt_man_escape(FILE *f, const char *s);
void strlist_push(struct strlist *l, const char *s);
void strlist_release(struct strlist *l);

#endif
