/*
 * perfbench.c - perf bench's suites other than sched messaging (which is
 * hackbench, read by hackbench.c):
 *
 *   # Running 'sched/pipe' benchmark:                    sched pipe
 *   # Executed 1000000 pipe operations between two processes
 *
 *        Total time: 4.567 [sec]
 *
 *          4.567890 usecs/op
 *            218923 ops/sec
 *
 *   # Executed 10000000 getppid() calls                  syscall basic/getpgid/fork/execve
 *        Total time: 1.234 [sec]
 *   ...
 *
 *   # Running 'mem/memcpy' benchmark:                    mem memcpy/memset
 *   # function 'default' (Default memcpy() provided by glibc)
 *   # Copying 1MB bytes ...
 *
 *         8.245310 GB/sec
 *
 *   # Running 'numa/mem' benchmark:                      numa mem
 *    # Running main, "perf bench numa numa-mem -p 128 -t 2 -m -0 -P 300"
 *    ...                                                 ('#' lines: setup, progress)
 *    main,                                    6.801, secs,           runtime-max/thread
 *    main,                                   31.463, GB/sec,         total-speed
 *
 *   # Running 'futex/hash' benchmark:                    futex hash/wake/requeue/wake-parallel
 *   Run summary [PID 3042]: 8 threads, each operating on 1024 [shared] futexes for 300 secs.
 *   [thread  0] futexes: 0x5629bb07a650 ... 0x5629bb07b64c [ 490919 ops/sec ]
 *   Averaged 491926 operations/sec (+- 0.19%), total secs = 300
 *
 * and `perf bench --format=simple sched pipe`, which prints the bare
 * seconds under its command line.
 *
 * One run per block: benchmarks perf-bench-sched-pipe (config loops,
 * mode, and cgroups from a command line's -G), perf-bench-syscall (syscall, loops): time (s), usecs_per_op
 * (usec), ops_per_sec (higher); perf-bench-mem (op, function, size):
 * bandwidth in GB/s (perf's GB: 2^30 bytes; its "MB/sec", "KB/sec" and
 * "bytes/sec" are converted), or cycles_per_byte with -c;
 * perf-bench-numa-mem (test, args, tasks): one metric per result row as
 * perf names it (runtime-max/thread, total-speed ...); perf-bench-futex
 * (op, threads, futexes): ops_per_sec, or the wake/requeue time in ms,
 * and perf's relative standard error of that mean as rse_pct.
 *
 * Headers that nothing follows are not claimed (prose); a block of a piece
 * that stops before its result is an error (the output was cut); a sched
 * pipe or syscall block without one of its three result lines is stored
 * with a note (authors cut them).
 */
#include "parsers.h"
#include "shellcmd.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum pb_kind {
	PB_PROSE = 0,
	PB_BLANK,
	PB_CMD,             /* "perf bench sched pipe -l 100000" behind a prompt */
	PB_RUNNING,         /* "# Running 'sched/pipe' benchmark:" */
	PB_EXEC_PIPE,       /* "# Executed 1000000 pipe operations between two processes" */
	PB_EXEC_CALLS,      /* "# Executed 10000000 getppid() calls" */
	PB_TOTAL,           /* "Total time: 4.567 [sec]" */
	PB_USECS,           /* "4.567890 usecs/op" */
	PB_OPS,             /* "218923 ops/sec" */
	PB_MEM_FN,          /* "# function 'default' (Default memcpy() provided by glibc)" */
	PB_MEM_SIZE,        /* "# Copying 1MB bytes ..." */
	PB_MEM_BPS,         /* "8.245310 GB/sec" */
	PB_MEM_CYCLES,      /* "1.234567 cycles/byte" */
	PB_NUMA_TEST,       /* ' # Running main, "perf bench numa numa-mem -p 2 ..."' */
	PB_NUMA_ROW,        /* " main,   6.801, secs,   runtime-max/thread" */
	PB_HASH,            /* "#..." inside numa mem: setup and progress */
	PB_FUTEX_SUMMARY,   /* "Run summary [PID 3042]: 8 threads, ..." */
	PB_FUTEX_DETAIL,    /* "[thread  0] futexes: ...", "[Run 1]: Wokeup 8 of 8 ..." */
	PB_FUTEX_RESULT,    /* "Averaged 491926 operations/sec (+- 0.19%), ...", "Wokeup ... in 0.0186 ms (+-3.12%)" */
	PB_BARE,            /* "0.276" under a --format=simple command */
};

static struct rx rx_running = RX("^\\s*#\\s*Running\\s+'?([a-z0-9_-]+)/([a-z0-9_-]+)'?\\s+benchmark\\.*:?\\s*$");
static struct rx rx_exec_pipe = RX("^\\s*#\\s*Executed\\s+(\\d+)\\s+pipe\\s+operations\\s+between\\s+two\\s+"
				   "(processes|threads)\\s*$");
