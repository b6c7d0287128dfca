/*
 * perfstat.c - perf stat output ("perf-stat").
 *
 *  Performance counter stats for './numa01':            (or 'system wide', "(5 runs)")
 *
 *            554,289 cs                                          [100.00%]
 *              5,819 migrate:mm_migrate_pages
 *             341,09 msec task-clock       #    0,979 CPUs utilized
 *          2,359,153      cycles           #    2.931 GHz      ( +-  0.38% )
 *    <not supported>      stalled-cycles-frontend
 *
 *     1784.171745972 seconds time elapsed
 *            0.18183 +- 0.00598 seconds time elapsed  ( +-  3.29% )
 *        0.004038000 seconds user
 *
 *  -I 1000 (human):   1.000193166  S0   4       3,119      context-switches
 *  -x, (CSV):         1.017184940,16689.57,msec,cpu-clock,16689560024,100.00,16.690,CPUs utilized
 *                     N0,2,554289,,cs,0.38%,1784171745972,100.00,,
 *  -j (JSON):         {"interval" : 1.000, "counter-value" : "554289.000000", "unit" : "",
 *                      "event" : "cs", "event-runtime" : 1784171745972, "pcnt-running" : 100.00}
 *  lkp, blank-separated CSV:  1.012763890 16167.76 msec cpu-clock 16167755803 100.00 16.168 CPUs utilized
 *
 * One run per block and per aggregation id (--per-node/socket/die/core,
 * -A); -I's intervals are samples of that run numbered by interval (job =
 * interval index, with a 'time' sample each), not runs.  Metric = the event as
 * printed; elapsed/user/sys in seconds.  Numbers follow the locale perf ran
 * in ("1,130.84", "1.130,84", "1<U+202F>130,84", "1<U+2019>130.84"); the
 * decimal mark is decided per block from all the evidence in it (see
 * block_decimal).  With -I --summary the whole run's block follows the
 * intervals: its header names the command for all of them, and its runs
 * get summary=yes.  A workload's own lines between perf's (perf stat -I
 * 500 hackbench ...) go to the hackbench parser as one stream.
 */
#include "hackbench.h"
#include "parsers.h"

#include <csv.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#define PS_MAXTOK 64
/* Foreign (workload) lines tolerated between two perf lines of a block. */
#define PS_MAX_FOREIGN 12

struct span {
	const char *s;
	size_t len;
};

enum line_kind {
	LK_OTHER, LK_BLANK, LK_HEADER, LK_CMDLINE, LK_VERSION, LK_IVHEADER,
	LK_COUNTER,     /* human counter line without timestamp */
	LK_TSCOUNTER,   /* human / blank-separated counter line with timestamp */
	LK_CSV, LK_JSON, LK_ELAPSED, LK_USERSYS, LK_NOTE,
	LK_HB,          /* hackbench "Running in ..." / "Each sender ..." */
	LK_HBTIME,      /* hackbench "Time: 0.454" */
	LK_GARBLED,     /* unmistakably perf's, but unreadable */
	LK_WRAPTAIL,    /* "M/sec   ( +- 1.62% )": a counter line's tail a mail client wrapped */
	LK_COLUMNS,     /* "cs   43,373 ( +- 0.40% )   44,597 ( +- 0.55% )": hand-merged columns */
	LK_PREFIXED,    /* "NAME:  1,234  cs", "[ -vanilla ]  19.55 +- 0.02 seconds time elapsed" */
};

enum item_kind { IT_COUNTER, IT_ELAPSED, IT_USER, IT_SYS };

/* One counter (or footer) line, numbers still as printed. */
struct item {
	enum item_kind kind;
	long lineno;
	int grouped;            /* may carry thousands separators (human form) */
	int has_ts;
	double ts;
	const char *aggr_key, *aggr_val;        /* NULL when not split */
	int summary;            /* --summary row */
	int missing;            /* <not supported> / <not counted> */
	struct span val;        /* value text (when !val_ready) */
	int val_ready;
	double value;
	struct span noise;      /* "( +- 3.15% )": relative SE in percent */
	int noise_ready;
	double noise_pct;
	struct span sem;        /* elapsed "+- 0.00598": absolute SEM */
	const char *unit, *event;
	const char *prefix;     /* the run's name printed before the line, or NULL */
	size_t group;           /* which run of a bare stretch (0 in a block with a header) */
};

struct runkey {
	size_t group;
	int iter;               /* the last interval whose time sample was added */
	const char *ak, *av;
	int summary;
	struct rec_run *run;
};

struct block {
	const struct ingest_ctx *ctx;
	struct rec_batch *out;
	struct kb_err *err;
	const char *cmd;
	const char *setup;      /* the command typed right before perf stat, or NULL */
	long nrepeat;           /* -r N, 0 unknown */
	int has_header, has_elapsed, has_interval;
	char sep;               /* CSV separator, 0 until known */
	struct item *items;
	size_t nitems, items_cap;
	struct runkey *runs;
	size_t nruns, runs_cap;
	double *stamps;         /* distinct interval timestamps, in order */
	size_t nstamps, stamps_cap;
	long point_line, comma_line;    /* first line proving '.' / ',' decimal */
	char group, group2;             /* thousands separators seen (see numtok_read) */
	long group_line, group2_line;
	long ambig_line;
	char ambig_tok[48];
	char style;                     /* digit grouping shown: 'w' threes, 'i' Indian */
	long columns_line;              /* last hand-merged column row (left out) */
	struct ingest_line *cols;       /* the hand-merged column rows, in order */
	size_t ncols, cols_cap;
	long style_line;
	struct ingest_line *foreign;    /* the workload's lines, in order */
	size_t nforeign, foreign_cap;
	/* Runs named before their lines ("NAME:  1,234 cs"): the group of
	 * the last item, its name, and whether that run ended (its elapsed
	 * line was read). */
	size_t rgroup;
	const char *prefix;
	int group_ended;
	/* Of the names, split at '/': how many parts each has (0: they
	 * differ in that, or none has several), and which parts they all
	 * share ("6.9.0/pipe.60", "6.9.0-rc1/pipe.60": the test, 'pipe.60'). */
	size_t pfx_parts;
	unsigned pfx_shared;    /* bit i: part i is the same in every name */
};

/* Token predicates ------------------------------------------------------ */

/* Does rx match s[0..len)?  (rx_match counts captures up to ncap, so ask
 * for group 0.) */
static int rx_is(struct rx *rx, const char *s, size_t len)
{
	struct rx_cap cap[1];
	return rx_match(rx, s, len, cap, 1) > 0;
}

static int span_is(struct span t, const char *w)
{
	size_t n = strlen(w);
	return t.len == n && memcmp(t.s, w, n) == 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* perf's interval stamp: "%6lu.%09lu", never localised. */
static int stamplike(const char *s, size_t len)
{
	size_t i = 0, dots = 0;

	if (!len || !is_digit(s[0]))
		return 0;
	for (; i < len; i++) {
		if (s[i] == '.')
			dots++;
		else if (!is_digit(s[i]))
			return 0;
	}
	return dots == 1 && s[len - 1] != '.';
}

static int eventlike(const char *s, size_t len)
{
	static struct rx r = RX("^[A-Za-z_][A-Za-z0-9_:/=.,@+{}\\-]*$");
	return len && rx_is(&r, s, len);
}

/* One of perf's generic events (perf list: hardware, software and
 * cache events), which no other program prints after a count. */
static int generic_event(const char *s, size_t len)
{
	static struct rx r = RX("^(?:cpu-cycles|cycles|instructions|cache-references|cache-misses|"
				"branch-instructions|branches|branch-misses|bus-cycles|ref-cycles|"
				"stalled-cycles-(?:frontend|backend)|cpu-clock|task-clock|page-faults|faults|"
				"minor-faults|major-faults|context-switches|cs|cpu-migrations|migrations|"
				"alignment-faults|emulation-faults|"
				"(?:L1-[di]cache|LLC|dTLB|iTLB|node|branch)-(?:loads|load-misses|stores|"
				"store-misses|prefetches|prefetch-misses))(?::[ukhHGp]+)?$");
	return len && rx_is(&r, s, len);
}

static int unitlike(const char *s, size_t len)
{
	static struct rx r = RX("^[A-Za-z%/]{1,16}$");
	return len && rx_is(&r, s, len);
}

static int aggrlike(const char *s, size_t len)
{
	static struct rx r = RX("^(?:S\\d+(?:-D\\d+)?(?:-C\\d+)?|S\\d+-D\\d+-L\\d+-ID\\d+|N\\d+|CPU\\d+)$");
	return len && rx_is(&r, s, len);
}

/* t is all digits (after an optional sign), min..max of them. */
static int digits_only(const struct ingest_tok *t, size_t min, size_t max)
{
	size_t o = t->len && (t->s[0] == '-' || t->s[0] == '+');
	size_t n = t->len - o;

	return n >= min && n <= max && strspn(t->s + o, "0123456789") == n;
}

/* One group after a space: "065", or the last one with decimals "130,84". */
static int space_group(const struct ingest_tok *t)
{
	if (t->len < 3 || strspn(t->s, "0123456789") < 3)
		return 0;
	if (t->len == 3)
		return 1;
	return t->len > 4 && (t->s[3] == '.' || t->s[3] == ',') &&
	       strspn(t->s + 4, "0123456789") == t->len - 4;
}

/* Map an aggregation id as perf prints it to a config key and value:
 * N0 -> node=0, S1 -> socket=1, CPU3 -> cpu=3, S0-D1 -> die=S0-D1,
 * S0-D0-C5 -> core=S0-D0-C5 (die and core ids only mean something
 * together with their socket, so the whole id is kept). */
static void aggr_config(struct arena *a, const char *s, size_t len, const char **key,
			const char **val)
{
	const char *dash = memchr(s, '-', len);

	if (len > 3 && memcmp(s, "CPU", 3) == 0) {
		*key = "cpu";
		*val = arena_strndup(a, s + 3, len - 3);
	} else if (s[0] == 'N') {
		*key = "node";
		*val = arena_strndup(a, s + 1, len - 1);
	} else if (!dash) {
		*key = "socket";
		*val = arena_strndup(a, s + 1, len - 1);
	} else {
		size_t dashes = 0, i;
		for (i = 0; i < len; i++)
			dashes += s[i] == '-';
		*key = dashes == 1 ? "die" : dashes == 2 ? "core" : "cache";
		*val = arena_strndup(a, s, len);
	}
}

/* Numbers in the locale perf ran in ------------------------------------- */

/*
 * perf prints counts with printf's "'" flag, so they follow the locale:
 * "9,931" (en_US), "9.931" (de_DE), "9<U+202F>931" (fr_FR), "9<U+2019>931"
 * (de_CH, glibc 2.36; older glibc "9'931"), and U+00A0 or a plain space
 * in other locales and older glibc.  Separators other than '.' and ','
 * are "foreign": they only ever group thousands.  The interval stamp is
 * printed "%lu.%09lu" in every locale, so it says nothing about them.
 */

/* Length of a foreign thousands separator at s[i] (0: none).  *kind
 * names it: ' ' space, 'a' U+00A0, 'n' U+202F, '\'' apostrophe,
 * 'q' U+2019. */
static size_t foreign_sep(const char *s, size_t i, size_t len, char *kind)
{
	const unsigned char *u = (const unsigned char *)s + i;
	size_t left = len - i;

	if (left >= 1 && (u[0] == ' ' || u[0] == '\'')) {
		*kind = (char)u[0];
		return 1;
	}
	if (left >= 2 && u[0] == 0xC2 && u[1] == 0xA0) {
		*kind = 'a';
		return 2;
	}
	if (left >= 3 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xAF || u[2] == 0x99)) {
		*kind = u[2] == 0xAF ? 'n' : 'q';
		return 3;
	}
	return 0;
}

