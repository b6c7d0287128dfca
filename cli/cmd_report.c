/*
 * cmd_report.c - `kbench report [selection] --format html|text [-o FILE]
 * [--assets DIR]`: a whole report.  This file gathers everything (the
 * store's variants, machines and sources; one comparison per benchmark;
 * charts; numa_test job tables; regress findings) into the report model
 * of render/report.h, which renders it.
 */
#include "cli.h"
#include "progress.h"
#include "select.h"
#include "../analyze/regress.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../db/placement.h"
#include "../ingest/mail.h"
#include "../render/chart.h"
#include "../render/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Charts of a benchmark's section: a bars chart per metric, the change
 * forest plot when it stays readable. */
#define MAX_CHANGE_ROWS 40       /* more: the top 40 by |change|, the chart says so */
#define MAX_BAR_CONFIGS 16      /* more configurations: the table says it better */

/* Wide sections: per metric, the mean of each configuration along the
 * variants (a history chart, one line per configuration). */
static void section_history_charts(struct report_section *s, const struct chart_model_opts *co)
{
	const struct an_table *t = &s->table;
	size_t r, k, v, ncharts = 0;

	for (r = 0; r < t->nrows && ncharts < 6; r++) {
		const struct an_row *row = &t->rows[r];
		struct chart *c;
		char cap[512];
		int seen = 0;

		for (k = 0; k < r; k++)
			if (!strcmp(t->rows[k].metric, row->metric))
				seen = 1;
		if (seen)
			continue;
		c = chart_new(CHART_HISTORY);
		chart_set_size(c, 900, 420, 1);
		for (v = 0; v < t->nvariants; v++)
			chart_category(c, t->variants[v].name);
		for (k = r; k < t->nrows; k++) {
			int sr;

			if (strcmp(t->rows[k].metric, row->metric))
				continue;
			sr = chart_series(c, *t->rows[k].config ? t->rows[k].config : row->metric);
			for (v = 0; v < t->nvariants; v++) {
				const struct an_cell *cell = &t->rows[k].cells[v];

				if (cell->origin != AN_ORIGIN_NONE && !isnan(cell->d.mean))
					chart_value(c, sr, (int)v, cell->d.mean,
						    co->errbar == CHART_ERR_SD ? cell->d.sd : NAN);
			}
		}
		c->errbar = (enum chart_errbar)co->errbar;
		snprintf(cap, sizeof(cap), "%s: %s", s->benchmark, row->metric);
		chart_set_title(c, cap);
		chart_set_axis(c, 'x', "variant", NULL);
		chart_set_axis(c, 'y', row->metric, *row->unit ? row->unit : NULL);
		snprintf(cap, sizeof(cap), "%s %s: the mean of each configuration along the %zu "
			 "variants (in store order)", s->benchmark, row->metric, t->nvariants);
		report_chart(&s->charts, c, cap);
		ncharts++;
	}
}

