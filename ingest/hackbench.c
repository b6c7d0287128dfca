/*
 * hackbench.c - hackbench output, in all the shapes it turns up in.
 *
 * rt-tests (one block per invocation; "threaded" in thread mode):
 *
 *   Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)
 *   Each sender will pass 100 messages of 100 bytes
 *   Time: 0.454
 *
 * old hackbench: "Running with 10*40 (== 400) tasks." and/or just
 * "Time: 5.54"; some builds print "Each sender passed 100 messages of
 * 100 bytes in average".
 *
 * perf bench sched messaging (--format=simple prints a bare "0.630"
 * instead of the "Total time" line):
 *
 *   # Running 'sched/messaging' benchmark:
 *   # 20 sender and receiver processes per group
 *   # 10 groups == 400 processes run
 *
 *        Total time: 0.630 [sec]
 *
 * lkp's wrapper log (repeats the block per iteration, one or more
 * instances):
 *
 *   Instance: 1
 *   PATH=/lkp/benchmarks/hackbench/usr/local/bin:...
 *   Iterations: 1
 *   2026-07-19 18:06:13 hackbench -g 256 -f 20 --process --pipe -l 30000 -s 100
 *   Running in process mode with 256 groups using 40 file descriptors each (== 10240 tasks)
 *   Each sender will pass 30000 messages of 100 bytes
 *   perf version 7.2.rc3.g94515f3a7d42
 *   Time: 9.541
 *
 * Failures: "hackbench: invalid option -- 'x'", "Usage: hackbench ...",
 * "Signal 2 caught, longjmp'ing out!" (interrupted; "Time:" still follows,
 * the time until the signal), what hackbench prints when it kills its
 * children ("longjmp'ed out, reaping children", "sending SIGTERM to all
 * child processes", "signaling 160 worker threads to terminate") and a
 * child's "SENDER: write (error: Broken pipe)".  The reason stored is the
 * first such line, plus the first child error after a signal.
 *
 * One run per block, metric "time" in seconds.  A block ends with its
 * result (Time / Total time / bare number), or when the next block
 * starts.  Decisions:
 *  - "Iterations: N" sets the run's iteration.
 *  - lkp instances: when the segment holds more than one distinct
 *    "Instance: N", every run gets config instance=N (instances run
 *    different parameters side by side; lkp reports them separately).
 *    A single-instance log gets no instance key, so its runs compare
 *    with plain hackbench runs of the same parameters.
 *  - A block that started (iteration header, printed run header) but has
 *    no result line (a cut log, a killed run) becomes a failed run with
 *    the message "no result".  A failure line fails its block; a timing
 *    in a failed block is never stored.
 *  - The command line (-g -f -l -s --pipe --threads --process, old
 *    positional "10 process 100", perf's -g -l -p -t) carries over to
 *    the following blocks until the next command line or instance; the
 *    printed lines win over it.  ipc is known only from a command line
 *    (default socket); tasks only from the printed lines.
 */
#include "hackbench.h"
#include "parsers.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum hb_kind {
	HB_PROSE = 0,
	HB_BLANK,
	HB_NOISE,           /* inside a log, means nothing: PATH=, sysctl, perf version */
	HB_INSTANCE,
	HB_ITER,
	HB_CMD,
	HB_RUNNING,         /* rt-tests "Running in ... mode" */
	HB_RUNNING_OLD,     /* "Running with 10*40 (== 400) tasks." */
	HB_RUNNING_SHORT,   /* rt-tests' line without its "each (== 400 tasks)" */
	HB_SENDER,          /* "Each sender will pass" */
	HB_SENDER_OLD,      /* "Each sender passed ... in average" */
	HB_PERF_HDR,
	HB_PERF_FDS,
	HB_PERF_GROUPS,
	HB_TIME,            /* "Time: 0.454" */
	HB_TOTAL,           /* perf "Total time: 0.630 [sec]" */
	HB_BARE,            /* perf --format=simple */
	HB_FAIL,
	HB_TAIL,            /* the second half of a header that mail wrapped */
	HB_MULTI,           /* "hackbench 50: Time: 851.469 Time: 847.143" */
	HB_AVG,             /* the author's "Giving an average of 4.2371" */
	HB_LIST_RUNS,       /* "w/o: 7.689 7.485 7.485=7.553" under a header */
	HB_LIST_LABEL,      /* "w/ but dropped select_idle_cluster:", numbers next */
	HB_LIST_MORE,       /* "9.955=10.1006": the list above, wrapped */
};

/* A wrapped header joined again is at most this long. */
#define HB_JOIN_MAX 512

/* What the lines before this one imply about the next. */
struct hb_scan {
	int perf_open;      /* perf header seen, result not yet */
	int usage_open;     /* usage text seen: option lines follow */
	int tail_pending;   /* this line was joined to the one before */
	int had_result;     /* a result since the last average line */
	int block_open;     /* a header printed, no result yet */
	int list_open;      /* runs listed after labels under that header */
	int list_more;      /* the last list may go on on the next line */
	double list_min, list_max;  /* its smallest and largest time */
	int is_joined;      /* the last line classified is joined, in joined */
	struct ingest_line joined;
	char join[HB_JOIN_MAX];
};

static struct rx rx_running = RX("^\\s*Running\\s+in\\s+(process|threaded|thread)\\s+mode\\s+with\\s+"
				 "(\\d+)\\s+groups\\s+using\\s+(\\d+)\\s+file\\s+descriptors\\s+each\\s+"
				 "\\(==\\s*(\\d+)\\s+tasks\\)\\s*$");
/* The same cut short by the author or the mailer: no "each (== N tasks)" */
static struct rx rx_running_short = RX("^\\s*Running\\s+in\\s+(process|threaded|thread)\\s+mode\\s+with\\s+"
				       "(\\d+)\\s+groups\\s+using\\s+(\\d+)\\s+file\\s+descriptors(?:\\s+each)?\\s*$");
static struct rx rx_running_old = RX("^\\s*Running\\s+with\\s+(\\d+)\\s*\\*\\s*(\\d+)\\s+"
				     "\\(==\\s*(\\d+)\\)\\s+tasks\\.?\\s*$");
static struct rx rx_sender = RX("^\\s*Each\\s+sender\\s+will\\s+pass\\s+(\\d+)\\s+messages\\s+"
				"of\\s+(\\d+)\\s+bytes\\s*$");
static struct rx rx_sender_old = RX("^\\s*Each\\s+sender\\s+passed\\s+(\\d+)\\s+messages\\s+"
				    "of\\s+(\\d+)\\s+bytes\\s+in\\s+average\\s*$");
static struct rx rx_perf_hdr = RX("^\\s*#\\s*Running\\s+'?sched/messaging'?\\s+benchmark");
static struct rx rx_perf_fds = RX("^\\s*#\\s*(\\d+)\\s+sender\\s+and\\s+receiver\\s+"
				  "(processes|threads)\\s+per\\s+group\\s*$");
static struct rx rx_perf_groups = RX("^\\s*#\\s*(\\d+)\\s+groups\\s+==\\s+(\\d+)\\s+"
				     "(processes|threads)\\s+run\\s*$");
static struct rx rx_time = RX("^\\s*Time:\\s*(\\S+)\\s*$");
/* The value, then whatever follows it ("( + 3 % vs base)", "sec") */
static struct rx rx_time_any = RX("^\\s*Time:\\s*([^\\s(\\[]+)\\s*(.*)$");
static struct rx rx_total = RX("^\\s*Total\\s+time:\\s*([^\\s(\\[]+)\\s*\\[sec\\]\\s*(.*)$");
static struct rx rx_avg = RXI("^\\s*(?:(?:giving|gives|gave|that\\s+is|i\\.e\\.)\\s+)?(?:an?\\s+|the\\s+)?"
			      "(?:avg|average|mean)(?:\\s+time)?(?:\\s+(?:is|was|of))?\\s*[:=]?\\s*"
			      "(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(?:s|secs?|seconds)?\\s*\\.?\\s*$");
static struct rx rx_bare = RX("^\\s*(\\d+\\.\\d+)\\s*$");
static struct rx rx_instance = RX("^\\s*Instance:\\s*(\\d+)\\s*$");
static struct rx rx_iter = RX("^\\s*Iterations?:\\s*(\\d+)\\s*$");
static struct rx rx_signal = RX("^\\s*Signal\\s+(\\d+)\\s+caught");
static struct rx rx_badopt = RX("^\\s*(?:\\S*/)?hackbench:\\s+(?:invalid|unrecognized|unknown)\\s+option"
				"|^\\s*(?:\\S*/)?hackbench:\\s+option\\s+.*requires\\s+an\\s+argument");
