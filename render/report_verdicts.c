/*
 * report_verdicts.c - the report's verdicts over its sections, and a
 * cell's change and interval as text: what both backends show.
 */
#include "report_verdicts.h"
#include "table.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_item(const void *a, const void *b)
{
	const struct report_item *x = a, *y = b;
	double dx = fabs(x->cell->chg.change), dy = fabs(y->cell->chg.change);

	return dx > dy ? -1 : dx < dy;
}

/* The verdicts of one table into s. */
static void summarise_table(const struct report_section *sec, const struct an_table *t,
			    struct report_summary *s, size_t *capw, size_t *capb)
{
	size_t k, v;

	for (k = 0; k < t->nrows; k++) {
		const struct an_row *row = &t->rows[k];

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];
			struct report_item it = { sec, t, row, v, c };

			const struct an_cell *bc = &row->cells[t->baseline];
			/* a footnoted published cell left out of the tests is
			 * inconclusive, as regress lists it */
			int untested = !c->has_change && v != t->baseline &&
				       c->origin != AN_ORIGIN_NONE && bc->origin != AN_ORIGIN_NONE &&
				       ((c->flags | bc->flags) & AN_F_FOOTNOTED);

			if (!untested && (!c->has_change || c->chg.verdict == AN_VERDICT_NONE))
				continue;
			s->ntotal++;
			switch (untested ? AN_VERDICT_INCONCLUSIVE : c->chg.verdict) {
			case AN_VERDICT_WORSE:
				s->nworse++;
				xgrow(&s->worse, capw, s->nworse_items + 1, sizeof(*s->worse));
				s->worse[s->nworse_items++] = it;
				break;
			case AN_VERDICT_BETTER:
				s->nbetter++;
				xgrow(&s->better, capb, s->nbetter_items + 1, sizeof(*s->better));
				s->better[s->nbetter_items++] = it;
				break;
			case AN_VERDICT_CHANGED: s->nchanged++; break;
			case AN_VERDICT_SAME: s->nsame++; break;
			default: s->ninconclusive++; break;
			}
		}
	}
}

/* The verdicts of a section's table and pair tables into s, in table order. */
static void summarise_section(const struct report_section *sec, struct report_summary *s,
			      size_t *capw, size_t *capb)
{
	size_t k;

	summarise_table(sec, &sec->table, s, capw, capb);
	for (k = 0; k < sec->npairs; k++)
		summarise_table(sec, &sec->pairs[k], s, capw, capb);
}

void report_summarise(const struct report *r, struct report_summary *s)
{
	size_t i, capw = 0, capb = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->nsections; i++)
		summarise_section(&r->sections[i], s, &capw, &capb);
	if (s->nworse_items)
		qsort(s->worse, s->nworse_items, sizeof(*s->worse), cmp_item);
	if (s->nbetter_items)
		qsort(s->better, s->nbetter_items, sizeof(*s->better), cmp_item);
}

static void ditem(struct report_ditem *d, const struct report_item *it)
{
	const struct an_table *t = it->t;
	int dec = render_row_decimals(t, it->row);
	struct buf b = BUF_INIT;

	d->bench = xstrdup(it->row->benchmark);
	d->metric = xstrdup(it->row->metric);
	d->config = xstrdup(it->row->config);
	d->variant = xstrdup(t->variants[it->variant].name);
	d->baseline = xstrdup(t->variants[t->baseline].name);
	render_format_value(&b, &it->row->cells[t->baseline], dec);
	buf_puts(&b, " \xE2\x86\x92 ");
	render_format_value(&b, it->cell, dec);
	d->values = buf_detach(&b);
	report_format_change(&b, it->cell);
	d->change = buf_detach(&b);
	report_format_ci(&b, it->cell);
	d->ci = buf_detach(&b);
	buf_release(&b);
	d->key = fabs(it->cell->chg.change);
	d->q = it->cell->chg.q;
	d->ci_low = it->cell->chg.ci_low;
	d->verdict = it->cell->chg.verdict;
}

void report_gsum_add(struct report_gsum *g, const struct report_section *sec)
{
	struct report_summary s;
	size_t i, capw = 0, capb = 0;

	memset(&s, 0, sizeof(s));
	summarise_section(sec, &s, &capw, &capb);       /* unsorted: table order */
	g->nworse += s.nworse;
	g->nbetter += s.nbetter;
	g->nchanged += s.nchanged;
	g->ninconclusive += s.ninconclusive;
	g->nsame += s.nsame;
	g->ntotal += s.ntotal;
	for (i = 0; i < s.nworse_items; i++) {
		xgrow(&g->worse, &g->capw, g->nworse_items + 1, sizeof(*g->worse));
		ditem(&g->worse[g->nworse_items++], &s.worse[i]);
	}
	for (i = 0; i < s.nbetter_items; i++) {
		xgrow(&g->better, &g->capb, g->nbetter_items + 1, sizeof(*g->better));
		ditem(&g->better[g->nbetter_items++], &s.better[i]);
	}
	report_summary_release(&s);
}

static int cmp_ditem(const void *a, const void *b)
{
	double dx = ((const struct report_ditem *)a)->key, dy = ((const struct report_ditem *)b)->key;

	return dx > dy ? -1 : dx < dy;
}

void report_gsum_end(struct report_gsum *g)
{
	if (g->nworse_items)
		qsort(g->worse, g->nworse_items, sizeof(*g->worse), cmp_ditem);
	if (g->nbetter_items)
		qsort(g->better, g->nbetter_items, sizeof(*g->better), cmp_ditem);
}

static void ditems_free(struct report_ditem *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].bench);
		free(v[i].metric);
		free(v[i].config);
		free(v[i].variant);
		free(v[i].baseline);
		free(v[i].values);
		free(v[i].change);
		free(v[i].ci);
	}
	free(v);
}

void report_gsum_release(struct report_gsum *g)
{
	ditems_free(g->worse, g->nworse_items);
	ditems_free(g->better, g->nbetter_items);
	memset(g, 0, sizeof(*g));
}

void report_summary_release(struct report_summary *s)
{
	free(s->worse);
	free(s->better);
	memset(s, 0, sizeof(*s));
}

void report_format_change(struct buf *out, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.change))
		return;
	buf_printf(out, "%+.1f%%", c->chg.change);
}

void report_format_ci(struct buf *out, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.ci_low) || isnan(c->chg.ci_high))
		return;
	buf_printf(out, "[%+.1f, %+.1f]", c->chg.ci_low, c->chg.ci_high);
}

const char *report_verdict_word(enum an_verdict v)
{
	return v == AN_VERDICT_NONE ? "" : an_verdict_name(v);
}
