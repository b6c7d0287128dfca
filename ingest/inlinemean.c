/*
 * inlinemean.c - published means written inline, one variant a line,
 * under a heading or command line that says what was measured:
 *
 *   hackbench -g 20 -l 800, the average of 10 runs (lower is better):
 *
 *       mainline   :  3.871(+/- 0.84%)
 *       patched    :  4.102(+/- 2.10%)
 *
 * and the ways people write the same: "base: 3.871 (+-0.84%)",
 * "v6.8: 12.3 +/- 0.4", "patched   4.102 ± 0.03 s",
 * "rc1: mean 3.871 stddev 0.032", "tip: 3.9 (+/- 1%)  (+3.2%)".
 *
 * Each line is one summary: variant = the label before the colon (or
 * before two blanks), as the post names it; mean; sd, relative when
 * printed as a percent (sd = mean x pct / 100); n where the lines above
 * say how many runs ("10 runs", "the average of 5 runs", "5 iterations"),
 * else the user's --set runs=N, else unknown (0).  Only a "+/-", "+-",
 * "±" or a stddev word makes the second number a spread: "patched 4.102
 * (2.10%)" is more likely a change and is not read.
 *
 * What was measured comes from the heading or command line at most
 * CTX_LINES lines above the first mean, inside this parser's claim:
 *   hackbench (its options: groups, loops, datasize, mode, ipc, tasks),
 *   perf bench sched messaging (hackbench, impl=perf), numa01/numa02...
 *   (autonuma, test=NAME, elapsed), kernbench (jobs from -j N, load;
 *   the metric must be named: elapsed, user or system).
 * A block under no such heading, or whose metric the heading does not
 * tell, is not stored: import --explain says why.  A label that names a
 * statistic, a change, a metric or a benchmark ("Average", "delta",
 * "User", "numa01") is not a variant: that line is left out, with a note.
 * A trailing change annotation ("(+3.2%)", "-2.6% better") is dropped,
 * with a note; a trailing "(10 runs)" gives that line's n.
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How far above the first mean a heading may stand (blank and prose
 * lines between count). */
#define CTX_LINES 6
/* The most lines a block under no heading is claimed in one piece. */
#define HEADLESS_MAX 64
#define MAX_TOKS 64
#define MAX_LABEL_WORDS 5

#define NUM "(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:[eE][-+]?\\d+)?"
#define PM "(?:\\+\\s?/\\s?-|\\+-|\xc2\xb1)"
#define SECS "(?:s|secs?|seconds)"
#define SDWORD "(?:std\\.?\\s?dev\\.?|stddev|stdev|std|sd|sigma)"

/*
 * label, separator (a colon, or two blanks), optional "mean"/"avg" word,
 * the mean, then one of: "(+/- sd[%])", "+/- sd[%]", "[,] stddev sd[%]",
 * then the rest (an annotation, or "(10 runs)", checked apart).
 */
static struct rx mean_rx = RXI(
	"^\\s*([^\\s:](?:[^:]*?[^\\s:])?)(?:\\s*:\\s*|\\s{2,})"
	"(?:(?:mean|avg|average)\\s*[:=]?\\s*)?"
	"(" NUM ")\\s*" SECS "?\\s*"
	"(?:\\(\\s*" PM "\\s*(" NUM ")\\s*(%)?\\s*" SECS "?\\s*\\)"
	"|" PM "\\s*(" NUM ")\\s*(%)?(?:\\s*" SECS "\\b)?"
	"|[,;]?\\s*\\(?\\s*" SDWORD "\\s*[:=]?\\s*(" NUM ")\\s*(%)?(?:\\s*" SECS "\\b)?\\s*\\)?)"
	"\\s*(.*?)\\s*$");
/* What may follow the spread: a change the author worked out. */
static struct rx annot_rx = RXI(
	"^[(\\[]?\\s*[-+]?\\s?\\d+(?:[.,]\\d+)?\\s?%\\s*[)\\]]?"
	"(?:\\s*(?:vs\\.?\\s+\\S+|better|worse|faster|slower|improvement|regression|gain|loss))*$");
/* "patched   4.102 (2.10%)": a labelled mean and a percent with no
 * "+/-": a change or a spread, the line does not say.  Part of a block,
 * never read. */
static struct rx nospread_rx = RXI(
	"^\\s*[^\\s:](?:[^:]*?[^\\s:])?(?:\\s*:\\s*|\\s{2,})" NUM "\\s*" SECS "?\\s*"
	"\\(\\s*[-+]?\\s?" NUM "\\s*%\\s*\\)\\s*$");
