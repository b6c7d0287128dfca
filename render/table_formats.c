/*
 * table_formats.c - the comparison table as GitHub Markdown (the pivot
 * of the text table), and as long records in CSV (libcsv) or JSON
 * (Jansson), the contract of docs/compare.md.  See table.h.
 */
#include "table_int.h"
#include "json.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Markdown --------------------------------------------------------------- */

static void md_block(struct buf *out, const struct an_table *t, const struct pivot *p,
		     const struct pivot_block *b)
{
	struct pivot_grid g;
	struct pivot_labels L;
	struct pivot_geomean gm;
	size_t l, c;
	struct buf title = BUF_INIT;
	const char *machine = render_row_machine(t, &t->rows[b->rows[0]]);
	int base_here = pivot_variant_in_block(t, b, t->baseline);

	pivot_labels_build(&L, t, b);
	pivot_grid_build(&g, t, p, b, p->block_by_metric ? &L : NULL, 0);
	pivot_geomean_build(&gm, t, p, b);
	pivot_block_title(&title, t, p, b, p->block_by_metric ? &L : NULL);
	buf_puts(out, "**");
	render_md_escape(out, buf_str(&title));
	buf_puts(out, "**\n\n");
	buf_release(&title);
	if (machine) {
		buf_puts(out, "machine: ");
		render_md_escape(out, machine);
		buf_puts(out, "\n\n");
	}
	if (p->block_by_metric && L.common) {
		buf_puts(out, "config: ");
		render_md_escape(out, L.common);
		buf_puts(out, "\n\n");
	}
	if (!base_here) {
		buf_puts(out, "the baseline ");
		render_md_escape(out, t->variants[t->baseline].name);
		buf_puts(out, " has no data here: no changes\n\n");
		for (c = 0; c < g.ncols; c++)
			g.cw[c] = 0;
	}
	buf_puts(out, "| ");
	render_md_escape(out, pivot_key_heading(p, &L));
	buf_puts(out, " | n |");
	for (c = 0; c < g.ncols; c++) {
		if (pivot_grid_absent(t, p, b, c, 1))
			continue;
		buf_putc(out, ' ');
		render_md_escape(out, g.col_labels[c]);
		buf_puts(out, " |");
		if (g.cw[c]) {
			buf_puts(out, " %chg ");
			render_md_escape(out, g.col_labels[c]);
			buf_puts(out, " |");
		}
		if (g.pw[c]) {
			buf_puts(out, " table ");
			render_md_escape(out, g.col_labels[c]);
			buf_puts(out, " |");
		}
	}
	buf_puts(out, "\n|---|---:|");
	for (c = 0; c < g.ncols; c++) {
		if (pivot_grid_absent(t, p, b, c, 1))
			continue;
		buf_puts(out, g.cw[c] ? "---:|---:|" : "---:|");
		if (g.pw[c])
			buf_puts(out, "---:|");
	}
	buf_putc(out, '\n');
	for (l = 0; l < g.nlines; l++) {
		if (pivot_grid_absent(t, p, b, l, 0))
			continue;
		buf_puts(out, "| ");
		render_md_escape(out, g.line_labels[l]);
		buf_printf(out, " | %s |", g.line_n[l]);
		for (c = 0; c < g.ncols; c++) {
			struct pivot_gcell *gc = pivot_gat(&g, l, c);

			if (pivot_grid_absent(t, p, b, c, 1))
				continue;
			buf_putc(out, ' ');
			buf_puts(out, gc->value);
			if (gc->flags[0])
				buf_printf(out, " %s", gc->flags);
			buf_puts(out, " |");
			if (g.cw[c]) {
				buf_putc(out, ' ');
				buf_puts(out, gc->change);
				if (gc->change[0])
					buf_putc(out, '%');
				if (gc->mark != ' ' && gc->change[0])
					buf_printf(out, " %c", gc->mark);
				buf_puts(out, " |");
			}
			if (g.pw[c]) {
				buf_putc(out, ' ');
				render_md_escape(out, gc->pub);
				buf_puts(out, " |");
			}
		}
		buf_putc(out, '\n');
	}
	if (gm.shown) {
		buf_puts(out, "| geomean | |");
		for (c = 0; c < g.ncols; c++) {
			if (pivot_grid_absent(t, p, b, c, 1))
				continue;
			buf_puts(out, " |");
			if (g.cw[c])
				buf_printf(out, " %s%s |", gm.change[c], gm.change[c][0] ? "%" : "");
			if (g.pw[c])
				buf_puts(out, " |");
		}
		buf_putc(out, '\n');
	}
	buf_putc(out, '\n');
	if (gm.shown)
		pivot_geomean_note(out, t, b, &gm, 1);
	pivot_geomean_release(&gm, t);
	pivot_grid_release(&g);
	pivot_labels_free(&L);
}


static void md_block_o(struct buf *out, const struct an_table *t, const struct pivot *p,
		       const struct pivot_block *b, const struct render_table_opts *o)
{
	(void)o;
	md_block(out, t, p, b);
}