static const char *sep_name(char kind)
{
	switch (kind) {
	case ' ':
		return "a space";
	case 'a':
		return "U+00A0";
	case 'n':
		return "U+202F";
	case '\'':
		return "\"'\"";
	case 'q':
		return "U+2019";
	case '.':
		return "'.'";
	default:
		return "','";
	}
}

/* "554,289", "341.09", "-3", "1.234,5", "1<U+202F>130,84": digits with
 * separators (a foreign one only between two digits). */
static int numlike(const char *s, size_t len)
{
	size_t i = 0, k;
	char kind;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	if (i >= len || !is_digit(s[i]))
		return 0;
	while (i < len) {
		if (is_digit(s[i]) || s[i] == ',' || s[i] == '.') {
			i++;
			continue;
		}
		k = foreign_sep(s, i, len, &kind);
		if (!k || kind == ' ' || !is_digit(s[i - 1]) || i + k >= len || !is_digit(s[i + k]))
			return 0;
		i += k;
	}
	return 1;
}

/* What one number token shows about the locale. */
struct numtok {
	char dec;               /* '.' or ',' shown to be the decimal mark, or 0 */
	char group;             /* the thousands separator it shows, or 0 */
	int ambiguous;          /* one '.' or ',' before 3 digits: reads either way */
};

/*
 * Read the evidence in s[0..len).  grouped: thousands separators may
 * appear (human output; perf turns them off for -x and -j).  integer:
 * perf printed the value with "%.0f" (a count without a unit), so a lone
 * separator in it groups.  Returns -1 when it is no number.
 */
static int numtok_read(const char *s, size_t len, int grouped, int integer, struct numtok *nt)
{
	size_t i = 0, start, nsep = 0, ndot = 0, last = 0, k;
	char lastc = 0, kind, foreign = 0;

	memset(nt, 0, sizeof(*nt));
	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	start = i;
	if (start >= len)
		return -1;
	while (i < len) {
		if (is_digit(s[i])) {
			i++;
			continue;
		}
		if (s[i] == '.' || s[i] == ',') {
			nsep++;
			ndot += s[i] == '.';
			last = i;
			lastc = s[i++];
			continue;
		}
		k = grouped ? foreign_sep(s, i, len, &kind) : 0;
		if (!k || (foreign && foreign != kind))
			return -1;
		foreign = kind;
		i += k;
	}
	if (foreign) {          /* "1 130,84": the other mark is the decimal */
		nt->group = foreign;
		if (nsep > 1)
			return -1;
		nt->dec = lastc;
		return 0;
	}
	if (!nsep)
		return 0;
	if (!grouped) {
		nt->dec = lastc;
		return nsep == 1 ? 0 : -1;
	}
	if (ndot && ndot != nsep) {             /* "1,234.56": the last one */
		nt->dec = lastc;
		nt->group = lastc == '.' ? ',' : '.';
		return 0;
	}
	if (nsep >= 2) {                        /* "1,982,054": those group */
		nt->group = lastc;
		return 0;
	}
	/* One separator: a group has exactly 3 digits after it and 1-3
	 * digits (not a lone 0) before it. */
	if (len - last - 1 != 3 || last - start > 3 || last == start ||
	    (last - start == 1 && s[start] == '0'))
		nt->dec = lastc;
	else if (integer)
		nt->group = lastc;
	else
		nt->ambiguous = 1;
	return 0;
}

/*
 * Convert s[0..len) with decimal mark dec, dropping group separators.
 * Two groupings of the whole part are read: in threes ("7,993,529,041",
 * the western locales) and the Indian one of en_IN and the other Indian
 * locales, threes last and twos before ("7,99,35,29,041").  They differ
 * only from the third group on ("12,462" is both), and never read one
 * number as two values, so each is accepted; *style (may be NULL) gets
 * 'w' or 'i' when the number shows which (0 when it cannot), for
 * block_grouping to refuse a block that mixes them.
 */
static int numtok_value(const char *s, size_t len, char dec, int grouped, double *out,
			char *style)
{
	char tmp[80];
	size_t i, o = 0, run = 0, groups = 0, first = 0, k;
	int seen_dec = 0, threes = 1, twos = 1;
	char kind;

	if (style)
		*style = 0;
	if (len >= sizeof(tmp))
		return -1;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (c == dec) {
			if (seen_dec)
				return -1;
			seen_dec = 1;
			tmp[o++] = '.';
			if (groups && run != 3)
				return -1;
		} else if (c == '.' || c == ',' || (grouped && foreign_sep(s, i, len, &kind))) {
			k = c == '.' || c == ',' ? 1 : foreign_sep(s, i, len, &kind);
			if (!grouped || seen_dec || run == 0)
				return -1;
			if (groups == 0) {
				first = run;
			} else {                /* a middle group */
				threes &= run == 3;
				twos &= run == 2;
			}
			groups++;
			run = 0;
			i += k - 1;
		} else {
			if (is_digit(c) && !seen_dec)
				run++;
			tmp[o++] = c;
		}
	}
	if (groups) {
		if (!seen_dec && run != 3)
			return -1;
		threes &= first <= 3;
		twos &= first <= 2;
		if (!threes && !twos)
			return -1;
		if (style && groups >= 2)
			*style = threes ? 'w' : 'i';
	}
	return num_parse(tmp, o, out);
}

/* Record what the token t on line shows.  counts: the token is a value
 * to store (an ambiguous one must be decided); integer: see numtok_read. */
static void note_number(struct block *b, struct span t, int grouped, int integer, long line,
			int counts)
{
	struct numtok nt;

	if (numtok_read(t.s, t.len, grouped, integer, &nt) < 0)
		return;
	if (nt.dec == '.' && !b->point_line)
		b->point_line = line;
	else if (nt.dec == ',' && !b->comma_line)
		b->comma_line = line;
	if (nt.group && !b->group_line) {
		b->group = nt.group;
		b->group_line = line;
	} else if (nt.group && nt.group != b->group && !b->group2_line) {
		b->group2 = nt.group;
		b->group2_line = line;
	}
	if (nt.ambiguous && counts && !b->ambig_line) {
		b->ambig_line = line;
		snprintf(b->ambig_tok, sizeof(b->ambig_tok), "%.*s", (int)t.len, t.s);
	}
}

/* CSV (-x SEP) ----------------------------------------------------------- */

struct csv_row {
	char buf[4096];
	size_t used;
	struct span f[PS_MAXTOK];
	size_t nf;
	int overflow;
};

static void csv_field_cb(void *s, size_t len, void *data)
{
	struct csv_row *r = data;
	const char *p = s ? s : "";

	if (!s)
		len = 0;
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	if (r->nf >= PS_MAXTOK || r->used + len + 1 > sizeof(r->buf)) {
		r->overflow = 1;
		return;
	}
	memcpy(r->buf + r->used, p, len);
	r->buf[r->used + len] = '\0';
	r->f[r->nf].s = r->buf + r->used;
	r->f[r->nf].len = len;
	r->nf++;
	r->used += len + 1;
}

static void csv_row_cb(int c, void *data)
{
	(void)c;
	(void)data;
}

/* Split one line at sep with libcsv. */
static int csv_split(const struct ingest_line *l, char sep, struct csv_row *row)
{
	struct csv_parser p;
	int rc = 0;

	row->used = row->nf = 0;
	row->overflow = 0;
	if (csv_init(&p, 0) != 0)
		return -1;
	csv_set_delim(&p, (unsigned char)sep);
	if (csv_parse(&p, l->s, l->len, csv_field_cb, csv_row_cb, row) != l->len)
		rc = -1;
	if (csv_fini(&p, csv_field_cb, csv_row_cb, row) != 0)
		rc = -1;
	csv_free(&p);
	return rc < 0 || row->overflow ? -1 : 0;
}

/* Where the parts of a CSV counter row are. */
struct csv_shape {
	int ts, summary, aggr, nr;      /* field index or -1 */
	size_t v, u, e, e_last;         /* e_last: tracepoint split by ':' */
	int noise;                      /* variance column (-r) or -1 */
};

static int csv_value_field(struct span f, char sep)
{
	if (span_is(f, "<not supported>") || span_is(f, "<not counted>"))
		return 1;
	if (!numlike(f.s, f.len))
		return 0;
	return sep != ',' || !memchr(f.s, ',', f.len);
}

/*
 * The row is [stamp|summary,][aggr-id,[cpus,]]value,unit,event[,variance%]
 * ,run-time,percent,metric-value,metric-unit.  The event is the first
 * field after a value and a (possibly empty) unit; what comes before the
 * value must be one of the known prefixes.
 */
static int csv_shape_of(const struct csv_row *r, char sep, struct csv_shape *sh)
{
	size_t e, k;

	for (e = 2; e < r->nf && e <= 5; e++) {
		if (!eventlike(r->f[e].s, r->f[e].len) || aggrlike(r->f[e].s, r->f[e].len))
			continue;
		if (r->f[e - 1].len && !unitlike(r->f[e - 1].s, r->f[e - 1].len))
			continue;
		if (!csv_value_field(r->f[e - 2], sep))
			continue;
		sh->ts = sh->summary = sh->aggr = sh->nr = -1;
		for (k = 0; k < e - 2; k++) {
			struct span f = r->f[k];
			if (k == 0 && span_is(f, "summary"))
				sh->summary = 0;
			else if (k == 0 && stamplike(f.s, f.len))
				sh->ts = 0;
			else if (sh->aggr < 0 && aggrlike(f.s, f.len))
				sh->aggr = (int)k;
			else if (sh->aggr >= 0 && sh->nr < 0 && k == (size_t)sh->aggr + 1 &&
				 f.len && strspn(f.s, "0123456789") == f.len)
				sh->nr = (int)k;
			else
				break;
		}
		if (k < e - 2)
			continue;
		sh->v = e - 2;
		sh->u = e - 1;
		sh->e = sh->e_last = e;
		/* "-x:" cuts tracepoints ("migrate:mm_migrate_pages") in two. */
		if (sep == ':')
			while (sh->e_last + 1 < r->nf && eventlike(r->f[sh->e_last + 1].s,
								    r->f[sh->e_last + 1].len))
				sh->e_last++;
		sh->noise = -1;
		if (sh->e_last + 1 < r->nf) {
			struct span f = r->f[sh->e_last + 1];
			if (f.len > 1 && f.s[f.len - 1] == '%' && numlike(f.s, f.len - 1))
				sh->noise = (int)sh->e_last + 1;
		}
		return 0;
	}
	return -1;
}