static void section_charts(struct report_section *s, enum chart_errbar eb,
			   const struct chart_model_opts *styles)
{
	const struct an_table *t = &s->table;
	struct chart_model_opts co = *styles;
	struct kb_err err;
	size_t r, k, nchg = 0;

	co.errbar = (int)eb;
	if (t->nvariants > REPORT_MAX_SIDE_BY_SIDE) {
		section_history_charts(s, &co);
		return;
	}
	for (r = 0; r < t->nrows; r++) {
		const struct an_row *row = &t->rows[r];
		struct chart *c;
		char cap[512];
		int seen = 0, cells = 0, configs = 0;

		for (k = 0; k < r; k++)
			if (!strcmp(t->rows[k].metric, row->metric))
				seen = 1;
		if (seen)
			continue;
		for (k = r; k < t->nrows; k++) {
			size_t v;

			if (strcmp(t->rows[k].metric, row->metric))
				continue;
			configs++;
			for (v = 0; v < t->nvariants; v++)
				if (t->rows[k].cells[v].origin != AN_ORIGIN_NONE &&
				    !isnan(t->rows[k].cells[v].d.mean))
					cells++;
		}
		if (!cells || configs > MAX_BAR_CONFIGS)
			continue;
		c = chart_new(CHART_BARS);
		chart_set_size(c, 720, 380, 1);
		if (chart_model_from_table(c, t, s->benchmark, row->metric, &co, &err) < 0) {
			chart_free(c);
			continue;
		}
		snprintf(cap, sizeof(cap), "%s %s: mean per configuration and variant, whiskers %s",
			 s->benchmark, row->metric,
			 eb == CHART_ERR_CI95 ? "95% CI of the mean" : eb == CHART_ERR_SD ? "\xC2\xB1 sd" : "none");
		report_chart(&s->charts, c, cap);
	}
	for (r = 0; r < t->nrows; r++)
		for (k = 0; k < t->nvariants; k++)
			if (t->rows[r].cells[k].has_change &&
			    t->rows[r].cells[k].chg.verdict != AN_VERDICT_NONE &&
			    !isnan(t->rows[r].cells[k].chg.change))
				nchg++;
	if (nchg) {
		struct chart *c = chart_new(CHART_CHANGE);
		char cap[512];

		chart_set_size(c, 720, 300, 1);
		c->max_rows = MAX_CHANGE_ROWS;
		if (chart_model_change(c, t, s->benchmark, &co, &err) < 0) {
			chart_free(c);
			return;
		}
		snprintf(cap, sizeof(cap), "%s: change against %s with its 95%% interval, "
			 "coloured by verdict; the band is the \xC2\xB1%g%% threshold",
			 s->benchmark, t->variants[t->baseline].name, t->opts.delta);
		report_chart(&s->charts, c, cap);
	}
}

/* Placement panels per chart: longer selections become more charts. */
#define PLACEMENT_PAGE 12
#define PLACEMENT_PAGES 2       /* per variant; the rest are in the job tables' count */

/* numa_test: job tables, a heatmap per variant, jobs per node. */
static int run_selected(const struct db_prun *r, const struct cli_select *sel, const char *bench)
{
	return !strcmp(r->benchmark, bench) && cli_select_variant_match(sel, r->variant) &&
	       cli_select_config_match(sel, r->config);
}

static size_t placement_runs(const struct db_placement *pl, const struct cli_select *sel,
			     const char *bench)
{
	size_t i, n = 0;

	for (i = 0; i < pl->nruns; i++)
		n += run_selected(&pl->runs[i], sel, bench);
	return n;
}

