/*
 * frontend.c - turns the bytes of a source file into decoded lines, then
 * cuts the document into segments, each claimed by one parser.
 *
 * Mail posts arrive as people received them:
 *
 *   > Running 'hackbench 20' in the background: Time: 9.639
 *   > Job node00 node01 node02 node03 | iSched MSched | UserTime(s)
 *   Executing 4 times: ./randupdt 1000000=20
 *
 * so quoting ('>' , nested "> >"), quoted-printable (=20, =3D, soft line
 * breaks), CRLF and tabs are undone here, once, for every parser.
 */
#include "ingest.h"
#include "attribute.h"
#include "../core/buf.h"
#include "../core/sha256.h"
#include "../core/num.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A word of eight bytes, read without alignment assumptions. */
static uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

#define ONES8 0x0101010101010101ull
#define HIGH8 0x8080808080808080ull

/* True when s[0..len) is plain ASCII (no byte has its high bit set). */
static int all_ascii(const char *s, size_t len)
{
	uint64_t acc = 0;
	size_t i = 0;

	for (; i + 32 <= len; i += 32)
		acc |= load8(s + i) | load8(s + i + 8) | load8(s + i + 16) | load8(s + i + 24);
	for (; i + 8 <= len; i += 8)
		acc |= load8(s + i);
	for (; i < len; i++)
		acc |= (unsigned char)s[i];
	return !(acc & HIGH8);
}

/* The careful check of one line p[0..len) (no '\n' in it) that
 * check_bytes() falls back to when the line is not short plain ASCII. */
static int check_line(const char *path, const unsigned char *p, size_t len, long line,
		      struct kb_err *err)
{
	const unsigned char *end = p + len;

	/* the limit does not count a CR before the '\n' */
	if (len - (len && p[len - 1] == '\r') > INGEST_MAX_LINE)
		return kb_err_set(err, path, line, "line longer than %d bytes (not a benchmark log)",
				  INGEST_MAX_LINE);
	while (p < end) {
		size_t n;
		if (*p < 0x80) {
			p++;
			continue;
		}
		n = str_utf8_seq(p, end);
		if (!n)
			return kb_err_set(err, path, line,
					  "invalid UTF-8 (byte 0x%02X); convert the file to UTF-8", *p);
		p += n;
	}
	return 0;
}

/* Check bytes for NUL, invalid UTF-8 and over-long lines.  Line numbers
 * count '\n' from first_line.  Lines of plain ASCII no longer than the
 * limit (nearly all of them) are passed a word at a time. */
static int check_bytes(const char *path, const char *data, size_t len, long first_line,
		       struct kb_err *err)
{
	const char *p = data, *end = data + len;
	const char *nul = memchr(p, 0, len);
	long line = first_line;

	/* A NUL anywhere means binary (an image, a core file): say so, rather
	 * than complaining about the first byte that is not UTF-8. */
	if (nul) {
		const char *q;
		for (q = p; q < nul; q++)
			if (*q == '\n')
				line++;
		return kb_err_set(err, path, line, "binary data (NUL byte): not a text file");
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if ((n > INGEST_MAX_LINE || !all_ascii(p, n)) &&
		    check_line(path, (const unsigned char *)p, n, line, err) < 0)
			return -1;
		if (!nl)
			break;
		line++;
		p = nl + 1;
	}
	return 0;
}

/* Quoted-printable is undone only when the text is consistent with it:
 * a Content-Transfer-Encoding header, or encoded line ends (=20, soft
 * breaks) and every '=' followed by two hex digits or a line end. */
static int looks_qp(const char *data, size_t len)
{
	const char *eq, *end = data + len;
	int evidence = 0;

	if (str_find(data, len, "Content-Transfer-Encoding: quoted-printable"))
		return 1;
	for (eq = memchr(data, '=', len); eq; eq = memchr(eq + 1, '=', (size_t)(end - eq - 1))) {
		size_t i = (size_t)(eq - data);
		if (i + 1 < len && (data[i + 1] == '\n' || data[i + 1] == '\r')) {
			evidence = 1;
			continue;
		}
		if (i + 2 >= len || str_hexval((unsigned char)data[i + 1]) < 0 ||
		    str_hexval((unsigned char)data[i + 2]) < 0)
			return 0;
		if (data[i + 1] >= 'a' || data[i + 2] >= 'a')
			return 0;   /* QP hex is upper case */
		/* "=3D" anywhere, or an encoded blank at a line end ("=20",
		 * "=09"); "N=32" at a line end proves nothing. */
		if (data[i + 1] == '3' && data[i + 2] == 'D')
			evidence = 1;
		else if (((data[i + 1] == '2' && data[i + 2] == '0') ||
			  (data[i + 1] == '0' && data[i + 2] == '9')) &&
			 (i + 3 >= len || data[i + 3] == '\n' || data[i + 3] == '\r'))
			evidence = 1;
	}
	return evidence;
}

/* Strip mail quoting: leading blanks then any run of '>' and blanks, when
 * the line starts with '>', and the one blank after the last '>': the
 * blanks after it are the quoted line's own indentation ("> >  A: ..."
 * under "> > Also note:"), which the text had before it was quoted. */