static const char csv_seps[] = ",;:|!/#@^&*~";

/* The separator that makes l a CSV counter row, or 0. */
static char csv_detect(const struct ingest_line *l)
{
	struct csv_row *row;
	struct csv_shape sh;
	const char *p;
	char found = 0;

	for (p = csv_seps; *p && !found; p++) {
		const char *c = memchr(l->s, *p, l->len);
		if (!c || !memchr(c + 1, *p, l->len - (size_t)(c + 1 - l->s)))
			continue;
		row = xmalloc(sizeof(*row));
		if (csv_split(l, *p, row) == 0 && csv_shape_of(row, *p, &sh) == 0)
			found = *p;
		free(row);
	}
	return found;
}

/* Line classification (claim and parse share it) ------------------------ */

static struct rx rx_header = RX("^\\s*Performance counter stats for (.+?)(?:\\s+\\((\\d+) runs\\))?\\s*:\\s*$");
static struct rx rx_elapsed = RX("^\\s*([-+0-9.,]+)(?:\\s*\\+-\\s*([0-9.,]+))?\\s+seconds time elapsed"
				 "(?:\\s*\\(\\s*\\+-\\s*([0-9.,]+)\\s*%\\s*\\))?\\s*$");
static struct rx rx_usersys = RX("^\\s*([-+0-9.,]+)(?:\\s*\\+-\\s*([0-9.,]+))?\\s+seconds (user|sys)"
				 "(?:\\s*\\(\\s*\\+-\\s*([0-9.,]+)\\s*%\\s*\\))?\\s*$");
static struct rx rx_seconds = RX("seconds (?:time elapsed|user|sys)\\s*$");
/* "perf stat -r 5 ./numa01", behind a shell's prompt ("$ ", "# ",
 * "root@box:~# ", "kepler:~> ") and a wrapper that sets where or how it
 * runs ("taskset -c 2 perf stat ..."). */
static struct rx rx_cmdline = RX("^\\s*(?:\\S*[$#>%]\\s+)?"
				 "(?:(?:sudo|taskset|numactl|chrt|nice|ionice|env|cgexec|stdbuf)"
				 "(?:\\s+(?!(?:\\S*/)?perf\\s)\\S+)*?\\s+)?"
				 "(?:\\S*/)?perf\\s+stat\\s+(.*)$");
static struct rx rx_version = RX("^\\s*perf version \\S+\\s*$");

int perfstat_cmdline_line(const struct ingest_line *l)
{
	return l->len < 1000 && str_find(l->s, l->len, "perf") && str_find(l->s, l->len, "stat") &&
	       rx_is(&rx_cmdline, l->s, l->len);
}
static struct rx rx_ivheader = RX("^\\s*#\\s+time\\s.*\\bcounts\\b.*\\bevents\\s*$");
static struct rx rx_notes = RX("^\\s*(?:Some events weren't counted|echo 0 > /proc/sys/kernel/nmi_watchdog"
			       "|perf stat\\s*$|# started on |#\\s)");
static struct rx rx_noise = RX("\\(\\s*\\+-\\s*([0-9.,]+)\\s*%\\s*\\)");
/* The end of a counter line, wrapped onto a line of its own (format=flowed,
 * a mail client's line length): the metric's last words and the noise. */
static struct rx rx_wraptail = RX("^\\s*(?:[A-Za-z%][^#()\\[\\]+]*+)?\\(\\s*\\+-\\s*([0-9.,]+)\\s*%\\s*\\)\\s*$");
/* Two or more runs' counts side by side after the event, each with its noise. */
static struct rx rx_columns = RX("^\\s*[A-Za-z_][A-Za-z0-9_:/=.,@+{}\\-]*+(?:\\s++[0-9][0-9.,]*+\\s*+\\(\\s*\\+-\\s*[0-9.,]+\\s*%\\s*\\)){2,}+\\s*$");
static struct rx rx_perfmark = RX("\\[\\s*[0-9.,]+%\\s*\\]|\\(\\s*\\+-|\\s#\\s+[0-9]");

/*
 * A human (or blank-separated) counter line:
 *   [stamp] [aggr-id [cpus]] value|<not counted> [unit] event [rest]
 * Fills it (strings in a) unless it is NULL.  Returns 2 when the line is
 * one with a timestamp, 1 without, 0 when it is not one.  *rest (may be
 * NULL) gets the text after the event.
 */
static int human_counter(const struct ingest_line *l, struct arena *a, struct item *it,
			 const char **rest)
{
	struct ingest_tok t[PS_MAXTOK];
	size_t n = ingest_split(l->s, l->len, t, PS_MAXTOK), i = 0, nt;
	int has_ts = 0, missing = 0;
	struct span ts = { NULL, 0 }, ag = { NULL, 0 }, val = { NULL, 0 }, unit = { "", 0 }, ev;

	nt = n < PS_MAXTOK ? n : PS_MAXTOK;
	if (nt < 2)
		return 0;
	if (stamplike(t[0].s, t[0].len) &&
	    (numlike(t[1].s, t[1].len) || aggrlike(t[1].s, t[1].len) || ingest_tok_is(&t[1], "<not"))) {
		ts.s = t[0].s, ts.len = t[0].len;
		has_ts = 1;
		i = 1;
	}
	if (i < nt && aggrlike(t[i].s, t[i].len)) {
		ag.s = t[i].s, ag.len = t[i].len;
		i++;
		if (ag.s[0] != 'C' && i + 1 < nt && strspn(t[i].s, "0123456789") == t[i].len &&
		    (numlike(t[i + 1].s, t[i + 1].len) || ingest_tok_is(&t[i + 1], "<not")))
			i++;
	}
	if (i + 1 < nt && ingest_tok_is(&t[i], "<not") &&
	    (ingest_tok_is(&t[i + 1], "supported>") || ingest_tok_is(&t[i + 1], "counted>"))) {
		missing = 1;
		i += 2;
	} else if (i < nt && numlike(t[i].s, t[i].len)) {
		int more = digits_only(&t[i], 1, 3);
		val.s = t[i].s, val.len = t[i].len;
		/* "15 065": a locale grouping with a plain space splits the
		 * value into tokens of three digits (the last with decimals). */
		for (i++; more && i + 1 < nt && space_group(&t[i]); i++) {
			more = t[i].len == 3;
			val.len = (size_t)(t[i].s + t[i].len - val.s);
		}
	} else {
		return 0;
	}
	if (i >= nt)
		return 0;
	if (i + 1 < nt && unitlike(t[i].s, t[i].len) && eventlike(t[i + 1].s, t[i + 1].len) &&
	    !numlike(t[i + 1].s, t[i + 1].len)) {
		unit.s = t[i].s, unit.len = t[i].len;
		i++;
	}
	ev.s = t[i].s, ev.len = t[i].len;
	{
		/* "node-load-misses(70.1%)": perf's share of the time the event
		 * ran, glued to the name by the one who pasted it */
		const char *o = memchr(ev.s, '(', ev.len);
		if (o && o > ev.s && ev.s[ev.len - 1] == ')' && ev.s[ev.len - 2] == '%' &&
		    strspn(o + 1, "0123456789.,") == (size_t)(ev.s + ev.len - 2 - (o + 1)) &&
		    o + 1 < ev.s + ev.len - 2)
			ev.len = (size_t)(o - ev.s);
	}
	if (!eventlike(ev.s, ev.len))
		return 0;
	i++;
	/* Old perf: "task-clock (msec)". */
	if (i < nt && ingest_tok_is(&t[i], "(msec)") && !unit.len) {
		unit.s = "msec", unit.len = 4;
		i++;
	}
	/* After the event only perf's own columns may follow: "#" metrics,
	 * "(66.59%)", "[100.00%]", "( +- 0.38% )", or (blank-separated
	 * CSV) run-time and percent numbers. */
	if (i < nt && t[i].s[0] != '#' && t[i].s[0] != '(' && t[i].s[0] != '[' &&
	    !numlike(t[i].s, t[i].len))
		return 0;
	if (rest)
		*rest = i < nt ? t[i].s : l->s + l->len;
	if (!it)
		return has_ts ? 2 : 1;
	memset(it, 0, sizeof(*it));
	it->kind = IT_COUNTER;
	it->lineno = l->lineno;
	it->grouped = 1;
	it->missing = missing;
	it->val.s = val.s;
	it->val.len = val.len;
	if (has_ts) {
		it->has_ts = 1;
		num_parse(ts.s, ts.len, &it->ts);
	}
	if (ag.len)
		aggr_config(a, ag.s, ag.len, &it->aggr_key, &it->aggr_val);
	it->unit = arena_strndup(a, unit.s, unit.len);
	it->event = arena_strndup(a, ev.s, ev.len);
	return has_ts ? 2 : 1;
}

/* First non-blank character of l, or 0. */
static char first_char(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	return p < l->s + l->len ? *p : 0;
}

static int wraptail(const struct ingest_line *l)
{
	return memchr(l->s, '+', l->len) && rx_is(&rx_wraptail, l->s, l->len);
}

static enum line_kind classify_line(const struct ingest_line *l, char *sep)
{
	const char *rest;
	char c = first_char(l);

	if (!c)
		return LK_BLANK;
	if (c == '{')
		return str_find(l->s, l->len, "\"counter-value\"") ||
		       str_find(l->s, l->len, "\"metric-value\"") ? LK_JSON : LK_OTHER;
	if (c == 'P' && rx_is(&rx_header, l->s, l->len))
		return LK_HEADER;
	if (c == '#' && rx_is(&rx_ivheader, l->s, l->len))
		return LK_IVHEADER;
	if ((c == 'p' || c == '/' || c == '$' || c == '#' || c == '.' ||
	     str_find(l->s, l->len, "perf")) && rx_is(&rx_cmdline, l->s, l->len))
		return LK_CMDLINE;
	if (c == 'p' && rx_is(&rx_version, l->s, l->len))
		return LK_VERSION;
	if (c == 'R' || c == 'E')
		return (str_find(l->s, l->len, "Running in ") || str_find(l->s, l->len, "Each sender ")) &&
		       hackbench_header_line(l) ? LK_HB : LK_OTHER;
	if (c == 'T')
		return hackbench_time_line(l) ? LK_HBTIME : LK_OTHER;
	if (is_digit(c) || c == '-' || c == '<' || c == 'S' || c == 'N' || c == 'C' || c == 's') {
		if (rx_is(&rx_elapsed, l->s, l->len))
			return LK_ELAPSED;
		if (rx_is(&rx_usersys, l->s, l->len))
			return LK_USERSYS;
		if (*sep) {
			struct csv_row *row = xmalloc(sizeof(*row));
			struct csv_shape sh;
			int ok = csv_split(l, *sep, row) == 0 && csv_shape_of(row, *sep, &sh) == 0;
			free(row);
			if (ok)
				return LK_CSV;
		} else if ((*sep = csv_detect(l)) != 0) {
			return LK_CSV;
		}
		switch (human_counter(l, NULL, NULL, &rest)) {
		case 2:
			return LK_TSCOUNTER;
		case 1:
			return LK_COUNTER;
		}
		if (!is_digit(c) && wraptail(l))
			return LK_WRAPTAIL;
		if (rx_is(&rx_seconds, l->s, l->len) ||
		    rx_is(&rx_perfmark, l->s, l->len) ||
		    (*sep && is_digit(c) && memchr(l->s, *sep, l->len)))
			return LK_GARBLED;
		return LK_OTHER;
	}
	if (rx_is(&rx_notes, l->s, l->len))
		return LK_NOTE;
	/* perf 6's metric-group lines: "TopdownL1 (cpu_core)  #  20.3 %  tma_..." */
	if (str_find(l->s, l->len, "  #  "))
		return LK_NOTE;
	if (wraptail(l))
		return LK_WRAPTAIL;
	if (memchr(l->s, '+', l->len) && rx_is(&rx_columns, l->s, l->len))
		return LK_COLUMNS;
	return LK_OTHER;
}

