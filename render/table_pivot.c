/*
 * table_pivot.c - the pivot the text and Markdown tables share: rows
 * grouped into blocks (one per benchmark, machine and metric or config),
 * each block's labels and grid of cell strings, its geomean row, and
 * pivot_write(), which writes the blocks in one format (table_int.h).
 */
#include "table_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int change_decimals(const struct an_table *t)
{
	/* The autonuma mails print their %Change with two decimals. */
	return t->opts.conv == AN_CONV_SPEED ? 2 : 1;
}

/* The text table's column heading says "%chg"; Markdown adds the '%'. */
static void format_change(struct buf *b, const struct an_table *t, const struct an_cell *c)
{
	if (!c->has_change || isnan(c->chg.change))
		return;
	buf_printf(b, "%+.*f", change_decimals(t), c->chg.change);
}

/* The published table's own verdict on c, as printed: "+3.30%*" (change
 * and mark), "*" (a mark only); nothing when it printed none. */
static void format_published(struct buf *b, const struct an_cell *c)
{
	if (!c->published)
		return;
	if (!isnan(c->pub_change))
		buf_printf(b, "%+.2f%%", c->pub_change);
	buf_puts(b, c->pub_mark ? c->pub_mark : "");
}


/* Pivot ------------------------------------------------------------------- */

int pivot_init(struct pivot *p, const struct an_table *t,
		      const struct render_table_opts *o, struct kb_err *err)
{
	enum render_dim other;
	size_t r, k, cap = 0;

	memset(p, 0, sizeof(*p));
	p->color = o->color && o->fmt == RENDER_TEXT;
	if (o->cols == RENDER_DIM_VARIANT && o->rows != RENDER_DIM_VARIANT) {
		p->variant_cols = 1;
		other = o->rows;
	} else if (o->rows == RENDER_DIM_VARIANT && o->cols != RENDER_DIM_VARIANT) {
		p->variant_cols = 0;
		other = o->cols;
	} else {
		return kb_err_set(err, "", 0,
				  "--rows and --cols: one must be 'variant', the other 'config' or 'metric'");
	}
	p->block_by_metric = other == RENDER_DIM_CONFIG;
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		const char *key = p->block_by_metric ? row->metric : row->config;
		struct pivot_block *b = NULL;

		for (k = 0; k < p->nblocks; k++) {
			const struct an_row *f = &t->rows[p->blocks[k].rows[0]];
			if (strcmp(f->benchmark, row->benchmark) == 0 &&
			    (f->machine && row->machine ? strcmp(f->machine, row->machine) == 0
							: f->machine == row->machine) &&
			    strcmp(p->block_by_metric ? f->metric : f->config, key) == 0) {
				b = &p->blocks[k];
				break;
			}
		}
		if (!b) {
			xgrow(&p->blocks, &cap, p->nblocks + 1, sizeof(*p->blocks));
			b = &p->blocks[p->nblocks++];
			memset(b, 0, sizeof(*b));
		}
		b->rows = xrealloc(b->rows, (b->n + 1) * sizeof(*b->rows));
		b->rows[b->n++] = r;
	}
	return 0;
}

void pivot_release(struct pivot *p)
{
	size_t k;

	for (k = 0; k < p->nblocks; k++)
		free(p->blocks[k].rows);
	free(p->blocks);
}

int pivot_text_alias(const struct an_table *t, size_t v)
{
	return strlen(t->variants[v].name) > VARIANT_LABEL_MAX;
}

/* A variant as a text table names it: its name, or "[v+1]". */
const char *pivot_vlabel(const struct an_table *t, size_t v, int alias, char *tmp, size_t n)
{
	if (alias && pivot_text_alias(t, v)) {
		snprintf(tmp, n, "[%zu]", v + 1);
		return tmp;
	}
	return t->variants[v].name;
}

/* The items ("k=v", escapes kept) of a canonical config string. */
static size_t config_items(const char *config, char ***out)
{
	const char *p = config, *start = config;
	size_t n = 0;

	*out = NULL;
	if (!*config)
		return 0;
	for (;; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == ',' || !*p) {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = xstrndup(start, (size_t)(p - start));
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return n;
}

static int has_item(char **v, size_t n, const char *item)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], item))
			return 1;
	return 0;
}