static char *strip_quote(char *s, const char *end, int *quoted)
{
	char *p = s, *last = NULL;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '>')
		return s;
	while (p < end && (*p == '>' || *p == ' ' || *p == '\t')) {
		if (*p == '>')
			last = p;
		*quoted += *p++ == '>';
	}
	p = last + 1;
	if (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Blank out (to ' ') the tabs, CRs, form and vertical feeds of s[0..len).
 * They are all below 0x0e, and text rarely has any, so eight bytes at a
 * time are let through when none of them is a control byte. */
static void blank_controls(char *s, size_t len)
{
	size_t i = 0, k;

	for (;;) {
		for (; i + 8 <= len; i += 8) {
			uint64_t w = load8(s + i);
			if ((w - ONES8 * 0x0e) & ~w & HIGH8)
				break;
		}
		for (k = 0; k < 8 && i < len; k++, i++)
			if (s[i] == '\t' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v')
				s[i] = ' ';
		if (i >= len)
			return;
	}
}

/*
 * Make s[0..len) a document line, in place: trailing blanks trimmed, mail
 * quoting stripped, controls blanked.  s[len] must be writable: the line
 * is NUL-terminated at or before it.
 */
static void add_line(struct ingest_doc *doc, size_t *cap, char *s, size_t len, long lineno)
{
	struct ingest_line *l;
	char *end;
	int quoted = 0;

	len = str_rtrim_len(s, len);
	end = s + len;
	s = strip_quote(s, end, &quoted);
	if (quoted)
		doc->was_quoted = 1;
	blank_controls(s, (size_t)(end - s));
	*end = '\0';
	xgrow(&doc->lines, cap, doc->nlines + 1, sizeof(*doc->lines));
	l = &doc->lines[doc->nlines++];
	l->s = s;
	l->len = (size_t)(end - s);
	l->lineno = lineno;
	l->quote = quoted;
}

/* Decode quoted-printable data[0..len) into logical lines; a soft break
 * joins physical lines and the logical line keeps the first one's number.
 * Decoding only shrinks, so the text goes to one buffer of len + 1 bytes
 * that the lines are then cut from in place. */
static void load_qp(struct ingest_doc *doc, size_t *cap, const char *data, size_t len)
{
	char *out = arena_alloc(&doc->arena, len + 1);
	size_t i, o = 0, cur = 0;
	long lineno = 1, cur_line = 1;

	for (i = 0; i < len; i++) {
		char c = data[i];
		if (c == '=' && i + 1 < len && (data[i + 1] == '\n' ||
		    (data[i + 1] == '\r' && i + 2 < len && data[i + 2] == '\n'))) {
			i += data[i + 1] == '\r' ? 2 : 1;
			lineno++;
			continue;
		}
		if (c == '=' && i + 2 < len && str_hexval((unsigned char)data[i + 1]) >= 0 &&
		    str_hexval((unsigned char)data[i + 2]) >= 0) {
			out[o++] = (char)(str_hexval((unsigned char)data[i + 1]) * 16 +
					  str_hexval((unsigned char)data[i + 2]));
			i += 2;
			continue;
		}
		if (c == '\n') {
			/* out[o] is free: the line ends there */
			add_line(doc, cap, out + cur, o - cur, cur_line);
			cur = ++o;
			lineno++;
			cur_line = lineno;
			continue;
		}
		out[o++] = c;
	}
	if (o > cur)
		add_line(doc, cap, out + cur, o - cur, cur_line);
}

/* A line that starts, after blanks, with a box's left edge "|" and has no
 * other '|' (so no table row "| mean | 0.62 |"): the edge's offset past
 * the '|', or 0. */
static size_t box_edge(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;

	while (p < end && *p == ' ')
		p++;
	if (p == end || *p != '|' || memchr(p + 1, '|', (size_t)(end - p - 1)))
		return 0;
	return (size_t)(p + 1 - l->s);
}

/* Output pasted inside a drawn box keeps the box's left edge on every
 * line:
 *
 *    _____________________________________
 *   |
 *   |  Vanilla kernel (v5.13-rc7):
 *   |_____________________________________
 *   |  Performance counter stats for ...
 *
 * A run of three or more such lines loses the edge, as quoting does. */
static void strip_box_edges(struct ingest_doc *doc)
{
	size_t i = 0, k, n = doc->nlines;

	while (i < n) {
		size_t run = i;
		while (run < n && box_edge(&doc->lines[run]))
			run++;
		if (run - i >= 3) {
			for (k = i; k < run; k++) {
				size_t off = box_edge(&doc->lines[k]);
				doc->lines[k].s += off;
				doc->lines[k].len -= off;
			}
		}
		i = run > i ? run : i + 1;
	}
}

int ingest_doc_load(struct ingest_doc *doc, const char *path, const char *data,
		    size_t len, struct kb_err *err)
{
	size_t cap = 0, i;
	long lineno = 1;
	int nonblank = 0;

	memset(doc, 0, sizeof(*doc));
	arena_init(&doc->arena);
	doc->path = arena_strdup(&doc->arena, path);
	if (len == 0)
		return kb_err_set(err, path, 1, "empty file");
	if (check_bytes(path, data, len, 1, err) < 0)
		return -1;
	for (i = 0; i < len && !nonblank; i++)
		if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
			nonblank = 1;
	if (!nonblank)
		return kb_err_set(err, path, 1, "empty file (only white space)");

	if (looks_qp(data, len)) {
		doc->was_qp = 1;
		load_qp(doc, &cap, data, len);
		/* Decoded bytes must be text too. */
		for (i = 0; i < doc->nlines; i++) {
			const struct ingest_line *l = &doc->lines[i];
			if (memchr(l->s, '\0', l->len) ||
			    check_bytes(path, l->s, l->len, l->lineno, err) < 0) {
				if (!err->msg[0])
					kb_err_set(err, path, l->lineno, "binary data after quoted-printable decoding");
				return -1;
			}
		}
		strip_box_edges(doc);
		return 0;
	}

	{
		/* One copy of the text; each line is cut from it in place, its
		 * '\n' (or the extra byte at the end) taking the NUL. */
		char *text = arena_alloc(&doc->arena, len + 1);
		char *p = text, *end = text + len;

		memcpy(text, data, len);
		while (p < end) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			char *le = nl ? nl : end;
			add_line(doc, &cap, p, (size_t)(le - p), lineno++);
			p = nl ? nl + 1 : end;
		}
	}
	strip_box_edges(doc);
	return 0;
}

void ingest_doc_release(struct ingest_doc *doc)
{
	free(doc->lines);
	arena_release(&doc->arena);
	memset(doc, 0, sizeof(*doc));
}

/* Segmentation ----------------------------------------------------------- */

struct context {
	char *variant;
	char *desc;
	size_t at;              /* index + 1 of the line that set variant */
	char *kernel;
	char *machine;          /* a shell prompt or "Machine:" line named it */
	long runs;              /* "Ran 5 iterations for each setup" */
	const struct ingest_line *perf_cmd;     /* the last perf stat command line in prose */
	const struct ingest_line *sb_cmd;       /* the last schbench command line in prose */
	const struct ingest_line *heads;        /* the last line of column heads in prose */
};

/* A blank line, or a rule of '=', '-', '*', '+', '~' or '_'. */
static int blank_or_rule(const struct ingest_line *l)
{
	size_t k, marks = 0;

	for (k = 0; k < l->len; k++) {
		if (l->s[k] == ' ')
			continue;
		if (!strchr("=-*+~_", l->s[k]))
			return 0;
		marks++;
	}
	return marks == 0 || marks >= 3;
}

/* A machine named in prose: a shell prompt "[focht@azusa ~/affinity]>",
 * "user@host:~$", or a "Machine:" / "Hostname:" line.  The short host
 * name (up to the first dot) goes into c->machine. */
static void read_machine(struct arena *a, struct context *c, const struct ingest_line *l, int alone)
{
	static struct rx prompt = RX("^\\s*\\[[A-Za-z0-9._-]+@([A-Za-z0-9_-]+)[A-Za-z0-9._-]*[\\s:\\]]");
	static struct rx shell = RX("^\\s*[A-Za-z0-9._-]+@([A-Za-z0-9_-]+)[A-Za-z0-9._-]*:\\S*[$#]\\s");
	static struct rx named = RXI("^\\s*(?:machine|host|hostname|system)\\s*:\\s*([A-Za-z0-9_-]+)[A-Za-z0-9._-]*\\s*$");
	struct rx_cap cap[2];

	static struct rx sized = RXI("\\bon\\s+(?:an?|the|my|our)\\s+(\\d+)[- ]?(node|socket)s?\\s+"
				     "(?:[A-Za-z0-9_-]+\\s+)?(?:machine|box|system|server|host)\\b");

	/* "Autonuma results on a 4 node machine:": the runs below are that
	 * machine's, and a post with three such machines keeps them apart */
	if (str_find(l->s, l->len, "node") || str_find(l->s, l->len, "socket")) {
		struct rx_cap sc[3];
		if (rx_match(&sized, l->s, l->len, sc, 3) == 3) {
			c->machine = arena_printf(a, "%.*s-%.*s", (int)sc[1].len, sc[1].s,
						  (int)sc[2].len, sc[2].s);
			return;
		}
	}
	/* "Smaller system ( 12Cores, 96CPUS)", "On the larger system. (40
	 * Cores, 320CPUS)": a heading (a line alone between blank or rule
	 * lines) that sizes the system the section ran on, by its CPUs (else
	 * its cores); a sentence's "on a 16 CPU machine" names no section */
	if (alone && l->len <= 80 && (str_find(l->s, l->len, "CPU") || str_find(l->s, l->len, "cpu") ||
			      str_find(l->s, l->len, "ore") || str_find(l->s, l->len, "ORE"))) {
		static struct rx counted = RXI("\\b(?:system|machine|box|server|host|lpar)\\b");
		static struct rx cpus = RXI("\\b(\\d+)\\s*-?\\s*cpus?\\b");
		static struct rx cores = RXI("\\b(\\d+)\\s*-?\\s*cores?\\b");
		struct rx_cap sc[2];
		if (rx_match(&counted, l->s, l->len, sc, 1) > 0) {
			if (rx_match(&cpus, l->s, l->len, sc, 2) == 2) {
				c->machine = arena_printf(a, "%.*s-cpu", (int)sc[1].len, sc[1].s);
				return;
			}
			if (rx_match(&cores, l->s, l->len, sc, 2) == 2) {
				c->machine = arena_printf(a, "%.*s-core", (int)sc[1].len, sc[1].s);
				return;
			}
		}
	}
	if (!memchr(l->s, '@', l->len) && !memchr(l->s, ':', l->len))
		return;
	if (rx_match(&prompt, l->s, l->len, cap, 2) == 2 ||
	    rx_match(&shell, l->s, l->len, cap, 2) == 2 ||
	    rx_match(&named, l->s, l->len, cap, 2) == 2)
		c->machine = arena_strndup(a, cap[1].s, cap[1].len);
}

/* SHA-256 of a segment's normalised text: its format, then each line
 * with runs of blanks folded to one space and no blanks at either end,
 * blank lines left out.  The front end has already undone mail quoting,
 * quoted-printable, line ends and tabs, so a copy of the same output
 * in another mail or file hashes the same. */
static void segment_hash(const char *format, const struct ingest_line *lines, size_t n,
			 char out[65])
{
	struct sha256 h;
	size_t i;

	sha256_init(&h);
	sha256_update(&h, format, strlen(format));
	sha256_update(&h, "\n", 1);
	for (i = 0; i < n; i++) {
		const char *p = lines[i].s, *end = p + lines[i].len, *run;
		int any = 0;

		while (p < end) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p == end)
				break;
			if (any)
				sha256_update(&h, " ", 1);
			run = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			sha256_update(&h, run, (size_t)(p - run));
			any = 1;
		}
		if (any)
			sha256_update(&h, "\n", 1);
	}
	sha256_final_hex(&h, out);
}