/*
 * What an author wrote after perf's numbers: "( + 3 % vs base)",
 * "[+-1.3%]", "(-45%)", "-45% regression", "+3%".  perf's own columns
 * never look so: its brackets hold "( +- 0.38% )", "(66.59%)",
 * "[100.00%]" or "(msec)", and it signs no percentage.  Searched in the
 * line's last ANNOT_SPAN bytes only (annotations are short), up to three
 * of them, last first.  Returns where the line's own text ends (l->len
 * when nothing was written after it).
 */
#define ANNOT_SPAN 96
static struct rx rx_annot = RX("\\s(?:([(\\[])([^()\\[\\]]*)[)\\]]|[-+]\\s?\\d+(?:[.,]\\d+)?\\s?%(?:\\s+[A-Za-z][A-Za-z ]*+)?)\\s*$");
static struct rx rx_perfparen = RX("^\\s*(?:\\+-\\s*)?[0-9.,]+\\s*%\\s*$");

static int has_digit(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_digit(s[i]))
			return 1;
	return 0;
}

static size_t annotation_start(const struct ingest_line *l)
{
	size_t end = l->len, from, k;
	struct rx_cap cap[3];

	for (k = 0; k < 3; k++) {
		from = end > ANNOT_SPAN ? end - ANNOT_SPAN : 0;
		if (!memchr(l->s + from, '%', end - from) && !memchr(l->s + from, ')', end - from) &&
		    !memchr(l->s + from, ']', end - from))
			break;
		if (rx_match(&rx_annot, l->s + from, end - from, cap, 3) <= 0)
			break;
		/* perf's own, or "(msec)"; "+-" only ever in round ones */
		if (cap[1].s && (!has_digit(cap[2].s, cap[2].len) ||
				 (rx_is(&rx_perfparen, cap[2].s, cap[2].len) &&
				  (cap[1].s[0] == '(' || !memchr(cap[2].s, '+', cap[2].len)))))
			break;
		end = (size_t)(cap[0].s - l->s);
	}
	while (end && (l->s[end - 1] == ' ' || l->s[end - 1] == '\t'))
		end--;
	return end;
}

/*
 * The kind of l.  A line that is perf's only once an author's annotation
 * after its numbers is taken off is of that kind; the readers take the
 * annotation off again (see without_annotation).
 */
static enum line_kind classify_own(const struct ingest_line *l, char *sep)
{
	enum line_kind k = classify_line(l, sep), k2;
	struct ingest_line t;

	if (k != LK_OTHER && k != LK_GARBLED)
		return k;
	if (!is_digit(first_char(l)) || (t = *l, t.len = annotation_start(l)) == l->len)
		return k;
	k2 = classify_line(&t, sep);
	return k2 == LK_COUNTER || k2 == LK_TSCOUNTER || k2 == LK_ELAPSED || k2 == LK_USERSYS ?
	       k2 : k;
}

/*
 * A run's name printed before perf's own line: "[ -vanilla ]" (an
 * author's label in brackets, a trailing ':' not part of it) or one word
 * ending in ':' ("6.9.0/none.process.pipe.60:", as grep -H and scripts
 * that compare kernels print it).  A name of digits only ("2:") is a
 * list's number, not a name.  When l is such a line, *name gets the name, *inner
 * the line after it and *kind its kind (a counter, elapsed or user/sys
 * line), and 1 is returned.
 */
static int perf_prefix(const struct ingest_line *l, struct span *name, struct ingest_line *inner,
		       enum line_kind *kind)
{
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len, *q, *ns, *ne;
	char sep = 0;
	size_t i;
	int letters = 0;

	if (p == end)
		return 0;
	if (*p == '[') {
		q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return 0;
		ns = str_skip_ws(p + 1, q);
		ne = q;
		while (ne > ns && (ne[-1] == ' ' || ne[-1] == '\t'))
			ne--;
		if (ne > ns && ne[-1] == ':')
			ne--;
		while (ne > ns && (ne[-1] == ' ' || ne[-1] == '\t'))
			ne--;
		q++;
	} else {
		for (q = p; q < end && *q != ' ' && *q != '\t'; q++)
			;
		if (q - p < 2 || q[-1] != ':' || q[-2] == ':')
			return 0;
		ns = p;
		ne = q - 1;
	}
	if (ne == ns || q == end || (*q != ' ' && *q != '\t'))
		return 0;
	for (i = 0; ns + i < ne; i++)
		letters |= !is_digit(ns[i]);
	inner->s = str_skip_ws(q, end);
	inner->len = (size_t)(end - inner->s);
	inner->lineno = l->lineno;
	if (!letters || !inner->len || (!is_digit(inner->s[0]) && inner->s[0] != '<'))
		return 0;
	*kind = classify_own(inner, &sep);
	if (*kind != LK_COUNTER && *kind != LK_ELAPSED && *kind != LK_USERSYS)
		return 0;
	name->s = ns;
	name->len = (size_t)(ne - ns);
	return 1;
}

static enum line_kind classify(const struct ingest_line *l, char *sep)
{
	enum line_kind k = classify_own(l, sep), ik;
	struct ingest_line inner;
	struct span name;

	if ((k == LK_OTHER || k == LK_GARBLED) && perf_prefix(l, &name, &inner, &ik))
		return LK_PREFIXED;
	return k;
}

/* l without what an author wrote after perf's numbers, noted. */
static struct ingest_line without_annotation(struct block *b, const struct ingest_line *l)
{
	struct ingest_line t = *l;

	t.len = annotation_start(l);
	if (t.len < l->len) {
		const char *a = str_skip_ws(l->s + t.len, l->s + l->len);
		rec_note(b->out, l->lineno, "perf stat: '%.*s' after the numbers is the author's "
			 "annotation, not perf's: dropped", (int)(l->s + l->len - a), a);
	}
	return t;
}

/* Claim ------------------------------------------------------------------ */

/*
 * "# trace-cmd start -e all" typed at a shell's prompt right above
 * "# perf stat -r 10 hackbench 50" (no blank line between): the setup
 * the measured command ran under, which is what tells such runs of one
 * command apart.  *cmd gets the command without its prompt.
 */
static struct rx rx_prompt = RX("^\\s*\\S*[$#>%]\\s+([A-Za-z./]\\S*+(?:\\s++\\S++)*+)\\s*$");

static int setup_prompt(const struct ingest_line *l, const struct ingest_line *next, struct span *cmd)
{
	struct rx_cap cap[2];
	char sep = 0;
	enum line_kind k;

	if (ingest_line_blank(next) || rx_match(&rx_prompt, l->s, l->len, cap, 2) <= 0)
		return 0;
	k = classify(l, &sep);
	if ((k != LK_NOTE && k != LK_OTHER) || classify(next, &sep) != LK_CMDLINE)
		return 0;
	if (cmd) {
		cmd->s = cap[1].s;
		cmd->len = cap[1].len;
	}
	return 1;
}

static size_t next_nonblank(const struct ingest_line *lines, size_t i, size_t n)
{
	return ingest_skip_blank(lines, i, n);
}

static int starts_data(enum line_kind k)
{
	return k == LK_HEADER || k == LK_IVHEADER || k == LK_CSV || k == LK_JSON ||
	       k == LK_TSCOUNTER;
}

/*
 * Perf's result lines without the block around them, from lines[j]: an
 * -r summary reduced to its "X +- Y seconds time elapsed ( +- Z% )" (or
 * "X seconds time elapsed") and the user/sys lines after it, and such
 * lines one after another; or lines that each begin with their run's
 * name ("NAME:  1,234  cs" .. "NAME:  1.23 seconds time elapsed", one
 * name or several), which must hold an elapsed line: perf's counter
 * lines alone are weak evidence.  Returns the end of the stretch, 0 when
 * there is none (*stop: where the scan stopped).
 */
static size_t bare_claim(const struct ingest_line *lines, size_t j, size_t n, char *sep,
			 size_t *stop)
{
	enum line_kind k = classify(&lines[j], sep), ik;
	size_t last = 0;
	int elapsed = 0;
	struct ingest_line inner;
	struct span name;

	if (k == LK_ELAPSED) {
		for (;;) {
			last = j;
			if (j + 1 < n && classify(&lines[j + 1], sep) == LK_WRAPTAIL)
				last = ++j;
			for (j = next_nonblank(lines, j + 1, n);
			     j < n && (k = classify(&lines[j], sep)) == LK_USERSYS;
			     j = next_nonblank(lines, j + 1, n)) {
				last = j;
				if (j + 1 < n && classify(&lines[j + 1], sep) == LK_WRAPTAIL)
					last = ++j;
			}
			if (j >= n || k != LK_ELAPSED)
				break;
		}
		return last + 1;
	}
	for (; j < n; j++) {
		k = classify(&lines[j], sep);
		if (k == LK_BLANK)
			continue;
		if (k == LK_WRAPTAIL && last + 1 == j && last) {
			last = j;
			continue;
		}
		if (k != LK_PREFIXED)
			break;
		perf_prefix(&lines[j], &name, &inner, &ik);
		elapsed |= ik == LK_ELAPSED;
		last = j;
	}
	*stop = j;
	return elapsed ? last + 1 : 0;
}

/*
 * A block runs from the perf command line, "perf version", the header,
 * the "#  time  counts" line or the first CSV/JSON/stamped row, over
 * counter lines and perf's notes, to "seconds time elapsed" (and the
 * user/sys lines after it) or to its last counter line.  Up to
 * PS_MAX_FOREIGN workload lines may sit between two perf lines; the
 * block never ends on one.
 */
