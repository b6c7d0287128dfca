/*
 * gnutime.c - GNU time (/usr/bin/time) reports, one run each.
 *
 *   Command exited with non-zero status 2               <- optional, any form
 *           Command being timed: "sh -c sleep 0.3; exit 2"        (-v)
 *           User time (seconds): 0.00
 *           Percent of CPU this job got: ?%
 *           Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.45
 *           ... 23 "Label: value" lines in all ...
 *           Exit status: 2
 *
 *   2.65user 25.05system 0:00.89elapsed 3103%CPU (0avgtext+0avgdata 7424maxresident)k
 *   0inputs+128outputs (0major+2047minor)pagefaults 0swaps          (default format)
 *
 *   real 1.00                                            (-p, POSIX; bash's
 *   user 0.50                                             "real 0m1.000s" too)
 *   sys 0.10
 *
 *   numa01 1784.16 352.58 68140.96 141242 4862           (-f "%e %S %U %c %w")
 *
 * A -f line carries no labels: --time-format names its fields.  With it,
 * any line of exactly that many values, optionally led by a word (the
 * test name), is a report.  Without it only lines that start with an
 * autonuma test name (numa01, numa02_SMT, ...) are recognised, read with
 * the preset "%e %S %U %c %w" of autonuma-benchmark's start_bench.  A
 * line led by an autonuma name becomes an "autonuma" run with
 * test=<name>; any other word gives a "time" run with test=<word>.
 *
 * A non-zero status (the "Command exited..." line, or -v's "Exit status")
 * makes the run failed, with the status in the message; the status is
 * also kept as metric exit_status (0 included) wherever time printed it,
 * so failed and clean runs can be told apart in queries.  -v fields that
 * Linux never fills (the "Average ... size" lines) and the page size are
 * checked but not stored.
 */
#include "parsers.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <math.h>
#include <string.h>

enum tv_kind { TV_SECONDS, TV_CLOCK, TV_PERCENT, TV_COUNT, TV_COMMAND, TV_IGNORE };

/* The -v labels, in GNU time's order. */
static const struct {
	const char *label;
	const char *metric;     /* NULL: not stored */
	const char *unit;
	enum tv_kind kind;
} tv_fields[] = {
	{ "Command being timed", NULL, "", TV_COMMAND },
	{ "User time (seconds)", "user", "s", TV_SECONDS },
	{ "System time (seconds)", "sys", "s", TV_SECONDS },
	{ "Percent of CPU this job got", "percent_cpu", "%", TV_PERCENT },
	{ "Elapsed (wall clock) time (h:mm:ss or m:ss)", "elapsed", "s", TV_CLOCK },
	{ "Average shared text size (kbytes)", NULL, "", TV_IGNORE },
	{ "Average unshared data size (kbytes)", NULL, "", TV_IGNORE },
	{ "Average stack size (kbytes)", NULL, "", TV_IGNORE },
	{ "Average total size (kbytes)", NULL, "", TV_IGNORE },
	{ "Maximum resident set size (kbytes)", "max_rss_kb", "KiB", TV_COUNT },
	{ "Average resident set size (kbytes)", NULL, "", TV_IGNORE },
	{ "Major (requiring I/O) page faults", "major_faults", "", TV_COUNT },
	{ "Minor (reclaiming a frame) page faults", "minor_faults", "", TV_COUNT },
	{ "Voluntary context switches", "voluntary_cs", "", TV_COUNT },
	{ "Involuntary context switches", "involuntary_cs", "", TV_COUNT },
	{ "Swaps", "swaps", "", TV_COUNT },
	{ "File system inputs", "fs_inputs", "", TV_COUNT },
	{ "File system outputs", "fs_outputs", "", TV_COUNT },
	{ "Socket messages sent", "socket_msgs_sent", "", TV_COUNT },
	{ "Socket messages received", "socket_msgs_received", "", TV_COUNT },
	{ "Signals delivered", "signals", "", TV_COUNT },
	{ "Page size (bytes)", NULL, "", TV_IGNORE },
	{ "Exit status", "exit_status", "", TV_COUNT },
};
#define TV_NFIELDS (sizeof(tv_fields) / sizeof(tv_fields[0]))
#define TV_EXIT (TV_NFIELDS - 1)

