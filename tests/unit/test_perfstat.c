/* test_perfstat.c - the perf stat parser on seed 002, lkp's perf-stat
 * fixtures and small hand-written blocks in each output mode. */
#include "unit.h"

#include <stdlib.h>

#include "../../core/err.h"
#include "../../ingest/ingest.h"
#include "../../ingest/parsers.h"

struct parsed {
	struct ingest_doc doc;
	struct rec_batch batch;
	struct ingest_result res;
	struct kb_err err;
	char *data;
	int rc;
};

/* p->data (if any) is kept. */
static void parse_text(struct parsed *p, const char *path, const char *text, size_t len)
{
	char *data = p->data;

	memset(p, 0, sizeof(*p));
	p->data = data;
	rec_batch_init(&p->batch);
	p->rc = ingest_doc_load(&p->doc, path, text, len, &p->err);
	if (p->rc == 0)
		p->rc = ingest_parse_doc(&p->doc, NULL, NULL, &p->batch, &p->res, &p->err);
}

static __attribute__((unused)) void parse_str(struct parsed *p, const char *text)
{
	p->data = NULL;
	parse_text(p, "test", text, strlen(text));
}

static int parse_file(struct parsed *p, const char *rel)
{
	char path[1024];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", unit_shared_dir(), rel);
	memset(p, 0, sizeof(*p));
	p->data = unit_read_file(path, &len);
	if (!p->data) {
		unit_fail(__FILE__, __LINE__, "cannot read %s", path);
		return -1;
	}
	parse_text(p, path, p->data, len);
	return 0;
}

static void parsed_release(struct parsed *p)
{
	rec_batch_release(&p->batch);
	ingest_result_release(&p->res);
	ingest_doc_release(&p->doc);
	free(p->data);
}

/* Value of metric in run r; NAN when absent. */
static double sample(const struct rec_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (strcmp(r->samples[i].metric, metric) == 0)
			return r->samples[i].value;
	return NAN;
}

static const struct rec_sample *sample_rec(const struct rec_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (strcmp(r->samples[i].metric, metric) == 0)
			return &r->samples[i];
	return NULL;
}

static size_t count_runs(const struct rec_batch *b, const char *bench)
{
	size_t i, n = 0;

	for (i = 0; i < b->nruns; i++)
		n += strcmp(b->runs[i]->benchmark, bench) == 0;
	return n;
}

static const struct rec_run *nth_run(const struct rec_batch *b, const char *bench, size_t k)
{
	size_t i;

	for (i = 0; i < b->nruns; i++)
		if (strcmp(b->runs[i]->benchmark, bench) == 0 && k-- == 0)
			return b->runs[i];
	return NULL;
}

static void show_err(const struct parsed *p)
{
	char msg[2100];

	if (p->rc != 0) {
		kb_err_format(&p->err, msg, sizeof(msg));
		unit_fail(__FILE__, __LINE__, "parse failed: %s", msg);
	}
}

/* Seed 002 ---------------------------------------------------------------- */

TEST(perfstat_seed002_blocks)
{
	static const struct {
		const char *bench;
		double cs, migrations, faults, pages, elapsed;
	} want[] = {
		{ "./numa01", 554289, 26727, 1982054, 5819, 1784.171745972 },
		{ "./numa01", 1072118, 43796, 5226896, 2815, 1763.961631143 },
		{ "./numa02", 14018, 1209, 40847, 629, 32.729238004 },
		{ "./numa02", 35891, 1579, 173443, 1106, 53.970814899 },
	};
	struct parsed p;
	size_t i;

	if (parse_file(&p, "seeds/002_c5c123cd839d7edc.txt") < 0)
		return;
	show_err(&p);
	CHECK_INT(count_runs(&p.batch, "perf-stat"), 4);
	for (i = 0; i < 4 && i < count_runs(&p.batch, "perf-stat"); i++) {
		const struct rec_run *r = nth_run(&p.batch, "perf-stat", i);
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "/usr/bin/time -f %%e %%S %%U %%c %%w -o start_bench.out -a %s",
			 want[i].bench);
		CHECK_STR(rec_run_config_get(r, "cmd"), cmd);
		CHECK_INT(r->nsamples, 5);
		CHECK(sample(r, "cs") == want[i].cs);
		CHECK(sample(r, "migrations") == want[i].migrations);
		CHECK(sample(r, "faults") == want[i].faults);
		CHECK(sample(r, "migrate:mm_migrate_pages") == want[i].pages);
		CHECK(sample(r, "elapsed") == want[i].elapsed);
		CHECK_STR(sample_rec(r, "elapsed")->unit, "s");
		CHECK_STR(sample_rec(r, "cs")->unit, "");
	}
	CHECK_INT(p.batch.nsummaries, 0);
	parsed_release(&p);
}