/* Is l a counter line naming one of perf's generic events? */
static int generic_counter(const struct ingest_line *l)
{
	struct ingest_tok t[16];
	size_t nt = ingest_split(l->s, l->len, t, 16), i;

	for (i = 1; i < nt && i < 16; i++)
		if (generic_event(t[i].s, memchr(t[i].s, '(', t[i].len)
				  ? (size_t)((const char *)memchr(t[i].s, '(', t[i].len) - t[i].s) : t[i].len))
			return classify_line(l, &(char){ 0 }) == LK_COUNTER;
	return 0;
}

static size_t perfstat_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	char c = first_char(&lines[0]), sep = 0;
	enum line_kind k;
	size_t j, last = 0, foreign = 0;
	int header = 0, data = 0, interval = 0, hb = 0, sc;

	*score = 0;
	if (!c)
		return 0;
	k = classify(&lines[0], &sep);
	if (n > 2 && (k == LK_NOTE || k == LK_OTHER) && setup_prompt(&lines[0], &lines[1], NULL)) {
		last = perfstat_claim(opts, lines + 1, n - 1, score);
		if (!last)
			*score = 0;
		return last ? last + 1 : 0;
	}
	switch (k) {
	case LK_HB:
		/* "perf stat -I 500 hackbench ...": hackbench's header lines
		 * come before perf's first interval; they belong to the block
		 * (and outbid the hackbench parser's claim of them alone). */
		for (j = next_nonblank(lines, 1, n); j < n && j < 8 && classify(&lines[j], &sep) == LK_HB;
		     j = next_nonblank(lines, j + 1, n))
			;
		if (j >= n || j >= 8)
			return 0;
		k = classify(&lines[j], &sep);
		if (k != LK_IVHEADER && k != LK_TSCOUNTER && k != LK_HEADER && k != LK_CSV)
			return 0;
		hb = 1;
		sc = 95;
		break;
	case LK_HEADER:
		header = 1;
		sc = 90;
		break;
	case LK_VERSION:
	case LK_CMDLINE:
		j = next_nonblank(lines, 1, n);
		if (j < n && k == LK_VERSION && classify(&lines[j], &sep) == LK_CMDLINE)
			j = next_nonblank(lines, j + 1, n);
		if (j >= n)
			return 0;
		k = classify(&lines[j], &sep);
		if (k == LK_ELAPSED || k == LK_PREFIXED) {
			/* "# perf stat -r 10 hackbench 50" over its result line */
			last = bare_claim(lines, j, n, &sep, &foreign);
			*score = last ? 90 : 0;
			return last;
		}
		if (!starts_data(k))
			return 0;
		sc = 90;
		break;
	case LK_ELAPSED:
	case LK_PREFIXED:
		last = bare_claim(lines, 0, n, &sep, &foreign);
		*score = last ? 70 : -(int)foreign;
		return last;
	case LK_IVHEADER:
		interval = 1;
		sc = 85;
		break;
	case LK_CSV:
		data = 1;
		sc = 80;
		break;
	case LK_JSON:
		if (!str_find(lines[0].s, lines[0].len, "\"counter-value\""))
			return 0;
		data = 1;
		sc = 85;
		break;
	case LK_COUNTER:
		/* A block pasted without its header: counter lines alone are
		 * weak evidence, so want perf's "seconds time elapsed" after
		 * them.  Over what cannot start a claim,
		 * so on a no, none starts before where the scan stopped. */
		for (j = 1, last = 1; j < n; j++) {
			k = classify(&lines[j], &sep);
			if (k == LK_COUNTER)
				last++;
			else if (k != LK_BLANK && k != LK_WRAPTAIL && k != LK_NOTE)
				break;
		}
		if (j >= n || k != LK_ELAPSED) {
			/* Without it, three counter lines or more of which
			 * at least two name perf's own generic events
			 * ("node-loads", "cycles") are perf's all the same. */
			size_t m, known = 0;
			if (last >= 3)
				for (m = 0; m < j && known < 2; m++)
					known += generic_counter(&lines[m]);
			if (known < 2) {
				*score = -(int)j;
				return 0;
			}
			*score = 65;
			return j;
		}
		last = 0;
		data = 1;
		sc = 70;
		break;
	case LK_TSCOUNTER:
		/* A bare stamped line is weak evidence: want a second one. */
		j = next_nonblank(lines, 1, n);
		if (j >= n || classify(&lines[j], &sep) != LK_TSCOUNTER)
			return 0;
		data = interval = 1;
		sc = 60;
		break;
	default:
		return 0;
	}
	for (j = 1; j < n; j++) {
		k = classify(&lines[j], &sep);
		switch (k) {
		case LK_BLANK:
			continue;
		case LK_HEADER:
			/* perf stat -I --summary closes the intervals with the
			 * whole run's block, header first (naming the command). */
			if (header || (data && !(interval && !foreign)))
				goto done;
			header = 1;
			break;
		case LK_CMDLINE:
		case LK_VERSION:
			if (header || data)
				goto done;
			break;
		case LK_ELAPSED:
			last = j;
			if (j + 1 < n && classify(&lines[j + 1], &sep) == LK_WRAPTAIL)
				last = ++j;
			for (j = next_nonblank(lines, j + 1, n);
			     j < n && classify(&lines[j], &sep) == LK_USERSYS;
			     j = next_nonblank(lines, j + 1, n)) {
				last = j;
				if (j + 1 < n && classify(&lines[j + 1], &sep) == LK_WRAPTAIL)
					last = ++j;
			}
			goto done;
		case LK_NOTE:
			foreign = 0;
			continue;
		case LK_PREFIXED:       /* a run of its own (bare_claim) */
			goto done;
		case LK_HBTIME:
			/* The wrapped hackbench's "Time:" ends its run: when
			 * it comes after perf's last interval (stdout flushed
			 * late), it is still the block's, not a run apart. */
			if (hb && interval && foreign < PS_MAX_FOREIGN) {
				last = j;
				foreign = 0;
				continue;
			}
			/* fall through */
		case LK_OTHER:
		case LK_HB:
			if (++foreign > PS_MAX_FOREIGN)
				goto done;
			continue;
		case LK_IVHEADER:
		case LK_TSCOUNTER:
			data = interval = 1;
			break;
		default:        /* counters, CSV, JSON, user/sys, garbled */
			data = 1;
			break;
		}
		last = j;
		foreign = 0;
	}
done:
	*score = sc;
	return last + 1;
}

/* Parse ------------------------------------------------------------------ */

static struct item *item_push(struct block *b)
{
	struct item *it;

	xgrow(&b->items, &b->items_cap, b->nitems + 1, sizeof(*b->items));
	it = &b->items[b->nitems++];
	memset(it, 0, sizeof(*it));
	return it;
}

static int fail(struct block *b, long line, const char *msg)
{
	return kb_err_set(b->err, b->ctx->path, line, "%s", msg);
}

/* Options of perf stat that take a separate argument. */
static int opt_takes_arg(struct span t)
{
	static const char *const with_arg[] = {
		"-e", "-x", "-I", "-r", "-D", "-o", "-C", "-p", "-t", "-G", "-M", "-u",
		"--event", "--field-separator", "--interval-print", "--repeat", "--delay",
		"--output", "--cpu", "--pid", "--tid", "--cgroup", "--metrics", "--log-fd",
		"--interval-count", "--timeout", "--pre", "--post", "--append", "--for-each-cgroup",
		"--topdown-level", "--td-level", "--iostat", "--control", "--bpf-counters",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(with_arg); i++)
		if (span_is(t, with_arg[i]))
			return 1;
	return 0;
}

/* "perf stat -a -r 5 -x, -e cs -- ./numa01": cmd and -r from the options. */
static void read_cmdline(struct block *b, const struct ingest_line *l)
{
	struct ingest_tok t[PS_MAXTOK];
	size_t n = ingest_split(l->s, l->len, t, PS_MAXTOK), i, cmd_from = 0;
	int system_wide = 0, past_stat = 0;

	if (n > PS_MAXTOK)
		n = PS_MAXTOK;
	for (i = 0; i < n; i++) {
		struct span s = { t[i].s, t[i].len };
		if (!past_stat) {
			past_stat = span_is(s, "stat");
			continue;
		}
		if (span_is(s, "--")) {
			cmd_from = i + 1;
			break;
		}
		if (s.len < 2 || s.s[0] != '-') {
			cmd_from = i;
			break;
		}
		if (span_is(s, "-a") || span_is(s, "--all-cpus"))
			system_wide = 1;
		if (span_is(s, "-r") || span_is(s, "--repeat")) {
			long r;
			if (i + 1 < n && num_parse_long(t[i + 1].s, t[i + 1].len, &r) == 0)
				b->nrepeat = r;
		} else if (s.len > 9 && memcmp(s.s, "--repeat=", 9) == 0) {
			long r;
			if (num_parse_long(s.s + 9, s.len - 9, &r) == 0)
				b->nrepeat = r;
		} else if (s.len > 2 && s.s[1] == 'r' && strspn(s.s + 2, "0123456789") == s.len - 2) {
			long r;
			if (num_parse_long(s.s + 2, s.len - 2, &r) == 0)
				b->nrepeat = r;
		}
		if (opt_takes_arg(s))
			i++;
	}
	if (b->cmd)
		return;
	if (system_wide)
		b->cmd = "system-wide";
	else if (cmd_from && cmd_from < n)
		b->cmd = arena_strndup(&b->out->arena, t[cmd_from].s,
				       (size_t)(t[n - 1].s + t[n - 1].len - t[cmd_from].s));
}

static void read_header(struct block *b, const struct ingest_line *l)
{
	struct rx_cap cap[3];
	const char *s;
	size_t len;

	rx_match(&rx_header, l->s, l->len, cap, 3);
	s = cap[1].s;
	len = cap[1].len;
	if (len >= 2 && s[0] == '\'' && s[len - 1] == '\'')
		s++, len -= 2;
	if (len == 11 && memcmp(s, "system wide", 11) == 0)
		b->cmd = "system-wide";
	else
		b->cmd = arena_strndup(&b->out->arena, s, len);
	if (cap[2].s)
		num_parse_long(cap[2].s, cap[2].len, &b->nrepeat);
	b->has_header = 1;
}

/* Numbers in perf's own columns after the event ("[100.00%]", "# 0.979
 * CPUs utilized", "( +- 0.38% )") are printed with %f: never grouped, so
 * each one shows the decimal mark. */
static void note_rest(struct block *b, const char *rest, const struct ingest_line *l)
{
	struct ingest_tok t[PS_MAXTOK];
	size_t n = ingest_split(rest, (size_t)(l->s + l->len - rest), t, PS_MAXTOK), i;

	if (n > PS_MAXTOK)
		n = PS_MAXTOK;
	for (i = 0; i < n; i++) {
		struct span s = { t[i].s, t[i].len };
		while (s.len && (s.s[0] == '[' || s.s[0] == '('))
			s.s++, s.len--;
		while (s.len && (s.s[s.len - 1] == ']' || s.s[s.len - 1] == ')' ||
				 s.s[s.len - 1] == '%'))
			s.len--;
		if (numlike(s.s, s.len))
			note_number(b, s, 0, 0, l->lineno, 0);
	}
}