/* -f directives we can read back from a line of numbers. */
static const struct {
	char letter;
	const char *metric;     /* NULL: a number, not stored */
	const char *unit;
	enum tv_kind kind;
} tf_directives[] = {
	{ 'e', "elapsed", "s", TV_SECONDS }, { 'E', "elapsed", "s", TV_CLOCK },
	{ 'S', "sys", "s", TV_SECONDS }, { 'U', "user", "s", TV_SECONDS },
	{ 'P', "percent_cpu", "%", TV_PERCENT }, { 'c', "involuntary_cs", "", TV_COUNT },
	{ 'w', "voluntary_cs", "", TV_COUNT }, { 'M', "max_rss_kb", "KiB", TV_COUNT },
	{ 'F', "major_faults", "", TV_COUNT }, { 'R', "minor_faults", "", TV_COUNT },
	{ 'W', "swaps", "", TV_COUNT }, { 'I', "fs_inputs", "", TV_COUNT },
	{ 'O', "fs_outputs", "", TV_COUNT }, { 'r', "socket_msgs_received", "", TV_COUNT },
	{ 's', "socket_msgs_sent", "", TV_COUNT }, { 'k', "signals", "", TV_COUNT },
	{ 'x', "exit_status", "", TV_COUNT }, { 'K', NULL, "", TV_IGNORE },
	{ 'D', NULL, "", TV_IGNORE }, { 'p', NULL, "", TV_IGNORE },
	{ 'X', NULL, "", TV_IGNORE }, { 't', NULL, "", TV_IGNORE },
	{ 'Z', NULL, "", TV_IGNORE },
};

/* autonuma-benchmark's start_bench runs exactly this. */
#define TF_PRESET "%e %S %U %c %w"

static struct rx status_rx = RX("^\\s*Command (exited with non-zero status|terminated by signal) (\\d+)\\s*$");
static struct rx default1_loose = RX("^\\s*\\S+user\\s+\\S+system\\s+\\S+elapsed\\s");
static struct rx default2_loose = RX("^\\s*\\S+inputs\\+\\S+outputs\\s");
/* The part from "(0avgtext" on is optional: people cut the line after
 * "%CPU" (and then leave out the second line too). */
static struct rx default1_rx = RX("^\\s*(\\d+\\.\\d+)user\\s+(\\d+\\.\\d+)system\\s+([\\d:.]+)elapsed\\s+"
				  "(\\d+|\\?)%CPU(?:\\s+\\((\\d+)avgtext\\+(\\d+)avgdata\\s+(\\d+)maxresident\\)k)?\\s*$");
static struct rx default2_rx = RX("^\\s*(\\d+)inputs\\+(\\d+)outputs\\s+\\((\\d+)major\\+(\\d+)minor\\)"
				  "pagefaults\\s+(\\d+)swaps\\s*$");
/* bash "real 0m1.234s", -p "real 1.23", busybox "real 0m 1.23s" */
static struct rx posix_rx = RX("^\\s*(real|user|sys)\\s+(\\d+m\\s+[0-9.]+s|\\S+)\\s*$");
/* possessive (++, *+): a long line of values needs no backtracking stack */
/* (values are numbers, '?' or h:mm:ss; "numa01 : 300.1 +/- 2.0" is not
 * a -f line) */
static struct rx custom_rx = RX("^\\s*(numa0[12](?:_[A-Za-z0-9_]+)?)((?:\\s++[-+]?[0-9.?][^\\s]*+)++)\\s*$");
static struct rx autonuma_name_rx = RX("^numa0[12](?:_[A-Za-z0-9_]+)?$");
static struct rx word_rx = RX("^[A-Za-z_][A-Za-z0-9_./+-]*$");
/* A value of a -f line: a number, a clock (1:02:03.45), a percentage or
 * "?" / "?%" (what time prints when it cannot tell). */
static struct rx value_rx = RX("^(?:[-+]?(?:[0-9]+(?::[0-9]+)*(?:\\.[0-9]*)?|\\.[0-9]+)%?|\\?%?)$");

