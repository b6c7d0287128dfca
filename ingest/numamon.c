/*
 * numamon.c - NUMA monitors: what the kernel counts while a benchmark
 * runs, as numastat prints it, as /proc/vmstat holds it, and as lkp's
 * monitors record it.
 *
 * numastat (numactl's tool), the default (compatible) table of page counts:
 *
 *                              node0           node1
 *   numa_hit                67798958        57342158
 *   numa_miss                      0               0
 *   ...                     (numa_foreign, interleave_hit, local_node, other_node)
 *
 * numastat -m / -n / -p, in MB with a Total column:
 *
 *   Per-node system memory usage (in MBs):
 *                             Node 0          Node 1           Total
 *                    --------------- --------------- ---------------
 *   MemTotal                 4569.73         4569.73         9139.46
 *
 * /proc/vmstat (or a grep of it), one "key value" per line:
 *
 *   numa_hint_faults 2705
 *   numa_pages_migrated 426
 *
 * lkp's monitor files, a time series ("time:" before each sample; the
 * per-node ones name the node before each file's text):
 *
 *   time: 1796095080.043763740          numa-numastat, numa-vmstat:
 *   node: 0                             /sys/devices/system/node/node0/{numastat,vmstat}
 *   numa_hit 4052644
 *   time: 1796095089                    proc-vmstat: /proc/vmstat
 *   Node 0 MemTotal:  5204180 kB        numa-meminfo: node0/meminfo
 *   cgroup: pmbench.1                   memory--numa_stat: a cgroup's memory.numa_stat
 *   anon N0=94208 N1=474624000          (v2; v1 prints total=257274 N0=0 N1=143104)
 *
 * and vmstat(8) itself (lkp's vmstat monitor: "procs -----memory---..."
 * headers, one row a second, with -t a timestamp).
 *
 * What is stored.  Most of these numbers are event counters the kernel
 * has kept since boot (numa_hit, numa_hint_faults, pgmigrate_success):
 * one reading of them measures no run, only how long the machine has
 * been up.  So a counter is stored as its change over the run: last
 * minus first reading of a time series, or after minus before of two
 * snapshots that the text labels "before" and "after".  A lone snapshot
 * of counters is not stored, and --explain says why (a file holding only
 * that is refused).  Levels (free pages, MemFree, a cgroup's anon bytes)
 * are stored as their mean over a time series, or as read when the text
 * shows one table of them (numastat -m, -p); from a before/after pair
 * they are not stored (a pair measures events, not levels).
 *
 * Metric names are lkp's, so that a robot report's proc-vmstat.numa_hit
 * and a tree's or a post's are one metric: proc-vmstat.<key>,
 * numa-vmstat.node<N>.<key>, numa-numastat.node<N>.<key> (numastat's
 * default table reads the same sysfs files), numa-meminfo.node<N>.<Key>
 * (kB), numastat.node<N>.<Row> (numastat -m and -n, MB),
 * numastat-p.node<N>.<Row> (MB, config pid and process),
 * memory--numa_stat.<item>[.N<node>] (config cgroup) and
 * vmstat.<group>.<column>.  Their direction is neutral ("none").
 *
 * A monitor block in a post is a run of its own (benchmark numastat,
 * vmstat, numa-meminfo, memory.numa_stat): a post does not say which
 * benchmark run a block beside it measured, and guessing by nearness
 * would put counters on the wrong run.  In an lkp result tree the
 * directory says it: layout.c gives the monitor's run the directory's
 * benchmark, variant, machine, params and iteration.
 */
#include "parsers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/buf.h"
#include "../core/hidx.h"
#include "../core/num.h"
#include "../core/util.h"

#define MON_MAX_NODES 256
#define MON_MAX_NAME 256

/* Counters and levels -------------------------------------------------- */

/* Is /proc/vmstat (or a node's vmstat) key an event counter, which only
 * grows while the machine is up?  The rest (nr_free_pages, nr_zone_*,
 * workingset_nodes ...) are levels. */
static int vmstat_counter(const char *key)
{
	static const char *const prefixes[] = {
		"numa_", "pg", "pswp", "thp_", "compact_", "allocstall", "kswapd_", "kcompactd_",
		"htlb_buddy_alloc_", "unevictable_pgs_", "slabs_scanned", "pageoutrun",
		"zone_reclaim_failed", "drop_pagecache", "drop_slab", "oom_kill",
		"workingset_refault", "workingset_activate", "workingset_restore",
		"workingset_nodereclaim", "nr_dirtied", "nr_written", "nr_vmscan_immediate_reclaim",
		"nr_vmscan_write", "nr_promoted", "nr_promote_", "nr_tlb_", "nr_foll_pin_",
		"balloon_", "swap_ra", "ksm_swpin_copy", "cow_ksm", "zswpin", "zswpout", "zswpwb",
		"direct_map_level", "vma_lock_", "nr_unaccepted_",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_starts(key, prefixes[i]))
			return 1;
	return 0;
}

/* One quantity over the readings of a segment. */
struct mon_series {
	const char *metric;     /* arena */
	const char *unit;
	int counter;
	double first, last, sum;
	long n;
	long tick;              /* the reading it last took a value in */
	long down_line;         /* a counter that went down: where, else 0 */
};

struct mon {
	struct rec_batch *out;
	struct mon_series *s;
	size_t n, cap;
	struct hidx idx;
	long ticks;             /* readings (time: blocks, snapshots) so far */
	long dup_line;          /* a key given twice in one reading, first place */
};

static int series_eq(const void *arr, size_t i, const void *key)
{
	return strcmp(((const struct mon_series *)arr)[i].metric, key) == 0;
}

static size_t metric_hash(const char *metric)
{
	return str_hash_add(STR_HASH_INIT, metric);
}

static size_t series_hash(const void *arr, size_t i)
{
	return metric_hash(((const struct mon_series *)arr)[i].metric);
}

static void mon_init(struct mon *m, struct rec_batch *out)
{
	memset(m, 0, sizeof(*m));
	m->out = out;
}

static void mon_release(struct mon *m)
{
	free(m->s);
	hidx_release(&m->idx);
}

