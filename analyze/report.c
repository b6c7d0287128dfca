/*
 * report.c - the plan of a report (see report.h): its sections, their
 * one BH family, the chart budget, and the second pass that builds each
 * section's table again.
 */
#include "report.h"
#include "placement.h"
#include "stats.h"

#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/mail.h"
#include "../ingest/record.h"

#include <stdlib.h>
#include <string.h>

/* The plan ---------------------------------------------------------------- */

/* The heading of a comparable set's section: its benchmark, and the post
 * (with its author, day and subject for a mail) or the machine. */
static char *set_title(const struct db_cset *c, const struct db_list *list)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, c->benchmark);
	if (!c->post) {
		if (c->key[0])
			buf_printf(&b, " on %s", c->key);
		else
			buf_puts(&b, ", machine unknown");
		return buf_detach(&b);
	}
	buf_printf(&b, " in %s", c->label ? c->label : "a post");
	for (i = 0; i < list->nsources; i++) {
		const struct db_source *src = &list->sources[i];
		if (src->id != c->source_id)
			continue;
		if (src->mail_from || src->mail_date || src->mail_subject) {
			buf_puts(&b, " (");
			mail_byline(src->mail_from, src->mail_date, src->mail_subject, &b);
			buf_puts(&b, ")");
		}
		break;
	}
	return buf_detach(&b);
}

/*
 * A report of a store without --variants or --baseline compares what is
 * comparable: one section per benchmark and comparable set (a post's own
 * variants; the variants with global names on one machine: a result
 * tree's commits on a host, logs a user named), each against its own
 * first variant.  A post's variant is never compared with another
 * post's, nor a machine's run with another machine's.  With --variants
 * or --baseline the report does what it is told: one section per
 * benchmark (the table says when the machines differ).
 */
int an_report_plan_build(struct an_report_plan *plan, struct db *db, const struct db_list *list,
			 const struct an_query *q, struct kb_err *err)
{
	struct db_cset *sets = NULL;
	struct an_rsel **out = &plan->sels;
	size_t i, k, n = 0, nsets = 0;

	memset(plan, 0, sizeof(*plan));

	if (q->nvariants || q->baseline) {
		*out = xcalloc(list->nbenches + 1, sizeof(**out));
		for (i = 0; i < list->nbenches; i++) {
			const char *bench = list->benches[i].benchmark;
			struct an_rsel *p;

			if (q->bench && strcmp(q->bench, bench))
				continue;
			p = &(*out)[n++];
			p->title = xstrdup(bench);
			p->bench = xstrdup(bench);
			p->q = *q;
			p->q.bench = p->bench;
			p->q.defer_bh = 1;
		}
		plan->nsels = n;
		return 0;
	}
	if (db_comparable_sets(db, q->bench, &sets, &nsets, err) < 0)
		return -1;
	*out = xcalloc(nsets + 1, sizeof(**out));
	for (i = 0; i < nsets; i++) {
		const struct db_cset *c = &sets[i];
		struct an_rsel *p;

		/* --machine narrows a machine's set by its machine (a post's
		 * runs are narrowed by the comparison itself) */
		if (!c->post && !an_machine_selected(q->machines, q->nmachines,
						     c->key[0] ? c->key : NULL))
			continue;
		p = &(*out)[n++];

		p->title = set_title(c, list);
		p->bench = xstrdup(c->benchmark);
		p->q = *q;
		p->q.bench = p->bench;
		p->q.defer_bh = 1;
		p->vars = xcalloc(c->nvariants + 1, sizeof(*p->vars));
		for (k = 0; k < c->nvariants; k++)
			p->vars[p->nvars++] = xstrdup(c->variants[k]);
		p->q.variants = (const char *const *)p->vars;
		p->q.nvariants = p->nvars;
		if (!c->post) {
			p->machine = xstrdup(c->key[0] ? c->key : "unknown");
			p->mach[0] = p->machine;
			p->q.machines = p->mach;
			p->q.nmachines = 1;
		}
	}
	db_csets_free(sets, nsets);
	/* A benchmark with one comparable set needs no more than its name. */
	for (i = 0; i < n; i++) {
		size_t same = 0;
		for (k = 0; k < n; k++)
			same += strcmp((*out)[k].bench, (*out)[i].bench) == 0;
		if (same == 1) {
			free((*out)[i].title);
			(*out)[i].title = xstrdup((*out)[i].bench);
		}
	}
	plan->nsels = n;
	return 0;
}