/* What a pattern's \s matches (PCRE2 without UCP). */
static int rx_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The first token of l as a pattern sees it (after ^\s*, up to the next
 * \s): the cheap test that spares most prose lines the patterns. */
static const char *first_token(const struct ingest_line *l, size_t *len)
{
	const char *p = l->s, *end = l->s + l->len, *t;

	while (p < end && rx_space(*p))
		p++;
	for (t = p; t < end && !rx_space(*t); t++)
		;
	*len = (size_t)(t - p);
	return p;
}

/*
 * A run's tag before a default-format report, as people paste several
 * runs: " A:  35.57user 38.18system 1:20.28elapsed 91%CPU", "1) ...",
 * "run 2: ...".  Returns the length of the tag with its blanks (0 when
 * l has none, or when what follows does not start a report); *tag and
 * *tlen are the tag without its ':' or ')'.
 */
static size_t run_tag(const struct ingest_line *l, const char **tag, size_t *tlen)
{
	const char *p = l->s, *end = l->s + l->len, *t, *q;
	size_t k;

	while (p < end && rx_space(*p))
		p++;
	t = p;
	if (end - p > 4 && !memcmp(p, "run", 3)) {
		p += 3;
		while (p < end && *p == ' ')
			p++;
	}
	for (q = p; q < end && q - p < 3 && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') ||
					       (*q >= '0' && *q <= '9') || *q == '#'); q++)
		;
	if (q == p || q >= end || (*q != ':' && *q != ')') || q + 1 >= end || !rx_space(q[1]))
		return 0;
	*tag = t;
	*tlen = (size_t)(q - t);
	for (q++; q < end && rx_space(*q); q++)
		;
	k = (size_t)(q - l->s);
	/* what follows must be "<n>user": the cheap test before any rx */
	for (p = q; p < end && !rx_space(*p); p++)
		;
	if (p - q < 5 || memcmp(p - 4, "user", 4))
		return 0;
	return k;
}

/* l without its run tag (run_tag), into *out; 0 when it has none. */
static size_t untagged(const struct ingest_line *l, struct ingest_line *out)
{
	const char *tag;
	size_t tlen, k = run_tag(l, &tag, &tlen);

	*out = *l;
	if (!k)
		return 0;
	out->s = l->s + k;
	out->len = l->len - k;
	return k;
}

/* The -v field whose label starts l ("Label: value"), or -1; *value
 * points after the colon. */
static int tv_field(const struct ingest_line *l, const char **value)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t left = (size_t)(l->s + l->len - p), k;

	if (!left || !memchr(p, ':', left))
		return -1;
	for (k = 0; k < TV_NFIELDS; k++) {
		size_t n;
		if (tv_fields[k].label[0] != *p)
			continue;
		n = strlen(tv_fields[k].label);
		if (left > n && memcmp(p, tv_fields[k].label, n) == 0 && p[n] == ':') {
			if (value)
				*value = p + n + 1;
			return (int)k;
		}
	}
	return -1;
}

static int posix_word(const struct ingest_line *l, const char *word)
{
	struct rx_cap cap[3];
	size_t tlen, n = strlen(word);
	const char *t = first_token(l, &tlen);

	/* the pattern wants the word, then blanks: so the first token is it */
	if (tlen != n || memcmp(t, word, n) != 0)
		return 0;
	return rx_match(&posix_rx, l->s, l->len, cap, 3) == 3 && cap[1].len == n &&
	       memcmp(cap[1].s, word, cap[1].len) == 0;
}

static int tok_matches(struct rx *rx, const struct ingest_tok *t)
{
	struct rx_cap cap[1];
	return rx_match(rx, t->s, t->len, cap, 1) > 0;
}

static int value_like(const struct ingest_tok *t)
{
	return tok_matches(&value_rx, t);
}

/*
 * Is l a -f line for the user's --time-format: as many values as the
 * format has fields, optionally after one word?  *word tells whether the
 * first token is that word.  Without --time-format: 0.
 */
