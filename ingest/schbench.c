/*
 * schbench.c - Chris Mason's schbench (github.com/masoncl/schbench).
 *
 * Current layout (2023-): every -i seconds an intermediate report, then
 * the final one, which says "average rps" (or, with -A, "final rps goal
 * was N"); -p (pipe mode) prints only a final wakeup block and the
 * transfer rate:
 *
 *   $ ./schbench -m 2 -t 16 -r 30                       <- config, if shown
 *   Wakeup Latencies percentiles (usec) runtime 10 (s) (82781 total samples)
 *             50.0th: 5          (0 samples)
 *             90.0th: 7          (37810 samples)
 *           * 99.0th: 8          (2076 samples)
 *             99.9th: 13         (719 samples)
 *             min=1, max=119
 *   Request Latencies percentiles (usec) runtime 10 (s) (83326 total samples)
 *             ...
 *   RPS percentiles (requests) runtime 10 (s) (3 total samples)    (2023-04-21-)
 *             20.0th: 15856      (1 samples)
 *             ...
 *   sched delay: message 12 (usec) worker 34 (usec)      (2025-)
 *   current rps: 15869.42                                <- intermediate
 *   ...
 *   Wakeup Latencies percentiles (usec) runtime 30 (s) (434591 total samples)
 *   ...
 *   average rps: 17108.70                                <- final
 *   sched delay: message 12 (usec) worker 34 (usec)
 *
 * Older layouts print one kind of block, "Latency percentiles (usec)":
 * 2016-2020 once per run ("50.0000th: 22", "*99.0000th: 981", "Over=0,
 * min=0, max=29497" in the first version), 2020-2023 every -i seconds and
 * at the end, with "runtime N (s)" and nothing else telling the final
 * block from the others.
 *
 * One run per final report (benchmark "schbench"): per block
 * <kind>_p50, _p90, _p99, _p99_9 (and whatever other percentiles it
 * prints), _min and _max, kind being wakeup, request, rps or latency (the
 * old blocks, kept apart from the new ones: the program measured other
 * things then); average_rps, rps_goal, transfer_ops, transfer_rate,
 * sched_delay_message, sched_delay_worker.  Latencies are usec, lower
 * better; rps figures higher better.
 *
 * Which report is final: one ending in "average rps", "final rps goal" or
 * "avg worker transfer" is; one ending in "current rps" is not.  Without
 * such a line (the 2020-2023 layout, a post that cut it), a report is
 * final when it is the last of its run, when the next one's runtime is
 * smaller (a new run began), or when it repeats the runtime of the report
 * before it (schbench prints its last interval report and then the final
 * one, both at the full runtime).  Old blocks without a runtime are each
 * a run.  Intermediate reports are not stored, and a note says so; a run
 * whose reports are all intermediate (its log was cut) is a failed run.
 *
 * Runs are told apart by a command line and lkp's "Iteration : N" and
 * "Instance: N" lines ("warmup done, zeroing stats" comes once a run, but
 * after its first reports when -w is longer than -i).  Config comes
 * from the last command line (-m message_threads, -t threads, -r runtime,
 * -F footprint, -n operations ...) and the final block's own runtime;
 * lkp's multi-instance logs add instance=N.  A block cut short (no
 * min=/max= line), a percentile line outside a block or percentiles that
 * do not grow are errors.
 */
#include "parsers.h"
#include "shellcmd.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum sb_kind {
	SB_PROSE = 0,
	SB_BLANK,
	SB_CMD,         /* "./schbench -m 2 -t 16" behind a prompt or date */
	SB_ITER,        /* lkp: "Iteration : 1" */
	SB_INSTANCE,    /* lkp: "Instance: 1" */
	SB_WARMUP,      /* "warmup done, zeroing stats" */
	SB_NOISE,       /* "setting worker threads to 52", "..." */
	SB_HDR,         /* "Wakeup Latencies percentiles (usec) runtime 30 (s) ..." */
	SB_PCT,         /* "* 99.0th: 8 (2076 samples)" */
	SB_MINMAX,      /* "min=1, max=119" */
	SB_CUR,         /* "current rps: 15869.42" */
	SB_AVG,         /* "average rps: 17108.70" */
	SB_GOAL,        /* "final rps goal was 2000" */
	SB_TRANSFER,    /* "avg worker transfer: 123.45 ops/sec 1.23MB/s" */
	SB_DELAY,       /* "sched delay: message 12 (usec) worker 34 (usec)" */
};

static struct rx rx_hdr = RX("^\\s*(Wakeup\\s+Latencies|Request\\s+Latencies|RPS|Latency)\\s+percentiles\\s+"
			     "\\((usec|requests)\\)(?:\\s+runtime\\s+(\\d+)\\s+\\(s\\))?"
			     "(?:\\s+\\((\\d+)\\s+total\\s+samples\\))?\\s*$");
