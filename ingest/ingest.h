/*
 * ingest.h - from bytes to records.  Pure: no SQL, no stdout, no globals
 * that change.
 *
 * The front end (frontend.c) validates and decodes a source file (mail
 * quoting, quoted-printable, CRLF, tabs) into a document of lines that
 * remember their line number in the source.  The segmenter then asks every
 * parser in the table (registry.c) to claim the lines starting at each
 * position; the best claim becomes a segment, which that parser parses
 * into the batch.  Lines nobody claims are prose: the segmenter reads
 * variant legends ("A: vanilla O(1) scheduler from 2.5.39",
 * "KernelVersion: 3.9.0") from them and hands them to the next segments
 * as context.
 */
#ifndef KB_INGEST_H
#define KB_INGEST_H

#include <stddef.h>

#include "../core/err.h"
#include "record.h"

/* One decoded line.  s is NUL-terminated, has no line end, no mail
 * quoting, and tabs turned into spaces. */
struct ingest_line {
	const char *s;
	size_t len;
	long lineno;            /* 1-based line in the source file */
	int quote;              /* mail quoting depth: the '>' marks it had */
};

struct ingest_doc {
	struct arena arena;
	const char *path;       /* display name used in messages */
	struct ingest_line *lines;
	size_t nlines;
	int was_qp;             /* quoted-printable was undone */
	int was_quoted;         /* '>' quoting was removed */
};

/* Options a user can give that change how text is read. */
struct ingest_opts {
	const char *time_format;    /* --time-format, e.g. "%e %S %U %c %w" */
	long runs;                  /* --set runs=N: n for kernbench summaries, 0 unknown */
	const char *subject;        /* the mail's Subject:, or NULL */
};

/* What a parser knows about the surroundings of its segment. */
/* A change the source names in its own words: the kernel test robot's
 * "kernel test robot noticed a -26.6% regression of hackbench.throughput
 * on:" (or "FYI, we noticed a ... due to commit:"), with the commit,
 * testcase and parameters under it, and each row of its "| testcase:
 * change | hackbench: hackbench.throughput  26.6% regression |" table
 * with its "test parameters".  The robot names only what its own test
 * found changed. */
struct ingest_claim {
	const char *testcase;       /* or NULL */
	const char *metric;
	double pct;                 /* the change's size in %, as printed (no sign) */
	int regression;             /* 1: "regression", 0: "improvement" */
	const char *commit;         /* the commit named (full or short id), or NULL */
	struct rec_kv params[32];   /* "key: value" / "key=value" lines under it */
	size_t nparams;
	long lineno;
};

struct ingest_ctx {
	const char *path;
	const struct ingest_opts *opts;
	const char *variant;        /* from a legend or kernel line, or NULL */
	const char *variant_desc;
	const char *kernel;
	long runs_hint;             /* N of "Ran N iterations" in prose above, or 0 */
	/* A post that compares its patch with the kernel it is against
	 * ("Elapsed Time 573.582 (vs 576.196)"): that kernel, when the
	 * Subject names one release in brackets ("[PATCH][2.6.6]"), and the
	 * patch, when the post links one file "patch-<NAME>"; else NULL. */
	const char *base_release;
	const char *patch_name;
	/* The perf stat command line typed in the prose above ("perf stat
	 * --null --repeat 10 -- perf bench sched messaging -g 50 -l 5000"),
	 * for blocks pasted without perf's header, or NULL. */
	const struct ingest_line *perf_cmdline;
	/* The schbench command line typed in the prose above, or NULL. */
	const struct ingest_line *schbench_cmdline;
	/* The last line of column heads in the prose above ("v5.4      v5.4 +
	 * patch": names set apart by three blanks or more), for a table whose
	 * columns nothing else names; NULL when none. */
	const struct ingest_line *column_heads;
	/* Verdicts the source states in its own words (see ingest_claim), for
	 * the tables they are about; nclaims 0 when none. */
	const struct ingest_claim *claims;
	size_t nclaims;
};


struct ingest_parser {
	const char *name;           /* --format NAME */
	const char *description;    /* one line for --list-formats */
	/*
	 * Claim the segment starting at lines[0]: return how many lines
	 * (from lines[0]) belong to one piece of this format, and set *score
	 * (1..100) to how sure the parser is; return 0 when lines[0] does
	 * not start such a piece.  Must be cheap when it says no.  opts (never
	 * NULL) are the user's options: a parser may claim more when they
	 * say how to read a line (--time-format).
	 *
	 * A claim that reads ahead before saying no (0) sets *score to
	 * -k when it has learnt that no claim of its own starts at lines[0]
	 * .. lines[k-1] either; the segmenter then does not ask it again
	 * before lines[k].  Without this, a claim that scans to the end of
	 * a long stretch of lines it cannot decide on is asked again at each
	 * of them, and parsing is quadratic.
	 */
	size_t (*claim)(const struct ingest_opts *opts, const struct ingest_line *lines,
		       size_t n, int *score);
	/*
	 * Parse a claimed segment into out.  Runs take ctx->variant unless
	 * the text names its own.  On malformed input: set err (line from
	 * the offending ingest_line) and return -1.
	 */
	int (*parse)(const struct ingest_ctx *ctx, const struct ingest_line *lines,
		     size_t n, struct rec_batch *out, struct kb_err *err);
};

/* Is l a perf stat command line ("perf stat -r 5 ./numa01", behind a
 * prompt or a wrapper)?  perfstat.c's own pattern. */
int perfstat_cmdline_line(const struct ingest_line *l);
/* A schbench command line alone on its line ("schbench -m 2 -r 100"). */
int schbench_cmdline_line(const struct ingest_line *l);

