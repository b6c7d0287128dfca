/* test_numatest.c - the numa_test parser on the seeds and the corpus. */
#include "unit.h"

#include <stdlib.h>

#include "fixture.h"
#include "../../ingest/parsers.h"

struct nt_fixture {
	char *data;
	struct unit_doc d;
};

/* Import text (not a file) with all parsers, or only numa_test. */
static int nt_load_text(struct nt_fixture *f, const char *name, const char *text, size_t len,
			int only)
{
	f->data = NULL;
	return unit_doc_parse(&f->d, name, text, len, NULL, only ? &numatest_parser : NULL);
}

static int nt_load(struct nt_fixture *f, const char *rel, int only)
{
	char path[4096];
	size_t len = 0;
	char *data;

	snprintf(path, sizeof(path), "%s/%s", unit_shared_dir(), rel);
	data = unit_read_file(path, &len);
	if (!data) {
		memset(f, 0, sizeof(*f));
		rec_batch_init(&f->d.batch);
		unit_fail(__FILE__, __LINE__, "cannot read %s", path);
		return f->d.rc = -1;
	}
	nt_load_text(f, rel, data, len, only);
	f->data = data;
	if (f->d.rc < 0)
		unit_fail(__FILE__, __LINE__, "%s:%ld: %s", f->d.err.file, f->d.err.line, f->d.err.msg);
	return f->d.rc;
}

static void nt_release(struct nt_fixture *f)
{
	unit_doc_free(&f->d);
	free(f->data);
}

/* The numa_test runs of the batch, in order. */
static size_t nt_runs(const struct nt_fixture *f, struct rec_run **runs, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < f->d.batch.nruns; i++)
		if (strcmp(f->d.batch.runs[i]->benchmark, "numa_test") == 0) {
			if (n < max)
				runs[n] = f->d.batch.runs[i];
			n++;
		}
	return n;
}

static int nt_has(const struct rec_run *r, const char *metric, double *v)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].job == 0 && strcmp(r->samples[i].metric, metric) == 0) {
			*v = r->samples[i].value;
			return 1;
		}
	return 0;
}

static double nt_metric(const struct rec_run *r, const char *metric)
{
	double v = NAN;

	if (!nt_has(r, metric, &v))
		unit_fail(__FILE__, __LINE__, "run at line %ld has no %s", r->line, metric);
	return v;
}

static const struct rec_job *nt_job(const struct rec_run *r, int job)
{
	size_t i;

	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].job == job)
			return &r->jobs[i];
	unit_fail(__FILE__, __LINE__, "run at line %ld has no job %d", r->line, job);
	return NULL;
}

static void nt_check_job(const struct rec_run *r, int job, const double *pct, int nnodes,
			 int initial, int main_node, int moved, double user)
{
	const struct rec_job *j = nt_job(r, job);
	int k;

	if (!j)
		return;
	CHECK_INT(j->nnodes, nnodes);
	for (k = 0; k < nnodes && k < j->nnodes; k++)
		CHECK_NEAR(j->pct[k], pct[k], 1e-9);
	CHECK_INT(j->initial_node, initial);
	CHECK_INT(j->main_node, main_node);
	CHECK_INT(j->moved, moved);
	CHECK_NEAR(j->user, user, 1e-9);
}

static double nt_job_user_mean(const struct rec_run *r)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].job > 0 && strcmp(r->samples[i].metric, "user") == 0) {
			sum += r->samples[i].value;
			n++;
		}
	CHECK_INT(n, r->njobs);
	return n ? sum / (double)n : NAN;
}