static struct rx rx_pct = RX("^\\s*(\\*\\s*)?(\\d+(?:\\.\\d+)?)th:\\s*(\\S+)(?:\\s+\\((\\d+)\\s+samples\\))?\\s*$");
static struct rx rx_minmax = RX("^\\s*(?:Over=\\d+,\\s*)?min=(\\d+),\\s*max=(\\d+)\\s*$");
static struct rx rx_cur = RX("^\\s*current\\s+rps:\\s*(\\S+)\\s*$");
/* an author's note may follow: "average rps: 907530.10    <<< close to 40% drop" */
static struct rx rx_avg = RX("^\\s*average\\s+rps:\\s*(\\S+)\\s*(?:((?:<+|\\(|--|#|\\[).*?)\\s*)?$");
static struct rx rx_goal = RX("^\\s*final\\s+rps\\s+goal\\s+was\\s+(\\d+)\\s*$");
static struct rx rx_transfer = RX("^\\s*avg\\s+worker\\s+transfer:\\s*(\\S+)\\s+ops/sec\\s+"
				  "([0-9.]+)\\s*(B|KB|MB|GB|TB|PB|EB)/s\\s*$");
static struct rx rx_delay = RX("^\\s*sched\\s+delay:\\s+message\\s+(\\d+)\\s+\\(usec\\)\\s+"
			       "worker\\s+(\\d+)\\s+\\(usec\\)\\s*$");
static struct rx rx_iter = RX("^\\s*Iteration\\s*:\\s*(\\d+)\\s*$");
static struct rx rx_instance = RX("^\\s*Instance\\s*:\\s*(\\d+)\\s*$");
static struct rx rx_warmup = RX("^\\s*warmup\\s+done,\\s+zeroing\\s+stats\\s*$");
static struct rx rx_noise = RX("^\\s*(?:setting\\s+worker\\s+threads\\s+to\\s+\\d+"
			       "|auto\\s+pinning\\s+message\\s+and\\s+worker\\s+threads"
			       "|Pinning\\s+to\\s+message\\s+thread\\s+index\\s+\\d+\\s+cpu\\s+\\d+"
			       "|split\\s+mode:\\s.*|matrix\\s+sizes:\\s.*"
			       "|final\\s+rps\\s+was\\s+\\d+|\\.\\.\\.)\\s*$");

#define SB_MAXTOK 64
/* Tokens that may stand before the program: prompt, date, wrappers. */
#define SB_MAXPREFIX 10
/* A command or lkp line leads a run only when a block follows within
 * this many lines (bounded look-ahead keeps claims linear). */
#define SB_LEAD 12

/* The command of line l: the line, or the body of a shell loop on it
 * ("for i in 1 2; do ./schbench -r 4; done"). */
static void cmd_text(const struct ingest_line *l, const char **s, size_t *len)
{
	const char *body;
	size_t n = shellcmd_loop_body(l->s, l->len, &body);

	*s = n ? body : l->s;
	*len = n ? n : l->len;
}

static int is_cmd(const struct ingest_line *l);

int schbench_cmdline_line(const struct ingest_line *l)
{
	/* a command alone, with options: "schbench -m 2 -r 100", not a
	 * sentence that names the program ("Tested schbench on ...") */
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t len = (size_t)(l->s + str_rtrim_len(l->s, l->len) - p);

	return len > 0 && len < 200 && p[len - 1] != '.' && p[len - 1] != ':' &&
	       str_find(p, len, " -") && is_cmd(l);
}

static int is_cmd(const struct ingest_line *l)
{
	struct ingest_tok tok[SB_MAXTOK];
	const char *s;
	size_t ntok, len;

	if (!str_find(l->s, l->len, "schbench"))
		return 0;
	cmd_text(l, &s, &len);
	ntok = ingest_split(s, len, tok, SB_MAXTOK);
	if (ntok == 0 || ntok > SB_MAXTOK)
		return 0;
	return shellcmd_prog(tok, ntok, "schbench", SB_MAXPREFIX) >= 0;
}

/* l without its leading blanks, Unicode ones too: a mailer that turns
 * tabs into EN SPACEs (U+2002) or NO-BREAK SPACEs leaves the numbers as
 * they were. */
static struct ingest_line trimmed(const struct ingest_line *l)
{
	struct ingest_line t = *l;
	const unsigned char *p = (const unsigned char *)l->s, *end = p + l->len;

	for (;;) {
		if (p < end && (*p == ' ' || *p == '\t'))
			p++;
		else if (end - p >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
			p += 2;
		else if (end - p >= 3 && p[0] == 0xe2 && p[1] == 0x80 && p[2] <= 0x8a && p[2] >= 0x80)
			p += 3;
		else
			break;
	}
	t.s = (const char *)p;
	t.len = (size_t)(end - p);
	return t;
}

static enum sb_kind classify(const struct ingest_line *line)
{
	struct ingest_line tl = trimmed(line);
	const struct ingest_line *l = &tl;
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t rest = (size_t)(l->s + l->len - p);

