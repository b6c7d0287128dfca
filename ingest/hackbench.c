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

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum hb_kind {
	HB_PROSE = 0,
	HB_BLANK,
	HB_NOISE,           /* inside a log, means nothing: PATH=, sysctl, perf version */
	HB_INSTANCE,
	HB_ITER,
	HB_CMD,
	HB_RUNNING,         /* rt-tests "Running in ... mode" */
	HB_RUNNING_OLD,     /* "Running with 10*40 (== 400) tasks." */
	HB_SENDER,          /* "Each sender will pass" */
	HB_SENDER_OLD,      /* "Each sender passed ... in average" */
	HB_PERF_HDR,
	HB_PERF_FDS,
	HB_PERF_GROUPS,
	HB_TIME,            /* "Time: 0.454" */
	HB_TOTAL,           /* perf "Total time: 0.630 [sec]" */
	HB_BARE,            /* perf --format=simple */
	HB_FAIL,
};

/* What the lines before this one imply about the next. */
struct hb_scan {
	int perf_open;      /* perf header seen, result not yet */
	int usage_open;     /* usage text seen: option lines follow */
};

static struct rx rx_running = RX("^\\s*Running\\s+in\\s+(process|threaded|thread)\\s+mode\\s+with\\s+"
				 "(\\d+)\\s+groups\\s+using\\s+(\\d+)\\s+file\\s+descriptors\\s+each\\s+"
				 "\\(==\\s*(\\d+)\\s+tasks\\)\\s*$");
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
static struct rx rx_total = RX("^\\s*Total\\s+time:\\s*(\\S+)\\s*\\[sec\\]\\s*$");
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

/* rx_match() reports captures, so a yes/no question still needs one. */
static int rx_hit(struct rx *rx, const struct ingest_line *l)
{
	struct rx_cap cap[1];

	return rx_match(rx, l->s, l->len, cap, 1) > 0;
}

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

/* A date, a clock, a prompt: what may stand before the program name. */
static int tok_is_prefix(const struct ingest_tok *t)
{
	size_t i;

	if (ingest_tok_is(t, "$") || ingest_tok_is(t, "#") || ingest_tok_is(t, "+"))
		return 1;
	for (i = 0; i < t->len; i++)
		if (!strchr("0123456789-:.T+,[]", t->s[i]))
			return 0;
	return t->len > 0;
}

static int tok_is_arg(const struct ingest_tok *t)
{
	double v;

	if (t->len && t->s[0] == '-')
		return 1;
	if (num_parse(t->s, t->len, &v) == 0)
		return 1;
	return ingest_tok_is(t, "process") || ingest_tok_is(t, "thread") ||
	       ingest_tok_is(t, "threads");
}

#define HB_MAXTOK 64

/* Index of the program token (hackbench, or perf of "perf bench sched
 * messaging") when the line is a command line; -1 otherwise.  *perf is
 * set for perf. */
static int cmd_start(const struct ingest_tok *tok, size_t ntok, int *perf)
{
	size_t i, k, args = 0;

	*perf = 0;
	for (i = 0; i < ntok && i < 4; i++) {
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
		if (!tok_is_prefix(&tok[i]))
			return -1;
	}
	if (i == ntok || i == 4)
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
	    !tok_is_prefix(&tok[0]))
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

/* Classify one line.  sc carries what earlier lines implied (may be
 * updated).  first: the line would start a claim, where noise cannot
 * stand, so the noise patterns are not tried (claim() stays cheap). */
