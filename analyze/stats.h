/*
 * stats.h - the statistics behind every comparison kbench prints.
 *
 * Pure functions over plain structs: no SQL, no printing, no mutable
 * globals.  Distributions come from Rmath (qt, pt, pwilcox, pnorm).
 *
 * A comparison is built in three steps:
 *
 *   struct an_side base, cand;
 *   an_side_samples(&base, xs, nxs);           raw values, NaN = missing
 *   an_side_summary(&cand, mean, sd, n, min, max);   or a published summary
 *   an_compare(&base, &cand, &opts, &chg);     change, CI, p, verdict
 *
 * and, when a table holds many comparisons, an_bh_changes() replaces each
 * p by its Benjamini-Hochberg q and decides the verdicts again.
 *
 * Percentages are percent (1.0 means 1%), never fractions.  Unknown
 * numbers are NaN; unknown counts are 0.
 */
#ifndef KB_AN_STATS_H
#define KB_AN_STATS_H

#include <stddef.h>

/* Which way a metric improves; taken from the metric catalogue. */
enum an_direction {
	AN_DIR_NONE = 0,	/* neither: a change is just a change */
	AN_DIR_LOWER,		/* times, latencies */
	AN_DIR_HIGHER		/* throughput */
};

/* How a change is expressed (all in percent):
 *   RAW     (new - base) / base
 *   SPEED   base / new - 1 for lower-is-better metrics, else RAW
 *           (the "%Change" of the autonuma mails: 32.59 -> 53.43 = -39.00%)
 *   BETTER  RAW with the sign flipped for lower-is-better metrics, so that
 *           a positive number always means an improvement. */
enum an_convention {
	AN_CONV_RAW = 0,
	AN_CONV_SPEED,
	AN_CONV_BETTER
};

/* Which test gives the p-value. */
enum an_test {
	AN_TEST_WELCH = 0,	/* Welch's t on log values (see an_compare) */
	AN_TEST_MWU		/* Mann-Whitney U; needs raw samples on both sides */
};

enum an_verdict {
	AN_VERDICT_NONE = 0,	/* nothing to compare (a side has no mean) */
	AN_VERDICT_SAME,	/* the whole CI lies inside +-delta */
	AN_VERDICT_BETTER,	/* significant and at least delta, good way */
	AN_VERDICT_WORSE,	/* significant and at least delta, bad way */
	AN_VERDICT_CHANGED,	/* significant and at least delta, no direction */
	AN_VERDICT_INCONCLUSIVE	/* none of the above: more runs needed */
};

/* How the interval of the change was computed. */
enum an_ci_method {
	AN_CI_NONE = 0,		/* no interval: n < 2 or sd unknown */
	AN_CI_LOG_WELCH,	/* Welch on log values, back-transformed */
	AN_CI_RAW_DELTA		/* Welch on raw values, ratio by delta method */
};

/* Per-cell and per-comparison flags (bits of .flags). */
#define AN_F_NOISY		0x001u	/* CV > 5% */
#define AN_F_VERY_NOISY		0x002u	/* CV > 15% */
#define AN_F_OUTLIERS		0x004u	/* Grubbs test, see an_outliers() (never dropped) */
#define AN_F_BIMODAL		0x008u	/* two clusters, see an_bimodal() */
#define AN_F_SUMMARY_ONLY	0x010u	/* only a published summary, no samples */
#define AN_F_SD_ESTIMATED	0x020u	/* sd = range / d2(n), not published */
#define AN_F_TOO_FEW		0x040u	/* n too small for any p to pass alpha */
#define AN_F_ZERO_VAR		0x080u	/* both sides constant: no t-test */
#define AN_F_TIES		0x100u	/* MWU had ties: normal approximation */
#define AN_F_HMEAN		0x200u	/* mean is the harmonic mean (throughput) */
#define AN_F_HMEAN_NONPOS	0x400u	/* throughput, but a value <= 0: the
					 * mean stays arithmetic */

#define AN_CV_NOISY		5.0
#define AN_CV_VERY_NOISY	15.0

/* Level of the outlier test, per cell (see an_outliers()). */
#define AN_OUTLIER_ALPHA	0.04