static const struct pivot_format md_format = {
	.warning_lead = "**Note:** ",
	.empty = "_No data matched the selection._\n\n",
	.block = md_block_o,
};

int render_table_md(FILE *f, const struct an_table *t, const struct render_table_opts *o,
		    struct kb_err *err)
{
	return pivot_write(f, t, o, &md_format, err);
}

/* Long records (CSV and JSON) ------------------------------------------------ */

static const char *const long_cols[] = {
	"benchmark", "config", "machine", "metric", "unit", "better", "variant", "n", "mean", "sd",
	"median", "min", "max", "cv_pct", "ci_low", "ci_high", "change_pct", "change_ci_low",
	"change_ci_high", "p", "q", "verdict", "flags", "origin", "runs_needed", "note",
};

static const char *cell_verdict(const struct an_cell *c)
{
	if (c->is_baseline)
		return "baseline";
	if (!c->has_change)
		return NULL;
	return an_verdict_name(c->chg.verdict);
}

/* What c's mean is: "harmonic" (a throughput cell's runs), "arithmetic"
 * (other runs, or a throughput cell with a value <= 0), "published" (a
 * summary's own mean: mmtests' Hmean or Amean as printed); NULL empty. */
static const char *cell_mean_kind(const struct an_cell *c)
{
	if (c->origin == AN_ORIGIN_SUMMARY)
		return "published";
	if (c->origin != AN_ORIGIN_SAMPLES)
		return NULL;
	return c->d.flags & AN_F_HMEAN ? "harmonic" : "arithmetic";
}

json_t *render_jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *cell_json(const struct an_table *t, const struct an_row *row, size_t v)
{
	const struct an_cell *c = &row->cells[v];
	const struct an_change *g = c->has_change ? &c->chg : NULL;
	json_t *o = json_object(), *flags = json_array();
	const char *names[32];
	size_t i, nf = an_flag_names(c->flags, names, ARRAY_SIZE(names));

	json_object_set_new(o, "benchmark", json_string(row->benchmark));
	json_object_set_new(o, "config", json_string(row->config));
	if (render_row_machine(t, row))
		json_object_set_new(o, "machine", json_string(render_row_machine(t, row)));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit));
	json_object_set_new(o, "better", json_string(an_direction_name(row->dir)));
	json_object_set_new(o, "variant", json_string(t->variants[v].name));
	json_object_set_new(o, "n", c->origin == AN_ORIGIN_NONE || !c->d.n ? json_null()
									   : json_integer((json_int_t)c->d.n));
	if (c->flags & AN_F_JOBS) {
		/* values are run means of a per-job metric: the jobs behind them */
		json_object_set_new(o, "jobs", json_integer((json_int_t)c->njobs));
		json_object_set_new(o, "job_sd", render_jnum(c->job_sd));
	}
	json_object_set_new(o, "mean", render_jnum(c->d.mean));
	json_object_set_new(o, "mean_kind", render_jstr(cell_mean_kind(c)));
	json_object_set_new(o, "sd", render_jnum(c->d.sd));
	json_object_set_new(o, "median", render_jnum(c->d.median));
	json_object_set_new(o, "min", render_jnum(c->d.min));
	json_object_set_new(o, "max", render_jnum(c->d.max));
	json_object_set_new(o, "cv_pct", render_jnum(c->d.cv));
	json_object_set_new(o, "ci_low", render_jnum(c->d.ci_low));
	json_object_set_new(o, "ci_high", render_jnum(c->d.ci_high));
	json_object_set_new(o, "change_pct", render_jnum(g ? g->change : NAN));
	json_object_set_new(o, "change_ci_low", render_jnum(g ? g->ci_low : NAN));
	json_object_set_new(o, "change_ci_high", render_jnum(g ? g->ci_high : NAN));
	json_object_set_new(o, "p", render_jnum(g ? g->p : NAN));
	json_object_set_new(o, "q", render_jnum(g ? g->q : NAN));
	json_object_set_new(o, "verdict", render_jstr(cell_verdict(c)));
	if (c->published) {
		/* the published table's own verdict, as printed */
		json_t *pub = json_object();
		json_object_set_new(pub, "change", render_jnum(c->pub_change));
		json_object_set_new(pub, "mark", json_string(c->pub_mark ? c->pub_mark : ""));
		json_object_set_new(o, "published", pub);
	}
	for (i = 0; i < nf && i < ARRAY_SIZE(names); i++)
		json_array_append_new(flags, json_string(names[i]));
	json_object_set_new(o, "flags", flags);
	json_object_set_new(o, "origin", json_string(an_origin_name(c->origin)));
	json_object_set_new(o, "runs_needed", render_jnum(g ? g->runs_needed : NAN));
	json_object_set_new(o, "note", render_jstr(c->note));
	return o;
}

int render_json_dump(FILE *f, json_t *root, struct kb_err *err)
{
	int rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));

	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

/* The geomean rows of the default text table (a block per benchmark,
 * machine and metric), one record per variant: its geomean change, the
 * rows that entered and the block's rows. */
