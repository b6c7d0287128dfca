/*
 * table_text.c - the comparison table as text for a mail or a terminal:
 * its value marks, blocks of aligned columns, notes and legend.  See
 * table.h.  Example (rows = configs, columns = variants):
 *
 *   hackbench  time [s], lower is better  (rows: groups)
 *                 A             B  %chg             C  %chg
 *    10  5.54(0.10)    5.37(0.06)  -3.1 ?    1.31(0.08) -76.4% +
 */
#include "table_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What mark k means in t: a footnoted cell is tested under --use-flagged. */
static const char *value_mark_text(const struct an_table *t, size_t k)
{
	if (render_marks[k].bit == AN_F_FOOTNOTED && t->use_flagged)
		return "footnoted in the post: tested (--use-flagged)";
	return render_marks[k].text;
}

/* Notes of a block, grouped by text. */
struct note {
	char mark;
	char *text;
	struct buf who;
};

static void add_note(struct note **notes, size_t *n, size_t *cap, char mark, const char *text,
		     const char *who)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*notes)[i].mark == mark && strcmp((*notes)[i].text, text) == 0)
			break;
	if (i == *n) {
		xgrow(notes, cap, *n + 1, sizeof(**notes));
		(*notes)[i].mark = mark;
		(*notes)[i].text = xstrdup(text);
		buf_init(&(*notes)[i].who);
		(*n)++;
	}
	if ((*notes)[i].who.len)
		buf_puts(&(*notes)[i].who, ", ");
	buf_puts(&(*notes)[i].who, who);
}

static void block_notes(struct buf *out, const struct an_table *t, const struct pivot *p,
			const struct pivot_block *b, const struct pivot_labels *L)
{
	struct note *notes = NULL;
	size_t nnotes = 0, cap = 0, i, v, k;

	for (i = 0; i < b->n; i++) {
		const struct an_row *row = &t->rows[b->rows[i]];

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *c = &row->cells[v];
			char who[256];

			if (c->origin == AN_ORIGIN_NONE)
				continue;
			{
				char tmp[32];

				snprintf(who, sizeof(who), "%s %s", pivot_vlabel(t, v, 1, tmp, sizeof(tmp)),
					 pivot_item_label(t, p, b, i, L));
			}
			for (k = 0; k < RENDER_NMARKS; k++) {
				if (!(c->flags & render_marks[k].bit))
					continue;
				/* very noisy implies noisy: say it once */
				if (render_marks[k].bit == AN_F_NOISY && (c->flags & AN_F_VERY_NOISY))
					continue;
				/* every raw cell of a throughput row: the legend says it */
				if (render_marks[k].bit == AN_F_HMEAN)
					continue;
				if (render_marks[k].bit & (AN_F_NOISY | AN_F_VERY_NOISY)) {
					char w[300];
					snprintf(w, sizeof(w), "%s (CV %.1f%%)", who, c->d.cv);
					add_note(&notes, &nnotes, &cap, render_marks[k].mark,
						 value_mark_text(t, k), w);
				} else {
					add_note(&notes, &nnotes, &cap, render_marks[k].mark,
						 value_mark_text(t, k), who);
				}
			}
			if (c->has_change && c->chg.verdict == AN_VERDICT_INCONCLUSIVE &&
			    !isnan(c->chg.runs_needed) && !(c->chg.flags & AN_F_TOO_FEW)) {
				char w[300];
				snprintf(w, sizeof(w), "%s (%.0f)", who, c->chg.runs_needed);
				add_note(&notes, &nnotes, &cap, '?',
					 "inconclusive, runs per side needed", w);
			} else if (c->note) {
				/* One group per sentence of the note. */
				const char *p = c->note;
				while (*p) {
					const char *e = strstr(p, "; ");
					size_t len = e ? (size_t)(e - p) : strlen(p);
					char *part = xstrndup(p, len);
					char mark = strncmp(part, "raw samples", 11) == 0 ||
						    strncmp(part, "published summary", 17) == 0 ? '*'
						    : c->has_change ? render_verdict_mark(c->chg.verdict)
						    : '*';
					add_note(&notes, &nnotes, &cap, mark, part, who);
					free(part);
					p += len;
					if (*p)
						p += 2;
				}
			}
		}
	}
	for (i = 0; i < nnotes; i++) {
		struct buf line = BUF_INIT;
		char lead[8];

		/* wrapped at 78 columns, between items or at spaces */
		snprintf(lead, sizeof(lead), "  %c ", notes[i].mark);
		buf_printf(&line, "%s: %s", notes[i].text, buf_str(&notes[i].who));
		pivot_wrap_list(out, lead, buf_str(&line), 78, 6);
		buf_release(&line);
		free(notes[i].text);
		buf_release(&notes[i].who);
	}
	free(notes);
}