static void section_placement(struct report_section *s, const struct db_placement *pl,
			      const struct cli_select *sel, int charts,
			      const struct chart_model_opts *styles)
{
	const struct db_prun **runs = xmalloc((pl->nruns + 1) * sizeof(*runs));
	size_t i, j, n = 0;
	struct chart_model_opts co = *styles;
	struct kb_err err;

	for (i = 0; i < pl->nruns; i++) {
		const struct db_prun *r = &pl->runs[i];

		if (run_selected(r, sel, s->benchmark))
			runs[n++] = r;
	}
	for (i = 0; i < n; i++) {
		const struct db_prun *r = runs[i];
		struct report_run *rr;

		if (i >= REPORT_MAX_JOB_TABLES) {
			s->runs_left_out = n - i;
			break;
		}
		rr = report_run(s, r->run_id, r->variant, r->config, r->nnodes);

		for (j = 0; j < r->njobs; j++)
			report_job(rr, r->jobs[j].job, r->jobs[j].initial_node, r->jobs[j].main_node,
				   r->jobs[j].moved, r->jobs[j].user, r->jobs[j].pct);
	}
	/* one heatmap per variant, its runs as small multiples; a page per
	 * PLACEMENT_PAGE runs */
	for (i = 0; i < n && charts; i++) {
		size_t np = 0, total = 0, page = 0, npages;

		for (j = 0; j < i; j++)
			if (runs[j]->variant_id == runs[i]->variant_id)
				break;
		if (j < i)
			continue;
		for (j = i; j < n; j++)
			total += runs[j]->variant_id == runs[i]->variant_id;
		npages = (total + PLACEMENT_PAGE - 1) / PLACEMENT_PAGE;
		/* a big store: the first pages of each variant (the captions say so) */
		if (npages > PLACEMENT_PAGES)
			npages = PLACEMENT_PAGES;
		for (j = i; j < n; j += 0) {
			struct chart *c = chart_new(CHART_PLACEMENT);
			char title[512];

			np = 0;
			for (; j < n && np < PLACEMENT_PAGE; j++)
				if (runs[j]->variant_id == runs[i]->variant_id) {
					cli_chart_panel(c, runs[j], 0);
					np++;
				}
			page++;
			chart_set_size(c, 900, 400, 1);
			if (total > PLACEMENT_PAGE * PLACEMENT_PAGES)
				snprintf(title, sizeof(title), "%s job placement: %s (page %zu of the "
					 "first %d of %zu runs)", s->benchmark, runs[i]->variant, page,
					 PLACEMENT_PAGE * PLACEMENT_PAGES, total);
			else if (npages > 1)
				snprintf(title, sizeof(title), "%s job placement: %s (%zu of %zu)",
					 s->benchmark, runs[i]->variant, page, npages);
			else
				snprintf(title, sizeof(title), "%s job placement: %s", s->benchmark,
					 runs[i]->variant);
			chart_set_title(c, title);
			chart_set_axis(c, 'x', "node", NULL);
			chart_set_axis(c, 'y', "job", NULL);
			snprintf(title, sizeof(title), "%s: percent of time per node for every job; the "
				 "initial node outlined, a diamond = main node differs from the initial one",
				 runs[i]->variant);
			report_chart(&s->placement, c, title);
			if (page == npages)
				break;
		}
	}
	if (n && charts) {
		struct chart *c = chart_new(CHART_NODELOAD);

		chart_set_size(c, 900, 420, 1);
		if (cli_chart_nodeload(c, runs, n, &co, &err) == 0)
			report_chart(&s->placement, c, "Jobs per node (by the node with most time) per "
				     "variant and task count: an even spread, or a light load packed "
				     "onto few nodes");
		else
			chart_free(c);
	}
	free(runs);
}

/* Heatmaps of the runs a placement finding rests on. */
static void finding_charts(struct report *rep, const struct an_regress *g,
			   const struct db_placement *pl)
{
	size_t i, k, j;

	for (i = 0; i < g->nfindings; i++) {
		const struct an_finding *f = &g->findings[i];
		struct chart *c;
		char cap[600];
		size_t np = 0;

		/* the heatmaps of what went wrong (or changed) */
		if (f->kind != AN_FINDING_PLACEMENT || !f->nruns ||
		    (f->verdict != AN_VERDICT_WORSE && f->verdict != AN_VERDICT_CHANGED))
			continue;
		c = chart_new(CHART_PLACEMENT);
		for (k = 0; k < f->nruns; k++)
			for (j = 0; j < pl->nruns; j++)
				if (pl->runs[j].run_id == f->runs[k].id) {
					cli_chart_panel(c, &pl->runs[j], 1);
					np++;
				}
		if (!np) {
			chart_free(c);
			continue;
		}
		chart_set_size(c, 720, 400, 1);     /* the layout sizes it to its panels */
		snprintf(cap, sizeof(cap), "%s %s: %s %s (%s)", f->benchmark,
			 *f->config ? f->config : "-", f->metric, an_verdict_name(f->verdict), f->variant);
		chart_set_title(c, cap);
		report_finding_chart(rep, i, c, cap);
		if (rep->nfinding_charts >= 8)
			break;
	}
}