/* Description of one cell (one variant x benchmark x config x metric). */
struct an_desc {
	size_t n;		/* values present (NaN excluded), or published n */
	double mean;		/* arithmetic, or harmonic (AN_F_HMEAN, see
				 * an_describe_dir()), or as published */
	double sd;		/* sample sd (n - 1); NaN when n < 2 or unknown
				 * (a summary keeps the published sd) */
	double median;		/* NaN for summaries */
	double min, max;
	double cv;		/* sd / |mean| * 100; NaN when undefined */
	double ci_low, ci_high;	/* 95% CI of the mean (Student t; for a
				 * harmonic mean see an_describe_dir()) */
	size_t outliers;	/* count of values an_outliers() finds */
	unsigned flags;		/* AN_F_* */
};

/* One side of a comparison: raw samples, or only a summary.  The side
 * borrows x; it must stay valid until an_compare() returns. */
struct an_side {
	const double *x;	/* raw values (NaN = missing); NULL for summaries */
	size_t nx;		/* length of x, NaN entries included */
	struct an_desc d;
};

struct an_opts {
	enum an_direction dir;
	enum an_convention conv;
	enum an_test test;
	double alpha;		/* significance level for q; default 0.05 */
	double delta;		/* smallest change that matters, percent; default 1 */
	double level;		/* confidence of intervals; default 0.95 */
};

/* Result of comparing a candidate ("new") with a baseline. */
struct an_change {
	double raw;		/* (new - base) / base * 100 of the means */
	double change;		/* raw in opts.conv */
	double raw_low, raw_high;	/* interval of raw; NaN when none */
	double ci_low, ci_high;	/* the same interval in opts.conv, low <= high */
	enum an_ci_method ci_method;
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p of opts.test (or of Welch when MWU
				 * was impossible); NaN when undefined */
	enum an_test test;	/* the test that gave p */
	double p_min;		/* smallest p the test could give with these n */
	double q;		/* BH q; equals p until an_bh_changes() runs */
	double cv;		/* larger CV of the two sides, percent */
	enum an_verdict verdict;
	double runs_needed;	/* per side, when INCONCLUSIVE; else NaN */
	unsigned flags;		/* AN_F_*: both sides' flags OR'ed, plus
				 * TOO_FEW / ZERO_VAR / TIES */
};

/* Default options: direction none, raw convention, Welch, alpha 0.05,
 * delta 1%, level 0.95. */
void an_opts_init(struct an_opts *o);

/* Describe x[0..n) ignoring NaN entries.  With no values everything is NaN
 * (n = 0); with one value sd, cv and the CI are NaN.  Sets the NOISY,
 * VERY_NOISY, OUTLIERS and BIMODAL flags.  Never fails. */
void an_describe(const double *x, size_t n, struct an_desc *d);

/* an_describe() for a metric whose better direction is dir.  Throughput
 * (AN_DIR_HIGHER) is summarised as mmtests does (its Hmean): when every
 * present value is > 0 the mean is the harmonic mean n / sum(1 / x)
 * (exactly the value when all are equal) and AN_F_HMEAN is set; sd stays
 * the sample sd of the values, cv is sd / harmonic mean, and the 95% CI
 * is the Student-t interval of the mean of the reciprocals,
 * ybar +- t(n-1) s_y / sqrt(n) with y = 1 / x, inverted:
 *   [1 / (ybar + h), 1 / (ybar - h)]   (high = +inf when ybar - h <= 0).
 * A value <= 0 has no harmonic mean: the mean stays arithmetic and
 * AN_F_HMEAN_NONPOS says why.  Other directions: an_describe(). */
void an_describe_dir(const double *x, size_t n, enum an_direction dir, struct an_desc *d);

/* Harmonic mean of the present values of x[0..n): NaN when there are
 * none or one is <= 0.  Exact (the value) when all are equal. */
double an_hmean(const double *x, size_t n);

/* Describe a published summary.  Any of mean, sd, min, max may be NaN and
 * n may be 0.  When sd is unknown but min, max and 2 <= n <= 25 are known,
 * sd is estimated as (max - min) / d2(n) and AN_F_SD_ESTIMATED is set.
 * CV needs mean and sd; the CI needs n >= 2 as well.  Always sets
 * AN_F_SUMMARY_ONLY.  Never fails. */
void an_describe_summary(double mean, double sd, size_t n, double min,
			 double max, struct an_desc *d);

/* Fill a side from raw samples or from a summary (see above). */
void an_side_samples(struct an_side *s, const double *x, size_t n);
/* ... described by an_describe_dir(x, n, dir). */
void an_side_samples_dir(struct an_side *s, const double *x, size_t n, enum an_direction dir);
void an_side_summary(struct an_side *s, double mean, double sd, size_t n,
		     double min, double max);

/* d2(n), the expected range of n standard normal values, for
 * 2 <= n <= 25 (standard SPC table); NaN otherwise. */
