/* Unit tests for ingest/sumtable.c: published summary tables (seeds 000,
 * 001, 003) stored as summaries. */
#include "unit.h"
#include "fixture.h"
#include "../../ingest/parsers.h"

#include <stdlib.h>

static int parse_seed(struct unit_doc *p, const char *prefix)
{
	char path[4096];
	char *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/seeds/%s", unit_shared_dir(), prefix);
	text = unit_read_file(path, &len);
	if (!text) {
		unit_fail(__FILE__, __LINE__, "cannot read %s", path);
		memset(p, 0, sizeof(*p));
		rec_batch_init(&p->batch);
		p->rc = -1;
		return -1;
	}
	unit_doc_parse(p, path, text, len, NULL, NULL);
	free(text);
	if (p->rc != 0)
		unit_fail(__FILE__, __LINE__, "%s: %s:%ld: %s", prefix, p->err.file, p->err.line,
			  p->err.msg);
	return p->rc;
}

static const char *config_get(const struct rec_summary *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nconfig; i++)
		if (strcmp(s->config[i].key, key) == 0)
			return s->config[i].value;
	return NULL;
}

/* Config keys other than disturb (the front end's per-file pass gives
 * numa_test summaries the disturbance of the post's raw blocks; the tests
 * below check it where they mean to). */
static size_t own_keys(const struct rec_summary *s)
{
	return s->nconfig - (config_get(s, "disturb") != NULL);
}

/* The summary for variant/benchmark/metric whose config is exactly key=value
 * (no config at all when key is NULL), disturb= aside; NULL when there is none. */
static const struct rec_summary *find(const struct unit_doc *p, const char *variant,
				      const char *bench, const char *metric,
				      const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < p->batch.nsummaries; i++) {
		const struct rec_summary *s = p->batch.summaries[i];
		if (strcmp(s->variant, variant) || strcmp(s->benchmark, bench) ||
		    strcmp(s->metric, metric))
			continue;
		if (!key && own_keys(s) == 0)
			return s;
		if (key && own_keys(s) == 1 && config_get(s, key) && strcmp(config_get(s, key), value) == 0)
			return s;
	}
	return NULL;
}

static size_t count(const struct unit_doc *p, const char *bench)
{
	size_t i, n = 0;

	for (i = 0; i < p->batch.nsummaries; i++)
		if (strcmp(p->batch.summaries[i]->benchmark, bench) == 0)
			n++;
	return n;
}

#define CHECK_SUM(p, var, bench, metric, key, val, mean_, sd_, n_) do { \
	const struct rec_summary *_s = find(p, var, bench, metric, key, val); \
	CHECK(_s != NULL); \
	if (_s) { \
		CHECK_NEAR(_s->mean, mean_, 1e-9); \
		if (isnan((double)(sd_))) CHECK(isnan(_s->sd)); \
		else CHECK_NEAR(_s->sd, sd_, 1e-9); \
		CHECK_INT(_s->n, n_); \
	} \
} while (0)

TEST(sumtable_seed000_hackbench)
{
	struct unit_doc p;
	static const char *const vars[] = { "A", "B", "C", "D", "E" };
	static const char *const groups[] = { "10", "25", "50", "100" };
	size_t v, g;

	if (parse_seed(&p, "000_009ccda627cb3777.txt") == 0) {
		CHECK_INT(count(&p, "hackbench"), 20);
		for (v = 0; v < 5; v++)
			for (g = 0; g < 4; g++) {
				const struct rec_summary *s = find(&p, vars[v], "hackbench", "time",
								   "groups", groups[g]);
				CHECK(s != NULL);
				if (s) {
					CHECK_INT(s->n, 4);
					CHECK_STR(s->unit, "s");
					CHECK_STR(s->flags, "");
				}
			}
		CHECK_SUM(&p, "C", "hackbench", "time", "groups", "10", 1.31, 0.08, 4);
		CHECK_SUM(&p, "D", "hackbench", "time", "groups", "100", 30.57, 17.10, 4);
		CHECK_SUM(&p, "A", "hackbench", "time", "groups", "25", 15.28, 0.03, 4);
		CHECK_SUM(&p, "E", "hackbench", "time", "groups", "50", 6.20, 0.34, 4);
	}
	unit_doc_free(&p);
}

