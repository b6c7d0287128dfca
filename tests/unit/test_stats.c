/*
 * Unit tests for analyze/stats.[ch].
 *
 * Expected values come from textbook arithmetic done by hand, from the
 * numbers printed in the seed threads, or from direct Rmath calls
 * (qt, pt, pwilcox, pnorm5 of /usr/lib/libRmath.so, called through
 * python3 ctypes) applied to formulas written out in the comments.
 */
#include "unit.h"
#include "../../analyze/stats.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>

#include <math.h>
#include <stdlib.h>

static struct an_opts opts(enum an_direction dir, enum an_convention conv)
{
	struct an_opts o;

	an_opts_init(&o);
	o.dir = dir;
	o.conv = conv;
	return o;
}

TEST(stats_describe_empty)
{
	struct an_desc d;
	double x[] = { NAN, NAN };

	an_describe(NULL, 0, &d);
	CHECK_INT(d.n, 0);
	CHECK(isnan(d.mean) && isnan(d.sd) && isnan(d.median));
	CHECK(isnan(d.min) && isnan(d.max) && isnan(d.cv));
	CHECK(isnan(d.ci_low) && isnan(d.ci_high));
	/* only missing values is the same as none */
	an_describe(x, 2, &d);
	CHECK_INT(d.n, 0);
	CHECK(isnan(d.mean));
	CHECK_INT(d.flags, 0);
}

TEST(stats_describe_one)
{
	struct an_desc d;
	double x[] = { 42.5 };

	an_describe(x, 1, &d);
	CHECK_INT(d.n, 1);
	CHECK_NEAR(d.mean, 42.5, 1e-12);
	CHECK_NEAR(d.median, 42.5, 1e-12);
	CHECK_NEAR(d.min, 42.5, 1e-12);
	CHECK_NEAR(d.max, 42.5, 1e-12);
	CHECK(isnan(d.sd) && isnan(d.cv));
	CHECK(isnan(d.ci_low) && isnan(d.ci_high));
}

TEST(stats_describe_two)
{
	struct an_desc d;
	double x[] = { 1, 3 };

	/* mean 2, sd sqrt(2), CI 2 +- qt(.975,1) * sqrt(2)/sqrt(2)
	 * = 2 +- 12.706204736 (Rmath qt) */
	an_describe(x, 2, &d);
	CHECK_INT(d.n, 2);
	CHECK_NEAR(d.mean, 2, 1e-12);
	CHECK_NEAR(d.sd, sqrt(2), 1e-12);
	CHECK_NEAR(d.median, 2, 1e-12);
	CHECK_NEAR(d.ci_low, 2 - 12.706204736174694, 1e-9);
	CHECK_NEAR(d.ci_high, 2 + 12.706204736174694, 1e-9);
	CHECK_NEAR(d.cv, sqrt(2) / 2 * 100, 1e-9);
}

TEST(stats_describe_textbook)
{
	struct an_desc d;
	/* The classic 2,4,4,4,5,5,7,9: mean 5, sum of squares 32, sample sd
	 * sqrt(32/7) = 2.138089935; median (4+5)/2; CI half-width
	 * qt(.975,7) = 2.364624252 (Rmath) * sd / sqrt(8) = 1.787487918.
	 * CV = 42.76% -> noisy and very noisy.  No outlier: 9 has Grubbs'
	 * G = 4 / 2.138 = 1.871 < 2.152, the critical value for 8 values at
	 * 4% (the old median/MAD rule called it one, modified z 6.07). */
	double x[] = { 9, 4, 2, 4, 5, 4, 7, 5 };

	an_describe(x, 8, &d);
	CHECK_INT(d.n, 8);
	CHECK_NEAR(d.mean, 5, 1e-12);
	CHECK_NEAR(d.sd, 2.138089935299395, 1e-12);
	CHECK_NEAR(d.median, 4.5, 1e-12);
	CHECK_NEAR(d.min, 2, 1e-12);
	CHECK_NEAR(d.max, 9, 1e-12);
	CHECK_NEAR(d.ci_low, 5 - 1.78748791823621, 1e-9);
	CHECK_NEAR(d.ci_high, 5 + 1.78748791823621, 1e-9);
	CHECK_NEAR(d.cv, 42.7617987059879, 1e-9);
	CHECK(d.flags & AN_F_NOISY);
	CHECK(d.flags & AN_F_VERY_NOISY);
	CHECK_INT(d.outliers, 0);
	CHECK(!(d.flags & AN_F_OUTLIERS));
}

TEST(stats_describe_missing_values)
{
	struct an_desc d;
	/* NaN entries are missing: same answer as { 1, 3 } */
	double x[] = { NAN, 1, NAN, 3, NAN };

	an_describe(x, 5, &d);
	CHECK_INT(d.n, 2);
	CHECK_NEAR(d.mean, 2, 1e-12);
	CHECK_NEAR(d.sd, sqrt(2), 1e-12);
	CHECK_NEAR(d.median, 2, 1e-12);
	CHECK_NEAR(d.min, 1, 1e-12);
	CHECK_NEAR(d.max, 3, 1e-12);
	CHECK_NEAR(an_median(x, 5), 2, 1e-12);
}

TEST(stats_describe_zero_variance)
{
	struct an_desc d;
	double x[] = { 5, 5, 5 };

	an_describe(x, 3, &d);
	CHECK_NEAR(d.sd, 0, 1e-15);
	CHECK_NEAR(d.cv, 0, 1e-15);
	CHECK_NEAR(d.ci_low, 5, 1e-12);
	CHECK_NEAR(d.ci_high, 5, 1e-12);
	CHECK_INT(d.flags, 0);
}

TEST(stats_d2_table)
{
	/* Standard SPC table; also checked by integrating
	 * 1 - (1-Phi)^n - Phi^n numerically. */
	CHECK(isnan(an_d2(0)));
	CHECK(isnan(an_d2(1)));
	CHECK_NEAR(an_d2(2), 1.128, 1e-12);
	CHECK_NEAR(an_d2(5), 2.326, 1e-12);
	CHECK_NEAR(an_d2(10), 3.078, 1e-12);
	CHECK_NEAR(an_d2(25), 3.931, 1e-12);
	CHECK(isnan(an_d2(26)));
}