static int read_human(struct block *b, const struct ingest_line *l)
{
	struct item *it = item_push(b);
	struct rx_cap cap[2];
	const char *rest = NULL;

	human_counter(l, &b->out->arena, it, &rest);
	if (!it->missing)
		note_number(b, it->val, 1, !it->unit[0], l->lineno, 1);
	if (rest && rx_match(&rx_noise, rest, (size_t)(l->s + l->len - rest), cap, 2) > 0) {
		it->noise.s = cap[1].s;
		it->noise.len = cap[1].len;
	}
	if (rest)
		note_rest(b, rest, l);
	return 0;
}

static int read_csv(struct block *b, const struct ingest_line *l)
{
	struct csv_row *row = xmalloc(sizeof(*row));
	struct csv_shape sh;
	struct item *it;
	struct arena *a = &b->out->arena;
	size_t k;

	if (csv_split(l, b->sep, row) < 0 || csv_shape_of(row, b->sep, &sh) < 0) {
		free(row);
		return fail(b, l->lineno, "unreadable perf stat CSV line");
	}
	/* With ',' separating the fields, a decimal comma cannot be. */
	if (b->sep == ',' && !b->point_line)
		b->point_line = l->lineno;
	it = item_push(b);
	it->kind = IT_COUNTER;
	it->lineno = l->lineno;
	if (sh.ts >= 0) {
		it->has_ts = 1;
		num_parse(row->f[sh.ts].s, row->f[sh.ts].len, &it->ts);
	}
	it->summary = sh.summary >= 0;
	if (sh.aggr >= 0)
		aggr_config(a, row->f[sh.aggr].s, row->f[sh.aggr].len, &it->aggr_key, &it->aggr_val);
	if (row->f[sh.v].s[0] == '<') {
		it->missing = 1;
	} else {
		/* The row buffer dies here: keep the number text in the arena. */
		it->val.s = arena_strndup(a, row->f[sh.v].s, row->f[sh.v].len);
		it->val.len = row->f[sh.v].len;
		note_number(b, it->val, 0, 0, l->lineno, 1);
	}
	it->unit = arena_strndup(a, row->f[sh.u].s, row->f[sh.u].len);
	it->event = arena_strndup(a, row->f[sh.e].s, row->f[sh.e].len);
	for (k = sh.e + 1; k <= sh.e_last; k++)
		it->event = arena_printf(a, "%s%c%s", it->event, b->sep, row->f[k].s);
	if (sh.noise >= 0) {
		it->noise.s = arena_strndup(a, row->f[sh.noise].s, row->f[sh.noise].len - 1);
		it->noise.len = row->f[sh.noise].len - 1;
		note_number(b, it->noise, 0, 0, l->lineno, 0);
	}
	free(row);
	return 0;
}

static const char *json_str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int read_json(struct block *b, const struct ingest_line *l)
{
	static const char *const aggr_keys[] = { "node", "socket", "die", "core", "cpu", "thread" };
	struct arena *a = &b->out->arena;
	json_error_t je;
	json_t *o, *cv, *v;
	struct item *it;
	const char *ev;
	size_t k;

	o = json_loadb(l->s, l->len, 0, &je);
	if (!o || !json_is_object(o)) {
		json_decref(o);
		return kb_err_set(b->err, b->ctx->path, l->lineno,
				  "unreadable perf stat JSON line: %s", je.text);
	}
	cv = json_object_get(o, "counter-value");
	ev = json_str(o, "event");
	if (!cv || !ev) {               /* a metric-only line */
		json_decref(o);
		return 0;
	}
	it = item_push(b);
	it->kind = IT_COUNTER;
	it->lineno = l->lineno;
	it->event = arena_strdup(a, ev);
	it->unit = arena_strdup(a, json_str(o, "unit") ? json_str(o, "unit") : "");
	if (json_is_number(cv)) {
		it->val_ready = 1;
		it->value = json_number_value(cv);
	} else if (json_is_string(cv) && str_starts(json_string_value(cv), "<not ")) {
		it->missing = 1;
	} else if (json_is_string(cv)) {
		it->val.s = arena_strdup(a, json_string_value(cv));
		it->val.len = strlen(it->val.s);
		note_number(b, it->val, 0, 0, l->lineno, 1);
	} else {
		json_decref(o);
		return fail(b, l->lineno, "perf stat JSON: counter-value is neither string nor number");
	}
	v = json_object_get(o, "interval");
	if (json_is_number(v)) {
		it->has_ts = 1;
		it->ts = json_number_value(v);
	}
	for (k = 0; k < ARRAY_SIZE(aggr_keys); k++) {
		const char *s = json_str(o, aggr_keys[k]);
		json_t *num = json_object_get(o, aggr_keys[k]);
		if (s && aggrlike(s, strlen(s))) {
			aggr_config(a, s, strlen(s), &it->aggr_key, &it->aggr_val);
		} else if (s) {
			it->aggr_key = aggr_keys[k];
			it->aggr_val = arena_strdup(a, s);
		} else if (json_is_integer(num)) {
			it->aggr_key = aggr_keys[k];
			it->aggr_val = arena_printf(a, "%lld", (long long)json_integer_value(num));
		}
	}
	v = json_object_get(o, "variance");
	if (json_is_number(v)) {
		it->noise_ready = 1;
		it->noise_pct = json_number_value(v);
	}
	json_decref(o);
	return 0;
}

static int read_seconds(struct block *b, const struct ingest_line *l, enum line_kind k)
{
	struct rx_cap cap[5];
	struct item *it = item_push(b);
	int noise_at = k == LK_ELAPSED ? 3 : 4;

	rx_match(k == LK_ELAPSED ? &rx_elapsed : &rx_usersys, l->s, l->len, cap, 5);
	it->lineno = l->lineno;
	if (k == LK_ELAPSED) {
		it->kind = IT_ELAPSED;
		it->event = "elapsed";
		b->has_elapsed = 1;
	} else {
		it->kind = cap[3].s[0] == 'u' ? IT_USER : IT_SYS;
		it->event = it->kind == IT_USER ? "user" : "sys";
	}
	it->unit = "s";
	/* Seconds are printed with %f: never grouped. */
	it->val.s = cap[1].s;
	it->val.len = cap[1].len;
	note_number(b, it->val, 0, 0, l->lineno, 1);
	if (cap[2].s) {
		it->sem.s = cap[2].s;
		it->sem.len = cap[2].len;
		note_number(b, it->sem, 0, 0, l->lineno, 0);
	}
	if (cap[noise_at].s) {
		it->noise.s = cap[noise_at].s;
		it->noise.len = cap[noise_at].len;
		note_number(b, it->noise, 0, 0, l->lineno, 0);
	}
	return 0;
}

/*
 * A line that may end the perf line before it: perf's own continuation
 * of the metrics ("#  1.39  stalled cycles per insn  ( +- 0.00% )"), or
 * the tail a mail client wrapped ("M/sec   ( +- 1.62% )").  The noise on
 * it is the last item's when that item came from the lines just before
 * and has none yet.  *cont is that item's index + 1 (0: none).
 */
static void read_continuation(struct block *b, const struct ingest_line *l, enum line_kind k,
			      size_t *cont)
{
	struct rx_cap cap[2];
	struct item *it;

	if (k == LK_NOTE && first_char(l) != '#') {
		*cont = 0;
		return;
	}
	if (k == LK_WRAPTAIL)
		rx_match(&rx_wraptail, l->s, l->len, cap, 2);
	else if (rx_match(&rx_noise, l->s, l->len, cap, 2) <= 0)
		return;         /* "#  0.65  insn per cycle": more may follow */
	if (!*cont || b->items[*cont - 1].noise.len || b->items[*cont - 1].sem.len) {
		rec_note(b->out, l->lineno, "perf stat: '( +- %.*s%% )' follows no counter "
			 "without one: left out", (int)cap[1].len, cap[1].s);
		*cont = 0;
		return;
	}
	it = &b->items[*cont - 1];
	it->noise.s = cap[1].s;
	it->noise.len = cap[1].len;
	note_number(b, it->noise, 0, 0, l->lineno, 0);
	if (k == LK_WRAPTAIL)
		rec_note(b->out, l->lineno, "perf stat: the '( +- )' of line %ld, wrapped onto "
			 "this line", it->lineno);
	*cont = 0;
}

/*
 * Which run the item just read belongs to.  A run ends with its elapsed
 * line (and the user/sys lines after it), and where the name printed
 * before the lines changes: so several results one after another (a
 * bare stretch, see bare_claim) are several runs.  A block with its
 * header has one name (none) and one elapsed line, so one group.
 */
static void item_group(struct block *b, struct item *it, struct span pfx)
{
	int same = pfx.len ? b->prefix && strlen(b->prefix) == pfx.len &&
			     memcmp(b->prefix, pfx.s, pfx.len) == 0 : !b->prefix;

	if (!same)
		b->prefix = pfx.len ? arena_strndup(&b->out->arena, pfx.s, pfx.len) : NULL;
	if (b->nitems > 1 && (!same || (b->group_ended && it->kind != IT_USER &&
					it->kind != IT_SYS)))
		b->rgroup++;
	if (it->kind == IT_ELAPSED)
		b->group_ended = 1;
	else if (it->kind != IT_USER && it->kind != IT_SYS)
		b->group_ended = 0;
	it->prefix = b->prefix;
	it->group = b->rgroup;
}

static int block_read(struct block *b, const struct ingest_line *lines, size_t n)
{
	size_t i, cont = 0;

	for (i = 0; i < n; i++) {
		const struct ingest_line *l = &lines[i];
		enum line_kind k = classify(l, &b->sep);
		size_t before = b->nitems;
		struct ingest_line own, inner;
		struct span pfx = { NULL, 0 };
		int rc = 0;

		if (k == LK_PREFIXED) {
			perf_prefix(l, &pfx, &inner, &k);
			l = &inner;
		}
		if (k == LK_NOTE || k == LK_WRAPTAIL) {
			read_continuation(b, l, k, &cont);
			continue;
		}

		switch (k) {
		case LK_HEADER:
			read_header(b, l);
			break;
		case LK_CMDLINE:
			read_cmdline(b, l);
			break;
		case LK_IVHEADER:
			b->has_interval = 1;
			break;
		case LK_COUNTER:
		case LK_TSCOUNTER:
			own = without_annotation(b, l);
			rc = read_human(b, &own);
			break;
		case LK_CSV:
			rc = read_csv(b, l);
			break;
		case LK_JSON:
			rc = read_json(b, l);
			break;
		case LK_ELAPSED:
		case LK_USERSYS:
			own = without_annotation(b, l);
			rc = read_seconds(b, &own, k);
			break;
		case LK_HB:
		case LK_HBTIME:
		case LK_OTHER:
			xgrow(&b->foreign, &b->foreign_cap, b->nforeign + 1, sizeof(*b->foreign));
			b->foreign[b->nforeign++] = *l;
			break;
		case LK_COLUMNS:
			/* Whose run each column is, the block does not say:
			 * column heads above may (columns_emit). */
			b->columns_line = l->lineno;
			xgrow(&b->cols, &b->cols_cap, b->ncols + 1, sizeof(*b->cols));
			b->cols[b->ncols++] = *l;
			break;
		case LK_GARBLED:
			return kb_err_set(b->err, b->ctx->path, l->lineno,
					  "unreadable perf stat line: '%.*s'",
					  (int)(l->len > 80 ? 80 : l->len), l->s);
		default:        /* blank, version */
			break;
		}
		if (rc < 0)
			return -1;
		if (b->nitems == before + 1)
			item_group(b, &b->items[before], pfx);
		/* A human counter or seconds line may go on on the next. */
		cont = (k == LK_COUNTER || k == LK_ELAPSED || k == LK_USERSYS) &&
		       b->nitems == before + 1 ? b->nitems : 0;
	}
	return 0;
}