static enum hb_kind classify(const struct ingest_line *l, struct hb_scan *sc, int first)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t rest = (size_t)(l->s + l->len - p);
	struct rx_cap cap[2];
	int has_hb;

	if (rest == 0)
		return HB_BLANK;
	switch (*p) {
	case 'R':
		if (rest > 8 && memcmp(p, "Running ", 8) == 0) {
			if (rx_hit(&rx_running, l))
				return HB_RUNNING;
			if (rx_hit(&rx_running_old, l))
				return HB_RUNNING_OLD;
		}
		break;
	case 'E':
		if (rest > 12 && memcmp(p, "Each sender ", 12) == 0) {
			if (rx_hit(&rx_sender, l))
				return HB_SENDER;
			if (rx_hit(&rx_sender_old, l))
				return HB_SENDER_OLD;
		}
		break;
	case '#':
		if (rx_hit(&rx_perf_hdr, l)) {
			sc->perf_open = 1;
			return HB_PERF_HDR;
		}
		if (rx_hit(&rx_perf_fds, l)) {
			sc->perf_open = 1;
			return HB_PERF_FDS;
		}
		if (rx_hit(&rx_perf_groups, l)) {
			sc->perf_open = 1;
			return HB_PERF_GROUPS;
		}
		break;
	case 'T':
		if (rest > 5 && memcmp(p, "Time:", 5) == 0) {
			if (rx_match(&rx_time, l->s, l->len, cap, 2) > 1 &&
			    (is_number_cap(cap[1].s, cap[1].len) ||
			     (!first && ((cap[1].s[0] >= '0' && cap[1].s[0] <= '9') || cap[1].s[0] == '.'))))
				return HB_TIME;     /* inside a block a garbled time is an error, not prose */
			return HB_PROSE;
		}
		if (sc->perf_open && rest > 6 && memcmp(p, "Total", 5) == 0 &&
		    rx_match(&rx_total, l->s, l->len, cap, 2) > 1 &&
		    is_number_cap(cap[1].s, cap[1].len)) {
			sc->perf_open = 0;
			return HB_TOTAL;
		}
		break;
	case 'I':
		if (rx_hit(&rx_instance, l))
			return HB_INSTANCE;
		if (rx_hit(&rx_iter, l))
			return HB_ITER;
		break;
	case 'S':
		if (rx_hit(&rx_signal, l))
			return HB_FAIL;
		break;
	case '-':
		if (sc->usage_open && rx_hit(&rx_optline, l))
			return HB_NOISE;
		break;
	default:
		if (sc->perf_open && *p >= '0' && *p <= '9' &&
		    rx_hit(&rx_bare, l)) {
			sc->perf_open = 0;
			return HB_BARE;
		}
		break;
	}
	if (child_fail_start(p, rest) && rx_hit(&rx_childfail, l))
		return HB_FAIL;
	/* p only skips blanks, so "hackbench" is in p exactly when in l */
	has_hb = str_find(p, rest, "hackbench") != NULL;
	if (has_hb || str_find(p, rest, "Usage:")) {
		if (rx_hit(&rx_badopt, l) ||
		    rx_hit(&rx_usage, l)) {
			sc->usage_open = 1;
			return HB_FAIL;
		}
	}
	if (is_cmd(l, has_hb)) {
		sc->usage_open = 0;
		return HB_CMD;
	}
	if (first)
		return HB_PROSE;
	if (rx_hit(&rx_noise, l) ||
	    rx_hit(&rx_env, l) ||
	    rx_hit(&rx_sysctl, l))
		return HB_NOISE;
	/* Usage text goes on with indented option descriptions. */
	if (sc->usage_open && rx_hit(&rx_optline, l))
		return HB_NOISE;
	return HB_PROSE;
}

/* Lines that hackbench itself prints (as opposed to a wrapper's). */
static int kind_is_strong(enum hb_kind k)
{
	return k == HB_RUNNING || k == HB_RUNNING_OLD || k == HB_SENDER || k == HB_SENDER_OLD ||
	       k == HB_PERF_HDR || k == HB_PERF_FDS || k == HB_PERF_GROUPS || k == HB_CMD ||
	       k == HB_FAIL || k == HB_TOTAL || k == HB_BARE;
}