TEST(numatest_seed001_eighteen_runs)
{
	static const char *const names = "ABCDEF";
	static const int tasks[3] = { 8, 16, 32 };
	/* Printed AverageUserTime, ElapsedTime and hackbench Time per run. */
	static const double avg[18] = {
		30.47, 36.42, 38.69, 31.39, 33.64, 34.83, 31.65, 32.18, 34.05,
		30.76, 32.27, 33.76, 28.67, 31.50, 33.89, 30.08, 32.83, 34.11,
	};
	static const double hack[18] = {
		9.639, 5.896, 6.293, 1.861, 4.688, 5.229, 7.271, 2.929, 2.849,
		2.066, 5.178, 4.505, 2.330, 5.562, 5.288, 1.861, 5.936, 4.277,
	};
	static const double elapsed[18] = {
		46.17, 47.21, 88.60, 39.50, 44.67, 79.92, 42.53, 49.66, 80.34,
		39.72, 42.97, 78.35, 30.28, 36.98, 76.84, 38.28, 42.51, 77.38,
	};
	static const double job1[4] = { 7.5, 92.5, 0.0, 0.0 };
	static const double job5[4] = { 100.0, 0.0, 0.0, 0.0 };
	struct nt_fixture f;
	struct rec_run *runs[32];
	size_t i, k, nseg = 0;

	if (nt_load(&f, "seeds/001_84b93bea668f5b54.txt", 0) < 0) {
		nt_release(&f);
		return;
	}
	CHECK_INT(nt_runs(&f, runs, 32), 18);
	if (nt_runs(&f, runs, 32) != 18) {
		nt_release(&f);
		return;
	}
	for (i = 0; i < 18; i++) {
		struct rec_run *r = runs[i];
		char want[16];

		snprintf(want, sizeof(want), "%d", tasks[i % 3]);
		CHECK_STR(rec_run_config_get(r, "tasks"), want);
		CHECK_INT(r->njobs, tasks[i % 3]);
		/* The parser names no variant; the legend in force does. */
		{
			char v[2] = { names[i / 3], 0 };
			CHECK_STR(r->variant, v);
			CHECK_INT(r->variant_origin, REC_ORIGIN_CONTEXT);
		}
		CHECK_NEAR(nt_metric(r, "avg_user"), avg[i], 1e-9);
		CHECK_NEAR(nt_job_user_mean(r), avg[i], 0.01);
		CHECK_NEAR(nt_metric(r, "hackbench"), hack[i], 1e-9);
		CHECK_NEAR(nt_metric(r, "elapsed"), elapsed[i], 1e-9);
		CHECK_NEAR(nt_metric(r, "elapsed_minus_hackbench"), elapsed[i] - hack[i], 1e-9);
	}
	/* First A run, as printed. */
	CHECK_NEAR(nt_metric(runs[0], "elapsed_minus_hackbench"), 36.531, 1e-9);
	CHECK_NEAR(nt_metric(runs[0], "total_user"), 243.86, 1e-9);
	CHECK_NEAR(nt_metric(runs[0], "total_sys"), 0.41, 1e-9);
	nt_check_job(runs[0], 1, job1, 4, 0, 1, 1, 38.29);
	nt_check_job(runs[0], 5, job5, 4, 0, 0, 0, 29.96);

	/* The segment of each run carries the legend in force: A..F, and
	 * covers the block only (no prose). */
	for (k = 0; k < f.d.res.nsegs; k++) {
		const struct ingest_seg *s = &f.d.res.segs[k];
		if (s->parser != &numatest_parser)
			continue;
		CHECK_INT(s->runs, 1);
		if (nseg < 18) {
			char v[2] = { names[nseg / 3], 0 };
			CHECK_STR(s->variant, v);
		}
		CHECK(strncmp(f.d.doc.lines[s->first].s, "Running 'hackbench", 18) == 0);
		CHECK(strstr(f.d.doc.lines[s->end - 1].s, "TotalSysTime") != NULL);
		nseg++;
	}
	CHECK_INT(nseg, 18);
	for (k = 0; k < 6; k++) {
		size_t v;
		int found = 0;
		for (v = 0; v < f.d.batch.nvariants; v++)
			if (f.d.batch.variants[v].name[0] == names[k] && !f.d.batch.variants[v].name[1] &&
			    f.d.batch.variants[v].description && f.d.batch.variants[v].description[0])
				found = 1;
		CHECK(found);
	}
	nt_release(&f);
}