static void ctx_set(struct arena *a, struct context *c, const char *name, size_t nlen,
		    const char *desc, size_t dlen)
{
	c->variant = arena_strndup(a, name, nlen);
	c->desc = desc ? arena_strndup(a, desc, dlen) : NULL;
}

/* Reads a prose line for variant context.  Returns 1 for a legend (which
 * may continue on the next lines), 2 for a kernel line, 0 otherwise. */
/* A legend's description is words: not fields ("T: 0 ( 2240) P: 0
 * I:1000 C: 50000 Min: 46", cyclictest: two more "Key:" pairs) and not
 * numbers ("B:  28.54user 29.40system 1:01.48elapsed", a run's letter). */
static int legend_text(const char *s, size_t len)
{
	const char *p = s, *end = s + len, *colon = memchr(s, ':', len);
	size_t tokens = 0, numeric = 0;

	if (colon && memchr(colon + 1, ':', (size_t)(end - colon - 1)))
		return 0;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		tokens++;
		numeric += *p >= '0' && *p <= '9';
		while (p < end && *p != ' ')
			p++;
	}
	return numeric * 2 < tokens;
}

static int read_context(struct rec_batch *out, struct context *c, const struct ingest_line *l)
{
	static struct rx legend = RX("^\\s*([A-Z][0-9]?)\\s*:\\s+(\\S.*[A-Za-z]{3}.*)$");
	static struct rx kver = RX("^\\s*(?:KernelVersion|Kernel)\\s*:?\\s+(\\S+.*?)\\s*$");
	struct rx_cap cap[3];

	static struct rx kname = RX("^\\s*kernel\\s*:\\s+(\\S*\\d\\S*)\\s*$");

	if (rx_match(&legend, l->s, l->len, cap, 3) == 3 && legend_text(cap[2].s, cap[2].len)) {
		ctx_set(&out->arena, c, cap[1].s, cap[1].len, cap[2].s, cap[2].len);
		rec_variant_add(out, c->variant, c->desc, NULL, l->lineno);
		return 1;
	}
	/* "kernel: patch-2.6.7-rc2" over a block (a lab's report header) */
	if (rx_match(&kver, l->s, l->len, cap, 2) == 2 || rx_match(&kname, l->s, l->len, cap, 2) == 2) {
		ctx_set(&out->arena, c, cap[1].s, cap[1].len, NULL, 0);
		c->kernel = c->variant;
		rec_variant_add(out, c->variant, NULL, c->kernel, l->lineno);
		return 2;
	}
	return 0;
}

