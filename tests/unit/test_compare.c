/*
 * test_compare.c - the comparison builder over a small hand-made store,
 * derived numa_test metrics, and the names/flags helpers.
 */
#include "unit.h"

#include "../../analyze/compare.h"
#include "../../db/db_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(compare_derive_numa_run)
{
	struct an_job jobs[] = { { 1, 38.0 }, { 0, 30.0 }, { 1, 40.0 }, { 0, NAN } };
	struct an_derived d;

	an_derive_numa_run(46.17, 9.639, jobs, 4, &d);
	CHECK_NEAR(d.elapsed_minus_hackbench, 36.531, 1e-9);
	CHECK_NEAR(d.user_moved, 39.0, 1e-12);
	CHECK_NEAR(d.user_stayed, 30.0, 1e-12);	/* the NaN job is not averaged */
	CHECK_NEAR(d.moved_pct, 50.0, 1e-12);	/* but it counts as a job */

	an_derive_numa_run(NAN, 9.6, NULL, 0, &d);
	CHECK(isnan(d.elapsed_minus_hackbench));
	CHECK(isnan(d.user_moved) && isnan(d.user_stayed) && isnan(d.moved_pct));

	jobs[0].moved = jobs[2].moved = 0;
	an_derive_numa_run(1, 1, jobs, 4, &d);
	CHECK(isnan(d.user_moved));
	CHECK_NEAR(d.moved_pct, 0, 0);
	CHECK_STR(an_derive_metric_names()[0], "elapsed_minus_hackbench");
}

TEST(compare_names_and_flags)
{
	const char *names[4];
	enum an_convention c;
	enum an_direction d;
	enum an_test t;

	CHECK_INT(an_flag_names(AN_F_VERY_NOISY | AN_F_RAW_PREFERRED | AN_F_JOBS, names, 2), 3);
	CHECK_STR(names[0], "very_noisy");
	CHECK_STR(names[1], "raw_preferred");
	CHECK_INT(an_flag_names(0, names, 4), 0);
	CHECK(an_convention_parse("speed", &c) == 0 && c == AN_CONV_SPEED);
	CHECK(an_convention_parse("fast", &c) < 0);
	CHECK(an_direction_parse("higher", &d) == 0 && d == AN_DIR_HIGHER);
	CHECK(an_test_parse("mwu", &t) == 0 && t == AN_TEST_MWU);
	CHECK_STR(an_convention_name(AN_CONV_BETTER), "better");
	CHECK_STR(an_origin_name(AN_ORIGIN_SUMMARY), "summary");
}

/* A store with two variants:
 *   bench x, config n=10 and n=100 (natural order), metric t (lower):
 *     base 3 runs 10,10.1,9.9 (n=10); new 3 runs 12,12.1,11.9
 *   n=100: base raw 1 run + a summary over 5 runs (summary wins);
 *          new raw 2 runs + a summary over 1 (raw wins, raw_preferred)
 *   metric c (no catalogue entry: direction none), n=10, 1 run each. */
static struct db *fixture(char *path, size_t n)
{
	struct db *db;
	struct kb_err err;
	int fd;