TEST(numatest_seed003_d7_and_stock)
{
	static const double d7_4_job2[4] = { 58.4, 0.0, 0.0, 41.6 };
	static const double node0[4] = { 100.0, 0.0, 0.0, 0.0 };
	static const double stock8_job5[4] = { 13.1, 0.0, 0.0, 86.9 };
	static const double stock8_job4[4] = { 0.0, 0.0, 0.0, 100.0 };
	static const char *const tasks[4] = { "4", "8", "4", "8" };
	struct nt_fixture f;
	struct rec_run *runs[8];
	double v;
	size_t i;

	if (nt_load(&f, "seeds/003_7caa478a1fca98f9.txt", 0) < 0) {
		nt_release(&f);
		return;
	}
	CHECK_INT(nt_runs(&f, runs, 8), 4);
	if (nt_runs(&f, runs, 8) != 4) {
		nt_release(&f);
		return;
	}
	for (i = 0; i < 4; i++)
		CHECK_STR(rec_run_config_get(runs[i], "tasks"), tasks[i]);
	/* D7, 4 tasks: most of the load on node 0. */
	CHECK_INT(runs[0]->njobs, 4);
	nt_check_job(runs[0], 1, node0, 4, 0, 0, 0, 46.27);
	nt_check_job(runs[0], 2, d7_4_job2, 4, 0, 0, 0, 41.18);
	nt_check_job(runs[0], 3, node0, 4, 0, 0, 0, 45.72);
	nt_check_job(runs[0], 4, node0, 4, 0, 0, 0, 45.89);
	CHECK_NEAR(nt_metric(runs[0], "avg_user"), 44.77, 1e-9);
	CHECK_NEAR(nt_metric(runs[0], "hackbench"), 5.039, 1e-9);
	CHECK_NEAR(nt_metric(runs[0], "elapsed_minus_hackbench"), 46.52 - 5.039, 1e-9);
	CHECK_NEAR(nt_metric(runs[1], "total_user"), 315.62, 1e-9);
	/* Stock, 8 tasks: the post ends after the rows, no footer. */
	CHECK_INT(runs[3]->njobs, 8);
	nt_check_job(runs[3], 5, stock8_job5, 4, 0, 3, 1, 33.36);
	nt_check_job(runs[3], 4, stock8_job4, 4, 3, 3, 0, 24.15);
	CHECK_NEAR(nt_metric(runs[3], "hackbench"), 9.458, 1e-9);
	CHECK(!nt_has(runs[3], "avg_user", &v));
	CHECK(!nt_has(runs[3], "elapsed_minus_hackbench", &v));
	nt_release(&f);
}

TEST(numatest_seed004_disp_layout)
{
	static const double j1[4] = { 100.0, 0.0, 0.0, 0.0 };
	static const double j2[4] = { 0.0, 0.0, 0.0, 100.0 };
	static const double j4[4] = { 0.0, 100.0, 0.0, 0.0 };
	struct nt_fixture f;
	struct rec_run *runs[4];
	double v;

	if (nt_load(&f, "seeds/004_6cdb76245787edd0.txt", 0) < 0) {
		nt_release(&f);
		return;
	}
	CHECK_INT(nt_runs(&f, runs, 4), 1);
	if (nt_runs(&f, runs, 4) != 1) {
		nt_release(&f);
		return;
	}
	CHECK_STR(rec_run_config_get(runs[0], "tasks"), "4");
	CHECK_INT(runs[0]->njobs, 4);
	nt_check_job(runs[0], 1, j1, 4, 0, 0, 0, 29.5);
	nt_check_job(runs[0], 2, j2, 4, 3, 3, 0, 26.5);
	nt_check_job(runs[0], 4, j4, 4, 1, 1, 0, 26.6);
	CHECK_NEAR(nt_metric(runs[0], "avg_user"), 28.00, 1e-9);
	CHECK_NEAR(nt_job_user_mean(runs[0]), 28.00, 0.01);
	CHECK(!nt_has(runs[0], "elapsed", &v));
	nt_release(&f);
}