TEST(stats_summary_published_sd)
{
	struct an_desc d;

	/* seed 000, hackbench A at N=10: 5.54(0.10), 4 tests.
	 * CV = 0.10 / 5.54 = 1.805%; CI half-width qt(.975,3) = 3.182446305
	 * (Rmath) * 0.10 / 2 = 0.159122315. */
	an_describe_summary(5.54, 0.10, 4, NAN, NAN, &d);
	CHECK_INT(d.n, 4);
	CHECK_NEAR(d.cv, 0.10 / 5.54 * 100, 1e-12);
	CHECK_NEAR(d.ci_low, 5.54 - 0.1591223152641854, 1e-9);
	CHECK_NEAR(d.ci_high, 5.54 + 0.1591223152641854, 1e-9);
	CHECK(isnan(d.median));
	CHECK_INT(d.flags, AN_F_SUMMARY_ONLY);

	/* n unknown: CV yes, CI no */
	an_describe_summary(5.54, 0.10, 0, NAN, NAN, &d);
	CHECK_NEAR(d.cv, 0.10 / 5.54 * 100, 1e-12);
	CHECK(isnan(d.ci_low));

	/* only a mean */
	an_describe_summary(5.54, NAN, 0, NAN, NAN, &d);
	CHECK_NEAR(d.mean, 5.54, 1e-12);
	CHECK(isnan(d.sd) && isnan(d.cv) && isnan(d.ci_low));
	CHECK_INT(d.flags, AN_F_SUMMARY_ONLY);
}

TEST(stats_summary_estimated_sd)
{
	struct an_desc d;

	/* seed 002, numa02 with mel's patches: 47.21 .. 60.58, avg 53.43,
	 * 5 runs.  sd = 13.37 / d2(5) = 13.37 / 2.326 = 5.748065348;
	 * CV = 10.758% -> noisy, not very noisy. */
	an_describe_summary(53.43, NAN, 5, 47.21, 60.58, &d);
	CHECK_NEAR(d.sd, 5.748065348237316, 1e-12);
	CHECK_NEAR(d.cv, 5.748065348237316 / 53.43 * 100, 1e-9);
	CHECK(d.flags & AN_F_SUMMARY_ONLY);
	CHECK(d.flags & AN_F_SD_ESTIMATED);
	CHECK(d.flags & AN_F_NOISY);
	CHECK(!(d.flags & AN_F_VERY_NOISY));
	/* CI: 53.43 +- qt(.975,4) = 2.776445105 * sd / sqrt(5) */
	CHECK_NEAR(d.ci_high - d.mean,
		   2.7764451051977934 * 5.748065348237316 / sqrt(5), 1e-9);

	/* no n -> no d2 -> no estimate */
	an_describe_summary(53.43, NAN, 0, 47.21, 60.58, &d);
	CHECK(isnan(d.sd));
	CHECK(!(d.flags & AN_F_SD_ESTIMATED));
}

TEST(stats_outliers_grubbs)
{
	/* 20 in the first: mean 11.667, sd 4.082, G = 8.333 / 4.082 = 2.041
	 * > 1.904 (6 values at 4%); then the five others, G = 1.26 < 1.725.
	 * 10.2 in the second: G = 1.66 < 1.904. */
	double x[] = { 10, 10.1, 9.9, 10.05, 9.95, 20 };
	double y[] = { 10, 10.1, 9.9, 10.05, 9.95, 10.2 };
	/* two far values among 10: 30 (G = 2.81 > 2.322), then 13 among the
	 * nine left (G = 2.67 > 2.244): both counted */
	double z[] = { 10, 10.1, 9.9, 10.05, 9.95, 10.02, 9.98, 10.03, 30, 13 };
	double same[] = { 7, 7, 7, 7, 7 };
	struct an_desc d;

	CHECK_INT(an_outliers(x, 6), 1);
	CHECK_INT(an_outliers(y, 6), 0);
	CHECK_INT(an_outliers(z, 10), 2);
	CHECK_INT(an_outliers(same, 5), 0);
	CHECK_INT(an_outliers(x, 2), 0);
	an_describe(x, 6, &d);
	CHECK_INT(d.outliers, 1);
	CHECK(d.flags & AN_F_OUTLIERS);
	CHECK_INT(d.n, 6);	/* flagged, never dropped */
	CHECK_NEAR(d.max, 20, 1e-12);
}