static int format_line(const struct ingest_opts *opts, const struct ingest_line *l, int *word)
{
	struct ingest_tok ftok[33], vtok[34];
	size_t nf, nv, i, first;

	if (!opts || !opts->time_format)
		return 0;
	nf = ingest_split(opts->time_format, strlen(opts->time_format), ftok, 33);
	nv = ingest_split(l->s, l->len, vtok, 34);
	if (nf == 0 || nf > 32 || nv > 33)
		return 0;
	first = tok_matches(&word_rx, &vtok[0]);
	if (nv - first != nf)
		return 0;
	for (i = first; i < nv; i++)
		if (!value_like(&vtok[i]))
			return 0;
	if (word)
		*word = (int)first;
	return 1;
}

/*
 * The default format's lines as they reach a post: a mail client may
 * wrap one of them (format=flowed breaks "...4%CPU (0avgtext+0avgdata "
 * before "0maxresident)k"), so a line rx does not match is tried again
 * joined to the next one; so is a first line that stops after "%CPU"
 * (which matches alone), in case its tail is the next line.  Copies the
 * line (or both, joined by a blank) into buf[0..cap) and returns how
 * many lines it took: 1, 2, or 0 when neither reading matches (then buf
 * holds the first line alone, for the message).  *len is the text's
 * length.
 */
static size_t default_text(struct rx *rx, const struct ingest_line *lines, size_t i, size_t n,
			   char *buf, size_t cap, size_t *len)
{
	struct rx_cap c[8];
	size_t a = lines[i].len, b;
	int alone, got;

	*len = a < cap ? a : cap - 1;
	memcpy(buf, lines[i].s, *len);
	buf[*len] = '\0';
	got = rx_match(rx, buf, *len, c, 8);
	alone = got > 0;
	/* default1_rx without its group 5 (avgtext): cut after "%CPU" */
	if (alone && (rx != &default1_rx || c[5].s))
		return 1;
	if (i + 1 >= n || ingest_line_blank(&lines[i + 1]) || a + 1 + lines[i + 1].len >= cap)
		return alone;
	b = lines[i + 1].len;
	buf[a] = ' ';
	memcpy(buf + a + 1, lines[i + 1].s, b);
	buf[a + 1 + b] = '\0';
	if (rx_match(rx, buf, a + 1 + b, c, 8) > 0 && (rx != &default1_rx || c[5].s)) {
		*len = a + 1 + b;
		return 2;
	}
	buf[a] = '\0';
	return alone;
}

/* Lines of the default format's report at lines[i]: the first line
 * (wrapped or not), then its "inputs+outputs" line when there is one. */
static size_t default_len(const struct ingest_line *lines, size_t i, size_t n)
{
	char buf[1024];
	size_t len, one = default_text(&default1_rx, lines, i, n, buf, sizeof(buf), &len), two;

	if (!one)
		return 1;       /* malformed: the parser says so */
	if (i + one >= n || !ingest_line_matches(&default2_loose, &lines[i + one]))
		return one;
	two = default_text(&default2_rx, lines, i + one, n, buf, sizeof(buf), &len);
	return one + (two ? two : 1);
}