static struct rx rx_exec_calls = RX("^\\s*#\\s*Executed\\s+(\\d+)\\s+([a-z_0-9]+)\\(\\)\\s+calls\\s*$");
static struct rx rx_total = RX("^\\s*Total\\s+time:\\s*(\\S+)\\s*\\[sec\\]\\s*$");
static struct rx rx_usecs = RX("^\\s*(\\S+)\\s+usecs/op\\s*$");
static struct rx rx_ops = RX("^\\s*(\\S+)\\s+ops/sec\\s*$");
static struct rx rx_mem_fn = RX("^\\s*#\\s*function\\s+'([^']+)'\\s+\\((.*)\\)\\s*$");
static struct rx rx_mem_size = RX("^\\s*#\\s*Copying\\s+(\\S+)\\s+bytes\\s*\\.\\.\\.\\s*$");
/* "%14lfd KB/sec" really prints a 'd' after the number */
static struct rx rx_mem_bps = RX("^\\s*([0-9.]+)d?\\s+(bytes|KB|MB|GB)/sec"
				 "(?:/thread\\s+\\(\\s*\\+-\\s*[0-9.]+%\\s*\\))?\\s*$");
static struct rx rx_mem_cycles = RX("^\\s*([0-9.]+)\\s+cycles/byte(?:/thread\\s+\\(\\s*\\+-\\s*[0-9.]+%\\s*\\))?\\s*$");
static struct rx rx_numa_test = RX("^\\s*#\\s*Running\\s+([A-Za-z0-9_.-]+),\\s+\"perf\\s+bench\\s+numa\\s+"
				   "(?:numa-)?mem\\s*(.*?)\"\\s*$");
static struct rx rx_numa_row = RX("^\\s*([A-Za-z0-9_.-]+),\\s+(-?[0-9.]+),\\s+(secs|%|GB|nsecs|GB/sec),\\s+"
				  "([A-Za-z0-9_./-]+)\\s*$");
static struct rx rx_numa_tasks = RX("^\\s*#\\s*(\\d+)\\s+tasks\\s+will\\s+execute");
static struct rx rx_futex_summary = RX("^\\s*Run\\s+summary\\s+\\[PID\\s+\\d+\\]:\\s+(.*)$");
static struct rx rx_futex_detail = RX("^\\s*\\[(?:thread\\s+\\d+|Run\\s+\\d+)\\]");
static struct rx rx_futex_hash = RX("^\\s*Averaged\\s+(\\d+)\\s+operations/sec\\s+\\(\\+-\\s*([0-9.]+)%\\),"
				    "\\s+total\\s+secs\\s*=\\s*(\\d+)\\s*$");
static struct rx rx_futex_time = RX("^\\s*(Wokeup|Requeued|Avg\\s+per-thread\\s+latency)\\s+.*?\\s+in\\s+"
				    "([0-9.]+)\\s+ms\\s+\\(\\+-\\s*([0-9.]+)%\\)\\s*$");
static struct rx rx_bare = RX("^\\s*(\\d+\\.\\d+)\\s*$");

#define PB_MAXTOK 64
#define PB_MAXPREFIX 10
/* A command line leads a block only when one follows within this many
 * lines (bounded look-ahead keeps claims linear). */
#define PB_LEAD 8

/* What a command line says. */
struct pb_cmd {
	char coll[16], name[24];    /* "sched", "pipe" */
	int simple;                 /* --format=simple / -f simple */
	long loops;                 /* -l / --loop / --nr_loops, -1 when not given */
	int threaded;               /* sched pipe -T */
	char cgroups[64];           /* sched pipe -G / --cgroups (not printed) */
	char page[16];              /* mem -p / --page (not printed) */
};