static struct rx rx_usage = RX("^\\s*Usage:\\s+(?:\\S*/)?hackbench\\b"
			       "|^\\s*Usage:\\s+perf\\s+bench\\s+sched\\s+messaging\\b"
			       "|^\\s*(?:\\S*/)?hackbench\\s+<options>\\s*$");
static struct rx rx_env = RX("^\\s*[A-Za-z_][A-Za-z0-9_]*=");
static struct rx rx_sysctl = RX("^\\s*[a-z][a-z0-9_]*(?:\\.[A-Za-z0-9_-]+)+\\s*=\\s*\\S+\\s*$");
static struct rx rx_noise = RX("^\\s*(?:perf\\s+version\\s|(?:\\S*/)?hackbench\\s+V\\s+\\S+\\s*$"
			       "|Usage:\\s*$)");
/* What rt-tests hackbench prints when it kills its children (after a
 * signal, or when they could not all start) and what a child prints when
 * its peer is gone; the shell's line for a killed job. */
static struct rx rx_childfail = RX("^\\s*(?:(?:perf:\\s+)?(?:SENDER|RECEIVER):\\s+(?:write|read)\\b"
				   "|signaling\\s+\\d+\\s+worker\\s+threads?\\s+to\\s+terminate"
				   "|sending\\s+SIGTERM\\s+to\\s+all\\s+child"
				   "|longjmp'ed\\s+out"
				   "|\\d+\\s+children\\s+started\\.\\s+Expected\\s+\\d+"
				   "|Unable\\s+to\\s+start\\s+all\\s+workers"
				   "|(?:\\S+:\\s+line\\s+\\d+:\\s+)?\\d+\\s+(?:Killed|Terminated|Interrupt)\\s+.*\\bhackbench\\b)");
static struct rx rx_optline = RX("^\\s*-{1,2}[A-Za-z]");

static const char *tok_base(const struct ingest_tok *t, size_t *len)
{
	const char *s = t->s, *end = t->s + t->len, *p;

	for (p = s; p < end; p++)
		if (*p == '/')
			s = p + 1;
	*len = (size_t)(end - s);
	return s;
}

static int tok_is_base(const struct ingest_tok *t, const char *word)
{
	size_t len, n = strlen(word);
	const char *s = tok_base(t, &len);

	return len == n && memcmp(s, word, n) == 0;
}

/* A shell prompt as one token: "root@box:~#", "me@host:~/rt-tests$",
 * "~]#" (of "[root@box ~]#"), "box:/tmp>", or the "[root@box" that
 * opens a bracketed one.  A bare word ending in '#' or '$' is not. */
static int tok_is_prompt(const struct ingest_tok *t)
{
	char last;

	if (t->len < 2)
		return 0;
	if (t->s[0] == '[' && memchr(t->s, '@', t->len))
		return 1;
	last = t->s[t->len - 1];
	if (last != '$' && last != '#' && last != '%' && last != '>')
		return 0;
	return memchr(t->s, '@', t->len) || memchr(t->s, ':', t->len) ||
	       memchr(t->s, ']', t->len) || memchr(t->s, '~', t->len);
}

/* A date, a clock, a prompt: what may stand before the program name. */
static int tok_is_prefix(const struct ingest_tok *t)
{
	size_t i;

	if (ingest_tok_is(t, "$") || ingest_tok_is(t, "#") || ingest_tok_is(t, "+") ||
	    tok_is_prompt(t))
		return 1;
	for (i = 0; i < t->len; i++)
		if (!strchr("0123456789-:.T+,[]", t->s[i]))
			return 0;
	return t->len > 0;
}

/* A program that runs the next one: "taskset -c 0,1,2,3 hackbench ...",
 * "numactl -N 0 hackbench ...", "sudo", "time". */
static int tok_is_wrapper(const struct ingest_tok *t)
{
	static const char *const words[] = {
		"taskset", "numactl", "chrt", "nice", "ionice", "sudo", "time", "nohup", "env",
	};
	size_t i, len;
	const char *b = tok_base(t, &len);

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (len == strlen(words[i]) && memcmp(b, words[i], len) == 0)
			return 1;
	return 0;
}

/* A shell variable in a script's command line: "-g $1", "${groups}". */
static int tok_is_shell_var(const struct ingest_tok *t)
{
	return t->len > 1 && t->s[0] == '$';
}

static int tok_is_arg(const struct ingest_tok *t)
{
	double v;

	if (t->len && t->s[0] == '-')
		return 1;
	if (tok_is_shell_var(t))
		return 1;
	if (num_parse(t->s, t->len, &v) == 0)
		return 1;
	return ingest_tok_is(t, "process") || ingest_tok_is(t, "thread") ||
	       ingest_tok_is(t, "threads");
}

#define HB_MAXTOK 64
/* At most this many tokens before the program (prompt, date, wrappers) */
#define HB_MAXPREFIX 10

/* Index of the program token (hackbench, or perf of "perf bench sched
 * messaging") when the line is a command line; -1 otherwise.  *perf is
 * set for perf. */
static int cmd_start(const struct ingest_tok *tok, size_t ntok, int *perf)
{
	size_t i, k, args = 0;
	int wrapped = 0;

	*perf = 0;
	for (i = 0; i < ntok && i < HB_MAXPREFIX; i++) {
		if (tok_is_base(&tok[i], "hackbench")) {
			args = i + 1;
			break;
		}
		if (tok_is_base(&tok[i], "perf") && i + 3 < ntok &&
		    ingest_tok_is(&tok[i + 1], "bench") && ingest_tok_is(&tok[i + 2], "sched") &&
		    ingest_tok_is(&tok[i + 3], "messaging")) {
			*perf = 1;
			args = i + 4;
			break;
		}
		if (tok_is_wrapper(&tok[i])) {
			wrapped = 1;
			continue;
		}
		/* a wrapper's options and their values */
		if (wrapped && tok[i].len && (tok[i].s[0] == '-' || memchr(tok[i].s, '=', tok[i].len) ||
					      tok_is_arg(&tok[i])))
			continue;
		if (!tok_is_prefix(&tok[i]))
			return -1;
	}
	if (i == ntok || i == HB_MAXPREFIX)
		return -1;
	/* A bare "hackbench" with neither prefix nor argument is a word. */
	if (i == 0 && args == ntok && !*perf)
		return -1;
	for (k = args; k < ntok; k++)
		if (!tok_is_arg(&tok[k]))
			return -1;
	return (int)i;
}

/* has_hb: whether l contains "hackbench" (the caller has looked). */
static int is_cmd(const struct ingest_line *l, int has_hb)
{
	struct ingest_tok tok[HB_MAXTOK];
	const char *p = str_skip_ws(l->s, l->s + l->len), *e;
	size_t ntok;
	int perf;

	if (!has_hb && !str_find(l->s, l->len, "messaging"))
		return 0;
	/* cmd_start refuses a line whose first token is neither a prefix nor
	 * the program: look at that token before splitting the whole line
	 * (numa_test posts quote "Running 'hackbench 20' ..." per block). */
	for (e = p; e < l->s + l->len && *e != ' ' && *e != '\t'; e++)
		;
	tok[0].s = p;
	tok[0].len = (size_t)(e - p);
	if (!tok_is_base(&tok[0], "hackbench") && !tok_is_base(&tok[0], "perf") &&
	    !tok_is_prefix(&tok[0]) && !tok_is_wrapper(&tok[0]))
		return 0;
	ntok = ingest_split(l->s, l->len, tok, HB_MAXTOK);
	if (ntok == 0 || ntok > HB_MAXTOK)
		return 0;
	return cmd_start(tok, ntok, &perf) >= 0;
}

static int is_number_cap(const char *s, size_t len)
{
	double v;

	return num_parse(s, len, &v) == 0;
}

/* Cheap test before rx_childfail: does p[0..len) start like one? */
static int child_fail_start(const char *p, size_t len)
{
	static const char *const starts[] = {
		"SENDER:", "RECEIVER:", "perf: SENDER:", "perf: RECEIVER:", "signaling ",
		"sending SIGTERM", "longjmp'ed", "Unable to start",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(starts); i++)
		if (len >= strlen(starts[i]) && memcmp(p, starts[i], strlen(starts[i])) == 0)
			return 1;
	/* "80 children started.  Expected 160", the shell's "... Killed ... hackbench" */
	return ((*p >= '0' && *p <= '9') || *p == 'b') &&
	       (str_find(p, len, "children started") || str_find(p, len, "hackbench"));
}

