/* Placement metrics and anomaly checks on hand-built runs shaped like
 * seed 003 (D7 packs light loads onto node 0). */
#include "unit.h"
#include "../../analyze/placement.h"
#include "../../db/placement.h"

#include <stdlib.h>

/* Rows: main node, initial node, moved, user, max percent. */
struct jrow {
	int main, initial, moved;
	double user, maxpct;
};

static void make_run(struct db_prun *r, long long id, const char *variant, long tasks,
		     const struct jrow *rows, size_t n)
{
	size_t k;
	int node;

	memset(r, 0, sizeof(*r));
	r->run_id = id;
	r->variant_id = variant[0] == 'D' ? 1 : 2;
	r->variant = (char *)variant;
	r->benchmark = (char *)"numa_test";
	r->config = (char *)(tasks == 4 ? "tasks=4" : "tasks=8");
	r->source = (char *)"seed";
	r->tasks = tasks;
	r->nnodes = 4;
	r->njobs = n;
	r->jobs = calloc(n, sizeof(*r->jobs));
	for (k = 0; k < n; k++) {
		r->jobs[k].job = (int)k + 1;
		r->jobs[k].main_node = rows[k].main;
		r->jobs[k].initial_node = rows[k].initial;
		r->jobs[k].moved = rows[k].moved;
		r->jobs[k].user = rows[k].user;
		r->jobs[k].pct = calloc(4, sizeof(double));
		for (node = 0; node < 4; node++)
			r->jobs[k].pct[node] = node == rows[k].main ? rows[k].maxpct : 0;
	}
}

static void free_runs(struct db_placement *p)
{
	size_t i, k;

	for (i = 0; i < p->nruns; i++) {
		for (k = 0; k < p->runs[i].njobs; k++)
			free(p->runs[i].jobs[k].pct);
		free(p->runs[i].jobs);
	}
	free(p->runs);
}

static void seed003(struct db_placement *p)
{
	static const struct jrow d4[] = { { 0, 0, 0, 46.27, 100 }, { 0, 0, 0, 41.18, 58.4 },
					  { 0, 0, 0, 45.72, 100 }, { 0, 0, 0, 45.89, 100 } };
	static const struct jrow s4[] = { { 1, 1, 0, 16.63, 99.8 }, { 0, 0, 0, 27.83, 100 },
					  { 2, 2, 0, 16.27, 99.9 }, { 0, 0, 0, 28.29, 100 } };
	static const struct jrow d8[] = { { 0, 0, 0, 46.89, 100 }, { 0, 0, 0, 46.20, 100 },
					  { 0, 0, 0, 46.31, 100 }, { 1, 1, 0, 39.44, 100 },
					  { 2, 2, 0, 16.00, 99.9 }, { 0, 0, 0, 42.23, 62.6 },
					  { 1, 1, 0, 39.12, 100 }, { 1, 1, 0, 39.35, 100 } };
	static const struct jrow s8[] = { { 1, 1, 0, 27.77, 99.9 }, { 0, 0, 0, 29.34, 100 },
					  { 2, 2, 0, 28.03, 100 }, { 3, 3, 0, 24.15, 100 },
					  { 3, 0, 1, 33.36, 86.9 }, { 1, 1, 0, 27.94, 100 },
					  { 2, 2, 0, 28.02, 100 }, { 0, 0, 0, 28.58, 100 } };

	p->nruns = 4;
	p->runs = calloc(4, sizeof(*p->runs));
	make_run(&p->runs[0], 1, "D7", 4, d4, 4);
	make_run(&p->runs[1], 2, "D7", 8, d8, 8);
	make_run(&p->runs[2], 3, "stock", 4, s4, 4);
	make_run(&p->runs[3], 4, "stock", 8, s8, 8);
}

