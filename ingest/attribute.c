/*
 * attribute.c - what a post says about the raw output it quotes: which
 * of the post's own variants a block of output belongs to, and which
 * label line introduced it.
 *
 *   Schedbench 4:
 *                           AvgUser    Elapsed  TotalUser   TotalSys
 *         ingoD7-59.stats      44.77      46.52     179.10       0.78
 *           stock59-stats      22.25      35.94      89.06       0.81
 *   ...
 *   Control run - detailed stats running numatest with 4 processes
 *   on a stock59 kernel.
 *
 *   Executing 4 times: ./randupdt 1000000
 *   ...
 *   TotalUserTime   89.06
 *   TotalSysTime    0.81
 *
 * A run that nothing named gets, strongest first: the variant whose
 * published row (same benchmark and configuration, in the same post)
 * its own totals equal; the one variant that the prose paragraph before
 * it names ("on a stock59 kernel" names stock59-stats); else nothing,
 * and the store names it after the source.
 *
 * Label lines ("***** With percpu_counter:", "Enabled", "# __flush_tlb_one")
 * tell two blocks of the same kernel apart: when two segments of one
 * post produce the same variant, benchmark and configuration, each gets
 * its label as config key "label", so neither is merged into or
 * replaces the other.
 */
#include "ingest.h"
#include "attribute.h"
#include "hackbench.h"
#include "../core/buf.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "-----", "=====": a rule under a heading or between blocks. */
static int is_rule_line(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;
	size_t n = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	for (; p < end; p++, n++)
		if (!strchr("-=_~*#+", *p))
			return 0;
	/* a lone "#" or "*" frames a heading ("#", "# v5.16-rc8", "#") */
	return n >= 3 || (n >= 1 && (l->s[l->len - 1] == '#' || l->s[l->len - 1] == '*'));
}

/* The post's own variant names (published row labels and legends),
 * sorted and unique, so that a word finds the names it starts in
 * log time. */
struct names {
	const char **v;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void names_add(struct names *ns, const char *name)
{
	if (!name || !name[0])
		return;
	xgrow(&ns->v, &ns->cap, ns->n + 1, sizeof(*ns->v));
	ns->v[ns->n++] = name;
}

static void names_sort(struct names *ns)
{
	size_t i, k = 0;

	if (ns->n > 1)
		qsort(ns->v, ns->n, sizeof(*ns->v), cmp_str);
	for (i = 0; i < ns->n; i++)
		if (!k || strcmp(ns->v[k - 1], ns->v[i]) != 0)
			ns->v[k++] = ns->v[i];
	ns->n = k;
}

/* The first name >= w[0..n) (ns->n when none). */
static size_t names_lower(const struct names *ns, const char *w, size_t n)
{
	size_t lo = 0, hi = ns->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(ns->v[mid], w, n);
		if (c < 0 || (c == 0 && strlen(ns->v[mid]) < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The published cells of a batch, sorted by (benchmark, config, variant):
 * a run finds the cells of its benchmark and configuration at once. */
struct cells {
	struct cell { const char *key; size_t klen; const struct rec_summary *s; } *v;
	size_t n;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if ((c = strcmp(x->s->variant, y->s->variant)) != 0)
		return c;
	if ((c = strcmp(x->s->metric, y->s->metric)) != 0)
		return c;
	return (x->s->mean > y->s->mean) - (x->s->mean < y->s->mean);
}

static void cells_build(struct rec_batch *b, struct cells *cs)
{
	size_t i;

	cs->v = xcalloc(b->nsummaries + 1, sizeof(*cs->v));
	cs->n = 0;
	for (i = 0; i < b->nsummaries; i++) {
		struct rec_summary *s = b->summaries[i];
		if (!s->variant || isnan(s->mean))
			continue;
		cs->v[cs->n].key = arena_printf(&b->arena, "%s\x1f%s", s->benchmark,
						rec_config_string(&b->arena, s->config, s->nconfig));
		cs->v[cs->n++].s = s;
	}
	if (cs->n > 1)
		qsort(cs->v, cs->n, sizeof(*cs->v), cmp_cell);
	/* The same published row again (a table quoted twice, a post that
	 * repeats its summary) is no more evidence: keep one of each
	 * (benchmark, config, variant, metric, mean), so that a run's search
	 * does not grow with the copies. */
	if (cs->n > 1) {
		size_t i, k = 1;
		for (i = 1; i < cs->n; i++) {
			const struct cell *a = &cs->v[k - 1], *c = &cs->v[i];
			if (strcmp(a->key, c->key) == 0 && strcmp(a->s->variant, c->s->variant) == 0 &&
			    strcmp(a->s->metric, c->s->metric) == 0 && a->s->mean == c->s->mean)
				continue;
			cs->v[k++] = *c;
		}
		cs->n = k;
	}
}

/* Half a unit of the last decimal a published number was printed with
 * (179.10 was printed as 179.1 at least: 0.05), so a run's 179.10 matches
 * it and 179.2 does not. */
static double half_ulp(double x)
{
	double scale = 1;
	int d;

	for (d = 0; d < 6; d++, scale *= 10) {
		double k = nearbyint(x * scale);
		if (fabs(k / scale - x) <= 1e-9 * fmax(1, fabs(x)))
			break;
	}
	return 0.5 / scale + 1e-9 * fmax(1, fabs(x));
}

/* The run's run-level value of metric, or NAN. */
static double run_value(const struct rec_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].job == 0 && strcmp(r->samples[i].metric, metric) == 0)
			return r->samples[i].value;
	return NAN;
}

/* The one variant whose published cells (two or more) the run's totals
 * equal, with the evidence; NULL when none or several. */
static const char *by_numbers(struct rec_batch *b, struct rec_run *r, const struct cells *cs,
			      const char **evidence)
{
	const char *found = NULL, *key;
	size_t lo = 0, hi = cs->n, a, e, i, nfound = 0;

	if (!cs->n)
		return NULL;
	key = arena_printf(&b->arena, "%s\x1f%s", r->benchmark,
			   rec_config_string(&b->arena, r->config, r->nconfig));
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(cs->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (a = lo; a < cs->n && strcmp(cs->v[a].key, key) == 0; a = e) {
		struct buf ev = BUF_INIT;
		size_t same = 0, differ = 0;
		long line = 0;

		for (e = a; e < cs->n && strcmp(cs->v[e].key, key) == 0 &&
			    strcmp(cs->v[e].s->variant, cs->v[a].s->variant) == 0; e++)
			;
		for (i = a; i < e; i++) {
			const struct rec_summary *s = cs->v[i].s;
			double x = run_value(r, s->metric);

			if (isnan(x))
				continue;
			if (fabs(x - s->mean) <= half_ulp(s->mean)) {
				buf_printf(&ev, "%s%s %g", same ? ", " : "", s->metric, s->mean);
				same++;
				if (!line)
					line = s->line;
			} else {
				differ++;
			}
		}
		if (same >= 2 && !differ) {
			nfound++;
			found = cs->v[a].s->variant;
			*evidence = arena_printf(&b->arena,
						 "its totals equal the published row '%s' (line %ld: %s)",
						 found, line, buf_str(&ev));
		}
		buf_release(&ev);
	}
	return nfound == 1 ? found : NULL;
}

/* Does word w[0..n) name variant name?  The whole name, or its first
 * part up to a '-', '.', '_' or '+' ("stock59" names "stock59-stats"). */
static int word_names(const char *w, size_t n, const char *name)
{
	size_t len = strlen(name);

	if (n == len && memcmp(w, name, n) == 0)
		return 1;
	return n >= 3 && n < len && memcmp(w, name, n) == 0 && strchr("-._+", name[n]);
}

/* The one variant that the prose lines [from, to) name, or NULL. */
static const char *by_prose(struct rec_batch *b, const struct ingest_doc *doc, size_t from,
			    size_t to, const struct names *ns, const char **evidence)
{
	const char *found = NULL;
	size_t i, v, nfound = 0;
	long at = 0;

	for (i = from; i < to; i++) {
		const char *p = doc->lines[i].s, *end = p + doc->lines[i].len;

		while (p < end) {
			const char *w;
			size_t n;

			while (p < end && !(isalnum((unsigned char)*p) || *p == '_'))
				p++;
			w = p;
			while (p < end && !isspace((unsigned char)*p) && !strchr(",;:()\"'", *p))
				p++;
			n = (size_t)(p - w);
			while (n && strchr(".!?", w[n - 1]))
				n--;
			if (!n)
				continue;
			for (v = names_lower(ns, w, n); v < ns->n &&
			     strncmp(ns->v[v], w, n) == 0; v++) {
				if (!word_names(w, n, ns->v[v]))
					continue;
				if (found != ns->v[v]) {
					if (!found || strcmp(found, ns->v[v]) != 0)
						nfound++;
					found = ns->v[v];
					at = doc->lines[i].lineno;
				}
			}
		}
	}
	if (nfound != 1)
		return NULL;
	*evidence = arena_printf(&b->arena, "the text before it names '%s' (line %ld)", found, at);
	return found;
}

/* A label line: a heading ("***** With percpu_counter:", "# __flush_tlb_one")
 * or a short line standing alone ("Enabled").  Returns its text without
 * the marks, or NULL. */
static const char *label_of(struct rec_batch *b, const struct ingest_doc *doc, size_t i,
			    size_t from, size_t to)
{
	const struct ingest_line *l = &doc->lines[i];
	const char *p = l->s, *end = l->s + l->len;
	int marked = 0, words = 0, alone;
	const char *q;

	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	/* "# x", "## x", "** x", "===== x"; a lone "* x" is a list item. */
	if (p < end && *p == '#')
		marked = 1;
	else if (end - p > 1 && (p[0] == '*' || p[0] == '=') && p[1] == p[0])
		marked = 1;
	while (marked && p < end && strchr("*#=", *p))
		p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end > p && end[-1] == ':')
		end--;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (p == end || end - p > 60)
		return NULL;
	for (q = p; q < end; q++)
		if (!isspace((unsigned char)*q) && (q == p || isspace((unsigned char)q[-1])))
			words++;
	/* Alone: blank (or the document's edge, or the block) on both sides;
	 * an underlined heading is alone too. */
	alone = (i == from || ingest_line_blank(&doc->lines[i - 1])) &&
		(i + 1 >= to || ingest_line_blank(&doc->lines[i + 1]) ||
		 (is_rule_line(&doc->lines[i + 1]) && !marked));
	if (!marked && (!alone || words > (i + 1 < to && is_rule_line(&doc->lines[i + 1]) ? 12 : 4) ||
			end[-1] == '.' || end[-1] == ','))
		return NULL;
	return arena_strndup(&b->arena, p, (size_t)(end - p));
}

/* Words that leave a short line a heading of what follows ("Results:",
 * "Here are the numbers:", "Hackbench, lower is better:") rather than
 * the name of a variant. */
static const char *const heading_words[] = {
	"a", "all", "an", "and", "are", "as", "average", "averages", "avg", "below", "benchmark",
	"benchmarks", "better", "command", "commands", "config", "configuration", "cpu", "data",
	"detail", "details", "elapsed", "example", "first", "follows", "following", "for", "from",
	"graph", "hardware", "here", "higher", "i", "in", "is", "it", "latency", "legend", "log",
	"logs", "lower", "machine", "machines", "mean", "my", "note", "notes", "number", "numbers",
	"of", "on", "output", "outputs", "raw", "real", "result", "results", "run", "runs", "score",
	"scores", "second", "seconds", "setup", "some", "stats", "statistics", "summary", "sys",
	"system", "table", "test", "tests", "the", "these", "this", "throughput", "time", "times",
	"to", "update", "updated", "us", "user", "we", "were", "what", "with", "worse", "you",
	"wrote", "writes", "said", "says", "hi", "hello", "thanks", "regards", "cheers",
	"hackbench", "kernbench", "schedbench", "numa_test", "numatest", "perf", "stat", "autonuma",
	"benchmarking", "tested", "testing", "ran", "using", "again", "also", "both", "each",
	"kernel", "kernels", "scheduler", "schedulers", "variant", "variants", "patches", "legend",
	"try", "calling", "run", "running", "look", "looks", "like", "see", "shows", "show",
	"typical", "sample", "samples", "overall", "final", "total", "totals",
};

/* Is w[0..n) one of list's words, in any case? */
static int word_in(const char *const *list, size_t nlist, const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < nlist; i++)
		if (strlen(list[i]) == n && strncasecmp(list[i], w, n) == 0)
			return 1;
	return 0;
}

static int heading_word(const char *w, size_t n)
{
	return word_in(heading_words, ARRAY_SIZE(heading_words), w, n);
}

/* Heading words that make a line a section's title ("Ebizzy results",
 * "Test setup") unless a word names a version too. */
static int section_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"result", "results", "numbers", "output", "benchmark", "benchmarks", "data", "summary",
		"stats", "statistics", "test", "tests", "details", "log", "logs", "setup", "config",
		"configuration", "hardware", "machine", "table",
	};
	return word_in(words, ARRAY_SIZE(words), w, n);
}