/* Lines of one report starting at lines[at] (after any status line). */
static size_t report_len(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t at, size_t n, int *score)
{
	size_t i = at, tlen;
	const char *t;

	if (i >= n)
		return 0;
	if (tv_field(&lines[i], NULL) >= 0) {
		/* an author's remark on a line of its own between two fields
		 * ("*****better than enabled=0x3") stays inside the report */
		while (i < n && (tv_field(&lines[i], NULL) >= 0 ||
				 (i + 1 < n && i > at && !ingest_line_blank(&lines[i]) &&
				  tv_field(&lines[i + 1], NULL) >= 0)))
			i++;
		if (i - at < 3)
			return 0;       /* one "Swaps: 0" is no report */
		*score = 90;
		return i - at;
	}
	/* default1_loose starts "\S+user\s" and custom_rx "numa0": tell
	 * from the first token whether to try them. */
	t = first_token(&lines[i], &tlen);
	if (tlen > 4 && memcmp(t + tlen - 4, "user", 4) == 0 &&
	    ingest_line_matches(&default1_loose, &lines[i])) {
		*score = 90;
		return default_len(lines, i, n);
	}
	if (tlen >= 2 && tlen <= 7 && (t[tlen - 1] == ':' || t[tlen - 1] == ')' ||
				       (tlen == 3 && !memcmp(t, "run", 3)))) {
		struct ingest_line two[2];
		if (untagged(&lines[i], &two[0]) && ingest_line_matches(&default1_loose, &two[0])) {
			size_t m = i + 1 < n ? 2 : 1;
			if (m == 2)
				two[1] = lines[i + 1];
			*score = 90;
			return default_len(two, 0, m);
		}
	}
	if (posix_word(&lines[i], "real") && i + 1 < n && posix_word(&lines[i + 1], "user")) {
		*score = 80;
		return i + 2 < n && posix_word(&lines[i + 2], "sys") ? 3 : 2;
	}
	if ((tlen > 5 && memcmp(t, "numa0", 5) == 0 && ingest_line_matches(&custom_rx, &lines[i])) ||
	    format_line(opts, &lines[i], NULL)) {
		*score = 60;
		return 1;
	}
	return 0;
}

static size_t gnutime_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			 size_t n, int *score)
{
	const char *p = str_skip_ws(lines[0].s, lines[0].s + lines[0].len);
	size_t at = 0, len;

	/* Cheap refusal: reports start with a letter or a digit (or, for a
	 * --time-format line, anything a value may start with). */
	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
	      (opts && opts->time_format && (*p == '.' || *p == '-' || *p == '+' || *p == '?' || *p == '_'))))
		return 0;
	if (*p == 'C' && ingest_line_matches(&status_rx, &lines[0]))
		at = 1;
	len = report_len(opts, lines, at, n, score);
	return len ? at + len : 0;
}

/* "1:02:03.45", "0:05.44", "2:03" -> seconds. */
static int parse_clock(const char *s, size_t len, double *out)
{
	double part[3], secs = 0;
	size_t np = 0, i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == ':') {
			if (np == 3 || num_parse(s + start, i - start, &part[np]) < 0 || part[np] < 0)
				return -1;
			np++;
			start = i + 1;
		}
	}
	for (i = 0; i < np; i++) {
		if (i + 1 < np && part[i] != floor(part[i]))
			return -1;
		secs = secs * 60 + part[i];
	}
	*out = secs;
	return 0;
}

/* One value of the given kind; *missing for "?%". -1 when malformed. */
static int parse_value(enum tv_kind kind, const char *s, size_t len, double *v, int *missing)
{
	long l;

	*missing = 0;
	switch (kind) {
	case TV_CLOCK:
		return parse_clock(s, len, v);
	case TV_PERCENT:
		if (len < 2 || s[len - 1] != '%')
			return -1;
		if (len == 2 && s[0] == '?') {
			*missing = 1;
			return 0;
		}
		if (num_parse_long(s, len - 1, &l) < 0 || l < 0)
			return -1;
		*v = (double)l;
		return 0;
	case TV_COUNT:
		if (num_parse_long(s, len, &l) < 0 || l < 0)
			return -1;
		*v = (double)l;
		return 0;
	case TV_SECONDS:
		if (len >= 3 && s[len - 1] == 's' && memchr(s, 'm', len)) {
			/* bash: "0m1.000s" */
			const char *m = memchr(s, 'm', len), *sp = m + 1;
			double min, sec;
			while (*sp == ' ')      /* busybox: "0m 1.23s" */
				sp++;
			if (num_parse(s, (size_t)(m - s), &min) < 0 ||
			    num_parse(sp, (size_t)(s + len - 1 - sp), &sec) < 0)
				return -1;
			*v = min * 60 + sec;
			return 0;
		}
		if (num_parse(s, len, v) < 0 || *v < 0)
			return -1;
		return 0;
	default:
		return num_parse(s, len, v);
	}
}