TEST(stats_grubbs_critical_table)
{
	/* Grubbs' two-sided 5% critical values as tabled (ASTM E178,
	 * NIST/SEMATECH e-Handbook 1.3.5.17.1), printed to 3 decimals. */
	static const struct { size_t n; double g; } tab[] = {
		{ 3, 1.155 }, { 4, 1.481 }, { 5, 1.715 }, { 6, 1.887 }, { 7, 2.020 },
		{ 8, 2.126 }, { 9, 2.215 }, { 10, 2.290 }, { 20, 2.709 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		CHECK_NEAR(an_grubbs_critical(tab[i].n, 0.05), tab[i].g, 1e-3);
	CHECK(isnan(an_grubbs_critical(2, 0.05)));
	CHECK(isnan(an_grubbs_critical(5, 0)));
	/* the level kbench uses is stricter than 5% */
	CHECK(an_grubbs_critical(5, AN_OUTLIER_ALPHA) > an_grubbs_critical(5, 0.05));
}

TEST(stats_outliers_mmtests_triple)
{
	/* mmtests' 5.389 5.397 5.439: G = 0.0307 / 0.0269 = 1.142 < 1.154.
	 * The median/MAD rule flagged it: MAD 0.008, modified z 3.54. */
	double x[] = { 5.389, 5.397, 5.439 };
	struct an_desc d;

	CHECK_INT(an_outliers(x, 3), 0);
	an_describe(x, 3, &d);
	CHECK(!(d.flags & AN_F_OUTLIERS));
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Share of ncells cells of n values (standard normal; with shift > 0 the
 * last one is exactly shift sd above the mean instead) in which
 * an_outliers() finds anything.  Every
 * other cell is passed sorted, which must not matter. */
static double flagged_share(size_t n, size_t ncells, double shift)
{
	double v[32];
	size_t c, i, flagged = 0;

	for (c = 0; c < ncells; c++) {
		for (i = 0; i < n; i++)
			v[i] = norm_rand();
		if (shift > 0)
			v[n - 1] = shift;
		if (c % 2)
			qsort(v, n, sizeof(v[0]), cmp_dbl);
		flagged += an_outliers(v, n) > 0;
	}
	return (double)flagged / ncells;
}

TEST(stats_outliers_false_alarms_by_simulation)
{
	/* Normal data, 5,000 cells per n, a fixed seed of Rmath's generator
	 * (Marsaglia multicarry under MATHLIB_STANDALONE, inversion for
	 * norm_rand): at most 5% of the cells flagged for every n = 3..20.
	 * The median/MAD rule flagged 29.6% at n = 3, 20% at 5, 10% at 20. */
	size_t n;
	double lo = 1, hi = 0;

	set_seed(20261202, 24);
	for (n = 3; n <= 20; n++) {
		double share = flagged_share(n, 5000, 0);

		if (!(share <= 0.05))
			unit_fail(__FILE__, __LINE__, "n=%zu: %.2f%% of normal cells flagged",
				  n, share * 100);
		lo = fmin(lo, share);
		hi = fmax(hi, share);
	}
	/* and not far below the level either: the test is not blind */
	CHECK(lo >= 0.03 && hi <= 0.05);
}

TEST(stats_outliers_find_5sd_by_simulation)
{
	/* One value 5 sd away from n - 1 normal ones, 2,000 cells per n.
	 * Expected rates of Grubbs at 4% (20,000-cell runs): n=5 32%, 6 47%,
	 * 8 67%, 10 80%, 15 94%, 20 97.5%. */
	static const struct { size_t n; double min; } want[] = {
		{ 5, 0.27 }, { 6, 0.42 }, { 7, 0.53 }, { 8, 0.62 }, { 10, 0.76 },
		{ 12, 0.84 }, { 15, 0.91 }, { 20, 0.95 },
	};
	size_t i;
	double prev = 0;

	set_seed(4242, 2026);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		double share = flagged_share(want[i].n, 2000, 5);

		if (!(share >= want[i].min))
			unit_fail(__FILE__, __LINE__, "n=%zu: a 5-sd value found in %.1f%% of cells",
				  want[i].n, share * 100);
		CHECK(share > prev);	/* more values, more power */
		prev = share;
	}
	/* a value 5 sd away with the others' own sd: 10 values at 10 +- 0.1 */
	{
		double x[] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.12, 9.88, 10.03, 9.97 };
		double m = 0, ss = 0, sd, y[10];
		size_t k;

		for (k = 0; k < 9; k++)
			m += x[k] / 9;
		for (k = 0; k < 9; k++)
			ss += (x[k] - m) * (x[k] - m);
		sd = sqrt(ss / 8);
		memcpy(y, x, sizeof(x));
		y[9] = m + 5 * sd;
		CHECK_INT(an_outliers(y, 10), 1);
		y[9] = m + 3 * sd;
		CHECK_INT(an_outliers(y, 10), 0);
	}
}

TEST(stats_bimodal_numa_user_times)
{
	/* four jobs local (~27 s), four remote (~35.5 s): clusters of 4,
	 * means 27.15 and 35.575, sds 0.129 and 0.171 -> D ~ 55 */
	double two[] = { 27.1, 35.4, 27.3, 35.8, 27.0, 35.6, 27.2, 35.5 };
	/* evenly spread values: best split D ~ 3.5 < 5 */
	double flat[] = { 27.0, 27.5, 28.0, 28.5, 29.0, 29.5, 30.0, 30.5 };
	/* two tight groups only 0.1% apart: quantised timings, not bimodal */
	double quant[] = { 27.00, 27.00, 27.00, 27.03, 27.03, 27.03 };
	double split = 0;
	struct an_desc d;

	CHECK_INT(an_bimodal(two, 8, &split), 1);
	CHECK_NEAR(split, (27.3 + 35.4) / 2, 1e-12);
	CHECK_INT(an_bimodal(flat, 8, NULL), 0);
	CHECK_INT(an_bimodal(quant, 6, NULL), 0);
	CHECK_INT(an_bimodal(two, 5, NULL), 0);	/* too few values */
	an_describe(two, 8, &d);
	CHECK(d.flags & AN_F_BIMODAL);
}

TEST(stats_convert_conventions)
{
	/* +63.94% time = speed 1/1.6394 - 1 = -39.00% */
	CHECK_NEAR(an_convert(63.945995704, AN_DIR_LOWER, AN_CONV_SPEED),
		   -39.00430469773535, 1e-6);
	CHECK_NEAR(an_convert(10, AN_DIR_HIGHER, AN_CONV_SPEED), 10, 1e-12);
	CHECK_NEAR(an_convert(10, AN_DIR_LOWER, AN_CONV_BETTER), -10, 1e-12);
	CHECK_NEAR(an_convert(10, AN_DIR_HIGHER, AN_CONV_BETTER), 10, 1e-12);
	CHECK_NEAR(an_convert(10, AN_DIR_NONE, AN_CONV_BETTER), 10, 1e-12);
	CHECK_NEAR(an_convert(10, AN_DIR_LOWER, AN_CONV_RAW), 10, 1e-12);
	CHECK(isinf(an_convert(-100, AN_DIR_LOWER, AN_CONV_SPEED)));
	CHECK(isnan(an_convert(NAN, AN_DIR_LOWER, AN_CONV_SPEED)));
}

TEST(stats_runs_needed_and_names)
{
	/* ceil(16 * (5/1)^2 + 2) = 402; ceil(16 * 0.25 + 2) = 6 */
	CHECK_NEAR(an_runs_needed(5, 1), 402, 1e-12);
	CHECK_NEAR(an_runs_needed(0.5, 1), 6, 1e-12);
	CHECK(isnan(an_runs_needed(NAN, 1)));
	CHECK_STR(an_verdict_name(AN_VERDICT_BETTER), "better");
	CHECK_STR(an_verdict_name(AN_VERDICT_WORSE), "worse");
	CHECK_STR(an_verdict_name(AN_VERDICT_SAME), "same");
	CHECK_STR(an_verdict_name(AN_VERDICT_CHANGED), "changed");
	CHECK_STR(an_verdict_name(AN_VERDICT_INCONCLUSIVE), "inconclusive");
	CHECK_STR(an_verdict_name(AN_VERDICT_NONE), "none");
}

TEST(stats_p_min)
{
	/* 2 / choose(6, 3) = 2/20 = 0.1; 2 / choose(10, 5) = 2/252 */
	CHECK_NEAR(an_p_min(AN_TEST_MWU, 3, 3), 0.1, 1e-12);
	CHECK_NEAR(an_p_min(AN_TEST_MWU, 5, 5), 2.0 / 252, 1e-12);
	CHECK_NEAR(an_p_min(AN_TEST_MWU, 1, 1), 1, 1e-12);
	CHECK_NEAR(an_p_min(AN_TEST_WELCH, 2, 2), 0, 1e-12);
	CHECK(isnan(an_p_min(AN_TEST_WELCH, 1, 5)));
}

TEST(stats_bh_known_example)
{
	/* Benjamini & Hochberg (1995), section 4: fifteen p-values; at
	 * q* = 0.05 the procedure rejects the four smallest.  q-values by
	 * hand: p_(i) * 15 / i, then running minimum from the top, e.g.
	 * 0.0095*15/4 = 0.035625; 0.0298*15/7 = 0.063857 = min with
	 * 0.0278*15/6 = 0.0695 -> both 0.063857. */
	double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278,
		       0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
		       0.6528, 0.7590, 1.000 };
	double want[] = { 0.0015, 0.003, 0.0095, 0.035625, 0.0603,
			  0.06385714285714286, 0.06385714285714286, 0.0645,
			  0.0765, 0.486, 0.5811818181818182, 0.714875,
			  0.7532307692307694, 0.8132142857142857, 1 };
	double q[15];
	size_t i, rejected = 0;

	an_bh(p, 15, q);
	for (i = 0; i < 15; i++) {
		CHECK_NEAR(q[i], want[i], 1e-12);
		rejected += q[i] < 0.05;
	}
	CHECK_INT(rejected, 4);
}

