/* test_autonuma.c - autonuma-benchmark parser: lkp fixture and seed 002. */
#include "unit.h"
#include "fixture.h"

#include <stdlib.h>

static const char *an_sum_config(const struct rec_summary *s, const char *key)
{
	size_t i;

	for (i = 0; s && i < s->nconfig; i++)
		if (strcmp(s->config[i].key, key) == 0)
			return s->config[i].value;
	return NULL;
}

TEST(autonuma_lkp_means_match_yaml)
{
	struct unit_doc f;
	char path[2048], *yaml, *line;
	size_t len, i, tests = 0;

	snprintf(path, sizeof(path), "%s/corpus/lkp/autonuma-benchmark/01.yaml", unit_shared_dir());
	yaml = unit_read_file(path, &len);
	CHECK(yaml != NULL);
	unit_doc_load(&f, "corpus/lkp/autonuma-benchmark/01", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 0);
	CHECK_INT(f.batch.nruns % 12, 0);
	for (line = yaml; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		/* "numa01_HARD_BIND.seconds: 118.45" */
		const char *dot = strstr(line, ".seconds: ");
		char test[64];
		double sum = 0;
		size_t n = 0;

		if (!dot || dot - line >= (long)sizeof(test))
			continue;
		snprintf(test, sizeof(test), "%.*s", (int)(dot - line), line);
		for (i = 0; i < f.batch.nruns; i++) {
			const struct rec_run *r = f.batch.runs[i];
			const char *t = rec_run_config_get(r, "test");
			if (t && strcmp(t, test) == 0) {
				CHECK_INT(r->nsamples, 1);
				CHECK_STR(r->samples[0].metric, "elapsed");
				CHECK_STR(r->samples[0].unit, "s");
				sum += r->samples[0].value;
				n++;
			}
		}
		CHECK(n > 1);
		/* lkp rounds the mean to 2 dp: within half a cent. */
		if (n && fabs(sum / (double)n - strtod(dot + 10, NULL)) > 0.005 + 1e-9)
			unit_fail(__FILE__, __LINE__, "%s: mean %.4f, lkp %s", test, sum / (double)n, dot + 10);
		tests++;
	}
	CHECK_INT(tests, 12);
	/* Every run of the log is accounted for: 12 tests per pass. */
	for (i = 0; i < f.batch.nruns; i++)
		CHECK_STR(f.batch.runs[i]->benchmark, "autonuma");
	free(yaml);
	unit_doc_free(&f);
}

static const struct rec_summary *an_find(const struct rec_batch *b, const char *variant,
					 const char *test)
{
	size_t i;

	for (i = 0; i < b->nsummaries; i++) {
		const struct rec_summary *s = b->summaries[i];
		if (strcmp(s->benchmark, "autonuma") == 0 && s->variant &&
		    strcmp(s->variant, variant) == 0 && strcmp(an_sum_config(s, "test"), test) == 0)
			return s;
	}
	return NULL;
}

TEST(autonuma_seed002_tables_and_time_lines)
{
	static const struct {
		const char *variant, *test;
		double min, max, mean;
	} want[] = {
		{ "3.9.0-mainline_v39+()", "numa01", 1784.16, 1864.15, 1800.16 },
		{ "3.9.0-mainline_v39+()", "numa02", 32.07, 32.72, 32.59 },
		{ "3.9.0-mainline_v39+() + mel's patches", "numa01", 1752.48, 1859.60, 1785.60 },
		{ "3.9.0-mainline_v39+() + mel's patches", "numa02", 47.21, 60.58, 53.43 },
	};
	static const double elapsed[] = { 1784.16, 1763.95, 32.72, 53.96 };
	struct unit_doc f;
	size_t i, runs = 0;

	unit_doc_load(&f, "seeds/002_c5c123cd839d7edc.txt", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 4);
	for (i = 0; i < 4; i++) {
		const struct rec_summary *s = an_find(&f.batch, want[i].variant, want[i].test);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK_STR(s->metric, "elapsed");
		CHECK_NEAR(s->min, want[i].min, 1e-12);
		CHECK_NEAR(s->max, want[i].max, 1e-12);
		CHECK_NEAR(s->mean, want[i].mean, 1e-12);
		CHECK(isnan(s->sd));
		CHECK_INT(s->n, 5);
	}
	/* The -f "%e %S %U %c %w" lines are autonuma runs too. */
	for (i = 0; i < f.batch.nruns; i++) {
		const struct rec_run *r = f.batch.runs[i];
		size_t k;

		if (strcmp(r->benchmark, "autonuma") != 0)
			continue;
		for (k = 0; k < r->nsamples; k++)
			if (strcmp(r->samples[k].metric, "elapsed") == 0 && runs < 4)
				CHECK_NEAR(r->samples[k].value, elapsed[runs], 1e-12);
		runs++;
	}
	CHECK_INT(runs, 4);
	unit_doc_free(&f);
}

TEST(autonuma_runs_option_overrides_hint)
{
	struct unit_doc f;
	struct ingest_opts opts = { NULL, 3, NULL };

	unit_doc_load(&f, NULL, "Ran 5 iterations\n\nTestcase: Min Max Avg Stddev\n"
		"numa01: 1.0 3.0 2.0 0.5\n", &opts);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 1);
	if (f.batch.nsummaries) {
		CHECK_INT(f.batch.summaries[0]->n, 3);
		CHECK_NEAR(f.batch.summaries[0]->sd, 0.5, 1e-12);
	}
	unit_doc_free(&f);

	unit_doc_load(&f, NULL, "Testcase: Min Max Avg\nnuma01: 1.0 3.0 2.0\n", NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries ? f.batch.summaries[0]->n : -1, 0);
	unit_doc_free(&f);
}

static void an_expect_error(const char *text, long line)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, text, NULL);
	CHECK_INT(f.rc, -1);
	CHECK_INT(f.err.line, line);
	CHECK(strstr(f.err.msg, "autonuma") != NULL);
	unit_doc_free(&f);
}

TEST(autonuma_bad_input_fails_with_line)
{
	an_expect_error("gcc x.c\nnuma01\n313.17\nnuma02\n6.0x4\n", 5);
	an_expect_error("Testcase: Min Max Avg\n  numa01: 1784.16 1864.15\n", 2);
	an_expect_error("Testcase: Min Max Avg %Change\n  numa01: 1752.48 1859.60 1785.60 0.82%\n"
			"  numa02: 47.21 6o.58 53.43 -39.00%\n", 3);
	an_expect_error("prose\nTestcase: Min Max Avg\n", 2);
}

TEST(autonuma_noise_not_claimed)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, "rm -f numa01 numa02\ngcc numa01.prep.c -o numa01\n"
		"Hyper-Threading IS enabled.\nnuma01\n\n313.17\n", NULL);
	CHECK_INT(f.rc, INGEST_NOTHING);
	unit_doc_free(&f);
}