/* perf stat -r N's own summary line after the label: "146.88 +- 6.54
 * seconds time elapsed  ( +-  4.45% )"; its "+-" is the standard error
 * of the mean (perf's stddev_stats() is sqrt(variance / n)). */
static struct rx perf_tail_rx = RXI("^time\\s+elapsed(?:\\s*\\(\\s*\\+-\\s*" NUM "\\s*%\\s*\\))?$");
static struct rx line_runs_rx = RXI("^\\(?\\s*(\\d+)\\s+(?:runs?|iterations?|samples?)\\s*\\)?$");
/* "10 runs", "5 iterations", "the average of 5 runs", "averaged over 8" */
static struct rx runs_rx = RXI(
	"\\b(\\d+)[\\s-]*(?:runs?|iterations?|repetitions?|trials?|samples?)\\b"
	"|\\b(?:average|mean|avg)\\s+(?:of|over)\\s+(\\d+)\\b"
	"|\\baveraged\\s+over\\s+(\\d+)\\b"
	"|--repeat[=\\s]+(\\d+)\\b|\\bperf\\s+stat\\b.*?\\s-r\\s*(\\d+)\\b");

/* Words that make a label something other than a variant name. */
static const char *const stat_words[] = {
	"mean", "avg", "average", "median", "stddev", "stdev", "std", "sd", "min", "max",
	"minimum", "maximum", "total", "sum", "result", "results", "score",
};
static const char *const change_words[] = {
	"delta", "diff", "difference", "change", "improvement", "improved", "regression",
	"gain", "speedup", "speed-up", "slowdown", "ratio", "overhead", "variance", "noise",
};
static const char *const metric_words[] = {
	"time", "elapsed", "user", "system", "sys", "real", "cpu", "wall", "runtime",
	"duration", "latency", "throughput",
};
static const char *const bench_words[] = {
	"hackbench", "kernbench", "schedbench", "numa_test", "numabench", "perf", "messaging",
};

struct cand {           /* one mean line, read */
	struct rx_cap label, mean, sd, rest;
	int pct;
	int perf;               /* perf stat's "seconds time elapsed": sd is its SEM */
};

static int ci_find(const char *s, size_t len, const char *word)
{
	return str_find_ci(s, len, word) != NULL;
}

/* Cheap test before mean_rx: a "+/-", "+-", "±" or "sd"/"std"/"sigma". */
static int has_spread_mark(const struct ingest_line *l)
{
	const char *s = l->s;
	size_t i;

	for (i = 0; i + 1 < l->len; i++) {
		char c = s[i];
		if (c == '+' && (s[i + 1] == '-' || s[i + 1] == '/' ||
				 (s[i + 1] == ' ' && i + 2 < l->len && s[i + 2] == '/')))
			return 1;
		if ((unsigned char)c == 0xc2 && (unsigned char)s[i + 1] == 0xb1)
			return 1;
		if ((c == 's' || c == 'S') && (s[i + 1] == 'd' || s[i + 1] == 'D' ||
					       s[i + 1] == 't' || s[i + 1] == 'T' ||
					       s[i + 1] == 'i' || s[i + 1] == 'I'))
			return 1;
	}
	return 0;
}

static int read_mean(const struct ingest_line *l, struct cand *c)
{
	struct rx_cap cap[11];
	int k, i;

	if (!has_spread_mark(l))
		return 0;
	k = rx_match(&mean_rx, l->s, l->len, cap, 11);
	if (k <= 0)
		return 0;
	memset(c, 0, sizeof(*c));
	c->label = cap[1];
	c->mean = cap[2];
	for (i = 3; i <= 7; i += 2)
		if (i < k && cap[i].s) {
			c->sd = cap[i];
			c->pct = i + 1 < k && cap[i + 1].s != NULL;
		}
	if (k > 9 && cap[9].s)
		c->rest = cap[9];
	if (!c->sd.s)
		return 0;
	/* a label holds a letter: "1   1.296(+/- 2.06 %)" is a table row */
	for (i = 0; i < (int)c->label.len; i++)
		if (isalpha((unsigned char)c->label.s[i]))
			break;
	if (i == (int)c->label.len)
		return 0;
	/* what follows must be an annotation or a run count, else the line
	 * says more than this reader understands */
	if (c->rest.s && c->rest.len) {
		struct rx_cap r[2];
		if (!c->pct && rx_match(&perf_tail_rx, c->rest.s, c->rest.len, r, 1) > 0) {
			c->perf = 1;
			c->rest.len = 0;
		} else if (rx_match(&annot_rx, c->rest.s, c->rest.len, r, 1) <= 0 &&
			   rx_match(&line_runs_rx, c->rest.s, c->rest.len, r, 2) <= 0)
			return 0;
	}
	return 1;
}

