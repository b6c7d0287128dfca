/*
 * report.h - the report model behind `kbench report`, and its two
 * renderers: a self-contained HTML page (charts embedded as base64 PNG
 * data: URIs, or written beside it with an assets directory) and a plain
 * text mail body (the comparison tables of render/table.h, no charts).
 *
 * render/report_build.c fills the model from analyze/report.h's plan
 * (comparison tables, charts, numa_test job tables, findings); nothing
 * here queries the store.  Every string
 * the HTML renderer prints from the model goes through html_escape().
 *
 *   struct report r;
 *   report_init(&r);
 *   r.title = xstrdup("...");
 *   s = report_section(&r, "hackbench");
 *   ...an_compare_build(db, &q, &s->table, &err)...
 *   report_chart(s->charts..., chart, "caption");
 *   report_html(stdout, &r, NULL, &err);
 *   report_release(&r);
 *
 * Ownership: the report owns every string, table, chart and array in it
 * (report_release() frees them), except `regress`, which is borrowed.
 * Renderers return 0, or -1 with err set (a chart that fails to draw, an
 * asset that cannot be written, a write error).
 */
#ifndef KB_RENDER_REPORT_H
#define KB_RENDER_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../analyze/compare.h"
#include "../core/err.h"

struct chart;
struct an_regress;
struct an_alerts;

/* A chart with a caption; the chart is owned. */
struct report_chart {
	struct chart *chart;
	char *caption;          /* NULL = none */
};

struct report_charts {
	struct report_chart *v;
	size_t n, cap;
};

/* One numa_test job row, as numa_test prints it. */
struct report_job {
	int job, initial, main, moved;
	double user;            /* NaN when unknown */
	double *pct;            /* nnodes values, NaN = missing; owned */
};

/* One numa_test run's job table (and its heatmap in the section's
 * `placement` charts). */
struct report_run {
	long long run_id;
	char *variant, *config; /* owned */
	int nnodes;
	struct report_job *jobs;
	size_t njobs, cap;
};

/* Sections with more variants than this show a history chart and their
 * findings instead of a table too wide to read. */
#define REPORT_MAX_SIDE_BY_SIDE 12
/* numa_test job tables (and heatmap panels per variant) in one section:
 * a big store names how many runs it leaves out instead. */
#define REPORT_MAX_JOB_TABLES 48

struct report_section {
	char *benchmark;        /* the section's benchmark */
	char *title;            /* its heading when it is not just the benchmark (the
				 * post or machine a comparable set belongs to); NULL */
	size_t plan;            /* the caller's index of the selection it shows */
	char *note;             /* e.g. why the baseline differs here; NULL */
	struct an_table table;  /* owned; released by report_release() */
	/* A wide section (more than REPORT_MAX_SIDE_BY_SIDE variants) has no
	 * table: its history charts, and one small table per candidate,
	 * variants {baseline, candidate}, the rows where both have numbers
	 * (analyze/wide.h). */
	size_t wide;            /* its variants with numbers; 0 = not wide */
	char *wide_baseline;    /* owned; NULL when the baseline has no numbers */
	size_t wide_series;     /* history series, and how many the charts show */
	size_t wide_shown;
	struct an_table *pairs; /* owned */
	size_t npairs;
	int charts_left_out;    /* over the report's chart budget: no charts */
	struct report_charts charts;    /* per-metric charts, change chart */
	struct report_charts placement; /* heatmaps, jobs per node */
	struct report_run *runs;        /* numa_test job tables */
	size_t nruns, runs_cap;
	size_t runs_left_out;           /* runs past REPORT_MAX_JOB_TABLES */
};

struct report_variant {
	char *name, *kernel, *description;      /* kernel/description may be NULL */
};

/* A chart that belongs to one finding (placement findings' heatmaps). */
struct report_finding_chart {
	size_t finding;         /* index into regress->findings */
	struct report_chart c;
};

struct report {
	char *title;
	char *generated;        /* date and time of the report */
	char *db;               /* path of the store */
	char *selection;        /* the selection in words ("all benchmarks") */
	struct report_variant *variants;
	size_t nvariants, variants_cap;
	char **machines, **sources;
	size_t nmachines, machines_cap, nsources, sources_cap;
	/* Where a compared pair's recorded environments differ (kbench run's
	 * settings), a line per pair and machine: "on box, patched against
	 * stock: kernel.numa_balancing 0 -> 1". */
	char **envdiffs;
	size_t nenvdiffs, envdiffs_cap;
	struct report_section *sections;
	size_t nsections, sections_cap;
	struct an_opts opts;    /* test, alpha, threshold, convention used */
	size_t family;          /* comparisons in the report's one BH family */
	size_t charts_max;      /* the chart budget (0 = none said) */
	const struct an_regress *regress;       /* borrowed; NULL = no findings */
	/* The Alerts section (kbench alerts' summaries): borrowed, NULL =
	 * none; every summary is shown, with its state.  alert_charts[k] is
	 * the history chart of alert alert_chart_of[k] (HTML). */
	const struct an_alerts *alerts;
	struct report_charts alert_charts;
	size_t *alert_chart_of;
	size_t alert_charts_left_out;
	struct report_finding_chart *finding_charts;
	size_t nfinding_charts, finding_charts_cap;
};