void an_report_plan_release(struct an_report_plan *plan)
{
	size_t i, k;

	for (i = 0; i < plan->nsels; i++) {
		free(plan->sels[i].title);
		free(plan->sels[i].bench);
		for (k = 0; k < plan->sels[i].nvars; k++)
			free(plan->sels[i].vars[k]);
		free(plan->sels[i].vars);
		free(plan->sels[i].machine);
	}
	free(plan->sels);
	for (i = 0; i < plan->nsecs; i++)
		free(plan->secs[i].pair_np);
	free(plan->secs);
	for (i = 0; i < plan->nvariants; i++)
		free(plan->variants[i]);
	free(plan->variants);
	free(plan->order);
	an_bh_family_release(&plan->family);
	memset(plan, 0, sizeof(*plan));
}

/* Variants of the list by name (ties by index), for the look-ups of
 * --since and --limit. */
static int cmp_vidx(const void *pa, const void *pb, void *ctx)
{
	const struct db_list *list = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(list->variants[a].name, list->variants[b].name);

	return c ? c : (a < b ? -1 : a > b);
}

static int cmp_ll(const void *pa, const void *pb)
{
	long long a = *(const long long *)pa, b = *(const long long *)pb;

	return a < b ? -1 : a > b;
}

/* Each section's variant list (a comparable set's, or --variants) keeps
 * the variants first imported at or after since, then the limit newest
 * of them (import order = variant id). */
void an_report_plan_narrow(struct an_report_plan *plan, const struct db_list *list, long limit,
			   const char *since)
{
	size_t *byname = xmalloc((list->nvariants + 1) * sizeof(*byname)), i, k;

	for (i = 0; i < list->nvariants; i++)
		byname[i] = i;
	qsort_r(byname, list->nvariants, sizeof(*byname), cmp_vidx, (void *)list);
	for (i = 0; i < plan->nsels; i++) {
		struct an_rsel *p = &plan->sels[i];
		struct { long long id; const char *name; } *keep;
		size_t nk = 0, first = 0;
		char **vars;

		if (!p->q.nvariants)
			continue;       /* --baseline alone: every variant with numbers */
		keep = xcalloc(p->q.nvariants + 1, sizeof(*keep));
		for (k = 0; k < p->q.nvariants; k++) {
			const char *name = p->q.variants[k];
			size_t lo = 0, hi = list->nvariants;
			const struct db_variant *v = NULL;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (strcmp(list->variants[byname[mid]].name, name) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < list->nvariants && !strcmp(list->variants[byname[lo]].name, name))
				v = &list->variants[byname[lo]];
			if (since && (!v || !v->created_at || strcmp(v->created_at, since) < 0))
				continue;
			keep[nk].id = v ? v->id : 0;
			keep[nk++].name = name;
		}
		if (limit > 0 && nk > (size_t)limit) {
			/* the newest: the highest ids, kept in their order */
			long long *ids = xmalloc(nk * sizeof(*ids)), cut;

			for (k = 0; k < nk; k++)
				ids[k] = keep[k].id;
			qsort(ids, nk, sizeof(*ids), cmp_ll);
			cut = ids[nk - (size_t)limit];
			free(ids);
			for (k = 0; k < nk; k++)
				if (keep[k].id >= cut)
					keep[first++] = keep[k];
			nk = first;
		}
		vars = xcalloc(nk + 1, sizeof(*vars));
		for (k = 0; k < nk; k++)
			vars[k] = xstrdup(keep[k].name);
		free(keep);
		for (k = 0; k < p->nvars; k++)
			free(p->vars[k]);
		free(p->vars);
		p->vars = vars;
		p->nvars = nk;
		p->q.variants = (const char *const *)p->vars;
		p->q.nvariants = nk;
		if (!nk)
			p->skip = 1;
	}
	free(byname);
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return days[month - 1] + (month == 2 && leap);
}

/* The store's form compares as text. */
int an_report_since_parse(const char *s, char out[32])
{
	static const char *const shape[] = { "dddd-dd-dd", "dddd-dd-ddTdd:dd",
					     "dddd-dd-ddTdd:dd:dd" };
	size_t i, k, n = strlen(s);
	int mo, day, h = 0, mi = 0, se = 0;

	for (k = 0; k < ARRAY_SIZE(shape); k++) {
		if (n != strlen(shape[k]))
			continue;
		for (i = 0; i < n; i++) {
			char c = shape[k][i];

			if (c == 'd' ? !(s[i] >= '0' && s[i] <= '9')
				     : c == 'T' ? !(s[i] == 'T' || s[i] == ' ') : s[i] != c)
				break;
		}
		if (i == n)
			break;
	}
	if (k == ARRAY_SIZE(shape))
		return -1;
	mo = atoi(s + 5);
	day = atoi(s + 8);
	if (n > 10) {
		h = atoi(s + 11);
		mi = atoi(s + 14);
	}
	if (n > 16)
		se = atoi(s + 17);
	if (mo < 1 || mo > 12 || day < 1 || day > days_in_month(atoi(s), mo) || h > 23 ||
	    mi > 59 || se > 59)
		return -1;      /* 2024-02-30 is no date */
	memcpy(out, s, n + 1);
	if (n > 10)
		out[10] = 'T';
	return 0;
}

