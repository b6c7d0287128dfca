/* test_timeformat.c - GNU time -f lines named by --time-format: which
 * lines are claimed with and without the option, and what they become. */
#include "unit.h"
#include "fixture.h"

struct tf_fixture {
	struct ingest_doc doc;
	struct rec_batch batch;
	struct kb_err err;
	int rc;
};

static void tf_parse(struct tf_fixture *f, const char *text, const char *fmt)
{
	struct ingest_opts opts = { fmt, 0, NULL };

	memset(f, 0, sizeof(*f));
	rec_batch_init(&f->batch);
	f->rc = ingest_doc_load(&f->doc, "inline", text, strlen(text), &f->err);
	if (f->rc == 0)
		f->rc = ingest_parse_doc(&f->doc, &opts, NULL, &f->batch, NULL, &f->err);
}

static void tf_free(struct tf_fixture *f)
{
	ingest_doc_release(&f->doc);
	rec_batch_release(&f->batch);
}

TEST(timeformat_word_names_the_test)
{
	struct tf_fixture f;

	tf_parse(&f, "build 12.50 1.25 40.00\n", "%e %S %U");
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_STR(r->benchmark, "time");
		CHECK_STR(rec_run_config_get(r, "test"), "build");
		CHECK_NEAR(unit_sample(r, "elapsed"), 12.5, 1e-12);
		CHECK_NEAR(unit_sample(r, "sys"), 1.25, 1e-12);
		CHECK_NEAR(unit_sample(r, "user"), 40.0, 1e-12);
	}
	tf_free(&f);
}

TEST(timeformat_autonuma_name_is_autonuma)
{
	struct tf_fixture f;

	tf_parse(&f, "numa02_SMT 32.72 51.25\n", "%e %S");
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		CHECK_STR(f.batch.runs[0]->benchmark, "autonuma");
		CHECK_STR(rec_run_config_get(f.batch.runs[0], "test"), "numa02_SMT");
		CHECK_NEAR(unit_sample(f.batch.runs[0], "sys"), 51.25, 1e-12);
	}
	tf_free(&f);
}

TEST(timeformat_bare_values_and_clock)
{
	struct tf_fixture f;

	tf_parse(&f, "0:05.44 7351% 3\n1:02:03.45 ?% 0\n", "%E %P %x");
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 2);
	if (f.batch.nruns == 2) {
		CHECK_STR(f.batch.runs[0]->benchmark, "time");
		CHECK(rec_run_config_get(f.batch.runs[0], "test") == NULL);
		CHECK_NEAR(unit_sample(f.batch.runs[0], "elapsed"), 5.44, 1e-12);
		CHECK_NEAR(unit_sample(f.batch.runs[0], "percent_cpu"), 7351, 1e-12);
		CHECK_INT(f.batch.runs[0]->failed, 1);
		CHECK_NEAR(unit_sample(f.batch.runs[1], "elapsed"), 3723.45, 1e-12);
		CHECK(isnan(unit_sample(f.batch.runs[1], "percent_cpu")));
		CHECK_INT(f.batch.runs[1]->failed, 0);
	}
	tf_free(&f);
}

TEST(timeformat_wrong_count_or_words_not_claimed)
{
	struct tf_fixture f;

	/* Two values for a three-field format, prose, a dashed rule. */
	tf_parse(&f, "build 12.50 1.25\nit took 12 s and 3 s and 4 s\n----- --- --\n", "%e %S %U");
	CHECK_INT(f.rc, INGEST_NOTHING);
	tf_free(&f);
}

TEST(timeformat_needed_for_plain_words)
{
	struct tf_fixture f;

	/* Without --time-format only autonuma names lead a -f line. */
	tf_parse(&f, "build 12.50 1.25 40.00 1 2\n", NULL);
	CHECK_INT(f.rc, INGEST_NOTHING);
	tf_free(&f);
	tf_parse(&f, "numa01 1784.16 352.58 68140.96 141242 4862\n", NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	tf_free(&f);
}

TEST(timeformat_bad_value_is_an_error)
{
	struct tf_fixture f;

	/* Claimed (it looks like values) but 1:2:3:4 is no clock. */
	tf_parse(&f, "x 1:2:3:4 1\n", "%E %S");
	CHECK_INT(f.rc, -1);
	CHECK_INT(f.err.line, 1);
	tf_free(&f);
}