/* Words a heading puts before a name: "Kernbench results running
 * within the default container", "Here are the numbers with the fix". */
static int prefix_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"hackbench", "kernbench", "schedbench", "numa_test", "numatest", "perf", "stat",
		"autonuma", "here", "are", "is", "some", "running", "run", "runs", "ran",
	};

	return section_word(w, n) || word_in(words, ARRAY_SIZE(words), w, n);
}

/* Words that say a line names a version of the code under test. */
static int variant_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"with", "without", "before", "after", "patched", "unpatched", "vanilla", "stock",
		"baseline", "base", "mainline", "upstream", "plus", "fix", "fixed", "revert",
		"reverted", "enabled", "disabled", "old", "new", "original", "modified", "default",
		"tip", "linus", "next", "applied", "patch", "unmodified", "w/o", "w/", "current",
	};
	size_t k;

	if (word_in(words, ARRAY_SIZE(words), w, n))
		return 1;
	/* a kernel version: 2.6.16, v5.1, 6.8-rc4, 3.9.0+ */
	k = (n && (w[0] == 'v' || w[0] == 'V')) ? 1 : 0;
	if (k < n && isdigit((unsigned char)w[k])) {
		while (k < n && isdigit((unsigned char)w[k]))
			k++;
		if (k + 1 < n && w[k] == '.' && isdigit((unsigned char)w[k + 1]))
			return 1;
	}
	/* "tip+patch", "rc4+fix" */
	return memchr(w, '+', n) != NULL && n > 1;
}

/* A line that is a shell command or a prompt, which may stand between a
 * label and the output it introduces ("$ ./hackbench 10 process 1000"). */
static int command_line(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end)
		return 0;
	if (end - p > 2 && p[0] == '.' && p[1] == '/')
		return 1;
	if (*p == '$' || *p == '#' || *p == '%') {
		static const char *const cmds[] = {
			"hackbench", "perf", "time", "/usr/bin/time", "numactl", "taskset", "make",
			"schbench", "echo", "for", "sudo", "cat", "chrt", "nice", "sh", "bash", "cd",
			"sysctl", "uname", "while", "do", "numa01", "numa02", "kernbench",
		};
		size_t i, n;
		p++;
		while (p < end && *p == ' ')
			p++;
		if (p < end && (*p == '.' || *p == '/'))
			return 1;
		for (n = 0; p + n < end && p[n] != ' '; n++)
			;
		for (i = 0; i < ARRAY_SIZE(cmds); i++)
			if (strlen(cmds[i]) == n && memcmp(cmds[i], p, n) == 0)
				return 1;
		return 0;
	}
	/* "root@box:~# ./hackbench", "[me@host dir]$ perf stat" */
	{
		const char *q = memchr(p, '@', (size_t)(end - p));
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		if (q && (!sp || q < sp) && sp && (sp[-1] == '#' || sp[-1] == '$' || sp[-1] == '>'))
			return 1;
	}
	return 0;
}

/*
 * A line that names the variant of the output after it:
 *
 *   Without the patch:            Before:        Hackbench, after:
 *   === patched (v3 series)       Stock          rc4 plus the fix:
 *                                 =====
 *
 * Lines ending in ':' and marked or underlined headings qualify unless all
 * their words are a heading's ("Results:", "Kernbench:"); a short line
 * standing alone needs a word that names a version ("Enabled", "2.6.16",
 * "with the fix").  A leading benchmark name is not part of the name
 * ("Hackbench, after" is "after").  Returns the name, or NULL.
 */
static int sentence_line(const struct ingest_line *l);
static size_t indent_of(const struct ingest_line *l);