void pivot_labels_build(struct pivot_labels *L, const struct an_table *t, const struct pivot_block *b)
{
	char ***items = xcalloc(b->n + 1, sizeof(*items));
	size_t *nitems = xcalloc(b->n + 1, sizeof(*nitems)), i, k, j;
	struct buf common = BUF_INIT;
	char *key = NULL;
	int one_key = 1;

	memset(L, 0, sizeof(*L));
	L->n = b->n;
	L->row = xcalloc(b->n + 1, sizeof(*L->row));
	for (i = 0; i < b->n; i++)
		nitems[i] = config_items(t->rows[b->rows[i]].config, &items[i]);
	/* common items: in every row (only worth a header with several rows) */
	for (k = 0; k < (b->n > 1 ? nitems[0] : 0); k++) {
		int all = 1;

		for (i = 1; i < b->n && all; i++)
			all = has_item(items[i], nitems[i], items[0][k]);
		if (all)
			buf_printf(&common, "%s%s", common.len ? "," : "", items[0][k]);
	}
	for (i = 0; i < b->n; i++) {
		struct buf r = BUF_INIT;
		size_t nv = 0;
		const char *last = NULL;

		for (k = 0; k < nitems[i]; k++) {
			int shared = b->n > 1;

			for (j = 0; j < b->n && shared; j++)
				shared = has_item(items[j], nitems[j], items[i][k]);
			if (shared)
				continue;
			buf_printf(&r, "%s%s", r.len ? "," : "", items[i][k]);
			nv++;
			last = items[i][k];
		}
		if (nv == 1) {
			const char *eq = strchr(last, '=');
			size_t klen = eq ? (size_t)(eq - last) : strlen(last);

			if (!key)
				key = xstrndup(last, klen);
			else if (strlen(key) != klen || strncmp(key, last, klen))
				one_key = 0;
		} else {
			one_key = 0;
		}
		L->row[i] = r.len ? buf_detach(&r) : xstrdup(b->n > 1 ? "(all)" : "-");
		buf_release(&r);
	}
	if (one_key && key) {
		size_t klen = strlen(key);

		for (i = 0; i < b->n; i++) {
			char *v = xstrdup(L->row[i] + klen + 1);

			free(L->row[i]);
			L->row[i] = v;
		}
		L->key = key;
	} else {
		free(key);
	}
	if (b->n == 1 && nitems[0]) {
		/* one row: its whole config is the label */
		free(L->row[0]);
		L->row[0] = xstrdup(t->rows[b->rows[0]].config);
	}
	L->common = common.len ? buf_detach(&common) : NULL;
	buf_release(&common);
	for (i = 0; i < b->n; i++) {
		for (k = 0; k < nitems[i]; k++)
			free(items[i][k]);
		free(items[i]);
	}
	free(items);
	free(nitems);
}

void pivot_labels_free(struct pivot_labels *L)
{
	size_t i;

	for (i = 0; i < L->n; i++)
		free(L->row[i]);
	free(L->row);
	free(L->common);
	free(L->key);
}

/* Label of a block item (the non-variant axis). */
const char *pivot_item_label(const struct an_table *t, const struct pivot *p,
			      const struct pivot_block *b, size_t i, const struct pivot_labels *L)
{
	const struct an_row *row = &t->rows[b->rows[i]];

	if (p->block_by_metric)
		return L ? L->row[i] : row->config[0] ? row->config : "-";
	return row->metric;
}