TEST(placement_metrics_seed003)
{
	struct db_placement p;
	struct an_placement m;
	struct an_placement_opts o;
	char jpn[64];

	seed003(&p);
	an_placement_opts_init(&o);
	an_placement_metrics(&p, &o, &m);
	CHECK_INT(m.nruns, 4);
	an_prun_jobs_per_node(&m.runs[0], jpn, sizeof(jpn));
	CHECK_STR(jpn, "4/0/0/0");
	CHECK_INT(m.runs[0].nodes_used, 1);
	CHECK_INT(m.runs[0].nodes_possible, 4);
	CHECK_INT(m.runs[0].max_per_node, 4);
	CHECK_NEAR(m.runs[0].even_share, 1.0, 1e-12);
	CHECK_INT(m.runs[0].nsplit, 1);		/* job 2: 58.4% */
	CHECK_NEAR(m.runs[0].split_pct, 25.0, 1e-12);
	CHECK(m.runs[0].light);
	CHECK(m.runs[0].packed);
	an_prun_jobs_per_node(&m.runs[1], jpn, sizeof(jpn));
	CHECK_STR(jpn, "4/3/1/0");
	CHECK(m.runs[1].packed);
	an_prun_jobs_per_node(&m.runs[2], jpn, sizeof(jpn));
	CHECK_STR(jpn, "2/1/1/0");
	CHECK_INT(m.runs[2].nodes_used, 3);
	CHECK(m.runs[2].packed);	/* 3 < 4: stock is not perfect either */
	an_prun_jobs_per_node(&m.runs[3], jpn, sizeof(jpn));
	CHECK_STR(jpn, "2/2/2/2");
	CHECK(!m.runs[3].packed);
	CHECK_INT(m.runs[3].nmoved, 1);
	CHECK_NEAR(m.runs[3].moved_pct, 12.5, 1e-12);
	CHECK_NEAR(m.runs[3].user_moved, 33.36, 1e-12);
	CHECK_NEAR(m.runs[3].user_stayed, (27.77 + 29.34 + 28.03 + 24.15 + 27.94 + 28.02 + 28.58) / 7, 1e-9);
	CHECK_NEAR(m.runs[3].moved_penalty_pct, (33.36 / m.runs[3].user_stayed - 1) * 100, 1e-9);
	CHECK(m.runs[3].moved_penalty_pct > 20 && m.runs[3].moved_penalty_pct < 21);
	CHECK(isnan(m.runs[2].moved_penalty_pct));
	/* With one CPU per node, 8 tasks on 4 nodes are no light load. */
	o.cpus_per_node = 1;
	an_placement_release(&m);
	an_placement_metrics(&p, &o, &m);
	CHECK(!m.runs[1].light);	/* 8 tasks > 4 x 1 */
	CHECK(!m.runs[1].packed);
	CHECK(m.runs[0].light);
	an_placement_release(&m);
	free_runs(&p);
}

/* The light-load rule takes the machine's CPUs per node when the store
 * knows them (kbench run's lscpu and numactl -H): 8 tasks on 4 nodes of
 * one CPU each are no light load, whatever the default 4 assumes; a
 * --cpus-per-node the user gives wins. */
TEST(placement_light_load_from_the_machine)
{
	struct db_placement p;
	struct an_placement m;
	struct an_placement_opts o;
	size_t i;

	seed003(&p);
	for (i = 0; i < p.nruns; i++) {
		p.runs[i].machine_cpus = 4;
		p.runs[i].machine_nodes = 4;
	}
	an_placement_opts_init(&o);
	an_placement_metrics(&p, &o, &m);
	CHECK_INT(m.runs[1].tasks, 8);
	CHECK_INT(m.runs[1].cpus_per_node, 1);
	CHECK(m.runs[1].cpn_machine);
	CHECK(!m.runs[1].light);		/* 8 tasks > 4 nodes x 1 CPU */
	CHECK(m.runs[0].light);			/* 4 tasks <= 4 x 1 */
	an_placement_release(&m);
	o.cpus_per_node = 4;
	o.cpus_per_node_given = 1;
	an_placement_metrics(&p, &o, &m);
	CHECK_INT(m.runs[1].cpus_per_node, 4);
	CHECK(!m.runs[1].cpn_machine);
	CHECK(m.runs[1].light);
	an_placement_release(&m);
	for (i = 0; i < p.nruns; i++)
		p.runs[i].machine_cpus = 64;    /* 64 CPUs on 4 nodes: 16 per node */
	o.cpus_per_node_given = 0;
	an_placement_metrics(&p, &o, &m);
	CHECK_INT(m.runs[1].cpus_per_node, 16);
	CHECK(m.runs[1].light);
	an_placement_release(&m);
	free_runs(&p);
}

static const struct an_pfinding *find(const struct an_pfindings *f, const char *check, long tasks)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].check, check) == 0 && f->v[i].tasks == tasks)
			return &f->v[i];
	return NULL;
}