static int is_mean_line(const struct ingest_line *l)
{
	struct cand c;
	int v = ingest_memo_get(l, MEMO_IM_MEAN);

	if (v < 0)
		ingest_memo_put(l, MEMO_IM_MEAN, v = read_mean(l, &c) ? 1 : 0);
	return v;
}

static int is_nospread_line(const struct ingest_line *l)
{
	struct rx_cap cap[1];

	return memchr(l->s, '%', l->len) && rx_match(&nospread_rx, l->s, l->len, cap, 1) > 0;
}

/* Does l name a benchmark this reader knows? */
static int names_bench(const struct ingest_line *l)
{
	return ci_find(l->s, l->len, "bench") || ci_find(l->s, l->len, "numa0") ||
	       ci_find(l->s, l->len, "sched/messaging");
}

static int has_digit(const struct ingest_line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (l->s[i] >= '0' && l->s[i] <= '9')
			return 1;
	return 0;
}

/* Cheap test before runs_rx. */
static int may_say_runs(const struct ingest_line *l)
{
	return ci_find(l->s, l->len, "run") || ci_find(l->s, l->len, "iteration") ||
	       ci_find(l->s, l->len, "repe") || ci_find(l->s, l->len, "trial") ||
	       ci_find(l->s, l->len, "sample") || ci_find(l->s, l->len, " -r");
}

static int says_runs(const struct ingest_line *l)
{
	struct rx_cap cap[6];

	return has_digit(l) && may_say_runs(l) && rx_match(&runs_rx, l->s, l->len, cap, 6) > 0;
}

/* A line between the heading and the means: blank, words without
 * numbers, a run count, or another heading.  A line with other numbers
 * may be output of its own (a "Time: 5.5"): the look-up stops there. */
static int context_line(const struct ingest_line *l)
{
	int v = ingest_memo_get(l, MEMO_IM_CONTEXT);

	if (v < 0) {
		v = ingest_line_blank(l) || !has_digit(l) || says_runs(l) || names_bench(l) ||
		    is_nospread_line(l);
		ingest_memo_put(l, MEMO_IM_CONTEXT, v);
	}
	return v;
}

/* The first mean line at most CTX_LINES lines after lines[i], with only
 * context lines between; n when there is none. */
static size_t next_mean(const struct ingest_line *lines, size_t i, size_t n)
{
	size_t j;

	for (j = i + 1; j < n && j <= i + CTX_LINES; j++) {
		if (is_mean_line(&lines[j]))
			return j;
		if (!context_line(&lines[j]))
			return n;
	}
	return n;
}

/* The mean lines from i on, with the blank lines and the labelled
 * numbers without a spread between them, and the next block under a
 * heading of its own ("numa02:") that goes on from them. */
static size_t block_end(const struct ingest_line *lines, size_t i, size_t n)
{
	size_t end = i, j;

	while (i < n) {
		if (ingest_line_blank(&lines[i]) || is_nospread_line(&lines[i])) {
			i++;
			continue;
		}
		if (is_mean_line(&lines[i])) {
			end = ++i;
			continue;
		}
		if (!names_bench(&lines[i]) || (j = next_mean(lines, i, n)) == n)
			break;
		i = j;
	}
	return end;
}

/* Parse ------------------------------------------------------------------ */

struct kv {
	const char *key;
	char value[64];
};

struct context {
	const char *bench;          /* NULL: none named */
	const char *metric, *unit;
	long bench_line;
	struct kv kv[8];
	size_t nkv;
	long n, n_line;             /* runs the means average, 0 unknown; where said */
	long n_prose, n_prose_line; /* said by a line that names no benchmark */
	const char *problem;        /* why the block is not stored */
	long unknown_line;          /* a heading naming a benchmark this does not read */
};

static void kv_set(struct context *c, const char *key, const char *fmt, long v, const char *s)
{
	size_t i;

	for (i = 0; i < c->nkv && strcmp(c->kv[i].key, key) != 0; i++)
		;
	if (i == c->nkv) {
		if (c->nkv == ARRAY_SIZE(c->kv))
			return;
		c->nkv++;
	}
	c->kv[i].key = key;
	if (s)
		snprintf(c->kv[i].value, sizeof(c->kv[i].value), "%s", s);
	else
		snprintf(c->kv[i].value, sizeof(c->kv[i].value), fmt, v);
}

