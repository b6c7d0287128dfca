/*
 * stats.c - descriptive statistics, Welch / Mann-Whitney comparisons,
 * Benjamini-Hochberg q-values and verdicts.  See stats.h for contracts.
 */
#include "stats.h"
#include "../core/util.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* d2(n) for n = 2..25: E[range] of n standard normal values. */
static const double d2_table[] = {
	1.128, 1.693, 2.059, 2.326, 2.534, 2.704, 2.847, 2.970, 3.078,
	3.173, 3.258, 3.336, 3.407, 3.472, 3.532, 3.588, 3.640, 3.689,
	3.735, 3.778, 3.819, 3.858, 3.895, 3.931,
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Copy the non-NaN values of x[0..n) into a new array, sorted ascending.
 * *out_n gets their count; the caller frees the result. */
static double *present_sorted(const double *x, size_t n, size_t *out_n)
{
	double *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			v[k++] = x[i];
	qsort(v, k, sizeof(*v), cmp_double);
	*out_n = k;
	return v;
}

static double sorted_median(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Mean and sample sd of v[0..n); sd NaN when n < 2. */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	size_t i;

	*mean = *sd = NAN;
	if (n == 0)
		return;
	for (i = 1; i < n && v[i] == v[0]; i++)
		;
	if (i == n) {
		/* constant: exact, so that ZERO_VAR is not lost to rounding */
		*mean = v[0];
		*sd = n < 2 ? NAN : 0;
		return;
	}
	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(ss / (n - 1));
}

static double t_quantile(double level, double df)
{
	return qt(1 - (1 - level) / 2, df, 1, 0);
}

/* CV, 95% CI and the CV flags, from n, mean and sd already in d. */
static void finish_desc(struct an_desc *d)
{
	d->cv = NAN;
	d->ci_low = d->ci_high = NAN;
	if (!isnan(d->sd) && !isnan(d->mean) && d->mean != 0)
		d->cv = d->sd / fabs(d->mean) * 100;
	if (d->n >= 2 && !isnan(d->sd) && !isnan(d->mean)) {
		double h = t_quantile(0.95, d->n - 1) * d->sd / sqrt(d->n);

		d->ci_low = d->mean - h;
		d->ci_high = d->mean + h;
	}
	if (d->cv > AN_CV_NOISY)
		d->flags |= AN_F_NOISY;
	if (d->cv > AN_CV_VERY_NOISY)
		d->flags |= AN_F_VERY_NOISY;
}

void an_opts_init(struct an_opts *o)
{
	o->dir = AN_DIR_NONE;
	o->conv = AN_CONV_RAW;
	o->test = AN_TEST_WELCH;
	o->alpha = 0.05;
	o->delta = 1.0;
	o->level = 0.95;
}

double an_d2(size_t n)
{
	if (n < 2 || n - 2 >= ARRAY_SIZE(d2_table))
		return NAN;
	return d2_table[n - 2];
}

double an_median(const double *x, size_t n)
{
	size_t k;
	double *v = present_sorted(x, n, &k);
	double m = sorted_median(v, k);

	free(v);
	return m;
}

double an_grubbs_critical(size_t m, double alpha)
{
	double t;

	if (m < 3 || !(alpha > 0 && alpha < 1))
		return NAN;
	/* upper alpha / (2m) point of Student t on m - 2 df */
	t = qt(alpha / (2.0 * m), m - 2.0, 0, 0);
	return (m - 1) / sqrt((double)m) * sqrt(t * t / (m - 2 + t * t));
}

/* Outlier count on sorted, NaN-free v[0..n): sequential Grubbs, see
 * an_outliers().  The value farthest from the mean is always at an end
 * of the sorted window, so a step removes v[lo] or v[hi - 1]. */
static size_t sorted_outliers(const double *v, size_t n)
{
	size_t lo = 0, hi = n, count = 0;

	while (hi - lo >= 3 && count < (n - 1) / 2) {
		size_t m = hi - lo;
		double mean, sd, dl, dh, g;

		mean_sd(v + lo, m, &mean, &sd);
		if (!(sd > 0))
			break;
		dl = mean - v[lo];
		dh = v[hi - 1] - mean;
		g = fmax(dl, dh) / sd;
		if (!(g > an_grubbs_critical(m, AN_OUTLIER_ALPHA)))
			break;
		count++;
		if (dh >= dl)
			hi--;
		else
			lo++;
	}
	return count;
}

size_t an_outliers(const double *x, size_t n)
{
	size_t k, count;
	double *v = present_sorted(x, n, &k);

	count = sorted_outliers(v, k);
	free(v);
	return count;
}

/* Bimodality on sorted, NaN-free v[0..n); see an_bimodal(). */
static int sorted_bimodal(const double *v, size_t n, double *split)
{
	double total = 0, best_w = INFINITY, mean_all, sum = 0, sq = 0, all_sum = 0, all_sq = 0;
	size_t i, k, best_k = 0;
	double m1, s1, m2, s2, dd;

	if (n < 6)
		return 0;
	for (i = 0; i < n; i++)
		total += v[i];
	mean_all = total / n;
	/* Two-means in one dimension: the optimal clusters are contiguous in
	 * sorted order, so trying every cut is exhaustive.  Running sums of
	 * the centred values give each cut's within-cluster sum of squares
	 * (sum x^2 - (sum x)^2 / k on each side) in O(n), so a cell with
	 * thousands of per-job values costs no more than a sort. */
	for (i = 0; i < n; i++) {
		double x = v[i] - mean_all;
		all_sum += x;
		all_sq += x * x;
	}
	for (k = 1; k + 2 <= n; k++) {
		double x = v[k - 1] - mean_all, w, left, right;

		sum += x;
		sq += x * x;
		if (k < 2)
			continue;
		left = sq - sum * sum / (double)k;
		right = (all_sq - sq) - (all_sum - sum) * (all_sum - sum) / (double)(n - k);
		w = (left > 0 ? left : 0) + (right > 0 ? right : 0);
		if (w < best_w) {
			best_w = w;
			best_k = k;
		}
	}
	if (best_k == 0)
		return 0;
	mean_sd(v, best_k, &m1, &s1);
	mean_sd(v + best_k, n - best_k, &m2, &s2);
	if (!(fabs(m2 - m1) >= 0.02 * fabs(mean_all)) || m2 == m1)
		return 0;
	dd = s1 * s1 + s2 * s2;
	dd = dd > 0 ? sqrt(2.0) * fabs(m2 - m1) / sqrt(dd) : INFINITY;
	if (!(dd >= 5))
		return 0;
	if (split)
		*split = (v[best_k - 1] + v[best_k]) / 2;
	return 1;
}

int an_bimodal(const double *x, size_t n, double *split)
{
	size_t k;
	double *v = present_sorted(x, n, &k);
	int r = sorted_bimodal(v, k, split);

	free(v);
	return r;
}

/* Harmonic mean of sorted, NaN-free v[0..n) with v[0] > 0; *ymean and
 * *ysd get the mean and sample sd of the reciprocals (ysd NaN when
 * n < 2).  All equal: the value itself, not 1 / (1 / v) rounded. */
static double sorted_hmean(const double *v, size_t n, double *ymean, double *ysd)
{
	double *y = xmalloc((n ? n : 1) * sizeof(*y));
	size_t i;

	/* descending reciprocals: sorted, so mean_sd() sees constants */
	for (i = 0; i < n; i++)
		y[i] = 1 / v[n - 1 - i];
	mean_sd(y, n, ymean, ysd);
	free(y);
	if (n && v[0] == v[n - 1])
		return v[0];
	return 1 / *ymean;
}

double an_hmean(const double *x, size_t n)
{
	size_t k;
	double *v = present_sorted(x, n, &k);
	double h = NAN, ym, ys;

	if (k && v[0] > 0)
		h = sorted_hmean(v, k, &ym, &ys);
	free(v);
	return h;
}

/* The harmonic mean, its CI and cv in d (n, sd, min already set) from
 * sorted, NaN-free v[0..n) with v[0] > 0; see an_describe_dir(). */
static void harmonic_desc(const double *v, size_t n, struct an_desc *d)
{
	double ym, ys;

	d->mean = sorted_hmean(v, n, &ym, &ys);
	d->flags &= ~(AN_F_NOISY | AN_F_VERY_NOISY);
	finish_desc(d);		/* cv against the harmonic mean */
	d->flags |= AN_F_HMEAN;
	d->ci_low = d->ci_high = NAN;
	if (n >= 2 && !isnan(ys)) {
		double h = t_quantile(0.95, n - 1) * ys / sqrt(n);

		if (h == 0) {
			d->ci_low = d->ci_high = d->mean;
		} else {
			d->ci_low = 1 / (ym + h);
			d->ci_high = ym - h > 0 ? 1 / (ym - h) : INFINITY;
		}
	}
}

static void describe(const double *x, size_t n, enum an_direction dir, struct an_desc *d)
{
	size_t k;
	double *v = present_sorted(x, n, &k);

	memset(d, 0, sizeof(*d));
	d->n = k;
	mean_sd(v, k, &d->mean, &d->sd);
	d->median = sorted_median(v, k);
	d->min = k ? v[0] : NAN;
	d->max = k ? v[k - 1] : NAN;
	finish_desc(d);
	if (dir == AN_DIR_HIGHER && k) {
		if (v[0] > 0)
			harmonic_desc(v, k, d);
		else
			d->flags |= AN_F_HMEAN_NONPOS;
	}
	d->outliers = sorted_outliers(v, k);
	if (d->outliers)
		d->flags |= AN_F_OUTLIERS;
	if (sorted_bimodal(v, k, NULL))
		d->flags |= AN_F_BIMODAL;
	free(v);
}

void an_describe(const double *x, size_t n, struct an_desc *d)
{
	describe(x, n, AN_DIR_NONE, d);
}

void an_describe_dir(const double *x, size_t n, enum an_direction dir, struct an_desc *d)
{
	describe(x, n, dir, d);
}

void an_describe_summary(double mean, double sd, size_t n, double min,
			 double max, struct an_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->n = n;
	d->mean = mean;
	d->sd = sd >= 0 ? sd : NAN;
	d->median = NAN;
	d->min = min;
	d->max = max;
	d->flags = AN_F_SUMMARY_ONLY;
	if (isnan(d->sd) && !isnan(an_d2(n)) && isfinite(min) &&
	    isfinite(max) && max >= min) {
		d->sd = (max - min) / an_d2(n);
		d->flags |= AN_F_SD_ESTIMATED;
	}
	finish_desc(d);
}

void an_side_samples(struct an_side *s, const double *x, size_t n)
{
	s->x = x;
	s->nx = n;
	an_describe(x, n, &s->d);
}

void an_side_samples_dir(struct an_side *s, const double *x, size_t n, enum an_direction dir)
{
	s->x = x;
	s->nx = n;
	an_describe_dir(x, n, dir, &s->d);
}

void an_side_summary(struct an_side *s, double mean, double sd, size_t n,
		     double min, double max)
{
	s->x = NULL;
	s->nx = 0;
	an_describe_summary(mean, sd, n, min, max, &s->d);
}

double an_convert(double raw, enum an_direction dir, enum an_convention conv)
{
	if (dir != AN_DIR_LOWER || conv == AN_CONV_RAW)
		return raw;
	if (conv == AN_CONV_BETTER)
		return -raw;
	/* SPEED: base/new - 1 = 1 / (1 + raw) - 1; a ratio <= 0 has no
	 * finite speed, it is an unbounded one. */
	if (!(1 + raw / 100 > 0))
		return isnan(raw) ? NAN : INFINITY;
	return (1 / (1 + raw / 100) - 1) * 100;
}

double an_runs_needed(double cv, double delta)
{
	if (isnan(cv) || !(delta > 0))
		return NAN;
	return ceil(16 * (cv / delta) * (cv / delta) + 2);
}

double an_p_min(enum an_test t, size_t m, size_t n)
{
	double c;

	if (t == AN_TEST_MWU) {
		if (m == 0 || n == 0)
			return NAN;
		c = 2 / choose((double)(m + n), (double)m);
		return c < 1 ? c : 1;
	}
	return m >= 2 && n >= 2 ? 0 : NAN;
}

/* Does the raw side s hold a value <= 0? */
static int has_nonpositive(const struct an_side *s)
{
	size_t i;

	for (i = 0; s->x && i < s->nx; i++)
		if (s->x[i] <= 0)
			return 1;
	return 0;
}

/* Mean and sd of ln(x) over the present values of a raw side. */
static void log_moments(const struct an_side *s, double *m, double *sd)
{
	size_t i, k = 0;
	double *v = xmalloc((s->nx ? s->nx : 1) * sizeof(*v));

	for (i = 0; i < s->nx; i++)
		if (!isnan(s->x[i]))
			v[k++] = log(s->x[i]);
	mean_sd(v, k, m, sd);
	free(v);
}

struct rank_item {
	double v;
	int from_base;
};

static int cmp_rank_item(const void *a, const void *b)
{
	return cmp_double(&((const struct rank_item *)a)->v,
			  &((const struct rank_item *)b)->v);
}

/* Two-sided Mann-Whitney p for raw sides with m, n present values each
 * (both >= 1).  Sets AN_F_TIES in *flags when ties forced the normal
 * approximation. */
static double mwu_p(const struct an_side *b, const struct an_side *c,
		    size_t m, size_t n, unsigned *flags)
{
	size_t N = m + n, i, j, k = 0;
	struct rank_item *it = xmalloc(N * sizeof(*it));
	double rank_sum = 0, tie_sum = 0, u, z, sigma, p;

	for (i = 0; i < b->nx; i++)
		if (!isnan(b->x[i]))
			it[k++] = (struct rank_item){ b->x[i], 1 };
	for (i = 0; i < c->nx; i++)
		if (!isnan(c->x[i]))
			it[k++] = (struct rank_item){ c->x[i], 0 };
	qsort(it, N, sizeof(*it), cmp_rank_item);
	for (i = 0; i < N; i = j) {
		double mid, t;

		for (j = i + 1; j < N && it[j].v == it[i].v; j++)
			;
		mid = (i + 1 + j) / 2.0;	/* mean of ranks i+1 .. j */
		t = j - i;
		tie_sum += t * t * t - t;
		for (k = i; k < j; k++)
			if (it[k].from_base)
				rank_sum += mid;
	}
	free(it);
	/* U of the baseline: its rank sum minus the smallest possible. */
	u = rank_sum - m * (m + 1) / 2.0;
	if (tie_sum == 0 && m < 50 && n < 50) {
		if (u > m * n / 2.0)
			p = pwilcox(u - 1, m, n, 0, 0);
		else
			p = pwilcox(u, m, n, 1, 0);
		p *= 2;
		return p < 1 ? p : 1;
	}
	if (tie_sum > 0)
		*flags |= AN_F_TIES;
	z = u - m * n / 2.0;
	sigma = sqrt(m * n / 12.0 *
		     ((N + 1) - tie_sum / ((double)N * (N - 1))));
	if (!(sigma > 0))
		return 1;	/* every value equal: no evidence at all */
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sigma;
	p = 2 * fmin(pnorm(z, 0, 1, 1, 0), pnorm(z, 0, 1, 0, 0));
	return p < 1 ? p : 1;
}

/* Scale on which the interval and the Welch p are computed. */
enum scale {
	SCALE_LOG_SAMPLES,	/* ln of every value */
	SCALE_LOG_SUMMARY,	/* ln(mean), sd / mean */
	SCALE_RAW		/* raw values, delta-method ratio */
};

void an_compare(const struct an_side *base, const struct an_side *cand,
		const struct an_opts *o, struct an_change *c)
{
	const struct an_desc *db = &base->d, *dn = &cand->d;
	enum scale scale;
	double mb, sb, mn, sn, vb, vn, se;

	memset(c, 0, sizeof(*c));
	c->raw = c->change = NAN;
	c->raw_low = c->raw_high = c->ci_low = c->ci_high = NAN;
	c->df = c->p = c->q = c->runs_needed = NAN;
	c->ci_method = AN_CI_NONE;
	c->test = AN_TEST_WELCH;
	c->flags = db->flags | dn->flags;
	c->cv = fmax(db->cv, dn->cv);
	c->p_min = an_p_min(AN_TEST_WELCH, db->n, dn->n);

	if (isnan(db->mean) || isnan(dn->mean) || db->mean == 0) {
		an_decide(c, o);
		return;
	}
	c->raw = (dn->mean - db->mean) / db->mean * 100;
	c->change = an_convert(c->raw, o->dir, o->conv);

	if (base->x && cand->x && !has_nonpositive(base) &&
	    !has_nonpositive(cand))
		scale = SCALE_LOG_SAMPLES;
	else if (has_nonpositive(base) || has_nonpositive(cand) ||
		 !(db->mean > 0) || !(dn->mean > 0))
		scale = SCALE_RAW;
	else
		scale = SCALE_LOG_SUMMARY;

	switch (scale) {
	case SCALE_LOG_SAMPLES:
		log_moments(base, &mb, &sb);
		log_moments(cand, &mn, &sn);
		break;
	case SCALE_LOG_SUMMARY:
		mb = log(db->mean);
		sb = db->sd / db->mean;
		mn = log(dn->mean);
		sn = dn->sd / dn->mean;
		break;
	default:
		mb = db->mean;
		sb = db->sd;
		mn = dn->mean;
		sn = dn->sd;
		break;
	}

	if (db->n < 2 || dn->n < 2) {
		c->flags |= AN_F_TOO_FEW;
	} else if (!isnan(sb) && !isnan(sn)) {
		vb = sb * sb / db->n;
		vn = sn * sn / dn->n;
		se = sqrt(vb + vn);
		c->ci_method = scale == SCALE_RAW ? AN_CI_RAW_DELTA
						  : AN_CI_LOG_WELCH;
		if (se == 0) {
			c->flags |= AN_F_ZERO_VAR;
			c->raw_low = c->raw_high = c->raw;
		} else {
			double t, h;

			c->df = (vb + vn) * (vb + vn) /
				(vb * vb / (db->n - 1) + vn * vn / (dn->n - 1));
			t = (mn - mb) / se;
			c->p = 2 * pt(-fabs(t), c->df, 1, 0);
			h = t_quantile(o->level, c->df);
			if (scale == SCALE_RAW) {
				/* r = N / B; Var r ~ Var N / B^2 + N^2 Var B / B^4 */
				double r = mn / mb;
				double se_r = sqrt(vn / (mb * mb) +
						   mn * mn * vb / (mb * mb * mb * mb));

				c->raw_low = (r - 1 - h * se_r) * 100;
				c->raw_high = (r - 1 + h * se_r) * 100;
			} else {
				c->raw_low = (exp(mn - mb - h * se) - 1) * 100;
				c->raw_high = (exp(mn - mb + h * se) - 1) * 100;
			}
		}
	}

	if (o->test == AN_TEST_MWU && base->x && cand->x) {
		c->test = AN_TEST_MWU;
		c->p_min = an_p_min(AN_TEST_MWU, db->n, dn->n);
		c->p = db->n && dn->n ?
			mwu_p(base, cand, db->n, dn->n, &c->flags) : NAN;
		if (!(c->p_min < o->alpha))
			c->flags |= AN_F_TOO_FEW;
		else
			c->flags &= ~AN_F_TOO_FEW;
	}

	if (!isnan(c->raw_low)) {
		double lo = an_convert(c->raw_low, o->dir, o->conv);
		double hi = an_convert(c->raw_high, o->dir, o->conv);

		c->ci_low = fmin(lo, hi);
		c->ci_high = fmax(lo, hi);
	}
	c->q = c->p;
	an_decide(c, o);
}

void an_decide(struct an_change *c, const struct an_opts *o)
{
	c->runs_needed = NAN;
	if (isnan(c->raw)) {
		c->verdict = AN_VERDICT_NONE;
		return;
	}
	if (c->q < o->alpha && fabs(c->raw) >= o->delta) {
		if (o->dir == AN_DIR_NONE)
			c->verdict = AN_VERDICT_CHANGED;
		else if ((o->dir == AN_DIR_LOWER) == (c->raw < 0))
			c->verdict = AN_VERDICT_BETTER;
		else
			c->verdict = AN_VERDICT_WORSE;
		return;
	}
	if (c->raw_low >= -o->delta && c->raw_high <= o->delta) {
		c->verdict = AN_VERDICT_SAME;
		return;
	}
	c->verdict = AN_VERDICT_INCONCLUSIVE;
	c->runs_needed = an_runs_needed(c->cv, o->delta);
}

struct p_index {
	double p;
	size_t i;
};

static int cmp_p_index(const void *a, const void *b)
{
	return cmp_double(&((const struct p_index *)a)->p,
			  &((const struct p_index *)b)->p);
}

/* A pooled value and its side, for an_rank_test(). */
struct rank_obs {
	double v;
	int is_x;
};

static int cmp_rank_obs(const void *a, const void *b)
{
	return cmp_double(&((const struct rank_obs *)a)->v, &((const struct rank_obs *)b)->v);
}

/*
 * The exact null distribution of the rank sum with ties: the pooled
 * midranks, doubled so that they are integers (a tie of ranks i+1..j has
 * midrank (i+1+j)/2), and cnt[k][s] = the number of k-subsets of the
 * values seen so far whose doubled ranks sum to s -- the knapsack count,
 * one value at a time, k and s descending so that each value is used once.
 * The k of the smaller side is counted (its tail probabilities give the
 * other's by symmetry: W_x + W_y is fixed).
 */
int an_rank_test(const double *x, size_t nx, const double *y, size_t ny,
		 double *p_less, double *p_greater)
{
	struct rank_obs *o = xmalloc((nx + ny + 1) * sizeof(*o));
	size_t n = 0, m = 0, N, i, j, k;
	long *r2;
	long w2 = 0, total2 = 0;
	double tie_sum = 0;
	int exact;

	*p_less = *p_greater = NAN;
	for (i = 0; i < nx; i++)
		if (!isnan(x[i])) {
			o[n + m] = (struct rank_obs){ x[i], 1 };
			n++;
		}
	for (i = 0; i < ny; i++)
		if (!isnan(y[i])) {
			o[n + m] = (struct rank_obs){ y[i], 0 };
			m++;
		}
	N = n + m;
	if (!n || !m) {
		free(o);
		return -1;
	}
	qsort(o, N, sizeof(*o), cmp_rank_obs);
	r2 = xmalloc(N * sizeof(*r2));
	for (i = 0; i < N; i = j) {
		double t;

		for (j = i + 1; j < N && o[j].v == o[i].v; j++)
			;
		for (k = i; k < j; k++)
			r2[k] = (long)(i + 1 + j);
		t = (double)(j - i);
		tie_sum += t * t * t - t;
	}
	for (i = 0; i < N; i++) {
		total2 += r2[i];
		if (o[i].is_x)
			w2 += r2[i];
	}
	exact = N <= AN_RANK_EXACT_MAX;
	if (exact) {
		/* Count the subsets of the smaller side's size; its observed
		 * doubled rank sum is ws. */
		int count_x = n <= m;
		size_t kk = count_x ? n : m, S = (size_t)total2, s, reach = 0;
		long ws = count_x ? w2 : total2 - w2;
		double *cnt = xcalloc((kk + 1) * (S + 1), sizeof(*cnt));
		double all = 0, le = 0, ge = 0;

		cnt[0] = 1;
		for (i = 0; i < N; i++) {
			size_t ri = (size_t)r2[i];

			reach += ri;
			for (k = (i + 1 < kk ? i + 1 : kk); k >= 1; k--)
				for (s = reach; s >= ri; s--)
					cnt[k * (S + 1) + s] += cnt[(k - 1) * (S + 1) + s - ri];
		}
		for (s = 0; s <= S; s++) {
			double c = cnt[kk * (S + 1) + s];

			all += c;
			if ((long)s <= ws)
				le += c;
			if ((long)s >= ws)
				ge += c;
		}
		free(cnt);
		/* W_x small is W_y large. */
		*p_less = fmin(1, (count_x ? le : ge) / all);
		*p_greater = fmin(1, (count_x ? ge : le) / all);
	} else {
		double w = w2 / 2.0, mu = n * (N + 1) / 2.0;
		double sigma = sqrt((double)n * m / 12.0 *
				    ((N + 1) - tie_sum / ((double)N * (N - 1))));

		if (!(sigma > 0)) {
			*p_less = *p_greater = 1;	/* every value tied */
		} else {
			*p_less = pnorm((w - mu + 0.5) / sigma, 0, 1, 1, 0);
			*p_greater = pnorm((w - mu - 0.5) / sigma, 0, 1, 0, 0);
		}
	}
	free(r2);
	free(o);
	return exact;
}

double an_rank_test_p(const double *x, size_t nx, const double *y, size_t ny)
{
	double lo, hi, p;

	if (an_rank_test(x, nx, y, ny, &lo, &hi) < 0)
		return NAN;
	p = 2 * fmin(lo, hi);
	return p < 1 ? p : 1;
}

void an_bh(const double *p, size_t m, double *q)
{
	struct p_index *s = xmalloc((m ? m : 1) * sizeof(*s));
	size_t i, k = 0;
	double run = 1;

	for (i = 0; i < m; i++)
		if (!isnan(p[i]))
			s[k++] = (struct p_index){ p[i], i };
	qsort(s, k, sizeof(*s), cmp_p_index);
	for (i = 0; i < m; i++)
		q[i] = NAN;	/* safe when q aliases p: s holds the copies */
	/* Step-up: q_(i) = min over j >= i of p_(j) * k / j. */
	for (i = k; i > 0; i--) {
		double v = s[i - 1].p * k / i;

		if (v < run)
			run = v;
		q[s[i - 1].i] = run;
	}
	free(s);
}

void an_bh_changes(struct an_change *c, size_t m, const struct an_opts *o)
{
	double *p = xmalloc((m ? m : 1) * sizeof(*p));
	size_t i;

	for (i = 0; i < m; i++)
		p[i] = c[i].p;
	an_bh(p, m, p);
	for (i = 0; i < m; i++) {
		c[i].q = p[i];
		an_decide(&c[i], o);
	}
	free(p);
}

const char *an_verdict_name(enum an_verdict v)
{
	switch (v) {
	case AN_VERDICT_SAME:
		return "same";
	case AN_VERDICT_BETTER:
		return "better";
	case AN_VERDICT_WORSE:
		return "worse";
	case AN_VERDICT_CHANGED:
		return "changed";
	case AN_VERDICT_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "none";
	}
}