/* Parse a "perf bench ..." line into c; 0 when it is one, -1 when not. */
static int read_cmd(const struct ingest_line *l, struct pb_cmd *c)
{
	struct ingest_tok tok[PB_MAXTOK];
	size_t ntok, k;
	int start;

	memset(c, 0, sizeof(*c));
	c->loops = -1;
	if (!str_find(l->s, l->len, "perf") || !str_find(l->s, l->len, "bench"))
		return -1;
	ntok = ingest_split(l->s, l->len, tok, PB_MAXTOK);
	if (ntok == 0 || ntok > PB_MAXTOK)
		return -1;
	start = shellcmd_prog(tok, ntok, "perf", PB_MAXPREFIX);
	if (start < 0 || (size_t)start + 1 >= ntok || !ingest_tok_is(&tok[start + 1], "bench"))
		return -1;
	for (k = (size_t)start + 2; k < ntok; k++) {
		const struct ingest_tok *t = &tok[k];
		size_t nl;

		if (ingest_tok_is(t, "--format=simple") ||
		    (ingest_tok_is(t, "-f") && k + 1 < ntok && ingest_tok_is(&tok[k + 1], "simple"))) {
			c->simple = 1;
			k += t->len == 2;
			continue;
		}
		if ((nl = ingest_opt_match(t, "-l")) || (nl = ingest_opt_match(t, "--loop")) ||
		    (nl = ingest_opt_match(t, "--nr_loops"))) {
			const char *v = t->s + nl + (t->len > nl && t->s[nl] == '=');
			size_t vlen = (size_t)(t->s + t->len - v);
			if (vlen == 0 && k + 1 < ntok) {
				k++;
				v = tok[k].s;
				vlen = tok[k].len;
			}
			if (num_parse_long(v, vlen, &c->loops) < 0)
				c->loops = -1;
			continue;
		}
		if ((nl = ingest_opt_match(t, "-G")) || (nl = ingest_opt_match(t, "--cgroups")) ||
		    (nl = ingest_opt_match(t, "-p")) || (nl = ingest_opt_match(t, "--page"))) {
			int cg = ingest_opt_match(t, "-G") || ingest_opt_match(t, "--cgroups");
			char *dst = cg ? c->cgroups : c->page;
			size_t cap = cg ? sizeof(c->cgroups) : sizeof(c->page);
			const char *v = t->s + nl + (t->len > nl && t->s[nl] == '=');
			size_t vlen = (size_t)(t->s + t->len - v);

			if (vlen == 0 && k + 1 < ntok) {
				k++;
				v = tok[k].s;
				vlen = tok[k].len;
			}
			if (vlen < cap) {
				memcpy(dst, v, vlen);
				dst[vlen] = '\0';
			}
			continue;
		}
		if (ingest_tok_is(t, "-T") || ingest_tok_is(t, "--threaded")) {
			c->threaded = 1;
			continue;
		}
		if (t->s[0] == '-' || c->name[0])
			continue;
		if (!c->coll[0] && t->len < sizeof(c->coll))
			memcpy(c->coll, t->s, t->len);
		else if (c->coll[0] && t->len < sizeof(c->name))
			memcpy(c->name, t->s, t->len);
	}
	/* sched messaging is hackbench's (hackbench.c) */
	if (!c->coll[0] || !strcmp(c->name, "messaging"))
		return -1;
	return 0;
}

static int cap_is(const struct rx_cap *c, const char *word)
{
	return c->len == strlen(word) && memcmp(c->s, word, c->len) == 0;
}

/* The suites this parser reads (sched messaging is hackbench.c's; epoll,
 * internals, breakpoint ... are not read: their lines stay prose). */
static int suite_known(const struct rx_cap *coll, const struct rx_cap *name)
{
	if (cap_is(coll, "sched"))
		return cap_is(name, "pipe");
	if (cap_is(coll, "numa"))
		return cap_is(name, "mem");
	if (cap_is(coll, "mem"))
		return cap_is(name, "memcpy") || cap_is(name, "memset");
	if (cap_is(coll, "futex"))
		return cap_is(name, "hash") || cap_is(name, "wake") || cap_is(name, "wake-parallel") ||
		       cap_is(name, "requeue");
	return cap_is(coll, "syscall");
}

static enum pb_kind classify(const struct ingest_line *l, int in_numa)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t rest = (size_t)(l->s + l->len - p);
	struct rx_cap cap[3];
	struct pb_cmd cmd;

	if (rest == 0)
		return PB_BLANK;
	/* numa mem's rows are led by their test's name, whatever its letter */
	if (in_numa && *p != '#' && memchr(p, ',', rest) && ingest_line_matches(&rx_numa_row, l))
		return PB_NUMA_ROW;
	switch (*p) {
	case '#':
		if (rest > 9 && str_find(p, rest, "Running")) {
			if (rx_match(&rx_running, l->s, l->len, cap, 3) > 0)
				return suite_known(&cap[1], &cap[2]) ? PB_RUNNING : PB_PROSE;
			if (ingest_line_matches(&rx_numa_test, l))
				return PB_NUMA_TEST;
		}
		if (str_find(p, rest, "Executed")) {
			if (ingest_line_matches(&rx_exec_pipe, l))
				return PB_EXEC_PIPE;
			if (ingest_line_matches(&rx_exec_calls, l))
				return PB_EXEC_CALLS;
		}
		if (ingest_line_matches(&rx_mem_fn, l))
			return PB_MEM_FN;
		if (ingest_line_matches(&rx_mem_size, l))
			return PB_MEM_SIZE;
		if (in_numa)
			return PB_HASH;
		break;
	case 'T':
		if (ingest_line_matches(&rx_total, l))
			return PB_TOTAL;
		break;
	case 'R':
		if (ingest_line_matches(&rx_futex_summary, l))
			return PB_FUTEX_SUMMARY;
		if (ingest_line_matches(&rx_futex_time, l))
			return PB_FUTEX_RESULT;
		break;
	case '[':
		if (ingest_line_matches(&rx_futex_detail, l))
			return PB_FUTEX_DETAIL;
		break;
	case 'A': case 'W':
		if (ingest_line_matches(&rx_futex_hash, l) || ingest_line_matches(&rx_futex_time, l))
			return PB_FUTEX_RESULT;
		break;
	default:
		if ((*p >= '0' && *p <= '9') || *p == '.') {
			if (str_find(p, rest, "usecs/op") && ingest_line_matches(&rx_usecs, l))
				return PB_USECS;
			if (str_find(p, rest, "ops/sec") && ingest_line_matches(&rx_ops, l))
				return PB_OPS;
			if (str_find(p, rest, "/sec") && ingest_line_matches(&rx_mem_bps, l))
				return PB_MEM_BPS;
			if (str_find(p, rest, "cycles/byte") && ingest_line_matches(&rx_mem_cycles, l))
				return PB_MEM_CYCLES;
			if (ingest_line_matches(&rx_bare, l))
				return PB_BARE;
		}
		break;
	}
	if (read_cmd(l, &cmd) == 0)
		return PB_CMD;
	return PB_PROSE;
}