/*
 * Decide the decimal mark of the block from everything its lines show:
 * numbers that can only be read one way (seconds and perf's %f columns,
 * "1,130.84", "948,89"), the thousands separator of counts (a count
 * without a unit is printed "%.0f", so "9,931 context-switches" groups
 * with ','), and a ',' CSV separator.  Refuses contradicting evidence,
 * and a number that reads two ways when nothing decides.
 */
static int block_decimal(struct block *b, char *dec)
{
	long point = b->point_line, comma = b->comma_line;
	const char *why_point = "a decimal point", *why_comma = "a decimal comma";

	if (b->group2_line)
		return kb_err_set(b->err, b->ctx->path, b->group2_line,
				  "inconsistent number format: line %ld groups thousands with %s, "
				  "line %ld with %s", b->group_line, sep_name(b->group),
				  b->group2_line, sep_name(b->group2));
	/* A ',' group means a '.' decimal and the other way round. */
	if (b->group == ',' && (!point || b->group_line < point)) {
		point = b->group_line;
		why_point = "',' separating thousands";
	} else if (b->group == '.' && (!comma || b->group_line < comma)) {
		comma = b->group_line;
		why_comma = "'.' separating thousands";
	}
	if (point && comma)
		return kb_err_set(b->err, b->ctx->path, point > comma ? point : comma,
				  "inconsistent number format: line %ld has %s, line %ld %s",
				  point, why_point, comma, why_comma);
	if (comma) {
		*dec = ',';
		return 0;
	}
	if (!point && b->ambig_line) {
		char mark = strchr(b->ambig_tok, ',') ? ',' : '.';
		char whole[48], frac[48];
		size_t i, o = 0;

		for (i = 0; b->ambig_tok[i]; i++) {
			if (b->ambig_tok[i] != mark)
				whole[o++] = b->ambig_tok[i];
			frac[i] = b->ambig_tok[i] == mark ? '.' : b->ambig_tok[i];
		}
		whole[o] = '\0';
		frac[i] = '\0';
		return kb_err_set(b->err, b->ctx->path, b->ambig_line,
				  "ambiguous number format: '%s' reads as %s ('%c' separating "
				  "thousands) or as %s ('%c' the decimal mark), and nothing else "
				  "in the block tells which", b->ambig_tok, whole, mark, frac, mark);
	}
	*dec = '.';
	return 0;
}

static int stamp_index(struct block *b, double ts)
{
	size_t i;

	for (i = 0; i < b->nstamps; i++)
		if (b->stamps[i] == ts)
			return (int)i + 1;
	xgrow(&b->stamps, &b->stamps_cap, b->nstamps + 1, sizeof(*b->stamps));
	b->stamps[b->nstamps++] = ts;
	return (int)b->nstamps;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The i-th '/'-separated part of name (i < parts). */
static struct span name_part(const char *name, size_t i)
{
	struct span p = { name, 0 };
	const char *e;

	while (i-- > 0)
		p.s = strchr(p.s, '/') + 1;
	e = strchr(p.s, '/');
	p.len = e ? (size_t)(e - p.s) : strlen(p.s);
	return p;
}

static size_t name_parts(const char *name)
{
	size_t k = 1;

	for (; *name; name++)
		k += *name == '/';
	return k;
}

#define PS_MAX_PARTS 16

/*
 * The names printed before a bare stretch's runs: split at '/' when they
 * all have the same number of parts and share some of them but not all
 * ("6.9.0/none.process.pipe.60", "6.9.0-rc1/none.process.pipe.60"):
 * the parts that differ name what is compared, the variant; those they
 * share name what ran, the test.  Otherwise each name is the variant
 * as printed.  One pass over the items.
 */
static void prefix_split(struct block *b)
{
	const char *first = NULL, *prev = NULL;
	size_t i, k;

	b->pfx_parts = 0;
	for (i = 0; i < b->nitems; i++) {
		const char *nm = b->items[i].prefix;
		if (!nm || nm == prev)
			continue;
		prev = nm;
		if (!first) {
			first = nm;
			b->pfx_parts = name_parts(nm);
			if (b->pfx_parts < 2 || b->pfx_parts > PS_MAX_PARTS) {
				b->pfx_parts = 0;
				return;
			}
			b->pfx_shared = (1u << b->pfx_parts) - 1;
			continue;
		}
		if (name_parts(nm) != b->pfx_parts) {
			b->pfx_parts = 0;
			return;
		}
		for (k = 0; k < b->pfx_parts; k++) {
			struct span x = name_part(first, k), y = name_part(nm, k);
			if (x.len != y.len || memcmp(x.s, y.s, x.len) != 0)
				b->pfx_shared &= ~(1u << k);
		}
	}
	if (b->pfx_shared == 0 || b->pfx_shared == (1u << b->pfx_parts) - 1)
		b->pfx_parts = 0;
}

/* The variant (and test) of a run from the name printed before its lines. */
static void name_run(struct block *b, struct rec_run *r, const struct item *it)
{
	struct arena *a = &b->out->arena;
	const char *variant = it->prefix, *test = NULL;
	size_t k;

	if (b->pfx_parts) {
		variant = test = "";
		for (k = 0; k < b->pfx_parts; k++) {
			struct span p = name_part(it->prefix, k);
			const char **to = b->pfx_shared & (1u << k) ? &test : &variant;
			*to = arena_printf(a, "%s%s%.*s", *to, **to ? "/" : "", (int)p.len, p.s);
		}
		rec_run_config(b->out, r, "test", test);
	}
	rec_run_variant(b->out, r, variant, NULL, REC_ORIGIN_CONTENT);
	if (test)
		rec_note(b->out, it->lineno, "perf stat: '%s' before the numbers names the run: "
			 "variant '%s' (the part the names differ in), test '%s' (the part they "
			 "share)", it->prefix, variant, test);
	else
		rec_note(b->out, it->lineno, "perf stat: '%s' before the numbers names the run: "
			 "its variant", it->prefix);
}

/*
 * The run for one (aggregation id, summary) of the block.  The intervals
 * of -I are a time series within one execution, not executions: they
 * are the run's samples numbered by interval (job = the interval's index,
 * 1, 2, ...; *job is set to it, 0 without -I), each interval with its
 * 'time' stamp, so a compare counts the execution once and its intervals
 * as measurements within it, as numa_test's jobs are.
 */
static struct rec_run *block_run(struct block *b, const struct item *it, int use_aggr, int *job)
{
	int iter = it->has_ts ? stamp_index(b, it->ts) : 0;
	const char *ak = use_aggr ? it->aggr_key : NULL, *av = use_aggr ? it->aggr_val : NULL;
	struct runkey *k = NULL;
	struct rec_run *r;
	size_t i;

	*job = iter;
	/* the runs of one group are the last made (groups only grow) */
	for (i = b->nruns; i-- > 0 && b->runs[i].group == it->group;)
		if (same(b->runs[i].ak, ak) && same(b->runs[i].av, av) &&
		    b->runs[i].summary == it->summary) {
			k = &b->runs[i];
			break;
		}
	if (!k) {
		r = rec_run_new(b->out, "perf-stat", it->lineno);
		if (b->cmd)
			rec_run_config(b->out, r, "cmd", b->cmd);
		if (b->setup)
			rec_run_config(b->out, r, "label", b->setup);
		if (it->prefix)
			name_run(b, r, it);
		if (ak)
			rec_run_config(b->out, r, ak, av);
		if (it->summary)
			rec_run_config(b->out, r, "summary", "yes");
		xgrow(&b->runs, &b->runs_cap, b->nruns + 1, sizeof(*b->runs));
		k = &b->runs[b->nruns++];
		k->group = it->group;
		k->iter = 0;
		k->ak = ak;
		k->av = av;
		k->summary = it->summary;
		k->run = r;
	}
	if (iter && k->iter != iter) {  /* end of the interval, seconds since the start */
		rec_sample_add(b->out, k->run, "time", it->ts, "s", iter);
		k->iter = iter;
	}
	return k->run;
}

/*
 * -r N prints the relative standard error of the mean in percent:
 * perf's stddev_stats() is sqrt(variance / n), printed as 100 * that /
 * mean.  So the standard deviation of the N runs is
 *     sd = rse / 100 * mean * sqrt(N)
 * and for elapsed, which prints the absolute SEM, sd = sem * sqrt(N).
 * Without N (CSV and JSON do not print it) the sd stays unknown.
 */
static void add_summary(struct block *b, struct rec_run *r, const struct item *it,
			double mean, double sem)
{
	struct rec_summary *s = rec_summary_add(b->out, r->variant, "perf-stat", it->event, it->unit,
						it->lineno);
	size_t i;

	for (i = 0; i < r->nconfig; i++)
		rec_summary_config(b->out, s, r->config[i].key, r->config[i].value);
	s->mean = mean;
	if (b->nrepeat > 0) {
		s->n = b->nrepeat;
		s->sd = sem * sqrt((double)b->nrepeat);
	}
}

/*
 * One block is printed in one locale, so its counts group digits one
 * way: in threes, or the Indian way ("12,27,462").  A block that shows
 * both was pasted together from two places or edited by hand; which
 * reading is meant cannot be told, so it is refused.
 */
static int block_grouping(struct block *b, const struct item *it, char style)
{
	if (!style)
		return 0;
	if (!b->style) {
		b->style = style;
		b->style_line = it->lineno;
		if (style == 'i')
			rec_note(b->out, it->lineno, "perf stat: counts grouped the Indian way "
				 "('%.*s': threes last, twos before), read as such", (int)it->val.len,
				 it->val.s);
		return 0;
	}
	if (style == b->style)
		return 0;
	return kb_err_set(b->err, b->ctx->path, it->lineno,
			  "inconsistent digit grouping: line %ld groups digits %s, line %ld %s",
			  b->style_line, b->style == 'w' ? "in threes" : "the Indian way (12,34,567)",
			  it->lineno, style == 'w' ? "in threes" : "the Indian way (12,34,567)");
}

/*
 * perf stat -r N prints the mean of its N runs for every line of the
 * block ("(10 runs)" in the header, "( +- 0.38% )" after the counts),
 * never one run's numbers: such a block's numbers are summaries only.
 * Stored as a sample too, a mean would count as one run beside its own
 * summary (and hide the summary's n and sd from compare).  Intervals
 * (-I) are never means (perf refuses -I with -r).
 */
static int block_means(const struct block *b)
{
	size_t i;

	if (b->has_interval)
		return 0;
	for (i = 0; i < b->nitems; i++)
		if (b->items[i].has_ts)
			return 0;
	if (b->nrepeat > 1)
		return 1;
	for (i = 0; i < b->nitems; i++)
		if (b->items[i].sem.len || b->items[i].noise.len || b->items[i].noise_ready)
			return 1;
	return 0;
}

static int block_emit(struct block *b, char dec)
{
	int means = block_means(b);
	size_t i;

	for (i = 0; i < b->nitems; i++) {
		const struct item *it = &b->items[i];
		struct rec_run *r;
		double v, pct, sem;
		char style = 0;
		int job;

		r = block_run(b, it, it->kind == IT_COUNTER, &job);
		if (it->missing)
			continue;       /* missing, never 0 */
		if (it->val_ready)
			v = it->value;
		else if (numtok_value(it->val.s, it->val.len, dec, it->grouped, &v, &style) < 0)
			return kb_err_set(b->err, b->ctx->path, it->lineno,
					  "bad number '%.*s' in perf stat output", (int)it->val.len,
					  it->val.s);
		if (!it->val_ready && block_grouping(b, it, style) < 0)
			return -1;
		if (!means)
			rec_sample_add(b->out, r, it->event, v, it->unit, job);
		if (it->sem.len) {
			if (numtok_value(it->sem.s, it->sem.len, dec, 0, &sem, NULL) < 0)
				return fail(b, it->lineno, "bad '+-' value in perf stat output");
			add_summary(b, r, it, v, sem);
		} else if (it->noise.len || it->noise_ready) {
			if (it->noise_ready)
				pct = it->noise_pct;
			else if (numtok_value(it->noise.s, it->noise.len, dec, 0, &pct, NULL) < 0)
				return fail(b, it->lineno, "bad '( +- N% )' in perf stat output");
			add_summary(b, r, it, v, pct / 100.0 * fabs(v));
		} else if (means) {
			add_summary(b, r, it, v, NAN);  /* a mean whose spread perf did not print */
		}
	}
	/* A means block's runs hold no samples: only its summaries remain.
	 * They are the batch's last runs (made here, in order): one pass,
	 * not a search per run (a post of many bare elapsed lines). */
	if (means && b->nruns && b->out->nruns >= b->nruns) {
		struct rec_run **tail = b->out->runs + (b->out->nruns - b->nruns);
		size_t k = 0;
		for (i = 0; i < b->nruns && tail[i] == b->runs[i].run; i++)
			;
		if (i == b->nruns) {
			for (i = 0; i < b->nruns; i++)
				if (tail[i]->nsamples || tail[i]->failed)
					tail[k++] = tail[i];
			b->out->nruns -= b->nruns - k;
		}
	}
	return 0;
}

/*
 * The workload's own lines between perf's (perf stat -I 500 hackbench
 * ...): read the hackbench among them with the hackbench parser, as if
 * perf's lines were not there, so such a run is the same run it would be
 * without perf (configuration, failures and all).
 */
static int block_workload(struct block *b)
{
	static const struct ingest_opts no_opts;
	const struct ingest_opts *opts = b->ctx->opts ? b->ctx->opts : &no_opts;
	size_t i = 0, len;
	int score;

	while (i < b->nforeign) {
		len = hackbench_parser.claim(opts, b->foreign + i, b->nforeign - i, &score);
		if (len == 0) {
			i++;
			continue;
		}
		if (hackbench_parser.parse(b->ctx, b->foreign + i, len, b->out, b->err) < 0)
			return -1;
		i += len;
	}
	return 0;
}

/*
 * Hand-merged columns, "context-switches    43,373  ( +-  0.40% )   44,597
 * ( +-  0.55% )": one run's counts per column after the event.  Column
 * heads in the prose above ("v5.4      v5.4 + patch", as many as there
 * are columns) name them: each count is a published mean of its
 * column's variant (sd from the '+-' and the header's runs).  Without
 * heads that match, the rows are left out with the reason.
 */
/* A count as people paste it: "43,373" (threes) or "220". */
static int count_parse(const char *s, size_t len, double *v)
{
	char buf[64];
	size_t i, m = 0, run = 0;
	int groups = 0;

	if (!len || len >= sizeof(buf))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] == ',') {
			if (!run || (groups && run != 3) || run > 3)
				return -1;
			groups = 1;
			run = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return -1;
		buf[m++] = s[i];
		run++;
	}
	if (groups && run != 3)
		return -1;
	buf[m] = '\0';
	return num_parse(buf, m, v);
}