static struct rec_run *new_run(const struct ingest_ctx *ctx, struct rec_batch *out,
			       const char *benchmark, long line)
{
	struct rec_run *r = rec_run_new(out, benchmark, line);

	if (ctx->variant) {
		rec_run_variant(out, r, ctx->variant, ctx->variant_desc, REC_ORIGIN_CONTEXT);
		r->kernel = arena_strdup(&out->arena, ctx->kernel);
	}
	return r;
}

static void set_status(struct rec_batch *out, struct rec_run *r, int signal, long status)
{
	if (signal)
		rec_run_fail(out, r, "command terminated by signal %ld", status);
	else if (status != 0)
		rec_run_fail(out, r, "command exited with non-zero status %ld", status);
}

static int parse_verbose(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
			 struct rec_run *r, struct rec_batch *out, struct kb_err *err)
{
	int seen[TV_NFIELDS] = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		const char *v, *end = lines[i].s + lines[i].len;
		int k = tv_field(&lines[i], &v), missing;
		double x;

		if (k < 0 && i > 0 && i + 1 < n) {
			rec_note(out, lines[i].lineno, "time: '%.*s' inside the -v report is the author's "
				 "remark: not a field", (int)(lines[i].len > 60 ? 60 : lines[i].len), lines[i].s);
			continue;
		}
		if (k < 0)
			return kb_err_set(err, ctx->path, lines[i].lineno, "time: unknown -v line");
		if (seen[k]++)
			return kb_err_set(err, ctx->path, lines[i].lineno, "time: '%s' appears twice",
					  tv_fields[k].label);
		v = str_skip_ws(v, end);
		end = v + str_rtrim_len(v, (size_t)(end - v));
		if (tv_fields[k].kind == TV_COMMAND) {
			if (end - v >= 2 && *v == '"' && end[-1] == '"') {
				v++;
				end--;
			}
			rec_run_config(out, r, "command", arena_strndup(&out->arena, v, (size_t)(end - v)));
			continue;
		}
		if (parse_value(tv_fields[k].kind, v, (size_t)(end - v), &x, &missing) < 0)
			return kb_err_set(err, ctx->path, lines[i].lineno, "time: bad value for '%s': '%.*s'",
					  tv_fields[k].label, (int)(end - v), v);
		if (tv_fields[k].metric && !missing)
			rec_sample_add(out, r, tv_fields[k].metric, x, tv_fields[k].unit, 0);
		if (k == (int)TV_EXIT && !r->failed)
			set_status(out, r, 0, (long)x);
	}
	return 0;
}

static double cap_num(const struct rx_cap *c)
{
	double v = NAN;
	num_parse(c->s, c->len, &v);
	return v;
}

static int parse_default(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
			 struct rec_run *r, struct rec_batch *out, struct kb_err *err)
{
	struct rx_cap c[8];
	char buf[1024];
	size_t len, one, two;
	double elapsed;

	one = default_text(&default1_rx, lines, 0, n, buf, sizeof(buf), &len);
	if (!one || rx_match(&default1_rx, buf, len, c, 8) < 5 ||
	    parse_clock(c[3].s, c[3].len, &elapsed) < 0)
		return kb_err_set(err, ctx->path, lines[0].lineno, "time: malformed default-format line");
	if (one == 2)
		rec_note(out, lines[1].lineno, "time: line %ld wrapped onto this line, read as one",
			 lines[0].lineno);
	rec_sample_add(out, r, "user", cap_num(&c[1]), "s", 0);
	rec_sample_add(out, r, "sys", cap_num(&c[2]), "s", 0);
	rec_sample_add(out, r, "elapsed", elapsed, "s", 0);
	if (c[4].s[0] != '?')
		rec_sample_add(out, r, "percent_cpu", cap_num(&c[4]), "%", 0);
	if (!c[5].s) {
		/* Cut after "%CPU" by the one who pasted it: no second line. */
		rec_note(out, lines[0].lineno, "time: the line ends after %%CPU: memory and "
			 "page faults not in the post");
		if (n <= one)
			return 0;
	} else if (cap_num(&c[7]) == 0) {
		/* No process runs in 0 KiB: kernels before 2.6.32 print 0. */
		rec_note(out, lines[0].lineno, "time: 0maxresident is the kernel not reporting "
			 "it, not a measurement: left out");
	} else {
		rec_sample_add(out, r, "max_rss_kb", cap_num(&c[7]), "KiB", 0);
	}
	if (n <= one)
		return kb_err_set(err, ctx->path, lines[0].lineno,
				  "time: report ends before its 'inputs+outputs ... pagefaults' line");
	two = default_text(&default2_rx, lines, one, n, buf, sizeof(buf), &len);
	if (!two || rx_match(&default2_rx, buf, len, c, 6) != 6)
		return kb_err_set(err, ctx->path, lines[one].lineno, "time: malformed pagefaults line");
	if (two == 2)
		rec_note(out, lines[one + 1].lineno, "time: line %ld wrapped onto this line, read as one",
			 lines[one].lineno);
	rec_sample_add(out, r, "fs_inputs", cap_num(&c[1]), "", 0);
	rec_sample_add(out, r, "fs_outputs", cap_num(&c[2]), "", 0);
	rec_sample_add(out, r, "major_faults", cap_num(&c[3]), "", 0);
	rec_sample_add(out, r, "minor_faults", cap_num(&c[4]), "", 0);
	rec_sample_add(out, r, "swaps", cap_num(&c[5]), "", 0);
	return 0;
}