double an_d2(size_t n);

/* Median of x[0..n) ignoring NaN; NaN when there are no values. */
double an_median(const double *x, size_t n);

/* Count outliers in x[0..n) (NaN ignored) by sequential Grubbs tests:
 * with m values left, mean xbar and sample sd s, the value farthest from
 * xbar is an outlier when G = |x - xbar| / s exceeds
 * an_grubbs_critical(m, AN_OUTLIER_ALPHA); it is then set aside and the
 * test repeated on the m - 1 others, until a test fails, fewer than 3
 * values remain or (n - 1) / 2 have been counted.  0 when n < 3 or every
 * value is equal.
 *
 * The cell is flagged when the first test fires, so on normal data the
 * flag fires on AN_OUTLIER_ALPHA of cells whatever n is: by simulation
 * (20,000 normal cells per n) 3.7-4.3% for n = 3..20; the unit tests
 * hold it at <= 5% on 5,000 cells per n.  The rule it replaces,
 * |modified z| > 3.5 (Iglewicz & Hoaglin's median/MAD score), flagged
 * 10-30% of normal cells of 3 to 20 values: the MAD of a handful of
 * values is itself too noisy.  A value 5 sd above the mean of n - 1
 * normal ones is found in 32% of cells of 5, 80% of 10 and 97% of 20;
 * Grubbs' statistic is the best invariant test of one outlier, so no
 * rule that keeps false alarms at 5% does much better at n = 5, and at
 * n = 3 hardly any sample is extreme enough
 * (mmtests' 5.389 5.397 5.439: G = 1.142, critical 1.154).  Two far
 * values can mask each other. */
size_t an_outliers(const double *x, size_t n);

/* Grubbs' two-sided critical value for m >= 3 values at level alpha:
 *   (m - 1) / sqrt(m) * sqrt(t^2 / (m - 2 + t^2)),
 * t the upper alpha / (2m) quantile of Student t on m - 2 df (Rmath qt).
 * On normal data the largest G exceeds it with probability at most alpha
 * (the alpha / m per value is a Bonferroni bound, close to exact here).
 * NaN when m < 3 or alpha is outside (0, 1). */
double an_grubbs_critical(size_t m, double alpha);

/* Bimodality detector for e.g. numa_test user times that split into
 * local and remote jobs.  Sort the values, take the split into a low and a
 * high cluster that minimises the within-cluster sum of squares (each
 * cluster >= 2 values), and call the sample bimodal when
 *   - there are at least 6 values,
 *   - Ashman's D = sqrt(2) |m1 - m2| / sqrt(s1^2 + s2^2) >= 5, and
 *   - the cluster means differ by at least 2% of the overall mean.
 * D >= 2, the textbook cut for fitted mixtures, is useless on a forced
 * split: the two halves of a normal sample already give D ~ 2.7.  By
 * simulation D >= 5 flags about 12% of normal samples of 6, 5% of 10 and
 * under 1% of 20, while finding 78% / 97% / 100% of even mixtures whose
 * means are 10 sd apart.  The 2% rule keeps quantised but nearly constant
 * timings from looking bimodal.  Returns 1 when bimodal (and sets *split
 * to the midpoint between the clusters if split is not NULL), else 0. */
int an_bimodal(const double *x, size_t n, double *split);

/* Compare cand with base under o and fill c.
 *
 * Change: raw = (mean_new - mean_base) / mean_base * 100, then o->conv.
 * The means are the sides' d.mean: harmonic for throughput samples
 * (an_side_samples_dir()), so raw is then the change of the harmonic
 * means, as mmtests' Hmean rows print it.  The interval below is centred
 * on the ratio of geometric means (the log scale); on positive data the
 * geometric mean lies between the harmonic and the arithmetic one, and
 * the ratios differ by about (cv_new^2 - cv_base^2) / 2 on the log
 * scale (0.001 at cv 5%), well inside the interval's half-width for the
 * cv and run counts of benchmarks, so raw and its interval agree
 * whichever mean a side reports.
 *
 * Interval and Welch p are computed on the log scale, so that the
 * interval of a ratio is a ratio interval:
 *   - both sides raw, all values > 0: Welch's t on ln(x) (a ratio of
 *     geometric means);
 *   - a raw side holding a value <= 0, or a mean <= 0: Welch on raw
 *     values and the ratio's interval by the delta method,
 *       se(r) = r * sqrt(se_new^2 / mean_new^2 + se_base^2 / mean_base^2),
 *     ci_method AN_CI_RAW_DELTA;
 *   - otherwise (a summary on either side, all means > 0): ln(mean) and
 *     sd / mean (delta method) for each side, used as the log-scale mean
 *     and sd.  Raw sides are treated the same way then, so both sides
 *     are centred alike.
 * df is Welch-Satterthwaite.  Either side with n < 2 (or n unknown, 0)
 * gives no interval and p = NaN (flag TOO_FEW); an unknown sd gives no
 * interval and p = NaN without a flag.  Both sides with sd = 0 give a
 * point interval at the change and p = NaN (flag ZERO_VAR).
 *
 * With o->test == AN_TEST_MWU and raw samples on both sides, p is the
 * two-sided Mann-Whitney U p-value: exact (pwilcox) when there are no
 * ties and both n < 50; with ties or larger n, the normal approximation
 * with tie-corrected variance and continuity correction (flag TIES when
 * ties forced it) -- the same choices as R's wilcox.test.  p_min is
 * 2 / choose(m + n, m) for MWU.  Without raw samples MWU falls back to
 * Welch and c->test says so.
 *
 * q is set to p, and the verdict decided by an_decide().  Never fails;
 * a side without a mean yields verdict NONE and NaN numbers. */