/* Prose such as "Ran 5 iterations for each setup" tells how many runs
 * the published tables below it average (autonuma's Min/Max/Avg). */
static void read_runs_hint(struct context *c, const struct ingest_line *l)
{
	/* "Ran 5 iterations", "the average of 3 runs", "10 runs each" */
	static struct rx iter = RXI("\\b(\\d+)\\s+(?:iterations|runs)\\b");
	struct rx_cap cap[2];
	long n;

	if ((str_find(l->s, l->len, "iterations") || str_find(l->s, l->len, "runs")) &&
	    rx_match(&iter, l->s, l->len, cap, 2) == 2 &&
	    num_parse_long(cap[1].s, cap[1].len, &n) == 0 && n > 0 && n < 100000)
		c->runs = n;
}

/* A legend's description goes on over following prose lines. */
static void continue_legend(struct rec_batch *out, struct context *c, const struct ingest_line *l)
{
	const char *s = str_skip_ws(l->s, l->s + l->len);
	size_t i;

	c->desc = arena_printf(&out->arena, "%s %.*s", c->desc ? c->desc : "",
			       (int)(l->s + l->len - s), s);
	for (i = 0; i < out->nvariants; i++)
		if (strcmp(out->variants[i].name, c->variant) == 0 &&
		    out->variants[i].line >= l->lineno - 8)
			out->variants[i].description = c->desc;
}

