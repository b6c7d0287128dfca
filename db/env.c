/*
 * env.c - the environment `kbench run` recorded with its runs' sources
 * (uname, /proc/cmdline, numa_balancing, THP, the cpufreq governor, the
 * tool's version), read back per machine and variant: the settings of
 * each variant's latest run there.
 */
#include "db_int.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>

void db_machine_env_release(struct db_machine_env *m)
{
	size_t i, k;

	free(m->name);
	free(m->description);
	for (i = 0; i < m->nenvs; i++) {
		struct db_env *e = &m->envs[i];
		for (k = 0; k < e->n; k++) {
			free(e->keys[k]);
			free(e->values[k]);
		}
		free(e->keys);
		free(e->values);
		free(e->variant);
		free(e->recorded_at);
	}
	free(m->envs);
	memset(m, 0, sizeof(*m));
}

const char *db_env_get(const struct db_env *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->keys[i], key) == 0)
			return e->values[i];
	return NULL;
}

/* The machine's row: 1 found, 0 not, -1 error. */
static int machine_row(struct db *db, const char *name, long long *id,
		       struct db_machine_env *out, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT m.id, m.cpus, m.nodes, m.description,"
				     " (SELECT count(*) FROM run r WHERE r.machine_id = m.id)"
				     " FROM machine m WHERE m.name = ?1", err);
	int rc;

	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	rc = db_step(st);
	if (rc == DB_ROW) {
		*id = db_col_int(st, 0);
		out->cpus = db_col_null(st, 1) ? 0 : db_col_int(st, 1);
		out->nodes = db_col_null(st, 2) ? 0 : db_col_int(st, 2);
		out->description = db_col_text(st, 3);
		out->runs = db_col_int(st, 4);
		db_finalize(st);
		return 1;
	}
	if (rc != DB_DONE)
		return db_rows_fail(db, st, "cannot read the machine", err);
	return db_rows_end(db, st, err) < 0 ? -1 : 0;
}

int db_machine_env(struct db *db, const char *name, const char *variant,
		   struct db_machine_env *out, struct kb_err *err)
{
	/* Each variant's latest source with an environment, on the machine:
	 * its settings, by key. */
	static const char sql[] =
		"SELECT v.display, src.imported_at, e.key, e.value, v.id"
		" FROM (SELECT r.variant_id AS vid, max(r.source_id) AS sid FROM run r"
		"       WHERE r.machine_id = ?1"
		"         AND EXISTS (SELECT 1 FROM env x WHERE x.source_id = r.source_id)"
		"       GROUP BY r.variant_id) last"
		" JOIN env e ON e.source_id = last.sid"
		" JOIN source src ON src.id = last.sid"
		" JOIN variant_v v ON v.id = last.vid"
		" WHERE COALESCE(?2, v.display) = v.display"
		" ORDER BY v.id, e.key";
	struct dbst *st;
	long long id = 0, last = -1;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = machine_row(db, name, &id, out, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return kb_err_set(err, "", 0, "no machine '%s' in the store (see kbench ls)", name);
	out->name = xstrdup(name);
	st = db_prepare(db, sql, err);
	if (!st) {
		db_machine_env_release(out);
		return -1;
	}
	db_bind_int(st, 1, id);
	db_bind_text(st, 2, variant);
	while ((rc = db_step(st)) == DB_ROW) {
		long long vid = db_col_int(st, 4);
		struct db_env *e;

		if (vid != last) {
			xgrow(&out->envs, &cap, out->nenvs + 1, sizeof(*out->envs));
			e = &out->envs[out->nenvs++];
			memset(e, 0, sizeof(*e));
			e->variant = db_col_text(st, 0);
			e->recorded_at = db_col_text(st, 1);
			last = vid;
		}
		e = &out->envs[out->nenvs - 1];
		e->keys = xrealloc(e->keys, (e->n + 1) * sizeof(*e->keys));
		e->values = xrealloc(e->values, (e->n + 1) * sizeof(*e->values));
		e->keys[e->n] = db_col_text(st, 2);
		e->values[e->n] = db_col_text(st, 3);
		if (!e->keys[e->n])
			e->keys[e->n] = xstrdup("");
		if (!e->values[e->n])
			e->values[e->n] = xstrdup("");
		e->n++;
	}
	if (rc != DB_DONE) {
		db_rows_fail(db, st, "cannot read the environment", err);
		db_machine_env_release(out);
		return -1;
	}
	if (db_rows_end(db, st, err) < 0) {
		db_machine_env_release(out);
		return -1;
	}
	return 0;
}