/* Sections ------------------------------------------------------------------ */

/*
 * One section of a report is one selection: a benchmark, the variants
 * and baseline of the report's selection, and its filters (config, and
 * machine or post when a policy adds them).  report_plan() turns the
 * report's selection into the list; a policy that splits a store into
 * comparable sets (per post, per machine) builds more, narrower entries
 * here and nothing else changes: every section is compared by
 * section_compare() and all of them form one BH family.
 */
struct report_plan {
	char *title;            /* the section heading */
	char *bench;
	struct an_query q;      /* borrows from the report's cli_select, or from below */
	struct cli_select sel;  /* the report's, narrowed to the set's variants */
	char **vars;            /* a comparable set's variants (owned) */
	size_t nvars;
	const char *mach[1];    /* a machine set's machine */
	char *machine;          /* owned */
};

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
static size_t report_plan(struct db *db, const struct db_list *list, const struct cli_select *sel,
			  const struct an_query *q, struct report_plan **out, struct kb_err *err)
{
	struct db_cset *sets = NULL;
	size_t i, k, n = 0, nsets = 0;

	if (q->nvariants || q->baseline) {
		*out = xcalloc(list->nbenches + 1, sizeof(**out));
		for (i = 0; i < list->nbenches; i++) {
			const char *bench = list->benches[i].benchmark;
			struct report_plan *p;

			if (sel->bench && strcmp(sel->bench, bench))
				continue;
			p = &(*out)[n++];
			p->title = xstrdup(bench);
			p->bench = xstrdup(bench);
			p->q = *q;
			p->q.bench = p->bench;
			p->q.defer_bh = 1;
			p->sel = *sel;
		}
		return n;
	}
	if (db_comparable_sets(db, sel->bench && *sel->bench ? sel->bench : NULL, &sets, &nsets,
			       err) < 0) {
		*out = NULL;
		return (size_t)-1;
	}
	*out = xcalloc(nsets + 1, sizeof(**out));
	for (i = 0; i < nsets; i++) {
		const struct db_cset *c = &sets[i];
		struct report_plan *p = &(*out)[n++];

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
		p->sel = *sel;
		p->sel.variant_v = (const char **)p->vars;
		p->sel.nvariant_v = p->nvars;
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
	return n;
}

static void report_plan_release(struct report_plan *plan, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(plan[i].title);
		free(plan[i].bench);
		for (k = 0; k < plan[i].nvars; k++)
			free(plan[i].vars[k]);
		free(plan[i].vars);
		free(plan[i].machine);
	}
	free(plan);
}

/* The comparison of one section, BH left to the caller.  When the
 * report's baseline has no data in it, the section compares against its
 * first variant, and note says so. */
