/*
 * test_seq.c - kbench run --until-decided's stopping rule (analyze/seq.c):
 * the looks' levels sum to alpha, and, by simulation, repeated looks on
 * equal distributions say better or worse at most alpha of the time,
 * where compare's level at every look would say it far more often; a
 * real 10% change is still found before max-runs.
 */
#include "unit.h"
#include "../../analyze/seq.h"
#include "../../import/run.h"

#include <math.h>

/* A standard normal value (Box-Muller on the seeded generator). */
static double normal(struct run_rng *r)
{
	double u1 = ((double)(run_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(run_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

TEST(seq_alpha_spent_sums_to_alpha)
{
	struct an_seq_opts o;
	double sum = 0;
	size_t n;

	an_seq_opts_init(&o);
	CHECK_NEAR(o.alpha, 0.05, 1e-12);
	CHECK_INT(o.min_runs, 3);
	CHECK_INT(o.max_runs, 30);
	CHECK_NEAR(an_seq_alpha(&o, 2), 0, 0);
	CHECK_NEAR(an_seq_alpha(&o, 3), 0.05 * 3 / 30, 1e-15);
	CHECK_NEAR(an_seq_alpha(&o, 4), 0.05 / 30, 1e-15);
	CHECK_NEAR(an_seq_alpha(&o, 31), 0, 0);
	for (n = 0; n <= 40; n++)
		sum += an_seq_alpha(&o, n);
	CHECK_NEAR(sum, 0.05, 1e-12);
}

/* One sequence of looks: baseline nb values of N(100, sd); candidate
 * values of N(100 * (1 + shift), sd) one at a time up to max_runs, each
 * look decided by an_seq_decide() (naive: compare's own level at every
 * look).  The verdict it stopped at (INCONCLUSIVE at max-runs) and the
 * runs it took. */
static enum an_verdict sequence(struct run_rng *r, const struct an_seq_opts *o, double shift,
				double sd, int naive, size_t *runs)
{
	double base[10], cand[64];
	struct an_change c;
	size_t i, n;

	for (i = 0; i < 10; i++)
		base[i] = 100 + sd * normal(r);
	for (n = 1; n <= o->max_runs; n++) {
		cand[n - 1] = 100 * (1 + shift) + sd * normal(r);
		if (naive) {
			struct an_side sb, sc;
			struct an_opts ao;

			an_opts_init(&ao);
			ao.dir = AN_DIR_LOWER;
			ao.delta = o->threshold;
			an_side_samples_dir(&sb, base, 10, AN_DIR_LOWER);
			an_side_samples_dir(&sc, cand, n, AN_DIR_LOWER);
			an_compare(&sb, &sc, &ao, &c);
			if (n < o->min_runs)
				continue;
		} else {
			an_seq_decide(o, base, 10, cand, n, AN_DIR_LOWER, &c);
		}
		if (c.verdict == AN_VERDICT_BETTER || c.verdict == AN_VERDICT_WORSE ||
		    c.verdict == AN_VERDICT_SAME) {
			*runs = n;
			return c.verdict;
		}
	}
	*runs = o->max_runs;
	return AN_VERDICT_INCONCLUSIVE;
}

TEST(seq_false_alarms_on_equal_distributions_stay_below_alpha)
{
	struct an_seq_opts o;
	struct run_rng r;
	size_t trials = 2000, i, runs, alarms = 0, naive_alarms = 0, same = 0;

	an_seq_opts_init(&o);
	run_rng_seed(&r, 20261204);
	for (i = 0; i < trials; i++) {
		enum an_verdict v = sequence(&r, &o, 0, 3, 0, &runs);
		alarms += v == AN_VERDICT_BETTER || v == AN_VERDICT_WORSE;
		same += v == AN_VERDICT_SAME;
	}
	run_rng_seed(&r, 20261204);
	for (i = 0; i < trials; i++) {
		enum an_verdict v = sequence(&r, &o, 0, 3, 1, &runs);
		naive_alarms += v == AN_VERDICT_BETTER || v == AN_VERDICT_WORSE;
	}
	printf("  seq: false alarms %zu of %zu (%.4f), compare's level at every look %zu (%.4f)\n",
	       alarms, trials, (double)alarms / (double)trials, naive_alarms,
	       (double)naive_alarms / (double)trials);
	/* the rule holds its level ... */
	CHECK((double)alarms / (double)trials <= o.alpha);
	/* ... where looking at compare's level after every run does not:
	 * the simulation can tell the two apart */
	CHECK((double)naive_alarms / (double)trials > 2 * o.alpha);
}

TEST(seq_false_alarms_below_alpha_with_more_noise_and_a_wider_threshold)
{
	struct an_seq_opts o;
	struct run_rng r;
	size_t trials = 1000, i, runs, alarms = 0;

	an_seq_opts_init(&o);
	o.threshold = 2;
	o.min_runs = 5;
	o.max_runs = 20;
	run_rng_seed(&r, 7);
	for (i = 0; i < trials; i++) {
		enum an_verdict v = sequence(&r, &o, 0, 8, 0, &runs);
		alarms += v == AN_VERDICT_BETTER || v == AN_VERDICT_WORSE;
	}
	CHECK((double)alarms / (double)trials <= o.alpha);
}

TEST(seq_a_ten_percent_regression_is_found_before_max_runs)
{
	struct an_seq_opts o;
	struct run_rng r;
	size_t trials = 500, i, runs, worse = 0, before = 0, wrong = 0;

	an_seq_opts_init(&o);
	run_rng_seed(&r, 99);
	for (i = 0; i < trials; i++) {
		enum an_verdict v = sequence(&r, &o, 0.10, 3, 0, &runs);
		worse += v == AN_VERDICT_WORSE;
		before += v == AN_VERDICT_WORSE && runs < o.max_runs;
		wrong += v == AN_VERDICT_BETTER || v == AN_VERDICT_SAME;
	}
	printf("  seq: 10%% slower found worse in %zu of %zu, before max-runs in %zu\n", worse,
	       trials, before);
	CHECK_INT(wrong, 0);
	CHECK(before >= trials * 99 / 100);
}

TEST(seq_no_verdict_before_min_runs)
{
	struct an_seq_opts o;
	struct an_change c;
	const double base[] = { 100, 101, 99, 100, 100.5 }, cand[] = { 150, 151 };

	an_seq_opts_init(&o);
	an_seq_decide(&o, base, 5, cand, 2, AN_DIR_LOWER, &c);
	CHECK_INT(c.verdict, AN_VERDICT_INCONCLUSIVE);
	CHECK_NEAR(c.raw, 50.2, 0.5);
}