struct pivot_gcell *pivot_gat(struct pivot_grid *g, size_t l, size_t c)
{
	return &g->cells[l * g->ncols + c];
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The n of a line's cells: one number when they agree, else the distinct
 * values "3/5" (more than three: "3-12"); "?" for an unknown n (a
 * published number without its run count). */
static char *line_n(struct pivot_grid *g, size_t l)
{
	size_t *v = xmalloc((g->ncols + 1) * sizeof(*v)), nv = 0, c, i, nd = 0;
	int unknown = 0;
	struct buf b = BUF_INIT;

	for (c = 0; c < g->ncols; c++) {
		struct pivot_gcell *gc = pivot_gat(g, l, c);

		if (!gc->has_value)
			continue;
		if (gc->n == 0)
			unknown = 1;
		else
			v[nv++] = gc->n;
	}
	qsort(v, nv, sizeof(*v), cmp_size);
	for (i = 0; i < nv; i++)
		nd += i == 0 || v[i] != v[i - 1];
	if (nd > 3) {
		buf_printf(&b, "%zu-%zu", v[0], v[nv - 1]);
	} else {
		for (i = 0; i < nv; i++)
			if (i == 0 || v[i] != v[i - 1])
				buf_printf(&b, "%s%zu", b.len ? "/" : "", v[i]);
	}
	if (unknown)
		buf_printf(&b, "%s?", b.len ? "/" : "");
	if (!b.len)
		buf_puts(&b, "-");
	free(v);
	return buf_detach(&b);
}

void pivot_grid_build(struct pivot_grid *g, const struct an_table *t, const struct pivot *p,
		       const struct pivot_block *b, const struct pivot_labels *L, int alias)
{
	size_t i, v, l, c;
	char tmp[32];

	memset(g, 0, sizeof(*g));
	if (p->variant_cols) {
		g->nlines = b->n;
		g->ncols = t->nvariants;
	} else {
		g->nlines = t->nvariants;
		g->ncols = b->n;
	}
	g->line_labels = xcalloc(g->nlines, sizeof(char *));
	g->line_n = xcalloc(g->nlines, sizeof(char *));
	g->col_labels = xcalloc(g->ncols, sizeof(char *));
	g->cells = xcalloc(g->nlines * g->ncols, sizeof(*g->cells));
	g->vw = xcalloc(g->ncols, sizeof(size_t));
	g->fw = xcalloc(g->ncols, sizeof(size_t));
	g->cw = xcalloc(g->ncols, sizeof(size_t));
	g->pw = xcalloc(g->ncols, sizeof(size_t));
	for (i = 0; i < b->n; i++) {
		const char *lab = pivot_item_label(t, p, b, i, L);
		if (p->variant_cols)
			g->line_labels[i] = xstrdup(lab);
		else
			g->col_labels[i] = xstrdup(lab);
	}
	for (v = 0; v < t->nvariants; v++) {
		const char *name = pivot_vlabel(t, v, alias, tmp, sizeof(tmp));

		if (p->variant_cols)
			g->col_labels[v] = xstrdup(name);
		else
			g->line_labels[v] = xstrdup(name);
	}
	for (i = 0; i < b->n; i++) {
		const struct an_row *row = &t->rows[b->rows[i]];
		int dec = render_row_decimals(t, row);

		for (v = 0; v < t->nvariants; v++) {
			const struct an_cell *cell = &row->cells[v];
			struct pivot_gcell *gc;
			struct buf vb = BUF_INIT, cb = BUF_INIT, pb = BUF_INIT;

			l = p->variant_cols ? i : v;
			c = p->variant_cols ? v : i;
			gc = pivot_gat(g, l, c);
			render_format_value(&vb, cell, dec);
			format_change(&cb, t, cell);
			gc->value = buf_detach(&vb);
			gc->change = cb.data ? buf_detach(&cb) : xstrdup("");
			format_published(&pb, cell);
			gc->pub = pb.data ? buf_detach(&pb) : xstrdup("");
			if (cell->origin != AN_ORIGIN_NONE)
				render_value_marks(cell->flags, gc->flags);
			gc->has_data = cell->origin != AN_ORIGIN_NONE;
			gc->mark = cell->has_change ? render_verdict_mark(cell->chg.verdict) : ' ';
			gc->color = cell->has_change && p->color ? render_verdict_color(cell->chg.verdict) : "";
			gc->has_change_col = !cell->is_baseline;
			gc->has_value = cell->origin != AN_ORIGIN_NONE && !isnan(cell->d.mean);
			gc->n = cell->d.n;
		}
	}
	g->lw = 0;
	g->nw = 1;
	for (l = 0; l < g->nlines; l++) {
		g->lw = g->lw > strlen(g->line_labels[l]) ? g->lw : strlen(g->line_labels[l]);
		g->line_n[l] = line_n(g, l);
		if (strlen(g->line_n[l]) > g->nw)
			g->nw = strlen(g->line_n[l]);
	}
	for (c = 0; c < g->ncols; c++) {
		int changes = 0;

		g->vw[c] = strlen(g->col_labels[c]);
		g->fw[c] = 1;
		for (l = 0; l < g->nlines; l++) {
			struct pivot_gcell *gc = pivot_gat(g, l, c);
			size_t n = strlen(gc->value);
			if (n > g->vw[c])
				g->vw[c] = n;
			if (strlen(gc->flags) > g->fw[c])
				g->fw[c] = strlen(gc->flags);
			if (gc->has_change_col)
				changes = 1;
			if (strlen(gc->change) > g->cw[c])
				g->cw[c] = strlen(gc->change);
			if (strlen(gc->pub) > g->pw[c])
				g->pw[c] = strlen(gc->pub);
		}
		if (g->pw[c] && g->pw[c] < 5)
			g->pw[c] = 5;	/* room for the "table" heading */
		if (changes && g->cw[c] < 4)
			g->cw[c] = 4;	/* room for the "%chg" heading */
		if (!changes)
			g->cw[c] = 0;
	}
}

void pivot_grid_release(struct pivot_grid *g)
{
	size_t i;

	for (i = 0; i < g->nlines; i++) {
		free(g->line_labels[i]);
		free(g->line_n[i]);
	}
	for (i = 0; i < g->ncols; i++)
		free(g->col_labels[i]);
	for (i = 0; i < g->nlines * g->ncols; i++) {
		free(g->cells[i].value);
		free(g->cells[i].change);
		free(g->cells[i].pub);
	}
	free(g->line_labels);
	free(g->line_n);
	free(g->col_labels);
	free(g->cells);
	free(g->vw);
	free(g->fw);
	free(g->cw);
	free(g->pw);
}

void pivot_block_title(struct buf *out, const struct an_table *t, const struct pivot *p,
			const struct pivot_block *b, const struct pivot_labels *L)
{
	const struct an_row *row = &t->rows[b->rows[0]];

	buf_printf(out, "%s  ", row->benchmark);
	if (p->block_by_metric) {
		buf_puts(out, row->metric);
		if (row->unit[0])
			buf_printf(out, " [%s]", row->unit);
		if (row->dir != AN_DIR_NONE)
			buf_printf(out, ", %s is better", an_direction_name(row->dir));
		else
			buf_puts(out, ", no better direction");
		if (row->derived)
			buf_puts(out, ", derived");
		if (L && L->key)
			buf_printf(out, "  (by %s)", L->key);
	} else {
		buf_puts(out, row->config[0] ? row->config : "(no config)");
	}
}

/* End the line without its trailing blanks. */
void pivot_trim_line(struct buf *out)
{
	while (out->len && out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
	buf_putc(out, '\n');
}

/* End the line and start the next at column indent; returns indent. */
static size_t next_line(struct buf *out, size_t indent)
{
	size_t i;

	pivot_trim_line(out);
	for (i = 0; i < indent; i++)
		buf_putc(out, ' ');
	return indent;
}

/* Append text wrapped at width columns, breaking after commas or at
 * spaces; continuation lines start with indent spaces. */
void pivot_wrap_list(struct buf *out, const char *lead, const char *text, size_t width,
		      size_t indent)
{
	size_t col = strlen(lead);
	const char *p = text;

	buf_puts(out, lead);
	while (*p) {
		const char *e = p;
		size_t len;

		while (*e && *e != ',' && *e != ' ')
			e++;
		if (*e)
			e++;
		len = (size_t)(e - p);
		/* a word longer than a line: cut it after a '/' or '=' that fits */
		if (len > width - indent) {
			size_t room = col < width ? width - col : 0, cut = 0, j;

			if (room < 8) {
				room = width - indent;
				col = next_line(out, indent);
			}
			for (j = 1; j < room && j < len; j++)
				if (p[j - 1] == '/' || p[j - 1] == '=' || p[j - 1] == '-')
					cut = j;
			if (!cut)
				cut = room;
			buf_add(out, p, cut);
			p += cut;
			col = next_line(out, indent);
			continue;
		}
		if (col + len > width && col > indent)
			col = next_line(out, indent);
		buf_add(out, p, len);
		col += len;
		p = e;
	}
	buf_putc(out, '\n');
}

/* Does variant v have a cell in block b?  A block is one machine's: the
 * variants that have nothing there get no column (or line). */
int pivot_variant_in_block(const struct an_table *t, const struct pivot_block *b, size_t v)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (t->rows[b->rows[i]].cells[v].origin != AN_ORIGIN_NONE)
			return 1;
	return 0;
}

/* Is grid position (line l or column c) a variant absent from block b? */
int pivot_grid_absent(const struct an_table *t, const struct pivot *p, const struct pivot_block *b,
		       size_t lc, int is_col)
{
	if (is_col != p->variant_cols)
		return 0;
	return !pivot_variant_in_block(t, b, lc);
}

/* The heading of the row-key column: the one key that varies ("groups"),
 * else what the rows are. */
const char *pivot_key_heading(const struct pivot *p, const struct pivot_labels *L)
{
	if (!p->variant_cols)
		return "variant";
	if (!p->block_by_metric)
		return "metric";
	return L->key ? L->key : "config";
}

void pivot_geomean_build(struct pivot_geomean *gm, const struct an_table *t, const struct pivot *p,
			  const struct pivot_block *b)
{
	size_t v;

	memset(gm, 0, sizeof(*gm));
	gm->change = xcalloc(t->nvariants + 1, sizeof(*gm->change));
	gm->used = xcalloc(t->nvariants + 1, sizeof(*gm->used));
	for (v = 0; v < t->nvariants; v++) {
		struct buf cb = BUF_INIT;
		double g = NAN;

		if (p->variant_cols && p->block_by_metric && b->n >= 2 && v != t->baseline)
			g = an_geomean_change(t, b->rows, b->n, v, &gm->used[v]);
		if (!isnan(g) && gm->used[v] >= 2) {
			buf_printf(&cb, "%+.*f", change_decimals(t), g);
			gm->shown = 1;
		}
		gm->change[v] = cb.data ? buf_detach(&cb) : xstrdup("");
	}
	for (v = 0; v < t->nvariants && gm->shown; v++)
		if (gm->change[v][0] && gm->used[v] < b->n)
			gm->partial = 1;
}

void pivot_geomean_release(struct pivot_geomean *gm, const struct an_table *t)
{
	size_t v;

	for (v = 0; v < t->nvariants; v++)
		free(gm->change[v]);
	free(gm->change);
	free(gm->used);
}

void render_md_escape(struct buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			buf_putc(out, '\\');
		buf_putc(out, *s);
	}
}