static const char *variant_label(struct rec_batch *b, const struct ingest_doc *doc, size_t i,
				 size_t from, size_t to, int direct)
{
	const struct ingest_line *l = &doc->lines[i];
	const char *p = l->s, *end = l->s + l->len, *q;
	int marked = 0, colon = 0, under = 0, alone, words = 0, named = 0, plain = 0, has_eq;
	int strong_heading = 0;     /* "Ebizzy results": a section, not a side */
	int bullet = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (end - p < 2 || end - p > 70)
		return NULL;
	/* an enumerated item: "(1) within a cluster:", "2) After:", "1)Before:" */
	{
		const char *e = p;
		if (e < end && *e == '(')
			e++;
		if (e < end && (isdigit((unsigned char)*e) || (*e >= 'a' && *e <= 'h'))) {
			const char *d = e + 1;
			while (d < end && isdigit((unsigned char)*d))
				d++;
			if (d < end && *d == ')' && (d + 1 == end || d[1] == ' ' || isalpha((unsigned char)d[1])) &&
			    (*e != '(' || p[0] == '(')) {
				p = d + 1;
				while (p < end && *p == ' ')
					p++;
				bullet = 1;
			}
		}
	}
	/* a list item: "- Before:", "* my patch:", "o vanilla" */
	if (end - p > 3 && strchr("-*+o", p[0]) && p[1] == ' ' && end[-1] != '*' &&
	    isalnum((unsigned char)p[2])) {
		p += 2;
		bullet = 1;
	}
	if (*p == '#' || (end - p > 2 && (p[0] == '*' || p[0] == '=' || p[0] == '-') &&
			  p[1] == p[0] && p[2] == p[0]))
		marked = 1;
	/* "== original, no patched", "** vanilla" */
	if (end - p > 3 && (p[0] == '=' || p[0] == '*') && p[1] == p[0] && p[2] == ' ')
		marked = 1;
	/* "* Before *": a lone '*' at both ends (a list item has one at the start) */
	if (end - p > 4 && p[0] == '*' && end[-1] == '*' && p[1] == ' ' && end[-2] == ' ')
		marked = 1;
	while (marked && p < end && strchr("*#=-", *p))
		p++;
	/* "*****better than ...": marks glued to a word are emphasis */
	if (marked && p < end && !isspace((unsigned char)*p))
		return NULL;
	while (marked && end > p && strchr("*#=-", end[-1]))
		end--;
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (end > p && end[-1] == ':') {
		colon = 1;
		end--;
	}
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (i + 1 < to) {
		const struct ingest_line *n = &doc->lines[i + 1];
		const char *r = n->s, *re = n->s + n->len;
		while (r < re && isspace((unsigned char)*r))
			r++;
		while (re > r && isspace((unsigned char)re[-1]))
			re--;
		under = re - r >= 3 && (*r == '=' || *r == '-' || *r == '~' || *r == '_' || *r == '+');
		for (q = r; under && q < re; q++)
			if (*q != *r)
				under = 0;
	}
	/* a benchmark name and a comma before the name: "Hackbench, after" */
	for (q = p; q < end && (isalnum((unsigned char)*q) || *q == '_'); q++)
		;
	if (q < end && *q == ',' && heading_word(p, (size_t)(q - p))) {
		p = q + 1;
		while (p < end && isspace((unsigned char)*p))
			p++;
	}
	/* "(3.14-rc6 with fix)" */
	if (end - p > 2 && *p == '(' && end[-1] == ')' && !memchr(p + 1, '(', (size_t)(end - p - 2))) {
		p++;
		end--;
	}
	/* "KernelVersion: 3.9.0": a legend's or a kernel line; an underlined
	 * or framed "tip: schedutil:" is a heading all the same */
	if (p == end || strchr(".,;?!", end[-1]) || (memchr(p, ':', (size_t)(end - p)) && !under && !marked))
		return NULL;
	/* "groups=10" is a configuration; "Config=n", "CONFIG_SLUB=y" and
	 * "with lru_gen/enabled=0x3" name kernels (checked below) */
	has_eq = memchr(p, '=', (size_t)(end - p)) != NULL;
	/* "-vanilla:", "# -fast-headers": a kernel's suffix; "- a list item" */
	if ((*p == '-' && !((marked || colon || under) && end - p > 1 && isalnum((unsigned char)p[1]))) ||
	    *p == '(' || *p == '[' || *p == '<' || *p == '"' || *p == '>')
		return NULL;
	for (q = p; q < end;) {
		const char *w;
		while (q < end && !isalnum((unsigned char)*q))
			q++;
		w = q;
		while (q < end && !isspace((unsigned char)*q) && !strchr(",:;()[]\"'", *q))
			q++;
		if (q == w)
			continue;
		words++;
		if (q - w > 7 && strncasecmp(w, "config", 6) == 0 && memchr(w, '=', (size_t)(q - w)))
			named = 1;      /* "Config=n", "CONFIG_SLUB=y" */
		if ((q - w == 5 && strncasecmp(w, "wrote", 5) == 0) ||
		    (q - w == 6 && strncasecmp(w, "writes", 6) == 0))
			return NULL;    /* "Ingo Molnar wrote:" */
		if (variant_word(w, (size_t)(q - w)))
			named = 1;
		else if (!heading_word(w, (size_t)(q - w)))
			plain++;
		else if (section_word(w, (size_t)(q - w)))
			strong_heading = 1;
	}
	if (!words || words > (under ? 12 : 8))
		return NULL;
	{
		/* "This patch simplifies the scheduler code by:" leads into a
		 * list: its last word is a preposition; "This patch on top of
		 * X" of five words or more that starts like a sentence is one */
		static const char *const lead_in[] = {
			"by", "of", "to", "for", "as", "from", "like", "than", "and",
			"or", "the", "a", "an", "following", "below", "these", "this", "that", "into",
		};
		const char *w = end;
		while (w > p && !isspace((unsigned char)w[-1]))
			w--;
		if (colon && word_in(lead_in, ARRAY_SIZE(lead_in), w, (size_t)(end - w)))
			return NULL;
		if (words >= 6 && (strncasecmp(p, "this ", 5) == 0 || strncasecmp(p, "that ", 5) == 0 ||
				   strncasecmp(p, "it ", 3) == 0))
			return NULL;
	}
	/* an underlined or framed identifier ("bzImage_cgroups_preempt",
	 * "sched1-4-58") names a build */
	if ((under || marked || colon) && words == 1 && !named) {
		const char *c;
		int sep = 0, alpha = 0;
		for (c = p; c < end; c++) {
			if ((*c == '_' || *c == '-') && c > p && c + 1 < end &&
			    isalnum((unsigned char)c[-1]) && isalnum((unsigned char)c[1]))
				sep = 1;
			alpha |= isalpha((unsigned char)*c) != 0;
		}
		if (sep && alpha && end - p >= 5)
			named = 1;
	}
	/* a mailer's "-----Original Message-----", "---------- Forwarded message" */
	if ((end - p == 16 && strncasecmp(p, "Original Message", 16) == 0) ||
	    (end - p >= 17 && strncasecmp(p, "Forwarded message", 17) == 0))
		return NULL;
	if (has_eq && !named && words == 1 && !memchr(p, ' ', (size_t)(end - p))) {
		/* "cpusched=staircase", "sched_compute=1": a boot or sysctl
		 * setting names the kernel under test; "groups=10" is a config */
		static const char *const config_keys[] = {
			"groups", "loops", "mode", "ipc", "tasks", "jobs", "load", "test", "datasize",
			"threads", "runs", "nr", "n", "g", "l", "j", "t", "instance", "label", "cmd",
			"command", "impl", "iterations", "size", "cpus", "nodes",
		};
		const char *eq = memchr(p, '=', (size_t)(end - p)), *c;
		size_t klen = (size_t)(eq - p);
		int ok = klen > 0 && isalpha((unsigned char)*p) && eq + 1 < end;
		for (c = p; ok && c < eq; c++)
			ok = isalnum((unsigned char)*c) || *c == '_' || *c == '.';
		if (ok && word_in(config_keys, ARRAY_SIZE(config_keys), p, klen))
			ok = 0;
		if (!ok)
			return NULL;
		named = 1;
		/* the value when it is a name ("staircase"), else the setting */
		if (isalpha((unsigned char)eq[1]) && end - eq > 3)
			p = eq + 1;
	}
	if (has_eq && !named)
		return NULL;
	/* "Kernbench results with the patch": the name is what follows the
	 * heading's words */
	if (named || plain) {
		const char *w = p, *we;
		for (;;) {
			while (w < end && isspace((unsigned char)*w))
				w++;
			for (we = w; we < end && !isspace((unsigned char)*we) && *we != ','; we++)
				;
			if (we == end || we == w || !prefix_word(w, (size_t)(we - w)) ||
			    variant_word(w, (size_t)(we - w)))
				break;
			w = we;
			while (w < end && (isspace((unsigned char)*w) || *w == ','))
				w++;
		}
		p = w;
	}
	/* "16 tasks", "2x CPUs", "-j 64": a configuration, not a variant */
	if (isdigit((unsigned char)*p) && !named)
		return NULL;
	alone = (i == from || ingest_line_blank(&doc->lines[i - 1])) &&
		(i + 1 >= to || ingest_line_blank(&doc->lines[i + 1]) || under);
	/* a label is a line of its own, not a paragraph's last line
	 * ("...expired priority arrays with a single priority array:") */
	if (!marked && !bullet && i > from && !ingest_line_blank(&doc->lines[i - 1]) &&
	    doc->lines[i - 1].quote == l->quote && indent_of(&doc->lines[i - 1]) >= indent_of(l) &&
	    !is_rule_line(&doc->lines[i - 1]) && sentence_line(&doc->lines[i - 1]))
		return NULL;
	if (marked || colon || under) {
		/* a name without a word that says so must introduce the block
		 * itself ("# __flush_tlb_one"), not a paragraph ("Try calling:") */
		/* "Ebizzy results" is a section; "Kernbench results running
		 * within the container of 800 MB" says what ran */
		if (!named && (!plain || !direct || (strong_heading && plain < 2)))
			return NULL;
		/* "On Mon, 7 Oct 2002, Erich Focht wrote:" ends in ':' too */
		if (colon && !marked && !under && words > 5 && !named)
			return NULL;
	} else if ((!alone && !bullet) || !named || words > 5) {
		return NULL;
	}
	return arena_strndup(&b->arena, p, (size_t)(end - p));
}