/* The sections ------------------------------------------------------------ */

int an_report_compare(struct db *db, const struct an_rsel *p, struct an_table *t,
		      struct buf *note, struct kb_err *err)
{
	struct an_query bq = p->q;

	if (an_compare_build(db, &bq, t, err) == 0)
		return 0;
	if (!p->q.baseline)
		return -1;
	kb_err_clear(err);
	bq.baseline = NULL;
	if (an_compare_build(db, &bq, t, err) < 0)
		return -1;
	buf_printf(note, "%s has no %s numbers in the selection; the baseline here is %s.",
		   p->q.baseline, p->bench, t->nvariants ? t->variants[t->baseline].name : "-");
	return 0;
}


int an_report_wide(struct db *db, const struct an_rsel *p, struct an_wide *w, struct kb_err *err)
{
	long long *ids = xcalloc(p->q.nvariants + 1, sizeof(*ids)), base = 0;
	char *disp = NULL;
	size_t k;
	int rc;

	for (k = 0; k < p->q.nvariants; k++) {
		if (db_variant_resolve_id(db, p->q.variants[k], &ids[k], &disp, err) < 0) {
			free(ids);
			return -1;
		}
		free(disp);
	}
	base = ids[0];
	if (p->q.baseline) {
		if (db_variant_resolve_id(db, p->q.baseline, &base, &disp, err) < 0) {
			free(ids);
			return -1;
		}
		free(disp);
	}
	rc = an_wide_build(db, &p->q, ids, p->q.nvariants, base, w, err);
	free(ids);
	return rc;
}

static int run_selected(const struct db_prun *r, const struct an_rsel *s)
{
	size_t i;

	if (strcmp(r->benchmark, s->bench) || !REC_CONFIG_MATCH(r->config, s->q.config, s->q.nconfig))
		return 0;
	if (!s->q.nvariants)
		return 1;
	for (i = 0; i < s->q.nvariants; i++)
		if (!strcmp(s->q.variants[i], r->variant))
			return 1;
	return 0;
}

static int cmp_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return a < b ? -1 : a > b;
}

size_t an_report_runs(const struct an_pindex *ix, const struct db_placement *pl,
		      const struct an_rsel *s, const struct db_prun ***out)
{
	size_t *idx = NULL, n = 0, cap = 0, i, k;

	if (!s->q.nvariants) {
		for (i = 0; i < pl->nruns; i++)
			if (run_selected(&pl->runs[i], s)) {
				xgrow(&idx, &cap, n + 1, sizeof(*idx));
				idx[n++] = i;
			}
	} else {
		for (k = 0; k < s->q.nvariants; k++) {
			size_t lo, hi;

			if (k && !strcmp(s->q.variants[k], s->q.variants[k - 1]))
				continue;
			an_pindex_variant(ix, s->q.variants[k], &lo, &hi);
			for (; lo < hi; lo++)
				if (run_selected(&pl->runs[ix->idx[lo]], s)) {
					xgrow(&idx, &cap, n + 1, sizeof(*idx));
					idx[n++] = ix->idx[lo];
				}
		}
		if (n)
			qsort(idx, n, sizeof(*idx), cmp_size);
		/* a name given twice selects its runs once */
		for (i = k = 0; i < n; i++)
			if (!k || idx[k - 1] != idx[i])
				idx[k++] = idx[i];
		n = k;
	}
	if (out) {
		*out = xmalloc((n + 1) * sizeof(**out));
		for (i = 0; i < n; i++)
			(*out)[i] = &pl->runs[idx[i]];
	}
	free(idx);
	return n;
}

size_t an_report_verdicts(const struct an_table *t)
{
	size_t r, v, n = 0;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			n += t->rows[r].cells[v].has_change &&
			     (t->rows[r].cells[v].chg.verdict == AN_VERDICT_WORSE ||
			      t->rows[r].cells[v].chg.verdict == AN_VERDICT_BETTER);
	return n;
}

/* The family -------------------------------------------------------------- */

size_t an_bh_family_add(struct an_bh_family *f, const struct an_table *t)
{
	size_t off = f->n;

	an_table_pvalues(t, &f->p, &f->n, &f->cap);
	return off;
}

void an_bh_family_correct(struct an_bh_family *f)
{
	if (f->n)
		an_bh(f->p, f->n, f->p);
	f->corrected = 1;
}