	if (rest == 0)
		return SB_BLANK;
	switch (*p) {
	case 'W': case 'R': case 'L':
		if (str_find(p, rest, "percentiles") && ingest_line_matches(&rx_hdr, l))
			return SB_HDR;
		break;
	case '*': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		if (ingest_line_matches(&rx_pct, l))
			return SB_PCT;
		break;
	case 'm': case 'O':
		if (ingest_line_matches(&rx_minmax, l))
			return SB_MINMAX;
		if (*p == 'm' && ingest_line_matches(&rx_noise, l))
			return SB_NOISE;
		break;
	case 'c':
		if (ingest_line_matches(&rx_cur, l))
			return SB_CUR;
		break;
	case 'a':
		if (ingest_line_matches(&rx_avg, l))
			return SB_AVG;
		if (ingest_line_matches(&rx_transfer, l))
			return SB_TRANSFER;
		if (ingest_line_matches(&rx_noise, l))
			return SB_NOISE;
		break;
	case 'f':
		if (ingest_line_matches(&rx_goal, l))
			return SB_GOAL;
		if (ingest_line_matches(&rx_noise, l))
			return SB_NOISE;
		break;
	case 's':
		if (ingest_line_matches(&rx_delay, l))
			return SB_DELAY;
		if (ingest_line_matches(&rx_noise, l))
			return SB_NOISE;
		break;
	case 'I':
		if (ingest_line_matches(&rx_iter, l))
			return SB_ITER;
		if (ingest_line_matches(&rx_instance, l))
			return SB_INSTANCE;
		break;
	case 'w':
		if (ingest_line_matches(&rx_warmup, l))
			return SB_WARMUP;
		break;
	case 'P': case '.':
		if (ingest_line_matches(&rx_noise, l))
			return SB_NOISE;
		break;
	default:
		break;
	}
	return is_cmd(l) ? SB_CMD : SB_PROSE;
}

/* Lines that lead into a run without being output of one. */
static int kind_leads(enum sb_kind k)
{
	return k == SB_CMD || k == SB_ITER || k == SB_INSTANCE || k == SB_WARMUP || k == SB_NOISE;
}

/* Is the header at lines[i] followed by its first percentile line (or,
 * for a block without samples, its min=, max= line)?  A header alone is
 * a sentence that quotes one, or a block whose numbers nothing here can
 * read: prose. */
static int header_has_block(const struct ingest_line *lines, size_t i, size_t n)
{
	enum sb_kind k = i + 1 < n ? classify(&lines[i + 1]) : SB_PROSE;

	return k == SB_PCT || k == SB_MINMAX;
}

/* Does a block header follow lines[i] within SB_LEAD lines of lead-ins
 * and blanks? */
static int header_follows(const struct ingest_line *lines, size_t i, size_t n)
{
	size_t k;

	for (k = i + 1; k < n && k <= i + SB_LEAD; k++) {
		enum sb_kind kind = classify(&lines[k]);
		if (kind == SB_HDR)
			return header_has_block(lines, k, n);
		if (kind != SB_BLANK && !kind_leads(kind))
			return 0;
	}
	return 0;
}

/*
 * A schbench piece: from a block header, or from a command / lkp line
 * that a block header follows, through every line schbench prints (blank
 * lines between them allowed), up to the first line it does not print.
 * Lead-in lines inside it belong to it only when a block follows them.
 */
static size_t schbench_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			     size_t n, int *score)
{
	enum sb_kind k;
	size_t i, end = 0;

	(void)opts;
	*score = 0;
	if (n == 0)
		return 0;
	k = classify(&lines[0]);
	if (k == SB_HDR ? !header_has_block(lines, 0, n)
			: (!kind_leads(k) || k == SB_NOISE || !header_follows(lines, 0, n)))
		return 0;
	for (i = 0; i < n; i++) {
		k = i ? classify(&lines[i]) : k;
		if (k == SB_PROSE || (k == SB_HDR && i && !header_has_block(lines, i, n)))
			break;
		if (k == SB_BLANK)
			continue;
		if (kind_leads(k) && !header_follows(lines, i, n)) {
			/* noise after a report ("final rps was") is its own */
			if (k == SB_NOISE)
				continue;
			break;
		}
		end = i + 1;
	}
	*score = 90;
	return end;
}

/* Parse ------------------------------------------------------------------ */

enum sb_sec { SEC_WAKEUP, SEC_REQUEST, SEC_RPS, SEC_LATENCY, SEC_N };
static const char *const sec_prefix[SEC_N] = { "wakeup", "request", "rps", "latency" };
static const char *const sec_label[SEC_N] = {
	"Wakeup Latencies", "Request Latencies", "RPS", "Latency",
};

enum sb_term { TERM_NONE, TERM_CURRENT, TERM_AVERAGE, TERM_GOAL, TERM_TRANSFER };

