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

/* The post's own variant names: published row labels and legends. */
struct names {
	const char **v;
	size_t n, cap;
};

static void names_add(struct names *ns, const char *name)
{
	size_t i;

	if (!name || !name[0])
		return;
	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return;
	xgrow(&ns->v, &ns->cap, ns->n + 1, sizeof(*ns->v));
	ns->v[ns->n++] = name;
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

/* Same configuration: every key of the summary has the run's value. */
static int same_config(const struct rec_run *r, const struct rec_summary *s)
{
	size_t i;

	if (s->nconfig != r->nconfig)
		return 0;
	for (i = 0; i < s->nconfig; i++) {
		const char *v = rec_run_config_get(r, s->config[i].key);
		if (!v || strcmp(v, s->config[i].value) != 0)
			return 0;
	}
	return 1;
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
static const char *by_numbers(struct rec_batch *b, const struct rec_run *r,
			      const struct names *ns, const char **evidence)
{
	const char *found = NULL;
	size_t v, i, nfound = 0;

	for (v = 0; v < ns->n; v++) {
		struct buf ev = BUF_INIT;
		size_t same = 0, differ = 0;
		long line = 0;

		for (i = 0; i < b->nsummaries; i++) {
			const struct rec_summary *s = b->summaries[i];
			double x;

			if (!s->variant || strcmp(s->variant, ns->v[v]) != 0 ||
			    strcmp(s->benchmark, r->benchmark) != 0 || isnan(s->mean) ||
			    !same_config(r, s))
				continue;
			x = run_value(r, s->metric);
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
			found = ns->v[v];
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
			for (v = 0; v < ns->n; v++) {
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

/* Segments a and b of the batch produce a run or summary of the same
 * variant, benchmark and configuration. */
static int overlap(const struct rec_batch *b, const struct rec_segment *x,
		   const struct rec_segment *y)
{
	size_t i, j;

	for (i = x->run_first; i < x->run_first + x->nruns; i++)
		for (j = y->run_first; j < y->run_first + y->nruns; j++) {
			const struct rec_run *r = b->runs[i], *s = b->runs[j];
			if (strcmp(r->benchmark, s->benchmark) == 0 &&
			    !strcmp(r->variant ? r->variant : "", s->variant ? s->variant : "") &&
			    r->nconfig == s->nconfig) {
				size_t k;
				for (k = 0; k < r->nconfig; k++) {
					const char *v = rec_run_config_get(s, r->config[k].key);
					if (!v || strcmp(v, r->config[k].value) != 0)
						break;
				}
				if (k == r->nconfig)
					return 1;
			}
		}
	for (i = x->sum_first; i < x->sum_first + x->nsums; i++)
		for (j = y->sum_first; j < y->sum_first + y->nsums; j++) {
			const struct rec_summary *r = b->summaries[i], *s = b->summaries[j];
			if (strcmp(r->benchmark, s->benchmark) == 0 && strcmp(r->metric, s->metric) == 0 &&
			    !strcmp(r->variant ? r->variant : "", s->variant ? s->variant : "") &&
			    r->nconfig == s->nconfig) {
				size_t k, m;
				for (k = 0; k < r->nconfig; k++) {
					for (m = 0; m < s->nconfig; m++)
						if (strcmp(r->config[k].key, s->config[m].key) == 0)
							break;
					if (m == s->nconfig ||
					    strcmp(r->config[k].value, s->config[m].value) != 0)
						break;
				}
				if (k == r->nconfig)
					return 1;
			}
		}
	return 0;
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

	for (i = 0; i < b->nsummaries; i++)
		names_add(&ns, b->summaries[i]->variant);
	for (i = 0; i < b->nvariants; i++)
		names_add(&ns, b->variants[i].name);

	for (k = 0; k < b->nsegments; k++) {
		struct rec_segment *sg = &b->segments[k];

		sg->label = find_label(b, doc, spans[k].prose_first, spans[k].first);
		for (i = sg->run_first; i < sg->run_first + sg->nruns; i++) {
			struct rec_run *r = b->runs[i];
			const char *name, *ev = NULL;

			if (r->variant)
				continue;
			name = by_numbers(b, r, &ns, &ev);
			if (!name)
				name = by_prose(b, doc, spans[k].prose_first, spans[k].first, &ns, &ev);
			if (!name && sg->label) {
				/* A label line that is one of the post's variants. */
				size_t v;
				for (v = 0; v < ns.n; v++)
					if (strcmp(ns.v[v], sg->label) == 0)
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
	 * and different labels stay two groups. */
	labelled = xcalloc(b->nsegments + 1, 1);
	for (k = 0; k < b->nsegments; k++)
		for (i = k + 1; i < b->nsegments; i++) {
			struct rec_segment *x = &b->segments[k], *y = &b->segments[i];
			if ((!x->label && !y->label) ||
			    (x->label && y->label && strcmp(x->label, y->label) == 0) ||
			    !overlap(b, x, y))
				continue;
			labelled[k] |= x->label != NULL;
			labelled[i] |= y->label != NULL;
		}
	for (k = 0; k < b->nsegments; k++) {
		if (labelled[k])
			set_label(b, &b->segments[k], b->segments[k].label);
		else
			b->segments[k].label = NULL;	/* said only where it counts */
	}
	free(labelled);
	free(ns.v);
}