void an_compare(const struct an_side *base, const struct an_side *cand,
		const struct an_opts *o, struct an_change *c);

/* Decide c->verdict from c->q, c->raw, c->raw_low/high and c->cv (the
 * verdict never depends on the display convention):
 *   BETTER / WORSE (CHANGED when o->dir is NONE) when q < alpha and
 *     |raw| >= delta;
 *   SAME when the interval lies inside [-delta, +delta];
 *   INCONCLUSIVE otherwise, with runs_needed = an_runs_needed(cv, delta).
 * NONE when raw is NaN. */
void an_decide(struct an_change *c, const struct an_opts *o);

/* Runs per side needed to resolve a change of delta percent when the
 * noise is cv percent: ceil(16 (cv / delta)^2 + 2) -- Lehr's rule for
 * 80% power at alpha 0.05 plus two for the t quantile.  NaN when cv is
 * NaN or delta <= 0. */
double an_runs_needed(double cv, double delta);

/* Smallest p-value the test can produce with m and n values per side:
 * MWU 2 / choose(m + n, m) (capped at 1); Welch 0 when both m, n >= 2,
 * else NaN (no test at all). */
double an_p_min(enum an_test t, size_t m, size_t n);

/* Largest pooled count that an_rank_test() counts exactly. */
#define AN_RANK_EXACT_MAX 80

/* Wilcoxon-Mann-Whitney rank-sum test of x[0..nx) against y[0..ny)
 * (NaN skipped), ties allowed: W is the sum of x's midranks in the pooled
 * sample, and its null distribution is that of the rank sum of nx values
 * drawn from the pooled midranks -- every one of the choose(N, nx) ways of
 * splitting the pooled values into the two sides equally likely.  For
 * N <= AN_RANK_EXACT_MAX the splits are counted exactly, per (doubled,
 * hence integer) rank sum, so heavy ties (nodes used per run: 1 to 4) are
 * handled exactly rather than by a normal approximation; above that, the
 * normal approximation with tie-corrected variance and continuity
 * correction.  Sets *p_less = P(W <= w), *p_greater = P(W >= w) for the
 * observed w (small p_less: x tends lower).  Returns 1 exact, 0
 * approximated, or -1 with both NaN when a side has no value.  Never
 * fails otherwise (out of memory aborts). */
int an_rank_test(const double *x, size_t nx, const double *y, size_t ny,
		 double *p_less, double *p_greater);

/* Two-sided p of an_rank_test(): min(1, 2 min(p_less, p_greater)); NaN
 * when a side has no value. */
double an_rank_test_p(const double *x, size_t nx, const double *y, size_t ny);

/* Benjamini-Hochberg q-values (step-up, monotone, capped at 1) of
 * p[0..m) into q[0..m); q may alias p.  NaN p gives NaN q and does not
 * count in m. */
void an_bh(const double *p, size_t m, double *q);

/* an_bh over c[i].p, storing c[i].q, then an_decide() for each. */
void an_bh_changes(struct an_change *c, size_t m, const struct an_opts *o);

/* Convert a raw percent change to convention conv for direction dir. */
double an_convert(double raw, enum an_direction dir, enum an_convention conv);

/* Lower-case names: "same", "better", "worse", "changed",
 * "inconclusive", "none".  Static strings. */
const char *an_verdict_name(enum an_verdict v);

#endif