static json_t *geomeans_json(const struct an_table *t)
{
	struct render_table_opts o;
	struct pivot p;
	struct kb_err e;
	json_t *arr = json_array();
	size_t k, v;

	render_table_opts_init(&o);
	kb_err_clear(&e);
	if (pivot_init(&p, t, &o, &e) < 0)
		return arr;
	for (k = 0; k < p.nblocks; k++) {
		const struct pivot_block *b = &p.blocks[k];
		const struct an_row *row = &t->rows[b->rows[0]];
		struct pivot_geomean gm;

		pivot_geomean_build(&gm, t, &p, b);
		for (v = 0; v < t->nvariants && gm.shown; v++) {
			json_t *o1;
			size_t used;

			if (!gm.change[v][0])
				continue;
			o1 = json_object();
			json_object_set_new(o1, "benchmark", json_string(row->benchmark));
			if (render_row_machine(t, row))
				json_object_set_new(o1, "machine", json_string(render_row_machine(t, row)));
			json_object_set_new(o1, "metric", json_string(row->metric));
			json_object_set_new(o1, "variant", json_string(t->variants[v].name));
			json_object_set_new(o1, "change_pct",
					    render_jnum(an_geomean_change(t, b->rows, b->n, v, &used)));
			json_object_set_new(o1, "rows", json_integer((json_int_t)used));
			json_object_set_new(o1, "of", json_integer((json_int_t)b->n));
			json_array_append_new(arr, o1);
		}
		pivot_geomean_release(&gm, t);
	}
	pivot_release(&p);
	return arr;
}

int render_table_json(FILE *f, const struct an_table *t, struct kb_err *err)
{
	json_t *root = json_object(), *rows = json_array(), *gms;
	size_t r, v;

	json_object_set_new(root, "kbench", json_string("compare"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "baseline",
			    t->nvariants ? json_string(t->variants[t->baseline].name) : json_null());
	json_object_set_new(root, "change", json_string(an_convention_name(t->opts.conv)));
	json_object_set_new(root, "test", json_string(an_test_name(t->opts.test)));
	json_object_set_new(root, "alpha", json_real(t->opts.alpha));
	json_object_set_new(root, "threshold_pct", json_real(t->opts.delta));
	json_object_set_new(root, "comparisons", json_integer((json_int_t)t->ncompared));
	if (t->warning)
		json_object_set_new(root, "warning", json_string(t->warning));
	gms = geomeans_json(t);
	if (json_array_size(gms))
		json_object_set_new(root, "geomeans", gms);
	else
		json_decref(gms);
	for (r = 0; r < t->nrows; r++)
		for (v = 0; v < t->nvariants; v++)
			if (t->rows[r].cells[v].origin != AN_ORIGIN_NONE)
				json_array_append_new(rows, cell_json(t, &t->rows[r], v));
	json_object_set_new(root, "rows", rows);
	return render_json_dump(f, root, err);
}

/* Write one CSV record of strings (NULL = empty field). */
int render_csv_record(FILE *f, const char *const *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = fields[i] ? fields[i] : "";
		if (i && fputc(',', f) == EOF)
			return -1;
		if (csv_fwrite(f, s, strlen(s)) != 0)
			return -1;
	}
	return fputc('\n', f) == EOF ? -1 : 0;
}

/* A JSON value as a CSV field: strings bare, numbers shortest, null
 * empty, arrays joined with ';'. */
char *render_json_field(json_t *x)
{
	struct buf b = BUF_INIT;
	size_t i;

	if (!x || json_is_null(x))
		return xstrdup("");
	if (json_is_string(x))
		return xstrdup(json_string_value(x));
	if (json_is_integer(x)) {
		buf_printf(&b, "%lld", (long long)json_integer_value(x));
	} else if (json_is_real(x)) {
		buf_printf(&b, "%.12g", json_real_value(x));
	} else if (json_is_array(x)) {
		for (i = 0; i < json_array_size(x); i++) {
			char *s = render_json_field(json_array_get(x, i));
			if (i)
				buf_putc(&b, ';');
			buf_puts(&b, s);
			free(s);
		}
	}
	return b.data ? buf_detach(&b) : xstrdup("");
}

int render_table_csv(FILE *f, const struct an_table *t, struct kb_err *err)
{
	const size_t n = ARRAY_SIZE(long_cols);
	const char *fields[ARRAY_SIZE(long_cols)];
	char *owned[ARRAY_SIZE(long_cols)];
	size_t r, v, i;

	if (render_csv_record(f, long_cols, n) < 0)
		return kb_err_set(err, "", 0, "write error");
	for (r = 0; r < t->nrows; r++) {
		for (v = 0; v < t->nvariants; v++) {
			json_t *o;
			int rc;

			if (t->rows[r].cells[v].origin == AN_ORIGIN_NONE)
				continue;
			o = cell_json(t, &t->rows[r], v);
			for (i = 0; i < n; i++)
				fields[i] = owned[i] = render_json_field(json_object_get(o, long_cols[i]));
			rc = render_csv_record(f, fields, n);
			for (i = 0; i < n; i++)
				free(owned[i]);
			json_decref(o);
			if (rc < 0)
				return kb_err_set(err, "", 0, "write error");
		}
	}
	return 0;
}