/* What follows the value on a "Time:" line. */
enum hb_tail {
	TAIL_NONE,          /* nothing */
	TAIL_UNIT,          /* "s", "sec", "seconds" */
	TAIL_NOTE,          /* an annotation: "( + 3 % vs base)", "-45% regression", "[+-1.3%]" */
	TAIL_OTHER,         /* words that are neither: the line is not a result */
};

static enum hb_tail time_tail(const char *s, size_t len)
{
	static const char *const units[] = { "s", "sec", "sec.", "secs", "seconds", "[sec]" };
	static const char *const words[] = {
		"regression", "improvement", "better", "worse", "faster", "slower",
		"vs", "vs.", "versus", "gain", "loss",
	};
	const char *end = s + len, *w;
	size_t i, wl;

	s = str_skip_ws(s, end);
	if (s == end)
		return TAIL_NONE;
	for (w = s; w < end && *w != ' '; w++)
		;
	wl = (size_t)(w - s);
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (wl == strlen(units[i]) && strncasecmp(s, units[i], wl) == 0) {
			s = str_skip_ws(w, end);
			break;
		}
	if (s == end)
		return TAIL_UNIT;
	if (*s == '(' || *s == '[' || *s == '<' || memchr(s, '%', (size_t)(end - s)))
		return TAIL_NOTE;
	for (w = s; w < end && *w != ' '; w++)
		;
	wl = (size_t)(w - s);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (wl == strlen(words[i]) && strncasecmp(s, words[i], wl) == 0)
			return TAIL_NOTE;
	return TAIL_OTHER;
}

/* A line of several results, or results after the command that printed
 * them (the first posts of hackbench did this):
 *   hackbench 50: Time: 851.469 Time: 847.143 Time: 826.868
 *   Time: 5.54 Time: 5.61
 * Returns the number of results and sets *cmd_tok to the number of
 * tokens of the command before them (its last one ends in ':'); 0 when
 * the line is not one.  tok holds HB_MAXTOK tokens. */
static size_t multi_times(const struct ingest_line *l, struct ingest_tok *tok, size_t *ntok,
			  size_t *cmd_tok)
{
	size_t n = ingest_split(l->s, l->len, tok, HB_MAXTOK), k, t0, res = 0;
	int perf;

	*ntok = n;
	if (n < 2 || n > HB_MAXTOK)
		return 0;
	for (t0 = 0; t0 < n && !ingest_tok_is(&tok[t0], "Time:"); t0++)
		;
	if (t0 == n || (n - t0) % 2)
		return 0;
	for (k = t0; k < n; k += 2) {
		if (!ingest_tok_is(&tok[k], "Time:") || !is_number_cap(tok[k + 1].s, tok[k + 1].len))
			return 0;
		res++;
	}
	if (t0 > 0) {
		struct ingest_tok last = tok[t0 - 1];
		if (last.len < 2 || last.s[last.len - 1] != ':')
			return 0;
		tok[t0 - 1].len--;
		k = cmd_start(tok, t0, &perf) >= 0;
		tok[t0 - 1] = last;
		if (!k)
			return 0;
	} else if (res < 2) {
		return 0;
	}
	*cmd_tok = t0;
	return res;
}

/* A header that mail wrapped ("... using 40 file descriptors" / "each
 * (== 400 tasks)"): when l and next, joined by one blank, match rx, the
 * joined line is sc->joined, next is to be taken as its tail, and 1 is
 * returned. */
static int join_hit(struct rx *rx, const struct ingest_line *l, const struct ingest_line *next,
		    struct hb_scan *sc)
{
	struct rx_cap cap[1];
	const char *t;
	size_t tlen, len;

	if (!next)
		return 0;
	t = str_skip_ws(next->s, next->s + next->len);
	tlen = (size_t)(next->s + next->len - t);
	len = l->len + 1 + tlen;
	if (tlen == 0 || len + 1 > sizeof(sc->join))
		return 0;
	memcpy(sc->join, l->s, l->len);
	sc->join[l->len] = ' ';
	memcpy(sc->join + l->len + 1, t, tlen);
	sc->join[len] = '\0';
	if (rx_match(rx, sc->join, len, cap, 1) <= 0)
		return 0;
	sc->joined.s = sc->join;
	sc->joined.len = len;
	sc->joined.lineno = l->lineno;
	sc->is_joined = 1;
	sc->tail_pending = 1;
	return 1;
}

/* Classify one line; next is the line after it (NULL at the end), for a
 * header that mail wrapped.  sc carries what earlier lines implied (may
 * be updated).  first: the line would start a claim, where noise cannot
 * stand, so the noise patterns are not tried (claim() stays cheap). */
static enum hb_kind classify_line(const struct ingest_line *l, const struct ingest_line *next,
				  struct hb_scan *sc, int first)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t rest = (size_t)(l->s + l->len - p);
	struct ingest_tok tok[HB_MAXTOK];
	size_t ntok, cmd_tok;
	struct rx_cap cap[3];
	int has_hb;

	sc->is_joined = 0;
	if (sc->tail_pending) {
		sc->tail_pending = 0;
		return HB_TAIL;
	}
	if (rest == 0)
		return HB_BLANK;
	switch (*p) {
	case 'R':
		if (rest > 8 && memcmp(p, "Running ", 8) == 0) {
			if (ingest_line_matches(&rx_running, l))
				return HB_RUNNING;
			if (ingest_line_matches(&rx_running_old, l))
				return HB_RUNNING_OLD;
			if (join_hit(&rx_running, l, next, sc))
				return HB_RUNNING;
			if (join_hit(&rx_running_old, l, next, sc))
				return HB_RUNNING_OLD;
			if (ingest_line_matches(&rx_running_short, l))
				return HB_RUNNING_SHORT;
		}
		break;
	case 'E':
		if (rest > 12 && memcmp(p, "Each sender ", 12) == 0) {
			if (ingest_line_matches(&rx_sender, l))
				return HB_SENDER;
			if (ingest_line_matches(&rx_sender_old, l))
				return HB_SENDER_OLD;
			if (join_hit(&rx_sender, l, next, sc))
				return HB_SENDER;
			if (join_hit(&rx_sender_old, l, next, sc))
				return HB_SENDER_OLD;
		}
		break;
	case '#':
		if (ingest_line_matches(&rx_perf_hdr, l)) {
			sc->perf_open = 1;
			return HB_PERF_HDR;
		}
		if (ingest_line_matches(&rx_perf_fds, l)) {
			sc->perf_open = 1;
			return HB_PERF_FDS;
		}
		if (ingest_line_matches(&rx_perf_groups, l)) {
			sc->perf_open = 1;
			return HB_PERF_GROUPS;
		}
		break;
	case 'T':
		if (rest > 5 && memcmp(p, "Time:", 5) == 0) {
			if (str_find(p + 5, rest - 5, "Time:") && multi_times(l, tok, &ntok, &cmd_tok)) {
				sc->had_result = 1;
				return HB_MULTI;
			}
			if (rx_match(&rx_time_any, l->s, l->len, cap, 3) > 1) {
				enum hb_tail tail = cap[2].s ? time_tail(cap[2].s, cap[2].len) : TAIL_NONE;
				if (tail == TAIL_OTHER)
					return HB_PROSE;
				/* inside a block a garbled time is an error, not prose */
				if (is_number_cap(cap[1].s, cap[1].len) ||
				    (!first && ((cap[1].s[0] >= '0' && cap[1].s[0] <= '9') ||
						cap[1].s[0] == '.'))) {
					sc->had_result = 1;
					return HB_TIME;
				}
			}
			return HB_PROSE;
		}
		if (sc->perf_open && rest > 6 && memcmp(p, "Total", 5) == 0 &&
		    rx_match(&rx_total, l->s, l->len, cap, 3) > 1 &&
		    is_number_cap(cap[1].s, cap[1].len) &&
		    (!cap[2].s || time_tail(cap[2].s, cap[2].len) != TAIL_OTHER)) {
			sc->perf_open = 0;
			sc->had_result = 1;
			return HB_TOTAL;
		}
		break;
	case 'I':
		if (ingest_line_matches(&rx_instance, l))
			return HB_INSTANCE;
		if (ingest_line_matches(&rx_iter, l))
			return HB_ITER;
		break;
	case 'S':
		if (ingest_line_matches(&rx_signal, l))
			return HB_FAIL;
		break;
	case '-':
		if (sc->usage_open && ingest_line_matches(&rx_optline, l))
			return HB_NOISE;
		break;
	default:
		if (sc->perf_open && *p >= '0' && *p <= '9' &&
		    ingest_line_matches(&rx_bare, l)) {
			sc->perf_open = 0;
			sc->had_result = 1;
			return HB_BARE;
		}
		break;
	}
	if (child_fail_start(p, rest) && ingest_line_matches(&rx_childfail, l))
		return HB_FAIL;
	/* p only skips blanks, so "hackbench" is in p exactly when in l */
	has_hb = str_find(p, rest, "hackbench") != NULL;
	if (has_hb || str_find(p, rest, "Usage:")) {
		if (ingest_line_matches(&rx_badopt, l) ||
		    ingest_line_matches(&rx_usage, l)) {
			sc->usage_open = 1;
			return HB_FAIL;
		}
	}
	if (has_hb && str_find(p, rest, "Time:") && multi_times(l, tok, &ntok, &cmd_tok)) {
		sc->usage_open = 0;
		sc->had_result = 1;
		return HB_MULTI;
	}
	if (is_cmd(l, has_hb)) {
		sc->usage_open = 0;
		return HB_CMD;
	}
	if (first)
		return HB_PROSE;
	/* The author's own mean, after the runs it is the mean of. */
	if (sc->had_result && ingest_line_matches(&rx_avg, l)) {
		sc->had_result = 0;
		return HB_AVG;
	}
	if (ingest_line_matches(&rx_noise, l) ||
	    ingest_line_matches(&rx_env, l) ||
	    ingest_line_matches(&rx_sysctl, l))
		return HB_NOISE;
	/* Usage text goes on with indented option descriptions. */
	if (sc->usage_open && ingest_line_matches(&rx_optline, l))
		return HB_NOISE;
	return HB_PROSE;
}

