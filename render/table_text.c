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

/* Flag shown after a value, most important first. */
static const struct {
	unsigned bit;
	char mark;
	const char *text;
} value_marks[] = {
	{ AN_F_FOOTNOTED, 'f', "footnoted in the post: not tested unless --use-flagged" },
	{ AN_F_AMBIGUOUS, 'm', "its source publishes more than one value for the cell: the last shown, its change not tested" },
	{ AN_F_FROM_SUMMARIES, 'd', "published E minus published H, sd unknown" },
	{ AN_F_VERY_NOISY, 'N', "very noisy (CV > 15%)" },
	{ AN_F_BIMODAL, 'b', "bimodal" },
	{ AN_F_OUTLIERS, 'o', "outliers (Grubbs' test at 4%, kept)" },
	{ AN_F_NOISY, 'n', "noisy (CV > 5%)" },
	{ AN_F_SD_ESTIMATED, 'e', "sd estimated from the range (max - min) / d2(n)" },
	{ AN_F_HMEAN_NONPOS, 'a', "arithmetic mean: a value <= 0 has no harmonic mean" },
	{ AN_F_HMEAN, 'h', "harmonic mean (higher is better, as mmtests' Hmean)" },
};

_Static_assert(ARRAY_SIZE(value_marks) == sizeof(RENDER_MARKS) - 1,
	       "RENDER_MARKS lists value_marks' marks, in order");

/* Every mark of a cell's flags, in value_marks order, into out (room
 * for RENDER_MARKS_MAX + 1): "ne" for a noisy cell whose sd is
 * estimated.  Very noisy implies noisy: 'N' alone. */
void render_value_marks(unsigned flags, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(value_marks); i++) {
		if (!(flags & value_marks[i].bit))
			continue;
		if (value_marks[i].bit == AN_F_NOISY && (flags & AN_F_VERY_NOISY))
			continue;
		out[n++] = value_marks[i].mark;
	}
	out[n] = '\0';
}

const char *render_value_mark_text(char mark)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(value_marks); i++)
		if (value_marks[i].mark == mark)
			return value_marks[i].text;
	return "";
}

/* What mark k means in t: a footnoted cell is tested under --use-flagged. */
static const char *value_mark_text(const struct an_table *t, size_t k)
{
	if (value_marks[k].bit == AN_F_FOOTNOTED && t->use_flagged)
		return "footnoted in the post: tested (--use-flagged)";
	return value_marks[k].text;
}

/* Do t's cells carry any of the flags in bits? */
static int table_has_flags(const struct an_table *t, unsigned bits)
{
	size_t r, v;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].origin != AN_ORIGIN_NONE &&
			    (t->rows[r].cells[v].flags & bits))
				return 1;
	return 0;
}

/* Does any cell of t carry a published verdict? */
static int table_has_published(const struct an_table *t)
{
	size_t r, v;

	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].published)
				return 1;
	return 0;
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
			for (k = 0; k < ARRAY_SIZE(value_marks); k++) {
				if (!(c->flags & value_marks[k].bit))
					continue;
				/* very noisy implies noisy: say it once */
				if (value_marks[k].bit == AN_F_NOISY && (c->flags & AN_F_VERY_NOISY))
					continue;
				/* every raw cell of a throughput row: the legend says it */
				if (value_marks[k].bit == AN_F_HMEAN)
					continue;
				if (value_marks[k].bit & (AN_F_NOISY | AN_F_VERY_NOISY)) {
					char w[300];
					snprintf(w, sizeof(w), "%s (CV %.1f%%)", who, c->d.cv);
					add_note(&notes, &nnotes, &cap, value_marks[k].mark,
						 value_mark_text(t, k), w);
				} else {
					add_note(&notes, &nnotes, &cap, value_marks[k].mark,
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


/* Width limit of a text table: 80 columns (a mail); more variants than
 * fit wrap into blocks of columns. */
#define TEXT_NARROW 80
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

static void conv_text(struct buf *out, const struct an_table *t)
{
	switch (t->opts.conv) {
	case AN_CONV_SPEED:
		buf_puts(out, "speed: base / new - 1 for lower-is-better metrics,\n  else (new - base) / base");
		break;
	case AN_CONV_BETTER:
		buf_puts(out, "better: (new - base) / base, sign flipped where lower is better\n  (+ is an improvement)");
		break;
	default:
		buf_puts(out, "raw: (new - base) / base");
		break;
	}
}

void render_table_legend(struct buf *out, const struct an_table *t, const char *baseline)
{
	buf_printf(out, "Values: mean(sd) over runs (or jobs), or as published; (~sd) estimated;\n"
			"n: values per cell (one number when the row agrees, ? unknown).\n");
	if (baseline && strlen(baseline) + 18 > TEXT_NARROW)
		buf_printf(out, "%%chg vs baseline\n  %s,\n  ", baseline);
	else if (baseline)
		buf_printf(out, "%%chg vs baseline %s,\n  ", baseline);
	else
		buf_puts(out, "%chg vs each section's baseline,\n  ");
	conv_text(out, t);
	buf_puts(out, ".\n");
	buf_printf(out, "Marks: + better  - worse  ~ changed (no better direction)"
			"  = same (within +-%g%%)\n"
			"       ? inconclusive; after a value (as many as apply): N very noisy,\n"
			"       n noisy, b bimodal, o outliers, e sd estimated, d E-H of published\n"
			"       cells (sd unknown),\n"
			"       f footnoted in the post (%s).\n",
		   t->opts.delta, t->use_flagged ? "tested: --use-flagged" : "not tested unless --use-flagged");
	if (table_has_flags(t, AN_F_HMEAN | AN_F_HMEAN_NONPOS))
		buf_puts(out, "       h harmonic mean of the runs (higher is better, as mmtests' Hmean),\n"
			      "       a arithmetic mean instead (a value <= 0).\n");
	if (table_has_flags(t, AN_F_AMBIGUOUS))
		buf_puts(out, "       m its source publishes more than one value for the cell: the\n"
			      "       last is shown, its change not tested.\n");
	if (table_has_published(t))
		buf_puts(out, "table: the published table's own %change vs its own baseline and its\n"
			      "       significance mark, as printed (mmtests: + is better, * marked).\n");
	buf_printf(out, "Verdicts: %s test, Benjamini-Hochberg q over %zu comparisons,\n"
			"          q < %g and |change| >= %g%%.\n",
		   an_test_name(t->opts.test), t->ncompared, t->opts.alpha, t->opts.delta);
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