static void nt_same_runs(const struct rec_run *a, const struct rec_run *b)
{
	size_t i;
	int k;

	CHECK_STR(rec_run_config_get(a, "tasks"), rec_run_config_get(b, "tasks"));
	CHECK_INT(a->nsamples, b->nsamples);
	CHECK_INT(a->njobs, b->njobs);
	for (i = 0; i < a->nsamples && i < b->nsamples; i++) {
		CHECK_STR(a->samples[i].metric, b->samples[i].metric);
		CHECK_INT(a->samples[i].job, b->samples[i].job);
		CHECK(a->samples[i].value == b->samples[i].value);
	}
	for (i = 0; i < a->njobs && i < b->njobs; i++) {
		CHECK_INT(a->jobs[i].job, b->jobs[i].job);
		CHECK_INT(a->jobs[i].initial_node, b->jobs[i].initial_node);
		CHECK_INT(a->jobs[i].main_node, b->jobs[i].main_node);
		CHECK_INT(a->jobs[i].moved, b->jobs[i].moved);
		CHECK_INT(a->jobs[i].nnodes, b->jobs[i].nnodes);
		for (k = 0; k < a->jobs[i].nnodes && k < b->jobs[i].nnodes; k++)
			CHECK(a->jobs[i].pct[k] == b->jobs[i].pct[k]);
	}
}

TEST(numatest_corpus_qp_equals_decoded)
{
	static const char *const tasks[5] = { "4", "8", "12", "16", "24" };
	static const double n16_job2[4] = { 0.0, 93.9, 0.0, 6.0 };
	struct nt_fixture qp, dec;
	struct rec_run *rq[8], *rd[8];
	size_t i;

	nt_load(&qp, "corpus/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.qp.txt", 0);
	nt_load(&dec, "corpus/numatest/lkml_20021009_hohnbaum_numa_test.41_rev1_attachment_N4-N24.decoded.txt", 0);
	if (qp.d.rc < 0 || dec.d.rc < 0)
		goto out;
	CHECK(qp.d.doc.was_qp);
	CHECK_INT(nt_runs(&qp, rq, 8), 5);
	CHECK_INT(nt_runs(&dec, rd, 8), 5);
	if (nt_runs(&qp, rq, 8) != 5 || nt_runs(&dec, rd, 8) != 5)
		goto out;
	for (i = 0; i < 5; i++) {
		CHECK_STR(rec_run_config_get(rd[i], "tasks"), tasks[i]);
		CHECK_INT(rd[i]->njobs, atoi(tasks[i]));
		CHECK_NEAR(nt_job_user_mean(rd[i]), nt_metric(rd[i], "avg_user"), 0.01);
		nt_same_runs(rq[i], rd[i]);
	}
	CHECK_NEAR(nt_metric(rd[0], "avg_user"), 32.36, 1e-9);
	CHECK_NEAR(nt_metric(rd[0], "elapsed_minus_hackbench"), 49.55 - 11.536, 1e-9);
	nt_check_job(rd[3], 2, n16_job2, 4, 3, 1, 1, 65.34);
out:
	nt_release(&qp);
	nt_release(&dec);
}