/* Add the reading v of metric (in the current tick) at line. */
static void mon_add(struct mon *m, const char *metric, const char *unit, int counter,
		    double v, long line)
{
	size_t h = metric_hash(metric);
	size_t i = hidx_find(&m->idx, h, m->s, metric, series_eq);
	struct mon_series *s;

	if (i == (size_t)-1) {
		xgrow(&m->s, &m->cap, m->n + 1, sizeof(*m->s));
		s = &m->s[m->n];
		memset(s, 0, sizeof(*s));
		s->metric = arena_strdup(&m->out->arena, metric);
		s->unit = unit;
		s->counter = counter;
		s->tick = -1;
		hidx_add(&m->idx, h, m->n, m->s, series_hash);
		m->n++;
	} else {
		s = &m->s[i];
	}
	if (s->tick == m->ticks) {
		/* lkp's numa-vmstat keeps the first of a key a node's file
		 * repeats; so does kbench */
		if (!m->dup_line)
			m->dup_line = line;
		return;
	}
	if (s->n == 0)
		s->first = v;
	else if (s->counter && v < s->last && !s->down_line)
		s->down_line = line;
	s->last = v;
	s->sum += v;
	s->n++;
	s->tick = m->ticks;
}

/* What mon_emit() stored and left out, for the note. */
struct mon_count {
	size_t counters, levels, one_reading, went_down, levels_dropped;
	const char *down_metric;
	long down_line;
};

/* Samples of r from the series: counters as last - first (when read at
 * least twice and never going down), levels as their mean when levels
 * is set. */
static void mon_emit(struct mon *m, struct rec_run *r, int levels, const char *what,
		     struct mon_count *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < m->n; i++) {
		const struct mon_series *s = &m->s[i];
		if (s->counter) {
			if (s->n < 2) {
				c->one_reading++;
				continue;
			}
			if (s->down_line) {
				if (!c->went_down) {
					c->down_metric = s->metric;
					c->down_line = s->down_line;
				}
				c->went_down++;
				continue;
			}
			rec_sample_add(m->out, r, s->metric, s->last - s->first, s->unit, 0);
			rec_metric_declare(m->out, "", s->metric, s->unit, "none",
					   arena_printf(&m->out->arena, "%s counter: its change over the run", what));
			c->counters++;
		} else if (levels) {
			rec_sample_add(m->out, r, s->metric, s->sum / (double)s->n, s->unit, 0);
			rec_metric_declare(m->out, "", s->metric, s->unit, "none",
					   arena_printf(&m->out->arena, "%s level: its mean over the run", what));
			c->levels++;
		} else {
			c->levels_dropped++;
		}
	}
}

/* The note for what mon_emit() did; and a sentence for what it left out. */
static void mon_note(struct rec_batch *out, long line, const char *what, long readings,
		     const char *how, const struct mon_count *c)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s: %ld reading%s%s%s: ", what, readings, readings == 1 ? "" : "s",
		   how ? " " : "", how ? how : "");
	if (c->counters)
		buf_printf(&b, "%zu counter%s stored as %s", c->counters, c->counters == 1 ? "" : "s",
			   readings == 2 ? "after minus before" : "their change, last minus first reading");
	if (c->levels)
		buf_printf(&b, "%s%zu level%s as %s", c->counters ? "; " : "", c->levels,
			   c->levels == 1 ? "" : "s", readings == 1 ? "read" : "their mean");
	if (!c->counters && !c->levels)
		buf_puts(&b, "nothing stored");
	if (c->one_reading)
		buf_printf(&b, "; %zu counter%s not stored: read once, a counter since boot "
			   "measures no run", c->one_reading, c->one_reading == 1 ? "" : "s");
	if (c->went_down)
		buf_printf(&b, "; %zu counter%s not stored: %s goes down at line %ld (a reboot or "
			   "another machine between the readings)", c->went_down,
			   c->went_down == 1 ? "" : "s", c->down_metric, c->down_line);
	if (c->levels_dropped)
		buf_printf(&b, "; %zu level%s not stored: a before/after pair measures events, "
			   "not levels", c->levels_dropped, c->levels_dropped == 1 ? "" : "s");
	rec_note(out, line, "%s", buf_str(&b));
	buf_release(&b);
}

/* Line helpers ------------------------------------------------------------ */

static int tok_digits(const struct ingest_tok *t)
{
	return t->len > 0 && str_all_digits(t->s, t->len);
}

static int tok_number(const struct ingest_tok *t, double *v)
{
	return t->len > 0 && num_parse(t->s, t->len, v) == 0 && isfinite(*v);
}

static int tok_dashes(const struct ingest_tok *t)
{
	size_t i;

	for (i = 0; i < t->len; i++)
		if (t->s[i] != '-')
			return 0;
	return t->len >= 3;
}

/* A word made of the characters of a vmstat or meminfo key. */
static int tok_key(const struct ingest_tok *t)
{
	size_t i;

	if (t->len == 0 || t->len >= MON_MAX_NAME || !((t->s[0] >= 'a' && t->s[0] <= 'z') ||
						       (t->s[0] >= 'A' && t->s[0] <= 'Z')))
		return 0;
	for (i = 0; i < t->len; i++) {
		char ch = t->s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '(' || ch == ')'))
			return 0;
	}
	return 1;
}

/*
 * A label line that says which snapshot follows: 1 "before", 2 "after",
 * 0 neither (or both).  Short lines only ("Before:", "numastat after
 * the run:", "--- after ---"): a sentence that mentions "after" is prose.
 */
static int snapshot_label(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;
	int before = 0, after = 0, words = 0;

	if (l->len > 60)
		return 0;
	while (p < end) {
		const char *w;
		size_t len;
		while (p < end && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				    (*p >= '0' && *p <= '9')))
			p++;
		w = p;
		while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= '0' && *p <= '9') || *p == '_' || *p == '/' || *p == '-'))
			p++;
		len = (size_t)(p - w);
		if (!len)
			continue;
		words++;
		if (len == 6 && strncasecmp(w, "before", 6) == 0)
			before = 1;
		else if (len == 5 && strncasecmp(w, "after", 5) == 0)
			after = 1;
	}
	if (words > 8 || before == after)
		return 0;
	return before ? 1 : 2;
}

/* Snapshot blocks: numastat's tables and /proc/vmstat lines ------------- */

enum snap_kind { SNAP_NONE, SNAP_COMPAT, SNAP_MB, SNAP_VMSTAT };

static const char *const numastat_keys[] = {
	"numa_hit", "numa_miss", "numa_foreign", "interleave_hit", "local_node", "other_node",
};

static int is_numastat_key(const struct ingest_tok *t)
{
	size_t i;

	for (i = 0; i < sizeof(numastat_keys) / sizeof(numastat_keys[0]); i++)
		if (ingest_tok_is(t, numastat_keys[i]))
			return 1;
	return 0;
}

/* A token that is only markup a web page put before the output
 * ("<pre><code>"): skipped before a header. */