static int parse_posix(const struct ingest_ctx *ctx, const struct ingest_line *lines, size_t n,
		       struct rec_run *r, struct rec_batch *out, struct kb_err *err)
{
	static const char *const metric[] = { "elapsed", "user", "sys" };
	size_t i;

	if (n < 3)
		return kb_err_set(err, ctx->path, lines[n - 1].lineno,
				  "time: -p report ends before its 'sys' line");
	for (i = 0; i < 3; i++) {
		struct rx_cap c[3];
		double x;
		int missing;

		rx_match(&posix_rx, lines[i].s, lines[i].len, c, 3);
		if (parse_value(TV_SECONDS, c[2].s, c[2].len, &x, &missing) < 0)
			return kb_err_set(err, ctx->path, lines[i].lineno, "time: bad value '%.*s'",
					  (int)c[2].len, c[2].s);
		rec_sample_add(out, r, metric[i], x, "s", 0);
	}
	return 0;
}

/* A -f line: fields named by --time-format, else by the preset.  word:
 * the line starts with a test name. */
static int parse_custom(const struct ingest_ctx *ctx, const struct ingest_line *l, int word,
			long status, int signal, struct rec_batch *out, struct kb_err *err)
{
	const char *fmt = ctx->opts && ctx->opts->time_format ? ctx->opts->time_format : TF_PRESET;
	struct ingest_tok ftok[32], vtok[34];
	size_t nf = ingest_split(fmt, strlen(fmt), ftok, 32);
	size_t nv = ingest_split(l->s, l->len, vtok, 34), i, d, first = word ? 1 : 0;
	struct rec_run *r;
	int has_x = 0;

	if (nf > 32 || nf == 0)
		return kb_err_set(err, ctx->path, 0, "--time-format: expected 1 to 32 %%-directives");
	if (nv > 33 || nv - first != nf)
		return kb_err_set(err, ctx->path, l->lineno,
				  "time: %zu values after '%.*s' but the format \"%s\" has %zu fields",
				  nv - first, (int)vtok[0].len, vtok[0].s, fmt, nf);
	if (word && tok_matches(&autonuma_name_rx, &vtok[0]))
		r = new_run(ctx, out, "autonuma", l->lineno);
	else
		r = new_run(ctx, out, "time", l->lineno);
	if (word)
		rec_run_config(out, r, "test", arena_strndup(&out->arena, vtok[0].s, vtok[0].len));
	for (i = 0; i < nf; i++) {
		const struct ingest_tok *v = &vtok[i + first];
		double x;
		int missing;

		if (ftok[i].len != 2 || ftok[i].s[0] != '%')
			return kb_err_set(err, ctx->path, 0,
					  "--time-format: only blank-separated %%-directives are supported, not '%.*s'",
					  (int)ftok[i].len, ftok[i].s);
		for (d = 0; d < ARRAY_SIZE(tf_directives); d++)
			if (tf_directives[d].letter == ftok[i].s[1])
				break;
		if (d == ARRAY_SIZE(tf_directives))
			return kb_err_set(err, ctx->path, 0, "--time-format: directive '%.*s' is not a number",
					  (int)ftok[i].len, ftok[i].s);
		if (parse_value(tf_directives[d].kind, v->s, v->len, &x, &missing) < 0)
			return kb_err_set(err, ctx->path, l->lineno, "time: bad value '%.*s' for %.*s",
					  (int)v->len, v->s, (int)ftok[i].len, ftok[i].s);
		if (tf_directives[d].metric && !missing)
			rec_sample_add(out, r, tf_directives[d].metric, x, tf_directives[d].unit, 0);
		if (tf_directives[d].letter == 'x') {
			has_x = 1;
			if (status < 0 && !missing)
				status = (long)x;
		}
	}
	if (status >= 0) {
		set_status(out, r, signal, status);
		if (!signal && !has_x)
			rec_sample_add(out, r, "exit_status", (double)status, "", 0);
	}
	return 0;
}

