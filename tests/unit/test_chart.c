/* Unit tests for render/chart: checks the layout dump, never pixels. */
#include "unit.h"
#include "../../core/buf.h"
#include "../../core/err.h"
#include "../../db/placement.h"
#include "../../render/chart.h"
#include "../../render/chart_build.h"
#include "../../render/chart_pool.h"

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seed 000: hackbench, A-E x N=10,25,50,100, mean(sd). */
static const char *const hb_groups[] = { "N=10", "N=25", "N=50", "N=100" };
static const char *const hb_variants[] = { "A", "B", "C", "D", "E" };
static const double hb_mean[5][4] = {
	{ 5.54, 15.28, 32.65, 67.67 },
	{ 5.37, 15.13, 31.96, 67.14 },
	{ 1.31, 2.91, 5.95, 13.37 },
	{ 2.45, 8.89, 21.98, 30.57 },
	{ 1.39, 2.92, 6.20, 14.30 },
};
static const double hb_sd[5][4] = {
	{ 0.10, 0.03, 0.35, 0.69 },
	{ 0.06, 0.44, 0.49, 0.43 },
	{ 0.08, 0.12, 0.13, 0.11 },
	{ 0.44, 1.47, 1.08, 17.10 },
	{ 0.08, 0.09, 0.34, 0.28 },
};

static struct chart *hackbench_chart(void)
{
	struct chart *c = chart_new(CHART_BARS);
	int g, v;

	chart_set_title(c, "hackbench (averages over 4 tests)");
	chart_set_axis(c, 'x', "groups", NULL);
	chart_set_axis(c, 'y', "Time", "s");
	c->errbar = CHART_ERR_SD;
	for (g = 0; g < 4; g++)
		chart_category(c, hb_groups[g]);
	for (v = 0; v < 5; v++) {
		int s = chart_series(c, hb_variants[v]);

		for (g = 0; g < 4; g++)
			chart_value(c, s, g, hb_mean[v][g], hb_sd[v][g]);
	}
	return c;
}

/* Seed 003: numa_test on the D7 patch, 4 tasks: jobs packed on node 0. */
static struct chart *placement_chart(void)
{
	static const double pct[4][4] = {
		{ 100.0, 0.0, 0.0, 0.0 },
		{ 58.4, 0.0, 0.0, 41.6 },
		{ 100.0, 0.0, 0.0, 0.0 },
		{ 100.0, 0.0, 0.0, 0.0 },
	};
	struct chart *c = chart_new(CHART_PLACEMENT);
	int p, j;
	char label[16];

	chart_set_title(c, "numa_test job placement");
	p = chart_panel(c, "ingoD7-59.stats, tasks=4", 4);
	for (j = 0; j < 4; j++) {
		snprintf(label, sizeof(label), "%d", j + 1);
		chart_job(c, p, label, 0, 0, pct[j]);
	}
	return c;
}

/* The whole layout dump as a malloc'd string. */
static char *dump_of(const struct chart *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct kb_err err;

	kb_err_clear(&err);
	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK_INT(chart_dump_layout(c, f, &err), 0);
	fclose(f);
	return text;
}

/* Value of "key=" at the start of a line, up to the end of line; NULL if absent. */
static const char *dump_get(const char *dump, const char *key)
{
	size_t kl = strlen(key);
	const char *p = dump;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == '=')
			return p + kl + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static int count_prefix(const char *dump, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p = dump;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, pl))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

static int get_box(const char *dump, const char *key, double b[4])
{
	const char *v = dump_get(dump, key);

	return v && sscanf(v, "%lf,%lf,%lf,%lf", &b[0], &b[1], &b[2], &b[3]) == 4;
}

/* Attribute "name=" in the rest of a dump line, as a double. */
static double line_attr(const char *line, const char *name)
{
	char pat[64];
	const char *end = strchr(line, '\n'), *p;

	snprintf(pat, sizeof(pat), " %s=", name);
	p = strstr(line, pat);
	if (!p || (end && p > end))
		return NAN;
	return atof(p + strlen(pat));
}