	snprintf(path, n, "/tmp/kb-unit-compare-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	unlink(path);
	if (db_open(&db, path, &err) < 0)
		return NULL;
	if (db_exec(db,
		"INSERT INTO variant (id, name) VALUES (1, 'base'), (2, 'new'), (3, 'unused');"
		"INSERT INTO source (id, path, sha256, size, format) VALUES (1, 'x', 'h', 1, 't');"
		"INSERT INTO metric (benchmark, name, unit, better) VALUES ('', 't', 's', 'lower');"
		"INSERT INTO run (id, source_id, variant_id, benchmark, config, iteration, status) VALUES"
		" (1,1,1,'x','n=10',1,'ok'), (2,1,1,'x','n=10',2,'ok'), (3,1,1,'x','n=10',3,'ok'),"
		" (4,1,2,'x','n=10',1,'ok'), (5,1,2,'x','n=10',2,'ok'), (6,1,2,'x','n=10',3,'ok'),"
		" (7,1,1,'x','n=100',1,'ok'), (8,1,2,'x','n=100',1,'ok'), (9,1,2,'x','n=100',2,'ok'),"
		" (10,1,2,'x','n=10',4,'failed');"
		"INSERT INTO sample (run_id, metric, value, unit) VALUES"
		" (1,'t',10,'s'), (2,'t',10.1,'s'), (3,'t',9.9,'s'),"
		" (4,'t',12,'s'), (5,'t',12.1,'s'), (6,'t',11.9,'s'), (10,'t',999,'s'),"
		" (7,'t',50,'s'), (8,'t',51,'s'), (9,'t',52,'s'),"
		" (1,'c',100,''), (4,'c',150,'');"
		"INSERT INTO summary (source_id, variant_id, benchmark, config, metric, mean, sd, n) VALUES"
		" (1,1,'x','n=100','t',49,1,5), (1,2,'x','n=100','t',70,NULL,1);", &err) < 0) {
		db_close(db);
		return NULL;
	}
	return db;
}

static const struct an_cell *find(const struct an_table *t, const char *config,
				  const char *metric, size_t v)
{
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if (strcmp(t->rows[r].config, config) == 0 && strcmp(t->rows[r].metric, metric) == 0)
			return &t->rows[r].cells[v];
	return NULL;
}

TEST(compare_build_fixture)
{
	char path[64];
	struct db *db = fixture(path, sizeof(path));
	struct an_query q;
	struct an_table t;
	struct kb_err err;
	const struct an_cell *c;
	struct an_kv kv[2] = { { "n", "10" }, { "n", "100" } };
	const char *vs[] = { "new", "base" };

	CHECK(db != NULL);
	if (!db)
		return;
	an_query_init(&q);
	CHECK_INT(an_compare_build(db, &q, &t, &err), 0);
	CHECK_INT(t.nvariants, 2);	/* 'unused' has no data */
	CHECK_STR(t.variants[t.baseline].name, "base");
	CHECK_INT(t.nrows, 3);
	CHECK_STR(t.rows[0].config, "n=10");	/* natural order: 10 before 100 */
	CHECK_STR(t.rows[2].config, "n=100");

	c = find(&t, "n=10", "t", 1);
	CHECK(c && c->origin == AN_ORIGIN_SAMPLES && c->d.n == 3);	/* failed run skipped */
	CHECK(c && c->has_change && c->chg.verdict == AN_VERDICT_WORSE);
	CHECK(c && fabs(c->chg.raw - 20.0) < 1e-9);
	CHECK(find(&t, "n=10", "t", 0)->is_baseline);

	c = find(&t, "n=100", "t", 0);	/* 1 raw run vs a summary over 5 */
	CHECK(c && c->origin == AN_ORIGIN_SUMMARY && c->d.n == 5 && c->note);
	c = find(&t, "n=100", "t", 1);	/* 2 raw runs vs a summary over 1 */
	CHECK(c && c->origin == AN_ORIGIN_SAMPLES && (c->flags & AN_F_RAW_PREFERRED));
	CHECK(c && c->nvalues == 2 && c->nruns == 2);

	c = find(&t, "n=10", "c", 1);	/* no direction, 1 vs 1: +50% but no test */
	CHECK(c && c->chg.verdict == AN_VERDICT_INCONCLUSIVE && (c->flags & AN_F_TOO_FEW));
	CHECK_INT(t.rows[1].dir, AN_DIR_NONE);
	an_table_release(&t);

	/* Subset, order, baseline, config alternatives, override, metric list. */
	q.variants = vs;
	q.nvariants = 2;
	q.config = kv;
	q.nconfig = 2;
	q.metrics = (const char *const[]){ "t" };
	q.nmetrics = 1;
	q.better = (const struct an_better[]){ { "t", AN_DIR_HIGHER } };
	q.nbetter = 1;
	CHECK_INT(an_compare_build(db, &q, &t, &err), 0);
	CHECK_STR(t.variants[0].name, "new");
	CHECK_INT(t.baseline, 0);
	CHECK_INT(t.nrows, 2);
	c = find(&t, "n=10", "t", 1);	/* base vs new as baseline: -16.7%, higher is better */
	CHECK(c && c->chg.verdict == AN_VERDICT_WORSE);
	an_table_release(&t);

	q.baseline = "unused";
	CHECK_INT(an_compare_build(db, &q, &t, &err), -1);
	CHECK(strstr(err.msg, "no data") != NULL);
	q.baseline = "nosuch";
	CHECK_INT(an_compare_build(db, &q, &t, &err), -1);
	CHECK(strstr(err.msg, "unknown variant") != NULL);
	an_table_release(&t);

	db_close(db);
	unlink(path);
	{
		char aux[80];
		snprintf(aux, sizeof(aux), "%s-wal", path);
		unlink(aux);
		snprintf(aux, sizeof(aux), "%s-shm", path);
		unlink(aux);
	}
}

/* The run is the unit of replication: a per-job metric enters each cell
 * as one value per run (the mean of its jobs), so duplicating every
 * run's jobs changes neither n, nor p, nor the verdict. */
static int jobs_store(struct db **db, char *path, size_t n, int copies)
{
	struct kb_err err;
	char sql[256];
	int fd, run, job, c;
	/* base runs: jobs around 10, 10.2, 9.8; new runs: around 12.5 */
	static const double center[6] = { 10, 10.2, 9.8, 12.5, 12.3, 12.8 };
	static const double spread[4] = { -1.5, -0.5, 0.5, 1.5 };

	snprintf(path, n, "/tmp/kb-unit-jobs-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	unlink(path);
	if (db_open(db, path, &err) < 0)
		return -1;
	if (db_exec(*db,
		"INSERT INTO variant (id, name) VALUES (1, 'base'), (2, 'new');"
		"INSERT INTO source (id, path, sha256, size, format) VALUES (1, 'x', 'h', 1, 't');"
		"INSERT INTO run (id, source_id, variant_id, benchmark, config, iteration, status) VALUES"
		" (1,1,1,'x','',1,'ok'), (2,1,1,'x','',2,'ok'), (3,1,1,'x','',3,'ok'),"
		" (4,1,2,'x','',1,'ok'), (5,1,2,'x','',2,'ok'), (6,1,2,'x','',3,'ok');", &err) < 0)
		return -1;
	for (run = 1; run <= 6; run++)
		for (c = 0; c < copies; c++)
			for (job = 0; job < 4; job++) {
				snprintf(sql, sizeof(sql),
					 "INSERT INTO sample (run_id, metric, value, unit, job)"
					 " VALUES (%d, 'user', %.17g, 's', %d)", run,
					 center[run - 1] + spread[job], c * 4 + job + 1);
				if (db_exec(*db, sql, &err) < 0)
					return -1;
			}
	return 0;
}

static void jobs_remove(const char *path)
{
	char aux[80];

	unlink(path);
	snprintf(aux, sizeof(aux), "%s-wal", path);
	unlink(aux);
	snprintf(aux, sizeof(aux), "%s-shm", path);
	unlink(aux);
}

TEST(compare_jobs_are_not_runs)
{
	double p[2] = { NAN, NAN };
	enum an_verdict verdict[2] = { AN_VERDICT_NONE, AN_VERDICT_NONE };
	size_t nvals[2] = { 0, 0 }, njobs[2] = { 0, 0 };
	int copies;

	for (copies = 1; copies <= 2; copies++) {
		char path[64];
		struct db *db = NULL;
		struct an_query q;
		struct an_table t;
		struct kb_err err;

		CHECK_INT(jobs_store(&db, path, sizeof(path), copies), 0);
		an_query_init(&q);
		q.baseline = "base";
		CHECK_INT(an_compare_build(db, &q, &t, &err), 0);
		CHECK_INT(t.nrows, 1);
		if (t.nrows == 1) {
			const struct an_cell *c = &t.rows[0].cells[1];
			CHECK(c->flags & AN_F_JOBS);
			CHECK_INT(c->d.n, 3);	/* runs, not 4 or 8 jobs per run */
			nvals[copies - 1] = c->d.n;
			njobs[copies - 1] = c->njobs;
			p[copies - 1] = c->chg.p;
			verdict[copies - 1] = c->chg.verdict;
			CHECK(fabs(c->d.mean - (12.5 + 12.3 + 12.8) / 3) < 1e-9);
			CHECK(!isnan(c->job_sd) && c->job_sd > 1 && c->job_sd < 1.5);
		}
		an_table_release(&t);
		db_close(db);
		jobs_remove(path);
	}
	CHECK_INT(nvals[0], nvals[1]);
	CHECK_INT(njobs[0], 12);
	CHECK_INT(njobs[1], 24);
	CHECK(!isnan(p[0]) && fabs(p[0] - p[1]) < 1e-12);
	CHECK_INT(verdict[0], AN_VERDICT_WORSE);
	CHECK_INT(verdict[1], verdict[0]);
}

/* "changed" needs the same evidence as better and worse.  kernbench as
 * the 2002 posts publish it: one number per side and metric, no n, no sd
 * (tests/realposts/104-...: percent_cpu 1197.4 -> 1152.2, elapsed 19.68
 * -> 20.32).  percent_cpu has no better direction, elapsed has one; with
 * the same evidence both are inconclusive.  One raw run per side of a
 * no-direction metric that barely moves is no "same" either, while three
 * runs per side that move clearly are "changed". */
TEST(compare_changed_needs_a_test)
{
	char path[64];
	struct db *db;
	struct an_query q;
	struct an_table t;
	struct kb_err err;
	const struct an_cell *c;
	int fd;

	snprintf(path, sizeof(path), "/tmp/kb-unit-changed-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	unlink(path);
	CHECK_INT(db_open(&db, path, &err), 0);
	CHECK_INT(db_exec(db,
		"INSERT INTO variant (id, name) VALUES (1, 'base'), (2, 'new');"
		"INSERT INTO source (id, path, sha256, size, format) VALUES (1, 'x', 'h', 1, 't');"
		"INSERT INTO summary (source_id, variant_id, benchmark, config, metric, mean, sd, n) VALUES"
		" (1,1,'kernbench','src=post','percent_cpu',1197.4,NULL,NULL),"
		" (1,2,'kernbench','src=post','percent_cpu',1152.2,NULL,NULL),"
		" (1,1,'kernbench','src=post','elapsed',19.68,NULL,NULL),"
		" (1,2,'kernbench','src=post','elapsed',20.32,NULL,NULL),"
		" (1,1,'kernbench','src=one','percent_cpu',1197.4,NULL,1),"
		" (1,2,'kernbench','src=one','percent_cpu',1152.2,NULL,1),"
		" (1,1,'kernbench','src=one','elapsed',19.68,NULL,1),"
		" (1,2,'kernbench','src=one','elapsed',20.32,NULL,1);"
		"INSERT INTO run (id, source_id, variant_id, benchmark, config, iteration, status) VALUES"
		" (1,1,1,'kernbench','src=raw1',1,'ok'), (2,1,2,'kernbench','src=raw1',1,'ok'),"
		" (3,1,1,'kernbench','src=raw3',1,'ok'), (4,1,1,'kernbench','src=raw3',2,'ok'),"
		" (5,1,1,'kernbench','src=raw3',3,'ok'), (6,1,2,'kernbench','src=raw3',1,'ok'),"
		" (7,1,2,'kernbench','src=raw3',2,'ok'), (8,1,2,'kernbench','src=raw3',3,'ok');"
		"INSERT INTO sample (run_id, metric, value, unit) VALUES"
		" (1,'percent_cpu',1197,'%'), (2,'percent_cpu',1199,'%'),"
		" (3,'percent_cpu',1197,'%'), (4,'percent_cpu',1199,'%'), (5,'percent_cpu',1198,'%'),"
		" (6,'percent_cpu',1150,'%'), (7,'percent_cpu',1153,'%'), (8,'percent_cpu',1152,'%');",
		&err), 0);
	an_query_init(&q);
	q.baseline = "base";
	CHECK_INT(an_compare_build(db, &q, &t, &err), 0);

	c = find(&t, "src=post", "percent_cpu", 1);
	CHECK(c && c->origin == AN_ORIGIN_SUMMARY && (c->flags & AN_F_SUMMARY_ONLY));
	CHECK(c && fabs(c->chg.raw - (1152.2 - 1197.4) / 1197.4 * 100) < 1e-9);	/* -3.8% */
	CHECK(c && isnan(c->chg.q));
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_INCONCLUSIVE);
	CHECK(c && c->note && !strstr(c->note, "size alone"));
	c = find(&t, "src=post", "elapsed", 1);
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_INCONCLUSIVE);

	c = find(&t, "src=one", "percent_cpu", 1);	/* n = 1 published per side */
	CHECK(c && (c->flags & AN_F_TOO_FEW) && isnan(c->chg.q));
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_INCONCLUSIVE);
	c = find(&t, "src=one", "elapsed", 1);
	CHECK(c && (c->flags & AN_F_TOO_FEW));
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_INCONCLUSIVE);

	c = find(&t, "src=raw1", "percent_cpu", 1);	/* +0.17%, 1 run each: not "same" */
	CHECK(c && (c->flags & AN_F_TOO_FEW) && fabs(c->chg.raw) < 1);
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_INCONCLUSIVE);

	c = find(&t, "src=raw3", "percent_cpu", 1);	/* -3.9%, 3 runs each: tested */
	CHECK(c && c->chg.q < 0.05);
	CHECK_INT(c ? (int)c->chg.verdict : -1, AN_VERDICT_CHANGED);
	{
		size_t r;

		for (r = 0; r < t.nrows; r++)
			CHECK_INT(t.rows[r].dir, strcmp(t.rows[r].metric, "elapsed") == 0
					 ? AN_DIR_LOWER : AN_DIR_NONE);
	}
	an_table_release(&t);
	db_close(db);
	jobs_remove(path);
}