static int tok_markup(const struct ingest_tok *t)
{
	return t->len >= 3 && t->len <= 24 && t->s[0] == '<' && t->s[t->len - 1] == '>';
}

/* "node0 node1 ...": the number of node columns, else 0. */
static size_t compat_header(const struct ingest_line *l, int *node)
{
	struct ingest_tok tok[MON_MAX_NODES + 1];
	size_t nt = ingest_split(l->s, l->len, tok, MON_MAX_NODES + 1), i, first = 0;

	if (nt > 0 && tok_markup(&tok[0]))
		first = 1;
	if (nt <= first || nt - first > MON_MAX_NODES)
		return 0;
	for (i = first; i < nt; i++) {
		long v;
		if (tok[i].len < 5 || memcmp(tok[i].s, "node", 4) != 0 ||
		    !str_all_digits(tok[i].s + 4, tok[i].len - 4) ||
		    num_parse_long(tok[i].s + 4, tok[i].len - 4, &v) < 0 || v > 100000)
			return 0;
		if (node)
			node[i - first] = (int)v;
	}
	return nt - first;
}

/* "Node 0  Node 1  Total": node columns (Total not counted), else 0;
 * *total says whether the Total column is there. */
static size_t mb_header(const struct ingest_line *l, int *node, int *total)
{
	struct ingest_tok tok[2 * MON_MAX_NODES + 2];
	size_t nt = ingest_split(l->s, l->len, tok, 2 * MON_MAX_NODES + 2), i, nn = 0;

	*total = 0;
	if (nt < 2 || nt > 2 * MON_MAX_NODES + 1)
		return 0;
	for (i = 0; i < nt; i++) {
		long v;
		if (i == nt - 1 && ingest_tok_is(&tok[i], "Total")) {
			*total = 1;
			break;
		}
		if (!ingest_tok_is(&tok[i], "Node") || i + 1 >= nt || !tok_digits(&tok[i + 1]) ||
		    num_parse_long(tok[i + 1].s, tok[i + 1].len, &v) < 0 || v > 100000)
			return 0;
		if (node)
			node[nn] = (int)v;
		nn++;
		i++;
	}
	return nn;
}

/* numastat prints these on stderr among its output ("Token SwapCached
 * not in hash table."): a terminal shows them where they fall. */
static int token_noise(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);

	return str_starts(p, "Token ") && str_find(l->s, l->len, " not in hash table") != NULL;
}

static int mb_title(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);

	return str_starts(p, "Per-node ") && str_find(l->s, l->len, "(in MBs)") != NULL;
}

/* Does a row have a name and exactly ncol numbers at its end? */
static int table_row(const struct ingest_line *l, size_t ncol, int ints)
{
	struct ingest_tok tok[2 * MON_MAX_NODES + 8];
	size_t nt = ingest_split(l->s, l->len, tok, 2 * MON_MAX_NODES + 8), i;
	double v;

	if (nt < ncol + 1 || nt > 2 * MON_MAX_NODES + 8)
		return 0;
	if (tok_number(&tok[0], &v))
		return 0;
	for (i = nt - ncol; i < nt; i++)
		if (ints ? !tok_digits(&tok[i]) : !tok_number(&tok[i], &v))
			return 0;
	return 1;
}

/* A /proc/vmstat line: "key value". */
static int vmstat_line(const struct ingest_line *l, struct ingest_tok *tok)
{
	struct ingest_tok t[3];
	size_t nt = ingest_split(l->s, l->len, t, 3);
	size_t i;

	if (nt != 2 || !tok_digits(&t[1]) || t[0].len >= MON_MAX_NAME || !t[0].len ||
	    t[0].s[0] < 'a' || t[0].s[0] > 'z')
		return 0;
	for (i = 0; i < t[0].len; i++) {
		char ch = t[0].s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
			return 0;
	}
	if (tok)
		memcpy(tok, t, 2 * sizeof(*t));
	return 1;
}