/* A sentence that introduces output and names its side in passing:
 * "On qemu, before this patch, hackbench gives:", "With the fix applied
 * I get:".  The phrase is the name ("before this patch"); a line naming
 * two sides ("with and without the patch") names none. */
static const char *phrase_label(struct rec_batch *b, const struct ingest_line *l)
{
	static struct rx side = RXI("\\b((?:before|after|with|without)\\s+(?:(?:the|this|that|my|your|his|her|our|these|those)\\s+)?"
				    "(?:patch|patches|patchset|patch\\s+set|series|change|changes|fix|commit|revert))\\b");
	struct rx_cap cap[2];
	const char *end = l->s + l->len, *rest;

	while (end > l->s && isspace((unsigned char)end[-1]))
		end--;
	if (end == l->s || end[-1] != ':' || end - l->s > 160 || !memchr(l->s, ' ', l->len))
		return NULL;
	if (rx_match(&side, l->s, (size_t)(end - l->s), cap, 2) != 2)
		return NULL;
	rest = cap[1].s + cap[1].len;
	if (rx_match(&side, rest, (size_t)(end - rest), cap + 1, 1) > 0)
		return NULL;
	{
		static struct rx both = RXI("\\b(?:with|before)\\s+and\\s+(?:without|after)\\b");
		struct rx_cap c2[1];
		if (rx_match(&both, l->s, l->len, c2, 1) > 0)
			return NULL;
	}
	return arena_strndup(&b->arena, cap[1].s, cap[1].len);
}

/* A commit named on a line of its own, "a2e90611b9f4 - sched/fair:
 * Remove capacity inversion detection" or "829c1651e9c4 ("sched/fair:
 * ...")": the tree it names was measured. */
static int commit_line(const struct ingest_line *l)
{
	static struct rx commit = RX("^\\s*(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}"
				     "(?:\\s+(?:-\\s+|\\(\"?)\\S.{0,120})?\\s*$");
	struct rx_cap c[1];

	if (!l->len || l->len > 160)
		return 0;
	return rx_match(&commit, l->s, l->len, c, 1) > 0;
}

/* The blanks before a line's first character. */
static size_t indent_of(const struct ingest_line *l)
{
	size_t k = 0;

	while (k < l->len && l->s[k] == ' ')
		k++;
	return k;
}

/* A line that is a kernel release and nothing else: "2.4.23",
 * "2.6.2-rc3-mm1-np3", "v6.8-rc4", "5.10.0+". */
static int release_line(const struct ingest_line *l)
{
	/* (a number alone, "313.17", is no release: two dots, a suffix or a v) */
	/* (and the release may be followed by where its results are:
	 * "2.6.4-s http://www.osdl.org/projects/kernbench/results/...") */
	static struct rx rel = RX("^\\s*(?:v\\d+\\.\\d+(?:\\.\\d+)*(?:[-+~][A-Za-z0-9_.+~-]*)?|"
				  "\\d+\\.\\d+\\.\\d+(?:\\.\\d+)*(?:[-+~][A-Za-z0-9_.+~-]*)?|"
				  "\\d+\\.\\d+[-+~](?:[A-Za-z0-9_.+~-]*))(?:\\s+<?https?://\\S+)?\\s*$");
	struct rx_cap c[1];
	char ch = 0;
	size_t k;

	for (k = 0; k < l->len && !ch; k++)
		if (l->s[k] != ' ')
			ch = l->s[k];
	if (!(ch == 'v' || (ch >= '0' && ch <= '9')) || l->len > 200)
		return 0;
	return rx_match(&rel, l->s, l->len, c, 1) > 0;
}

/* A sentence ending in ':' right before the output that names one
 * kernel release in passing ("Also note that 2.4.x exhibits even
 * greater delta:", "On 6.1-rc2 we get:"): the release.  NULL when it
 * names none or more than one ("2.6.8 vs 2.6.9:"). */
static const char *release_in_sentence(struct rec_batch *b, const struct ingest_line *l)
{
	static struct rx rel = RX("(?<![\\w.+-])(v\\d+\\.\\d+(?:\\.\\d+)*(?:[-+~][A-Za-z0-9_.+~-]*[A-Za-z0-9+])?|"
				  "\\d+\\.\\d+\\.\\d+(?:\\.\\d+)*(?:[-+~][A-Za-z0-9_.+~-]*[A-Za-z0-9+])?|"
				  "\\d+(?:\\.\\d+)*\\.x|"
				  "\\d+\\.\\d+[-+~][A-Za-z0-9_.+~-]*[A-Za-z0-9+])(?![\\w+-]|\\.\\w)");
	struct rx_cap c[2];
	const char *end = l->s + l->len, *rest;

	while (end > l->s && isspace((unsigned char)end[-1]))
		end--;
	if (end == l->s || end[-1] != ':' || l->len > 200 || !sentence_line(l))
		return NULL;
	if (rx_match(&rel, l->s, (size_t)(end - l->s), c, 2) != 2)
		return NULL;
	rest = c[1].s + c[1].len;
	if (rx_match(&rel, rest, (size_t)(end - rest), c, 1) > 0)
		return NULL;
	rx_match(&rel, l->s, (size_t)(end - l->s), c, 2);
	return arena_strndup(&b->arena, c[1].s, c[1].len);
}

/* A comma followed by a clause of three words or more ("With this
 * patch, the numbers change:"), not by a qualifier ("Before this patch,
 * schedutil:"). */
static int clause_after_comma(const struct ingest_line *l)
{
	const char *c = memchr(l->s, ',', l->len), *end = l->s + l->len, *q;
	size_t words = 0;

	if (!c)
		return 0;
	for (q = c + 1; q < end; q++)
		if (!isspace((unsigned char)*q) && *q != ':' && isspace((unsigned char)q[-1]))
			words++;
	return words >= 3;
}

/* A sentence that starts by naming its side and then says what it
 * shows: "Without a temp buffer we have:", "With the fix I get:".  The
 * words before the pronoun or verb are the name; NULL when the line does
 * not start with a side's word or leaves fewer than two words. */