static struct ingest_seg *seg_add(struct ingest_result *res, size_t first, size_t end,
				  const struct ingest_parser *p, int score)
{
	struct ingest_seg *s;

	if (!res)
		return NULL;
	xgrow(&res->segs, &res->segs_cap, res->nsegs + 1, sizeof(*res->segs));
	s = &res->segs[res->nsegs++];
	memset(s, 0, sizeof(*s));
	s->first = first;
	s->end = end;
	s->parser = p;
	s->score = score;
	s->rec_seg = -1;
	return s;
}

/* The first GNU time -f format a line of the document shows, as
 * "%e %S %U", or NULL; *at is its line. */
static const char *stated_time_format(struct arena *a, const struct ingest_doc *doc, long *at)
{
	static struct rx tf = RX("\\btime\\s+(?:-[a-zA-Z]+\\s+\\S+\\s+)*-f\\s*[\"']?((?:%[a-zA-Z](?:\\s+|(?=[\"'\\s]|$)))+)");
	struct rx_cap cap[2];
	size_t i;

	for (i = 0; i < doc->nlines; i++) {
		const struct ingest_line *l = &doc->lines[i];
		const char *f = memchr(l->s, '%', l->len);
		if (!f || !str_find(l->s, l->len, "-f") || !str_find(l->s, l->len, "time"))
			continue;
		if (rx_match(&tf, l->s, l->len, cap, 2) == 2) {
			const char *p = cap[1].s, *end = p + cap[1].len;
			while (end > p && isspace((unsigned char)end[-1]))
				end--;
			*at = l->lineno;
			return arena_strndup(a, p, (size_t)(end - p));
		}
	}
	return NULL;
}

/* The one release a Subject names in brackets: "[RFC][PATCH][2.6.6]",
 * "[PATCH 2.6.6]", "[PATCH v2 6.1-rc3]" (a series' "v2" is no release);
 * NULL when it names none or more than one. */
static const char *subject_release(struct arena *a, const char *subject)
{
	static struct rx rel = RX("\\[(?:[^\\]]*\\s)?(v?\\d+\\.\\d+(?:\\.\\d+)*(?:-[A-Za-z0-9_.+-]+)?)\\s*\\]");
	struct rx_cap c[2];
	const char *found = NULL, *p;
	size_t len, flen = 0;

	if (!subject)
		return NULL;
	len = strlen(subject);
	if (len > 1000)
		return NULL;
	for (p = subject; rx_match(&rel, p, len - (size_t)(p - subject), c, 2) == 2;
	     p = c[0].s + c[0].len) {
		if (found && (flen != c[1].len || memcmp(found, c[1].s, flen)))
			return NULL;
		found = c[1].s;
		flen = c[1].len;
	}
	return found ? arena_strndup(a, found, flen) : NULL;
}

/* The one patch file a post links, "http://.../patch-2.6.6-spa" (or
 * ".../patch-2.6.6-spa.patch", ".gz" ...): its name after "patch-";
 * NULL when it links none or several. */
static const char *linked_patch(struct arena *a, const struct ingest_doc *doc)
{
	static struct rx url = RX("https?://\\S*/patch-([A-Za-z0-9_.+-]*[A-Za-z0-9+])"
				  "(?:\\.(?:patch|diff|gz|bz2|xz|txt))*(?=[\\s>)\"']|$)");
	struct rx_cap c[2];
	const char *found = NULL;
	size_t i, flen = 0;

	for (i = 0; i < doc->nlines; i++) {
		const struct ingest_line *l = &doc->lines[i];
		size_t n;
		if (!str_find(l->s, l->len, "/patch-") || rx_match(&url, l->s, l->len, c, 2) != 2)
			continue;
		n = c[1].len;
		/* "patch-2.6.6-spa.patch": the extension is not the name */
		while (n > 6 && (!memcmp(c[1].s + n - 6, ".patch", 6)))
			n -= 6;
		if (found && (flen != n || memcmp(found, c[1].s, n)))
			return NULL;
		found = c[1].s;
		flen = n;
	}
	return found ? arena_strndup(a, found, flen) : NULL;
}

/* The changes the source names in its own words (struct ingest_claim):
 * the robot's headline with the commit, testcase and parameters under it,
 * and the rows of its "testcase: change" table.  One pass; each claim
 * reads a bounded number of lines below it. */