/* A key only /proc/vmstat (or a node's vmstat) has. */
static int vmstat_known(const struct ingest_tok *k)
{
	static const char *const prefixes[] = {
		"numa_", "pgmigrate_", "nr_", "pgfault", "pgmajfault", "pgpg", "pswp", "thp_",
		"compact_", "pgpromote_", "pgdemote_", "pgalloc_", "pgfree", "pgsteal_", "pgscan_",
		"workingset_",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (k->len >= strlen(prefixes[i]) && memcmp(k->s, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* How many lines from lines[0] make one snapshot block, and its kind. */
/* numastat -p's header for several processes: "PID" then mb_header's. */
static size_t pid_header(const struct ingest_line *l, int *total)
{
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len;
	struct ingest_line rest;

	if (!str_starts(p, "PID ") && !str_starts(p, "PID\t"))
		return 0;
	rest = *l;
	rest.s = p + 3;
	rest.len = (size_t)(end - rest.s);
	return mb_header(&rest, NULL, total);
}

/* A row of that table: "4965 (sleep)" (or "Total") and ncol numbers. */
static int pid_row(const struct ingest_line *l, size_t ncol)
{
	struct ingest_tok tok[2 * MON_MAX_NODES + 8];
	size_t nt = ingest_split(l->s, l->len, tok, 2 * MON_MAX_NODES + 8), i;
	double v;

	if (nt < ncol + 1 || nt > 2 * MON_MAX_NODES + 8)
		return 0;
	if (!tok_digits(&tok[0]) && !ingest_tok_is(&tok[0], "Total"))
		return 0;
	if (tok_digits(&tok[0]) && (nt < ncol + 2 || tok[1].s[0] != '('))
		return 0;
	for (i = nt - ncol; i < nt; i++)
		if (!tok_number(&tok[i], &v))
			return 0;
	return 1;
}

static size_t snap_block(const struct ingest_line *lines, size_t n, enum snap_kind *kind)
{
	size_t i = 0, ncol;
	int total;

	*kind = SNAP_NONE;
	if (n == 0)
		return 0;
	if ((ncol = compat_header(&lines[0], NULL)) > 0) {
		for (i = 1; i < n && table_row(&lines[i], ncol, 1); i++)
			;
		if (i < 2)
			return 0;
		*kind = SNAP_COMPAT;
		return i;
	}
	if (mb_title(&lines[0])) {
		i = 1;
		while (i < n && (token_noise(&lines[i]) || ingest_line_blank(&lines[i])))
			i++;
	}
	if (i > 0 && i < n && (ncol = pid_header(&lines[i], &total)) > 0) {
		/* numastat -p of several processes: "PID  Node 0 ... Total",
		 * then a row per process, "4965 (sleep)  1.77  1.77" */
		size_t start = i;
		struct ingest_tok tok[2];
		for (i++; i < n; i++) {
			if (ingest_split(lines[i].s, lines[i].len, tok, 2) >= 1 && tok_dashes(&tok[0]))
				continue;
			if (!pid_row(&lines[i], ncol + (size_t)total))
				break;
		}
		if (i < start + 3)
			return 0;
		*kind = SNAP_MB;
		return i;
	}
	if (i < n && (ncol = mb_header(&lines[i], NULL, &total)) > 0) {
		size_t start = i;
		struct ingest_tok tok[2];
		i++;
		if (i < n && ingest_split(lines[i].s, lines[i].len, tok, 2) >= 1 && tok_dashes(&tok[0]))
			i++;
		while (i < n && (table_row(&lines[i], ncol + (size_t)total, 0) ||
				 (ingest_split(lines[i].s, lines[i].len, tok, 2) >= 1 &&
				  tok_dashes(&tok[0]) && i > start + 2)))
			i++;
		if (i < start + 3)
			return 0;
		*kind = SNAP_MB;
		return i;
	}
	if (i == 0 && vmstat_line(&lines[0], NULL)) {
		int known = 0;
		for (i = 0; i < n; i++) {
			struct ingest_tok t[2];
			if (!vmstat_line(&lines[i], t))
				break;
			known |= vmstat_known(&t[0]);
		}
		if (i < 2 || !known) {
			/* no block starts anywhere in these lines either */
			*kind = SNAP_NONE;
			return i > 1 ? (size_t)0 - i : 0;
		}
		*kind = SNAP_VMSTAT;
		return i;
	}
	return 0;
}

/* Up to two blank lines from i; n when more. */
static size_t skip_few_blank(const struct ingest_line *lines, size_t i, size_t n)
{
	size_t k;

	for (k = 0; k < 3 && i < n; k++, i++)
		if (!ingest_line_blank(&lines[i]))
			return i;
	return n;
}

/*
 * A snapshot segment: [label] block, then, when the text goes on with a
 * label line and a second block of the same kind, those too
 * ("before:" numastat "after:" numastat).  want is the kind the parser
 * reads (SNAP_VMSTAT for vmstat, else numastat's two).
 */
static size_t snap_claim(const struct ingest_line *lines, size_t n, int vmstat, int *score)
{
	enum snap_kind kind, k2;
	size_t i = 0, len, j;
	int blocks = 0;

	if (snapshot_label(&lines[0])) {
		i = skip_few_blank(lines, 1, n);
		if (i >= n)
			return 0;
	}
	len = snap_block(lines + i, n - i, &kind);
	if (kind == SNAP_NONE && len > n) {
		/* a run of "key value" lines that names no vmstat key */
		if (i == 0)
			*score = -(int)((size_t)0 - len > (size_t)1 << 30 ? 1 << 30 : (size_t)0 - len);
		return 0;
	}
	if (!len || (kind == SNAP_VMSTAT) != vmstat)
		return 0;
	i += len;
	blocks = 1;
	while (blocks < 8) {
		j = skip_few_blank(lines, i, n);
		if (j >= n || !snapshot_label(&lines[j]))
			break;
		j = skip_few_blank(lines, j + 1, n);
		if (j >= n || !(len = snap_block(lines + j, n - j, &k2)) || k2 != kind || len > n - j)
			break;
		i = j + len;
		blocks++;
	}
	*score = vmstat ? 60 : 85;
	return i;
}

/* The blocks of a segment snap_claim() made, with their labels. */
struct snap {
	size_t first, len;
	enum snap_kind kind;
	int label;              /* 1 before, 2 after, 0 none */
	long label_line;
};

static size_t snap_split(const struct ingest_line *lines, size_t n, struct snap *sn, size_t max)
{
	size_t i = 0, ns = 0;
	int label = 0;
	long label_line = 0;

	while (i < n && ns < max) {
		enum snap_kind kind;
		size_t len;
		if (ingest_line_blank(&lines[i])) {
			i++;
			continue;
		}
		if ((len = snap_block(lines + i, n - i, &kind)) > 0 && kind != SNAP_NONE) {
			sn[ns].first = i;
			sn[ns].len = len;
			sn[ns].kind = kind;
			sn[ns].label = label;
			sn[ns].label_line = label_line;
			ns++;
			label = 0;
			i += len;
			continue;
		}
		label = snapshot_label(&lines[i]);
		label_line = lines[i].lineno;
		i++;
	}
	return ns;
}

/* Read one block into m (one tick).  Fills *what (the note's name),
 * *bench, *levels (a lone table of levels is stored), and for numastat
 * -p the pid and process.  Returns 0 or -1 with err set. */
struct snap_meta {
	const char *what, *bench;
	int counters;           /* the block holds counters (needs a pair) */
	const char *skip;       /* not read, and why (a note) */
	char pid[32], process[128];
};

static int read_compat(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		       struct mon *m, struct kb_err *err)
{
	int node[MON_MAX_NODES];
	size_t ncol = compat_header(&lines[0], node), i, c;
	char name[MON_MAX_NAME + 64];

	for (i = 1; i < n; i++) {
		struct ingest_tok tok[MON_MAX_NODES + 2];
		size_t nt = ingest_split(lines[i].s, lines[i].len, tok, MON_MAX_NODES + 2);
		if (nt != ncol + 1 || !is_numastat_key(&tok[0]))
			return kb_err_set(err, ctx->path, lines[i].lineno,
					  "numastat: '%.*s' is not a row of numastat's table (numa_hit, "
					  "numa_miss, numa_foreign, interleave_hit, local_node, other_node)",
					  (int)(tok[0].len > 40 ? 40 : tok[0].len), tok[0].s);
		for (c = 0; c < ncol; c++) {
			double v;
			if (!tok_number(&tok[c + 1], &v))
				return kb_err_set(err, ctx->path, lines[i].lineno, "numastat: bad count '%.*s'",
						  (int)tok[c + 1].len, tok[c + 1].s);
			snprintf(name, sizeof(name), "numa-numastat.node%d.%.*s", node[c], (int)tok[0].len,
				 tok[0].s);
			mon_add(m, name, "pages", 1, v, lines[i].lineno);
		}
	}
	return 0;
}

static int read_mb(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		   struct mon *m, struct snap_meta *meta, struct kb_err *err)
{
	int node[MON_MAX_NODES], total;
	size_t i = 0, ncol = 0, c, rows = 0;
	const char *prefix = "numastat";
	char name[3 * MON_MAX_NAME];

	meta->what = "numastat -m";
	meta->counters = 0;
	if (mb_title(&lines[0])) {
		const char *s = lines[0].s, *pid;
		size_t len = lines[0].len;
		if (str_find(s, len, "numastat info"))
			meta->what = "numastat -n", meta->counters = 1;
		else if (str_find(s, len, "process memory usage")) {
			meta->what = "numastat -p";
			prefix = "numastat-p";
			if ((pid = str_find(s, len, " for PID ")) != NULL) {
				const char *p = pid + 9, *end = s + len, *q;
				size_t k = 0;
				while (p < end && *p >= '0' && *p <= '9' && k + 1 < sizeof(meta->pid))
					meta->pid[k++] = *p++;
				meta->pid[k] = '\0';
				if (p < end && *p == ' ' && p + 1 < end && p[1] == '(' &&
				    (q = memchr(p + 2, ')', (size_t)(end - p - 2))) != NULL &&
				    (size_t)(q - p - 2) < sizeof(meta->process)) {
					memcpy(meta->process, p + 2, (size_t)(q - p - 2));
					meta->process[q - p - 2] = '\0';
				}
			} else {
				/* several PIDs: one row per process, its Huge,
				 * Heap, Stack and Private summed per node */
				meta->skip = "a table of several processes (one row per PID, "
					     "its memory summed per node) is not read: numastat -p "
					     "with one PID prints the table kbench reads";
				return 0;
			}
		}
		i = 1;
	}
	while (i < n && !(ncol = mb_header(&lines[i], node, &total)))
		i++;
	for (i++; i < n; i++) {
		struct ingest_tok tok[2 * MON_MAX_NODES + 8];
		size_t nt = ingest_split(lines[i].s, lines[i].len, tok, 2 * MON_MAX_NODES + 8);
		size_t nv = ncol + (size_t)total, namelen;
		double v[MON_MAX_NODES + 1], sum = 0;
		const char *rn;

		if (nt >= 1 && tok_dashes(&tok[0]))
			continue;
		if (nt < nv + 1 || nt > 2 * MON_MAX_NODES + 8)
			return kb_err_set(err, ctx->path, lines[i].lineno, "numastat: a row of %zu values "
					  "in a table of %zu columns", nt - 1, nv);
		for (c = 0; c < nv; c++)
			if (!tok_number(&tok[nt - nv + c], &v[c]))
				return kb_err_set(err, ctx->path, lines[i].lineno, "numastat: bad value '%.*s'",
						  (int)tok[nt - nv + c].len, tok[nt - nv + c].s);
		rn = tok[0].s;
		namelen = (size_t)(tok[nt - nv - 1].s + tok[nt - nv - 1].len - rn);
		if (namelen >= MON_MAX_NAME)
			return kb_err_set(err, ctx->path, lines[i].lineno, "numastat: row name too long");
		for (c = 0; c < ncol; c++)
			sum += v[c];
		/* numastat prints two decimals: the Total column (and -p's
		 * Total row) is the sum of the nodes to within their rounding */
		if (total && fabs(sum - v[ncol]) > 0.0051 * (double)(ncol + 1) + 1e-9)
			return kb_err_set(err, ctx->path, lines[i].lineno, "numastat: %.*s: the Total "
					  "column %.2f is not the sum of the nodes (%.2f)", (int)namelen, rn,
					  v[ncol], sum);
		if (namelen == 5 && memcmp(rn, "Total", 5) == 0 && !strcmp(prefix, "numastat-p"))
			continue;       /* the sum of the rows above: derived */
		for (c = 0; c < ncol; c++) {
			size_t k;
			int len = snprintf(name, sizeof(name), "%s.node%d.", prefix, node[c]);
			/* "Active(anon)" stays; blanks in a name become '_' */
			for (k = 0; k < namelen && (size_t)len + 1 < sizeof(name); k++)
				name[len++] = rn[k] == ' ' ? '_' : rn[k];
			name[len] = '\0';
			mon_add(m, name, "MB", meta->counters, v[c], lines[i].lineno);
		}
		rows++;
	}
	if (!rows)
		return kb_err_set(err, ctx->path, lines[0].lineno, "numastat: a table with no rows");
	/* no title: the rows tell (numastat -n prints Numa_Hit ...) */
	if (!mb_title(&lines[0]) && m->n && str_find(m->s[0].metric, strlen(m->s[0].metric), ".Numa_")) {
		size_t k;
		meta->what = "numastat -n";
		meta->counters = 1;
		for (k = 0; k < m->n; k++)
			m->s[k].counter = 1;
	}
	return 0;
}

static void read_vmstat(const struct ingest_line *lines, size_t n, struct mon *m)
{
	char name[MON_MAX_NAME + 16];
	size_t i;

	for (i = 0; i < n; i++) {
		struct ingest_tok t[2];
		double v;
		if (!vmstat_line(&lines[i], t) || !tok_number(&t[1], &v))
			continue;
		snprintf(name, sizeof(name), "proc-vmstat.%.*s", (int)t[0].len, t[0].s);
		mon_add(m, name, "", vmstat_counter(name + 12), v, lines[i].lineno);
	}
}

static int snap_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		      struct rec_batch *out, struct kb_err *err)
{
	struct snap sn[8];
	size_t ns = snap_split(lines, n, sn, 8), k, nk = 0;
	struct snap_meta meta;
	struct mon m;
	struct rec_run *r;
	struct mon_count c;
	const char *why = NULL;
	int pair;

	if (ns == 0)
		return kb_err_set(err, ctx->path, lines[0].lineno, "numastat: no table");
	memset(&meta, 0, sizeof(meta));
	mon_init(&m, out);
	for (k = 0; k < ns; k++) {
		const struct ingest_line *bl = lines + sn[k].first;
		struct snap_meta mk;
		memset(&mk, 0, sizeof(mk));
		switch (sn[k].kind) {
		case SNAP_COMPAT:
			mk.what = "numastat";
			mk.bench = "numastat";
			mk.counters = 1;
			if (read_compat(ctx, bl, sn[k].len, &m, err) < 0)
				goto fail;
			break;
		case SNAP_MB:
			mk.bench = "numastat";
			if (read_mb(ctx, bl, sn[k].len, &m, &mk, err) < 0)
				goto fail;
			if (mk.skip) {
				/* left out: not a snapshot of the pair */
				rec_note(out, bl[0].lineno, "%s: not stored: %s", mk.what, mk.skip);
				continue;
			}
			break;
		default:
			mk.what = "/proc/vmstat";
			mk.bench = "vmstat";
			mk.counters = 1;
			read_vmstat(bl, sn[k].len, &m);
			break;
		}
		if (nk == 0)
			meta = mk;
		else if (strcmp(mk.what, meta.what) != 0 || strcmp(mk.pid, meta.pid) != 0) {
			why = "the two tables are not of one kind";
		}
		sn[nk++] = sn[k];
		m.ticks++;
	}
	ns = nk;
	if (ns == 0) {
		mon_release(&m);
		return 0;
	}
	pair = ns == 2 && sn[0].label == 1 && sn[1].label == 2 && !why;
	if (ns > 2)
		why = "more than two snapshots: which pair spans the run is not said";
	else if (ns == 2 && !pair && !why)
		why = "two snapshots, but their labels do not say before and after";
	if (why || (ns == 1 && meta.counters)) {
		/* counters since boot, read once (or read twice without
		 * saying which is before the run): nothing is stored */
		if (!why)
			why = "one snapshot of counters kept since boot measures no run; a "
			      "snapshot before and one after the run (labelled 'before' and 'after') "
			      "give its change";
		rec_note(out, lines[sn[0].first].lineno, "%s: not stored: %s", meta.what, why);
		mon_release(&m);
		return 0;
	}
	r = rec_run_new(out, meta.bench, lines[sn[0].first].lineno);
	if (meta.pid[0])
		rec_run_config(out, r, "pid", meta.pid);
	if (meta.process[0])
		rec_run_config(out, r, "process", meta.process);
	if (ctx->variant) {
		rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
		r->kernel = arena_strdup(&out->arena, ctx->kernel);
	}
	mon_emit(&m, r, ns == 1, meta.what, &c);
	mon_note(out, lines[sn[0].first].lineno, meta.what, (long)ns,
		 pair ? arena_printf(&out->arena, "(before, line %ld; after, line %ld)",
				     sn[0].label_line, sn[1].label_line) : "(one table of levels)", &c);
	if (m.dup_line)
		rec_note(out, m.dup_line, "%s: a key given twice in one reading: the first is kept",
			 meta.what);
	rec_note(out, lines[sn[0].first].lineno, "%s: a run of its own (benchmark %s): a post "
		 "does not say which benchmark run it measured", meta.what, meta.bench);
	if (r->nsamples == 0)
		rec_run_drop(out, r);
	mon_release(&m);
	return 0;
fail:
	mon_release(&m);
	return -1;
}

static size_t numastat_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			     size_t n, int *score)
{
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);

	(void)opts;
	/* cheap refusal: a header, a title or a label starts every claim */
	if (*p != 'n' && *p != 'N' && *p != 'P' && *p != '<' && !snapshot_label(&lines[0]))
		return 0;
	return snap_claim(lines, n, 0, score);
}

/* vmstat(8)'s first header line: "procs -----memory---- ..." or, with
 * -w, "--procs-- -----memory----- ...". */
static int vmstat8_title(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);

	if (p >= l->s + l->len || (*p != 'p' && *p != '-'))
		return 0;
	if (!str_starts(p, "procs ") && !str_starts(p, "--procs-- "))
		return 0;
	return str_find(l->s, l->len, "---memory---") != NULL;
}