static void pad(struct buf *b, size_t n)
{
	while (n--)
		buf_putc(b, ' ');
}

static void put_right(struct buf *b, const char *s, size_t w)
{
	size_t n = strlen(s);

	pad(b, w > n ? w - n : 0);
	buf_puts(b, s);
}

static void put_left(struct buf *b, const char *s, size_t w)
{
	size_t n = strlen(s);

	buf_puts(b, s);
	pad(b, w > n ? w - n : 0);
}

static size_t col_width(const struct pivot_grid *g, size_t c)
{
	return 1 + g->vw[c] + g->fw[c] + (g->cw[c] ? 1 + g->cw[c] + 1 + 1 : 0) +
	       (g->pw[c] ? 1 + g->pw[c] : 0);
}


#define LABEL_ON_OWN_LINE 28    /* longer row labels get a line of their own */

static void text_block(struct buf *out, const struct an_table *t, const struct pivot *p,
		       const struct pivot_block *b, int width)
{
	struct pivot_grid g;
	struct pivot_labels L;
	struct pivot_geomean gm;
	size_t l, c, k, limit, lw, fixed, *order, nord = 0, first = 0, base;
	int own_line, base_here;
	const char *keyh;

	pivot_labels_build(&L, t, b);
	pivot_grid_build(&g, t, p, b, p->block_by_metric ? &L : NULL, 1);
	pivot_geomean_build(&gm, t, p, b);
	pivot_block_title(out, t, p, b, p->block_by_metric ? &L : NULL);
	buf_putc(out, '\n');
	limit = width > 0 ? (size_t)width : TEXT_NARROW;
	/* the machine the block's runs ran on, when it matters (a line of
	 * its own: a post's unknown machine is named after the post) */
	if (render_row_machine(t, &t->rows[b->rows[0]]))
		pivot_wrap_list(out, "  machine: ", render_row_machine(t, &t->rows[b->rows[0]]), limit, 11);
	for (c = 0; c < t->nvariants; c++)
		if (pivot_text_alias(t, c) && pivot_variant_in_block(t, b, c)) {
			char lead[40];

			snprintf(lead, sizeof(lead), "  [%zu] ", c + 1);
			pivot_wrap_list(out, lead, t->variants[c].name, limit, strlen(lead));
		}
	if (p->block_by_metric && L.common)
		pivot_wrap_list(out, "  config: ", L.common, limit, 10);
	base_here = pivot_variant_in_block(t, b, t->baseline);
	if (!base_here) {
		char tmp[32];
		struct buf nb = BUF_INIT;

		buf_printf(&nb, "the baseline %s has no data here: no changes",
			   pivot_vlabel(t, t->baseline, 1, tmp, sizeof(tmp)));
		pivot_wrap_list(out, "  ", buf_str(&nb), limit, 2);
		buf_release(&nb);
	}
	keyh = pivot_key_heading(p, &L);
	if (!p->variant_cols) {
		/* lines are variants: only those with data here count */
		g.lw = 0;
		for (l = 0; l < g.nlines; l++)
			if (!pivot_grid_absent(t, p, b, l, 0) && strlen(g.line_labels[l]) > g.lw)
				g.lw = strlen(g.line_labels[l]);
	}
	own_line = g.lw > LABEL_ON_OWN_LINE;
	lw = own_line ? 2 : g.lw;
	if (strlen(keyh) > lw)
		lw = strlen(keyh);
	if (gm.shown && lw < 7)
		lw = 7;		/* "geomean" */
	if (gm.shown)
		for (c = 0; c < g.ncols; c++)
			if (g.cw[c] && strlen(gm.change[c]) > g.cw[c])
				g.cw[c] = strlen(gm.change[c]);
	fixed = lw + 1 + g.nw;
	/* the baseline column leads every block of columns */
	base = p->variant_cols && base_here ? t->baseline : (size_t)-1;
	order = xmalloc((g.ncols + 1) * sizeof(*order));
	for (c = 0; c < g.ncols; c++)
		if (c != base && !pivot_grid_absent(t, p, b, c, 1))
			order[nord++] = c;
	for (c = 0; c < g.ncols && !base_here; c++)
		g.cw[c] = 0;	/* nothing to compare with */
	while (first < nord || (first == 0 && nord == 0)) {
		size_t used = fixed + (base != (size_t)-1 ? col_width(&g, base) : 0), last = first;
		size_t cols[256], ncols = 0;

		if (base != (size_t)-1)
			cols[ncols++] = base;
		while (last < nord && ncols < 255 &&
		       (last == first || used + col_width(&g, order[last]) <= limit)) {
			used += col_width(&g, order[last]);
			cols[ncols++] = order[last++];
		}
		if (first > 0)
			buf_putc(out, '\n');
		/* header */
		put_left(out, keyh, lw);
		buf_putc(out, ' ');
		put_right(out, "n", g.nw);
		for (k = 0; k < ncols; k++) {
			c = cols[k];
			buf_putc(out, ' ');
			put_right(out, g.col_labels[c], g.vw[c]);
			pad(out, g.fw[c]);
			if (g.cw[c]) {
				buf_putc(out, ' ');
				put_right(out, "%chg", g.cw[c]);
				buf_puts(out, "  ");
			}
			if (g.pw[c]) {
				buf_putc(out, ' ');
				put_right(out, "table", g.pw[c]);
			}
		}
		pivot_trim_line(out);
		for (l = 0; l < g.nlines; l++) {
			if (pivot_grid_absent(t, p, b, l, 0))
				continue;
			if (own_line)
				pivot_wrap_list(out, "", g.line_labels[l], TEXT_NARROW, 2);
			put_left(out, own_line ? "" : g.line_labels[l], lw);
			buf_putc(out, ' ');
			put_right(out, g.line_n[l], g.nw);
			for (k = 0; k < ncols; k++) {
				struct pivot_gcell *gc = pivot_gat(&g, l, cols[k]);

				c = cols[k];
				buf_putc(out, ' ');
				put_right(out, gc->value, g.vw[c]);
				put_left(out, gc->flags, g.fw[c]);
				if (g.cw[c]) {
					buf_putc(out, ' ');
					put_right(out, gc->change, g.cw[c]);
					buf_putc(out, ' ');
					if (gc->mark != ' ' && gc->color[0])
						buf_printf(out, "%s%c%s", gc->color, gc->mark,
							   RENDER_COLOR_END);
					else
						buf_putc(out, gc->mark);
				}
				if (g.pw[c]) {
					buf_putc(out, ' ');
					put_right(out, gc->pub, g.pw[c]);
				}
			}
			pivot_trim_line(out);
		}
		if (gm.shown) {
			put_left(out, "geomean", lw);
			buf_putc(out, ' ');
			pad(out, g.nw);
			for (k = 0; k < ncols; k++) {
				c = cols[k];
				pad(out, 1 + g.vw[c] + g.fw[c]);
				if (g.cw[c]) {
					buf_putc(out, ' ');
					put_right(out, gm.change[c], g.cw[c]);
					pad(out, 2);
				}
				if (g.pw[c])
					pad(out, 1 + g.pw[c]);
			}
			pivot_trim_line(out);
		}
		if (nord == 0)
			break;
		first = last;
	}
	free(order);
	block_notes(out, t, p, b, p->block_by_metric ? &L : NULL);
	if (gm.shown)
		pivot_geomean_note(out, t, b, &gm, 0);
	pivot_geomean_release(&gm, t);
	pivot_grid_release(&g);
	pivot_labels_free(&L);
}

static void text_block_nl(struct buf *out, const struct an_table *t, const struct pivot *p,
			  const struct pivot_block *b, const struct render_table_opts *o)
{
	text_block(out, t, p, b, o->width);
	buf_putc(out, '\n');
}

static const struct pivot_format text_format = {
	.warning_lead = "Note: ",
	.empty = "No data matched the selection.\n\n",
	.block = text_block_nl,
};

int render_table_text(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		      struct kb_err *err)
{
	return pivot_write(f, t, o, &text_format, err);
}