/* Lines that only make sense inside a block (a claim cannot start there). */
static int kind_starts(enum pb_kind k)
{
	return k == PB_RUNNING || k == PB_EXEC_PIPE || k == PB_EXEC_CALLS || k == PB_MEM_FN ||
	       k == PB_NUMA_TEST;
}

/* Lines that are a result (a block without one is no output). */
static int kind_is_result(enum pb_kind k)
{
	return k == PB_TOTAL || k == PB_USECS || k == PB_OPS || k == PB_MEM_BPS || k == PB_MEM_CYCLES ||
	       k == PB_NUMA_ROW || k == PB_FUTEX_RESULT || k == PB_BARE;
}

/* Track whether we are inside numa mem's output (its '#' lines). */
static int numa_after(enum pb_kind k, const struct ingest_line *l, int in_numa)
{
	struct rx_cap cap[3];

	if (k == PB_NUMA_TEST)
		return 1;
	if (k == PB_RUNNING) {
		rx_match(&rx_running, l->s, l->len, cap, 3);
		return cap[1].len == 4 && !memcmp(cap[1].s, "numa", 4);
	}
	return in_numa && k != PB_CMD;
}

/* Does a block start (or, for a --format=simple command, a bare number
 * follow) within PB_LEAD lines after the command at lines[i]? */
static int block_follows(const struct ingest_line *lines, size_t i, size_t n)
{
	struct pb_cmd cmd;
	size_t k;

	read_cmd(&lines[i], &cmd);
	for (k = i + 1; k < n && k <= i + PB_LEAD; k++) {
		enum pb_kind kind = classify(&lines[k], 0);
		if (kind_starts(kind))
			return 1;
		if (kind == PB_BARE)
			return cmd.simple && !strcmp(cmd.coll, "sched") && !strcmp(cmd.name, "pipe");
		if (kind != PB_BLANK)
			return 0;
	}
	return 0;
}

/*
 * A perf bench piece: from a block's first line (or a command line that
 * one follows) through every line perf bench prints, blank lines between
 * them allowed, up to the first line it does not print.
 */
static size_t perfbench_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			      size_t n, int *score)
{
	enum pb_kind k;
	struct pb_cmd cmd;
	size_t i, end = 0;
	int in_numa = 0, simple = 0, results = 0;

	(void)opts;
	*score = 0;
	if (n == 0)
		return 0;
	k = classify(&lines[0], 0);
	if (!kind_starts(k) && (k != PB_CMD || !block_follows(lines, 0, n)))
		return 0;
	for (i = 0; i < n; i++) {
		if (i)
			k = classify(&lines[i], in_numa);
		if (k == PB_PROSE)
			break;
		in_numa = numa_after(k, &lines[i], in_numa);
		if (k == PB_BLANK)
			continue;
		if (k == PB_CMD) {
			if (!block_follows(lines, i, n))
				break;
			read_cmd(&lines[i], &cmd);
			simple = cmd.simple;
		} else if (k == PB_BARE) {
			/* a bare number is a result only under its --format=simple command */
			if (!simple)
				break;
			simple = 0;
		}
		results |= kind_is_result(k);
		end = i + 1;
	}
	if (!results) {
		/* headers and nothing they printed (a quote, a cut file): prose;
		 * no claim starting before line i finds more */
		*score = -(int)(i < INT_MAX ? i : INT_MAX);
		return 0;
	}
	*score = 90;
	return end;
}