static size_t vmstat_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			   size_t n, int *score)
{
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);

	(void)opts;
	if (vmstat8_title(&lines[0])) {
		size_t i = 1;
		/* vmstat(8): two header lines, then rows of numbers (and
		 * with -t a date and a time) */
		if (n < 3)
			return 0;
		for (i = 2; i < n; i++) {
			struct ingest_tok t[2];
			if (ingest_split(lines[i].s, lines[i].len, t, 2) < 2 || !tok_digits(&t[0]))
				break;
		}
		*score = 90;
		return i > 2 ? i : 0;
	}
	if (!(p < lines[0].s + lines[0].len && *p >= 'a' && *p <= 'z') && !snapshot_label(&lines[0]))
		return 0;
	return snap_claim(lines, n, 1, score);
}

/* vmstat(8) ------------------------------------------------------------- */

/* vmstat(8)'s column name -> its group, NULL for none (the -t zone). */
static const char *vmstat8_group(const struct ingest_tok *col)
{
	static const struct { const char *col, *group; } cols[] = {
		{ "r", "procs" }, { "b", "procs" }, { "swpd", "memory" }, { "free", "memory" },
		{ "buff", "memory" }, { "cache", "memory" }, { "inact", "memory" },
		{ "active", "memory" }, { "si", "swap" }, { "so", "swap" }, { "bi", "io" },
		{ "bo", "io" }, { "in", "system" }, { "cs", "system" }, { "us", "cpu" },
		{ "sy", "cpu" }, { "id", "cpu" }, { "wa", "cpu" }, { "st", "cpu" }, { "gu", "cpu" },
	};
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (ingest_tok_is(col, cols[i].col))
			return cols[i].group;
	return NULL;
}