#define SB_MAXPCT 16

struct sb_section {
	int present;
	int kind;                   /* enum sb_sec */
	long line;
	long runtime;               /* -1: not printed */
	size_t npct;
	double pct[SB_MAXPCT], value[SB_MAXPCT];
	int closed;                 /* its min=, max= line was read */
	double min, max;
};

struct sb_report {
	struct sb_section sec[SEC_N];
	int nsec;
	long line;                  /* its first block */
	long runtime;               /* of its first block, -1 none */
	enum sb_term term;
	long term_line;
	double average_rps, rps_goal, transfer_ops, transfer_rate;
	int have_delay;
	double delay_message, delay_worker;
};

#define SB_MAXCFG 32

struct sb_state {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	struct kb_err *err;
	/* the config of the last command line */
	struct rec_kv cfg[SB_MAXCFG];
	size_t ncfg;
	long cmd_runtime;           /* its -r, -1 when not given */
	long cmd_line;
	int multi_instance;
	long instance;
	int iteration;              /* lkp's "Iteration : N" for the next run, 0 none */
	/* the reports of the run being read */
	struct sb_report *reps;
	size_t nreps, reps_cap;
	struct sb_section *open;    /* block whose min=, max= line is due */
	size_t intermediate;        /* reports not stored, for the note */
	long intermediate_line;
};