void an_bh_family_give(const struct an_bh_family *f, struct an_table *t, size_t off, size_t n)
{
	an_table_set_q(t, f->p ? f->p + off : NULL, n, f->n);
}

void an_bh_family_release(struct an_bh_family *f)
{
	free(f->p);
	memset(f, 0, sizeof(*f));
}

/* The sections' order in the family is the report's: each section's
 * table, or its pairs, as an_tables_bh() would take them. */
static struct an_rsection *rsection_new(struct an_report_plan *p, size_t sel)
{
	struct an_rsection *s;

	xgrow(&p->secs, &p->capsecs, p->nsecs + 1, sizeof(*p->secs));
	s = &p->secs[p->nsecs++];
	memset(s, 0, sizeof(*s));
	s->sel = sel;
	s->qoff = p->family.n;
	return s;
}

struct an_rsection *an_report_add_table(struct an_report_plan *p, size_t sel,
					const struct an_table *t, size_t charts)
{
	struct an_rsection *s = rsection_new(p, sel);
	size_t v;

	s->built = 1;
	an_bh_family_add(&p->family, t);
	s->np = p->family.n - s->qoff;
	s->nrows = t->nrows;
	s->rank = an_report_verdicts(t);
	s->charts = charts;
	for (v = 0; v < t->nvariants; v++) {
		xgrow(&p->variants, &p->capvariants, p->nvariants + 1, sizeof(*p->variants));
		p->variants[p->nvariants++] = xstrdup(t->variants[v].name);
	}
	return s;
}

struct an_rsection *an_report_add_pairs(struct an_report_plan *p, size_t sel,
					const struct an_table *pairs, size_t npairs)
{
	struct an_rsection *s = rsection_new(p, sel);
	size_t k;

	s->npairs = npairs;
	s->pair_np = xcalloc(npairs + 1, sizeof(*s->pair_np));
	for (k = 0; k < npairs; k++) {
		size_t off = an_bh_family_add(&p->family, &pairs[k]);

		s->pair_np[k] = p->family.n - off;
		s->rank += an_report_verdicts(&pairs[k]);
	}
	return s;
}

void an_report_correct(struct an_report_plan *p)
{
	an_bh_family_correct(&p->family);
}

void an_report_give_pairs(const struct an_report_plan *p, size_t i, struct an_table *pairs)
{
	const struct an_rsection *s = &p->secs[i];
	size_t k, off = s->qoff + s->np;

	for (k = 0; k < s->npairs; k++) {
		an_bh_family_give(&p->family, &pairs[k], off, s->pair_np[k]);
		off += s->pair_np[k];
	}
}

void an_report_give_table(const struct an_report_plan *p, size_t i, struct an_table *t)
{
	an_bh_family_give(&p->family, t, p->secs[i].qoff, p->secs[i].np);
}

/* The chart budget -------------------------------------------------------- */

static int cmp_rank(const void *pa, const void *pb, void *ctx)
{
	const struct an_report_plan *p = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (p->secs[a].rank != p->secs[b].rank)
		return p->secs[a].rank > p->secs[b].rank ? -1 : 1;
	return a < b ? -1 : a > b;
}

void an_report_budget(struct an_report_plan *p, size_t drawn, size_t max, int enabled)
{
	size_t i, k;

	free(p->order);
	p->order = xmalloc((p->nsecs + 1) * sizeof(*p->order));
	for (i = 0; i < p->nsecs; i++)
		p->order[i] = i;
	qsort_r(p->order, p->nsecs, sizeof(*p->order), cmp_rank, p);
	for (k = 0; k < p->nsecs; k++) {
		struct an_rsection *s = &p->secs[p->order[k]];

		s->charts_on = enabled && drawn < max;
		/* a built section's charts are drawn when it is written (its
		 * table built again); counted now as it will draw */
		if (s->charts_on && s->built && s->nrows) {
			s->want_charts = 1;
			drawn += s->charts;
		}
		if (s->charts_on)
			drawn += s->placement;
	}
}

/* The second pass --------------------------------------------------------- */

int an_report_again(struct db *db, const struct an_report_plan *p, size_t i, struct an_table *t,
		    struct kb_err *err)
{
	const struct an_rsection *s = &p->secs[i];
	struct buf note = BUF_INIT;
	double *check = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!s->built || i == 0)
		return 0;       /* section 0's table is kept (the text legend) */
	rc = an_report_compare(db, &p->sels[s->sel], t, &note, err);
	buf_release(&note);
	if (rc < 0)
		return -1;
	an_table_pvalues(t, &check, &n, &cap);
	free(check);
	if (n != s->np)
		return kb_err_set(err, "", 0, "section %zu changed while the report was made (an "
				  "import meanwhile?): make it again", i + 1);
	an_report_give_table(p, i, t);
	return 1;
}