/* Any number of node columns; the '*' glued to the node number. */
TEST(numatest_two_and_eight_nodes)
{
	static const char two[] =
		"Executing 2 times: ./randupdt 1000000\n"
		"Running 'hackbench 20' in the background: Time: 1.500\n"
		"Job  node00 node01 | iSched MSched | UserTime(s)\n"
		"  1    40.0   60.0 |    0     1*|  20.00\n"
		"  2   100.0    0.0 |    0     0 |  22.00\n"
		"AverageUserTime 21.00 seconds\n"
		"ElapsedTime     30.00\n"
		"TotalUserTime   42.00\n"
		"TotalSysTime    0.10\n";
	static const char eight[] =
		"Some prose before the table.\n"
		"\n"
		"Job node00 node01 node02 node03 node04 node05 node06 node07 | iSched MSched | UserTime(s)\n"
		"1 0.0 0.0 0.0 0.0 0.0 0.0 12.5 87.5 | 6 7 *| 31.25\n"
		"2 0.0 0.0 0.0 0.0 100.0 0.0 0.0 0.0 | 4 4 | 30.75\n"
		"AverageUserTime 31.00 seconds\n"
		"\n"
		"More prose after it.\n";
	static const double p1[2] = { 40.0, 60.0 };
	static const double p8[8] = { 0, 0, 0, 0, 0, 0, 12.5, 87.5 };
	struct nt_fixture f;
	struct rec_run *runs[4];

	if (nt_load_text(&f, "two.txt", two, sizeof(two) - 1, 1) == 0 && nt_runs(&f, runs, 4) == 1) {
		nt_check_job(runs[0], 1, p1, 2, 0, 1, 1, 20.0);
		CHECK_NEAR(nt_metric(runs[0], "elapsed_minus_hackbench"), 28.5, 1e-9);
		/* the disturbance is configuration: runs beside 'hackbench 10'
		 * are not pooled with these */
		CHECK_STR(rec_run_config_get(runs[0], "disturb"), "hackbench:20");
	} else {
		unit_fail(__FILE__, __LINE__, "two-node table: %s", f.d.err.msg);
	}
	nt_release(&f);

	if (nt_load_text(&f, "eight.txt", eight, sizeof(eight) - 1, 1) == 0 && nt_runs(&f, runs, 4) == 1) {
		CHECK_STR(rec_run_config_get(runs[0], "tasks"), "2");
		CHECK(rec_run_config_get(runs[0], "disturb") == NULL);  /* none stated */
		nt_check_job(runs[0], 1, p8, 8, 6, 7, 1, 31.25);
		CHECK_INT(f.d.res.nsegs, 3);
		if (f.d.res.nsegs == 3) {
			CHECK_INT(f.d.res.segs[1].first, 2);
			CHECK_INT(f.d.res.segs[1].end, 6);
		}
	} else {
		unit_fail(__FILE__, __LINE__, "eight-node table: %s", f.d.err.msg);
	}
	nt_release(&f);
}

/* Seed 003 with its lines edited: keep lines [0, cut), then lines
 * [resume, end); line 'replace' (0-based, < cut) becomes text. */