/* Parse ------------------------------------------------------------------ */

enum pb_bench { B_NONE, B_PIPE, B_SYSCALL, B_MEM, B_NUMA, B_FUTEX };

static const char *const bench_name[] = {
	"", "perf-bench-sched-pipe", "perf-bench-syscall", "perf-bench-mem",
	"perf-bench-numa-mem", "perf-bench-futex",
};

#define PB_MAXKV 8
#define PB_MAXVAL 24

struct pb_block {
	enum pb_bench bench;
	long line;
	const char *what;           /* "sched/pipe", for messages */
	struct rec_kv cfg[PB_MAXKV];
	size_t ncfg;
	struct { const char *metric, *unit, *better, *desc; double v; } val[PB_MAXVAL];
	size_t nval;
	int have_total, have_usecs, have_ops, have_result;
};

struct pb_state {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	struct kb_err *err;
	struct pb_block b;
	char suite[48];             /* the last "# Running 'x/y'" */
	struct pb_cmd cmd;          /* the last command line */
	int have_cmd;
	int in_numa;
};

static void cfg_set(struct pb_state *st, const char *key, const char *value, size_t len)
{
	struct pb_block *b = &st->b;
	size_t i;
	const char *v = arena_strndup(&st->out->arena, value, len);

	for (i = 0; i < b->ncfg; i++)
		if (!strcmp(b->cfg[i].key, key)) {
			b->cfg[i].value = v;
			return;
		}
	if (b->ncfg < PB_MAXKV) {
		b->cfg[b->ncfg].key = key;
		b->cfg[b->ncfg++].value = v;
	}
}

static const char *cfg_get(const struct pb_state *st, const char *key)
{
	size_t i;

	for (i = 0; i < st->b.ncfg; i++)
		if (!strcmp(st->b.cfg[i].key, key))
			return st->b.cfg[i].value;
	return NULL;
}

static void cfg_setf(struct pb_state *st, const char *key, long v)
{
	char num[32];

	snprintf(num, sizeof(num), "%ld", v);
	cfg_set(st, key, num, strlen(num));
}

static int add_val(struct pb_state *st, long line, const char *metric, double v, const char *unit,
		   const char *better, const char *desc)
{
	struct pb_block *b = &st->b;
	size_t i;

	for (i = 0; i < b->nval; i++)
		if (!strcmp(b->val[i].metric, metric))
			return kb_err_set(st->err, st->ctx->path, line,
					  "perf bench: %s printed twice in one %s block", metric, b->what);
	if (b->nval == PB_MAXVAL)
		return kb_err_set(st->err, st->ctx->path, line, "perf bench: too many results in one block");
	b->val[b->nval].metric = metric;
	b->val[b->nval].unit = unit;
	b->val[b->nval].better = better;
	b->val[b->nval].desc = desc;
	b->val[b->nval++].v = v;
	b->have_result = 1;
	return 0;
}

/* Store the block under way, if any. */
static int end_block(struct pb_state *st)
{
	struct pb_block *b = &st->b;
	struct rec_run *r;
	size_t i;

	if (b->bench == B_NONE)
		return 0;
	if (!b->have_result)
		return kb_err_set(st->err, st->ctx->path, b->line,
				  "perf bench: the %s block has no result (cut short?)", b->what);
	if ((b->bench == B_PIPE || b->bench == B_SYSCALL) && b->have_result && !st->cmd.simple &&
	    (!b->have_total || !b->have_usecs || !b->have_ops))
		rec_note(st->out, b->line, "perf bench: the %s block shows no %s line (cut by the "
			 "author?): stored without it", b->what,
			 !b->have_total ? "Total time" : !b->have_usecs ? "usecs/op" : "ops/sec");
	r = rec_run_new(st->out, bench_name[b->bench], b->line);
	for (i = 0; i < b->ncfg; i++)
		rec_run_config(st->out, r, b->cfg[i].key, b->cfg[i].value);
	if (st->ctx->variant)
		rec_run_variant(st->out, r, st->ctx->variant, st->ctx->variant_desc, REC_ORIGIN_CONTEXT);
	if (st->ctx->kernel)
		r->kernel = arena_strdup(&st->out->arena, st->ctx->kernel);
	for (i = 0; i < b->nval; i++) {
		rec_metric_declare(st->out, bench_name[b->bench], b->val[i].metric, b->val[i].unit,
				   b->val[i].better, b->val[i].desc);
		rec_sample_add(st->out, r, b->val[i].metric, b->val[i].v, b->val[i].unit, 0);
	}
	memset(b, 0, sizeof(*b));
	return 0;
}

static int new_block(struct pb_state *st, enum pb_bench bench, long line, const char *what)
{
	if (end_block(st) < 0)
		return -1;
	st->b.bench = bench;
	st->b.line = line;
	st->b.what = what;
	return 0;
}