/* A token without the quotes, brackets and punctuation prose puts
 * around a command; *last is set when punctuation ended it. */
static struct ingest_tok tok_clean(struct ingest_tok t, int *last)
{
	*last = 0;
	while (t.len && strchr("'\"`(<[", t.s[0])) {
		t.s++;
		t.len--;
	}
	while (t.len && strchr("'\"`)>],:;.", t.s[t.len - 1])) {
		if (strchr(",:;)", t.s[t.len - 1]) || t.s[t.len - 1] == '.')
			*last = 1;
		if (t.s[t.len - 1] == '\'' || t.s[t.len - 1] == '"' || t.s[t.len - 1] == '`')
			*last = 1;
		t.len--;
	}
	return t;
}

static int tok_base_is(const struct ingest_tok *t, const char *word)
{
	const char *s = t->s, *end = t->s + t->len, *p;
	size_t n = strlen(word);

	for (p = s; p < end; p++)
		if (*p == '/')
			s = p + 1;
	return (size_t)(end - s) == n && strncasecmp(s, word, n) == 0;
}

static int tok_num(const struct ingest_tok *t, long *v)
{
	return num_parse_long(t->s, t->len, v) == 0 && *v >= 0 ? 0 : -1;
}

/* Option value: "-g20", "-g=20", "--groups=20" or the next token. */
static int opt_value(const struct ingest_tok *tok, size_t ntok, size_t *k, size_t namelen,
		     long *v)
{
	struct ingest_tok t = tok[*k];
	int last;

	if (t.len > namelen) {
		t.s += namelen;
		t.len -= namelen;
		if (t.s[0] == '=') {
			t.s++;
			t.len--;
		}
		return tok_num(&t, v);
	}
	if (*k + 1 >= ntok)
		return -1;
	(*k)++;
	t = tok_clean(tok[*k], &last);
	return tok_num(&t, v);
}

/* Words prose may put after a command's positional numbers without
 * making them something else ("hackbench 20 on 2.6.32"). */