TEST(stats_bh_nan_and_alias)
{
	/* NaN excluded from m: m = 4, sorted 0.005 0.01 0.03 0.04 ->
	 * 0.02 0.02 0.04 0.04.  q aliases p. */
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 };

	an_bh(p, 5, p);
	CHECK_NEAR(p[0], 0.02, 1e-12);
	CHECK_NEAR(p[1], 0.04, 1e-12);
	CHECK(isnan(p[2]));
	CHECK_NEAR(p[3], 0.04, 1e-12);
	CHECK_NEAR(p[4], 0.02, 1e-12);
	an_bh(NULL, 0, NULL);	/* nothing to do, no crash */
}

TEST(stats_seed000_hackbench_summary)
{
	/* seed 000: hackbench N=10, A 5.54(0.10) vs C 1.31(0.08), 4 tests.
	 * raw = (1.31 - 5.54) / 5.54 = -76.3538%.
	 * Log scale: ln 5.54, sd 0.10/5.54; ln 1.31, sd 0.08/1.31;
	 * Welch df 3.52023, t -45.29, p = 2 pt(-45.29, 3.52) = 5.367e-6;
	 * CI exp(d +- qt(.975, df) se) - 1 = [-78.4616, -74.0398]%. */
	struct an_side a, c;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_RAW);
	struct an_change chg;

	an_side_summary(&a, 5.54, 0.10, 4, NAN, NAN);
	an_side_summary(&c, 1.31, 0.08, 4, NAN, NAN);
	an_compare(&a, &c, &o, &chg);
	CHECK_NEAR(chg.raw, -76.35379061371842, 1e-9);
	CHECK_NEAR(chg.change, -76.35379061371842, 1e-9);
	CHECK_INT(chg.ci_method, AN_CI_LOG_WELCH);
	CHECK_NEAR(chg.df, 3.5202259654801265, 1e-9);
	CHECK_NEAR(chg.p, 5.3669365768514646e-06, 1e-9);
	CHECK_NEAR(chg.raw_low, -78.46155409623661, 1e-7);
	CHECK_NEAR(chg.raw_high, -74.03976030405364, 1e-7);
	CHECK_INT(chg.verdict, AN_VERDICT_BETTER);
	CHECK_STR(an_verdict_name(chg.verdict), "better");
	CHECK(chg.flags & AN_F_SUMMARY_ONLY);
	CHECK(!(chg.flags & AN_F_SD_ESTIMATED));

	/* "better" convention: positive means improvement, bounds swapped */
	o.conv = AN_CONV_BETTER;
	an_compare(&a, &c, &o, &chg);
	CHECK_NEAR(chg.change, 76.35379061371842, 1e-9);
	CHECK_NEAR(chg.ci_low, 74.03976030405364, 1e-7);
	CHECK_NEAR(chg.ci_high, 78.46155409623661, 1e-7);
	CHECK_INT(chg.verdict, AN_VERDICT_BETTER);
}

TEST(stats_seed002_numa02_estimated_sd)
{
	/* seed 002, numa02: base 32.59 [32.07, 32.72], new 53.43
	 * [47.21, 60.58], 5 runs each, no sd published.
	 * raw (53.43 - 32.59)/32.59 = +63.946%, speed 32.59/53.43 - 1
	 * = -39.004% (the mail prints -39.00%).
	 * sds by range/d2(5): 0.27945, 5.74807; log-scale Welch:
	 * df 4.05082, p 4.800e-4, raw CI [43.4798, 87.3315]%;
	 * speed CI = 1/(1 + [87.33, 43.48]%) - 1 = [-46.61, -30.30]%. */
	struct an_side b, n;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_SPEED);
	struct an_change chg;

	an_side_summary(&b, 32.59, NAN, 5, 32.07, 32.72);
	an_side_summary(&n, 53.43, NAN, 5, 47.21, 60.58);
	an_compare(&b, &n, &o, &chg);
	CHECK_NEAR(chg.raw, 63.94599570420373, 1e-9);
	CHECK_NEAR(chg.change, -39.00430469773535, 1e-9);
	CHECK_NEAR(chg.df, 4.0508203891444845, 1e-8);
	CHECK_NEAR(chg.p, 0.0004800276240122197, 1e-9);
	CHECK_NEAR(chg.raw_low, 43.47978068253218, 1e-7);
	CHECK_NEAR(chg.raw_high, 87.33154859578805, 1e-7);
	CHECK_NEAR(chg.ci_low, (1 / 1.8733154859578805 - 1) * 100, 1e-7);
	CHECK_NEAR(chg.ci_high, (1 / 1.4347978068253218 - 1) * 100, 1e-7);
	CHECK(chg.ci_low <= chg.change && chg.change <= chg.ci_high);
	CHECK_INT(chg.verdict, AN_VERDICT_WORSE);
	CHECK(chg.flags & AN_F_SD_ESTIMATED);
	CHECK(chg.flags & AN_F_SUMMARY_ONLY);
	CHECK(chg.flags & AN_F_NOISY);	/* the new side, CV 10.8% */
}

TEST(stats_seed002_numa01_not_worse)
{
	/* seed 002, numa01: 1800.16 [1784.16, 1864.15] vs 1785.60
	 * [1752.48, 1859.60], 5 runs.  speed 1800.16/1785.60 - 1 = +0.815%
	 * (mail: 0.82%).  Log-scale Welch: p 0.5883, raw CI
	 * [-4.0859, +2.5802]% -> neither significant nor inside +-1%:
	 * inconclusive.  Larger CV 46.0533/1785.6 = 2.579% ->
	 * ceil(16 * 2.579^2 + 2) = 109 runs per side. */
	struct an_side b, n;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_SPEED);
	struct an_change chg;

	an_side_summary(&b, 1800.16, NAN, 5, 1784.16, 1864.15);
	an_side_summary(&n, 1785.60, NAN, 5, 1752.48, 1859.60);
	an_compare(&b, &n, &o, &chg);
	CHECK_NEAR(chg.change, 0.815412186379949, 1e-9);
	CHECK_NEAR(chg.p, 0.5883403300721728, 1e-8);
	CHECK_NEAR(chg.raw_low, -4.085856565953061, 1e-7);
	CHECK_NEAR(chg.raw_high, 2.5801871742340055, 1e-7);
	CHECK_NEAR(chg.ci_low, -2.5152880349609053, 1e-7);
	CHECK_NEAR(chg.ci_high, 4.259910394510902, 1e-7);
	CHECK(chg.verdict != AN_VERDICT_WORSE);
	CHECK_INT(chg.verdict, AN_VERDICT_INCONCLUSIVE);
	CHECK_NEAR(chg.cv, 2.5791504482598127, 1e-9);
	CHECK_NEAR(chg.runs_needed, 109, 1e-12);
}