static int gnutime_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			 size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct rx_cap c[3];
	long status = -1;
	int signal = 0, score = 0, word = 0;
	size_t at = 0;
	struct rec_run *r;

	if (rx_match(&status_rx, lines[0].s, lines[0].len, c, 3) == 3) {
		signal = c[1].s[0] == 't';
		if (num_parse_long(c[2].s, c[2].len, &status) < 0)
			return kb_err_set(err, ctx->path, lines[0].lineno, "time: bad status");
		at = 1;
	}
	if (at >= n || report_len(ctx->opts, lines, at, n, &score) == 0)
		return kb_err_set(err, ctx->path, lines[n - 1].lineno,
				  "time: status line without a report");

	if (format_line(ctx->opts, &lines[at], &word))
		return parse_custom(ctx, &lines[at], word, status, signal, out, err);
	if (ingest_line_matches(&custom_rx, &lines[at]))
		return parse_custom(ctx, &lines[at], 1, status, signal, out, err);

	r = new_run(ctx, out, "time", lines[0].lineno);
	if (status >= 0)
		set_status(out, r, signal, status);
	/* -v prints its own "Exit status" line. */
	if (tv_field(&lines[at], NULL) >= 0)
		return parse_verbose(ctx, lines + at, n - at, r, out, err);
	if (status >= 0 && !signal)
		rec_sample_add(out, r, "exit_status", (double)status, "", 0);
	if (ingest_line_matches(&default1_loose, &lines[at]))
		return parse_default(ctx, lines + at, n - at, r, out, err);
	if (n - at <= 2) {
		struct ingest_line two[2];
		const char *tag;
		size_t tlen, i;
		if (untagged(&lines[at], &two[0]) && ingest_line_matches(&default1_loose, &two[0])) {
			run_tag(&lines[at], &tag, &tlen);
			if (n - at == 2)
				two[1] = lines[at + 1];
			/* A tag the post's legend defines ("A: vanilla ...") names
			 * the variant; any other tag only tells the runs apart. */
			for (i = 0; i < out->nvariants; i++)
				if (strlen(out->variants[i].name) == tlen &&
				    !memcmp(out->variants[i].name, tag, tlen))
					break;
			if (i < out->nvariants) {
				rec_run_variant(out, r, out->variants[i].name, out->variants[i].description,
						REC_ORIGIN_CONTENT);
				rec_note(out, lines[at].lineno, "time: '%.*s:' before the report is the legend's "
					 "variant %s", (int)tlen, tag, out->variants[i].name);
			} else {
				rec_note(out, lines[at].lineno, "time: '%.*s' before the report tags the run, "
					 "not a variant (no legend names it)", (int)tlen, tag);
			}
			return parse_default(ctx, two, n - at, r, out, err);
		}
	}
	return parse_posix(ctx, lines + at, n - at, r, out, err);
}

const struct ingest_parser gnutime_parser = {
	"time", "GNU time reports (-v, default, -p, -f with --time-format)",
	gnutime_claim, gnutime_parse,
};