/* A report's sections form one BH family: two tables built with
 * defer_bh and adjusted together get the q-values of BH over the pooled
 * p-values, and each says how big the family was. */
TEST(compare_one_bh_family)
{
	char path[64];
	struct db *db = fixture(path, sizeof(path));
	struct an_query q;
	struct an_table t1, t2, whole;
	struct an_table *both[2] = { &t1, &t2 };
	struct an_kv k10 = { "n", "10" }, k100 = { "n", "100" };
	struct kb_err err;
	const struct an_cell *a, *b, *w1, *w2;

	CHECK(db != NULL);
	if (!db)
		return;
	an_query_init(&q);
	q.metrics = (const char *const[]){ "t" };
	q.nmetrics = 1;
	CHECK_INT(an_compare_build(db, &q, &whole, &err), 0);    /* one table, its own BH */
	q.defer_bh = 1;
	q.config = &k10;
	q.nconfig = 1;
	CHECK_INT(an_compare_build(db, &q, &t1, &err), 0);
	q.config = &k100;
	CHECK_INT(an_compare_build(db, &q, &t2, &err), 0);
	a = find(&t1, "n=10", "t", 1);
	CHECK(a && a->chg.q == a->chg.p);       /* deferred: nothing adjusted yet */
	an_tables_bh(both, 2);
	CHECK_INT(t1.ncompared, 2);
	CHECK_INT(t2.ncompared, 2);
	b = find(&t2, "n=100", "t", 1);
	w1 = find(&whole, "n=10", "t", 1);
	w2 = find(&whole, "n=100", "t", 1);
	/* the same family as the one table over both configs: the same q */
	CHECK(a && w1 && fabs(a->chg.q - w1->chg.q) < 1e-12);
	CHECK(b && w2 && fabs(b->chg.q - w2->chg.q) < 1e-12);
	CHECK(a && a->chg.q >= a->chg.p);
	CHECK(a && a->chg.verdict == w1->chg.verdict);
	an_table_release(&t1);
	an_table_release(&t2);
	an_table_release(&whole);
	db_close(db);
	unlink(path);
}