static int section_compare(struct db *db, const struct report_plan *p, struct an_table *t,
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

static void describe_selection(struct buf *b, const struct cli_select *s)
{
	size_t i;

	buf_puts(b, s->bench ? s->bench : "every benchmark");
	if (s->nmetric_v) {
		buf_puts(b, "; metrics ");
		for (i = 0; i < s->nmetric_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->metric_v[i]);
	}
	if (s->nvariant_v) {
		buf_puts(b, "; variants ");
		for (i = 0; i < s->nvariant_v; i++)
			buf_printf(b, "%s%s", i ? ", " : "", s->variant_v[i]);
	}
	for (i = 0; i < s->nkv; i++)
		buf_printf(b, "; %s=%s", s->kv[i].key, s->kv[i].value);
	if (s->baseline)
		buf_printf(b, "; baseline %s", s->baseline);
}

static char *now_text(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char out[64];

	if (sde && *sde)
		t = (time_t)strtoll(sde, NULL, 10);
	gmtime_r(&t, &tm);
	strftime(out, sizeof(out), "%Y-%m-%d %H:%M UTC", &tm);
	return xstrdup(out);
}

/* mkdir -p */
static int make_dirs(const char *path, struct kb_err *err)
{
	char *p, *s;

	if (!path[0])
		return kb_err_set(err, "", 0, "an empty name is not a directory");
	p = xstrdup(path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
				free(p);
				return -1;
			}
			*s = '/';
		}
	if (mkdir(p, 0777) < 0 && errno != EEXIST) {
		kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

/* The assets directory as the HTML file should name it: relative to the
 * file's directory when inside it, else absolute. */
static char *assets_href(const char *assets, const char *out)
{
	char a[PATH_MAX], d[PATH_MAX], *dir, *slash;
	size_t n;

	dir = xstrdup(out ? out : "./x");
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		strcpy(dir, ".");
	if (!realpath(assets, a) || !realpath(dir, d)) {
		free(dir);
		return xstrdup(assets);
	}
	free(dir);
	n = strlen(d);
	if (!strcmp(a, d))
		return xstrdup("");
	if (!strncmp(a, d, n) && (a[n] == '/' || (n == 1 && d[0] == '/')))
		return xstrdup(a + n + (a[n] == '/'));
	return xstrdup(a);
}

int cmd_report(int argc, char **argv)
{
	struct progress prog;
	struct cli_select sel;
	const char *format = "html", *out = NULL, *assets = NULL, *title = NULL, *errbar = NULL;
	int no_findings = 0, no_charts = 0;
	const struct opt opts[] = {
		CLI_SELECT_OPTS(&sel),
		OPT_STRING("format", "html|text", &format, "an HTML page (default) or a plain-text mail body"),
		OPT_STRING("output", "FILE", &out, "(-o) write to FILE (default: standard output)"),
		OPT_STRING("assets", "DIR", &assets, "html: write the charts as PNG files into DIR"),
		OPT_STRING("title", "T", &title, "the report's title"),
		OPT_STRING("error", "sd|ci|none", &errbar, "whiskers of the bar charts (default sd)"),
		OPT_FLAG("no-findings", &no_findings, "leave out the regress findings"),
		OPT_FLAG("no-charts", &no_charts, "html: tables only"),
		OPT_FLAG("use-flagged", &sel.use_flagged, "test footnoted published cells too"),
		OPT_END,
	};
	const struct cmd_usage u = { "report",
		"[selection] [--baseline V] [--format html|text] [-o FILE] [--assets DIR]",
		"A whole report: findings and verdicts first, then per benchmark its\n"
		"comparison table, charts and (numa_test) job tables; methods last.\n"
		"HTML is one self-contained file unless --assets.  See docs/report.md.", opts };
	struct report rep;
	struct an_query q;
	struct an_regress g;
	struct db_list list;
	struct db_placement pl;
	struct db *db = NULL;
	struct kb_err err;
	struct buf b = BUF_INIT;
	const char **args;
	size_t nargs, i, v, k;
	int rc, html, have_list = 0, have_pl = 0, have_g = 0, status = EXIT_USAGE, eb;
	FILE *f = NULL;
	char *href = NULL;
	struct report_plan *plan = NULL;
	struct an_table **tables = NULL;
	const char **styles = NULL;
	struct chart_model_opts sco;
	size_t nplan = 0;

	cli_select_init(&sel);
	cli_short_output(argc, argv);
	progress_init(&prog, "report", 0, 1.0);
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc) {
		cli_select_release(&sel);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	free(args);
	kb_err_clear(&err);
	report_init(&rep);
	memset(&g, 0, sizeof(g));
	an_query_init(&q);
	if (nargs) {
		fprintf(stderr, "kbench report: unexpected argument\n");
		goto usage;
	}
	if (!strcmp(format, "html")) {
		html = 1;
	} else if (!strcmp(format, "text")) {
		html = 0;
	} else {
		fprintf(stderr, "kbench report: --format is html or text\n");
		goto usage;
	}
	if (assets && !assets[0]) {
		fprintf(stderr, "kbench report: --assets needs a directory name\n");
		goto usage;
	}
	if (assets && !html) {
		fprintf(stderr, "kbench report: --assets goes with --format html\n");
		goto usage;
	}
	if (chart_model_errbar(errbar, &eb) < 0) {
		fprintf(stderr, "kbench report: --error is sd, ci or none\n");
		goto usage;
	}
	if (cli_select_query(&sel, &q, &err) < 0) {
		cli_report("report", &err);
		goto usage;
	}
	if (db_open_existing(&db, cli_db_path(sel.db), &err) < 0)
		goto fail;
	{
		struct cli_names nm;

		cli_select_names(&sel, &nm);
		if (cli_selection_check(db, &nm, &err) < 0 || cli_select_resolve(&sel, db, &q, &err) < 0)
			goto fail;
	}
	if (db_list(db, &list, &err) < 0)
		goto fail;
	have_list = 1;
	/* A status line on a terminal once this takes more than a second. */
	prog.on = progress_tty();
	progress_start_ticker(&prog);
	if (cli_placement_load(db, &pl, &err) < 0)
		goto fail;
	have_pl = 1;

	/* The sections (one selection each), all compared into one result:
	 * one Benjamini-Hochberg family for the whole report. */
	nplan = report_plan(db, &list, &sel, &q, &plan, &err);
	if (nplan == (size_t)-1) {
		nplan = 0;
		goto fail;
	}
	for (i = 0; i < nplan; i++) {
		struct report_section *s;
		struct an_table t;
		progress_step(&prog, "comparing section", i + 1, nplan);

		buf_reset(&b);
		if (section_compare(db, &plan[i], &t, &b, &err) < 0)
			goto fail;
		if (!t.nrows && !placement_runs(&pl, &plan[i].sel, plan[i].bench)) {
			an_table_release(&t);
			continue;
		}
		if (t.warning) {
			if (b.len)
				buf_putc(&b, ' ');
			buf_printf(&b, "Note: %s.", t.warning);
		}
		s = report_section(&rep, plan[i].bench);
		if (strcmp(plan[i].title, plan[i].bench) != 0)
			s->title = xstrdup(plan[i].title);
		s->plan = i;
		if (b.len)
			s->note = xstrdup(buf_str(&b));
		s->table = t;
		rep.opts = t.opts;
	}
	if (!rep.nsections) {
		cli_select_empty(&err, &sel);
		goto fail;
	}
	tables = xmalloc(rep.nsections * sizeof(*tables));
	for (i = 0; i < rep.nsections; i++)
		tables[i] = &rep.sections[i].table;
	an_tables_bh(tables, rep.nsections);
	rep.family = rep.sections[0].table.ncompared;
	/* one look per variant in every chart: its place in the store */
	styles = xmalloc((list.nvariants + 1) * sizeof(*styles));
	for (i = 0; i < list.nvariants; i++)
		styles[i] = list.variants[i].name;
	memset(&sco, 0, sizeof(sco));
	sco.styles = styles;
	sco.nstyles = list.nvariants;
	for (i = 0; i < rep.nsections; i++) {
		struct report_section *s = &rep.sections[i];

		if (html && !no_charts)
			section_charts(s, (enum chart_errbar)eb, &sco);
		section_placement(s, &pl, &plan[s->plan].sel, html && !no_charts, &sco);
	}
	rep.opts.dir = AN_DIR_NONE;

	/* Variants with data in the report, in store order, with descriptions. */
	for (v = 0; v < list.nvariants; v++) {
		int used = 0;

		for (i = 0; i < rep.nsections && !used; i++) {
			for (k = 0; k < rep.sections[i].table.nvariants && !used; k++)
				used = !strcmp(rep.sections[i].table.variants[k].name, list.variants[v].name);
			for (k = 0; k < rep.sections[i].nruns && !used; k++)
				used = !strcmp(rep.sections[i].runs[k].variant, list.variants[v].name);
		}
		if (used)
			report_variant(&rep, list.variants[v].name, list.variants[v].kernel,
				       list.variants[v].description);
	}
	for (i = 0; i < list.nmachines; i++) {
		buf_reset(&b);
		buf_puts(&b, list.machines[i].name);
		if (list.machines[i].description && *list.machines[i].description)
			buf_printf(&b, ": %s", list.machines[i].description);
		buf_printf(&b, " (%lld runs)", list.machines[i].runs);
		report_machine(&rep, buf_str(&b));
	}
	for (i = 0; i < list.nsources; i++) {
		buf_reset(&b);
		if (list.sources[i].mail_from || list.sources[i].mail_date ||
		    list.sources[i].mail_subject) {
			mail_byline(list.sources[i].mail_from, list.sources[i].mail_date,
				    list.sources[i].mail_subject, &b);
			buf_puts(&b, ": ");
		}
		buf_printf(&b, "%s [%s] %lld runs, %lld summaries, sha256 %.12s, imported %s",
			   list.sources[i].path, list.sources[i].format ? list.sources[i].format : "-",
			   list.sources[i].runs, list.sources[i].summaries,
			   list.sources[i].sha256 ? list.sources[i].sha256 : "-",
			   list.sources[i].imported_at ? list.sources[i].imported_at : "-");
		report_source(&rep, buf_str(&b));
	}

	/* Findings (kbench regress) at the top: read from the same tables, so
	 * every count and q-value matches the sections. */
	if (!no_findings) {
		struct an_regress_opts ro;

		an_regress_opts_init(&ro);
		ro.q = q;
		progress_step(&prog, "looking for regressions", 0, 0);
		if (an_regress_from_tables(db, &ro, (const struct an_table *const *)tables,
					   rep.nsections, &g, &err) == 0) {
			have_g = 1;
			rep.regress = &g;
			if (html && !no_charts)
				finding_charts(&rep, &g, &pl);
		} else {
			/* e.g. the baseline lacks data somewhere: the report stands without */
			progress_end(&prog);    /* (no status line over the message) */
			fprintf(stderr, "kbench report: no findings: %s\n", err.msg);
			kb_err_clear(&err);
		}
	}

	rep.title = xstrdup(title ? title : "kbench report");
	rep.generated = now_text();
	rep.db = xstrdup(db_name(db));	/* a server's password masked */
	buf_reset(&b);
	describe_selection(&b, &sel);
	rep.selection = xstrdup(buf_str(&b));

	if (assets) {
		if (make_dirs(assets, &err) < 0)
			goto fail;
		href = assets_href(assets, out);
	}
	progress_step(&prog, out ? "writing the report" : "", 0, 0);
	if (!out)
		progress_end(&prog);    /* the report goes to the terminal */
	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		kb_err_set(&err, out, 0, "cannot write: %s", strerror(errno));
		goto fail;
	}
	rc = html ? report_html(f, &rep, assets, href, &err) : report_text(f, &rep, &err);
	if (out && fclose(f) != 0 && rc == 0)
		rc = kb_err_set(&err, out, 0, "write error");
	else if (!out && fflush(stdout) != 0 && rc == 0)
		rc = kb_err_set(&err, "", 0, "write error");
	if (rc < 0)
		goto fail;
	status = EXIT_OK;
	goto done;
fail:
	progress_end(&prog);
	cli_report("report", &err);
	status = EXIT_USAGE;
	goto done;
usage:
	opt_usage(&u, stderr);
done:
	progress_end(&prog);
	free(href);
	free(tables);
	free(styles);
	report_plan_release(plan, nplan);
	report_release(&rep);
	if (have_g)
		an_regress_release(&g);
	if (have_pl)
		db_placement_release(&pl);
	if (have_list)
		db_list_release(&list);
	if (db)
		db_close(db);
	buf_release(&b);
	cli_select_release(&sel);
	return status;
}