static int bad_number(struct pb_state *st, const struct ingest_line *l)
{
	return kb_err_set(st->err, st->ctx->path, l->lineno, "perf bench: bad number in '%.*s'",
			  (int)(l->len > 80 ? 80 : l->len), l->s);
}

/* A number capture that must be >= 0. */
static int cap_num(const struct rx_cap *c, double *v)
{
	return c->s && num_parse(c->s, c->len, v) == 0 && *v >= 0 ? 0 : -1;
}

static int read_running(struct pb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[3];

	rx_match(&rx_running, l->s, l->len, cap, 3);
	if (end_block(st) < 0)
		return -1;
	snprintf(st->suite, sizeof(st->suite), "%.*s/%.*s", (int)cap[1].len, cap[1].s,
		 (int)cap[2].len, cap[2].s);
	if (!strcmp(st->suite, "sched/pipe"))
		return new_block(st, B_PIPE, l->lineno, "sched/pipe");
	if (!strncmp(st->suite, "futex/", 6)) {
		if (new_block(st, B_FUTEX, l->lineno, arena_strdup(&st->out->arena, st->suite)) < 0)
			return -1;
		cfg_set(st, "op", st->suite + 6, strlen(st->suite + 6));
		return 0;
	}
	/* mem/ and numa/ blocks start at their function and test lines;
	 * syscall/ at its "Executed" line (classify() let no other through) */
	return 0;
}

/* "# Executed N pipe operations ..." / "# Executed N getppid() calls" */
static int read_executed(struct pb_state *st, const struct ingest_line *l, enum pb_kind k)
{
	struct rx_cap cap[3];
	long loops;

	rx_match(k == PB_EXEC_PIPE ? &rx_exec_pipe : &rx_exec_calls, l->s, l->len, cap, 3);
	if (num_parse_long(cap[1].s, cap[1].len, &loops) < 0 || loops <= 0)
		return bad_number(st, l);
	if (k == PB_EXEC_PIPE) {
		/* under its own "# Running" line, or on its own */
		if (st->b.bench != B_PIPE || st->b.ncfg || st->b.have_result)
			if (new_block(st, B_PIPE, l->lineno, "sched/pipe") < 0)
				return -1;
		cfg_setf(st, "loops", loops);
		cfg_set(st, "mode", cap[2].s[0] == 'p' ? "process" : "thread", cap[2].s[0] == 'p' ? 7 : 6);
		if (st->have_cmd && !strcmp(st->cmd.name, "pipe") && st->cmd.cgroups[0])
			cfg_set(st, "cgroups", st->cmd.cgroups, strlen(st->cmd.cgroups));
		return 0;
	}
	if (new_block(st, B_SYSCALL, l->lineno, "syscall") < 0)
		return -1;
	cfg_set(st, "syscall", cap[2].s, cap[2].len);
	cfg_setf(st, "loops", loops);
	return 0;
}

static int read_pipe_line(struct pb_state *st, const struct ingest_line *l, enum pb_kind k)
{
	struct pb_block *b = &st->b;
	struct rx_cap cap[2];
	double v;

	if (b->bench != B_PIPE && b->bench != B_SYSCALL)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "perf bench: '%.*s' outside a sched pipe or syscall block",
				  (int)(l->len > 60 ? 60 : l->len), l->s);
	rx_match(k == PB_TOTAL ? &rx_total : k == PB_USECS ? &rx_usecs : &rx_ops, l->s, l->len, cap, 2);
	if (cap_num(&cap[1], &v) < 0)
		return bad_number(st, l);
	if (k == PB_TOTAL) {
		b->have_total = 1;
		return add_val(st, l->lineno, "time", v, "s", "lower", "perf bench: total time");
	}
	if (k == PB_USECS) {
		b->have_usecs = 1;
		return add_val(st, l->lineno, "usecs_per_op", v, "usec", "lower",
			       "perf bench: time per operation");
	}
	b->have_ops = 1;
	return add_val(st, l->lineno, "ops_per_sec", v, "ops/s", "higher",
		       "perf bench: operations per second");
}