static const char *side_before_verb(struct rec_batch *b, const struct ingest_line *l)
{
	static struct rx side = RXI("^\\s*((?:with|without|before|after)\\s+.*?)\\s*,?\\s+"
				    "(?:we|i|you|it|they|this|that|there)\\b");
	struct rx_cap c[2];
	const char *end = l->s + l->len, *p, *e;
	size_t words = 0;
	const char *q;

	while (end > l->s && isspace((unsigned char)end[-1]))
		end--;
	if (end == l->s || end[-1] != ':' || rx_match(&side, l->s, (size_t)(end - l->s), c, 2) != 2)
		return NULL;
	p = c[1].s;
	e = c[1].s + c[1].len;
	while (e > p && (e[-1] == ',' || isspace((unsigned char)e[-1])))
		e--;
	for (q = p; q < e; q++)
		if (!isspace((unsigned char)*q) && (q == p || isspace((unsigned char)q[-1])))
			words++;
	if (words < 2 || words > 6)
		return NULL;
	return arena_strndup(&b->arena, p, (size_t)(e - p));
}

/* The variant label that introduces the output at line index to: the
 * last label line among the prose lines [from, to).  Sets *at to its
 * index. */
/*
 * "echo NO_WAKEUP_BIAS_PREV_IDLE > /sys/kernel/debug/sched/features" (or
 * /sys/kernel/debug/sched_features, behind a prompt or sudo): the run
 * below it is the kernel with that scheduler feature off (NO_...) or on.
 * The feature as written is the variant's name; NULL for any other line.
 */
static const char *sched_feature(struct rec_batch *b, const struct ingest_line *l)
{
	static struct rx feat = RX("^\\s*(?:[$#%]\\s*)?(?:sudo\\s+)?echo\\s+['\"]?((?:NO_)?[A-Z][A-Z0-9_]*)"
				   "['\"]?\\s*>>?\\s*\\S*/sched(?:_features|/features)\\s*$");
	struct rx_cap cap[2];

	if (rx_match(&feat, l->s, l->len, cap, 2) != 2)
		return NULL;
	return arena_strndup(&b->arena, cap[1].s, cap[1].len);
}

static const char *find_variant_label(struct rec_batch *b, const struct ingest_doc *doc,
				      size_t from, size_t to, size_t *at)
{
	size_t i = to;
	int direct = 1;     /* only blanks, rules and commands after the line */
	int gap = 0;        /* prose lines between the line and the block */

	size_t block_indent = to < doc->nlines ? indent_of(&doc->lines[to]) : 0;

	while (i > from) {
		const struct ingest_line *l = &doc->lines[i - 1];
		const char *lb;
		/* a scheduler feature set right before the run names its side */
		if (direct && (lb = sched_feature(b, l)) != NULL) {
			*at = i - 1;
			return lb;
		}
		if (ingest_line_blank(l) || is_rule_line(l) || command_line(l)) {
			i--;
			continue;
		}
		/* a line set in deeper than the block ("        after hackbench:"
		 * in an indented list above "    Time: 189.947") is a list's
		 * item, not the block's label */
		if (indent_of(l) > block_indent + 2) {
			direct = 0;
			gap++;
			i--;
			continue;
		}
		{
			/* "..., hackbench gives:" is a sentence: its phrase is the name */
			static struct rx says = RXI("\\b(?:gives?|gave|gets?|got|getting|shows?|showed|see|saw|"
						    "looks?|reports?|yields?|is|are|was|were|have|has|had|measured|ran)\\b");
			struct rx_cap c1[1];
			const char *pl = phrase_label(b, l);
			static struct rx we = RXI("^\\s*(?:i|we|you|here|there|so|and|but|then)\\b");
			int sentence = rx_match(&says, l->s, l->len, c1, 1) > 0 ||
				       rx_match(&we, l->s, l->len, c1, 1) > 0;
			if (pl && (sentence || clause_after_comma(l)))
				lb = pl;    /* "With this patch, the numbers change:" */
			else if (sentence)
				lb = side_before_verb(b, l); /* "Without a temp buffer we have:" */
			else
				lb = variant_label(b, doc, i - 1, from, to, direct);
			if (!lb)
				lb = pl;
			/* a kernel release alone on its line, a line or two above
			 * the output ("2.6.2-rc3-mm1-np3" over "kbuild: make -j24") */
			if (!lb && gap < 3 && commit_line(l))
				lb = arena_strndup(&b->arena, str_skip_ws(l->s, l->s + l->len),
						   (size_t)(l->s + str_rtrim_len(l->s, l->len) -
							    str_skip_ws(l->s, l->s + l->len)));
			/* "Also note that 2.4.x exhibits even greater delta:" */
			if (!lb && direct)
				lb = release_in_sentence(b, l);
			if (!lb && gap < 3 && release_line(l)) {
				const char *r = str_skip_ws(l->s, l->s + l->len), *e = r;
				while (e < l->s + l->len && *e != ' ')
					e++;
				lb = arena_strndup(&b->arena, r, (size_t)(e - r));
			}
		}
		direct = 0;
		gap++;
		if (lb) {
			*at = i - 1;
			return lb;
		}
		i--;
	}
	return NULL;
}

/* The last label line among the prose lines [from, to). */
static const char *find_label(struct rec_batch *b, const struct ingest_doc *doc, size_t from,
			      size_t to, size_t *at)
{
	size_t i;

	for (i = to; i > from; i--) {
		const char *lb;
		if (ingest_line_blank(&doc->lines[i - 1]))
			continue;
		/* the mail a reply quotes labels none of the reply's blocks
		 * ("> Signed-off-by: ..." over "> ---") */
		if (to < doc->nlines && doc->lines[i - 1].quote != doc->lines[to].quote)
			continue;
		lb = label_of(b, doc, i - 1, from, to);
		if (lb) {
			*at = i - 1;
			return lb;
		}
	}
	return NULL;
}

/* Line i is a heading: underlined, or marked with '#', '==' or '**'. */
static int section_heading(const struct ingest_doc *doc, size_t i, size_t to)
{
	const char *p = doc->lines[i].s, *end = p + doc->lines[i].len;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '#' || (end - p > 1 && (*p == '=' || *p == '*') && p[1] == *p)))
		return 1;
	return i + 1 < to && is_rule_line(&doc->lines[i + 1]);
}

/* Line i is a short label alone: blank (or nothing) above and below
 * (below: before index to), at most four words, ending in ':'. */
static int lone_colon_line(const struct ingest_doc *doc, size_t i, size_t to)
{
	const struct ingest_line *l = &doc->lines[i];
	size_t len = str_rtrim_len(l->s, l->len), words = 0, k;

	if (len < 2 || l->s[len - 1] != ':' || len > 60)
		return 0;
	if (i > 0 && !ingest_line_blank(&doc->lines[i - 1]))
		return 0;
	if (i + 1 < to && !ingest_line_blank(&doc->lines[i + 1]))
		return 0;
	for (k = 0; k < len; k++)
		if (!isspace((unsigned char)l->s[k]) && (k == 0 || isspace((unsigned char)l->s[k - 1])))
			words++;
	return words <= 4 && !memchr(l->s, '=', len);
}

/* Nothing named any run or summary of the segment. */
static int segment_unnamed(const struct rec_batch *b, const struct rec_segment *sg)
{
	size_t i;

	if (!sg->nruns && !sg->nsums)
		return 0;
	for (i = sg->run_first; i < sg->run_first + sg->nruns && i < b->nruns; i++)
		if (b->runs[i]->variant)
			return 0;
	for (i = sg->sum_first; i < sg->sum_first + sg->nsums && i < b->nsummaries; i++)
		if (b->summaries[i]->variant)
			return 0;
	return 1;
}

/* A line of a person's prose: five or more words of letters, most of
 * the line ("This shows that the patch helps." but not "gcc numa01.c -O2
 * -o numa01" or "Hyper-Threading IS enabled."). */
static int sentence_line(const struct ingest_line *l)
{
	const char *p = l->s, *end = l->s + l->len;
	size_t words = 0, tokens = 0;

	while (p < end) {
		const char *w;
		int letters = 1;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end)
			break;
		for (w = p; p < end && !isspace((unsigned char)*p); p++)
			if (!isalpha((unsigned char)*p) && !(p + 1 == end || isspace((unsigned char)p[1])
							   ? strchr(",.:;!?)'\"", *p) != NULL : *p == '\''))
				letters = 0;
		tokens++;
		words += letters && p > w;
	}
	return words >= 5 && words * 10 >= tokens * 6;
}

/* The sentence right before a block (only blank lines between), as the
 * block's label when nothing else tells it apart; NULL when none. */