TEST(stats_compare_raw_samples_welch_log)
{
	/* Welch's t on logs, as R's t.test(log(cand), log(base)):
	 * base 10.1 10.4 10.2 10.6 10.3, cand 10.5 10.9 10.8 11.0 10.7.
	 * raw = (10.78 - 10.32)/10.32 = +4.4574%; df 7.98898,
	 * p = 2 pt(-3.77999, df) = 0.0054019; CI [1.71481, 7.27612]%. */
	double b[] = { 10.1, 10.4, 10.2, 10.6, 10.3 };
	double c[] = { 10.5, 10.9, 10.8, 11.0, 10.7 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_RAW);
	struct an_change chg;

	an_side_samples(&sb, b, 5);
	an_side_samples(&sc, c, 5);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_NEAR(chg.raw, 4.457364341085297, 1e-9);
	CHECK_NEAR(chg.df, 7.988975532468577, 1e-8);
	CHECK_NEAR(chg.p, 0.005401857249217799, 1e-9);
	CHECK_NEAR(chg.ci_low, 1.7148066009279317, 1e-7);
	CHECK_NEAR(chg.ci_high, 7.276115337659661, 1e-7);
	CHECK_INT(chg.test, AN_TEST_WELCH);
	CHECK_INT(chg.verdict, AN_VERDICT_BETTER);
	o.dir = AN_DIR_NONE;
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.verdict, AN_VERDICT_CHANGED);
	o.dir = AN_DIR_LOWER;
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.verdict, AN_VERDICT_WORSE);
}

TEST(stats_compare_mwu_exact)
{
	/* Same data, wilcox.test(base, cand, exact = TRUE): ranks of base
	 * in the pooled sample are 1 2 3 4 6 -> W = 16 - 15 = 1; only two
	 * of the choose(10,5) = 252 orderings give W <= 1, so
	 * p = 2 * 2/252 = 0.015873 = 2 * pwilcox(1, 5, 5). */
	double b[] = { 10.1, 10.4, 10.2, 10.6, 10.3 };
	double c[] = { 10.5, 10.9, 10.8, 11.0, 10.7 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_RAW);
	struct an_change chg;

	o.test = AN_TEST_MWU;
	an_side_samples(&sb, b, 5);
	an_side_samples(&sc, c, 5);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.test, AN_TEST_MWU);
	CHECK_NEAR(chg.p, 4.0 / 252, 1e-12);
	CHECK_NEAR(chg.p_min, 2.0 / 252, 1e-12);
	CHECK(!(chg.flags & (AN_F_TOO_FEW | AN_F_TIES)));
	CHECK_INT(chg.verdict, AN_VERDICT_BETTER);
	/* symmetric: swapping sides gives the same two-sided p */
	an_compare(&sc, &sb, &o, &chg);
	CHECK_NEAR(chg.p, 4.0 / 252, 1e-12);
}

TEST(stats_compare_mwu_three_vs_three)
{
	/* 3 vs 3, completely separated: W = 0, p = 2 * 1/20 = 0.1 = p_min,
	 * which cannot pass alpha 0.05 -> TOO_FEW, not better. */
	double b[] = { 1, 2, 3 };
	double c[] = { 4, 5, 6 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_RAW);
	struct an_change chg;

	o.test = AN_TEST_MWU;
	an_side_samples(&sb, b, 3);
	an_side_samples(&sc, c, 3);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_NEAR(chg.p, 0.1, 1e-12);
	CHECK_NEAR(chg.p_min, 0.1, 1e-12);
	CHECK(chg.flags & AN_F_TOO_FEW);
	CHECK(chg.verdict != AN_VERDICT_BETTER);
}

TEST(stats_compare_mwu_ties)
{
	/* base 1 2 2 3 4, cand 3 4 5 6 7: midranks give base rank sum
	 * 1 + 2.5 + 2.5 + 4.5 + 6.5 = 17, W = 2.  Ties (three pairs,
	 * sum t^3 - t = 18) -> normal approximation as R does:
	 * sigma = sqrt(25/12 * (11 - 18/90)) = sqrt(22.5),
	 * z = (2 - 12.5 + 0.5) / sigma = -2.108185, p = 2 pnorm(z)
	 * = 0.035015 (Rmath pnorm5). */
	double b[] = { 1, 2, 2, 3, 4 };
	double c[] = { 3, 4, 5, 6, 7 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_NONE, AN_CONV_RAW);
	struct an_change chg;

	o.test = AN_TEST_MWU;
	an_side_samples(&sb, b, 5);
	an_side_samples(&sc, c, 5);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_NEAR(chg.p, 0.03501498101966251, 1e-9);
	CHECK(chg.flags & AN_F_TIES);
}

TEST(stats_compare_mixed_raw_and_summary)
{
	/* raw base (mean 10.32, sd 0.192354) vs summary 10.78(0.2), n 5:
	 * both sides go through ln(mean), sd/mean.  Welch: df 7.99983,
	 * t 3.70788, p 0.0059747, CI [1.66242, 7.32915]%. */
	double b[] = { 10.1, 10.4, 10.2, 10.6, 10.3 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_SPEED);
	struct an_change chg;

	an_side_samples(&sb, b, 5);
	an_side_summary(&sc, 10.78, 0.2, 5, NAN, NAN);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.ci_method, AN_CI_LOG_WELCH);
	CHECK_NEAR(chg.df, 7.999828656475672, 1e-8);
	CHECK_NEAR(chg.p, 0.005974749951560328, 1e-9);
	/* higher is better: speed convention is the raw change */
	CHECK_NEAR(chg.change, chg.raw, 1e-12);
	CHECK_NEAR(chg.ci_low, 1.6624192251603276, 1e-7);
	CHECK_NEAR(chg.ci_high, 7.329149239700605, 1e-7);
	CHECK_INT(chg.verdict, AN_VERDICT_BETTER);
}

TEST(stats_compare_mwu_needs_samples)
{
	/* a summary on one side: MWU impossible, Welch is used and said */
	double b[] = { 10.1, 10.4, 10.2, 10.6, 10.3 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_NONE, AN_CONV_RAW);
	struct an_change chg;

	o.test = AN_TEST_MWU;
	an_side_samples(&sb, b, 5);
	an_side_summary(&sc, 10.78, 0.2, 5, NAN, NAN);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.test, AN_TEST_WELCH);
	CHECK(!isnan(chg.p));
	CHECK(chg.flags & AN_F_SUMMARY_ONLY);
}