#define CLAIM_LOOKAHEAD 40

static void claim_param(struct arena *a, struct ingest_claim *c, const char *k, size_t kl,
			const char *v, size_t vl)
{
	if (c->nparams >= sizeof(c->params) / sizeof(c->params[0]) || !kl || !vl)
		return;
	c->params[c->nparams].key = arena_strndup(a, k, kl);
	c->params[c->nparams++].value = arena_strndup(a, v, vl);
}

static struct ingest_claim *stated_claims(struct arena *a, const struct ingest_doc *doc,
					  size_t *nout)
{
	static struct rx head = RX("\\bnoticed an? [+-]?([0-9]+(?:\\.[0-9]+)?)% (regression|improvement) "
				   "of (\\S*[^\\s:])");
	static struct rx row = RX("^\\|\\s*testcase: change\\s*\\|\\s*([^\\s:|]+):\\s+(\\S+)\\s+[+-]?"
				  "([0-9]+(?:\\.[0-9]+)?)% (regression|improvement)\\s*\\|");
	static struct rx kv_row = RX("^\\|\\s*(?:test parameters)?\\s*\\|\\s*([^\\s=|]+)=(\\S*)\\s*\\|\\s*$");
	static struct rx commit = RX("^\\s*commit:\\s+([0-9a-f]{7,40})\\b");
	static struct rx tcase = RX("^\\s*testcase:\\s+(\\S+)\\s*$");
	static struct rx param = RX("^\\s+([A-Za-z_][A-Za-z0-9_.-]*):\\s+(\\S(?:.*\\S)?)\\s*$");
	struct ingest_claim *out = NULL;
	size_t n = 0, cap = 0, i;
	const char *head_commit = NULL;

	for (i = 0; i < doc->nlines; i++) {
		const struct ingest_line *l = &doc->lines[i];
		struct rx_cap m[5];
		struct ingest_claim *c;
		int is_head;
		size_t j;

		if (!str_find(l->s, l->len, "regression") && !str_find(l->s, l->len, "improvement"))
			continue;
		is_head = str_find(l->s, l->len, "noticed") && rx_match(&head, l->s, l->len, m, 4) == 4;
		if (!is_head && (l->s[0] != '|' || rx_match(&row, l->s, l->len, m, 5) != 5))
			continue;
		xgrow(&out, &cap, n + 1, sizeof(*out));
		c = &out[n++];
		memset(c, 0, sizeof(*c));
		c->lineno = l->lineno;
		if (is_head) {
			int in_params = 0;
			c->pct = strtod(arena_strndup(a, m[1].s, m[1].len), NULL);
			c->regression = m[2].len == 10;
			c->metric = arena_strndup(a, m[3].s, m[3].len);
			for (j = i + 1; j < doc->nlines && j <= i + CLAIM_LOOKAHEAD; j++) {
				const struct ingest_line *x = &doc->lines[j];
				struct rx_cap k[3];
				if (x->quote != l->quote)
					break;
				if (ingest_line_blank(x)) {
					if (in_params && c->nparams)
						break;
					continue;
				}
				if (in_params && rx_match(&param, x->s, x->len, k, 3) == 3) {
					claim_param(a, c, k[1].s, k[1].len, k[2].s, k[2].len);
					continue;
				}
				in_params = 0;
				if (!c->commit && rx_match(&commit, x->s, x->len, k, 2) == 2)
					c->commit = head_commit = arena_strndup(a, k[1].s, k[1].len);
				else if (!c->testcase && rx_match(&tcase, x->s, x->len, k, 2) == 2)
					c->testcase = arena_strndup(a, k[1].s, k[1].len);
				else if (str_starts(str_skip_ws(x->s, x->s + x->len), "parameters:"))
					in_params = 1;
				else if (x->s[0] == '|' || str_find(x->s, x->len, "noticed"))
					break;
			}
			continue;
		}
		c->testcase = arena_strndup(a, m[1].s, m[1].len);
		c->metric = arena_strndup(a, m[2].s, m[2].len);
		c->pct = strtod(arena_strndup(a, m[3].s, m[3].len), NULL);
		c->regression = m[4].len == 10;
		c->commit = head_commit;
		for (j = i + 1; j < doc->nlines && j <= i + CLAIM_LOOKAHEAD; j++) {
			const struct ingest_line *x = &doc->lines[j];
			struct rx_cap k[3];
			if (x->quote != l->quote || x->s[0] != '|' || str_find(x->s, x->len, "testcase: change"))
				break;
			if (rx_match(&kv_row, x->s, x->len, k, 3) == 3)
				claim_param(a, c, k[1].s, k[1].len, k[2].s, k[2].len);
		}
	}
	*nout = n;
	return out;
}