TEST(sumtable_seed000_numatest_blank_cells)
{
	struct unit_doc p;

	if (parse_seed(&p, "000_009ccda627cb3777.txt") == 0) {
		/* 5 tables x 5 rows x 4 metrics, less the blank TotSysTime cells. */
		CHECK_INT(count(&p, "numa_test"), 100 - 9);
		CHECK_SUM(&p, "A", "numa_test", "elapsed", "tasks", "4", 42.95, 3.23, 10);
		CHECK_SUM(&p, "A", "numa_test", "avg_user", "tasks", "4", 30.40, 1.16, 10);
		CHECK_SUM(&p, "A", "numa_test", "total_user", "tasks", "4", 121.65, 4.62, 10);
		CHECK(find(&p, "A", "numa_test", "total_sys", "tasks", "4") == NULL);
		CHECK_SUM(&p, "B", "numa_test", "total_sys", "tasks", "4", 0.19, 0.03, 20);
		CHECK_SUM(&p, "C", "numa_test", "elapsed", "tasks", "32", 77.84, 4.10, 4);
		CHECK(find(&p, "C", "numa_test", "total_sys", "tasks", "32") == NULL);
		CHECK(find(&p, "D", "numa_test", "total_sys", "tasks", "64") == NULL);
		CHECK_SUM(&p, "E", "numa_test", "total_sys", "tasks", "64", 4.08, 0.05, 10);
		CHECK_SUM(&p, "A", "numa_test", "total_user", "tasks", "16", 541.15, 14.47, 10);
		{
			const struct rec_summary *s = find(&p, "A", "numa_test", "elapsed", "tasks", "4");
			if (s) {
				CHECK_STR(s->unit, "s");
				CHECK(s->variant_desc && strstr(s->variant_desc, "vanilla O(1)"));
			}
		}
	}
	unit_doc_free(&p);
}

TEST(sumtable_seed000_kernbench)
{
	struct unit_doc p;

	if (parse_seed(&p, "000_009ccda627cb3777.txt") == 0) {
		CHECK_INT(count(&p, "kernbench"), 15);
		CHECK_SUM(&p, "A", "kernbench", "elapsed", NULL, NULL, 93.78, 0.43, 5);
		CHECK_SUM(&p, "A", "kernbench", "user", NULL, NULL, 1321.05, 1.20, 5);
		CHECK_SUM(&p, "A", "kernbench", "system", NULL, NULL, 49.31, 0.14, 5);
		CHECK_SUM(&p, "E", "kernbench", "system", NULL, NULL, 52.81, 0.19, 5);
	}
	unit_doc_free(&p);
}

TEST(sumtable_seed001_matrix)
{
	struct unit_doc p;
	static const char *const vars[] = { "A", "B", "C", "D", "E", "F" };
	static const double u8[] = { 30.47, 31.39, 31.65, 30.76, 28.67, 30.08 };
	size_t v;

	if (parse_seed(&p, "001_84b93bea668f5b54.txt") == 0) {
		for (v = 0; v < 6; v++)
			CHECK_SUM(&p, vars[v], "numa_test", "avg_user", "tasks", "8", u8[v], NAN, 0);
		CHECK(find(&p, "D", "numa_test", "avg_user", "tasks", "4") == NULL);
		CHECK(find(&p, "D", "numa_test", "total_user", "tasks", "4") == NULL);
		CHECK_SUM(&p, "F", "numa_test", "total_user", "tasks", "4", 121.25, NAN, 0);
		CHECK_SUM(&p, "E", "numa_test", "avg_user", "tasks", "64", 33.32, NAN, 0);
		CHECK_STR(find(&p, "E", "numa_test", "avg_user", "tasks", "64")->flags,
			  "footnoted,disturb_inherited");
		CHECK_SUM(&p, "E", "numa_test", "total_user", "tasks", "64", 2133, NAN, 0);
		CHECK_SUM(&p, "E", "numa_test", "elapsed", "tasks", "64", 133.9, NAN, 0);
		CHECK(find(&p, "E", "numa_test", "hackbench", "tasks", "64") == NULL);
		CHECK_SUM(&p, "D", "numa_test", "hackbench", "tasks", "16", 5.178, NAN, 0);
		CHECK_SUM(&p, "A", "numa_test", "elapsed", "tasks", "4", 37.33, NAN, 0);
		/* The raw blocks all ran beside 'hackbench 20': the table's
		 * cells take it, flagged, the footnoted ones too. */
		CHECK_STR(find(&p, "A", "numa_test", "elapsed", "tasks", "4")->flags, "disturb_inherited");
		CHECK_STR(config_get(find(&p, "A", "numa_test", "elapsed", "tasks", "4"), "disturb"),
			  "hackbench:20");
		CHECK_STR(config_get(find(&p, "E", "numa_test", "elapsed", "tasks", "64"), "disturb"),
			  "hackbench:20");
		/* U and TU: 60 cells less 4 "-"; E and H: 60 less 4 "-" and one "(-)". */
		CHECK_INT(count(&p, "numa_test"), 60 - 4 + 60 - 5);
	}
	unit_doc_free(&p);
}

