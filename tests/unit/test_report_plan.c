/* The report plan (analyze/report.h): its sections from a store, the one
 * BH family (its size, each table's offset, q values equal to one BH
 * over every p value), the chart budget's choice, --limit and --since. */
#include "unit.h"
#include "fixture.h"
#include "../../analyze/report.h"
#include "../../analyze/stats.h"
#include "../../core/buf.h"
#include "../../core/util.h"
#include "../../db/db.h"
#include "../../ingest/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One source of variant: per benchmark and groups=1,2, four runs of
 * 'time' around mean. */
static int store(struct db *db, const char *path, const char *variant, const char *const *bench,
		 const double *mean, size_t nbench, struct kb_err *err)
{
	static const double noise[] = { 0.0, 0.2, -0.1, 0.1 };
	struct db_import_result res;
	struct rec_batch b;
	size_t k;
	int rc, g, i;

	rec_batch_init(&b);
	for (k = 0; k < nbench; k++)
		for (g = 1; g <= 2; g++)
			for (i = 0; i < 4; i++) {
				struct rec_run *r = rec_run_new(&b, bench[k], 1);

				rec_run_configf(&b, r, "groups", "%d", g);
				rec_sample_add(&b, r, "time", mean[k] * g + noise[i], "s", 0);
			}
	rec_batch_finish(&b);
	rc = unit_store_batch(db, path, variant, &b, &res, err);
	rec_batch_release(&b);
	return rc;
}

TEST(report_plan_sections_family_budget)
{
	static const char *const bench[] = { "aaabench", "hackbench" };
	static const double base[] = { 10, 10 }, fast[] = { 10, 5 };
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256], since[32];
	struct db *db = NULL;
	struct db_list list;
	struct an_report_plan p;
	struct an_query q;
	struct an_table t[2], again;
	struct kb_err err;
	double *all = NULL, *bh;
	size_t nall = 0, capall = 0, i, k;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	if (!db)
		return;
	CHECK(store(db, "base.log", "base", bench, base, 2, &err) == 0);
	CHECK(store(db, "fast.log", "fast", bench, fast, 2, &err) == 0);
	CHECK(db_store_flush(db, NULL, &err) == 0);
	CHECK(db_list(db, &list, &err) == 0);
	an_query_init(&q);

	/* a section per benchmark (one comparable set each: the variants
	 * the user named, on one machine), against its first variant */
	CHECK(an_report_plan_build(&p, db, &list, &q, &err) == 0);
	CHECK_INT(p.nsels, 2);
	CHECK_STR(p.sels[0].title, "aaabench");
	CHECK_STR(p.sels[1].bench, "hackbench");
	CHECK_INT(p.sels[1].q.nvariants, 2);
	CHECK_STR(p.sels[1].q.variants[0], "base");
	CHECK(p.sels[1].q.defer_bh);

	/* the first pass: each table's p values join the family in order */
	for (i = 0; i < 2; i++) {
		struct buf note = BUF_INIT;

		memset(&t[i], 0, sizeof(t[i]));
		CHECK(an_report_compare(db, &p.sels[i], &t[i], &note, &err) == 0);
		buf_release(&note);
		an_report_add_table(&p, i, &t[i], 3);
		an_table_pvalues(&t[i], &all, &nall, &capall);
	}
	CHECK_INT(p.nsecs, 2);
	CHECK(nall > 0);
	CHECK_INT(p.family.n, nall);
	CHECK_INT(p.secs[0].qoff, 0);
	CHECK_INT(p.secs[1].qoff, p.secs[0].np);
	CHECK_INT(p.secs[0].np + p.secs[1].np, nall);
	CHECK_INT(p.secs[0].rank, 0);           /* the same numbers */
	CHECK_INT(p.secs[1].rank, 2);           /* better at both task counts */
	CHECK_INT(p.nvariants, 4);              /* base, fast in each section */

	/* one BH over every p value */
	an_report_correct(&p);
	bh = xmalloc((nall + 1) * sizeof(*bh));
	an_bh(all, nall, bh);
	for (k = 0; k < nall; k++)
		CHECK(p.family.p[k] == bh[k] || (isnan(p.family.p[k]) && isnan(bh[k])));
	free(bh);
	free(all);

	/* the chart budget: one chart, to the section with verdicts first */
	an_report_budget(&p, 0, 1, 1);
	CHECK_INT(p.order[0], 1);
	CHECK_INT(p.order[1], 0);
	CHECK(p.secs[1].charts_on && p.secs[1].want_charts);
	CHECK(!p.secs[0].charts_on && !p.secs[0].want_charts);
	for (i = 0; i < 2; i++)
		p.secs[i].want_charts = 0;
	an_report_budget(&p, 0, 400, 1);
	CHECK(p.secs[0].want_charts && p.secs[1].want_charts);
	for (i = 0; i < 2; i++)
		p.secs[i].want_charts = 0;
	an_report_budget(&p, 0, 400, 0);        /* a text report: none */
	CHECK(!p.secs[0].charts_on && !p.secs[1].charts_on);

	/* the second pass builds section 1 again with its q values; section
	 * 0's table is kept */
	memset(&again, 0, sizeof(again));
	CHECK_INT(an_report_again(db, &p, 0, &again, &err), 0);
	CHECK_INT(an_report_again(db, &p, 1, &again, &err), 1);
	CHECK_INT(again.nrows, t[1].nrows);
	an_table_release(&again);
	for (i = 0; i < 2; i++)
		an_table_release(&t[i]);

	/* --limit 1: each section its newest variant */
	an_report_plan_narrow(&p, &list, 1, NULL);
	CHECK_INT(p.sels[0].q.nvariants, 1);
	CHECK_STR(p.sels[0].q.variants[0], "fast");
	/* --since after every import: nothing left, the sections skipped */
	CHECK(an_report_since_parse("2999-01-01", since) == 0);
	an_report_plan_narrow(&p, &list, 0, since);
	CHECK(p.sels[0].skip && p.sels[1].skip);
	an_report_plan_release(&p);

	db_list_release(&list);
	db_close(db);
	unit_tmpdb_remove(dir);
}

TEST(report_since_parse)
{
	char out[32];

	CHECK(an_report_since_parse("2024-12-01", out) == 0);
	CHECK_STR(out, "2024-12-01");
	CHECK(an_report_since_parse("2024-12-01 18:58", out) == 0);
	CHECK_STR(out, "2024-12-01T18:58");
	CHECK(an_report_since_parse("2024-02-30", out) < 0);
	CHECK(an_report_since_parse("2024-12-01T25:00", out) < 0);
	CHECK(an_report_since_parse("yesterday", out) < 0);
}