static int tok_joins(const struct ingest_tok *t)
{
	static const char *const w[] = { "on", "with", "for", "in", "under", "using", "at", "and" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (t->len == strlen(w[i]) && strncasecmp(t->s, w[i], t->len) == 0)
			return 1;
	return 0;
}

/* hackbench's options from tok[from..), up to the punctuation that ends
 * the command in prose: the keys hackbench.c uses. */
static void read_hackbench_args(struct context *c, const struct ingest_tok *tok, size_t ntok,
				size_t from, int perf)
{
	long groups = -1, loops = -1, fds = -1, v;
	long pos[2] = { -1, -1 };
	size_t k, npos = 0;
	int last = 0;

	kv_set(c, "ipc", NULL, 0, "socket");    /* socketpair() unless -p */
	if (perf)
		kv_set(c, "impl", NULL, 0, "perf");
	for (k = from; k < ntok && !last; k++) {
		struct ingest_tok t = tok_clean(tok[k], &last);
		size_t nl;
		long *dst = NULL;

		if (t.len == 0)
			continue;
		if ((nl = ingest_opt_match(&t, "-g")) || (nl = ingest_opt_match(&t, "--groups")) ||
		    (nl = ingest_opt_match(&t, "--group")))
			dst = &groups;
		else if ((nl = ingest_opt_match(&t, "-l")) || (nl = ingest_opt_match(&t, "--loops")) ||
			 (nl = ingest_opt_match(&t, "--nr_loops")))
			dst = &loops;
		else if (!perf && ((nl = ingest_opt_match(&t, "-s")) || (nl = ingest_opt_match(&t, "--datasize"))))
			dst = &v;
		else if (!perf && ((nl = ingest_opt_match(&t, "-f")) || (nl = ingest_opt_match(&t, "--fds"))))
			dst = &fds;
		if (dst) {
			long val;
			if (opt_value(tok, ntok, &k, nl, &val) < 0) {
				c->problem = "a hackbench option's number is missing or not a number";
				return;
			}
			*dst = val;
			if (dst == &v)
				kv_set(c, "datasize", "%ld", val, NULL);
			tok_clean(tok[k], &last);
			continue;
		}
		if (ingest_tok_is(&t, "-p") || ingest_tok_is(&t, "--pipe") || ingest_tok_is(&t, "-pipe"))
			kv_set(c, "ipc", NULL, 0, "pipe");
		else if ((!perf && ingest_tok_is(&t, "-T")) || (perf && ingest_tok_is(&t, "-t")) ||
			 ingest_tok_is(&t, "--threads") || ingest_tok_is(&t, "--thread") ||
			 ingest_tok_is(&t, "thread") || ingest_tok_is(&t, "threads"))
			kv_set(c, "mode", NULL, 0, "thread");
		else if (ingest_tok_is(&t, "-P") || ingest_tok_is(&t, "--process") ||
			 ingest_tok_is(&t, "process"))
			kv_set(c, "mode", NULL, 0, "process");
		else if (t.s[0] == '-')
			;   /* an option this reader does not need */
		else if (tok_num(&t, &v) == 0) {
			/* old hackbench: <groups> [process|thread] [loops] */
			if (npos < 2)
				pos[npos] = v;
			npos++;
		} else if (isdigit((unsigned char)t.s[0])) {
			c->problem = "a number after 'hackbench' cannot be read";
			return;
		} else {
			/* "hackbench 10 times": then the numbers were not its
			 * arguments; a word such as "on" leaves them be */
			if (npos && !tok_joins(&t)) {
				c->problem = "the numbers after 'hackbench' are not clearly its "
					     "arguments (a word follows them)";
				return;
			}
			break;
		}
	}
	if (npos > 2) {
		c->problem = "hackbench takes at most two numbers (groups, loops)";
		return;
	}
	if (groups < 0)
		groups = pos[0];
	if (loops < 0)
		loops = pos[1];
	if (groups >= 0)
		kv_set(c, "groups", "%ld", groups, NULL);
	if (loops >= 0)
		kv_set(c, "loops", "%ld", loops, NULL);
	if (fds >= 0)
		kv_set(c, "tasks", "%ld", (groups >= 0 ? groups : 10) * fds * 2, NULL);
}

static const char *kernbench_metric(const struct ingest_line *l, const char **problem)
{
	int el = ci_find(l->s, l->len, "elapsed") || ci_find(l->s, l->len, "wall") ||
		 ci_find(l->s, l->len, "real time");
	int us = ci_find(l->s, l->len, "user");
	int sy = ci_find(l->s, l->len, "system") || ci_find(l->s, l->len, "sys time");

	if (el + us + sy > 1) {
		*problem = "the kernbench heading names more than one metric";
		return NULL;
	}
	return el ? "elapsed" : us ? "user" : sy ? "system" : NULL;
}

/* What tok[k] names, when it names a benchmark: the name, and in bench
 * the part of the context it sets (metric, config from its arguments). */
static const char *token_bench(const struct ingest_line *l, const struct ingest_tok *tok,
			       size_t ntok, size_t k, struct context *bench)
{
	int last;
	struct ingest_tok t = tok_clean(tok[k], &last);

	bench->unit = "s";
	if (tok_base_is(&t, "perf") && k + 3 < ntok && ingest_tok_is(&tok[k + 1], "bench") &&
	    ingest_tok_is(&tok[k + 2], "sched")) {
		struct ingest_tok m = tok_clean(tok[k + 3], &last);
		if (!ingest_tok_is(&m, "messaging"))
			return NULL;
		bench->metric = "time";
		read_hackbench_args(bench, tok, last ? 0 : ntok, k + 4, 1);
		return "hackbench";
	}
	if (t.len == strlen("sched/messaging") && ci_find(t.s, t.len, "sched/messaging")) {
		bench->metric = "time";
		read_hackbench_args(bench, tok, last ? 0 : ntok, k + 1, 1);
		return "hackbench";
	}
	if (tok_base_is(&t, "hackbench")) {
		bench->metric = "time";
		read_hackbench_args(bench, tok, last ? 0 : ntok, k + 1, 0);
		return "hackbench";
	}
	if (tok_base_is(&t, "kernbench")) {
		size_t j;
		bench->metric = kernbench_metric(l, &bench->problem);
		if (!bench->metric && !bench->problem)
			bench->problem = "the kernbench heading does not say which time (elapsed, user "
					 "or system) the means are";
		for (j = 0; j < ntok; j++) {
			struct ingest_tok a = tok_clean(tok[j], &last);
			long v;
			size_t nl = ingest_opt_match(&a, "-j");
			if (nl && opt_value(tok, ntok, &j, nl, &v) == 0)
				kv_set(bench, "jobs", "%ld", v, NULL);
			else if (a.len == 7 && strncasecmp(a.s, "optimal", 7) == 0)
				kv_set(bench, "load", NULL, 0, "optimal");
			else if (a.len == 4 && strncasecmp(a.s, "half", 4) == 0)
				kv_set(bench, "load", NULL, 0, "half");
			else if (a.len == 7 && strncasecmp(a.s, "maximal", 7) == 0)
				kv_set(bench, "load", NULL, 0, "maximal");
		}
		return "kernbench";
	}
	if (t.len > 5 && strncmp(t.s, "numa0", 5) == 0 && (t.s[5] == '1' || t.s[5] == '2')) {
		size_t j;
		char name[128];
		for (j = 6; j < t.len && (isalnum((unsigned char)t.s[j]) || t.s[j] == '_'); j++)
			;
		if (j < t.len || (t.len > 6 && t.s[6] != '_') || t.len >= sizeof(name))
			return NULL;
		bench->metric = "elapsed";
		snprintf(name, sizeof(name), "%.*s", (int)t.len, t.s);
		kv_set(bench, "test", NULL, 0, name);
		return "autonuma";
	}
	if (tok_base_is(&t, "schedbench") || tok_base_is(&t, "numa_test")) {
		bench->problem = "inline means of numa_test are not read (which of its times they "
				 "are is not told)";
		return "numa_test";
	}
	return NULL;
}

/* Read a line above the means for what was measured.  The nearest line
 * that names a benchmark says it all: benchmark, metric, configuration. */
static void read_heading(struct context *c, const struct ingest_line *l)
{
	struct ingest_tok tok[MAX_TOKS];
	size_t ntok, k;
	const char *bench = NULL;
	struct context mine;

	if (!names_bench(l))
		return;
	ntok = ingest_split(l->s, l->len, tok, MAX_TOKS);
	if (ntok > MAX_TOKS)
		ntok = MAX_TOKS;
	memset(&mine, 0, sizeof(mine));
	for (k = 0; k < ntok; k++) {
		struct context other;
		const char *b;

		memset(&other, 0, sizeof(other));
		b = token_bench(l, tok, ntok, k, bench ? &other : &mine);
		if (!b)
			continue;
		if (bench && strcmp(bench, b) != 0) {
			mine.problem = "the heading names two benchmarks";
			break;
		}
		if (!bench)
			bench = b;
	}
	if (!bench) {
		c->unknown_line = l->lineno;
		return;
	}
	c->bench = bench;
	c->metric = mine.metric;
	c->unit = mine.unit;
	c->bench_line = l->lineno;
	/* a count on an earlier heading was that heading's ("8 runs each");
	 * one in prose that names no benchmark holds on */
	c->n = c->n_prose;
	c->n_line = c->n_prose_line;
	memcpy(c->kv, mine.kv, sizeof(c->kv));
	c->nkv = mine.nkv;
	c->problem = mine.problem;
}

/* "10 runs" and the like: the nearest line that says so gives n. */
static void read_runs(struct context *c, const struct ingest_line *l)
{
	struct rx_cap cap[6];
	long v, n = 0;
	int i;

	if (!says_runs(l) || rx_match(&runs_rx, l->s, l->len, cap, 6) <= 0)
		return;
	for (i = 1; i < 6; i++)
		if (cap[i].s && num_parse_long(cap[i].s, cap[i].len, &v) == 0 && v > 0)
			n = v;
	if (n) {
		c->n = n;
		c->n_line = l->lineno;
		if (c->bench_line != l->lineno) {
			c->n_prose = n;
			c->n_prose_line = l->lineno;
		}
	}
}

static int word_in(const struct ingest_tok *t, const char *const *w, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (t->len == strlen(w[k]) && strncasecmp(t->s, w[k], t->len) == 0)
			return 1;
	return 0;
}

/* Does the label name something other than a variant?  Returns what it
 * names and sets word to the word that tells. */
static const char *label_word(const struct rx_cap *label, char *word, size_t wsz)
{
	struct ingest_tok tok[MAX_LABEL_WORDS + 1];
	size_t n = ingest_split(label->s, label->len, tok, ARRAY_SIZE(tok)), i;

	if (n > MAX_LABEL_WORDS) {
		snprintf(word, wsz, "%zu words", n);
		return "reads as prose";
	}
	for (i = 0; i < n; i++) {
		int last;
		struct ingest_tok t = tok_clean(tok[i], &last);
		const char *what = word_in(&t, stat_words, ARRAY_SIZE(stat_words)) ? "names a statistic" :
			word_in(&t, change_words, ARRAY_SIZE(change_words)) ? "names a change" :
			word_in(&t, metric_words, ARRAY_SIZE(metric_words)) ? "names a metric" :
			word_in(&t, bench_words, ARRAY_SIZE(bench_words)) ? "names a benchmark" : NULL;
		if (what) {
			snprintf(word, wsz, "%.*s", (int)t.len, t.s);
			return what;
		}
		if (t.len > 5 && strncasecmp(t.s, "numa0", 5) == 0) {
			snprintf(word, wsz, "%.*s", (int)t.len, t.s);
			return "names a benchmark";
		}
	}
	return NULL;
}

/* One stretch of mean lines under the same context, with a hash set of
 * its labels (a label given twice is not stored twice). */
struct stretch {
	long first_line;            /* 0: none open */
	size_t stored;
	int any_pct, any_perf;
	const char **labels;        /* open addressing, cap a power of two */
	size_t cap;
};

/* Add label; 0 when it was there already. */
static int stretch_add_label(struct stretch *st, const char *label)
{
	size_t h, i;

	if (2 * (st->stored + 1) > st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 16, k;
		const char **v = xcalloc(cap, sizeof(*v));
		for (k = 0; k < st->cap; k++) {
			if (!st->labels[k])
				continue;
			for (i = str_hash_add(STR_HASH_INIT, st->labels[k]) & (cap - 1); v[i];
			     i = (i + 1) & (cap - 1))
				;
			v[i] = st->labels[k];
		}
		free(st->labels);
		st->labels = v;
		st->cap = cap;
	}
	h = str_hash_add(STR_HASH_INIT, label);
	for (i = h & (st->cap - 1); st->labels[i]; i = (i + 1) & (st->cap - 1))
		if (strcmp(st->labels[i], label) == 0)
			return 0;
	st->labels[i] = label;
	return 1;
}

static void stretch_close(struct rec_batch *out, const struct context *c, struct stretch *st)
{
	char cfg[512];
	size_t k, len = 0;

	if (st->first_line && st->stored) {
		cfg[0] = '\0';
		for (k = 0; k < c->nkv && len < sizeof(cfg); k++)
			len += (size_t)snprintf(cfg + len, sizeof(cfg) - len, "%s%s=%s", k ? "," : "",
						c->kv[k].key, c->kv[k].value);
		rec_note(out, st->first_line, "inline published means: %s %s (heading line %ld)%s%s, "
			 "n %s%s%s", c->bench, c->metric, c->bench_line, cfg[0] ? ", config " : "", cfg,
			 c->n_line ? arena_printf(&out->arena, "%ld (line %ld)", c->n, c->n_line) :
			 c->n ? arena_printf(&out->arena, "%ld (--set runs)", c->n) :
			 "unknown (unless a line says '(N runs)')",
			 st->any_pct ? "; sd = mean x pct / 100 where the spread is a percent" : "",
			 st->any_perf ? "; perf's '+-' is the error of the mean: sd = it x sqrt(n)" : "");
	}
	free(st->labels);
	memset(st, 0, sizeof(*st));
}

/* Store one mean line under c, or say why not. */
static void store_mean(const struct ingest_ctx *ctx, struct rec_batch *out,
		       const struct context *c, struct stretch *st, const struct ingest_line *l,
		       const struct cand *m)
{
	struct rec_summary *s;
	const char *why, *label;
	char word[128];
	double mean, sd;
	long n = c->n;
	size_t k;

	if (!st->first_line) {
		st->first_line = l->lineno;
		if (!c->bench && c->unknown_line) {
			rec_note(out, l->lineno, "published means not stored: the heading (line %ld) "
				 "names no benchmark kbench reads means of", c->unknown_line);
			return;
		}
		if (!c->bench) {
			rec_note(out, l->lineno, "published means not stored: no heading or command "
				 "line in the %d lines above names the benchmark", CTX_LINES);
			return;
		}
		if (c->problem || !c->metric) {
			rec_note(out, l->lineno, "published means not stored: %s (line %ld)",
				 c->problem ? c->problem : "the metric is not told", c->bench_line);
			return;
		}
	}
	if (!c->bench || c->problem || !c->metric)
		return;
	if ((why = label_word(&m->label, word, sizeof(word)))) {
		rec_note(out, l->lineno, "not stored: the label '%.*s' %s ('%s'), not a variant",
			 (int)m->label.len, m->label.s, why, word);
		return;
	}
	if (m->perf && strcmp(c->metric, "elapsed") != 0) {
		rec_note(out, l->lineno, "not stored: perf's time elapsed is not %s's %s",
			 c->bench, c->metric);
		return;
	}
	label = arena_strndup(&out->arena, m->label.s, m->label.len);
	if (num_parse(m->mean.s, m->mean.len, &mean) < 0 || num_parse(m->sd.s, m->sd.len, &sd) < 0)
		return;
	if (!stretch_add_label(st, label)) {
		rec_note(out, l->lineno, "not stored: '%s' has a mean already under this heading",
			 label);
		return;
	}
	if (m->rest.s && m->rest.len) {
		struct rx_cap r[2];
		long v;
		if (rx_match(&line_runs_rx, m->rest.s, m->rest.len, r, 2) == 2 &&
		    num_parse_long(r[1].s, r[1].len, &v) == 0 && v > 0)
			n = v;
		else
			rec_note(out, l->lineno, "the annotation '%.*s' is not stored",
				 (int)m->rest.len, m->rest.s);
	}
	if (n == 0 && ctx->opts && ctx->opts->runs > 0)
		n = ctx->opts->runs;
	if (m->pct) {
		sd = mean * sd / 100.0;
		st->any_pct = 1;
	}
	if (m->perf) {
		st->any_perf = 1;
		if (n > 0) {
			sd *= sqrt((double)n);
		} else {
			sd = NAN;
			rec_note(out, l->lineno, "sd unknown: perf's '+-' is the error of the mean, "
				 "and how many runs is not told");
		}
	}
	s = rec_summary_add(out, label, c->bench, c->metric, c->unit, l->lineno);
	for (k = 0; k < c->nkv; k++)
		rec_summary_config(out, s, c->kv[k].key, c->kv[k].value);
	s->mean = mean;
	s->sd = sd;
	s->n = n;
	st->stored++;
}

/*
 * One pass: the lines that are not means (headings, prose, run counts)
 * set the context for the means after them; a heading between two
 * stretches of means starts a new one ("numa01:" ... "numa02:").
 */
static size_t inlinemean_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			       size_t n, int *score)
{
	size_t j;

	(void)opts;
	*score = 0;
	if (n == 0)
		return 0;
	if (is_mean_line(&lines[0])) {
		/* no heading in the claim: parse() notes the block and stores
		 * nothing, so any other reader of these lines wins.  Bounded:
		 * when another reader wins on each of these lines, the block
		 * is asked for again at the next one. */
		*score = 30;
		return block_end(lines, 0, n < HEADLESS_MAX ? n : HEADLESS_MAX);
	}
	if (!names_bench(&lines[0]) && !says_runs(&lines[0]))
		return 0;
	if ((j = next_mean(lines, 0, n)) == n)
		return 0;
	*score = 90;
	{
		/* A heading that names no benchmark these means can be read
		 * for ("a workload of 'perf bench sched pipe'" over perf's
		 * own labelled "seconds time elapsed" lines) is prose: the
		 * means are claimed, if by no other reader, as a block under
		 * no heading (next_mean looks a bounded way ahead). */
		struct context c;
		size_t i;
		memset(&c, 0, sizeof(c));
		for (i = 0; i < j; i++)
			read_heading(&c, &lines[i]);
		if (!c.bench) {
			/* nor does a claim of this parser start at lines[1..j):
			 * their headings are a part of these, which name none */
			*score = -(int)j;
			return 0;
		}
	}
	return block_end(lines, j, n);
}