TEST(stats_compare_identical_samples)
{
	/* identical samples: change 0, t = 0 -> p = 1; log-scale CI is
	 * symmetric around 0 and, with CV ~0.14%, inside +-1% -> same */
	double x[] = { 100, 100.1, 99.9, 100, 100.2, 99.8 };
	struct an_side a, b;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_SPEED);
	struct an_change chg;

	an_side_samples(&a, x, 6);
	an_side_samples(&b, x, 6);
	an_compare(&a, &b, &o, &chg);
	CHECK_NEAR(chg.raw, 0, 1e-12);
	CHECK_NEAR(chg.p, 1, 1e-12);
	CHECK_NEAR(chg.raw_low, -chg.raw_high / (1 + chg.raw_high / 100), 1e-9);
	CHECK(chg.raw_low > -1 && chg.raw_high < 1);
	CHECK_INT(chg.verdict, AN_VERDICT_SAME);
	CHECK(isnan(chg.runs_needed));
}

TEST(stats_compare_zero_variance)
{
	double five[] = { 5, 5, 5 };
	double six[] = { 6, 6, 6 };
	struct an_side a, b;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_RAW);
	struct an_change chg;

	/* constant and equal: point interval at 0 -> same, no p */
	an_side_samples(&a, five, 3);
	an_side_samples(&b, five, 3);
	an_compare(&a, &b, &o, &chg);
	CHECK(chg.flags & AN_F_ZERO_VAR);
	CHECK(isnan(chg.p));
	CHECK_NEAR(chg.ci_low, 0, 1e-12);
	CHECK_NEAR(chg.ci_high, 0, 1e-12);
	CHECK_INT(chg.verdict, AN_VERDICT_SAME);

	/* constant and different: +20%, no t-test possible -> inconclusive */
	an_side_samples(&b, six, 3);
	an_compare(&a, &b, &o, &chg);
	CHECK(chg.flags & AN_F_ZERO_VAR);
	CHECK_NEAR(chg.raw, 20, 1e-12);
	CHECK(isnan(chg.p));
	CHECK_INT(chg.verdict, AN_VERDICT_INCONCLUSIVE);
}

TEST(stats_compare_too_few)
{
	/* one run on a side: change yes, interval and p no */
	double one[] = { 10 };
	double many[] = { 11, 12, 13 };
	struct an_side a, b;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_RAW);
	struct an_change chg;

	an_side_samples(&a, one, 1);
	an_side_samples(&b, many, 3);
	an_compare(&a, &b, &o, &chg);
	CHECK_NEAR(chg.raw, 20, 1e-12);
	CHECK(isnan(chg.p) && isnan(chg.ci_low) && isnan(chg.p_min));
	CHECK(chg.flags & AN_F_TOO_FEW);
	CHECK_INT(chg.ci_method, AN_CI_NONE);
	CHECK_INT(chg.verdict, AN_VERDICT_INCONCLUSIVE);

	/* an empty side: nothing to compare */
	an_side_samples(&a, NULL, 0);
	an_compare(&a, &b, &o, &chg);
	CHECK(isnan(chg.raw));
	CHECK_INT(chg.verdict, AN_VERDICT_NONE);
}

TEST(stats_compare_nonpositive_raw_delta)
{
	/* values <= 0 cannot be logged: Welch on raw values.
	 * base -1 1 2 3 4 (mean 1.8), cand 0 2 3 4 6 (mean 3.0):
	 * raw +66.667%; df 7.82528, p 0.390131;
	 * r = 3/1.8, se_r = sqrt(v_c/1.8^2 + 3^2 v_b/1.8^4),
	 * CI (r - 1 +- qt(.975, df) se_r) = [-158.147, +291.481]%. */
	double b[] = { -1, 1, 2, 3, 4 };
	double c[] = { 0, 2, 3, 4, 6 };
	struct an_side sb, sc;
	struct an_opts o = opts(AN_DIR_LOWER, AN_CONV_SPEED);
	struct an_change chg;

	an_side_samples(&sb, b, 5);
	an_side_samples(&sc, c, 5);
	an_compare(&sb, &sc, &o, &chg);
	CHECK_INT(chg.ci_method, AN_CI_RAW_DELTA);
	CHECK_NEAR(chg.raw, 66.66666666666666, 1e-9);
	CHECK_NEAR(chg.df, 7.825277849573534, 1e-8);
	CHECK_NEAR(chg.p, 0.3901308761128358, 1e-8);
	CHECK_NEAR(chg.raw_low, -158.14717803826645, 1e-6);
	CHECK_NEAR(chg.raw_high, 291.48051137159973, 1e-6);
	/* speed bounds: lower bound below -100% maps to +inf */
	CHECK(chg.ci_low <= chg.ci_high);
	CHECK(isinf(chg.ci_high));
	CHECK_INT(chg.verdict, AN_VERDICT_INCONCLUSIVE);
}

TEST(stats_bh_changes_redecides)
{
	/* two comparisons with p 0.03 and 0.04 (both < 0.05 alone):
	 * BH q = 0.04 for both (0.03*2/1 = 0.06 -> min with 0.04) ->
	 * both stay significant; with a third p = 0.9, q = 0.06, 0.06,
	 * 0.9 -> none significant any more. */
	struct an_change c[3];
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_RAW);
	size_t i;

	for (i = 0; i < 3; i++) {
		c[i].raw = 10;
		c[i].raw_low = 2;
		c[i].raw_high = 18;
		c[i].cv = 3;
		c[i].flags = 0;
	}
	c[0].p = 0.03;
	c[1].p = 0.04;
	c[2].p = 0.9;
	an_bh_changes(c, 2, &o);
	CHECK_NEAR(c[0].q, 0.04, 1e-12);
	CHECK_NEAR(c[1].q, 0.04, 1e-12);
	CHECK_INT(c[0].verdict, AN_VERDICT_BETTER);
	an_bh_changes(c, 3, &o);
	CHECK_NEAR(c[0].q, 0.06, 1e-12);
	CHECK_NEAR(c[2].q, 0.9, 1e-12);
	CHECK_INT(c[0].verdict, AN_VERDICT_INCONCLUSIVE);
	CHECK_NEAR(c[0].runs_needed, 146, 1e-12);	/* 16*9+2 */
}

/* The best two-cluster cut, tried the slow way: every cut, each side's
 * sum of squared deviations from its own mean. */
static double reference_split(const double *sorted, size_t n)
{
	double best = INFINITY, split = NAN;
	size_t k, i;

	for (k = 2; k + 2 <= n; k++) {
		double m1 = 0, m2 = 0, w = 0;
		for (i = 0; i < k; i++)
			m1 += sorted[i] / k;
		for (i = k; i < n; i++)
			m2 += sorted[i] / (n - k);
		for (i = 0; i < n; i++)
			w += (sorted[i] - (i < k ? m1 : m2)) * (sorted[i] - (i < k ? m1 : m2));
		if (w < best) {
			best = w;
			split = (sorted[k - 1] + sorted[k]) / 2;
		}
	}
	return split;
}