static int read_mem(struct pb_state *st, const struct ingest_line *l, enum pb_kind k)
{
	struct pb_block *b = &st->b;
	struct rx_cap cap[3];
	double v;

	if (k == PB_MEM_FN) {
		const char *op = strncmp(st->suite, "mem/", 4) ? NULL : st->suite + 4;
		rx_match(&rx_mem_fn, l->s, l->len, cap, 3);
		if (new_block(st, B_MEM, l->lineno, "mem") < 0)
			return -1;
		if (op)
			cfg_set(st, "op", op, strlen(op));
		cfg_set(st, "function", cap[1].s, cap[1].len);
		if (st->have_cmd && st->cmd.loops > 0)
			cfg_setf(st, "loops", st->cmd.loops);
		if (st->have_cmd && st->cmd.page[0])
			cfg_set(st, "page", st->cmd.page, strlen(st->cmd.page));
		return 0;
	}
	if (b->bench != B_MEM)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "perf bench: '%.*s' outside a mem block", (int)(l->len > 60 ? 60 : l->len), l->s);
	if (k == PB_MEM_SIZE) {
		rx_match(&rx_mem_size, l->s, l->len, cap, 2);
		cfg_set(st, "size", cap[1].s, cap[1].len);
		return 0;
	}
	if (k == PB_MEM_CYCLES) {
		rx_match(&rx_mem_cycles, l->s, l->len, cap, 2);
		if (cap_num(&cap[1], &v) < 0)
			return bad_number(st, l);
		return add_val(st, l->lineno, "cycles_per_byte", v, "cycles/B", "lower",
			       "perf bench mem -c: cycles per byte");
	}
	rx_match(&rx_mem_bps, l->s, l->len, cap, 3);
	if (cap_num(&cap[1], &v) < 0)
		return bad_number(st, l);
	/* perf divides by 1024 per step: GB/sec is 2^30 bytes a second */
	switch (cap[2].s[0]) {
	case 'b': v /= 1024.0 * 1024.0 * 1024.0; break;
	case 'K': v /= 1024.0 * 1024.0; break;
	case 'M': v /= 1024.0; break;
	default: break;
	}
	return add_val(st, l->lineno, "bandwidth", v, "GB/s", "higher",
		       "perf bench mem: bytes copied or set per second (GB = 2^30 bytes)");
}

/* numa mem's result rows: perf's own names, its units. */
static int read_numa_row(struct pb_state *st, const struct ingest_line *l)
{
	static const struct { const char *printed, *unit, *better; } units[] = {
		{ "secs", "s", "lower" }, { "%", "%", "lower" }, { "GB", "GB", "higher" },
		{ "nsecs", "ns", "lower" }, { "GB/sec", "GB/s", "higher" },
	};
	struct rx_cap cap[5];
	const char *test;
	double v;
	size_t u;

	if (st->b.bench != B_NUMA)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "perf bench: a numa mem result row before its '# Running' test line");
	rx_match(&rx_numa_row, l->s, l->len, cap, 5);
	if (cap_num(&cap[2], &v) < 0)
		return bad_number(st, l);
	/* "-a" runs several tests, each row led by its test's name */
	test = cfg_get(st, "test");
	if (test && !cap_is(&cap[1], test))
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "perf bench: a result row of '%.*s' under the test '%s'",
				  (int)cap[1].len, cap[1].s, test);
	for (u = 0; u < ARRAY_SIZE(units); u++)
		if (strlen(units[u].printed) == cap[3].len && !memcmp(units[u].printed, cap[3].s, cap[3].len))
			break;
	return add_val(st, l->lineno, arena_strndup(&st->out->arena, cap[4].s, cap[4].len), v,
		       units[u].unit, units[u].better, "perf bench numa mem: result row as perf names it");
}

static int read_numa_test(struct pb_state *st, const struct ingest_line *l)
{
	struct rx_cap cap[3];
	size_t len;
	const char *args;

	rx_match(&rx_numa_test, l->s, l->len, cap, 3);
	if (new_block(st, B_NUMA, l->lineno, "numa/mem") < 0)
		return -1;
	cfg_set(st, "test", cap[1].s, cap[1].len);
	args = cap[2].s ? cap[2].s : "";
	len = cap[2].s ? str_rtrim_len(cap[2].s, cap[2].len) : 0;
	if (len)
		cfg_set(st, "args", args, len);
	return 0;
}

