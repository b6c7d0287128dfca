/* The selection (analyze/query.h): its parsers of K=V, METRIC=DIR and
 * comma lists, and the one rule that says whether a run is selected. */
#include "unit.h"
#include "../../analyze/query.h"

#include <stdlib.h>

TEST(query_kv_parse)
{
	char good[] = "groups=10", eq[] = "cmd=sh -c i=0", empty[] = "mode=";
	char nokey[] = "=10", noeq[] = "groups";
	struct an_kv kv;

	CHECK_INT(an_kv_parse(good, &kv), 0);
	CHECK_STR(kv.key, "groups");
	CHECK_STR(kv.value, "10");
	/* the first '=' splits: a value may hold '=' */
	CHECK_INT(an_kv_parse(eq, &kv), 0);
	CHECK_STR(kv.key, "cmd");
	CHECK_STR(kv.value, "sh -c i=0");
	CHECK_INT(an_kv_parse(empty, &kv), 0);
	CHECK_STR(kv.value, "");
	CHECK_INT(an_kv_parse(nokey, &kv), -1);
	CHECK_STR(nokey, "=10");       /* untouched */
	CHECK_INT(an_kv_parse(noeq, &kv), -1);
	CHECK_STR(noeq, "groups");
}

TEST(query_better_parse)
{
	char lower[] = "elapsed=lower", higher[] = "rps=higher", none[] = "cs=none";
	char bad[] = "elapsed=faster", nodir[] = "elapsed", nometric[] = "=lower";
	char caps[] = "elapsed=Lower";
	struct an_better b;

	CHECK_INT(an_better_parse(lower, &b), 0);
	CHECK_STR(b.metric, "elapsed");
	CHECK_INT(b.dir, AN_DIR_LOWER);
	CHECK_INT(an_better_parse(higher, &b), 0);
	CHECK_INT(b.dir, AN_DIR_HIGHER);
	CHECK_INT(an_better_parse(none, &b), 0);
	CHECK_STR(b.metric, "cs");
	CHECK_INT(b.dir, AN_DIR_NONE);
	CHECK_INT(an_better_parse(bad, &b), -1);
	CHECK_STR(bad, "elapsed=faster");      /* untouched */
	CHECK_INT(an_better_parse(nodir, &b), -1);
	CHECK_INT(an_better_parse(nometric, &b), -1);
	CHECK_INT(an_better_parse(caps, &b), -1);
}

TEST(query_names_parse)
{
	enum an_convention c;
	enum an_test t;
	enum an_direction d;

	CHECK(an_convention_parse("better", &c) == 0 && c == AN_CONV_BETTER);
	CHECK(an_convention_parse("faster", &c) < 0);
	CHECK(an_test_parse("welch", &t) == 0 && t == AN_TEST_WELCH);
	CHECK(an_test_parse("ks", &t) < 0);
	CHECK(an_direction_parse("none", &d) == 0 && d == AN_DIR_NONE);
	CHECK_STR(an_direction_name(AN_DIR_HIGHER), "higher");
	CHECK_STR(an_convention_name(AN_CONV_SPEED), "speed");
	CHECK_STR(an_test_name(AN_TEST_MWU), "mwu");
}

TEST(query_list_split)
{
	char **v = NULL;
	size_t n = 0, i;

	an_list_split("a,,b,", &v, &n);
	an_list_split("", &v, &n);
	an_list_split("c", &v, &n);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_STR(v[0], "a");
		CHECK_STR(v[1], "b");
		CHECK_STR(v[2], "c");
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

TEST(query_config_match)
{
	const char *run = "groups=10,mode=process";
	struct an_query q;
	struct an_kv ten = { "groups", "10" }, one = { "groups", "1" };
	struct an_kv both[2] = { { "groups", "1" }, { "groups", "10" } };
	struct an_kv two[2] = { { "groups", "10" }, { "mode", "thread" } };
	struct an_kv absent = { "ipc", "pipe" };

	an_query_init(&q);
	CHECK(an_query_match(&q, run, NULL));          /* no filter: all */
	q.config = &ten;
	q.nconfig = 1;
	CHECK(an_query_match(&q, run, NULL));
	q.config = &one;
	CHECK(!an_query_match(&q, run, NULL));         /* groups=1 is not groups=10 */
	q.config = both;                               /* a key repeated: any value */
	q.nconfig = 2;
	CHECK(an_query_match(&q, run, NULL));
	q.config = two;                                /* different keys: all */
	CHECK(!an_query_match(&q, run, NULL));
	q.config = &absent;                            /* a key the run lacks */
	q.nconfig = 1;
	CHECK(!an_query_match(&q, run, NULL));
	CHECK(!an_config_match(&ten, 1, NULL));
	CHECK(an_config_match(NULL, 0, NULL));
}

TEST(query_machine_match)
{
	const char *box[] = { "boxA" }, *unknown[] = { "unknown" }, *two[] = { "boxB", "boxA" };
	struct an_query q;

	an_query_init(&q);
	CHECK(an_query_match(&q, "", "boxA"));
	CHECK(an_query_match(&q, "", NULL));
	q.machines = box;
	q.nmachines = 1;
	CHECK(an_query_match(&q, "", "boxA"));
	CHECK(!an_query_match(&q, "", "boxB"));
	CHECK(!an_query_match(&q, "", NULL));
	/* "unknown": a machine not known, or a post's own unknown one */
	q.machines = unknown;
	CHECK(an_query_match(&q, "", NULL));
	CHECK(an_query_match(&q, "", "unknown@12"));
	CHECK(!an_query_match(&q, "", "boxA"));
	CHECK(an_machine_selected(two, 2, "boxA"));
	CHECK(!an_machine_selected(two, 2, "unknown@3"));
}

TEST(query_metric_match)
{
	const char *one[] = { "elapsed" }, *eh[] = { "hackbench", "elapsed" };
	struct an_query q;

	an_query_init(&q);
	CHECK(an_query_metric_selected(&q, "anything"));
	q.metrics = one;
	q.nmetrics = 1;
	CHECK(an_query_metric_selected(&q, "elapsed"));
	CHECK(!an_query_metric_selected(&q, "user"));
	CHECK(!an_query_metric_selected(&q, "elapsed_minus_hackbench"));
	/* E and H together bring E-H */
	q.metrics = eh;
	q.nmetrics = 2;
	CHECK(an_query_metric_selected(&q, "elapsed_minus_hackbench"));
	CHECK(an_query_metric_selected(&q, "hackbench"));
}

TEST(query_init_defaults)
{
	struct an_query q;

	an_query_init(&q);
	CHECK(q.bench == NULL && q.nmetrics == 0 && q.nconfig == 0);
	CHECK_INT(q.conv, AN_CONV_RAW);
	CHECK_INT(q.test, AN_TEST_WELCH);
	CHECK_NEAR(q.threshold, 1.0, 1e-12);
	CHECK_NEAR(q.alpha, 0.05, 1e-12);
}

TEST(query_variant_match)
{
	const char *two[] = { "A", "focht-oct07:B" };

	CHECK(an_variant_selected(NULL, 0, "anything"));
	CHECK(an_variant_selected(two, 2, "focht-oct07:B"));
	CHECK(!an_variant_selected(two, 2, "B"));
}