static const char *intro_line(struct rec_batch *b, const struct ingest_doc *doc, size_t from,
			      size_t to)
{
	size_t i = to;
	const char *p, *end;

	size_t k, words = 0;

	while (i > from && ingest_line_blank(&doc->lines[i - 1]))
		i--;
	if (i == from || to - i > 2 || is_rule_line(&doc->lines[i - 1]) || command_line(&doc->lines[i - 1]))
		return NULL;
	p = doc->lines[i - 1].s;
	end = p + doc->lines[i - 1].len;
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && (isspace((unsigned char)end[-1]) || strchr(".:,;", end[-1])))
		end--;
	for (k = 0; p + k < end; k++)
		if (!isspace((unsigned char)p[k]) && (k == 0 || isspace((unsigned char)p[k - 1])))
			words++;
	/* a sentence of its own, not the end of a paragraph */
	if (words >= 3 && end - p <= 80 && (i - 1 == from || ingest_line_blank(&doc->lines[i - 2])))
		return arena_strndup(&b->arena, p, (size_t)(end - p));
	/* A short line ("Threads finished") may be the program's own: the
	 * block is told apart by where it is, when prose stands before it. */
	for (k = from; k < to; k++)
		if (sentence_line(&doc->lines[k]))
			return arena_printf(&b->arena, "line %ld", doc->lines[to].lineno);
	return NULL;
}

/* One run or summary of a segment, by what may fall together with
 * another's: benchmark, variant, configuration (and metric). */
struct item_key {
	const char *key;
	size_t seg;
	const char *label;
	const char *title;      /* the segment's own title, or NULL */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->seg < y->seg ? -1 : x->seg > y->seg;
}

static const char *run_key(struct rec_batch *b, struct rec_run *r)
{
	return arena_printf(&b->arena, "r\x1f%s\x1f%s\x1f%s\x1f%s", r->benchmark,
			    r->variant ? r->variant : "", r->machine ? r->machine : "",
			    rec_config_string(&b->arena, r->config, r->nconfig));
}

static const char *summary_key(struct rec_batch *b, struct rec_summary *s)
{
	return arena_printf(&b->arena, "s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s", s->benchmark,
			    s->variant ? s->variant : "", s->machine ? s->machine : "", s->metric,
			    rec_config_string(&b->arena, s->config, s->nconfig));
}

static void set_label(struct rec_batch *b, struct rec_segment *sg, const char *label)
{
	size_t i;

	for (i = sg->run_first; i < sg->run_first + sg->nruns; i++)
		rec_run_config(b, b->runs[i], "label", label);
	for (i = sg->sum_first; i < sg->sum_first + sg->nsums; i++)
		rec_summary_config(b, b->summaries[i], "label", label);
}

/* Blocks that their own text names alike ("4.13.0-rc5+" twice) but whose
 * variant labels differ ("# __flush_tlb_one", "# flush_tlb_kernel_range()")
 * are two variants: the label is the name, the old name the kernel. */
static void rename_to_label(struct rec_batch *b, struct rec_segment *sg, const char *label)
{
	size_t i;

	for (i = sg->run_first; i < sg->run_first + sg->nruns; i++) {
		struct rec_run *r = b->runs[i];
		if (!r->kernel && r->variant)
			r->kernel = r->variant;
		r->variant = label;
	}
	for (i = sg->sum_first; i < sg->sum_first + sg->nsums; i++) {
		struct rec_summary *s = b->summaries[i];
		if (s->variant && !s->variant_desc)
			s->variant_desc = arena_printf(&b->arena, "kernel %s", s->variant);
		s->variant = label;
	}
	sg->evidence = arena_printf(&b->arena, "its label line names it (the blocks' own name "
				    "is the same)");
}

/* Whether every run and summary of the segment has one variant: a block
 * comparing several (a table with a column per kernel) is not renamed to
 * its label line, which names what they all ran on. */
static int segment_one_variant(struct rec_batch *b, const struct rec_segment *sg)
{
	const char *one = NULL;
	size_t i;

	for (i = sg->run_first; i < sg->run_first + sg->nruns && i < b->nruns; i++) {
		const char *v = b->runs[i]->variant;
		if (one && v && strcmp(one, v) != 0)
			return 0;
		if (v)
			one = v;
	}
	for (i = sg->sum_first; i < sg->sum_first + sg->nsums && i < b->nsummaries; i++) {
		const char *v = b->summaries[i]->variant;
		if (one && v && strcmp(one, v) != 0)
			return 0;
		if (v)
			one = v;
	}
	return 1;
}

/* A variant name where it is used, for one_spelling(). */
struct spelled {
	const char **name;
	long line;
};

static int cmp_spelled(const void *a, const void *b)
{
	const struct spelled *x = a, *y = b;
	int c = strcasecmp(*x->name, *y->name);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * One post spells one variant one way: "AutoNUMA" in its table and
 * "autoNUMA:" over its perf counters are the same kernel, and a
 * comparison of the two must not find two variants that differ only in
 * case.  Every use takes the spelling seen first (legend, label or
 * table), and --explain says where it was changed.  n log n.
 */
static void one_spelling(struct rec_batch *b)
{
	struct spelled *v = NULL;
	size_t n = 0, cap = 0, i, e;

	for (i = 0; i < b->nvariants; i++) {
		xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n].name = &b->variants[i].name;
		v[n++].line = b->variants[i].line;
	}
	for (i = 0; i < b->nruns; i++) {
		if (!b->runs[i]->variant)
			continue;
		xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n].name = &b->runs[i]->variant;
		v[n++].line = b->runs[i]->line;
	}
	for (i = 0; i < b->nsummaries; i++) {
		if (!b->summaries[i]->variant)
			continue;
		xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n].name = &b->summaries[i]->variant;
		v[n++].line = b->summaries[i]->line;
		if (b->summaries[i]->pub_base) {
			xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n].name = &b->summaries[i]->pub_base;
			v[n++].line = b->summaries[i]->line;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_spelled);
	for (i = 0; i < n; i = e) {
		const char *first = *v[i].name;
		long said = 0;
		for (e = i + 1; e < n && !strcasecmp(*v[e].name, first); e++) {
			if (!strcmp(*v[e].name, first))
				continue;
			if (said != v[e].line)
				rec_note(b, v[e].line, "variant '%s' is '%s' of line %ld, spelled "
					 "another way: read as '%s'", *v[e].name, first, v[i].line, first);
			said = v[e].line;
			*v[e].name = first;
		}
	}
	free(v);
}

/*
 * hackbench's "Time: 189.947" printed right before the perf stat report
 * of the command that ran it ("Performance counter stats for 'hackbench
 * -g 4 -l 10000'"): the report's command says what the run was (groups,
 * loops, mode), when hackbench's own output leaves it out.
 */
static void perf_command_config(const struct ingest_doc *doc, struct rec_batch *b,
				const struct ingest_span *spans)
{
	size_t k, i, j;

	for (k = 0; k + 1 < b->nsegments; k++) {
		const struct rec_segment *hb = &b->segments[k], *ps = &b->segments[k + 1];
		const char *cmd = NULL;
		int open = 1;

		if (strcmp(hb->format, "hackbench") || strcmp(ps->format, "perf-stat") || !hb->nruns ||
		    !ps->nruns)
			continue;
		for (j = spans[k].end; j < spans[k + 1].first && open; j++)
			open = ingest_line_blank(&doc->lines[j]);
		for (i = hb->run_first; open && i < hb->run_first + hb->nruns; i++)
			open = !rec_run_config_get(b->runs[i], "groups") &&
			       !rec_run_config_get(b->runs[i], "tasks");
		if (!open || !(cmd = rec_run_config_get(b->runs[ps->run_first], "cmd")))
			continue;
		for (i = hb->run_first; i < hb->run_first + hb->nruns; i++)
			if (hackbench_cmd_config(b, doc->path, cmd, b->runs[i], b->runs[i]->line))
				rec_note(b, b->runs[i]->line, "hackbench: its configuration is that of "
					 "'%s', the command perf stat reports on right below it", cmd);
	}
}

/* The sched-feature lines right above a block: one upper-case name a
 * line ("NO_DELAY_DEQUEUE", "DELAY_ZERO"), only such lines between them
 * and the block, at the block's quoting depth.  Returns the first line's
 * index and sets *n to how many (0: none). */