static int columns_emit(struct block *b)
{
	struct ingest_tok heads[4];
	size_t nh = b->ctx->column_heads ? ingest_column_heads(b->ctx->column_heads, heads, 4) : 0;
	size_t i, j;

	for (i = 0; i < b->ncols; i++) {
		struct ingest_tok t[16];
		const struct ingest_line *l = &b->cols[i];
		size_t nt = ingest_split(l->s, l->len, t, 16), k, ncol = 0;
		double val[4], pct[4];

		/* event, then per column: value "(" "+-" pct% ")" in some tokens */
		for (k = 1; k < nt && k < 16 && ncol < 4;) {
			const char *q, *e;
			double v, r;
			if (count_parse(t[k].s, t[k].len, &v) < 0)
				break;
			q = t[k].s + t[k].len;
			e = l->s + l->len;
			while (q < e && *q != '+')
				q++;
			q += 2;
			while (q < e && *q == ' ')
				q++;
			if (q >= e || num_scan(&q, e, &r) < 0)
				break;
			val[ncol] = v;
			pct[ncol++] = r;
			while (k < nt && !memchr(t[k].s, ')', t[k].len))
				k++;
			k++;
		}
		if (!nh || ncol != nh) {
			if (i == 0)
				rec_note(b->out, l->lineno, "perf stat: counts of several runs side by side "
					 "after the event; which variant each column is, the block does not "
					 "say%s: left out", nh ? " (the heads above are not as many)" : "");
			return 0;
		}
		for (j = 0; j < ncol; j++) {
			struct rec_summary *s = rec_summary_add(b->out,
				arena_strndup(&b->out->arena, heads[j].s, heads[j].len), "perf-stat",
				arena_strndup(&b->out->arena, t[0].s, t[0].len), "", l->lineno);
			if (b->cmd)
				rec_summary_config(b->out, s, "cmd", b->cmd);
			s->mean = val[j];
			if (b->nrepeat > 0) {
				s->n = b->nrepeat;
				s->sd = pct[j] / 100.0 * val[j] * sqrt((double)b->nrepeat);
			}
		}
		if (i == 0)
			rec_note(b->out, l->lineno, "perf stat: counts of %zu runs side by side, "
				 "named by the column heads at line %ld", ncol, b->ctx->column_heads->lineno);
	}
	return 0;
}

static int perfstat_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			  size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct block b;
	struct span setup;
	char dec = '.';
	size_t i, counters = 0;
	int rc, interval = 0;

	memset(&b, 0, sizeof(b));
	b.ctx = ctx;
	b.out = out;
	b.err = err;
	b.nrepeat = ctx->opts ? ctx->opts->runs : 0;
	if (n > 2 && setup_prompt(&lines[0], &lines[1], &setup)) {
		b.setup = arena_strndup(&out->arena, setup.s, setup.len);
		rec_note(out, lines[0].lineno, "perf stat: '%s', typed right before perf stat, is "
			 "the setup its runs had: config label=%s", b.setup, b.setup);
		lines++, n--;
	}
	rc = block_read(&b, lines, n);
	if (rc == 0 && !b.has_header && !b.cmd && !b.nrepeat && ctx->perf_cmdline) {
		/* "perf stat --null --repeat 10 -- perf bench ..." typed in
		 * the prose above a block pasted without perf's header */
		read_cmdline(&b, ctx->perf_cmdline);
		if (b.cmd || b.nrepeat)
			rec_note(out, lines[0].lineno, "perf stat: the command line at line %ld says "
				 "what ran%s%s%s", ctx->perf_cmdline->lineno, b.cmd ? " ('" : "",
				 b.cmd ? b.cmd : "", b.cmd ? "')" : "");
		if (b.nrepeat)
			rec_note(out, lines[0].lineno, "perf stat: ... and that it ran %ld times "
				 "(-r): n of the block's means", b.nrepeat);
	}
	for (i = 0; i < b.nitems; i++) {
		counters += b.items[i].kind == IT_COUNTER;
		interval |= b.items[i].has_ts;
	}
	/* perf stat -I --summary: the whole run's numbers after the
	 * intervals are its summary, as in the CSV form's "summary" rows. */
	for (i = 0; interval && i < b.nitems; i++)
		if (!b.items[i].has_ts)
			b.items[i].summary = 1;
	if (rc == 0 && !b.has_header && !b.cmd && !b.sep && !interval && !b.has_interval &&
	    (counters || b.has_elapsed) && n)
		rec_note(out, lines[0].lineno, "perf stat: a block without its 'Performance counter "
			 "stats for' header: command and number of runs not known");
	for (i = 0; rc == 0 && !b.has_header && !b.nrepeat && i < b.nitems; i++)
		if (b.items[i].sem.len || b.items[i].noise.len) {
			rec_note(out, b.items[i].lineno, "perf stat: its '+-' is the standard error "
				 "of the mean over runs that nothing here counts ('(N runs)', -r N): "
				 "the mean is kept, the sd not known");
			break;
		}
	if (rc == 0 && b.ncols)
		rc = columns_emit(&b);
	if (rc == 0)
		prefix_split(&b);
	if (rc == 0 && !counters && !b.has_elapsed && b.columns_line)
		;       /* only rows left out, each noted */
	else if (rc == 0 && !counters && !b.has_elapsed)
		rc = fail(&b, lines[n - 1].lineno, "perf stat block without any counter");
	else if (rc == 0 && b.has_header && !b.has_elapsed && !interval && !b.has_interval)
		rc = fail(&b, lines[n - 1].lineno,
			  "truncated perf stat block: no 'seconds time elapsed' line");
	if (rc == 0)
		rc = block_decimal(&b, &dec);
	if (rc == 0)
		rc = block_emit(&b, dec);
	if (rc == 0)
		rc = block_workload(&b);
	free(b.foreign);
	free(b.cols);
	free(b.items);
	free(b.runs);
	free(b.stamps);
	return rc;
}

const struct ingest_parser perfstat_parser = {
	"perf-stat", "perf stat output (human, -r, -I, -x CSV, -j JSON)", perfstat_claim,
	perfstat_parse,
};