int ingest_parse_doc(const struct ingest_doc *doc, const struct ingest_opts *opts,
		     const struct ingest_parser *only, struct rec_batch *out,
		     struct ingest_result *res, struct kb_err *err)
{
	const struct ingest_parser *const *parsers;
	size_t nparsers, i = 0, n = doc->nlines, segments = 0;
	size_t skip_first = (size_t)-1, skip_last = 0;
	struct context c = { NULL, NULL, 0, NULL, NULL, 0, NULL, NULL, NULL };
	int in_legend = 0;
	struct ingest_opts defaults = { NULL, 0, NULL }, text_opts;
	const char *base_release = NULL, *patch_name = NULL;
	struct ingest_claim *claims = NULL;
	size_t nclaims = 0;
	struct ingest_span *spans = NULL;
	size_t spans_cap = 0, prose_first = 0;
	size_t *quiet;          /* quiet[k]: parser k claims nothing before this line */
	struct ingest_memo_scope memo_save;
	int rc = 0;

	parsers = ingest_parsers(&nparsers);
	if (only) {
		parsers = &only;
		nparsers = 1;
	}
	if (!opts)
		opts = &defaults;
	base_release = subject_release(&out->arena, opts->subject);
	patch_name = linked_patch(&out->arena, doc);
	claims = stated_claims(&out->arena, doc, &nclaims);
	/* A post that shows the command ("/usr/bin/time -f "%e %S %U %c %w"
	 * ./numa01") says how to read its bare GNU time lines. */
	if (!opts->time_format) {
		const char *fmt;
		long at;
		if ((fmt = stated_time_format(&out->arena, doc, &at)) != NULL) {
			text_opts = *opts;
			text_opts.time_format = fmt;
			opts = &text_opts;
			rec_note(out, at, "GNU time -f lines are read with the format this line gives: %s", fmt);
		}
	}
	quiet = xcalloc(nparsers, sizeof(*quiet));
	ingest_memo_begin(doc, &memo_save);
	rx_error_take(NULL, NULL, 0);