static int vmstat8_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			 size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct ingest_tok col[64];
	size_t nc = ingest_split(lines[1].s, lines[1].len, col, 64), i, c, known;
	struct mon m;
	struct mon_count cnt;
	struct rec_run *r;
	char name[2 * MON_MAX_NAME];

	if (nc > 64)
		return kb_err_set(err, ctx->path, lines[1].lineno, "vmstat: unknown header");
	for (known = 0; known < nc && vmstat8_group(&col[known]); known++)
		;
	if (known < 4)
		return kb_err_set(err, ctx->path, lines[1].lineno, "vmstat: unknown header");
	mon_init(&m, out);
	/* the first row is the average since boot, not a reading of the run */
	for (i = 3; i < n; i++) {
		struct ingest_tok v[66];
		size_t nv = ingest_split(lines[i].s, lines[i].len, v, 66);
		if (nv < known) {
			mon_release(&m);
			return kb_err_set(err, ctx->path, lines[i].lineno, "vmstat: a row of %zu values "
					  "under %zu columns", nv, known);
		}
		for (c = 0; c < known; c++) {
			double x;
			if (!tok_number(&v[c], &x)) {
				mon_release(&m);
				return kb_err_set(err, ctx->path, lines[i].lineno, "vmstat: bad value '%.*s'",
						  (int)v[c].len, v[c].s);
			}
			snprintf(name, sizeof(name), "vmstat.%s.%.*s", vmstat8_group(&col[c]),
				 (int)col[c].len, col[c].s);
			mon_add(&m, name, "", 0, x, lines[i].lineno);
		}
		m.ticks++;
	}
	if (m.ticks == 0) {
		rec_note(out, lines[2].lineno, "vmstat: not stored: its only row is the average since boot");
		mon_release(&m);
		return 0;
	}
	r = rec_run_new(out, "vmstat", lines[0].lineno);
	if (ctx->variant) {
		rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
		r->kernel = arena_strdup(&out->arena, ctx->kernel);
	}
	mon_emit(&m, r, 1, "vmstat", &cnt);
	mon_note(out, lines[0].lineno, "vmstat", m.ticks, "(the first row, the average since boot, "
		 "left out)", &cnt);
	/* vmstat -S k|K|m|M changes the memory columns' unit and its
	 * output does not say so: stored as printed, with no unit */
	for (c = 0; c < known; c++)
		if (!strcmp(vmstat8_group(&col[c]), "memory"))
			break;
	if (c < known)
		rec_note(out, lines[1].lineno, "vmstat: the memory columns are stored as printed, with "
			 "no unit: KiB, unless vmstat was run with -S (its output does not say which)");
	mon_release(&m);
	return 0;
}

