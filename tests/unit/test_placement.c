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
	x = find(&f, "light_load_packed", 4);
	CHECK(x != NULL);
	if (x) {
		CHECK_INT(x->verdict, AN_VERDICT_WORSE);
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
		CHECK_INT(x->verdict, AN_VERDICT_WORSE);
		CHECK(strstr(x->evidence, "4/3/1/0") != NULL);
		CHECK(strstr(x->evidence, "2/2/2/2") != NULL);
	}
	/* One run per side: the spread comparison cannot be significant. */
	x = find(&f, "node_spread", 4);
	CHECK(x != NULL);
	if (x)
		CHECK_INT(x->verdict, AN_VERDICT_INCONCLUSIVE);
	/* No finding about the baseline itself. */
	CHECK(f.n > 0);
	for (size_t i = 0; i < f.n; i++)
		CHECK_STR(f.v[i].variant, "D7");
	an_pfindings_release(&f);
	/* The other way round, stock is not packed at 8 tasks. */
	an_placement_findings(&m, "D7", NULL, 0, &o, &f);
	x = find(&f, "light_load_packed", 8);
	CHECK(x != NULL);
	if (x)
		CHECK_INT(x->verdict, AN_VERDICT_SAME);
	an_pfindings_release(&f);
	an_placement_release(&m);
	free_runs(&p);
}

TEST(placement_fisher_exact)
{
	/* R: fisher.test(matrix(c(3,1,1,3),2))$p.value = 0.4857143 */
	CHECK_NEAR(an_fisher_exact(3, 1, 1, 3), 0.4857142857, 1e-8);
	/* fisher.test(matrix(c(10,0,0,10),2))$p.value = 1.082509e-05 */
	CHECK_NEAR(an_fisher_exact(10, 0, 0, 10), 1.0825088e-05, 1e-6);
	CHECK_NEAR(an_fisher_exact(0, 4, 0, 4), 1.0, 1e-12);
	CHECK(isnan(an_fisher_exact(0, 0, 1, 3)));
}