	while (i < n) {
		const struct ingest_line *l = &doc->lines[i];
		const struct ingest_parser *best = NULL;
		size_t best_len = 0, k;
		int best_score = 0;

		if (ingest_line_blank(l)) {
			in_legend = 0;
			i++;
			continue;
		}
		for (k = 0; k < nparsers; k++) {
			int score = 0;
			size_t len;
			if (i < quiet[k])
				continue;
			len = parsers[k]->claim(opts, doc->lines + i, n - i, &score);
			if (len == 0 && score < 0)
				quiet[k] = i + (size_t)-(long)score;
			if (len == 0 || score <= 0)
				continue;
			if (len > n - i)
				len = n - i;
			if (score > best_score || (score == best_score && len > best_len)) {
				best = parsers[k];
				best_score = score;
				best_len = len;
			}
		}
		if (best) {
			struct ingest_ctx ctx;
			size_t runs0 = out->nruns, sum0 = out->nsummaries;
			struct ingest_seg *s;

			if (skip_first != (size_t)-1) {
				s = seg_add(res, skip_first, skip_last + 1, NULL, 0);
				if (s)
					s->variant = c.variant;
				skip_first = (size_t)-1;
			}
			ctx.path = doc->path;
			ctx.opts = opts;
			ctx.variant = c.variant;
			ctx.variant_desc = c.desc;
			ctx.kernel = c.kernel;
			ctx.runs_hint = c.runs;
			ctx.base_release = base_release;
			ctx.patch_name = patch_name;
			ctx.claims = claims;
			ctx.nclaims = nclaims;
			ctx.perf_cmdline = c.perf_cmd && c.perf_cmd->quote == doc->lines[i].quote ? c.perf_cmd : NULL;
			ctx.schbench_cmdline = c.sb_cmd && c.sb_cmd->quote == doc->lines[i].quote ? c.sb_cmd : NULL;
			ctx.column_heads = c.heads && c.heads->quote == doc->lines[i].quote &&
					   doc->lines[i].lineno - c.heads->lineno <= 80 ? c.heads : NULL;
			if (best->parse(&ctx, doc->lines + i, best_len, out, err) < 0) {
				if (!err->file[0])
					snprintf(err->file, sizeof(err->file), "%s", doc->path);
				rc = -1;
				goto out;
			}
			{
				struct rec_segment *sg;
				size_t r;

				xgrow(&out->segments, &out->segments_cap, out->nsegments + 1,
				      sizeof(*out->segments));
				xgrow(&spans, &spans_cap, out->nsegments + 1, sizeof(*spans));
				spans[out->nsegments].prose_first = prose_first;
				spans[out->nsegments].first = i;
				spans[out->nsegments].end = i + best_len;
				sg = &out->segments[out->nsegments++];
				memset(sg, 0, sizeof(*sg));
				sg->first_line = doc->lines[i].lineno;
				sg->last_line = doc->lines[i + best_len - 1].lineno;
				sg->format = best->name;
				sg->title = out->seg_title;
				out->seg_title = NULL;
				segment_hash(best->name, doc->lines + i, best_len, sg->hash);
				sg->run_first = runs0;
				sg->nruns = out->nruns - runs0;
				sg->sum_first = sum0;
				sg->nsums = out->nsummaries - sum0;
				for (r = runs0; r < out->nruns && c.machine; r++)
					if (!out->runs[r]->machine)
						out->runs[r]->machine = c.machine;
				for (r = sum0; r < out->nsummaries && c.machine; r++)
					if (!out->summaries[r]->machine)
						out->summaries[r]->machine = c.machine;
				prose_first = i + best_len;
			}
			/* Runs the text did not name take the variant in force, or a
			 * label line after it (attribute.c decides). */
			spans[out->nsegments - 1].ctx_variant = c.variant;
			spans[out->nsegments - 1].ctx_desc = c.desc;
			spans[out->nsegments - 1].ctx_at = c.at;
			spans[out->nsegments - 1].ctx_kernel = c.kernel && c.kernel == c.variant;
			s = seg_add(res, i, i + best_len, best, best_score);
			if (s) {
				size_t r;
				s->rec_seg = (long)out->nsegments - 1;
				s->runs = out->nruns - runs0;
				s->summaries = out->nsummaries - sum0;
				/* the segment's own runs: counting the whole batch per
				 * segment is quadratic in a file of many blocks */
				s->samples = 0;
				for (r = runs0; r < out->nruns; r++)
					s->samples += out->runs[r]->nsamples;
				s->variant = c.variant;
			}
			segments++;
			in_legend = 0;
			i += best_len;
			continue;
		}
		/* Prose: read it for variant context. */
		read_runs_hint(&c, l);
		read_machine(&out->arena, &c, l, (i == 0 || blank_or_rule(&doc->lines[i - 1])) &&
			     (i + 1 >= n || blank_or_rule(&doc->lines[i + 1])));
		/* a perf stat command line shown in prose, for the headerless
		 * blocks below it (at its own quoting depth) */
		if (c.perf_cmd && c.perf_cmd->quote != l->quote)
			c.perf_cmd = NULL;
		if (perfstat_cmdline_line(l))
			c.perf_cmd = l;
		if (c.sb_cmd && c.sb_cmd->quote != l->quote)
			c.sb_cmd = NULL;
		if (schbench_cmdline_line(l))
			c.sb_cmd = l;
		{
			struct ingest_tok h[4];
			if (c.heads && c.heads->quote != l->quote)
				c.heads = NULL;
			if (ingest_column_heads(l, h, 4))
				c.heads = l;
		}
		switch (read_context(out, &c, l)) {
		case 1:
			in_legend = 1;
			c.at = i + 1;
			break;
		case 2:
			in_legend = 0;
			c.at = i + 1;
			break;
		default:
			if (in_legend && in_legend++ <= 3)
				continue_legend(out, &c, l);
		}
		if (skip_first == (size_t)-1)
			skip_first = i;
		skip_last = i;
		i++;
	}
	if (skip_first != (size_t)-1) {
		struct ingest_seg *s = seg_add(res, skip_first, skip_last + 1, NULL, 0);
		if (s)
			s->variant = c.variant;
	}
	{
		/* A line the pattern matcher could not decide on was read as
		 * not matching: the file may be misread, so it is not read. */
		const char *at;
		char msg[400];
		if (rx_error_take(&at, msg, sizeof(msg))) {
			long line = 0;
			size_t k;
			for (k = 0; k < n && !line; k++)
				if (at >= doc->lines[k].s && at <= doc->lines[k].s + doc->lines[k].len)
					line = doc->lines[k].lineno;
			rc = kb_err_set(err, doc->path, line, "pattern matching failed: %s", msg);
			goto out;
		}
	}
	if (segments) {
		/* before attribution: it matches raw runs to the summaries
		 * they repeat by configuration */
		numatest_inherit_disturbance(out);
		ingest_attribute(doc, out, spans);
	}
	if (res) {
		size_t k;
		for (k = 0; k < res->nsegs; k++) {
			struct ingest_seg *sg = &res->segs[k];
			if (sg->parser && sg->rec_seg >= 0 && (size_t)sg->rec_seg < out->nsegments) {
				sg->evidence = out->segments[sg->rec_seg].evidence;
				sg->label = out->segments[sg->rec_seg].label;
			}
		}
	}
	if (segments && !out->nruns && !out->nsummaries && !out->nmachines) {
		/* Blocks were recognised but none held a value (a command line,
		 * a table left out with its reason): nothing is read, and the
		 * first note says why. */
		long line = out->nnotes ? out->notes[0].line : doc->lines[0].lineno;
		kb_err_set(err, doc->path, line, "no benchmark output stored%s%s",
			   out->nnotes ? ": " : " (the blocks recognised hold no values)",
			   out->nnotes ? out->notes[0].text : "");
		rc = INGEST_NOTHING;
		goto out;
	}
	if (segments == 0) {
		long line = n ? doc->lines[0].lineno : 1;
		if (only) {
			rc = kb_err_set(err, doc->path, line, "no %s output found in this file",
					only->name);
			goto out;
		}
		kb_err_set(err, doc->path, line,
			   "no benchmark output recognised (see 'kbench import --list-formats')");
		rc = INGEST_NOTHING;
	}
out:
	ingest_memo_end(&memo_save);
	free(quiet);
	free(spans);
	free(claims);
	return rc;
}

void ingest_result_release(struct ingest_result *res)
{
	free(res->segs);
	res->segs = NULL;
	res->nsegs = res->segs_cap = 0;
}