/* Is the token a time of a list, "7.674" or "7.674=7.5853"? */
static int tok_is_list_time(const struct ingest_tok *t)
{
	const char *eq = memchr(t->s, '=', t->len);

	if (!eq)
		return is_number_cap(t->s, t->len);
	return is_number_cap(t->s, (size_t)(eq - t->s)) &&
	       is_number_cap(eq + 1, (size_t)(t->s + t->len - eq - 1));
}

/* Runs of one command vary by tens of percent, not by factors: a row
 * whose largest time is more than this times its smallest is a row of
 * a table over some parameter (a transposed table of means per group
 * count), not runs. */
#define HB_LIST_SPREAD 1.5
/* A label is a short name ("w/o", "w/ but dropped select_idle_cluster"),
 * not a sentence ending in a colon. */
#define HB_LABEL_WORDS 6

/* A line of a list of runs after a label (parse_list), read only under a
 * header that has no result yet, or after such a list: HB_PROSE when not. */
static enum hb_kind list_line(const struct ingest_line *l, struct hb_scan *sc)
{
	struct ingest_tok tok[HB_MAXTOK];
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len, *colon, *q;
	size_t ntok, i;
	enum hb_kind k = HB_LIST_MORE;
	double lo = sc->list_min, hi = sc->list_max;

	colon = memchr(p, ':', (size_t)(end - p));
	if (colon) {
		/* a label: words, not a number, not another tool's "Name: value" */
		if (colon == p || colon - p > 80 || (!sc->list_open && !sc->block_open))
			return HB_PROSE;
		for (q = p; q < colon && (*q == ' ' || (*q >= '0' && *q <= '9') || *q == '.'); q++)
			;
		if (q == colon || ingest_split(p, (size_t)(colon - p), tok, HB_MAXTOK) > HB_LABEL_WORDS)
			return HB_PROSE;
		p = colon + 1;
		k = HB_LIST_RUNS;
	} else if (!sc->list_more) {
		return HB_PROSE;
	}
	ntok = ingest_split(p, (size_t)(end - p), tok, HB_MAXTOK);
	if (ntok > HB_MAXTOK)
		return HB_PROSE;
	if (ntok == 0) {
		if (k != HB_LIST_RUNS)
			return HB_PROSE;
		k = HB_LIST_LABEL;
	}
	for (i = 0; i < ntok; i++) {
		const char *eq = memchr(tok[i].s, '=', tok[i].len);
		double v;
		if (!tok_is_list_time(&tok[i]) || (i + 1 < ntok && eq))
			return HB_PROSE;
		num_parse(tok[i].s, eq ? (size_t)(eq - tok[i].s) : tok[i].len, &v);
		if (i == 0 && (k != HB_LIST_MORE || lo <= 0))
			lo = hi = v;    /* the list's first times */
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!ntok)
		lo = hi = 0;    /* a label alone: its times come next */
	else if (lo <= 0 || hi > lo * HB_LIST_SPREAD)
		return HB_PROSE;
	sc->list_min = lo;
	sc->list_max = hi;
	sc->list_open = 1;
	/* "=MEAN" closes the list; a label alone wants its numbers next */
	sc->list_more = k == HB_LIST_LABEL || !memchr(tok[ntok - 1].s, '=', tok[ntok - 1].len);
	return k;
}

/* classify_line, and what the kind says of the lines after it. */
static enum hb_kind classify(const struct ingest_line *l, const struct ingest_line *next,
			     struct hb_scan *sc, int first)
{
	enum hb_kind k = classify_line(l, next, sc, first);

	switch (k) {
	case HB_RUNNING:
	case HB_RUNNING_OLD:
	case HB_RUNNING_SHORT:
	case HB_SENDER:
	case HB_SENDER_OLD:
	case HB_PERF_HDR:
	case HB_PERF_FDS:
	case HB_PERF_GROUPS:
		sc->block_open = 1;
		sc->list_open = sc->list_more = 0;
		break;
	case HB_TIME:
	case HB_TOTAL:
	case HB_BARE:
	case HB_MULTI:
	case HB_FAIL:
	case HB_AVG:
	case HB_CMD:
	case HB_ITER:
	case HB_INSTANCE:
		sc->block_open = sc->list_open = sc->list_more = 0;
		break;
	case HB_PROSE:
		if (!first && (sc->block_open || sc->list_open || sc->list_more))
			k = list_line(l, sc);
		break;
	default:
		break;
	}
	return k;
}

/* Lines that make a run (a command line or an instance header alone
 * make none). */
static int kind_is_output(enum hb_kind k)
{
	return k != HB_PROSE && k != HB_BLANK && k != HB_NOISE && k != HB_INSTANCE &&
	       k != HB_CMD && k != HB_TAIL;
}

/* Lines that end a run: its result or its failure. */
static int kind_closes(enum hb_kind k)
{
	return k == HB_TIME || k == HB_TOTAL || k == HB_BARE || k == HB_MULTI || k == HB_FAIL ||
	       k == HB_AVG || k == HB_LIST_RUNS || k == HB_LIST_MORE;
}

/* Lines that hackbench itself prints (as opposed to a wrapper's). */
static int kind_is_strong(enum hb_kind k)
{
	return k == HB_RUNNING || k == HB_RUNNING_OLD || k == HB_RUNNING_SHORT || k == HB_SENDER || k == HB_SENDER_OLD ||
	       k == HB_PERF_HDR || k == HB_PERF_FDS || k == HB_PERF_GROUPS || k == HB_CMD ||
	       k == HB_FAIL || k == HB_TOTAL || k == HB_BARE || k == HB_MULTI;
}