/* After every segment of a file is parsed: numa_test summaries that state
 * no disturbance take the one all the file's raw numa_test blocks state
 * (config disturb=, flagged disturb_inherited), with a note for import
 * --explain either way (numatest.c).  Never fails. */
void numatest_inherit_disturbance(struct rec_batch *b);

/* The parser table. */
const struct ingest_parser *const *ingest_parsers(size_t *n);
const struct ingest_parser *ingest_parser_find(const char *name);

/* Front end.  Decodes data[0..len) into doc.  Fails (err set, -1) on an
 * empty or binary file, invalid UTF-8 or a line over INGEST_MAX_LINE
 * bytes (not counting its "\n" or "\r\n"). */
#define INGEST_MAX_LINE (1024 * 1024)
/* Largest text a gzipped source may inflate to (gz_inflate's max; its
 * max_line is INGEST_MAX_LINE, so text the front end would refuse is
 * refused while inflating). */
#define INGEST_MAX_INFLATED ((size_t)256 << 20)
int ingest_doc_load(struct ingest_doc *doc, const char *path, const char *data,
		    size_t len, struct kb_err *err);
void ingest_doc_release(struct ingest_doc *doc);

/* One piece of the document, for --explain. */
struct ingest_seg {
	size_t first, end;          /* line indexes [first, end) */
	const struct ingest_parser *parser;     /* NULL: skipped prose */
	int score;
	size_t runs, samples, summaries;        /* what it produced */
	const char *variant;        /* context variant in force */
	long rec_seg;               /* index into the batch's segments, -1 for prose */
	const char *evidence;       /* how its unnamed runs got their variant, or NULL */
	const char *label;          /* the label line before it, or NULL */
};

struct ingest_result {
	struct ingest_seg *segs;
	size_t nsegs, segs_cap;
};

/*
 * Segment doc and parse every segment into out.  only, when not NULL,
 * restricts claims to that parser (--format).  Fills res (may be NULL)
 * with the segments, skipped ranges included.  Returns -1 when a parser
 * fails, INGEST_NOTHING (-2) when no segment at all was recognised.
 */
#define INGEST_NOTHING (-2)
int ingest_parse_doc(const struct ingest_doc *doc, const struct ingest_opts *opts,
		     const struct ingest_parser *only, struct rec_batch *out,
		     struct ingest_result *res, struct kb_err *err);
void ingest_result_release(struct ingest_result *res);

/* Helpers for parsers (lines.c) ----------------------------------------- */

/* A token: a slice of a line (not NUL-terminated). */
struct ingest_tok {
	const char *s;
	size_t len;
};

/* Split s[0..len) at blanks into at most max tokens; returns the number of
 * tokens in the line (which may exceed max: only max are stored). */
size_t ingest_split(const char *s, size_t len, struct ingest_tok *tok, size_t max);
/* s[0..n) names one of autonuma-benchmark's tests: numa01, numa02_SMT,
 * numa01_THREAD_ALLOC ... */
int ingest_autonuma_test(const char *s, size_t n);
/* s[0..n) is the word w, letter case aside. */
int ingest_word_eq(const char *s, size_t n, const char *w);
/* Does l hold w (letter case aside) as a whole word: no letter, digit
 * or '_' right before or after it? */
int ingest_line_names_word(const struct ingest_line *l, const char *w);
/* Token equals the C string word. */
int ingest_tok_is(const struct ingest_tok *t, const char *word);
/* The length of option name when token t is that option on a command
 * line ("-g", "-g10", "--groups", "--groups=10"), else 0. */
size_t ingest_opt_match(const struct ingest_tok *t, const char *name);
/* Does pattern rx (core/rx.h) match line l? */
struct rx;
int ingest_line_matches(struct rx *rx, const struct ingest_line *l);
/* The names of a line of column heads (see ingest_ctx.column_heads) into
 * names[0..max), each a slice of l: their count, or 0 when l is not such
 * a line (fewer than 2 or more than max names, a name that is a number,
 * a field ("min=0", "Key: value") or a sentence, two names the same). */
size_t ingest_column_heads(const struct ingest_line *l, struct ingest_tok *names, size_t max);
/* Next non-blank line index from i (n when none). */
size_t ingest_skip_blank(const struct ingest_line *lines, size_t i, size_t n);
int ingest_line_blank(const struct ingest_line *l);

/*
 * Per-line memo of what a parser's pure line tests said (a claim looks
 * ahead from every line, so without it a line is tested once per line
 * before it).  Only lines of the document ingest_parse_doc() is reading,
 * met at their place in its line array, are remembered: a line a parser
 * made (a trimmed copy) is always tested afresh.  A key is one test of
 * one parser; its value is 0..254.
 */
enum ingest_memo_key {
	MEMO_IM_MEAN,           /* inlinemean: a mean line */
	MEMO_IM_CONTEXT,        /* inlinemean: a context line */
	MEMO_SB_BENCH,          /* sidebyside: the benchmark a line names */
	MEMO_MM_HEADER,         /* mmtestscmp: a header line of old tables */
	MEMO_KEYS
};
struct ingest_memo_scope {
	const struct ingest_line *lines;
	size_t n;
	unsigned char *v;
};
/* Remember tests of doc's lines until ingest_memo_end(); scopes nest
 * (the previous one is kept in *save).  Per thread. */
void ingest_memo_begin(const struct ingest_doc *doc, struct ingest_memo_scope *save);
void ingest_memo_end(const struct ingest_memo_scope *save);
/* The value remembered for key of l, or -1. */
int ingest_memo_get(const struct ingest_line *l, enum ingest_memo_key key);
/* Remember v (0..254) for key of l, when l is a line of the document. */
void ingest_memo_put(const struct ingest_line *l, enum ingest_memo_key key, int v);

#endif