static int read_futex(struct pb_state *st, const struct ingest_line *l, enum pb_kind k)
{
	struct rx_cap cap[4];
	double v, rse;

	if (st->b.bench != B_FUTEX)
		return kb_err_set(st->err, st->ctx->path, l->lineno,
				  "perf bench: futex output before its '# Running' line");
	if (k == PB_FUTEX_SUMMARY) {
		const char *p, *end = l->s + l->len;
		long threads;

		rx_match(&rx_futex_summary, l->s, l->len, cap, 2);
		/* "8 threads, each operating on 1024 [shared] futexes", "blocking on 8 threads" */
		for (p = cap[1].s; p < end; p++)
			if (*p >= '0' && *p <= '9') {
				const char *q = p;
				while (q < end && *q >= '0' && *q <= '9')
					q++;
				if (end - q >= 8 && !memcmp(q, " threads", 8) &&
				    num_parse_long(p, (size_t)(q - p), &threads) == 0) {
					cfg_setf(st, "threads", threads);
					break;
				}
				p = q;
			}
		if (str_find(cap[1].s, cap[1].len, "[shared]"))
			cfg_set(st, "futexes", "shared", 6);
		else if (str_find(cap[1].s, cap[1].len, "[private]"))
			cfg_set(st, "futexes", "private", 7);
		return 0;
	}
	if (k == PB_FUTEX_DETAIL)
		return 0;       /* per thread or per run; the summary line follows */
	if (rx_match(&rx_futex_hash, l->s, l->len, cap, 4) > 0) {
		if (cap_num(&cap[1], &v) < 0 || cap_num(&cap[2], &rse) < 0)
			return bad_number(st, l);
		if (add_val(st, l->lineno, "ops_per_sec", v, "ops/s", "higher",
			    "perf bench futex hash: operations per second, averaged over threads") < 0)
			return -1;
	} else {
		const char *metric;
		rx_match(&rx_futex_time, l->s, l->len, cap, 4);
		if (cap_num(&cap[2], &v) < 0 || cap_num(&cap[3], &rse) < 0)
			return bad_number(st, l);
		metric = cap[1].s[0] == 'W' ? "wakeup_time" : cap[1].s[0] == 'R' ? "requeue_time"
						: "per_thread_latency";
		if (add_val(st, l->lineno, metric, v, "ms", "lower",
			    "perf bench futex: time, averaged over its runs") < 0)
			return -1;
	}
	return add_val(st, l->lineno, "rse_pct", rse, "%", "none",
		       "perf bench futex: relative standard error of the mean it prints (+- %)");
}

static int perfbench_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			   size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct pb_state st;
	size_t i;
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.out = out;
	st.err = err;
	for (i = 0; i < n && rc == 0; i++) {
		const struct ingest_line *l = &lines[i];
		enum pb_kind k = classify(l, st.in_numa);
		struct rx_cap cap[2];
		double v;

		st.in_numa = numa_after(k, l, st.in_numa);
		switch (k) {
		case PB_PROSE:
		case PB_BLANK:
			break;
		case PB_CMD:
			rc = end_block(&st);
			read_cmd(l, &st.cmd);
			st.have_cmd = 1;
			break;
		case PB_RUNNING:
			rc = read_running(&st, l);
			break;
		case PB_EXEC_PIPE:
		case PB_EXEC_CALLS:
			rc = read_executed(&st, l, k);
			break;
		case PB_TOTAL:
		case PB_USECS:
		case PB_OPS:
			rc = read_pipe_line(&st, l, k);
			break;
		case PB_MEM_FN:
		case PB_MEM_SIZE:
		case PB_MEM_BPS:
		case PB_MEM_CYCLES:
			rc = read_mem(&st, l, k);
			break;
		case PB_NUMA_TEST:
			rc = read_numa_test(&st, l);
			break;
		case PB_NUMA_ROW:
			rc = read_numa_row(&st, l);
			break;
		case PB_HASH:
			if (st.b.bench == B_NUMA && rx_match(&rx_numa_tasks, l->s, l->len, cap, 2) > 0)
				cfg_set(&st, "tasks", cap[1].s, cap[1].len);
			break;
		case PB_FUTEX_SUMMARY:
		case PB_FUTEX_DETAIL:
		case PB_FUTEX_RESULT:
			rc = read_futex(&st, l, k);
			break;
		case PB_BARE:
			/* --format=simple: the seconds of one sched pipe run */
			if (!st.have_cmd || !st.cmd.simple || strcmp(st.cmd.name, "pipe") ||
			    st.b.bench != B_NONE) {
				rc = kb_err_set(err, ctx->path, l->lineno,
						"perf bench: a bare number kbench cannot place");
				break;
			}
			rx_match(&rx_bare, l->s, l->len, cap, 2);
			if (cap_num(&cap[1], &v) < 0) {
				rc = bad_number(&st, l);
				break;
			}
			if ((rc = new_block(&st, B_PIPE, l->lineno, "sched/pipe")) < 0)
				break;
			/* perf's default is 1000000 loops */
			cfg_setf(&st, "loops", st.cmd.loops > 0 ? st.cmd.loops : 1000000);
			cfg_set(&st, "mode", st.cmd.threaded ? "thread" : "process", st.cmd.threaded ? 6 : 7);
			st.b.have_total = 1;
			rc = add_val(&st, l->lineno, "time", v, "s", "lower", "perf bench: total time");
			if (rc == 0)
				rc = end_block(&st);
			break;
		}
	}
	if (rc == 0)
		rc = end_block(&st);
	return rc;
}

const struct ingest_parser perfbench_parser = {
	"perf-bench",
	"perf bench sched pipe, syscall, mem, numa mem, futex, e.g. '4.567890 usecs/op', "
	"' main,  6.801, secs,  runtime-max/thread'",
	perfbench_claim, perfbench_parse,
};