static int vmstat_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			size_t n, struct rec_batch *out, struct kb_err *err)
{
	if (vmstat8_title(&lines[0]))
		return vmstat8_parse(ctx, lines, n, out, err);
	return snap_parse(ctx, lines, n, out, err);
}

/* lkp's monitors: time series ------------------------------------------ */

enum lkp_kind { LKP_NONE, LKP_KV, LKP_MEMINFO, LKP_NUMASTAT_CG };

static int lkp_time(const struct ingest_line *l, double *t)
{
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len;
	double v;

	if (!str_starts(p, "time:"))
		return 0;
	p = str_skip_ws(p + 5, end);
	end = l->s + str_rtrim_len(l->s, l->len);
	if (p >= end || num_parse(p, (size_t)(end - p), &v) < 0 || v < 0)
		return 0;
	if (t)
		*t = v;
	return 1;
}

/* "node: 0" / "cgroup: name": the word after the colon, else NULL. */
static const char *lkp_tag(const struct ingest_line *l, const char *tag, size_t *len)
{
	struct ingest_tok t[3];
	size_t nt = ingest_split(l->s, l->len, t, 3);

	if (nt != 2 || !ingest_tok_is(&t[0], tag))
		return NULL;
	*len = t[1].len;
	return t[1].s;
}

/* The kind of one data line of a monitor file. */
static enum lkp_kind lkp_line(const struct ingest_line *l)
{
	struct ingest_tok t[MON_MAX_NODES + 2];
	size_t nt = ingest_split(l->s, l->len, t, MON_MAX_NODES + 2), i;
	double v;

	if (nt == 2 && tok_key(&t[0]) && tok_digits(&t[1]))
		return LKP_KV;
	/* "Node 0 MemTotal:  5204180 kB", "Node 0 HugePages_Total:     0" */
	if ((nt == 4 || (nt == 5 && ingest_tok_is(&t[4], "kB"))) && ingest_tok_is(&t[0], "Node") &&
	    tok_digits(&t[1]) && t[2].len > 1 && t[2].s[t[2].len - 1] == ':' && tok_digits(&t[3]))
		return LKP_MEMINFO;
	/* memory.numa_stat: "anon N0=94208 N1=..." or "total=257274 N0=0 ..." */
	if (nt >= 2 && nt <= MON_MAX_NODES + 1) {
		for (i = 1; i < nt; i++) {
			const char *eq = memchr(t[i].s, '=', t[i].len);
			if (t[i].len < 4 || t[i].s[0] != 'N' || !eq ||
			    !str_all_digits(t[i].s + 1, (size_t)(eq - t[i].s - 1)) || eq == t[i].s + 1 ||
			    num_parse(eq + 1, (size_t)(t[i].s + t[i].len - eq - 1), &v) < 0)
				return LKP_NONE;
		}
		return LKP_NUMASTAT_CG;
	}
	return LKP_NONE;
}

static size_t lkp_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			size_t n, int *score)
{
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);
	enum lkp_kind kind = LKP_NONE;
	size_t i, data = 0, len;

	(void)opts;
	if (*p != 't' || !lkp_time(&lines[0], NULL))
		return 0;
	for (i = 1; i < n; i++) {
		enum lkp_kind k;
		if (lkp_time(&lines[i], NULL) || lkp_tag(&lines[i], "node:", &len) ||
		    lkp_tag(&lines[i], "cgroup:", &len))
			continue;
		k = lkp_line(&lines[i]);
		if (k == LKP_NONE || (kind != LKP_NONE && k != kind))
			break;
		kind = k;
		data++;
	}
	if (!data) {
		/* "time:" lines with nothing between: none starts a series */
		*score = -(int)(i > (size_t)1 << 30 ? (size_t)1 << 30 : i);
		return 0;
	}
	*score = 90;
	return i;
}

/* memory.numa_stat's "anon N0=1 N1=2" / "total=3 N0=1 N1=2" into m. */
static int read_numa_stat(const struct ingest_ctx *ctx, const struct ingest_line *l,
			  struct mon *m, const char *unit, struct kb_err *err)
{
	struct ingest_tok t[MON_MAX_NODES + 2];
	size_t nt = ingest_split(l->s, l->len, t, MON_MAX_NODES + 2), i, klen;
	const char *eq = memchr(t[0].s, '=', t[0].len);
	char name[2 * MON_MAX_NAME];
	double v;

	klen = eq ? (size_t)(eq - t[0].s) : t[0].len;
	if (klen == 0 || klen >= MON_MAX_NAME)
		return kb_err_set(err, ctx->path, l->lineno, "memory.numa_stat: bad item name");
	if (eq) {
		if (num_parse(eq + 1, (size_t)(t[0].s + t[0].len - eq - 1), &v) < 0)
			return kb_err_set(err, ctx->path, l->lineno, "memory.numa_stat: bad value");
		snprintf(name, sizeof(name), "memory--numa_stat.%.*s", (int)klen, t[0].s);
		mon_add(m, name, unit, 0, v, l->lineno);
	}
	for (i = 1; i < nt; i++) {
		const char *e = memchr(t[i].s, '=', t[i].len);
		num_parse(e + 1, (size_t)(t[i].s + t[i].len - e - 1), &v);
		snprintf(name, sizeof(name), "memory--numa_stat.%.*s.%.*s", (int)klen, t[0].s,
			 (int)(e - t[i].s), t[i].s);
		mon_add(m, name, unit, 0, v, l->lineno);
	}
	return 0;
}