static size_t hackbench_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	struct hb_scan sc;
	size_t i, end = 0, closed = 0;
	int strong = 0, timed = 0, output = 0, open = 0;
	enum hb_kind k;

	*score = 0;
	if (n == 0)
		return 0;
	memset(&sc, 0, sizeof(sc));
	k = classify(&lines[0], n > 1 ? &lines[1] : NULL, &sc, 1);
	if (k == HB_PROSE || k == HB_BLANK || k == HB_NOISE)
		return 0;
	for (i = 0; i < n; i++) {
		if (i > 0)
			k = classify(&lines[i], i + 1 < n ? &lines[i + 1] : NULL, &sc, 0);
		if (k == HB_PROSE)
			break;
		if (k == HB_BLANK || k == HB_NOISE)
			continue;
		end = i + 1;
		if (kind_closes(k)) {
			closed = end;
			open = 0;
		} else if (kind_is_output(k)) {
			open |= k == HB_ITER ? 2 : 1;
		}
		output |= kind_is_output(k);
		if (kind_is_strong(k))
			strong = 1;
		else if (k == HB_TIME)
			timed = 1;
	}
	/* Printed headers with no result, and then prose: an example of the
	 * output in a post (a cut log ends the file, a killed run says so),
	 * so not a run; the lines stay prose. */
	if (i < n && open == 1) {
		end = closed;
		output = closed > 0;
	}
	if (!output) {
		/* Command lines and nothing they printed (a driver script, a
		 * prompt above prose or a table): no run, so no claim.  Every
		 * claim starting before line i would see the same lines. */
		*score = -(int)(i < INT_MAX ? i : INT_MAX);
		return 0;
	}
	if (strong)
		*score = 90;
	else if (timed)
		*score = 40;        /* a bare "Time: 5.54" is weak evidence */
	else {
		/* No evidence up to line i: a claim starting anywhere before
		 * it would look at fewer of the same lines. */
		*score = -(int)(i < INT_MAX ? i : INT_MAX);
		return 0;
	}
	return end;
}

/* Parse ------------------------------------------------------------------ */

struct hb_config {
	long groups, tasks, loops, datasize;
	const char *mode, *ipc, *impl;
};

struct hb_block {
	int started;        /* a run is under way: header, iteration or failure seen */
	long line;          /* first line of the block (0: none yet) */
	int iteration;
	int has_running, has_sender, has_perf;
	const char *fail;
	int child_failed;   /* a SENDER/RECEIVER error is in fail */
	struct hb_config cfg;
};

struct hb_state {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	struct kb_err *err;
	struct hb_config cmd;       /* from the last command line */
	struct hb_block blk;
	long instance;
	int multi_instance;
	const char *cmd_machine;    /* the host of the last command's prompt */
	size_t avg_first;           /* first run an author's average would be of */
	struct hb_config list_cfg;  /* the header's config, for runs listed after labels */
	const char *list_variant;   /* the label of the list being read */
	size_t list_first;          /* its first run */
	struct rec_run *last;       /* run emitted by the last result line */
	int last_has_sender;
};

static void config_clear(struct hb_config *c)
{
	c->groups = c->tasks = c->loops = c->datasize = -1;
	c->mode = c->ipc = c->impl = NULL;
}

static void config_merge(struct hb_config *dst, const struct hb_config *src)
{
	if (src->groups >= 0)
		dst->groups = src->groups;
	if (src->tasks >= 0)
		dst->tasks = src->tasks;
	if (src->loops >= 0)
		dst->loops = src->loops;
	if (src->datasize >= 0)
		dst->datasize = src->datasize;
	if (src->mode)
		dst->mode = src->mode;
	if (src->ipc)
		dst->ipc = src->ipc;
	if (src->impl)
		dst->impl = src->impl;
}

static void block_reset(struct hb_block *b)
{
	memset(b, 0, sizeof(*b));
	config_clear(&b->cfg);
}

static void block_touch(struct hb_block *b, const struct ingest_line *l)
{
	if (!b->line)
		b->line = l->lineno;
}

static void run_config_long(struct hb_state *st, struct rec_run *r, const char *key, long v)
{
	if (v >= 0)
		rec_run_configf(st->out, r, key, "%ld", v);
}

static void apply_config(struct hb_state *st, struct rec_run *r, const struct hb_config *c)
{
	run_config_long(st, r, "groups", c->groups);
	run_config_long(st, r, "tasks", c->tasks);
	run_config_long(st, r, "loops", c->loops);
	run_config_long(st, r, "datasize", c->datasize);
	if (c->mode)
		rec_run_config(st->out, r, "mode", c->mode);
	if (c->ipc)
		rec_run_config(st->out, r, "ipc", c->ipc);
	rec_run_config(st->out, r, "impl", c->impl ? c->impl : "legacy");
}

/* Turn the current block into a run.  have_time: value is its result. */
static void emit(struct hb_state *st, int have_time, double value, long lineno)
{
	struct hb_block *b = &st->blk;
	struct hb_config cfg;
	struct rec_run *r;

	config_clear(&cfg);
	config_merge(&cfg, &st->cmd);
	config_merge(&cfg, &b->cfg);
	r = rec_run_new(st->out, "hackbench", b->line ? b->line : lineno);
	r->iteration = b->iteration;
	apply_config(st, r, &cfg);
	if (st->multi_instance)
		rec_run_configf(st->out, r, "instance", "%ld", st->instance);
	if (st->ctx->variant)
		rec_run_variant(st->out, r, st->ctx->variant, st->ctx->variant_desc,
				REC_ORIGIN_CONTEXT);
	if (st->ctx->kernel)
		r->kernel = arena_strdup(&st->out->arena, st->ctx->kernel);
	if (st->cmd_machine)
		r->machine = st->cmd_machine;
	if (b->fail)
		rec_run_fail(st->out, r, "%s", b->fail);
	else if (!have_time)
		rec_run_fail(st->out, r, "no result");
	else
		rec_sample_add(st->out, r, "time", value, "s", 0);
	st->last = have_time ? r : NULL;
	st->last_has_sender = b->has_sender;
	block_reset(b);
}

/* End the current block without a result (next block starts, or the end
 * of the segment). */
static void flush(struct hb_state *st, long lineno)
{
	if (st->blk.started)
		emit(st, 0, 0, lineno);
	else
		block_reset(&st->blk);
}

static int cap_long(struct hb_state *st, const struct ingest_line *l, const struct rx_cap *c,
		    long *out)
{
	if (!c->s || num_parse_long(c->s, c->len, out) < 0 || *out < 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad number '%.*s'",
				  c->s ? (int)c->len : 0, c->s ? c->s : "");
	return 0;
}

/* The number that goes with option tok[*k] (name namelen bytes long):
 * glued to it, after '=', or the next token (then *k moves on). */
static int opt_value(const struct ingest_tok *tok, size_t ntok, size_t *k, size_t namelen,
		     long *out)
{
	const struct ingest_tok *t = &tok[*k];

	if (t->len > namelen) {
		const char *v = t->s + namelen;
		size_t vlen = t->len - namelen;
		if (*v == '=') {
			v++;
			vlen--;
		}
		return num_parse_long(v, vlen, out);
	}
	if (*k + 1 >= ntok)
		return -1;
	(*k)++;
	return num_parse_long(tok[*k].s, tok[*k].len, out);
}

/* The host of a prompt token ("root@box:~#", "[me@box.lab"): the short
 * name, up to the first dot, or NULL. */
static const char *prompt_host(struct arena *a, const struct ingest_tok *tok, size_t ntok)
{
	size_t i;

	for (i = 0; i < ntok; i++) {
		const char *at = memchr(tok[i].s, '@', tok[i].len), *e, *end = tok[i].s + tok[i].len;
		if (!at || !tok_is_prompt(&tok[i]))
			continue;
		for (e = ++at; e < end && (isalnum((unsigned char)*e) || *e == '_' || *e == '-'); e++)
			;
		if (e > at)
			return arena_strndup(a, at, (size_t)(e - at));
	}
	return NULL;
}

/* Old hackbench's arguments, "[-pipe] <groups> [process|thread] [loops]",
 * from tok[0..ntok): 0 and c filled when they fit, -1 when not. */
static int legacy_args(const struct ingest_tok *tok, size_t ntok, struct hb_config *c)
{
	size_t k = 0;
	long v;

	if (k < ntok && ingest_tok_is(&tok[k], "-pipe")) {
		c->ipc = "pipe";
		k++;
	}
	if (k == ntok)
		return 0;       /* no arguments: the defaults */
	if (num_parse_long(tok[k].s, tok[k].len, &v) < 0 || v <= 0)
		return -1;
	c->groups = v;
	k++;
	if (k < ntok && (ingest_tok_is(&tok[k], "process") || ingest_tok_is(&tok[k], "thread"))) {
		c->mode = tok[k].s[0] == 'p' ? "process" : "thread";
		k++;
	}
	if (k < ntok) {
		if (num_parse_long(tok[k].s, tok[k].len, &v) < 0 || v <= 0)
			return -1;
		c->loops = v;
		k++;
	}
	return k == ntok ? 0 : -1;
}