TEST(chart_bars_hackbench_dump)
{
	struct chart *c = hackbench_chart();
	char *d = dump_of(c), key[64];
	double plot[4], legend[4], b[4], h[5][4], prev;
	int g, v, i;

	if (!d) {
		chart_free(c);
		return;
	}
	CHECK_INT(count_prefix(d, "bar."), 20);
	CHECK_INT(count_prefix(d, "whisker."), 20);
	CHECK(get_box(d, "plot", plot));
	CHECK(get_box(d, "legend", legend));
	CHECK(dump_get(d, "chart.type") && !strncmp(dump_get(d, "chart.type"), "bars\n", 5));
	for (g = 0; g < 4; g++)
		for (v = 0; v < 5; v++) {
			const char *line;

			snprintf(key, sizeof(key), "bar.%d.%d", g, v);
			CHECK(get_box(d, key, b));
			line = dump_get(d, key);
			CHECK(line != NULL);
			if (line)
				CHECK_NEAR(line_attr(line, "value"), hb_mean[v][g], 1e-9);
			h[v][g] = b[3];
			/* Bars stand on the x axis and stay inside the plot. */
			CHECK_NEAR(b[1] + b[3], plot[1] + plot[3], 0.01);
			CHECK(b[0] >= plot[0] && b[0] + b[2] <= plot[0] + plot[2]);
			/* Groups left to right, series left to right within a group. */
			if (v > 0) {
				double pb[4];

				snprintf(key, sizeof(key), "bar.%d.%d", g, v - 1);
				CHECK(get_box(d, key, pb) && pb[0] < b[0]);
			}
			snprintf(key, sizeof(key), "whisker.%d.%d", g, v);
			line = dump_get(d, key);
			CHECK(line != NULL);
			if (line) {
				CHECK_NEAR(line_attr(line, "lo"), hb_mean[v][g] - hb_sd[v][g], 1e-9);
				CHECK_NEAR(line_attr(line, "hi"), hb_mean[v][g] + hb_sd[v][g], 1e-9);
			}
		}
	/* Heights order as the means do, within and across groups. */
	for (g = 0; g < 4; g++)
		for (v = 0; v < 5; v++)
			for (i = 0; i < 20; i++) {
				int g2 = i / 5, v2 = i % 5;

				/* The dump has 2 decimals: 0.01 s is 0.05 units. */
				if (hb_mean[v][g] + 0.05 < hb_mean[v2][g2])
					CHECK(h[v][g] < h[v2][g2]);
				else if (hb_mean[v][g] < hb_mean[v2][g2])
					CHECK(h[v][g] <= h[v2][g2]);
			}
	/* Heights proportional to the values (linear axis from 0). */
	CHECK_NEAR(h[0][3] / h[2][0], 67.67 / 1.31, 0.01);
	/* Legend: A-E, then the whisker meaning, all right of the plot box. */
	CHECK(legend[0] >= plot[0] + plot[2]);
	for (v = 0; v < 5; v++) {
		const char *line;

		snprintf(key, sizeof(key), "legend.%d", v);
		line = dump_get(d, key);
		CHECK(line != NULL);
		CHECK(get_box(d, key, b));
		CHECK(b[0] >= plot[0] + plot[2]);
		if (line) {
			const char *lab = strstr(line, "label=");

			CHECK(lab && !strncmp(lab + 6, hb_variants[v], 1) && lab[7] == '\n');
		}
	}
	CHECK(dump_get(d, "legend.5") && strstr(dump_get(d, "legend.5"), "sd"));
	/* y axis: linear from 0 to a whole step above 67.67 + 0.69, nice steps. */
	CHECK(!strncmp(dump_get(d, "yaxis") ? dump_get(d, "yaxis") : "", "linear min=0 ", 13));
	prev = NAN;
	for (i = 0; i < 30; i++) {
		const char *line;
		double step, val, m;

		snprintf(key, sizeof(key), "ytick.%d", i);
		line = dump_get(d, key);
		if (!line)
			break;
		val = line_attr(line, "value");
		if (i == 0)
			CHECK_NEAR(val, 0, 1e-12);
		if (i >= 1) {
			step = val - prev;
			m = step / pow(10, floor(log10(step) + 1e-9));
			CHECK(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 2.5) < 1e-9 ||
			      fabs(m - 5) < 1e-9);
		}
		prev = val;
	}
	CHECK(i >= 4 && i <= 12);
	CHECK(prev >= 67.67 + 0.69);
	free(d);
	chart_free(c);
}

