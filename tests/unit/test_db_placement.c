/* The store end to end: parse seed 003, store it, read the placement back. */
#include "unit.h"
#include "fixture.h"
#include "../../core/sha256.h"
#include "../../db/db.h"
#include "../../db/placement.h"
#include "../../ingest/ingest.h"

#include <stdlib.h>
#include <unistd.h>

static int store_file(struct db *db, const char *path, const char *variant)
{
	struct ingest_doc doc;
	struct rec_batch b;
	struct kb_err err;
	struct db_import imp;
	struct db_import_result res;
	char sha[65];
	size_t len;
	char *data = unit_read_file(path, &len);
	int rc = -1;

	if (!data)
		return -1;
	kb_err_clear(&err);
	rec_batch_init(&b);
	sha256_hex(data, len, sha);
	if (ingest_doc_load(&doc, path, data, len, &err) == 0 &&
	    ingest_parse_doc(&doc, NULL, NULL, &b, NULL, &err) == 0) {
		rec_batch_finish(&b);
		memset(&imp, 0, sizeof(imp));
		imp.path = path;
		imp.sha256 = sha;
		imp.size = (long long)len;
		imp.format = "test";
		imp.variant = variant;
		imp.variant_fallback = "seeds";
		rc = db_store_batch(db, &imp, &b, &res, &err);
	}
	ingest_doc_release(&doc);
	rec_batch_release(&b);
	free(data);
	return rc;
}

/* Jobs per main node of run r, as "a/b/c/d". */
static void jobs_per_node(const struct db_prun *r, char *out, size_t n)
{
	int count[64] = { 0 };
	size_t k;
	int node, len = 0;

	for (k = 0; k < r->njobs; k++)
		if (r->jobs[k].main_node >= 0 && r->jobs[k].main_node < 64)
			count[r->jobs[k].main_node]++;
	for (node = 0; node < r->nnodes && len < (int)n; node++)
		len += snprintf(out + len, n - (size_t)len, "%s%d", node ? "/" : "", count[node]);
}

TEST(db_placement_seed003)
{
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256], seed[1024], jpn[64];
	struct db *db = NULL;
	struct db_placement p;
	struct kb_err err;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	snprintf(seed, sizeof(seed), "%s/seeds/003_7caa478a1fca98f9.txt", unit_samples_dir());
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	CHECK(store_file(db, seed, NULL) == 0);
	/* The post names its blocks: D7's runs are ingoD7-59.stats (their
	 * totals are that row of the published table), the control runs
	 * stock59-stats. */
	CHECK(db_placement_load(db, NULL, NULL, &p, &err) == 0);
	CHECK_INT(p.nruns, 4);
	db_placement_release(&p);
	CHECK(db_placement_load(db, "ingoD7-59.stats", NULL, &p, &err) == 0);
	CHECK_INT(p.nruns, 2);
	if (p.nruns == 2) {
		CHECK_INT(p.runs[0].tasks, 4);
		CHECK_INT(p.runs[0].nnodes, 4);
		jobs_per_node(&p.runs[0], jpn, sizeof(jpn));
		CHECK_STR(jpn, "4/0/0/0");
		CHECK_NEAR(p.runs[0].jobs[1].pct[3], 41.6, 1e-9);
		CHECK_INT(p.runs[1].tasks, 8);
		jobs_per_node(&p.runs[1], jpn, sizeof(jpn));
		CHECK_STR(jpn, "4/3/1/0");
	}
	db_placement_release(&p);
	CHECK(db_placement_load(db, "stock59-stats", NULL, &p, &err) == 0);
	CHECK_INT(p.nruns, 2);
	if (p.nruns == 2) {
		jobs_per_node(&p.runs[0], jpn, sizeof(jpn));
		CHECK_STR(jpn, "2/1/1/0");
		jobs_per_node(&p.runs[1], jpn, sizeof(jpn));
		CHECK_STR(jpn, "2/2/2/2");
		CHECK(p.runs[1].jobs[4].moved);
	}
	db_placement_release(&p);
	CHECK(db_placement_load(db, NULL, "disturb=hackbench:20,tasks=8", &p, &err) == 0);
	CHECK_INT(p.nruns, 2);
	db_placement_release(&p);
	db_close(db);
	unit_tmpdb_remove(dir);
}

/* A job's percentages go into job.pct as JSON text and come back as the
 * same doubles: the short forms (one or two decimals, whole numbers) and
 * the general one. */
TEST(db_placement_pct_exact)
{
	static const double pct[] = { 58.4, 0.0, 100.0, 0.05, -0.5, 33.333333333333336,
				      1e-7, 12345678901234.5, 41.6 };
	const int nn = (int)(sizeof(pct) / sizeof(pct[0]));
	char dir[] = "/tmp/kbench-unit-XXXXXX", path[256];
	struct db *db = NULL;
	struct db_placement p;
	struct db_import imp;
	struct db_import_result res;
	struct rec_batch b;
	struct rec_run *r;
	struct kb_err err;
	int k;

	CHECK(unit_tmpdb(dir, path, sizeof(path)) == 0);
	kb_err_clear(&err);
	CHECK(db_open(&db, path, &err) == 0);
	rec_batch_init(&b);
	r = rec_run_new(&b, "numa_test", 1);
	rec_run_config(&b, r, "tasks", "2");
	rec_job_add(&b, r, 1, 0, 2, 1, 30.19, pct, nn);
	rec_job_add(&b, r, 2, 0, 0, 0, 29.5, pct, 2);
	rec_batch_finish(&b);
	memset(&imp, 0, sizeof(imp));
	imp.path = "pct";
	imp.sha256 = "0000000000000000000000000000000000000000000000000000000000000001";
	imp.format = "test";
	imp.variant = "v";
	CHECK(db_store_batch(db, &imp, &b, &res, &err) == 0);
	CHECK_INT(res.jobs, 2);
	CHECK(db_store_flush(db, NULL, &err) == 0);
	CHECK(db_placement_load(db, NULL, NULL, &p, &err) == 0);
	CHECK_INT(p.nruns, 1);
	if (p.nruns == 1 && p.runs[0].njobs == 2) {
		CHECK_INT(p.runs[0].nnodes, nn);
		for (k = 0; k < nn; k++)
			CHECK(p.runs[0].jobs[0].pct[k] == pct[k]);
		CHECK(p.runs[0].jobs[1].pct[0] == 58.4);
		CHECK(isnan(p.runs[0].jobs[1].pct[2]));
	}
	db_placement_release(&p);
	rec_batch_release(&b);
	db_close(db);
	unit_tmpdb_remove(dir);
}