/* Large cells (thousands of per-job user times) take the running-sums
 * road; it must find the cut the exhaustive search finds. */
TEST(stats_bimodal_large_cells)
{
	static double v[4000];
	unsigned seed = 12345;
	size_t n, i;
	double split;

	for (n = 6; n <= 4000; n = n * 3 + 1) {
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* a third near 27 s, the rest near 35.5 s */
			v[i] = (i % 3 ? 35.5 : 27.0) + (double)(seed >> 16 & 1023) / 4096.0;
		}
		qsort(v, n, sizeof(v[0]), cmp_dbl);
		split = NAN;
		CHECK_INT(an_bimodal(v, n, &split), 1);
		CHECK_NEAR(split, reference_split(v, n), 1e-12);
	}
	for (i = 0; i < 4000; i++)
		v[i] = 27.0 + (double)i / 400.0;       /* evenly spread: one mode */
	CHECK_INT(an_bimodal(v, 4000, NULL), 0);
}

/* The rank test by brute force: every nx-subset of the pooled values
 * (bit masks), its rank sum from midranks counted the naive way
 * (#smaller + (#equal + 1) / 2), against the observed sum. */
static void rank_brute(const double *x, size_t nx, const double *y, size_t ny,
		       double *lo, double *hi)
{
	double v[20], r[20], w = 0, all = 0, le = 0, ge = 0;
	size_t N = nx + ny, i, j;
	unsigned long mask;

	for (i = 0; i < N; i++)
		v[i] = i < nx ? x[i] : y[i - nx];
	for (i = 0; i < N; i++) {
		double less = 0, eq = 0;
		for (j = 0; j < N; j++) {
			less += v[j] < v[i];
			eq += v[j] == v[i];
		}
		r[i] = less + (eq + 1) / 2;
		if (i < nx)
			w += r[i];
	}
	for (mask = 0; mask < (1ul << N); mask++) {
		double s = 0;
		if ((size_t)__builtin_popcountl(mask) != nx)
			continue;
		for (i = 0; i < N; i++)
			if (mask & (1ul << i))
				s += r[i];
		all++;
		le += s <= w + 1e-9;
		ge += s >= w - 1e-9;
	}
	*lo = le / all;
	*hi = ge / all;
}

TEST(stats_rank_test_exact_with_ties)
{
	/* Nodes used per run: heavy ties. */
	static const double a[] = { 2, 3, 2, 4, 1 }, b[] = { 4, 4, 2, 3, 4, 4 };
	static const double c[] = { 1, 1, 1 }, d[] = { 4, 4, 4 };
	static const double e[] = { 12.5, 0, 25, 12.5 }, f[] = { 0, 0, 12.5, 0, 0, 37.5, 0 };
	double lo, hi, blo, bhi;

	CHECK_INT(an_rank_test(a, 5, b, 6, &lo, &hi), 1);
	rank_brute(a, 5, b, 6, &blo, &bhi);
	CHECK_NEAR(lo, blo, 1e-12);
	CHECK_NEAR(hi, bhi, 1e-12);
	CHECK(lo < 0.1 && hi > 0.9);
	/* The larger side counted: the same tails, swapped. */
	an_rank_test(b, 6, a, 5, &lo, &hi);
	CHECK_NEAR(hi, blo, 1e-12);
	CHECK_NEAR(lo, bhi, 1e-12);
	an_rank_test(e, 4, f, 7, &lo, &hi);
	rank_brute(e, 4, f, 7, &blo, &bhi);
	CHECK_NEAR(lo, blo, 1e-12);
	CHECK_NEAR(hi, bhi, 1e-12);
	/* Three runs a side, fully apart: 1 of choose(6, 3) = 20 splits. */
	an_rank_test(c, 3, d, 3, &lo, &hi);
	CHECK_NEAR(lo, 1.0 / 20, 1e-12);
	CHECK_NEAR(hi, 1.0, 1e-12);
	CHECK_NEAR(an_rank_test_p(c, 3, d, 3), 0.1, 1e-12);
	/* One run a side: half the splits lie either way. */
	an_rank_test(c, 1, d, 1, &lo, &hi);
	CHECK_NEAR(lo, 0.5, 1e-12);
	CHECK_NEAR(an_rank_test_p(c, 1, d, 1), 1.0, 1e-12);
	/* All tied: no evidence. */
	CHECK_NEAR(an_rank_test_p(c, 3, c, 2), 1.0, 1e-12);
	CHECK_INT(an_rank_test(c, 0, d, 3, &lo, &hi), -1);
	CHECK(isnan(lo) && isnan(hi));
}

TEST(stats_rank_test_no_ties_is_pwilcox)
{
	/* W = 1 + 2 + 4 = 7, U = W - 6 = 1: pwilcox(1, 3, 4) = 2/35. */
	static const double x[] = { 1.1, 2.3, 4.0 }, y[] = { 3.7, 5.5, 6.1, 7.0 };
	double lo, hi;

	an_rank_test(x, 3, y, 4, &lo, &hi);
	CHECK_NEAR(lo, 2.0 / 35, 1e-12);
	CHECK_NEAR(hi, 1 - 1.0 / 35, 1e-12);
}

TEST(stats_rank_test_normal_beyond_exact)
{
	double x[60], y[60], lo, hi;
	size_t i;

	/* 60 a side: 1..60 against 31.5..90.5, approximated.  x's ranks are
	 * 1..30 and then every other one of 31..89: W = 465 + 1800 = 2265
	 * against mu = 60 * 121 / 2 = 3630, sigma = sqrt(60 * 60 / 12 * 121);
	 * p_less = pnorm((2265 - 3630 + 0.5) / sigma) = 3.982166e-13
	 * (python3 math.erfc). */
	for (i = 0; i < 60; i++) {
		x[i] = (double)(i + 1);
		y[i] = (double)(i + 31) + 0.5;
	}
	CHECK_INT(an_rank_test(x, 60, y, 60, &lo, &hi), 0);
	CHECK_NEAR(lo / 3.982166335235247e-13, 1.0, 1e-6);
	CHECK(hi > 1 - 1e-12);
	for (i = 0; i < 60; i++)
		x[i] = y[i] = 2;
	an_rank_test(x, 60, y, 60, &lo, &hi);
	CHECK_NEAR(lo, 1.0, 1e-12);
	CHECK_NEAR(hi, 1.0, 1e-12);
}

/* Throughput cells: the harmonic mean, as mmtests' Hmean.  Hand
 * computations: 1, 2, 4 -> 3 / (1 + 1/2 + 1/4) = 12/7; reciprocals' mean
 * 7/12, sample sd 0.3818813079, t(0.975, 2) = 4.302652730, so
 * h = 4.302652730 * 0.3818813079 / sqrt(3) = 0.9486461 > 7/12: the
 * interval is [1 / (7/12 + h), +inf) = [0.6527504229, inf). */
