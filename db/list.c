/*
 * list.c - queries behind `kbench ls` and `kbench show`.
 */
#include "db_int.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int list_load(struct db *db, struct db_list *out, struct kb_err *err)
{
	struct dbst *st;
	size_t cap;

	memset(out, 0, sizeof(*out));
	st = db_prepare(db,
		"SELECT v.id, v.display, v.kernel, v.description,"
		" (SELECT count(*) FROM run r WHERE r.variant_id = v.id),"
		" (SELECT count(*) FROM summary s WHERE s.variant_id = v.id),"
		" (SELECT w.created_at FROM variant w WHERE w.id = v.id)"
		" FROM variant_v v ORDER BY v.id", err);
	if (!st)
		return -1;
	cap = 0;
	while (db_step(st) == DB_ROW) {
		struct db_variant *v;
		xgrow(&out->variants, &cap, out->nvariants + 1, sizeof(*out->variants));
		v = &out->variants[out->nvariants++];
		v->id = db_col_int(st, 0);
		v->name = db_col_text(st, 1);
		v->kernel = db_col_text(st, 2);
		v->description = db_col_text(st, 3);
		v->runs = db_col_int(st, 4);
		v->summaries = db_col_int(st, 5);
		v->created_at = db_col_text(st, 6);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;

	st = db_prepare(db,
		"SELECT m.id, m.name, m.description,"
		" (SELECT count(*) FROM run r WHERE r.machine_id = m.id)"
		" FROM machine m ORDER BY m.name", err);
	if (!st)
		return -1;
	cap = 0;
	while (db_step(st) == DB_ROW) {
		struct db_machine *m;
		xgrow(&out->machines, &cap, out->nmachines + 1, sizeof(*out->machines));
		m = &out->machines[out->nmachines++];
		m->id = db_col_int(st, 0);
		m->name = db_col_text(st, 1);
		m->description = db_col_text(st, 2);
		m->runs = db_col_int(st, 3);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;

	st = db_prepare(db, "SELECT count(*), count(DISTINCT source_id) FROM run"
			    " WHERE machine_id IS NULL", err);
	if (!st)
		return -1;
	if (db_step(st) == DB_ROW) {
		out->unknown_runs = db_col_int(st, 0);
		out->unknown_posts = db_col_int(st, 1);
	}
	db_finalize(st);

	st = db_prepare(db,
		"SELECT benchmark, sum(runs), sum(failed), sum(samples), sum(summaries),"
		" count(DISTINCT variant_id) FROM ("
		"  SELECT r.benchmark AS benchmark, 1 AS runs,"
		"   CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END AS failed,"
		"   (SELECT count(*) FROM sample s WHERE s.run_id = r.id)"
		"   + (SELECT count(user_time) FROM job j WHERE j.run_id = r.id) AS samples,"
		"   0 AS summaries, r.variant_id AS variant_id FROM run r"
		"  UNION ALL"
		"  SELECT benchmark, 0, 0, 0, 1, variant_id FROM summary"
		" ) x GROUP BY benchmark ORDER BY benchmark", err);
	if (!st)
		return -1;
	cap = 0;
	while (db_step(st) == DB_ROW) {
		struct db_bench *b;
		xgrow(&out->benches, &cap, out->nbenches + 1, sizeof(*out->benches));
		b = &out->benches[out->nbenches++];
		b->benchmark = db_col_text(st, 0);
		b->runs = db_col_int(st, 1);
		b->failed = db_col_int(st, 2);
		b->samples = db_col_int(st, 3);
		b->summaries = db_col_int(st, 4);
		b->variants = db_col_int(st, 5);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;

	st = db_prepare(db,
		"SELECT s.id, s.path, s.sha256, s.format, s.imported_at, s.size,"
		" (SELECT count(*) FROM run r WHERE r.source_id = s.id),"
		" (SELECT count(*) FROM summary m WHERE m.source_id = s.id),"
		" s.mail_from, s.mail_date, s.mail_subject"
		" FROM source s ORDER BY s.id", err);
	if (!st)
		return -1;
	cap = 0;
	while (db_step(st) == DB_ROW) {
		struct db_source *s;
		xgrow(&out->sources, &cap, out->nsources + 1, sizeof(*out->sources));
		s = &out->sources[out->nsources++];
		s->id = db_col_int(st, 0);
		s->path = db_col_text(st, 1);
		s->sha256 = db_col_text(st, 2);
		s->format = db_col_text(st, 3);
		s->imported_at = db_col_text(st, 4);
		s->size = db_col_int(st, 5);
		s->runs = db_col_int(st, 6);
		s->summaries = db_col_int(st, 7);
		s->mail_from = db_col_text(st, 8);
		s->mail_date = db_col_text(st, 9);
		s->mail_subject = db_col_text(st, 10);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return 0;
}

int db_list(struct db *db, struct db_list *out, struct kb_err *err)
{
	if (list_load(db, out, err) < 0) {
		db_list_release(out);
		return -1;
	}
	return 0;
}

void db_list_release(struct db_list *l)
{
	size_t i;

	for (i = 0; i < l->nvariants; i++) {
		free(l->variants[i].name);
		free(l->variants[i].kernel);
		free(l->variants[i].description);
		free(l->variants[i].created_at);
	}
	for (i = 0; i < l->nmachines; i++) {
		free(l->machines[i].name);
		free(l->machines[i].description);
	}
	for (i = 0; i < l->nbenches; i++)
		free(l->benches[i].benchmark);
	for (i = 0; i < l->nsources; i++) {
		free(l->sources[i].path);
		free(l->sources[i].sha256);
		free(l->sources[i].format);
		free(l->sources[i].imported_at);
		free(l->sources[i].mail_from);
		free(l->sources[i].mail_date);
		free(l->sources[i].mail_subject);
	}
	free(l->variants);
	free(l->machines);
	free(l->benches);
	free(l->sources);
	memset(l, 0, sizeof(*l));
}

static int run_load(struct db *db, long long id, struct db_run *out, struct kb_err *err)
{
	struct dbst *st;
	size_t cap = 0;
	int found = 0;

	memset(out, 0, sizeof(*out));
	st = db_prepare(db,
		"SELECT r.id, src.path, v.display, v.description, m.name, r.benchmark, r.config,"
		" r.status, r.error, r.iteration, r.line, src.mail_from, src.mail_date, src.mail_subject"
		" FROM run r JOIN source src ON src.id = r.source_id"
		" JOIN variant_v v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id"
		" WHERE r.id = ?1", err);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	if (db_step(st) == DB_ROW) {
		found = 1;
		out->id = db_col_int(st, 0);
		out->source = db_col_text(st, 1);
		out->variant = db_col_text(st, 2);
		out->variant_desc = db_col_text(st, 3);
		out->machine = db_col_text(st, 4);
		out->benchmark = db_col_text(st, 5);
		out->config = db_col_text(st, 6);
		out->status = db_col_text(st, 7);
		out->error = db_col_text(st, 8);
		out->iteration = (int)db_col_int(st, 9);
		out->line = (int)db_col_int(st, 10);
		out->mail_from = db_col_text(st, 11);
		out->mail_date = db_col_text(st, 12);
		out->mail_subject = db_col_text(st, 13);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	if (!found)
		return kb_err_set(err, NULL, 0, "no run %lld in the database", id);

	st = db_prepare(db, "SELECT metric, value, unit, job FROM sample_all WHERE run_id = ?1"
			" ORDER BY job IS NOT NULL, job, id IS NULL, id", err);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	while (db_step(st) == DB_ROW) {
		struct db_sample *s;
		xgrow(&out->samples, &cap, out->nsamples + 1, sizeof(*out->samples));
		s = &out->samples[out->nsamples++];
		s->metric = db_col_text(st, 0);
		s->value = db_col_real(st, 1);
		s->unit = db_col_text(st, 2);
		s->job = db_col_null(st, 3) ? 0 : (int)db_col_int(st, 3);
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;

	cap = 0;
	st = db_prepare(db, "SELECT job, initial_node, main_node, moved, user_time, marked FROM job"
			" WHERE run_id = ?1 ORDER BY job", err);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	while (db_step(st) == DB_ROW) {
		struct db_job *j;
		xgrow(&out->jobs, &cap, out->njobs + 1, sizeof(*out->jobs));
		j = &out->jobs[out->njobs++];
		j->job = (int)db_col_int(st, 0);
		j->initial_node = (int)db_col_int(st, 1);
		j->main_node = (int)db_col_int(st, 2);
		j->moved = (int)db_col_int(st, 3);
		j->user = db_col_double(st, 4);
		j->marked = (int)db_col_int(st, 5);
		j->nnodes = 0;
		j->pct = NULL;
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;

	st = db_prepare(db, "SELECT job, node, pct FROM placement WHERE run_id = ?1"
			" ORDER BY job, node", err);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	while (db_step(st) == DB_ROW) {
		int job = (int)db_col_int(st, 0), node = (int)db_col_int(st, 1);
		size_t i;
		for (i = 0; i < out->njobs; i++) {
			struct db_job *j = &out->jobs[i];
			if (j->job != job || node < 0 || node > 4096)
				continue;
			if (node >= j->nnodes) {
				int k;
				j->pct = xrealloc(j->pct, sizeof(double) * (size_t)(node + 1));
				for (k = j->nnodes; k <= node; k++)
					j->pct[k] = NAN;
				j->nnodes = node + 1;
			}
			j->pct[node] = db_col_real(st, 2);
		}
	}
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return 0;
}

int db_get_run(struct db *db, long long id, struct db_run *out, struct kb_err *err)
{
	if (run_load(db, id, out, err) < 0) {
		db_run_release(out);
		return -1;
	}
	return 0;
}

void db_run_release(struct db_run *r)
{
	size_t i;

	free(r->source);
	free(r->mail_from);
	free(r->mail_date);
	free(r->mail_subject);
	free(r->variant);
	free(r->variant_desc);
	free(r->machine);
	free(r->benchmark);
	free(r->config);
	free(r->status);
	free(r->error);
	for (i = 0; i < r->nsamples; i++) {
		free(r->samples[i].metric);
		free(r->samples[i].unit);
	}
	for (i = 0; i < r->njobs; i++)
		free(r->jobs[i].pct);
	free(r->samples);
	free(r->jobs);
	memset(r, 0, sizeof(*r));
}

int db_source_runs(struct db *db, long long source_id, long long **ids, size_t *n,
		   struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT id FROM run WHERE source_id = ?1 ORDER BY id", err);
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	if (!st)
		return -1;
	db_bind_int(st, 1, source_id);
	while (db_step(st) == DB_ROW) {
		xgrow(ids, &cap, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = db_col_int(st, 0);
	}
	if (db_rows_end(db, st, err) < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/*
 * Comparable sets.  A post's own variants are compared with each other
 * only; variants with global names (a result tree's commits, names a
 * user gave) are compared machine by machine.  One set per benchmark and
 * post, or benchmark and machine, with its variants in import order.
 */
int db_comparable_sets(struct db *db, const char *bench, struct db_cset **out, size_t *n,
		       struct kb_err *err)
{
	struct dbst *st;
	size_t cap = 0, vcap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db,
		"SELECT benchmark, post, k, min(label), min(display), min(source_id), min(name),"
		" min(description) FROM ("
		" SELECT x.benchmark AS benchmark, CASE WHEN v.scope <> '' THEN 1 ELSE 0 END AS post,"
		" CASE WHEN v.scope <> '' THEN v.scope ELSE coalesce(m.name, '') END AS k,"
		" CASE WHEN v.scope <> '' THEN v.scope_label ELSE m.name END AS label,"
		" v.display AS display, x.source_id AS source_id, v.name AS name,"
		" v.description AS description, v.id AS vid,"
		/* within a set, a variant that says it is the base (stock,
		 * vanilla, mainline, ...) comes first: it is the baseline */
		" CASE WHEN lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%stock%'"
		"   OR lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%vanilla%'"
		"   OR lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%mainline%'"
		"   OR lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%baseline%'"
		"   OR lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%upstream%'"
		"   OR lower(v.name || ' ' || coalesce(v.description, '')) LIKE '%unpatched%'"
		"   THEN 0 ELSE 1 END AS base"
		/* each (benchmark, variant, machine) once before the view's
		 * display names and the LIKEs: 465,000 runs and summaries are
		 * 12,000 of them on the bench store (3.5 s -> 0.9 s) */
		" FROM (SELECT benchmark, variant_id, machine_id, min(source_id) AS source_id FROM"
		"       (SELECT benchmark, variant_id, machine_id, source_id FROM run WHERE status = 'ok'"
		"        UNION ALL SELECT benchmark, variant_id, machine_id, source_id FROM summary) u"
		"       WHERE CAST(?1 AS TEXT) IS NULL OR u.benchmark = ?1"
		"       GROUP BY benchmark, variant_id, machine_id) x"
		" JOIN variant_v v ON v.id = x.variant_id LEFT JOIN machine m ON m.id = x.machine_id) y"
		" GROUP BY benchmark, post, k, vid"
		" ORDER BY benchmark, post DESC, min(vid) OVER (PARTITION BY benchmark, post, k), k,"
		" min(base), vid",
		err);
	if (!st)
		return -1;
	db_bind_text(st, 1, bench);
	while ((rc = db_step(st)) == DB_ROW) {
		const char *b = db_col_str(st, 0);
		const char *k = db_col_str(st, 2);
		int post = (int)db_col_int(st, 1);
		struct db_cset *c = *n ? &(*out)[*n - 1] : NULL;

		if (!c || c->post != post || strcmp(c->benchmark, b) || strcmp(c->key, k)) {
			xgrow(out, &cap, *n + 1, sizeof(**out));
			c = &(*out)[(*n)++];
			memset(c, 0, sizeof(*c));
			c->benchmark = xstrdup(b);
			c->post = post;
			c->key = xstrdup(k);
			c->label = db_col_text(st, 3);
			c->source_id = db_col_int(st, 5);
			vcap = 0;
		}
		xgrow(&c->variants, &vcap, c->nvariants + 1, sizeof(*c->variants));
		c->variants[c->nvariants++] = db_col_text(st, 4);
	}
	db_finalize(st);
	if (rc != DB_DONE) {
		db_csets_free(*out, *n);
		*out = NULL;
		*n = 0;
		return db_fail(db, err, "cannot read the comparable sets");
	}
	return 0;
}

void db_csets_free(struct db_cset *c, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(c[i].benchmark);
		free(c[i].key);
		free(c[i].label);
		for (k = 0; k < c[i].nvariants; k++)
			free(c[i].variants[k]);
		free(c[i].variants);
	}
	free(c);
}

int db_name_exists(struct db *db, enum db_name_kind kind, const char *name, struct kb_err *err)
{
	static const char *const sql[] = {
		[DB_NAME_BENCH] = "SELECT EXISTS (SELECT 1 FROM run WHERE benchmark = ?1)"
				  " OR EXISTS (SELECT 1 FROM summary WHERE benchmark = ?1)",
		/* a machine's name, or the label of a post's machine that is
		 * not named (query.c's machine key) */
		[DB_NAME_MACHINE] = "SELECT EXISTS (SELECT 1 FROM machine WHERE name = ?1)"
				    " OR EXISTS (SELECT 1 FROM variant WHERE scope <> ''"
				    " AND '" DB_UNKNOWN_AT "' || scope_label = ?1)",
	};
	struct dbst *st = db_prepare(db, sql[kind], err);
	int rc, has = 0;

	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	rc = db_step(st);
	if (rc == DB_ROW)
		has = (int)db_col_int(st, 0);
	db_finalize(st);
	if (rc != DB_ROW)
		return db_fail(db, err, "cannot read the store");
	return has;
}