static size_t feature_lines(const struct ingest_doc *doc, size_t from, size_t to, size_t *n)
{
	size_t i = to;

	*n = 0;
	while (i > from) {
		const struct ingest_line *l = &doc->lines[i - 1];
		const char *p = str_skip_ws(l->s, l->s + l->len);
		size_t len = (size_t)(l->s + str_rtrim_len(l->s, l->len) - p), k;
		int ok = len >= 3 && len <= 40 && l->quote == doc->lines[to].quote &&
			 isupper((unsigned char)p[0]);
		for (k = 0; ok && k < len; k++)
			ok = isupper((unsigned char)p[k]) || isdigit((unsigned char)p[k]) || p[k] == '_';
		if (!ok)
			break;
		(*n)++;
		i--;
	}
	return i;
}

/* Lines a[0..n) and c[0..m) name the same sched features, some of them
 * turned the other way ("NO_DELAY_DEQUEUE" / "DELAY_DEQUEUE"). */
static int features_toggled(const struct ingest_doc *doc, size_t a, size_t n, size_t c, size_t m)
{
	size_t k;
	int toggled = 0;

	if (n == 0 || n != m)
		return 0;
	for (k = 0; k < n; k++) {
		const struct ingest_line *x = &doc->lines[a + k], *y = &doc->lines[c + k];
		const char *p = str_skip_ws(x->s, x->s + x->len), *q = str_skip_ws(y->s, y->s + y->len);
		size_t pl = (size_t)(x->s + str_rtrim_len(x->s, x->len) - p);
		size_t ql = (size_t)(y->s + str_rtrim_len(y->s, y->len) - q);
		int pn = pl > 3 && strncmp(p, "NO_", 3) == 0, qn = ql > 3 && strncmp(q, "NO_", 3) == 0;
		if (pn)
			p += 3, pl -= 3;
		if (qn)
			q += 3, ql -= 3;
		if (pl != ql || strncmp(p, q, pl) != 0)
			return 0;
		toggled |= pn != qn;
	}
	return toggled;
}

/* A heading over a block: "Before patch:", "socket mode:" -- short, ends
 * in ':'. */
static int short_heading(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len);
	size_t n = str_rtrim_len(p, (size_t)(l->s + l->len - p));

	return n >= 2 && n <= 48 && p[n - 1] == ':';
}

/* A heading that says what a hackbench command says ("pipe mode:",
 * "threads:"): the command above it is not the one of the blocks below. */
static int mode_heading(const struct ingest_line *l)
{
	static struct rx says = RXI("pipe|socket|thread|process");
	struct rx_cap c[1];

	return short_heading(l) && rx_match(&says, l->s, l->len, c, 1) > 0;
}

/*
 * A hackbench command alone in the prose above a block of its output
 * (under a blank line or a heading: not a line of a script), with only
 * headings and blank lines between ("hackbench -g 16 -f 20
 * --pipe -l 480000 -s 100" / "" / "Before patch:" / Running ... Time:):
 * the output never prints pipes or sockets, the command does.  It serves
 * the blocks after it, across headings and blank lines, up to any other
 * prose line, a heading that names a mode ("pipe mode:": the author says
 * what the command no longer does), or output that carries its own
 * command; and only runs
 * whose printed groups, loops, data size and mode it agrees with: a
 * command that disagrees names another run, and none is used.  Linear:
 * each prose line is looked at once going back from its block.
 */
static void prose_command_config(const struct ingest_doc *doc, struct rec_batch *b,
				 const struct ingest_span *spans)
{
	const struct ingest_line *cmd = NULL;   /* the command in force */
	size_t k, i;

	for (k = 0; k < b->nsegments; k++) {
		const struct rec_segment *sg = &b->segments[k];
		const struct ingest_line *found = NULL;
		size_t j = spans[k].first;
		int open = 1, ok = 1;

		/* back through the prose: headings and blank lines, then the
		 * command, or anything else, which ends the one in force */
		while (j > spans[k].prose_first) {
			const struct ingest_line *l = &doc->lines[--j];
			if (mode_heading(l)) {
				open = 0;
				break;
			}
			if (ingest_line_blank(l) || short_heading(l))
				continue;
			/* alone: a line of a script (commands one under another)
			 * is the script's, not this output's */
			if (hackbench_cmd_fill(b, doc->path, l, NULL, 0) &&
			    (j == spans[k].prose_first || ingest_line_blank(&doc->lines[j - 1]) ||
			     short_heading(&doc->lines[j - 1])))
				found = l;
			else
				open = 0;
			break;
		}
		if (found)
			cmd = found;
		else if (!open || (k && spans[k].prose_first != spans[k - 1].end))
			cmd = NULL;
		if (!cmd || strcmp(sg->format, "hackbench") || !sg->nruns)
			continue;
		for (i = sg->run_first; ok && i < sg->run_first + sg->nruns; i++)
			ok = !rec_run_config_get(b->runs[i], "ipc") &&
			     doc->lines[spans[k].first].quote == cmd->quote &&
			     hackbench_cmd_fill(b, doc->path, cmd, b->runs[i], 0);
		if (!ok)
			continue;
		for (i = sg->run_first; i < sg->run_first + sg->nruns; i++) {
			hackbench_cmd_fill(b, doc->path, cmd, b->runs[i], 1);
			rec_note(b, b->runs[i]->line, "hackbench: pipes or sockets from the command "
				 "'%.*s' of line %ld above it, which asks for the groups and loops it "
				 "printed", (int)cmd->len, cmd->s, cmd->lineno);
		}
	}
}