/*
 * A command line: what it asks for, as the program it names reads it.
 *  - perf bench sched messaging: -g -l -p -t (getopt); words are ignored.
 *  - hackbench with any option but old hackbench's "-pipe" is rt-tests'
 *    (getopt: -g -l -s -f -p -T -P and long forms); rt-tests ignores
 *    words, so "hackbench process 10 1000 -s 100000" runs 10 groups of
 *    100 loops, whatever "10 1000" meant to the author.
 *  - otherwise old hackbench: "[-pipe] <groups> [process|thread] [loops]";
 *    words that do not fit it are not used.
 * Each decision that leaves words out is a note.
 */
static int parse_cmd(struct hb_state *st, const struct ingest_line *l)
{
	struct ingest_tok tok[HB_MAXTOK];
	size_t ntok = ingest_split(l->s, l->len, tok, HB_MAXTOK), k, args;
	struct hb_config *c = &st->cmd;
	const char *word_first = NULL, *word_end = NULL;
	int perf, start, getopt = 0;
	long v;

	start = cmd_start(tok, ntok, &perf);
	if (start < 0)
		return 0;
	config_clear(c);
	st->cmd_machine = prompt_host(&st->out->arena, tok, (size_t)start);
	c->ipc = "socket";      /* socketpair() unless asked for pipes */
	args = (size_t)start + (perf ? 4 : 1);
	for (k = args; k < ntok; k++)
		if (tok[k].len > 1 && tok[k].s[0] == '-' && !ingest_tok_is(&tok[k], "-pipe"))
			getopt = 1;
	if (perf) {
		c->impl = "perf";
	} else if (getopt) {
		c->impl = "rt-tests";
	} else {
		if (legacy_args(tok + args, ntok - args, c) < 0) {
			config_clear(c);
			c->ipc = "socket";
			rec_note(st->out, l->lineno, "command '%.*s': the words after it do not fit "
				 "old hackbench's <groups> [process|thread] [loops]; not used",
				 (int)(tok[ntok - 1].s + tok[ntok - 1].len - tok[start].s), tok[start].s);
		}
		return 0;
	}
	for (k = args; k < ntok; k++) {
		const struct ingest_tok *t = &tok[k];
		long *dst = NULL;
		size_t nl;
		int r = 0;

		if ((nl = ingest_opt_match(t, "-g")) || (nl = ingest_opt_match(t, "--groups")) ||
		    (nl = ingest_opt_match(t, "--group")))
			dst = &c->groups;
		else if ((nl = ingest_opt_match(t, "-l")) || (nl = ingest_opt_match(t, "--loops")) ||
			 (nl = ingest_opt_match(t, "--nr_loops")))
			dst = &c->loops;
		else if (!perf && ((nl = ingest_opt_match(t, "-s")) || (nl = ingest_opt_match(t, "--datasize"))))
			dst = &c->datasize;
		else if (!perf && ((nl = ingest_opt_match(t, "-f")) || (nl = ingest_opt_match(t, "--fds"))))
			dst = &v;   /* fds: the printed task count says it all */
		if (dst && k + 1 < ntok && t->len == nl && tok_is_shell_var(&tok[k + 1])) {
			rec_note(st->out, l->lineno, "command: '%.*s %.*s' is set by the script; not used",
				 (int)t->len, t->s, (int)tok[k + 1].len, tok[k + 1].s);
			k++;
		} else if (dst) {
			r = opt_value(tok, ntok, &k, nl, &v);
			if (r == 0)
				*dst = v;
		} else if (ingest_tok_is(t, "-p") || ingest_tok_is(t, "--pipe") ||
			   ingest_tok_is(t, "-pipe")) {
			c->ipc = "pipe";
		} else if ((!perf && ingest_tok_is(t, "-T")) || (perf && ingest_tok_is(t, "-t")) ||
			   ingest_tok_is(t, "--threads") || ingest_tok_is(t, "--thread")) {
			c->mode = "thread";
		} else if (ingest_tok_is(t, "-P") || ingest_tok_is(t, "--process")) {
			c->mode = "process";
		} else if (t->len && t->s[0] != '-') {
			if (!word_first)
				word_first = t->s;
			word_end = t->s + t->len;
		}
		if (r < 0)
			return kb_err_set(st->err, st->ctx->path, l->lineno,
					  "option '%.*s' needs a number", (int)t->len, t->s);
	}
	if (word_first)
		rec_note(st->out, l->lineno, "command: %s ignores the words '%.*s'; not used",
			 perf ? "perf bench" : "rt-tests hackbench (it has options)",
			 (int)(word_end - word_first), word_first);
	return 0;
}

int hackbench_cmd_config(struct rec_batch *out, const char *path, const char *cmd,
			 struct rec_run *r, long lineno)
{
	struct ingest_ctx ctx;
	struct hb_state st;
	struct ingest_line l;
	struct kb_err err;
	struct ingest_tok tok[HB_MAXTOK];
	int perf;

	l.s = cmd;
	l.len = strlen(cmd);
	l.lineno = lineno;
	l.quote = 0;
	if (cmd_start(tok, ingest_split(l.s, l.len, tok, HB_MAXTOK), &perf) < 0)
		return 0;
	memset(&ctx, 0, sizeof(ctx));
	memset(&st, 0, sizeof(st));
	memset(&err, 0, sizeof(err));
	ctx.path = path;
	st.ctx = &ctx;
	st.out = out;
	st.err = &err;
	config_clear(&st.cmd);
	if (parse_cmd(&st, &l) < 0 || st.cmd.groups < 0)
		return 0;
	apply_config(&st, r, &st.cmd);
	return 1;
}

/* A printed key of run r against what the command asks: 1 when they
 * agree or either says nothing. */
static int key_agrees(const struct rec_run *r, const char *key, long want)
{
	const char *have = rec_run_config_get(r, key);
	char *e;
	long v;

	if (!have || want < 0)
		return 1;
	v = strtol(have, &e, 10);
	return *e == '\0' && v == want;
}

int hackbench_cmd_fill(struct rec_batch *out, const char *path, const struct ingest_line *cmd,
		       struct rec_run *r, int apply)
{
	struct ingest_ctx ctx;
	struct hb_state st;
	struct kb_err err;
	struct ingest_tok tok[HB_MAXTOK];
	struct rec_batch scratch;       /* parse_cmd's notes: this is no command of a block */
	const char *mode;
	int perf, ok;

	if (cmd_start(tok, ingest_split(cmd->s, cmd->len, tok, HB_MAXTOK), &perf) < 0)
		return 0;
	memset(&ctx, 0, sizeof(ctx));
	memset(&st, 0, sizeof(st));
	memset(&err, 0, sizeof(err));
	rec_batch_init(&scratch);
	ctx.path = path;
	st.ctx = &ctx;
	st.out = &scratch;
	st.err = &err;
	config_clear(&st.cmd);
	ok = parse_cmd(&st, cmd) == 0 && st.cmd.groups >= 0 && st.cmd.ipc;
	rec_batch_release(&scratch);
	if (!ok)
		return 0;
	if (!r)
		return 1;
	/* the run must be what the command asks for, wherever both say */
	if (!rec_run_config_get(r, "groups") || !key_agrees(r, "groups", st.cmd.groups) ||
	    !key_agrees(r, "loops", st.cmd.loops) || !key_agrees(r, "datasize", st.cmd.datasize))
		return 0;
	mode = rec_run_config_get(r, "mode");
	if (mode && st.cmd.mode && strcmp(mode, st.cmd.mode) != 0)
		return 0;
	if (!apply)
		return 1;
	st.out = out;
	if (!rec_run_config_get(r, "loops"))
		run_config_long(&st, r, "loops", st.cmd.loops);
	if (!rec_run_config_get(r, "datasize"))
		run_config_long(&st, r, "datasize", st.cmd.datasize);
	if (!mode && st.cmd.mode)
		rec_run_config(out, r, "mode", st.cmd.mode);
	if (!rec_run_config_get(r, "ipc"))
		rec_run_config(out, r, "ipc", st.cmd.ipc);
	return 1;
}