static size_t hackbench_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	struct hb_scan sc = { 0, 0 };
	size_t i, end = 0;
	int strong = 0, timed = 0;
	enum hb_kind k;

	*score = 0;
	if (n == 0)
		return 0;
	k = classify(&lines[0], &sc, 1);
	if (k == HB_PROSE || k == HB_BLANK || k == HB_NOISE)
		return 0;
	for (i = 0; i < n; i++) {
		if (i > 0)
			k = classify(&lines[i], &sc, 0);
		if (k == HB_PROSE)
			break;
		if (k == HB_BLANK || k == HB_NOISE)
			continue;
		end = i + 1;
		if (kind_is_strong(k))
			strong = 1;
		else if (k == HB_TIME)
			timed = 1;
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

/* Length of the option name when t is option name: "-g", "-g10",
 * "--groups", "--groups=10"; 0 otherwise. */
static size_t opt_match(const struct ingest_tok *t, const char *name)
{
	size_t n = strlen(name);

	if (t->len < n || memcmp(t->s, name, n) != 0)
		return 0;
	if (t->len == n || t->s[n] == '=')
		return n;
	if (n == 2 && t->s[n] >= '0' && t->s[n] <= '9')
		return n;
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

static int parse_cmd(struct hb_state *st, const struct ingest_line *l)
{
	struct ingest_tok tok[HB_MAXTOK];
	size_t ntok = ingest_split(l->s, l->len, tok, HB_MAXTOK), k;
	struct hb_config *c = &st->cmd;
	int perf, start, positional = 0;
	long v;

	start = cmd_start(tok, ntok, &perf);
	if (start < 0)
		return 0;
	config_clear(c);
	c->ipc = "socket";      /* socketpair() unless asked for pipes */
	if (perf)
		c->impl = "perf";
	for (k = (size_t)start + (perf ? 4 : 1); k < ntok; k++) {
		const struct ingest_tok *t = &tok[k];
		long *dst = NULL;
		size_t nl;
		int r = 0;

		if ((nl = opt_match(t, "-g")) || (nl = opt_match(t, "--groups")) ||
		    (nl = opt_match(t, "--group")))
			dst = &c->groups;
		else if ((nl = opt_match(t, "-l")) || (nl = opt_match(t, "--loops")) ||
			 (nl = opt_match(t, "--nr_loops")))
			dst = &c->loops;
		else if (!perf && ((nl = opt_match(t, "-s")) || (nl = opt_match(t, "--datasize"))))
			dst = &c->datasize;
		else if (!perf && ((nl = opt_match(t, "-f")) || (nl = opt_match(t, "--fds"))))
			dst = &v;   /* fds: the printed task count says it all */
		if (dst) {
			r = opt_value(tok, ntok, &k, nl, &v);
			if (r == 0)
				*dst = v;
		} else if (ingest_tok_is(t, "-p") || ingest_tok_is(t, "--pipe") ||
			   ingest_tok_is(t, "-pipe")) {
			c->ipc = "pipe";
		} else if ((!perf && ingest_tok_is(t, "-T")) || (perf && ingest_tok_is(t, "-t")) ||
			   ingest_tok_is(t, "--threads") || ingest_tok_is(t, "--thread") ||
			   ingest_tok_is(t, "thread") || ingest_tok_is(t, "threads")) {
			c->mode = "thread";
		} else if (ingest_tok_is(t, "-P") || ingest_tok_is(t, "--process") ||
			   ingest_tok_is(t, "process")) {
			c->mode = "process";
		} else if (t->len && t->s[0] != '-' && num_parse_long(t->s, t->len, &v) == 0) {
			/* old hackbench: <groups> [process|thread] [loops] */
			if (positional == 0)
				c->groups = v;
			else if (positional == 1)
				c->loops = v;
			positional++;
		}
		if (r < 0)
			return kb_err_set(st->err, st->ctx->path, l->lineno,
					  "option '%.*s' needs a number", (int)t->len, t->s);
	}
	return 0;
}

static int parse_time(struct hb_state *st, const struct ingest_line *l, struct rx *rx)
{
	struct rx_cap cap[2];
	double v;

	if (rx_match(rx, l->s, l->len, cap, 2) < 2)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time");
	if (num_parse(cap[1].s, cap[1].len, &v) < 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "bad time '%.*s'",
				  (int)cap[1].len, cap[1].s);
	if (v < 0)
		return kb_err_set(st->err, st->ctx->path, l->lineno, "negative time %.*s",
				  (int)cap[1].len, cap[1].s);
	block_touch(&st->blk, l);
	emit(st, 1, v, l->lineno);
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
		return parse_time(st, l, &rx_time);
	case HB_TOTAL:
		return parse_time(st, l, &rx_total);
	case HB_BARE:
		return parse_time(st, l, &rx_bare);
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
	struct hb_scan sc = { 0, 0 };
	long first_instance = -1;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.out = out;
	st.err = err;
	st.instance = 1;
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
		enum hb_kind k = classify(&lines[i], &sc, 0);
		if (parse_line(&st, &lines[i], k) < 0)
			return -1;
	}
	flush(&st, n ? lines[n - 1].lineno : 0);
	return 0;
}

/* The lines of hackbench that perf stat carries (perfstat.c) ----------- */

int hackbench_header_line(const struct ingest_line *l)
{
	return rx_hit(&rx_running, l) || rx_hit(&rx_sender, l);
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