/* The footnote of a geomean row: what entered, and which variants' rows
 * fall short of the block's. */
void pivot_geomean_note(struct buf *out, const struct an_table *t, const struct pivot_block *b,
			 const struct pivot_geomean *gm, int md)
{
	struct buf line = BUF_INIT;
	size_t v;
	int first = 1;
	char tmp[32];

	buf_puts(&line, "geomean: the geometric mean of new/base over the rows with a %chg, "
			"whatever their verdict (not itself tested)");
	for (v = 0; v < t->nvariants; v++) {
		if (!gm->change[v][0] || gm->used[v] >= b->n)
			continue;
		buf_printf(&line, "%s%s %zu of %zu rows", first ? ": " : ", ",
			   pivot_vlabel(t, v, !md, tmp, sizeof(tmp)), gm->used[v], b->n);
		first = 0;
	}
	if (md) {
		buf_puts(out, "_");
		render_md_escape(out, buf_str(&line));
		buf_puts(out, "_\n\n");
	} else {
		pivot_wrap_list(out, "  g ", buf_str(&line), 78, 6);
	}
	buf_release(&line);
}

static int write_buf(FILE *f, const struct buf *b, struct kb_err *err)
{
	if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

int pivot_write(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		const struct pivot_format *fmt, struct kb_err *err)
{
	struct pivot p;
	struct buf out = BUF_INIT;
	size_t k;
	int rc;

	if (pivot_init(&p, t, o, err) < 0)
		return -1;
	if (t->warning)
		buf_printf(&out, "%s%s.\n\n", fmt->warning_lead, t->warning);
	for (k = 0; k < p.nblocks; k++)
		fmt->block(&out, t, &p, &p.blocks[k], o);
	if (!p.nblocks)
		buf_puts(&out, fmt->empty);
	if (!o->no_legend)
		render_table_legend(&out, t, t->nvariants ? t->variants[t->baseline].name : "-");
	rc = write_buf(f, &out, err);
	buf_release(&out);
	pivot_release(&p);
	return rc;
}