static int parse_time(struct hb_state *st, const struct ingest_line *l, struct rx *rx)
{
	struct rx_cap cap[3];
	double v;

	if (rx_match(rx, l->s, l->len, cap, 3) < 2)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time");
	if (num_parse(cap[1].s, cap[1].len, &v) < 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time '%.*s'",
				  (int)cap[1].len, cap[1].s);
	if (v < 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "negative time %.*s",
				  (int)cap[1].len, cap[1].s);
	if (cap[2].s && time_tail(cap[2].s, cap[2].len) == TAIL_NOTE)
		rec_note(st->out, l->lineno, "time %.*s kept, the annotation '%.*s' after it left out",
			 (int)cap[1].len, cap[1].s, (int)cap[2].len, cap[2].s);
	block_touch(&st->blk, l);
	emit(st, 1, v, l->lineno);
	return 0;
}

/* "hackbench 50: Time: 851.469 Time: 847.143": the command, then one run
 * per result. */
static int parse_multi(struct hb_state *st, const struct ingest_line *l)
{
	struct ingest_tok tok[HB_MAXTOK];
	size_t ntok, cmd_tok, k, runs;
	double v;

	runs = multi_times(l, tok, &ntok, &cmd_tok);
	flush(st, l->lineno);
	if (cmd_tok) {
		struct ingest_line cl = *l;
		/* the command without the ':' that ends it */
		cl.len = (size_t)(tok[cmd_tok - 1].s + tok[cmd_tok - 1].len - 1 - l->s);
		if (parse_cmd(st, &cl) < 0)
			return -1;
	}
	for (k = cmd_tok; k + 1 < ntok; k += 2) {
		if (num_parse(tok[k + 1].s, tok[k + 1].len, &v) < 0 || v < 0)
			return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time '%.*s'",
					  (int)tok[k + 1].len, tok[k + 1].s);
		block_touch(&st->blk, l);
		emit(st, 1, v, l->lineno);
	}
	rec_note(st->out, l->lineno, "%zu runs on one line%s", runs,
		 cmd_tok ? ", after the command that printed them" : "");
	return 0;
}

/* Do runs a and b have the same configuration and variant? */
static int same_config(const struct rec_run *a, const struct rec_run *b)
{
	size_t i;

	if (a->nconfig != b->nconfig || strcmp(a->benchmark, b->benchmark) != 0)
		return 0;
	if (!a->variant != !b->variant || (a->variant && strcmp(a->variant, b->variant) != 0))
		return 0;
	for (i = 0; i < a->nconfig; i++) {
		const char *v = rec_run_config_get(b, a->config[i].key);
		if (!v || strcmp(v, a->config[i].value) != 0)
			return 0;
	}
	return 1;
}

/* Half a unit of the last decimal of the number s[0..len) as printed. */
static double printed_half_unit(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	double h = 0.5;
	size_t d;

	for (d = dot ? (size_t)(s + len - dot - 1) : 0; d > 0; d--)
		h /= 10;
	return h;
}

/*
 * The author's own mean of the runs out->runs[from ..) (num[0..len) as
 * printed, at line): a published mean, n = their number, when it is
 * theirs beyond doubt: two or more runs, none failed, one configuration,
 * and their mean equal to it as printed.  Otherwise it is left out, and
 * the note says why.  Never a run.
 */
static void author_mean(struct hb_state *st, size_t from, const char *num, size_t len, long line,
			const char *variant)
{
	struct rec_summary *sum;
	const struct rec_run *r0;
	size_t i, n = st->out->nruns - from;
	double v, mean = 0;
	const char *why = NULL;

	if (num_parse(num, len, &v) < 0)
		why = "not a number";
	r0 = n ? st->out->runs[from] : NULL;
	for (i = from; i < st->out->nruns && !why; i++) {
		const struct rec_run *r = st->out->runs[i];
		if (r->failed || r->nsamples != 1)
			why = "a run above it failed";
		else if (!same_config(r0, r))
			why = "the runs above it differ in configuration or variant";
		else
			mean += r->samples[0].value;
	}
	if (!why && n < 2)
		why = "fewer than two runs above it";
	if (!why && fabs(mean / (double)n - v) > printed_half_unit(num, len) + 1e-9 * fabs(v))
		why = arena_printf(&st->out->arena, "the mean of the %zu runs above it is %.6g", n,
				   mean / (double)n);
	if (why) {
		rec_note(st->out, line, "the author's average %.*s left out: %s", (int)len, num, why);
		return;
	}
	sum = rec_summary_add(st->out, variant, "hackbench", "time", "s", line);
	if (variant == st->ctx->variant)
		sum->variant_desc = st->ctx->variant_desc;
	sum->mean = v;
	sum->n = (long)n;
	for (i = 0; i < r0->nconfig; i++)
		rec_summary_config(st->out, sum, r0->config[i].key, r0->config[i].value);
	rec_note(st->out, line, "the author's average %.*s kept as the published mean of the "
		 "%zu runs above it (lines %ld-%ld)", (int)len, num, n, r0->line,
		 st->out->runs[st->out->nruns - 1]->line);
}

/* "Giving an average of 4.2371", "avg: 4.23" after a block of runs: of
 * the runs since the last such line, or the segment's start. */
static int parse_avg(struct hb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[2];
	size_t from = st->avg_first;

	flush(st, l->lineno);
	st->avg_first = st->out->nruns;
	if (rx_match(&rx_avg, l->s, l->len, cap, 2) < 2)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad average");
	author_mean(st, from, cap[1].s, cap[1].len, l->lineno, st->ctx->variant);
	return 0;
}

/*
 * Runs listed on a line after a label, under one printed header (the
 * author ran the same command for each variant):
 *   Running in threaded mode with 1 groups using 40 file descriptors
 *   Each sender will pass 100000 messages of 100 bytes
 *   w/o: 7.689 7.485 7.485 ... 7.674=7.5853
 *   w/ but dropped select_idle_cluster:
 *        7.752 7.739 ... 7.487=7.611
 * Each number is a run of the header's configuration, named by the
 * label; "=MEAN" is the author's mean of them; a line of numbers alone
 * goes on with the list above it (the mailer wrapped it).
 */
static int parse_list(struct hb_state *st, const struct ingest_line *l, enum hb_kind k)
{
	struct ingest_tok tok[HB_MAXTOK];
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len, *colon = NULL;
	size_t ntok, i;

	if (k != HB_LIST_MORE) {
		const char *e;
		colon = memchr(p, ':', (size_t)(end - p));
		for (e = colon; e > p && e[-1] == ' '; e--)
			;
		if (st->blk.started) {
			/* the header's configuration, for every list under it */
			config_clear(&st->list_cfg);
			config_merge(&st->list_cfg, &st->cmd);
			config_merge(&st->list_cfg, &st->blk.cfg);
			block_reset(&st->blk);
		}
		st->list_variant = arena_strndup(&st->out->arena, p, (size_t)(e - p));
		st->list_first = st->out->nruns;
		p = colon + 1;
	}
	if (k != HB_LIST_MORE)
		rec_note(st->out, l->lineno, "runs listed after the label '%s', of the header above",
			 st->list_variant);
	ntok = ingest_split(p, (size_t)(end - p), tok, HB_MAXTOK);
	for (i = 0; i < ntok && i < HB_MAXTOK; i++) {
		const char *eq = memchr(tok[i].s, '=', tok[i].len);
		size_t vlen = eq ? (size_t)(eq - tok[i].s) : tok[i].len;
		double v;

		if (num_parse(tok[i].s, vlen, &v) < 0 || v < 0)
			return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time '%.*s'",
					  (int)vlen, tok[i].s);
		st->blk.cfg = st->list_cfg;
		block_touch(&st->blk, l);
		emit(st, 1, v, l->lineno);
		rec_run_variant(st->out, st->last, st->list_variant, NULL, REC_ORIGIN_CONTENT);
		if (eq)
			author_mean(st, st->list_first, eq + 1, (size_t)(tok[i].s + tok[i].len - eq - 1),
				    l->lineno, st->list_variant);
	}
	return 0;
}

/* A line that describes the run about to happen: ends a block that
 * already had one like it, or that already failed. */
static void header_line(struct hb_state *st, const struct ingest_line *l, int *seen)
{
	if (*seen || st->blk.fail)
		flush(st, l->lineno);
	block_touch(&st->blk, l);
	st->blk.started = 1;
}