TEST(placement_findings_seed003)
{
	struct db_placement p;
	struct an_placement m;
	struct an_placement_opts o;
	struct an_pfindings f;
	const struct an_pfinding *x;

	seed003(&p);
	an_placement_opts_init(&o);
	an_placement_metrics(&p, &o, &m);
	an_placement_findings(&m, "stock", NULL, 0, &o, &f);
	/* One run a side: D7's 4/0/0/0 against stock's 2/1/1/0 is no test
	 * over runs (stock's own runs use 2 to 4 nodes). */
	x = find(&f, "light_load_packed", 4);
	CHECK(x != NULL);
	if (x) {
		CHECK_INT(x->verdict, AN_VERDICT_INCONCLUSIVE);
		CHECK(isnan(x->p) && isnan(x->q));
		CHECK_INT(x->n, 1);
		CHECK_INT(x->base_n, 1);
		CHECK(strstr(x->evidence, "no test over runs") != NULL);
		CHECK_NEAR(x->value, 1, 1e-12);
		CHECK_NEAR(x->base_value, 3, 1e-12);
		CHECK(strstr(x->evidence, "4/0/0/0") != NULL);
		CHECK(strstr(x->evidence, "2/1/1/0") != NULL);
		CHECK(strstr(x->evidence, "node 0") != NULL);
		CHECK(strstr(x->evidence, "run 1") != NULL);
		CHECK(strstr(x->evidence, "run 3") != NULL);
		CHECK_INT(x->ncand_runs, 1);
		CHECK_INT(x->nbase_runs, 1);
		CHECK_INT(x->runs[0], 1);
		CHECK_INT(x->runs[1], 3);
	}
	x = find(&f, "light_load_packed", 8);
	CHECK(x != NULL);
	if (x) {
		CHECK_INT(x->verdict, AN_VERDICT_INCONCLUSIVE);
		CHECK(strstr(x->evidence, "4/3/1/0") != NULL);
		CHECK(strstr(x->evidence, "2/2/2/2") != NULL);
	}
	/* At light load the nodes-used check is light_load_packed alone. */
	CHECK(find(&f, "node_spread", 4) == NULL);
	/* Moved jobs: D7 moved none of 8, stock one (12.5 points, above
	 * the 10 that matter), but one run a side is no test either. */
	x = find(&f, "moved_jobs", 8);
	CHECK(x != NULL);
	if (x) {
		CHECK_INT(x->verdict, AN_VERDICT_INCONCLUSIVE);
		CHECK_NEAR(x->change_pct, -12.5, 1e-12);
		CHECK(isnan(x->q));
	}
	/* No finding about the baseline itself. */
	CHECK(f.n > 0);
	for (size_t i = 0; i < f.n; i++)
		CHECK_STR(f.v[i].variant, "D7");
	an_pfindings_release(&f);
	/* The other way round, stock spreads wider at 8 tasks: not worse. */
	an_placement_findings(&m, "D7", NULL, 0, &o, &f);
	x = find(&f, "light_load_packed", 8);
	CHECK(x != NULL);
	if (x)
		CHECK_INT(x->verdict, AN_VERDICT_INCONCLUSIVE);
	an_pfindings_release(&f);
	an_placement_release(&m);
	free_runs(&p);
}

/* Runs given as strings of main nodes, one digit per job ("0123"); a job
 * marked by an upper-case letter instead ("A" = node 0) moved there from
 * another node.  variant_id 1 for "cand", 2 otherwise. */
static void make_runs(struct db_placement *p, const char *variant, long tasks,
		      const char *const *runs, size_t nruns)
{
	size_t i, k;

	p->runs = realloc(p->runs, (p->nruns + nruns) * sizeof(*p->runs));
	for (i = 0; i < nruns; i++) {
		struct jrow rows[16];
		size_t n = strlen(runs[i]);

		for (k = 0; k < n && k < 16; k++) {
			int moved = runs[i][k] >= 'A' && runs[i][k] <= 'D';
			int node = moved ? runs[i][k] - 'A' : runs[i][k] - '0';

			rows[k] = (struct jrow){ node, moved ? (node + 1) % 4 : node, moved, 30.0, 100 };
		}
		make_run(&p->runs[p->nruns], (long long)(p->nruns + 1), variant, tasks, rows, n);
		p->runs[p->nruns].variant_id = strcmp(variant, "cand") == 0 ? 1 : 2;
		p->nruns++;
	}
}

static enum an_verdict verdict_of(const char *const *base, size_t nb, const char *const *cand,
				  size_t nc, long tasks, const char *check, double *value,
				  double *base_value, double *pv)
{
	struct db_placement p = { 0 };
	struct an_placement m;
	struct an_placement_opts o;
	struct an_pfindings f;
	const struct an_pfinding *x;
	enum an_verdict v = AN_VERDICT_NONE;

	make_runs(&p, "base", tasks, base, nb);
	make_runs(&p, "cand", tasks, cand, nc);
	an_placement_opts_init(&o);
	an_placement_metrics(&p, &o, &m);
	an_placement_findings(&m, "base", NULL, 0, &o, &f);
	x = find(&f, check, tasks);
	if (x) {
		v = x->verdict;
		*value = x->value;
		*base_value = x->base_value;
		*pv = x->q;
	}
	an_pfindings_release(&f);
	an_placement_release(&m);
	free_runs(&p);
	return v;
}

