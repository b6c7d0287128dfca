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
#include "../core/buf.h"
#include "../core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	return strcmp(x->s->variant, y->s->variant);
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
	/* Alone: blank (or the document's edge, or the block) on both sides. */
	alone = (i == from || ingest_line_blank(&doc->lines[i - 1])) &&
		(i + 1 >= to || ingest_line_blank(&doc->lines[i + 1]));
	if (!marked && (!alone || words > 4 || end[-1] == '.' || end[-1] == ','))
		return NULL;
	return arena_strndup(&b->arena, p, (size_t)(end - p));
}

/* The last label line among the prose lines [from, to). */
static const char *find_label(struct rec_batch *b, const struct ingest_doc *doc, size_t from,
			      size_t to)
{
	size_t i;

	for (i = to; i > from; i--) {
		const char *lb;
		if (ingest_line_blank(&doc->lines[i - 1]))
			continue;
		lb = label_of(b, doc, i - 1, from, to);
		if (lb)
			return lb;
	}
	return NULL;
}

/* One run or summary of a segment, by what may fall together with
 * another's: benchmark, variant, configuration (and metric). */
struct item_key {
	const char *key;
	size_t seg;
	const char *label;
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
	return arena_printf(&b->arena, "r\x1f%s\x1f%s\x1f%s", r->benchmark,
			    r->variant ? r->variant : "",
			    rec_config_string(&b->arena, r->config, r->nconfig));
}

static const char *summary_key(struct rec_batch *b, struct rec_summary *s)
{
	return arena_printf(&b->arena, "s\x1f%s\x1f%s\x1f%s\x1f%s", s->benchmark,
			    s->variant ? s->variant : "", s->metric,
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

void ingest_attribute(const struct ingest_doc *doc, struct rec_batch *b,
		      const struct ingest_span *spans)
{
	struct names ns = { NULL, 0, 0 };
	size_t i, k;
	char *labelled;

	struct cells cs = { NULL, 0 };
	int unnamed = 0;

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
		const char *prose = NULL, *prose_ev = NULL;
		int prose_read = !ns.n;

		sg->label = find_label(b, doc, spans[k].prose_first, spans[k].first);
		for (i = sg->run_first; i < sg->run_first + sg->nruns; i++) {
			struct rec_run *r = b->runs[i];
			const char *name, *ev = NULL;

			if (r->variant)
				continue;
			name = by_numbers(b, r, &cs, &ev);
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
	}

	/* Two segments with the same variant, benchmark and configuration
	 * and different labels stay two groups: sort every run and summary
	 * by that key (n log n, whatever the file holds) and look within
	 * each key for labels that differ. */
	labelled = xcalloc(b->nsegments + 1, 1);
	{
		struct item_key *it;
		size_t n = 0, cap = 0, a, e, any = 0;

		for (k = 0; k < b->nsegments; k++)
			any |= b->segments[k].label != NULL;
		it = NULL;
		for (k = 0; any && k < b->nsegments; k++) {
			struct rec_segment *sg = &b->segments[k];
			for (i = sg->run_first; i < sg->run_first + sg->nruns && i < b->nruns; i++) {
				xgrow(&it, &cap, n + 1, sizeof(*it));
				it[n].key = run_key(b, b->runs[i]);
				it[n].seg = k;
				it[n++].label = sg->label;
			}
			for (i = sg->sum_first; i < sg->sum_first + sg->nsums && i < b->nsummaries; i++) {
				xgrow(&it, &cap, n + 1, sizeof(*it));
				it[n].key = summary_key(b, b->summaries[i]);
				it[n].seg = k;
				it[n++].label = sg->label;
			}
		}
		if (n)
			qsort(it, n, sizeof(*it), cmp_item);
		for (a = 0; a < n; a = e) {
			int differ = 0;
			for (e = a + 1; e < n && strcmp(it[e].key, it[a].key) == 0; e++)
				if (it[e].seg != it[a].seg &&
				    (!it[e].label != !it[a].label ||
				     (it[e].label && strcmp(it[e].label, it[a].label) != 0)))
					differ = 1;
			for (i = a; differ && i < e; i++)
				if (it[i].label)
					labelled[it[i].seg] = 1;
		}
		free(it);
	}
	for (k = 0; k < b->nsegments; k++) {
		if (labelled[k])
			set_label(b, &b->segments[k], b->segments[k].label);
		else
			b->segments[k].label = NULL;	/* said only where it counts */
	}
	free(labelled);
	free(ns.v);
	free(cs.v);
}