TEST(sumtable_seed003_kernels)
{
	struct unit_doc p;

	if (parse_seed(&p, "003_7caa478a1fca98f9.txt") == 0) {
		CHECK_INT(count(&p, "kernbench"), 12);
		CHECK_SUM(&p, "stock59-stats", "kernbench", "elapsed", NULL, NULL, 29.498, NAN, 0);
		CHECK_SUM(&p, "stock59-stats", "kernbench", "percent_cpu", NULL, NULL, 1243.8, NAN, 0);
		CHECK_STR(find(&p, "stock59-stats", "kernbench", "percent_cpu", NULL, NULL)->unit, "%");
		CHECK_SUM(&p, "testD7-59", "kernbench", "system", NULL, NULL, 79.616, NAN, 0);
		CHECK_SUM(&p, "ingoD7-59.stats", "kernbench", "user", NULL, NULL, 284.834, NAN, 0);
		CHECK_INT(count(&p, "numa_test"), 60);
		CHECK_SUM(&p, "ingoD7-59.stats", "numa_test", "avg_user", "tasks", "4", 44.77, NAN, 0);
		CHECK_SUM(&p, "ingoD7-59.stats", "numa_test", "elapsed", "tasks", "4", 46.52, NAN, 0);
		CHECK_STR(config_get(find(&p, "ingoD7-59.stats", "numa_test", "elapsed", "tasks", "4"),
				     "disturb"), "hackbench:20");
		CHECK_SUM(&p, "stock59-stats", "numa_test", "total_sys", "tasks", "64", 15.70, NAN, 0);
		CHECK_SUM(&p, "testD7-59", "numa_test", "total_user", "tasks", "32", 1816.80, NAN, 0);
	}
	unit_doc_free(&p);
}

static const char quoted_table[] =
	"> numa_test: N=8\r\n"
	"> -------------------------\r\n"
	">  Elapsed AvgUserTime TotUserTime TotSysTime Runs\r\n"
	"> A 83.52(2.25) 30.40(1.16) 243.19(37.18) 10\r\n"
	"> B 80.33(4.35) 33.86(0.60) 270.89(19.07) 2.13(0.06) 10\r\n"
	"> C 77.84(4.10) - 574.82(11.47) - 4\r\n"
	">\r\n"
	"> Prose after the table, A: not a row.\r\n";

/* (N=8, not N=32: a lone "=32" at a line end reads as quoted-printable.
 * The rows hold their own checks: TotUserTime = AvgUserTime x 8.) */
TEST(sumtable_quoted_collapsed)
{
	struct unit_doc p;

	unit_doc_parse(&p, "quoted", quoted_table, sizeof(quoted_table) - 1, NULL, &sumtable_parser);
	CHECK_INT(p.rc, 0);
	if (p.rc == 0) {
		CHECK_INT(p.batch.nsummaries, 3 + 4 + 2);
		CHECK_SUM(&p, "A", "numa_test", "total_user", "tasks", "8", 243.19, 37.18, 10);
		CHECK(find(&p, "A", "numa_test", "total_sys", "tasks", "8") == NULL);
		CHECK_SUM(&p, "B", "numa_test", "total_sys", "tasks", "8", 2.13, 0.06, 10);
		CHECK(find(&p, "C", "numa_test", "avg_user", "tasks", "8") == NULL);
		CHECK_SUM(&p, "C", "numa_test", "total_user", "tasks", "8", 574.82, 11.47, 4);
		CHECK_INT(p.res.nsegs, 2);
		if (p.res.nsegs == 2) {
			CHECK(p.res.segs[0].parser == &sumtable_parser);
			CHECK_INT(p.res.segs[0].end, 6);
			CHECK(p.res.segs[1].parser == NULL);
		}
	}
	unit_doc_free(&p);
}

static const char garbled[] =
	"Hackbench: (averages over 4 tests, execution time)\n"
	"-----------------------------------------\n"
	"N:\t10\t\t25\t\t50\t\t100\n"
	"A\t5.54(0.10)\t15.28(0.03)\t32.65(0.35)\t67.67(0.69)\n"
	"B\t5.37(0.06)\t15.13(0.44)\t31.96(0.49)\t67.14(0.43)\t1.00(0.01)\n";

TEST(sumtable_garbled_row_fails_with_line)
{
	struct unit_doc p;

	unit_doc_parse(&p, "garbled", garbled, sizeof(garbled) - 1, NULL, NULL);
	CHECK_INT(p.rc, -1);
	CHECK_INT(p.err.line, 5);
	CHECK(strstr(p.err.msg, "5 values") != NULL);
	unit_doc_free(&p);
}

static const char garbled_runs[] =
	"numa_test: N=4\n"
	"\tElapsed\t\tAvgUserTime\tTotUserTime\tTotSysTime\tRuns\n"
	"A\t42.95(3.23)\t30.40(1.16)\t121.65(4.62)\t1.0(0.1)\t2.0(0.2)\t10\n";