/* Packing is a comparison with the baseline, by a test over runs: the
 * lab cases of issue 24. */
TEST(placement_packed_is_a_test_over_runs)
{
	/* The baseline uses 2, 3 and 2 nodes, the candidate 4, 4 and 2:
	 * it spreads more; one of its runs packs, as one of the baseline's. */
	static const char *const b1[] = { "1112", "1223", "1222" }, *const c1[] = { "0123", "3210", "2233" };
	static const char *const one[] = { "0000" }, *const one3[] = { "1111", "2222", "0000" };
	static const char *const spread5[] = { "0123", "1230", "2301", "3012", "0213" };
	static const char *const packed5[] = { "0000", "1111", "2222", "3333", "0000" };
	static const char *const stock[] = { "1020" };
	double v, bv, q;

	CHECK(verdict_of(b1, 3, c1, 3, 4, "light_load_packed", &v, &bv, &q) != AN_VERDICT_WORSE);
	CHECK_NEAR(v, 10.0 / 3, 1e-12);
	CHECK_NEAR(bv, 7.0 / 3, 1e-12);
	/* Packed exactly like the baseline: with one run a side no test, so
	 * not even "same" is decided; with three a side, the same. */
	CHECK_INT(verdict_of(one, 1, one, 1, 4, "light_load_packed", &v, &bv, &q), AN_VERDICT_INCONCLUSIVE);
	CHECK_NEAR(v, 1, 1e-12);
	CHECK_NEAR(bv, 1, 1e-12);
	CHECK_INT(verdict_of(one3, 3, one3, 3, 4, "light_load_packed", &v, &bv, &q), AN_VERDICT_SAME);
	/* One run a side (seed 003's 4/0/0/0 against 2/1/1/0): no test. */
	CHECK_INT(verdict_of(stock, 1, one, 1, 4, "light_load_packed", &v, &bv, &q),
		  AN_VERDICT_INCONCLUSIVE);
	CHECK(isnan(q));
	/* Three runs a side, every candidate run on one node, every baseline
	 * run on four: two-sided exact rank p = 2 / choose(6, 3) = 0.1. */
	CHECK_INT(verdict_of(spread5, 3, packed5, 3, 4, "light_load_packed", &v, &bv, &q),
		  AN_VERDICT_INCONCLUSIVE);
	/* Five a side: p = 2 / choose(10, 5) = 0.00794, q = 3 p over the
	 * build's three tests (moved and split jobs: p = 1). */
	CHECK_INT(verdict_of(spread5, 5, packed5, 5, 4, "light_load_packed", &v, &bv, &q),
		  AN_VERDICT_WORSE);
	CHECK_NEAR(q, 3 * 2.0 / 252, 1e-9);
	CHECK_NEAR(v, 1, 1e-12);
	CHECK_NEAR(bv, 4, 1e-12);
	/* The other way round, the candidate spreads where the baseline
	 * packed: better, never worse. */
	CHECK_INT(verdict_of(packed5, 5, spread5, 5, 4, "light_load_packed", &v, &bv, &q),
		  AN_VERDICT_BETTER);
}

/* Moved jobs: the run is the unit, not the job. */
TEST(placement_moved_jobs_test_over_runs)
{
	static const char *const stay8[] = { "01230123", "01230123", "01230123", "01230123", "01230123" };
	static const char *const moved8[] = { "ABCDABCD", "ABCD0123", "ABCDAB23", "ABCDABC3", "ABCD0123" };
	double v, bv, q;

	/* One run a side, 8 of 8 jobs moved against 0 of 8: Fisher on the
	 * pooled jobs gives p = 0.00016, but one run a side tests nothing. */
	CHECK_INT(verdict_of(stay8, 1, moved8, 1, 8, "moved_jobs", &v, &bv, &q), AN_VERDICT_INCONCLUSIVE);
	CHECK_NEAR(v, 100, 1e-12);
	CHECK_NEAR(bv, 0, 1e-12);
	CHECK(isnan(q));
	/* Five runs a side: the mean of the runs' shares (100, 50, 75, 87.5,
	 * 50) and the rank test over runs, p = 2 / 252. */
	CHECK_INT(verdict_of(stay8, 5, moved8, 5, 8, "moved_jobs", &v, &bv, &q), AN_VERDICT_WORSE);
	CHECK_NEAR(v, (100 + 50 + 75 + 87.5 + 50) / 5, 1e-12);
	CHECK_NEAR(bv, 0, 1e-12);
	CHECK(q > 2.0 / 252 - 1e-12 && q < 0.05);
}