static int lkp_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		     struct rec_batch *out, struct kb_err *err)
{
	enum lkp_kind kind = LKP_NONE;
	int pernode = 0, allnumastat = 1, cgroup_v1 = 0;
	size_t i, len;
	double t0 = 0, t1 = 0, t;
	const char *what, *bench;
	struct mon m;
	struct mon_count c;
	struct rec_run *r;
	char name[3 * MON_MAX_NAME];
	long node = -1;
	/* memory.numa_stat: one run per cgroup */
	const char *cg = NULL;
	size_t cglen = 0, ngroups = 0;

	/* the kind, and whether the key-value lines are numastat's */
	for (i = 0; i < n; i++) {
		struct ingest_tok tk[2];
		if (lkp_time(&lines[i], NULL))
			continue;
		if (lkp_tag(&lines[i], "node:", &len)) {
			pernode = 1;
			continue;
		}
		if (lkp_tag(&lines[i], "cgroup:", &len)) {
			ngroups++;
			continue;
		}
		kind = lkp_line(&lines[i]);
		if (kind == LKP_KV) {
			ingest_split(lines[i].s, lines[i].len, tk, 2);
			if (!is_numastat_key(&tk[0]))
				allnumastat = 0;
		}
		if (kind == LKP_NUMASTAT_CG) {
			ingest_split(lines[i].s, lines[i].len, tk, 1);
			if (memchr(tk[0].s, '=', tk[0].len))
				cgroup_v1 = 1;
		}
	}
	if (kind == LKP_MEMINFO)
		what = "numa-meminfo", bench = "numa-meminfo";
	else if (kind == LKP_NUMASTAT_CG)
		what = "memory.numa_stat", bench = "memory.numa_stat";
	else if (pernode && allnumastat)
		what = "numa-numastat", bench = "numastat";
	else if (pernode)
		what = "numa-vmstat", bench = "vmstat";
	else
		what = "proc-vmstat", bench = "vmstat";
	if (kind == LKP_KV && pernode && !lkp_tag(&lines[1], "node:", &len))
		return kb_err_set(err, ctx->path, lines[1].lineno, "%s: values before the first 'node:' line",
				  what);
	if (kind == LKP_NUMASTAT_CG && ngroups == 0)
		return kb_err_set(err, ctx->path, lines[1].lineno, "memory.numa_stat: no 'cgroup:' line");
	mon_init(&m, out);
	lkp_time(&lines[0], &t0);
	for (i = 0; i < n; i++) {
		const struct ingest_line *l = &lines[i];
		const char *tag;
		if (lkp_time(l, &t)) {
			if (i > 0)
				m.ticks++;
			if (t < t1) {
				mon_release(&m);
				return kb_err_set(err, ctx->path, l->lineno, "%s: time goes back", what);
			}
			t1 = t;
			continue;
		}
		if ((tag = lkp_tag(l, "node:", &len)) != NULL) {
			if (!str_all_digits(tag, len) || len > 6 || num_parse_long(tag, len, &node) < 0) {
				mon_release(&m);
				return kb_err_set(err, ctx->path, l->lineno, "%s: bad node '%.*s'", what,
						  (int)len, tag);
			}
			continue;
		}
		if ((tag = lkp_tag(l, "cgroup:", &len)) != NULL) {
			if (cg && (len != cglen || memcmp(tag, cg, len) != 0)) {
				mon_release(&m);
				return kb_err_set(err, ctx->path, l->lineno, "memory.numa_stat: more than one "
						  "cgroup in one file is not read");
			}
			cg = tag;
			cglen = len;
			continue;
		}
		if (kind == LKP_KV) {
			struct ingest_tok tk[2];
			double v;
			char key[MON_MAX_NAME];
			ingest_split(l->s, l->len, tk, 2);
			tok_number(&tk[1], &v);
			memcpy(key, tk[0].s, tk[0].len);
			key[tk[0].len] = '\0';
			if (pernode)
				snprintf(name, sizeof(name), "%s.node%ld.%s", what, node, key);
			else
				snprintf(name, sizeof(name), "%s.%s", what, key);
			if (pernode && allnumastat)
				mon_add(&m, name, "pages", 1, v, l->lineno);
			else
				mon_add(&m, name, "", vmstat_counter(key), v, l->lineno);
		} else if (kind == LKP_MEMINFO) {
			struct ingest_tok tk[5];
			double v;
			long nn;
			ingest_split(l->s, l->len, tk, 5);
			num_parse_long(tk[1].s, tk[1].len, &nn);
			if (pernode && nn != node) {
				mon_release(&m);
				return kb_err_set(err, ctx->path, l->lineno, "numa-meminfo: a line of node %ld "
						  "under 'node: %ld'", nn, node);
			}
			tok_number(&tk[3], &v);
			snprintf(name, sizeof(name), "numa-meminfo.node%ld.%.*s", nn, (int)tk[2].len - 1,
				 tk[2].s);
			mon_add(&m, name, str_find(l->s, l->len, " kB") ? "kB" : "", 0, v, l->lineno);
		} else if (read_numa_stat(ctx, l, &m, cgroup_v1 ? "pages" : "bytes", err) < 0) {
			mon_release(&m);
			return -1;
		}
	}
	m.ticks++;
	r = rec_run_new(out, bench, lines[0].lineno);
	if (cg)
		rec_run_config(out, r, "cgroup", arena_strndup(&out->arena, cg, cglen));
	if (ctx->variant) {
		rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
		r->kernel = arena_strdup(&out->arena, ctx->kernel);
	}
	mon_emit(&m, r, 1, what, &c);
	mon_note(out, lines[0].lineno, what, m.ticks,
		 m.ticks > 1 ? arena_printf(&out->arena, "over %.3f s", t1 - t0) : NULL, &c);
	if (m.dup_line)
		rec_note(out, m.dup_line, "%s: a key given twice in one reading: the first is kept", what);
	if (r->nsamples == 0)
		rec_run_drop(out, r);
	mon_release(&m);
	return 0;
}

const struct ingest_parser numastat_parser = {
	"numastat",
	"numastat tables (default, -m, -n, -p), before/after pairs: 'numa_hit  67798958  57342158'",
	numastat_claim, snap_parse,
};

const struct ingest_parser vmstat_parser = {
	"vmstat",
	"/proc/vmstat before/after snapshots and vmstat(8): 'numa_hint_faults 2705'",
	vmstat_claim, vmstat_parse,
};

const struct ingest_parser lkpmon_parser = {
	"lkp-monitor",
	"lkp monitors (proc-vmstat, numa-numastat, numa-vmstat, numa-meminfo, memory.numa_stat): "
	"'time: 1796095080' then 'node: 0', 'numa_hit 4052644'",
	lkp_claim, lkp_parse,
};