/*
 * Writing a report section by section, for a caller that cannot hold
 * every section's tables at once (a store's report):
 * report_stream_begin(); report_stream_section() for each section in
 * order (its table, pairs, charts and runs must exist until the call
 * returns; the caller may release them after); report_stream_end(), which
 * writes the page to f: the head, the findings, the verdicts and the
 * overview (which need every section seen), the sections as written,
 * the methods.  The sections wait in a temporary file.  report_html()
 * and report_text() are the three steps over a report that holds them.
 * html picks the backend (render/report_backend.h) once, here.
 */
struct report_gsum;
struct report_backend;
struct chart_pool;
struct report_pend;
struct report_stream {
	const struct report_backend *backend;   /* text or HTML, chosen at begin */
	FILE *tmp;                      /* the sections, as written */
	struct report_gsum *sum;        /* verdicts so far */
	const char *assets_dir, *assets_href;
	size_t nimg;                    /* charts written (HTML: their numbers) */
	struct chart_pool *pool;        /* HTML: draws given charts */
	struct report_pend *pending;    /* HTML: a section waiting for its charts */
};
int report_stream_begin(struct report_stream *st, int html, const char *assets_dir,
			const char *assets_href, struct kb_err *err);
int report_stream_section(struct report_stream *st, const struct report *r, size_t i,
			  struct kb_err *err);
/* report_stream_section(), by the owner of section i, who gives its
 * charts away: in HTML they are drawn on worker threads
 * (render/chart_pool.h) while the caller builds the next section, and
 * freed there (their files with an assets directory; inline, the
 * section's text waits for its PNGs until the next section comes); the
 * section's chart entries are left without a chart.  The page is the
 * same either way; report_stream_end() waits for every chart and fails
 * with the first one that could not be drawn. */
int report_stream_section_give(struct report_stream *st, struct report *r, size_t i,
			       struct kb_err *err);
int report_stream_end(struct report_stream *st, FILE *f, const struct report *r,
		      struct kb_err *err);
void report_stream_release(struct report_stream *st);

/* Free what a written section no longer needs: its charts and job
 * tables, and its table when table is 1 (its title, note and counts stay
 * for the page's head). */
void report_section_drop(struct report_section *s, int table);

void report_init(struct report *r);
void report_release(struct report *r);

/* Append and return a new section / variant / machine / source / run. */
struct report_section *report_section(struct report *r, const char *benchmark);
void report_variant(struct report *r, const char *name, const char *kernel,
		    const char *description);
void report_machine(struct report *r, const char *text);
void report_envdiff(struct report *r, const char *text);
void report_source(struct report *r, const char *text);
struct report_run *report_run(struct report_section *s, long long run_id,
			      const char *variant, const char *config, int nnodes);
void report_job(struct report_run *run, int job, int initial, int main, int moved,
		double user, const double *pct);
/* The Alerts section: a borrowed (it must outlive r); with charts, each
 * alert's history chart, at most max of them (the rest counted in
 * alert_charts_left_out).  -1 with err when a chart cannot be made. */
#define REPORT_MAX_ALERT_CHARTS 24
int report_alerts(struct report *r, const struct an_alerts *a, int charts, size_t max,
		  struct kb_err *err);

/* Take ownership of chart c (with a copy of caption). */
void report_chart(struct report_charts *cs, struct chart *c, const char *caption);
void report_finding_chart(struct report *r, size_t finding, struct chart *c,
			  const char *caption);

/*
 * HTML.  With assets_dir NULL every chart is a data: URI; otherwise each
 * chart is written as assets_dir/chart-N.png and referenced as
 * assets_href/chart-N.png (assets_href "" = same directory).
 */
int report_html(FILE *f, const struct report *r, const char *assets_dir,
		const char *assets_href, struct kb_err *err);

/* Plain text for a mail: the same sections, tables from render/table.h,
 * prose wrapped at 80 columns, no charts. */
int report_text(FILE *f, const struct report *r, struct kb_err *err);

/*
 * What the report says whatever its format, for the backends
 * (report_words.c).
 *
 * NUMA monitors (proc-vmstat.*, numa-numastat.*, numastat.* ...) are
 * shown in their own block of a section, next to numa_test's job
 * placement: report_split_monitors() gives t's rows that are not a
 * monitor's in *rest, the NUMA ones (hint faults, migrations, numa_hit
 * ...) in *numa, and returns how many other monitor rows (free pages,
 * meminfo levels) it left out of both.  Shallow copies of t: release
 * them with report_split_release(), never an_table_release().
 */
int report_is_monitor(const char *metric);
size_t report_split_monitors(const struct an_table *t, struct an_table *rest,
			     struct an_table *numa);
void report_split_release(struct an_table *rest, struct an_table *numa);

/* The methods footnote as plain-text paragraphs separated by blank
 * lines (the HTML backend escapes them and wraps each in <p>). */
struct buf;
void report_methods(struct buf *out, const struct report *r);

#endif