TEST(sumtable_too_many_columns_fails)
{
	struct unit_doc p;

	unit_doc_parse(&p, "garbled_runs", garbled_runs, sizeof(garbled_runs) - 1, NULL, NULL);
	CHECK_INT(p.rc, -1);
	CHECK_INT(p.err.line, 3);
	unit_doc_free(&p);

	/* A matrix row with more values than variants. */
	{
		static const char m[] =
			"Scheduler: A B C\n"
			"N=4 U 28.12 30.77 33.00\n"
			"TU 112.55 123.13 132.08 99.1\n";
		unit_doc_parse(&p, "garbled_matrix", m, sizeof(m) - 1, NULL, NULL);
		CHECK_INT(p.rc, -1);
		CHECK_INT(p.err.line, 3);
		unit_doc_free(&p);
	}
}

TEST(sumtable_claims_no_prose)
{
	static const char *const prose[] = {
		"Kernbench: the numbers below are from five compiles\nA 1 2 3\n",
		"Kernbench:\nElapsed was fine on all kernels today.\nA 1 2 3\n",
		"Scheduler: A B C D E F\nthe numbers look good\n",
		"Scheduler: A B C\nU 28.12 30.77 33.00\n",  /* no N= before the values */
		"A: vanilla O(1) scheduler from 2.5.39\n",
		"AverageUserTime 30.47 seconds\nElapsedTime 46.17\n",
	};
	size_t i;

	for (i = 0; i < sizeof(prose) / sizeof(prose[0]); i++) {
		struct ingest_doc doc;
		struct kb_err err;
		struct ingest_opts opts = { NULL, 0, NULL };
		size_t k;
		int score = 0;

		CHECK_INT(ingest_doc_load(&doc, "prose", prose[i], strlen(prose[i]), &err), 0);
		for (k = 0; k < doc.nlines; k++)
			CHECK_INT(sumtable_parser.claim(&opts, doc.lines + k, doc.nlines - k, &score), 0);
		ingest_doc_release(&doc);
	}
}

TEST(sumtable_cell_forms)
{
	static const char t[] =
		"Kernbench: (averages over 3 compiles)\n"
		"  Elapsed  User  System  CPU  CtxSwitches\n"
		"  2.6.9  93.5s  (1300.2)  49.3s(0.2)  1260%  1.8781e+06\n"
		"  2.6.10  n/a  (-)  -  --\n";
	struct unit_doc p;

	unit_doc_parse(&p, "forms", t, sizeof(t) - 1, NULL, &sumtable_parser);
	CHECK_INT(p.rc, 0);
	if (p.rc == 0) {
		CHECK_INT(p.batch.nsummaries, 5);
		CHECK_SUM(&p, "2.6.9", "kernbench", "elapsed", NULL, NULL, 93.5, NAN, 3);
		CHECK_SUM(&p, "2.6.9", "kernbench", "user", NULL, NULL, 1300.2, NAN, 3);
		CHECK_STR(find(&p, "2.6.9", "kernbench", "user", NULL, NULL)->flags, "footnoted");
		CHECK_SUM(&p, "2.6.9", "kernbench", "system", NULL, NULL, 49.3, 0.2, 3);
		CHECK_SUM(&p, "2.6.9", "kernbench", "percent_cpu", NULL, NULL, 1260, NAN, 3);
		CHECK_SUM(&p, "2.6.9", "kernbench", "ctxswitches", NULL, NULL, 1.8781e6, NAN, 3);
	}
	unit_doc_free(&p);
}

TEST(sumtable_label_heading_and_units)
{
	static const char t[] =
		"Schedbench 16:\n"
		"Kernel      AvgUser(s)  Elapsed(s)  Runs\n"
		"2.5.59      52.97(0.5)  57.19       3\n"
		"2.5.59-D7   52.84                   3\n";
	struct unit_doc p;

	unit_doc_parse(&p, "units", t, sizeof(t) - 1, NULL, &sumtable_parser);
	CHECK_INT(p.rc, 0);
	if (p.rc == 0) {
		CHECK_INT(p.batch.nsummaries, 3);
		CHECK_SUM(&p, "2.5.59", "numa_test", "avg_user", "tasks", "16", 52.97, 0.5, 3);
		CHECK_SUM(&p, "2.5.59", "numa_test", "elapsed", "tasks", "16", 57.19, NAN, 3);
		CHECK_SUM(&p, "2.5.59-D7", "numa_test", "avg_user", "tasks", "16", 52.84, NAN, 3);
		CHECK(find(&p, "2.5.59-D7", "numa_test", "elapsed", "tasks", "16") == NULL);
	}
	unit_doc_free(&p);
}