TEST(chart_placement_d7_tasks4)
{
	static const double want[4][4] = {
		{ 100.0, 0.0, 0.0, 0.0 },
		{ 58.4, 0.0, 0.0, 41.6 },
		{ 100.0, 0.0, 0.0, 0.0 },
		{ 100.0, 0.0, 0.0, 0.0 },
	};
	struct chart *c = placement_chart();
	char *d = dump_of(c), key[64];
	int j, n;

	if (!d) {
		chart_free(c);
		return;
	}
	CHECK_INT(count_prefix(d, "cell."), 16);
	CHECK_INT(count_prefix(d, "init."), 4);
	for (j = 0; j < 4; j++)
		for (n = 0; n < 4; n++) {
			const char *line;

			snprintf(key, sizeof(key), "cell.0.%d.%d", j, n);
			line = dump_get(d, key);
			CHECK(line != NULL);
			if (line)
				CHECK_NEAR(line_attr(line, "pct"), want[j][n], 1e-9);
		}
	/* All four jobs started on node 0 and mostly stayed: nothing flagged. */
	for (j = 0; j < 4; j++) {
		snprintf(key, sizeof(key), "row.0.%d", j);
		CHECK(dump_get(d, key) && strstr(dump_get(d, key), "flagged=0"));
	}
	CHECK(strstr(d, "panel.0=") && strstr(d, "title=ingoD7-59.stats, tasks=4"));
	free(d);
	chart_free(c);
}

