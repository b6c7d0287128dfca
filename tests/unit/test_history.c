/* Change points along a history: E-divisive splits decided by Welch's t. */
#include "unit.h"
#include "../../analyze/history.h"

#include <stdlib.h>

/* Deterministic noise: sum of uniforms from a small LCG, mean 0, sd ~1. */
static double noise(unsigned *state)
{
	double s = 0;
	int i;

	for (i = 0; i < 12; i++) {
		*state = *state * 1103515245u + 12345u;
		s += (double)((*state >> 8) & 0xffff) / 65536.0;
	}
	return s - 6.0;
}

/* npoints points of k values: base 1.0, sd sd, times step[i]. */
static void make_series(struct an_hseries *s, size_t npoints, size_t k, double sd,
			const double *step, unsigned seed)
{
	size_t i, j;

	memset(s, 0, sizeof(*s));
	s->dir = AN_DIR_LOWER;
	s->npoints = npoints;
	s->points = calloc(npoints, sizeof(*s->points));
	for (i = 0; i < npoints; i++) {
		s->points[i].n = k;
		s->points[i].values = calloc(k, sizeof(double));
		for (j = 0; j < k; j++)
			s->points[i].values[j] = (1.0 + sd * noise(&seed)) * step[i];
	}
}

static void free_series(struct an_hseries *s)
{
	size_t i;

	for (i = 0; i < s->npoints; i++)
		free(s->points[i].values);
	free(s->points);
	free(s->changes);
}

TEST(history_one_step_at_20th)
{
	struct an_history_opts o;
	struct an_hseries s;
	double step[30];
	size_t i;
	unsigned seed;

	an_history_opts_init(&o);
	for (seed = 1; seed <= 5; seed++) {
		for (i = 0; i < 30; i++)
			step[i] = i >= 19 ? 1.15 : 1.0;
		make_series(&s, 30, 7, 0.02, step, seed);
		an_history_changes(&s, &o);
		CHECK_INT(s.nchanges, 1);
		if (s.nchanges == 1) {
			CHECK_INT(s.changes[0].index, 19);
			CHECK(s.changes[0].change_pct > 13 && s.changes[0].change_pct < 17);
			CHECK(s.changes[0].p <= 0.001);
			CHECK_INT(s.changes[0].verdict, AN_VERDICT_WORSE);
			CHECK_INT(s.changes[0].n_before, 19 * 7);
			CHECK_INT(s.changes[0].n_after, 11 * 7);
		}
		free_series(&s);
	}
}

TEST(history_flat_has_no_change)
{
	struct an_history_opts o;
	struct an_hseries s;
	double step[30];
	size_t i;
	unsigned seed;

	an_history_opts_init(&o);
	for (i = 0; i < 30; i++)
		step[i] = 1.0;
	for (seed = 1; seed <= 20; seed++) {
		make_series(&s, 30, 7, 0.02, step, seed);
		an_history_changes(&s, &o);
		CHECK_INT(s.nchanges, 0);
		free_series(&s);
	}
}

TEST(history_two_steps_and_window)
{
	struct an_history_opts o;
	struct an_hseries s;
	double step[40];
	size_t i;

	an_history_opts_init(&o);
	for (i = 0; i < 40; i++)
		step[i] = i < 10 ? 1.0 : i < 25 ? 0.8 : 1.1;
	/* (Seed 7 draws five values of point 9 all about 1.2 sd low: a real,
	 * if accidental, 1% dip that the test rightly reports.) */
	make_series(&s, 40, 5, 0.01, step, 11);
	s.dir = AN_DIR_HIGHER;
	an_history_changes(&s, &o);
	CHECK_INT(s.nchanges, 2);
	if (s.nchanges == 2) {
		CHECK_INT(s.changes[0].index, 10);
		CHECK_INT(s.changes[0].verdict, AN_VERDICT_WORSE);	/* higher is better, -20% */
		CHECK_INT(s.changes[1].index, 25);
		CHECK_INT(s.changes[1].verdict, AN_VERDICT_BETTER);
	}
	/* A small window still finds both. */
	o.window = 5;
	an_history_changes(&s, &o);
	CHECK_INT(s.nchanges, 2);
	/* A threshold above the steps finds none. */
	o.window = 50;
	o.threshold = 50;
	an_history_changes(&s, &o);
	CHECK_INT(s.nchanges, 0);
	free_series(&s);
}

TEST(history_single_values_per_point)
{
	struct an_history_opts o;
	struct an_hseries s;
	double step[30];
	size_t i;

	an_history_opts_init(&o);
	for (i = 0; i < 30; i++)
		step[i] = i >= 12 ? 1.3 : 1.0;
	make_series(&s, 30, 1, 0.01, step, 3);
	s.dir = AN_DIR_NONE;
	an_history_changes(&s, &o);
	CHECK_INT(s.nchanges, 1);
	if (s.nchanges == 1) {
		CHECK_INT(s.changes[0].index, 12);
		CHECK_INT(s.changes[0].verdict, AN_VERDICT_CHANGED);
	}
	free_series(&s);
}

TEST(history_order_names)
{
	enum an_order o;

	CHECK(an_order_parse("version", &o) == 0 && o == AN_ORDER_VERSION);
	CHECK(an_order_parse("imported", &o) == 0 && o == AN_ORDER_IMPORTED);
	CHECK(an_order_parse("name", &o) == 0 && o == AN_ORDER_NAME);
	CHECK(an_order_parse("time", &o) < 0);
	CHECK_STR(an_order_name(AN_ORDER_IMPORTED), "imported");
}