TEST(stats_hmean_known)
{
	struct an_desc d;
	double x[] = { 1, 2, NAN, 4 };

	CHECK_NEAR(an_hmean(x, 4), 12.0 / 7, 1e-12);
	an_describe_dir(x, 4, AN_DIR_HIGHER, &d);
	CHECK_INT(d.n, 3);
	CHECK(d.flags & AN_F_HMEAN);
	CHECK(!(d.flags & AN_F_HMEAN_NONPOS));
	CHECK_NEAR(d.mean, 12.0 / 7, 1e-12);
	/* sd stays the sample sd of the values, cv is against the mean shown */
	CHECK_NEAR(d.sd, 1.5275252317, 1e-9);
	CHECK_NEAR(d.cv, 1.5275252317 / (12.0 / 7) * 100, 1e-9);
	CHECK_NEAR(d.median, 2, 1e-12);
	CHECK_NEAR(d.ci_low, 0.6527504229, 1e-9);
	CHECK(isinf(d.ci_high) && d.ci_high > 0);
	/* lower-is-better and no direction: the arithmetic mean as before */
	an_describe_dir(x, 4, AN_DIR_LOWER, &d);
	CHECK_NEAR(d.mean, 7.0 / 3, 1e-12);
	CHECK(!(d.flags & (AN_F_HMEAN | AN_F_HMEAN_NONPOS)));
	an_describe_dir(x, 4, AN_DIR_NONE, &d);
	CHECK_NEAR(d.mean, 7.0 / 3, 1e-12);
	CHECK(!(d.flags & (AN_F_HMEAN | AN_F_HMEAN_NONPOS)));
}

/* 100, 110, 120, 105: H = 4 / sum(1/x) = 108.2601054482; reciprocals'
 * mean 0.009237012987, sd 0.0007076686372, t(0.975, 3) = 3.182446305:
 * h = 3.182446305 * 0.0007076686372 / 2 = 0.001126053, interval
 * [1 / (ybar + h), 1 / (ybar - h)] = [96.49648562, 123.2900553]. */
TEST(stats_hmean_ci)
{
	struct an_desc d;
	double x[] = { 100, 110, 120, 105 };

	an_describe_dir(x, 4, AN_DIR_HIGHER, &d);
	CHECK_NEAR(d.mean, 108.2601054482, 1e-10);
	CHECK_NEAR(d.sd, 8.5391256383, 1e-9);
	CHECK_NEAR(d.ci_low, 96.49648562, 1e-8);
	CHECK_NEAR(d.ci_high, 123.2900553, 1e-8);
	CHECK(d.ci_low < d.mean && d.mean < d.ci_high);
	/* not symmetric about H, as the reciprocal of a symmetric one */
	CHECK(d.ci_high - d.mean > d.mean - d.ci_low);
	CHECK(d.flags & AN_F_NOISY);	/* cv 7.89% */
}

TEST(stats_hmean_constant_and_one)
{
	struct an_desc d;
	double x[] = { 0.3, 0.3, 0.3 }, one[] = { 7.25 };

	/* exactly the value, not 1 / (1 / 0.3) rounded: ZERO_VAR still holds */
	an_describe_dir(x, 3, AN_DIR_HIGHER, &d);
	CHECK(d.mean == 0.3);
	CHECK(d.sd == 0);
	CHECK(d.ci_low == 0.3 && d.ci_high == 0.3);
	CHECK(d.flags & AN_F_HMEAN);
	an_describe_dir(one, 1, AN_DIR_HIGHER, &d);
	CHECK(d.mean == 7.25);
	CHECK(isnan(d.ci_low) && isnan(d.ci_high) && isnan(d.sd));
	CHECK(d.flags & AN_F_HMEAN);
}

/* A value <= 0 has no harmonic mean: arithmetic, and a flag says why. */
TEST(stats_hmean_nonpositive_fallback)
{
	struct an_desc d;
	double zero[] = { 0, 2, 4 }, neg[] = { 3, -1, 4 };

	CHECK(isnan(an_hmean(zero, 3)));
	CHECK(isnan(an_hmean(neg, 3)));
	CHECK(isnan(an_hmean(NULL, 0)));
	an_describe_dir(zero, 3, AN_DIR_HIGHER, &d);
	CHECK_NEAR(d.mean, 2, 1e-12);
	CHECK(d.flags & AN_F_HMEAN_NONPOS);
	CHECK(!(d.flags & AN_F_HMEAN));
	/* the Student-t interval of the arithmetic mean */
	CHECK_NEAR(d.ci_low, 2 - 4.302652730 * 2 / sqrt(3), 1e-8);
	an_describe_dir(neg, 3, AN_DIR_HIGHER, &d);
	CHECK_NEAR(d.mean, 2, 1e-12);
	CHECK(d.flags & AN_F_HMEAN_NONPOS);
	/* no values: nothing to say */
	an_describe_dir(NULL, 0, AN_DIR_HIGHER, &d);
	CHECK(!(d.flags & (AN_F_HMEAN | AN_F_HMEAN_NONPOS)));
}

/* The change of a throughput row is between the harmonic means:
 * 2, 2, 2 -> 1, 2, 4 is (12/7 - 2) / 2 = -14.29%, where the arithmetic
 * means would say +16.67%. */
TEST(stats_hmean_change)
{
	struct an_side b, c;
	struct an_opts o = opts(AN_DIR_HIGHER, AN_CONV_RAW);
	struct an_change chg;
	double xb[] = { 2, 2.02, 1.98 }, xc[] = { 1, 2, 4 };

	an_side_samples_dir(&b, xb, 3, AN_DIR_HIGHER);
	an_side_samples_dir(&c, xc, 3, AN_DIR_HIGHER);
	CHECK_NEAR(b.d.mean, 3 / (1 / 2.0 + 1 / 2.02 + 1 / 1.98), 1e-12);
	an_compare(&b, &c, &o, &chg);
	CHECK_NEAR(chg.raw, (12.0 / 7 - b.d.mean) / b.d.mean * 100, 1e-9);
	CHECK(chg.ci_method == AN_CI_LOG_WELCH);
	CHECK(chg.flags & AN_F_HMEAN);
	/* the test is Welch on logs as before: the same p either way */
	{
		struct an_side ba, ca;
		struct an_change ga;

		an_side_samples(&ba, xb, 3);
		an_side_samples(&ca, xc, 3);
		an_compare(&ba, &ca, &o, &ga);
		CHECK_NEAR(ga.raw, (7.0 / 3 - 2) / 2 * 100, 1e-9);
		CHECK_NEAR(chg.p, ga.p, 1e-12);
		CHECK_NEAR(chg.raw_low, ga.raw_low, 1e-12);
	}
}