/* mkdtemp() directory for outputs; removed by rm_outputs(). */
static int make_tmpdir(char *dir, size_t n)
{
	const char *base = getenv("TMPDIR");

	snprintf(dir, n, "%s/kbench-chart-XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(dir) != NULL;
}

static int file_starts(const char *path, const char *prefix, size_t *len)
{
	char *data = unit_read_file(path, len);
	int ok = data && !strncmp(data, prefix, strlen(prefix));

	free(data);
	return ok;
}

TEST(chart_outputs_png_svg_pdf)
{
	struct chart *c = hackbench_chart();
	struct kb_err err;
	char dir[512], png[600], png2[600], svg[600], pdf[600], bad[600];
	cairo_surface_t *s;
	size_t len = 0;

	kb_err_clear(&err);
	CHECK(make_tmpdir(dir, sizeof(dir)));
	snprintf(png, sizeof(png), "%s/hackbench.png", dir);
	snprintf(png2, sizeof(png2), "%s/hackbench2x.png", dir);
	snprintf(svg, sizeof(svg), "%s/hackbench.svg", dir);
	snprintf(pdf, sizeof(pdf), "%s/hackbench.pdf", dir);
	snprintf(bad, sizeof(bad), "%s/hackbench.gif", dir);

	CHECK_INT(chart_render_file(c, png, &err), 0);
	s = cairo_image_surface_create_from_png(png);
	CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	CHECK_INT(cairo_image_surface_get_width(s), 800);
	CHECK_INT(cairo_image_surface_get_height(s), 500);
	cairo_surface_destroy(s);

	chart_set_size(c, 0, 0, 2);
	CHECK_INT(chart_render_file(c, png2, &err), 0);
	s = cairo_image_surface_create_from_png(png2);
	CHECK_INT(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	CHECK_INT(cairo_image_surface_get_width(s), 1600);
	CHECK_INT(cairo_image_surface_get_height(s), 1000);
	cairo_surface_destroy(s);
	chart_set_size(c, 0, 0, 1);

	CHECK_INT(chart_render_file(c, svg, &err), 0);
	CHECK(file_starts(svg, "<?xml", &len) || file_starts(svg, "<svg", &len));
	CHECK(len > 1000);
	CHECK_INT(chart_render_file(c, pdf, &err), 0);
	CHECK(file_starts(pdf, "%PDF", &len));
	CHECK(len > 1000);
	CHECK_INT(chart_render_file(c, bad, &err), -1);
	CHECK(strstr(err.msg, "format") != NULL);

	remove(png);
	remove(png2);
	remove(svg);
	remove(pdf);
	CHECK_INT(rmdir(dir), 0);
	chart_free(c);
}

TEST(chart_png_in_memory)
{
	struct chart *c = placement_chart();
	struct buf b = BUF_INIT;
	struct kb_err err;

	kb_err_clear(&err);
	CHECK_INT(chart_render_png_buf(c, &b, &err), 0);
	CHECK(b.len > 1000);
	CHECK(b.len >= 8 && !memcmp(b.data, "\x89PNG\r\n\x1a\n", 8));
	buf_release(&b);
	chart_free(c);
}

TEST(chart_empty_is_an_error)
{
	struct chart *c = chart_new(CHART_BARS);
	struct kb_err err;
	FILE *f = fopen("/dev/null", "w");

	kb_err_clear(&err);
	CHECK(f != NULL);
	if (f) {
		CHECK_INT(chart_dump_layout(c, f, &err), -1);
		fclose(f);
	}
	CHECK(strstr(err.msg, "no data") != NULL);
	chart_free(c);
}

/* ---- the other chart types ---- */

/* Seed 003 schedbench AvgUser by task count: D7 vs stock. */
static struct chart *lines_chart(void)
{
	static const double tasks[] = { 4, 8, 16, 32, 64 };
	static const double d7[] = { 44.77, 39.44, 52.85, 56.54, 58.25 };
	static const double stock[] = { 22.25, 28.40, 52.97, 56.57, 56.75 };
	struct chart *c = chart_new(CHART_LINES);
	int a = chart_series(c, "ingoD7-59.stats"), b = chart_series(c, "stock59-stats");
	int i;

	chart_set_title(c, "schedbench: average user time");
	chart_set_axis(c, 'x', "tasks", NULL);
	chart_set_axis(c, 'y', "AvgUser", "s");
	c->log_x = 1;
	c->errbar = CHART_ERR_CI95;
	for (i = 0; i < 5; i++) {
		chart_xy(c, a, tasks[i], d7[i], 1.5);
		chart_xy(c, b, tasks[i], stock[i], 1.0);
	}
	return c;
}

static struct chart *points_chart(void)
{
	struct chart *c = chart_new(CHART_POINTS);
	int g, v, i;

	chart_set_title(c, "hackbench samples");
	chart_set_axis(c, 'y', "Time", "s");
	for (g = 0; g < 2; g++)
		chart_category(c, hb_groups[g]);
	for (v = 0; v < 3; v++) {
		int s = chart_series(c, hb_variants[v]);

		for (g = 0; g < 2; g++)
			for (i = 0; i < 8; i++)
				chart_sample(c, s, g, hb_mean[v][g] + hb_sd[v][g] * ((i % 4) - 1.5));
	}
	return c;
}

/* Seed 003: jobs per main node, D7 vs stock, 4 and 8 tasks. */
static struct chart *nodeload_chart(void)
{
	struct chart *c = chart_new(CHART_NODELOAD);
	int t4 = chart_category(c, "tasks=4"), t8 = chart_category(c, "tasks=8");
	int d7 = chart_series(c, "ingoD7-59.stats"), st = chart_series(c, "stock59-stats");

	chart_set_title(c, "numa_test: jobs per node");
	chart_set_axis(c, 'x', "load", NULL);
	chart_node_jobs(c, d7, t4, 0, 4);
	chart_node_jobs(c, d7, t8, 0, 4);
	chart_node_jobs(c, d7, t8, 1, 3);
	chart_node_jobs(c, d7, t8, 2, 1);
	chart_node_jobs(c, st, t4, 0, 1);
	chart_node_jobs(c, st, t4, 1, 1);
	chart_node_jobs(c, st, t4, 2, 1);
	chart_node_jobs(c, st, t4, 3, 1);
	chart_node_jobs(c, st, t8, 0, 2);
	chart_node_jobs(c, st, t8, 1, 2);
	chart_node_jobs(c, st, t8, 2, 2);
	chart_node_jobs(c, st, t8, 3, 2);
	return c;
}

static struct chart *change_chart(void)
{
	struct chart *c = chart_new(CHART_CHANGE);

	chart_set_title(c, "D7 vs stock59");
	c->threshold = 2;
	chart_change(c, "schedbench 4 AvgUser", 101.2, 80.5, 121.9, CHART_WORSE);
	chart_change(c, "schedbench 8 AvgUser", 38.9, 20.1, 57.7, CHART_WORSE);
	chart_change(c, "schedbench 16 Elapsed", 0.2, -1.5, 1.9, CHART_SAME);
	chart_change(c, "kernbench Elapsed", -2.3, -3.4, -1.2, CHART_BETTER);
	chart_change(c, "kernbench System", -4.7, -9.8, 0.4, CHART_INCONCLUSIVE);
	return c;
}

static struct chart *history_chart(void)
{
	static const char *const kv[] = { "2.5.39", "2.5.44", "2.5.50", "2.5.55", "2.5.59", "2.5.59-D7" };
	static const double y[] = { 22.3, 22.1, 22.6, 22.2, 22.25, 44.77 };
	struct chart *c = chart_new(CHART_HISTORY);
	int s = chart_series(c, "schedbench 4 AvgUser"), i;

	chart_set_title(c, "schedbench 4: average user time by kernel");
	chart_set_axis(c, 'x', "kernel", NULL);
	chart_set_axis(c, 'y', "AvgUser", "s");
	for (i = 0; i < 6; i++)
		chart_value(c, s, chart_category(c, kv[i]), y[i], NAN);
	chart_history_mark(c, 5, "+101.2% worse", CHART_WORSE);
	return c;
}

/* Two panels (D7 tasks=8 and stock tasks=4) for the small multiples. */
static struct chart *placement_multi_chart(void)
{
	static const double d7_8[8][4] = {
		{ 100, 0, 0, 0 }, { 100, 0, 0, 0 }, { 100, 0, 0, 0 }, { 0, 100, 0, 0 },
		{ 0, 0, 99.9, 0 }, { 62.6, 0, 0, 37.4 }, { 0, 100, 0, 0 }, { 0, 100, 0, 0 },
	};
	static const int d7_8_init[8] = { 0, 0, 0, 1, 2, 0, 1, 1 };
	struct chart *c = placement_chart();
	int p = chart_panel(c, "ingoD7-59.stats, tasks=8", 4), j;
	double moved[4] = { 10.0, 0.0, 90.0, 0.0 };
	char label[16];

	for (j = 0; j < 8; j++) {
		snprintf(label, sizeof(label), "%d", j + 1);
		chart_job(c, p, label, d7_8_init[j], -1, d7_8[j]);
	}
	p = chart_panel(c, "made-up, tasks=1", 4);
	chart_job(c, p, "1", 0, -1, moved);
	return c;
}

TEST(chart_lines_log_x)
{
	struct chart *c = lines_chart();
	char *d = dump_of(c);

	if (d) {
		const char *xa = dump_get(d, "xaxis");

		CHECK_INT(count_prefix(d, "point."), 10);
		CHECK_INT(count_prefix(d, "seg."), 8);
		CHECK_INT(count_prefix(d, "err."), 10);
		CHECK(xa && !strncmp(xa, "log ", 4));
		CHECK(strstr(d, "label=95% CI") || strstr(d, "label=whiskers: 95% CI"));
		free(d);
	}
	chart_free(c);
}

TEST(chart_points_strip)
{
	struct chart *c = points_chart();
	char *d = dump_of(c), *d2 = dump_of(c);

	if (d && d2) {
		CHECK_INT(count_prefix(d, "point."), 48);
		CHECK_INT(count_prefix(d, "mean."), 6);
		CHECK_STR(d, d2); /* jitter is deterministic */
		CHECK(dump_get(d, "mean.0.2") && strstr(dump_get(d, "mean.0.2"), "n=8"));
	}
	free(d);
	free(d2);
	chart_free(c);
}

TEST(chart_nodeload_stacks)
{
	struct chart *c = nodeload_chart();
	char *d = dump_of(c);

	if (d) {
		CHECK_INT(count_prefix(d, "stack."), 12);
		CHECK(dump_get(d, "stack.0.0.0") && strstr(dump_get(d, "stack.0.0.0"), "jobs=4"));
		CHECK(dump_get(d, "barlabel.1.1") && strstr(dump_get(d, "barlabel.1.1"), "total=8"));
		free(d);
	}
	chart_free(c);
}

TEST(chart_change_forest)
{
	struct chart *c = change_chart();
	char *d = dump_of(c);
	double band[4], plot[4], zero[4], row[4];

	if (d) {
		CHECK_INT(count_prefix(d, "row."), 5);
		CHECK_INT(count_prefix(d, "ci."), 5);
		CHECK(get_box(d, "band", band) && get_box(d, "plot", plot));
		CHECK(get_box(d, "zero", zero));
		/* Zero line in the middle of the threshold band. */
		CHECK_NEAR(zero[0], band[0] + band[2] / 2, 0.02);
		CHECK(dump_get(d, "row.0") && strstr(dump_get(d, "row.0"), "verdict=worse"));
		CHECK(dump_get(d, "row.3") && strstr(dump_get(d, "row.3"), "verdict=better"));
		/* better (negative delta) left of zero, worse right of it. */
		CHECK(sscanf(dump_get(d, "row.3"), "%lf,%lf", &row[0], &row[1]) == 2 && row[0] < zero[0]);
		CHECK(sscanf(dump_get(d, "row.0"), "%lf,%lf", &row[0], &row[1]) == 2 && row[0] > zero[0]);
		free(d);
	}
	chart_free(c);
}

TEST(chart_history_marks)
{
	struct chart *c = history_chart();
	char *d = dump_of(c);

	if (d) {
		CHECK_INT(count_prefix(d, "point."), 6);
		CHECK(dump_get(d, "change.0") && strstr(dump_get(d, "change.0"), "at=2.5.59-D7"));
		CHECK(strstr(d, "text=+101.2% worse") != NULL);
		free(d);
	}
	chart_free(c);
}

TEST(chart_placement_flags_and_panels)
{
	struct chart *c = placement_multi_chart();
	char *d = dump_of(c);

	if (d) {
		CHECK_INT(count_prefix(d, "panel."), 3);
		CHECK_INT(count_prefix(d, "cell."), 16 + 32 + 4);
		CHECK(dump_get(d, "row.2.0") && strstr(dump_get(d, "row.2.0"), "main=2 flagged=1"));
		CHECK(dump_get(d, "row.1.5") && strstr(dump_get(d, "row.1.5"), "flagged=0"));
		free(d);
	}
	chart_free(c);
}

/* KBENCH_CHART_GALLERY=dir writes one PNG per type there for a human to look at. */
TEST(chart_gallery)
{
	const char *dir = getenv("KBENCH_CHART_GALLERY");
	struct chart *(*const make[])(void) = {
		hackbench_chart, lines_chart, points_chart, placement_multi_chart,
		nodeload_chart, change_chart, history_chart,
	};
	size_t i;

	if (!dir)
		return;
	for (i = 0; i < sizeof(make) / sizeof(make[0]); i++) {
		struct chart *c = make[i]();
		struct kb_err err;
		char path[600];

		kb_err_clear(&err);
		snprintf(path, sizeof(path), "%s/%s.png", dir, chart_type_name(c->type));
		CHECK_INT(chart_render_file(c, path, &err), 0);
		chart_set_size(c, 0, 0, 2);
		snprintf(path, sizeof(path), "%s/%s@2x.png", dir, chart_type_name(c->type));
		CHECK_INT(chart_render_file(c, path, &err), 0);
		chart_free(c);
	}
}

TEST(chart_layout_does_not_depend_on_scale)
{
	struct chart *c = hackbench_chart();
	char *d1 = dump_of(c), *d2, *p1, *p2;

	chart_set_size(c, 0, 0, 2);
	d2 = dump_of(c);
	if (d1 && d2) {
		/* Identical after the chart.scale line. */
		p1 = strstr(d1, "chart.scale=1\n");
		p2 = strstr(d2, "chart.scale=2\n");
		CHECK(p1 && p2);
		if (p1 && p2)
			CHECK_STR(p1 + 14, p2 + 14);
	}
	free(d1);
	free(d2);
	chart_free(c);
}

TEST(chart_change_ticks_are_nice)
{
	struct chart *c = change_chart();
	char *d = dump_of(c);

	if (d) {
		/* -25 .. 125 in steps of 25, labels without a spurious ".0". */
		CHECK(dump_get(d, "xtick.0") && strstr(dump_get(d, "xtick.0"), "label=-25\n"));
		CHECK(dump_get(d, "xtick.2") && strstr(dump_get(d, "xtick.2"), "label=25\n"));
		CHECK_INT(count_prefix(d, "xtick."), 7);
		free(d);
	}
	chart_free(c);
}

TEST(chart_bad_utf8_label)
{
	struct chart *c = chart_new(CHART_BARS);
	struct buf b = BUF_INIT;
	struct kb_err err;

	kb_err_clear(&err);
	chart_value(c, chart_series(c, "bad \xff\xfe name"), chart_category(c, "N=\xc3"), 1.0, NAN);
	CHECK_INT(chart_render_png_buf(c, &b, &err), 0);
	CHECK(b.len > 100);
	buf_release(&b);
	chart_free(c);
}

/* The configuration a placement chart's runs share: said once, only when
 * every run keeps a pair of its own; the same answer for thousands of
 * runs (it was quadratic in them). */
TEST(chart_common_config_of_runs)
{
	struct db_prun r[3], big[3000];
	const struct db_prun *pr[3], *pb[3000];
	char cfg[3000][48];
	char *c;
	size_t i;

	memset(r, 0, sizeof(r));
	r[0].config = "groups=10,mode=process,tasks=4";
	r[1].config = "groups=20,mode=process,tasks=4";
	r[2].config = "groups=30,mode=process,tasks=4";
	for (i = 0; i < 3; i++)
		pr[i] = &r[i];
	c = chart_build_common_config(pr, 3);
	CHECK_STR(c, "mode=process,tasks=4");
	free(c);
	/* a run with nothing of its own: the panels keep their configs */
	r[2].config = "mode=process,tasks=4";
	CHECK(chart_build_common_config(pr, 3) == NULL);
	/* nothing shared, or one run: none */
	r[1].config = "groups=20,mode=thread";
	r[2].config = "groups=30,tasks=8";
	CHECK(chart_build_common_config(pr, 3) == NULL);
	CHECK(chart_build_common_config(pr, 1) == NULL);
	memset(big, 0, sizeof(big));
	for (i = 0; i < 3000; i++) {
		snprintf(cfg[i], sizeof(cfg[i]), "groups=%zu,mode=process,nodes=4", i);
		big[i].config = cfg[i];
		pb[i] = &big[i];
	}
	c = chart_build_common_config(pb, 3000);
	CHECK_STR(c, "mode=process,nodes=4");
	free(c);
}

/* The pool's workers write the same bytes as chart_render_file() on the
 * caller's thread, with no worker as with two, charts of every kind
 * interleaved (text measured on several threads at once). */
static struct chart *pool_chart(size_t i)
{
	switch (i % 5) {
	case 0: return hackbench_chart();
	case 1: return placement_chart();
	case 2: return lines_chart();
	case 3: return history_chart();
	default: return change_chart();
	}
}

TEST(chart_pool_writes_what_the_caller_would)
{
	enum { N = 15 };
	struct kb_err err;
	char dir[512], path[600], want[600];
	int threads[] = { 0, 2 };
	size_t i, t, la, lb;

	kb_err_clear(&err);
	CHECK(make_tmpdir(dir, sizeof(dir)));
	for (i = 0; i < N; i++) {
		struct chart *c = pool_chart(i);

		snprintf(want, sizeof(want), "%s/direct-%zu.png", dir, i);
		CHECK_INT(chart_render_file(c, want, &err), 0);
		chart_free(c);
	}
	for (t = 0; t < 2; t++) {
		struct chart_pool *p = chart_pool_new(threads[t]);

		for (i = 0; i < N; i++) {
			snprintf(path, sizeof(path), "%s/pool%d-%zu.png", dir, threads[t], i);
			CHECK_INT(chart_pool_file(p, pool_chart(i), path, &err), 0);
		}
		CHECK_INT(chart_pool_wait(p, &err), 0);
		chart_pool_free(p);
		for (i = 0; i < N; i++) {
			char *a, *b;

			snprintf(path, sizeof(path), "%s/pool%d-%zu.png", dir, threads[t], i);
			snprintf(want, sizeof(want), "%s/direct-%zu.png", dir, i);
			a = unit_read_file(path, &la);
			b = unit_read_file(want, &lb);
			CHECK(a && b && la == lb && la > 1000 && !memcmp(a, b, la));
			free(a);
			free(b);
			remove(path);
		}
	}
	/* PNG bytes into the caller's buffers, as chart_render_png_buf(). */
	for (t = 0; t < 2; t++) {
		struct chart_pool *p = chart_pool_new(threads[t]);
		struct buf out[N];

		for (i = 0; i < N; i++) {
			out[i] = (struct buf)BUF_INIT;
			CHECK_INT(chart_pool_png(p, pool_chart(i), &out[i], &err), 0);
		}
		CHECK_INT(chart_pool_wait(p, &err), 0);
		chart_pool_free(p);
		for (i = 0; i < N; i++) {
			char *b;

			snprintf(want, sizeof(want), "%s/direct-%zu.png", dir, i);
			b = unit_read_file(want, &lb);
			CHECK(b && out[i].len == lb && !memcmp(out[i].data, b, lb));
			free(b);
			buf_release(&out[i]);
		}
	}
	for (i = 0; i < N; i++) {
		snprintf(want, sizeof(want), "%s/direct-%zu.png", dir, i);
		remove(want);
	}

	/* A chart that cannot be written: the wait names its file, and
	 * nothing given after the failure is written. */
	for (t = 0; t < 2; t++) {
		struct chart_pool *p = chart_pool_new(threads[t]);
		int rc;

		snprintf(path, sizeof(path), "%s/no-such-dir/chart.png", dir);
		rc = chart_pool_file(p, pool_chart(0), path, &err);
		CHECK_INT(rc, threads[t] ? 0 : -1);
		CHECK_INT(chart_pool_wait(p, &err), -1);
		CHECK(strstr(err.file, "no-such-dir/chart.png") != NULL || strstr(err.msg, "no-such-dir") != NULL);
		snprintf(path, sizeof(path), "%s/after.png", dir);
		kb_err_clear(&err);
		CHECK_INT(chart_pool_file(p, pool_chart(1), path, &err), -1);
		CHECK(strstr(err.file, "no-such-dir/chart.png") != NULL || strstr(err.msg, "no-such-dir") != NULL);
		CHECK_INT(chart_pool_wait(p, &err), -1);
		CHECK(access(path, F_OK) != 0);
		chart_pool_free(p);
	}

	/* Freed before its wait: the charts still queued are freed unwritten
	 * (no leak, no write after the free returns). */
	{
		struct chart_pool *p = chart_pool_new(1);

		for (i = 0; i < N; i++) {
			snprintf(path, sizeof(path), "%s/freed-%zu.png", dir, i);
			CHECK_INT(chart_pool_file(p, pool_chart(i), path, &err), 0);
		}
		chart_pool_free(p);
		for (i = 0; i < N; i++) {
			snprintf(path, sizeof(path), "%s/freed-%zu.png", dir, i);
			remove(path);
		}
	}
	CHECK_INT(rmdir(dir), 0);
}