static int parse_line(struct hb_state *st, const struct ingest_line *l, enum hb_kind k)
{
	struct hb_block *b = &st->blk;
	struct rx_cap cap[5];
	long v[4];
	int i;

	switch (k) {
	case HB_BLANK:
	case HB_NOISE:
		return 0;
	case HB_PROSE:
		return kb_err_set(st->err, st->ctx->path, l->lineno, "not hackbench output");
	case HB_INSTANCE:
		flush(st, l->lineno);
		rx_match(&rx_instance, l->s, l->len, cap, 2);
		if (cap_long(st, l, &cap[1], &st->instance) < 0)
			return -1;
		config_clear(&st->cmd);
		return 0;
	case HB_ITER:
		flush(st, l->lineno);
		rx_match(&rx_iter, l->s, l->len, cap, 2);
		if (cap_long(st, l, &cap[1], &v[0]) < 0)
			return -1;
		if (v[0] > 1000000000)
			return kb_err_set(st->err, st->ctx->path, l->lineno, "iteration out of range");
		b->iteration = (int)v[0];
		b->started = 1;
		block_touch(b, l);
		return 0;
	case HB_CMD:
		if (b->has_running || b->has_sender || b->has_perf || b->fail)
			flush(st, l->lineno);
		block_touch(b, l);
		return parse_cmd(st, l);
	case HB_RUNNING:
		header_line(st, l, &b->has_running);
		b->has_running = 1;
		rx_match(&rx_running, l->s, l->len, cap, 5);
		for (i = 0; i < 3; i++)
			if (cap_long(st, l, &cap[i + 2], &v[i]) < 0)
				return -1;
		b->cfg.mode = cap[1].len == 7 ? "process" : "thread";
		b->cfg.groups = v[0];
		b->cfg.tasks = v[2];
		b->cfg.impl = "rt-tests";
		return 0;
	case HB_RUNNING_SHORT:
		header_line(st, l, &b->has_running);
		b->has_running = 1;
		rx_match(&rx_running_short, l->s, l->len, cap, 4);
		for (i = 0; i < 2; i++)
			if (cap_long(st, l, &cap[i + 2], &v[i]) < 0)
				return -1;
		b->cfg.mode = cap[1].len == 7 ? "process" : "thread";
		b->cfg.groups = v[0];
		/* rt-tests prints groups x descriptors as the tasks */
		if (v[0] > 0 && v[1] > 0 && v[0] <= LONG_MAX / v[1])
			b->cfg.tasks = v[0] * v[1];
		b->cfg.impl = "rt-tests";
		rec_note(st->out, l->lineno, "header without its '(== N tasks)': tasks = %ld groups x "
			 "%ld descriptors", v[0], v[1]);
		return 0;
	case HB_RUNNING_OLD:
		header_line(st, l, &b->has_running);
		b->has_running = 1;
		rx_match(&rx_running_old, l->s, l->len, cap, 4);
		for (i = 0; i < 3; i++)
			if (cap_long(st, l, &cap[i + 1], &v[i]) < 0)
				return -1;
		b->cfg.groups = v[0];
		b->cfg.tasks = v[2];
		b->cfg.impl = "legacy";
		return 0;
	case HB_SENDER_OLD:
		/* Printed after the time by some builds: belongs to that run. */
		if (!b->started && st->last && !st->last_has_sender) {
			rx_match(&rx_sender_old, l->s, l->len, cap, 3);
			if (cap_long(st, l, &cap[1], &v[0]) < 0 || cap_long(st, l, &cap[2], &v[1]) < 0)
				return -1;
			rec_run_configf(st->out, st->last, "loops", "%ld", v[0]);
			rec_run_configf(st->out, st->last, "datasize", "%ld", v[1]);
			st->last_has_sender = 1;
			return 0;
		}
		/* fall through */
	case HB_SENDER:
		header_line(st, l, &b->has_sender);
		b->has_sender = 1;
		rx_match(k == HB_SENDER ? &rx_sender : &rx_sender_old, l->s, l->len, cap, 3);
		if (cap_long(st, l, &cap[1], &v[0]) < 0 || cap_long(st, l, &cap[2], &v[1]) < 0)
			return -1;
		b->cfg.loops = v[0];
		b->cfg.datasize = v[1];
		if (k == HB_SENDER && !b->cfg.impl)
			b->cfg.impl = "rt-tests";
		return 0;
	case HB_PERF_HDR:
		header_line(st, l, &b->has_perf);
		b->has_perf = 1;
		b->cfg.impl = "perf";
		return 0;
	case HB_PERF_FDS:
		if (!b->has_perf)
			header_line(st, l, &b->has_perf);
		b->has_perf = 1;
		b->cfg.impl = "perf";
		rx_match(&rx_perf_fds, l->s, l->len, cap, 3);
		b->cfg.mode = cap[2].len == 9 ? "process" : "thread";
		return 0;
	case HB_PERF_GROUPS:
		if (!b->has_perf)
			header_line(st, l, &b->has_perf);
		b->has_perf = 1;
		b->cfg.impl = "perf";
		rx_match(&rx_perf_groups, l->s, l->len, cap, 4);
		if (cap_long(st, l, &cap[1], &v[0]) < 0 || cap_long(st, l, &cap[2], &v[1]) < 0)
			return -1;
		b->cfg.groups = v[0];
		b->cfg.tasks = v[1];
		b->cfg.mode = cap[3].len == 9 ? "process" : "thread";
		return 0;
	case HB_TIME:
		return parse_time(st, l, &rx_time_any);
	case HB_TOTAL:
		return parse_time(st, l, &rx_total);
	case HB_BARE:
		return parse_time(st, l, &rx_bare);
	case HB_TAIL:
		return 0;           /* read with the line before it */
	case HB_MULTI:
		return parse_multi(st, l);
	case HB_AVG:
		return parse_avg(st, l);
	case HB_LIST_RUNS:
	case HB_LIST_LABEL:
	case HB_LIST_MORE:
		return parse_list(st, l, k);
	case HB_FAIL:
		{
			size_t len = str_rtrim_len(l->s, l->len);
			const char *s = str_skip_ws(l->s, l->s + len);
			int child = strstr(s, "SENDER:") || strstr(s, "RECEIVER:");
			/* The reason: the first failure line, plus the first
			 * child's error when a signal came first. */
			if (!b->fail)
				b->fail = arena_strndup(&st->out->arena, s, (size_t)(l->s + len - s));
			else if (child && !b->child_failed)
				b->fail = arena_printf(&st->out->arena, "%s; %.*s", b->fail,
						       (int)(l->s + len - s), s);
			b->child_failed |= child;
		}
		b->started = 1;
		block_touch(b, l);
		return 0;
	}
	return 0;
}

static int hackbench_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			   size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct hb_state st;
	struct hb_scan sc;
	long first_instance = -1;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.out = out;
	st.err = err;
	st.instance = 1;
	st.avg_first = out->nruns;
	memset(&sc, 0, sizeof(sc));
	config_clear(&st.cmd);
	block_reset(&st.blk);

	/* Several instances in one log: tag each run with its instance. */
	for (i = 0; i < n; i++) {
		struct rx_cap cap[2];
		long v;
		if (!str_find(lines[i].s, lines[i].len, "Instance:") ||
		    rx_match(&rx_instance, lines[i].s, lines[i].len, cap, 2) < 2 ||
		    num_parse_long(cap[1].s, cap[1].len, &v) < 0)
			continue;
		if (first_instance < 0)
			first_instance = v;
		else if (v != first_instance)
			st.multi_instance = 1;
	}

	for (i = 0; i < n; i++) {
		enum hb_kind k = classify(&lines[i], i + 1 < n ? &lines[i + 1] : NULL, &sc, 0);
		if (sc.is_joined)
			rec_note(out, lines[i].lineno, "header wrapped over lines %ld-%ld, read as one line",
				 lines[i].lineno, lines[i + 1].lineno);
		if (parse_line(&st, sc.is_joined ? &sc.joined : &lines[i], k) < 0)
			return -1;
	}
	flush(&st, n ? lines[n - 1].lineno : 0);
	return 0;
}

/* The lines of hackbench that perf stat carries (perfstat.c) ----------- */

int hackbench_header_line(const struct ingest_line *l)
{
	return ingest_line_matches(&rx_running, l) || ingest_line_matches(&rx_sender, l);
}

int hackbench_time_line(const struct ingest_line *l)
{
	struct rx_cap cap[2];

	return rx_match(&rx_time, l->s, l->len, cap, 2) > 1 && is_number_cap(cap[1].s, cap[1].len);
}

const struct ingest_parser hackbench_parser = {
	"hackbench",
	"hackbench: rt-tests, old hackbench, perf bench sched messaging, lkp logs",
	hackbench_claim,
	hackbench_parse,
};