void ingest_attribute(const struct ingest_doc *doc, struct rec_batch *b,
		      const struct ingest_span *spans)
{
	struct names ns = { NULL, 0, 0 };
	size_t i, k;
	char *labelled;

	struct cells cs = { NULL, 0 };
	int unnamed = 0;
	const char *label_var = NULL;   /* the variant label in force */
	size_t label_at = 0;
	size_t feat_at = 0, nfeat = 0;  /* the last block's sched-feature lines */
	const char **vlabel = xcalloc(b->nsegments + 1, sizeof(*vlabel));
	char *vlabel_same = xcalloc(b->nsegments + 1, 1);  /* its label line is a variant label */

	/* The post's names and published cells serve only runs that nothing
	 * named: most files have none. */
	for (i = 0; i < b->nruns && !unnamed; i++)
		unnamed = b->runs[i]->variant == NULL;
	for (i = 0; unnamed && i < b->nsummaries; i++)
		names_add(&ns, b->summaries[i]->variant);
	for (i = 0; unnamed && i < b->nvariants; i++)
		names_add(&ns, b->variants[i].name);
	names_sort(&ns);
	if (unnamed)
		cells_build(b, &cs);

	for (k = 0; k < b->nsegments; k++) {
		struct rec_segment *sg = &b->segments[k];

		/* The prose before a segment is read once for all its runs, and
		 * only when the post has variant names to find in it. */
		const char *prose = NULL, *prose_ev = NULL, *lv;
		int prose_read = !ns.n, label_wins;
		size_t lv_at = 0, own_at = 0;

		sg->label = find_label(b, doc, spans[k].prose_first, spans[k].first, &own_at);
		/* A variant label names every block after it, up to the next
		 * label, legend or kernel line. */
		lv = find_variant_label(b, doc, spans[k].prose_first, spans[k].first, &lv_at);
		/* a label names blocks at its own quoting depth: not the
		 * earlier mail a reply quotes, nor the reply around a quote */
		if (lv && doc->lines[lv_at].quote != doc->lines[spans[k].first].quote)
			lv = NULL;
		if (!lv && label_var && doc->lines[label_at].quote != doc->lines[spans[k].first].quote)
			label_var = NULL;
		/* "tips numa/core:" then "autoNUMA:", each alone over a block
		 * of the same format: a label of the same shape as the variant
		 * label in force names the next side, even when its word could
		 * be a heading's (a benchmark's name) */
		if (!lv && label_var && sg->label && k > 0 && label_at < own_at &&
		    doc->lines[own_at].quote == doc->lines[label_at].quote &&
		    lone_colon_line(doc, own_at, spans[k].first) &&
		    lone_colon_line(doc, label_at, doc->nlines) &&
		    !strcmp(b->segments[k - 1].format, sg->format) && strcmp(sg->label, label_var)) {
			lv = sg->label;
			lv_at = own_at;
		}
		{
			/* "baseline:" / "NO_DELAY_DEQUEUE" / "NO_DELAY_ZERO" over a
			 * block, then "DELAY_DEQUEUE" / "DELAY_ZERO" over the next:
			 * the same features turned the other way are the other side,
			 * named by its feature lines, not more of the label's */
			size_t nf, fa = feature_lines(doc, spans[k].prose_first, spans[k].first, &nf);
			if (!lv && label_var && k > 0 && label_at < fa &&
			    features_toggled(doc, feat_at, nfeat, fa, nf)) {
				struct buf nb = BUF_INIT;
				size_t j;
				for (j = fa; j < fa + nf; j++) {
					const struct ingest_line *l = &doc->lines[j];
					const char *p = str_skip_ws(l->s, l->s + l->len);
					buf_printf(&nb, "%s%.*s", j > fa ? " " : "",
						   (int)(l->s + str_rtrim_len(l->s, l->len) - p), p);
				}
				lv = arena_strdup(&b->arena, buf_str(&nb));
				buf_release(&nb);
				lv_at = fa;
			}
			feat_at = fa;
			nfeat = nf;
		}
		if (lv) {
			label_var = lv;
			label_at = lv_at;
		} else if (spans[k].ctx_at > spans[k].prose_first) {
			label_var = NULL;
		} else if (sg->label && section_heading(doc, own_at, spans[k].first)) {
			/* a section's heading that names no variant ("Ebizzy
			 * results" over "-----"): what came before is another
			 * section's; a plain label ("numa02", "-j 16") is this
			 * block's test or load, under the same variant */
			label_var = NULL;
		}
		/* A kernel line ("Kernel 2.6.16" of kernbench's own output) says
		 * what both sides of a comparison ran: the label names them. */
		label_wins = label_var && (!spans[k].ctx_variant || spans[k].ctx_kernel ||
					   label_at + 1 > spans[k].ctx_at);
		vlabel[k] = lv ? lv : label_var;
		vlabel_same[k] = lv && sg->label && lv_at == own_at;
		for (i = sg->sum_first; i < sg->sum_first + sg->nsums; i++) {
			struct rec_summary *s = b->summaries[i];
			if (s->variant)
				continue;
			if (label_wins) {
				s->variant = label_var;
				if (spans[k].ctx_kernel && !s->variant_desc)
					s->variant_desc = arena_printf(&b->arena, "kernel %s",
								       spans[k].ctx_variant);
				sg->evidence = arena_printf(&b->arena, "label line %ld names it",
							    doc->lines[label_at].lineno);
			} else if (spans[k].ctx_variant) {
				s->variant = spans[k].ctx_variant;
			}
		}
		for (i = sg->run_first; i < sg->run_first + sg->nruns; i++) {
			struct rec_run *r = b->runs[i];
			const char *name, *ev = NULL;

			if (r->variant)
				continue;
			if (spans[k].ctx_variant && !label_wins) {
				rec_run_variant(b, r, spans[k].ctx_variant, spans[k].ctx_desc,
						REC_ORIGIN_CONTEXT);
				continue;
			}
			name = by_numbers(b, r, &cs, &ev);
			if (!name && label_wins) {
				name = label_var;
				if (spans[k].ctx_kernel && !r->kernel)
					r->kernel = spans[k].ctx_variant;
				ev = arena_printf(&b->arena, "label line %ld names it",
						  doc->lines[label_at].lineno);
			}
			if (!name && !prose_read) {
				prose = by_prose(b, doc, spans[k].prose_first, spans[k].first, &ns,
						 &prose_ev);
				prose_read = 1;
			}
			if (!name && prose) {
				name = prose;
				ev = prose_ev;
			}
			if (!name && sg->label) {
				/* A label line that is one of the post's variants. */
				size_t v = names_lower(&ns, sg->label, strlen(sg->label));
				if (v < ns.n && strcmp(ns.v[v], sg->label) == 0)
					name = ns.v[v];
				if (name)
					ev = arena_printf(&b->arena, "its label line names '%s'", name);
			}
			if (!name)
				continue;
			rec_run_variant(b, r, name, NULL, REC_ORIGIN_CONTEXT);
			sg->evidence = ev;
		}
		/* A summary of the segment's own runs (the author's average
		 * under them) is theirs: it takes their variant when they all
		 * have the one. */
		{
			const char *one = NULL;
			int same = sg->nruns > 0;
			for (i = sg->run_first; same && i < sg->run_first + sg->nruns; i++) {
				const char *v = b->runs[i]->variant;
				if (!v || (one && strcmp(one, v) != 0))
					same = 0;
				one = v;
			}
			for (i = sg->sum_first; same && i < sg->sum_first + sg->nsums; i++)
				if (!b->summaries[i]->variant)
					b->summaries[i]->variant = one;
		}
	}

	/* Two segments with the same variant, benchmark and configuration
	 * and different labels stay two groups: sort every run and summary
	 * by that key (n log n, whatever the file holds) and look within
	 * each key for labels that differ. */
	labelled = xcalloc(b->nsegments + 1, 1);
	{
		struct item_key *it;
		size_t n = 0, cap = 0, a, e, any = 0;

		/* Blocks that nothing named, each introduced by a sentence of
		 * its own ("ebizzy on top of rc2-mm2 gave this", "ebizzy with
		 * 2500 pages"), are not pooled either: the sentence keeps them
		 * apart until a user names them (relabel). */
		for (k = 0; k < b->nsegments; k++) {
			struct rec_segment *sg = &b->segments[k];
			size_t j = spans[k].prose_first;
			while (j < spans[k].first && ingest_line_blank(&doc->lines[j]))
				j++;
			/* a block right after another (blank lines between) is
			 * under the other's label */
			if (!sg->label && k > 0 && j == spans[k].first)
				sg->label = b->segments[k - 1].label;
			else if (!sg->label && segment_unnamed(b, sg))
				sg->label = intro_line(b, doc, spans[k].prose_first, spans[k].first);
			any |= sg->label != NULL || sg->title != NULL;
		}
		it = NULL;
		for (k = 0; any && k < b->nsegments; k++) {
			struct rec_segment *sg = &b->segments[k];
			for (i = sg->run_first; i < sg->run_first + sg->nruns && i < b->nruns; i++) {
				xgrow(&it, &cap, n + 1, sizeof(*it));
				it[n].key = run_key(b, b->runs[i]);
				it[n].seg = k;
				it[n].title = sg->title;
				it[n++].label = sg->label;
			}
			for (i = sg->sum_first; i < sg->sum_first + sg->nsums && i < b->nsummaries; i++) {
				xgrow(&it, &cap, n + 1, sizeof(*it));
				it[n].key = summary_key(b, b->summaries[i]);
				it[n].seg = k;
				it[n].title = sg->title;
				it[n++].label = sg->label;
			}
		}
		if (n)
			qsort(it, n, sizeof(*it), cmp_item);
		for (a = 0; a < n; a = e) {
			int differ = 0, tdiffer = 0;
			for (e = a + 1; e < n && strcmp(it[e].key, it[a].key) == 0; e++) {
				if (it[e].seg != it[a].seg &&
				    (!it[e].label != !it[a].label ||
				     (it[e].label && strcmp(it[e].label, it[a].label) != 0)))
					differ = 1;
				/* two blocks under their own titles, the titles
				 * different ("dbench4 Loadfile Execution Time", "dbench4
				 * All Clients Loadfile Execution Time"): two measures */
				if (it[e].seg != it[a].seg && it[e].title && it[a].title &&
				    strcmp(it[e].title, it[a].title) != 0)
					tdiffer = 1;
			}
			for (i = a; differ && i < e; i++)
				if (it[i].label)
					labelled[it[i].seg] = 1;
			for (i = a; tdiffer && !differ && i < e; i++)
				if (!labelled[it[i].seg])
					labelled[it[i].seg] = 2;
		}
		free(it);
	}
	for (k = 0; k < b->nsegments; k++) {
		if (labelled[k] == 2) {
			b->segments[k].label = b->segments[k].title;
			set_label(b, &b->segments[k], b->segments[k].title);
			continue;
		}
		if (labelled[k] && vlabel[k] && vlabel_same[k] &&
		    segment_one_variant(b, &b->segments[k]))
			rename_to_label(b, &b->segments[k], vlabel[k]);
		else if (labelled[k])
			set_label(b, &b->segments[k], b->segments[k].label);
		else
			b->segments[k].label = NULL;	/* said only where it counts */
	}
	free(labelled);
	perf_command_config(doc, b, spans);
	prose_command_config(doc, b, spans);
	if (!b->global_labels)
		one_spelling(b);
	free(vlabel);
	free(vlabel_same);
	free(ns.v);
	free(cs.v);
}