static int inlinemean_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			    size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct context c;
	struct stretch st;
	size_t i;

	(void)err;
	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	for (i = 0; i < n; i++) {
		const struct ingest_line *l = &lines[i];
		struct cand m;

		if (ingest_line_blank(l))
			continue;
		if (read_mean(l, &m)) {
			store_mean(ctx, out, &c, &st, l, &m);
			continue;
		}
		if (is_nospread_line(l)) {
			rec_note(out, l->lineno, "not stored: no '+/-' makes its percent a spread "
				 "(it may be a change)");
			continue;
		}
		if (st.first_line) {
			/* means were read: what follows is a heading of its own,
			 * and only a count in prose holds on from above */
			stretch_close(out, &c, &st);
			c.bench = c.metric = c.problem = NULL;
			c.nkv = 0;
			c.bench_line = c.unknown_line = 0;
			c.n = c.n_prose;
			c.n_line = c.n_prose_line;
		}
		read_heading(&c, l);
		read_runs(&c, l);
	}
	stretch_close(out, &c, &st);
	return 0;
}

const struct ingest_parser inlinemean_parser = {
	"inline-mean",
	"published means written inline: 'mainline : 3.871(+/- 0.84%)' under a heading",
	inlinemean_claim,
	inlinemean_parse,
};