static int fail_at(struct sb_state *st, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* err = "path:line: schbench: <fmt ...>"; returns -1. */
static int fail_at(struct sb_state *st, long line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kb_err_set(st->err, st->ctx->path, line, "schbench: %s", msg);
}

/* The open block ended before its min=, max= line. */
static int cut_short(struct sb_state *st)
{
	return fail_at(st, st->open->line, "the '%s percentiles' block ends without its "
		       "min=, max= line (cut short?)", sec_label[st->open->kind]);
}

static void cfg_set(struct sb_state *st, const char *key, const char *value, size_t vlen)
{
	size_t i;
	const char *v = arena_strndup(&st->out->arena, value, vlen);

	for (i = 0; i < st->ncfg; i++)
		if (strcmp(st->cfg[i].key, key) == 0) {
			st->cfg[i].value = v;       /* getopt: the last one wins */
			return;
		}
	if (st->ncfg == SB_MAXCFG)
		return;
	st->cfg[st->ncfg].key = key;
	st->cfg[st->ncfg++].value = v;
}

/* schbench's options over its versions: name(s), config key, and whether
 * it takes a value.  -C took a value (message_cputime) until 2023 and is
 * a flag (calibrate) since; -j was a flag (jitter), then --json FILE. */
static const struct sb_opt {
	const char *s, *l1, *l2;
	const char *key;            /* NULL: read, not part of the config */
	int arg;
} sb_opts[] = {
	{ "-m", "--message-threads", NULL, "message_threads", 1 },
	{ "-t", "--threads", NULL, "threads", 1 },
	{ "-r", "--runtime", NULL, "runtime", 1 },
	{ "-F", "--cache_footprint", NULL, "footprint", 1 },
	{ "-n", "--operations", NULL, "operations", 1 },
	{ "-s", "--sleep_usec", "--sleeptime", "sleep", 1 },
	{ "-c", "--cputime", NULL, "cputime", 1 },
	{ "-p", "--pipe", NULL, "pipe", 1 },
	{ "-R", "--rps", NULL, "rps", 1 },
	{ "-A", "--auto-rps", NULL, "auto_rps", 1 },
	{ "-w", "--warmuptime", NULL, "warmup", 1 },
	{ "-z", "--zerotime", NULL, "zerotime", 1 },
	{ "-M", "--message-cpus", NULL, "message_cpus", 1 },
	{ "-W", "--worker-cpus", NULL, "worker_cpus", 1 },
	{ NULL, "--split", NULL, "split", 1 },
	{ "-i", "--intervaltime", NULL, NULL, 1 },     /* when reports print */
	{ "-J", "--jobname", NULL, NULL, 1 },
	{ "-L", "--no-locking", NULL, "locking", 0 },
	{ "-a", "--auto", NULL, "auto", 0 },
};

static int tok_is_value(const struct ingest_tok *t)
{
	return t->len > 0 && t->s[0] != '-';
}

/* Read the options of a command line into the config. */
static void read_cmd(struct sb_state *st, const struct ingest_line *l)
{
	struct ingest_tok tok[SB_MAXTOK];
	const char *s;
	size_t ntok, k, o, len;
	int start;

	cmd_text(l, &s, &len);
	ntok = ingest_split(s, len, tok, SB_MAXTOK);
	start = shellcmd_prog(tok, ntok, "schbench", SB_MAXPREFIX);

	st->ncfg = 0;
	st->cmd_runtime = -1;
	st->cmd_line = l->lineno;
	for (k = (size_t)start + 1; k < ntok; k++) {
		const struct ingest_tok *t = &tok[k];
		const char *val = NULL;
		size_t vlen = 0, nl = 0;

		for (o = 0; o < ARRAY_SIZE(sb_opts); o++) {
			const struct sb_opt *op = &sb_opts[o];
			if ((op->s && (nl = ingest_opt_match(t, op->s))) ||
			    (nl = ingest_opt_match(t, op->l1)) ||
			    (op->l2 && (nl = ingest_opt_match(t, op->l2))))
				break;
		}
		if (o < ARRAY_SIZE(sb_opts) && sb_opts[o].arg) {
			if (t->len > nl) {
				val = t->s + nl + (t->s[nl] == '=');
				vlen = t->len - nl - (t->s[nl] == '=');
			} else if (k + 1 < ntok && tok_is_value(&tok[k + 1])) {
				k++;
				val = tok[k].s;
				vlen = tok[k].len;
			}
			if (!val || !sb_opts[o].key)
				continue;
			cfg_set(st, sb_opts[o].key, val, vlen);
			if (strcmp(sb_opts[o].key, "runtime") == 0) {
				long v;
				if (num_parse_long(val, vlen, &v) == 0)
					st->cmd_runtime = v;
			}
			continue;
		}
		if (o < ARRAY_SIZE(sb_opts)) {
			/* flags: -L turns locking off, -a turns auto on */
			const char *flag = strcmp(sb_opts[o].key, "locking") == 0 ? "off" : "on";
			cfg_set(st, sb_opts[o].key, flag, strlen(flag));
			continue;
		}
		if (ingest_tok_is(t, "-C") || ingest_tok_is(t, "--calibrate") ||
		    ingest_tok_is(t, "--message_cputime")) {
			if (k + 1 < ntok && tok_is_value(&tok[k + 1]) &&
			    num_parse(tok[k + 1].s, tok[k + 1].len, &(double){ 0 }) == 0) {
				k++;
				cfg_set(st, "message_cputime", tok[k].s, tok[k].len);
			} else {
				cfg_set(st, "calibrate", "on", 2);
			}
			continue;
		}
		if (ingest_tok_is(t, "-j") || ingest_opt_match(t, "--json") || ingest_opt_match(t, "--jitter")) {
			/* output file or jitter: how it reports, not what it runs */
			if (ingest_tok_is(t, "-j") && k + 1 < ntok && tok_is_value(&tok[k + 1]) &&
			    num_parse(tok[k + 1].s, tok[k + 1].len, &(double){ 0 }) < 0)
				k++;
			else if (ingest_tok_is(t, "--json") && k + 1 < ntok)
				k++;
			continue;
		}
		/* an option this parser does not know: kept as written */
		if (t->len > 1 && t->s[0] == '-') {
			const char *name = t->s + 1 + (t->len > 2 && t->s[1] == '-');
			size_t len = (size_t)(t->s + t->len - name);
			const char *eq = memchr(name, '=', len);
			const char *key;

			if (eq)
				len = (size_t)(eq - name);
			key = arena_printf(&st->out->arena, "opt_%.*s", (int)len, name);
			if (eq)
				cfg_set(st, key, eq + 1, (size_t)(t->s + t->len - eq - 1));
			else if (k + 1 < ntok && tok_is_value(&tok[k + 1])) {
				k++;
				cfg_set(st, key, tok[k].s, tok[k].len);
			} else
				cfg_set(st, key, "on", 2);
			rec_note(st->out, l->lineno, "schbench option '%.*s' is not one kbench knows: "
				 "kept in the config as %s", (int)t->len, t->s, key);
		}
	}
}

/* "50.0" -> "p50", "99.9" -> "p99_9", "99.5000" -> "p99_5" */
static const char *pct_name(struct arena *a, const char *prefix, double pct)
{
	char num[32], *dot;

	snprintf(num, sizeof(num), "%g", pct);
	dot = strchr(num, '.');
	if (dot)
		*dot = '_';
	return arena_printf(a, "%s_p%s", prefix, num);
}

static void add_metric(struct sb_state *st, struct rec_run *r, const char *name, double v,
		       const char *unit, const char *better, const char *desc)
{
	rec_metric_declare(st->out, "schbench", name, unit, better, desc);
	rec_sample_add(st->out, r, name, v, unit, 0);
}

static struct rec_run *new_run(struct sb_state *st, long line, long runtime)
{
	struct rec_run *r = rec_run_new(st->out, "schbench", line);
	size_t i;

	for (i = 0; i < st->ncfg; i++)
		rec_run_config(st->out, r, st->cfg[i].key, st->cfg[i].value);
	if (runtime >= 0)
		rec_run_configf(st->out, r, "runtime", "%ld", runtime);
	if (st->multi_instance)
		rec_run_configf(st->out, r, "instance", "%ld", st->instance);
	r->iteration = st->iteration;
	if (st->ctx->variant)
		rec_run_variant(st->out, r, st->ctx->variant, st->ctx->variant_desc, REC_ORIGIN_CONTEXT);
	if (st->ctx->kernel)
		r->kernel = arena_strdup(&st->out->arena, st->ctx->kernel);
	return r;
}

static void emit_report(struct sb_state *st, const struct sb_report *rep)
{
	struct rec_run *r;

	if (st->cmd_runtime >= 0 && rep->runtime >= 0 && rep->runtime != st->cmd_runtime)
		rec_note(st->out, rep->line, "schbench: the block says runtime %ld (s), the command line "
			 "(line %ld) -r %ld: the block's is kept", rep->runtime, st->cmd_line, st->cmd_runtime);
	r = new_run(st, rep->line, rep->runtime);
	int s;
	size_t i;

	for (s = 0; s < SEC_N; s++) {
		const struct sb_section *sec = &rep->sec[s];
		int rps = s == SEC_RPS;
		const char *unit = rps ? "req/s" : "usec";
		const char *better = rps ? "higher" : "lower";

		if (!sec->present)
			continue;
		for (i = 0; i < sec->npct; i++)
			add_metric(st, r, pct_name(&st->out->arena, sec_prefix[s], sec->pct[i]),
				   sec->value[i], unit, better,
				   rps ? "schbench: requests per second, percentile of the per-second counts"
				       : "schbench: latency percentile");
		add_metric(st, r, arena_printf(&st->out->arena, "%s_min", sec_prefix[s]), sec->min,
			   unit, better, rps ? "schbench: slowest second's requests" : "schbench: smallest latency");
		add_metric(st, r, arena_printf(&st->out->arena, "%s_max", sec_prefix[s]), sec->max,
			   unit, better, rps ? "schbench: fastest second's requests" : "schbench: largest latency");
	}
	if (rep->term == TERM_AVERAGE)
		add_metric(st, r, "average_rps", rep->average_rps, "req/s", "higher",
			   "schbench: requests per second over the run");
	if (rep->term == TERM_GOAL)
		add_metric(st, r, "rps_goal", rep->rps_goal, "req/s", "higher",
			   "schbench -A: the request rate the auto-scaler reached");
	if (rep->term == TERM_TRANSFER) {
		add_metric(st, r, "transfer_ops", rep->transfer_ops, "ops/s", "higher",
			   "schbench -p: worker transfers per second");
		add_metric(st, r, "transfer_rate", rep->transfer_rate, "MB/s", "higher",
			   "schbench -p: bytes moved per second (MB = 2^20 bytes)");
	}
	if (rep->have_delay) {
		add_metric(st, r, "sched_delay_message", rep->delay_message, "usec", "lower",
			   "schbench: message threads' run delay (schedstat)");
		add_metric(st, r, "sched_delay_worker", rep->delay_worker, "usec", "lower",
			   "schbench: worker threads' run delay (schedstat)");
	}
}

/* Is report i of the run its final one (see the top of the file)? */
static int report_final(const struct sb_report *reps, size_t n, size_t i, const int *final)
{
	const struct sb_report *r = &reps[i];

	if (r->term == TERM_CURRENT)
		return 0;
	if (r->term != TERM_NONE)
		return 1;
	if (r->runtime < 0 || i + 1 == n)
		return 1;
	if (reps[i + 1].runtime >= 0 && reps[i + 1].runtime < r->runtime)
		return 1;
	return i > 0 && reps[i - 1].term == TERM_NONE && !final[i - 1] &&
	       reps[i - 1].runtime == r->runtime;
}

/* The run's reports are all read: store its final ones. */
static int end_run(struct sb_state *st)
{
	size_t i, stored = 0;
	int *final;

	if (st->open)
		return cut_short(st);
	if (st->nreps == 0)
		return 0;
	final = arena_alloc(&st->out->arena, st->nreps * sizeof(*final));
	for (i = 0; i < st->nreps; i++) {
		const struct sb_report *rep = &st->reps[i];

		final[i] = report_final(st->reps, st->nreps, i, final);
		if (!final[i]) {
			if (!st->intermediate++)
				st->intermediate_line = rep->line;
			continue;
		}
		/* by position only: the runtime says whether the run got to its end */
		if (rep->term == TERM_NONE && rep->runtime >= 0 && st->cmd_runtime > 0 &&
		    rep->runtime != st->cmd_runtime) {
			struct rec_run *r = new_run(st, rep->line, -1);
			rec_run_fail(st->out, r, "the last block is at runtime %ld (s) of -r %ld: "
				     "the run was cut before its final block", rep->runtime, st->cmd_runtime);
			stored++;
			continue;
		}
		emit_report(st, rep);
		stored++;
	}
	if (!stored) {
		struct rec_run *r = new_run(st, st->reps[0].line, -1);
		rec_run_fail(st->out, r, "no final block: the output stops after %zu intermediate "
			     "report%s", st->nreps, st->nreps == 1 ? "" : "s");
	}
	st->nreps = 0;
	st->iteration = 0;
	return 0;
}

static struct sb_report *cur_report(struct sb_state *st)
{
	return st->nreps ? &st->reps[st->nreps - 1] : NULL;
}

static struct sb_report *new_report(struct sb_state *st, long line)
{
	struct sb_report *rep;

	arena_grow(&st->out->arena, &st->reps, &st->reps_cap, st->nreps + 1, sizeof(*st->reps));
	rep = &st->reps[st->nreps++];
	memset(rep, 0, sizeof(*rep));
	rep->line = line;
	rep->runtime = -1;
	return rep;
}

static int read_header(struct sb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[5];
	struct sb_report *rep = cur_report(st);
	struct sb_section *sec;
	int s;
	long runtime = -1;

	if (st->open)
		return cut_short(st);
	rx_match(&rx_hdr, l->s, l->len, cap, 5);
	if (cap[1].s[0] == 'W')
		s = SEC_WAKEUP;
	else if (cap[1].s[0] == 'L')
		s = SEC_LATENCY;
	else
		s = cap[1].s[1] == 'e' ? SEC_REQUEST : SEC_RPS;
	if (cap[3].s && num_parse_long(cap[3].s, cap[3].len, &runtime) < 0)
		return fail_at(st, l->lineno, "bad runtime in a block header");
	/* a new report: after a closing line, or when this kind is there already */
	if (!rep || rep->term != TERM_NONE || rep->sec[s].present ||
	    (rep->runtime >= 0 && runtime >= 0 && runtime != rep->runtime) ||
	    rep->sec[SEC_LATENCY].present || s == SEC_LATENCY)
		rep = new_report(st, l->lineno);
	sec = &rep->sec[s];
	sec->present = 1;
	sec->kind = s;
	sec->line = l->lineno;
	sec->runtime = runtime;
	if (rep->runtime < 0)
		rep->runtime = runtime;
	rep->nsec++;
	st->open = sec;
	return 0;
}

static int read_pct(struct sb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[5];
	struct sb_section *sec = st->open;
	double pct, v;

	if (!sec || sec->closed)
		return fail_at(st, l->lineno, "a percentile line outside a percentiles block");
	rx_match(&rx_pct, l->s, l->len, cap, 5);
	if (num_parse(cap[2].s, cap[2].len, &pct) < 0 || pct <= 0 || pct >= 100 ||
	    num_parse(cap[3].s, cap[3].len, &v) < 0 || v < 0)
		return fail_at(st, l->lineno, "bad percentile line '%.*s'", (int)l->len, l->s);
	if (sec->npct == SB_MAXPCT)
		return fail_at(st, l->lineno, "too many percentiles in one block");
	if (sec->npct && (pct <= sec->pct[sec->npct - 1] || v < sec->value[sec->npct - 1]))
		return fail_at(st, l->lineno, "percentiles out of order: '%.*s'", (int)l->len, l->s);
	sec->pct[sec->npct] = pct;
	sec->value[sec->npct++] = v;
	return 0;
}

static int read_minmax(struct sb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[3];
	struct sb_section *sec = st->open;

	if (!sec) {
		/* schbench prints only this line for a block without samples */
		rec_note(st->out, l->lineno, "schbench: a block with no samples (min=, max= alone): nothing to store");
		return 0;
	}
	if (sec->npct == 0)
		return fail_at(st, l->lineno, "the '%s percentiles' block has no percentile lines",
			       sec_label[sec->kind]);
	rx_match(&rx_minmax, l->s, l->len, cap, 3);
	num_parse(cap[1].s, cap[1].len, &sec->min);
	num_parse(cap[2].s, cap[2].len, &sec->max);
	if (sec->min > sec->max)
		return fail_at(st, l->lineno, "min above max");
	sec->closed = 1;
	st->open = NULL;
	return 0;
}

/* "average rps: X" and the other lines that close a report. */
static int read_term(struct sb_state *st, const struct ingest_line *l, enum sb_kind k)
{
	struct sb_report *rep = cur_report(st);
	struct rx_cap cap[4];
	double v = 0, rate = 0;

	if (st->open)
		return cut_short(st);
	if (!rep || rep->term != TERM_NONE)
		return fail_at(st, l->lineno, "'%.*s' without the percentile blocks it closes",
			       (int)l->len, l->s);
	switch (k) {
	case SB_CUR:
		rx_match(&rx_cur, l->s, l->len, cap, 2);
		rep->term = TERM_CURRENT;
		break;
	case SB_AVG:
		rx_match(&rx_avg, l->s, l->len, cap, 3);
		rep->term = TERM_AVERAGE;
		break;
	case SB_GOAL:
		rx_match(&rx_goal, l->s, l->len, cap, 2);
		rep->term = TERM_GOAL;
		break;
	default:
		rx_match(&rx_transfer, l->s, l->len, cap, 4);
		rep->term = TERM_TRANSFER;
		break;
	}
	if (num_parse(cap[1].s, cap[1].len, &v) < 0 || v < 0 ||
	    (k == SB_TRANSFER && (num_parse(cap[2].s, cap[2].len, &rate) < 0 || rate < 0)))
		return fail_at(st, l->lineno, "bad number in '%.*s'", (int)l->len, l->s);
	rep->term_line = l->lineno;
	if (k == SB_AVG && cap[2].s)
		rec_note(st->out, l->lineno, "schbench: the words after average rps ('%.*s') are the "
			 "author's, not schbench's: dropped", (int)(cap[2].len > 60 ? 60 : cap[2].len), cap[2].s);
	if (k == SB_AVG)
		rep->average_rps = v;
	else if (k == SB_GOAL)
		rep->rps_goal = v;
	else if (k == SB_TRANSFER) {
		static const char *const units = "BKMGTPE";
		const char *u = strchr(units, cap[3].s[0]);
		int steps = (int)(u - units) - 2;      /* MB: 0 */

		rep->transfer_ops = v;
		rep->transfer_rate = rate * pow(1024.0, steps);
	}
	return 0;
}

static int read_delay(struct sb_state *st, const struct ingest_line *l)
{
	struct sb_report *rep = cur_report(st);
	struct rx_cap cap[3];

	if (st->open)
		return cut_short(st);
	if (!rep || rep->have_delay)
		return fail_at(st, l->lineno, "'sched delay' without the report it belongs to");
	rx_match(&rx_delay, l->s, l->len, cap, 3);
	num_parse(cap[1].s, cap[1].len, &rep->delay_message);
	num_parse(cap[2].s, cap[2].len, &rep->delay_worker);
	rep->have_delay = 1;
	return 0;
}

static int schbench_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct sb_state st;
	size_t i;
	long first_instance = -1;
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.out = out;
	st.err = err;
	st.cmd_runtime = -1;
	/* the command typed in the prose above ("schbench -m 2 -r 100" over
	 * the blocks it printed); a command line of the block's own wins */
	if (ctx->schbench_cmdline) {
		read_cmd(&st, ctx->schbench_cmdline);
		rec_note(out, ctx->schbench_cmdline->lineno, "schbench: the command line in the "
			 "prose above gives the configuration of the blocks below it");
	}
	for (i = 0; i < n; i++) {
		struct rx_cap cap[2];
		long v;

		struct ingest_line tl = trimmed(&lines[i]);

		if (classify(&tl) != SB_INSTANCE)
			continue;
		rx_match(&rx_instance, tl.s, tl.len, cap, 2);
		num_parse_long(cap[1].s, cap[1].len, &v);
		if (first_instance < 0)
			first_instance = v;
		else if (v != first_instance)
			st.multi_instance = 1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		struct ingest_line tl = trimmed(&lines[i]);
		const struct ingest_line *l = &tl;
		enum sb_kind k = classify(l);
		struct rx_cap cap[2];
		long v;

		switch (k) {
		case SB_BLANK:
		case SB_NOISE:
		case SB_PROSE:          /* not claimed; cannot happen */
			break;
		case SB_CMD:
			rc = end_run(&st);
			if (rc == 0)
				read_cmd(&st, l);
			break;
		case SB_ITER:
			rc = end_run(&st);
			rx_match(&rx_iter, l->s, l->len, cap, 2);
			if (num_parse_long(cap[1].s, cap[1].len, &v) == 0 && v > 0 && v < 1000000)
				st.iteration = (int)v;
			break;
		case SB_INSTANCE:
			rc = end_run(&st);
			rx_match(&rx_instance, l->s, l->len, cap, 2);
			num_parse_long(cap[1].s, cap[1].len, &st.instance);
			break;
		case SB_WARMUP:
			/* once a run, when -w seconds are over: before its first
			 * report, or between two of them */
			break;
		case SB_HDR:
			rc = read_header(&st, l);
			break;
		case SB_PCT:
			rc = read_pct(&st, l);
			break;
		case SB_MINMAX:
			rc = read_minmax(&st, l);
			break;
		case SB_CUR:
		case SB_AVG:
		case SB_GOAL:
		case SB_TRANSFER:
			rc = read_term(&st, l, k);
			break;
		case SB_DELAY:
			rc = read_delay(&st, l);
			break;
		}
	}
	if (rc == 0)
		rc = end_run(&st);
	if (rc == 0 && st.intermediate)
		rec_note(out, st.intermediate_line,
			 "schbench: %zu intermediate report%s (printed every -i seconds) not stored: "
			 "each run is its final report", st.intermediate, st.intermediate == 1 ? "" : "s");
	return rc;
}

const struct ingest_parser schbench_parser = {
	"schbench",
	"schbench percentile blocks, e.g. '  * 99.0th: 8   (2076 samples)', 'average rps: 17108.70'",
	schbench_claim, schbench_parse,
};