static char *nt_edit_seed003(size_t *first_exec, size_t cut_after_rows, int drop_footer,
			     const char *replace_row2, size_t *len)
{
	char path[4096];
	size_t n = 0, i, nl = 0, exec = (size_t)-1;
	char *data, *out, *p, *lines[400];
	size_t out_len = 0;

	snprintf(path, sizeof(path), "%s/seeds/003_7caa478a1fca98f9.txt", unit_shared_dir());
	data = unit_read_file(path, &n);
	if (!data)
		return NULL;
	out = malloc(n + 256);
	for (p = data; p && *p && nl < 400; ) {
		lines[nl++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = 0;
	}
	for (i = 0; i < nl; i++)
		if (exec == (size_t)-1 && strncmp(lines[i], "Executing 4 times", 17) == 0)
			exec = i;
	*first_exec = exec;
	for (i = 0; i < nl; i++) {
		const char *s = lines[i];
		if (exec != (size_t)-1 && i > exec + 2 + cut_after_rows && i <= exec + 6)
			continue;       /* rows after the cut */
		if (exec != (size_t)-1 && drop_footer && i > exec + 6 && i <= exec + 10)
			continue;
		if (exec != (size_t)-1 && replace_row2 && i == exec + 4)
			s = replace_row2;
		out_len += (size_t)sprintf(out + out_len, "%s\n", s);
	}
	free(data);
	*len = out_len;
	return out;
}

TEST(numatest_truncated_tables_fail_with_line)
{
	struct nt_fixture f;
	size_t exec, len;
	char *text;

	/* The D7 tasks=4 table cut after job 2, footer gone. */
	text = nt_edit_seed003(&exec, 2, 1, NULL, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_INT(nt_load_text(&f, "cut.txt", text, len, 0), -1);
	CHECK_INT(f.d.err.line, (long)exec + 5);     /* job 2's row */
	CHECK(strstr(f.d.err.msg, "truncated") != NULL);
	nt_release(&f);
	free(text);

	/* Job 2's row cut in half. */
	text = nt_edit_seed003(&exec, 4, 0, "  2    58.4    0.0", &len);
	CHECK_INT(nt_load_text(&f, "half.txt", text, len, 0), -1);
	CHECK_INT(f.d.err.line, (long)exec + 5);
	nt_release(&f);
	free(text);

	/* Job 2 has one node value too few. */
	text = nt_edit_seed003(&exec, 4, 0, "  2    58.4    0.0   41.6 |    0     0    |  41.18", &len);
	CHECK_INT(nt_load_text(&f, "short.txt", text, len, 0), -1);
	CHECK_INT(f.d.err.line, (long)exec + 5);
	CHECK(strstr(f.d.err.msg, "header lists 4 nodes") != NULL);
	nt_release(&f);
	free(text);

	/* A footer with no rows. */
	text = nt_edit_seed003(&exec, 0, 0, NULL, &len);
	CHECK_INT(nt_load_text(&f, "norows.txt", text, len, 0), -1);
	CHECK_INT(f.d.err.line, (long)exec + 4);     /* AverageUserTime */
	nt_release(&f);
	free(text);

	/* Executing, hackbench and header, then the post ends. */
	text = nt_edit_seed003(&exec, 0, 1, NULL, &len);
	CHECK_INT(nt_load_text(&f, "header.txt", text, len, 0), -1);
	CHECK_INT(f.d.err.line, (long)exec + 3);     /* the header */
	nt_release(&f);
	free(text);
}

/* Prose that mentions the words is left alone. */
TEST(numatest_prose_not_claimed)
{
	static const char prose[] =
		"Running 'hackbench 20' in the background is what numa_test does.\n"
		"Executing 4 times: that is the first line, then a Job table.\n"
		"Job scheduling is hard.\n"
		"\n"
		"Running 'hackbench 20' in the background: Time: <sec>\n"
		"Job  node00 node01 node02 node03 | iSched MSched | UserTime(s)\n"
		"  <job#> <% time on each node> | <initial> <max> [*]| <user s>\n";
	struct nt_fixture f;

	CHECK_INT(nt_load_text(&f, "prose.txt", prose, sizeof(prose) - 1, 1), -1);
	CHECK_INT(f.d.batch.nruns, 0);
	nt_release(&f);
}

/* The corpus README quotes the header and a row template: not a table. */
TEST(numatest_readme_is_prose)
{
	char path[4096];
	size_t len = 0;
	char *data;
	struct nt_fixture f;

	snprintf(path, sizeof(path), "%s/corpus/numatest/README.txt", unit_shared_dir());
	data = unit_read_file(path, &len);
	CHECK(data != NULL);
	if (!data)
		return;
	CHECK_INT(nt_load_text(&f, "README.txt", data, len, 1), -1);
	CHECK(strstr(f.d.err.msg, "no numa_test output") != NULL);
	CHECK_INT(f.d.batch.nruns, 0);
	nt_release(&f);
	free(data);
}

/* The disturbance command: its words joined by ':' (blanks collapsed), a
 * line without its time still states it, and a command kbench could not
 * write back exactly is refused with the reason. */
TEST(numatest_disturbance_config)
{
	static const char spaced[] =
		"Running 'hackbench   10  process' in the background\n"
		"Job  node00 node01 | iSched MSched | UserTime(s)\n"
		"  1   100.0    0.0 |    0     0 |  20.00\n"
		"AverageUserTime 20.00 seconds\n";
	static const char colon[] =
		"Running 'hackbench 10:2' in the background: Time: 1.0\n"
		"Job  node00 node01 | iSched MSched | UserTime(s)\n"
		"  1   100.0    0.0 |    0     0 |  20.00\n"
		"AverageUserTime 20.00 seconds\n";
	struct nt_fixture f;
	struct rec_run *runs[2];
	double v;

	if (nt_load_text(&f, "spaced.txt", spaced, sizeof(spaced) - 1, 1) == 0 &&
	    nt_runs(&f, runs, 2) == 1) {
		CHECK_STR(rec_run_config_get(runs[0], "disturb"), "hackbench:10:process");
		CHECK(!nt_has(runs[0], "hackbench", &v));
	} else {
		unit_fail(__FILE__, __LINE__, "spaced disturbance: %s", f.d.err.msg);
	}
	nt_release(&f);
	CHECK(nt_load_text(&f, "colon.txt", colon, sizeof(colon) - 1, 0) < 0);
	CHECK(strstr(f.d.err.msg, "disturbance command") != NULL);
	CHECK_INT(f.d.err.line, 1);
	nt_release(&f);
}
