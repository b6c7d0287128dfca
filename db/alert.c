/*
 * alert.c - the stored alerts and summaries (see alert.h).
 */
#include "alert.h"
#include "db_int.h"

#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *col_text0(struct dbst *st, int i)
{
	const char *s = db_col_str(st, i);
	return xstrdup(s ? s : "");
}

int db_alerts_load(struct db *db, struct db_alerts *out, struct kb_err *err)
{
	struct dbst *st;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	st = db_prepare(db, "SELECT id, state, note, fixed_by, good, bad, first_seen"
			    " FROM alert_summary ORDER BY id", err);
	if (!st)
		return -1;
	while ((rc = db_step(st)) == DB_ROW) {
		struct db_alert_summary *s;

		xgrow(&out->summaries, &cap, out->nsummaries + 1, sizeof(*out->summaries));
		s = &out->summaries[out->nsummaries++];
		s->id = db_col_int(st, 0);
		s->state = col_text0(st, 1);
		s->note = db_col_text(st, 2);
		s->fixed_by = db_col_text(st, 3);
		s->good = col_text0(st, 4);
		s->bad = col_text0(st, 5);
		s->first_seen = col_text0(st, 6);
	}
	if (rc != DB_DONE) {
		db_rows_fail(db, st, "reading the alert summaries", err);
		db_alerts_release(out);
		return -1;
	}
	if (db_rows_end(db, st, err) < 0) {
		db_alerts_release(out);
		return -1;
	}
	cap = 0;
	st = db_prepare(db, "SELECT id, summary_id, machine, benchmark, config, metric, good, bad,"
			    " change_pct, q, verdict FROM alert ORDER BY id", err);
	if (!st) {
		db_alerts_release(out);
		return -1;
	}
	while ((rc = db_step(st)) == DB_ROW) {
		struct db_alert *a;

		xgrow(&out->alerts, &cap, out->nalerts + 1, sizeof(*out->alerts));
		a = &out->alerts[out->nalerts++];
		a->id = db_col_int(st, 0);
		a->summary_id = db_col_int(st, 1);
		a->machine = col_text0(st, 2);
		a->benchmark = col_text0(st, 3);
		a->config = col_text0(st, 4);
		a->metric = col_text0(st, 5);
		a->good = col_text0(st, 6);
		a->bad = col_text0(st, 7);
		a->change_pct = db_col_double(st, 8);
		a->q = db_col_double(st, 9);
		a->verdict = col_text0(st, 10);
	}
	if (rc != DB_DONE) {
		db_rows_fail(db, st, "reading the alerts", err);
		db_alerts_release(out);
		return -1;
	}
	if (db_rows_end(db, st, err) < 0) {
		db_alerts_release(out);
		return -1;
	}
	return 0;
}

void db_alerts_release(struct db_alerts *a)
{
	size_t i;

	for (i = 0; i < a->nalerts; i++) {
		struct db_alert *x = &a->alerts[i];
		free(x->machine);
		free(x->benchmark);
		free(x->config);
		free(x->metric);
		free(x->good);
		free(x->bad);
		free(x->verdict);
	}
	for (i = 0; i < a->nsummaries; i++) {
		struct db_alert_summary *s = &a->summaries[i];
		free(s->state);
		free(s->note);
		free(s->fixed_by);
		free(s->good);
		free(s->bad);
		free(s->first_seen);
	}
	free(a->alerts);
	free(a->summaries);
	memset(a, 0, sizeof(*a));
}

const struct db_alert_summary *db_alerts_summary(const struct db_alerts *a, long long id)
{
	size_t lo = 0, hi = a->nsummaries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->summaries[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->nsummaries && a->summaries[lo].id == id ? &a->summaries[lo] : NULL;
}

/* Step a statement that returns one id (INSERT/UPDATE ... RETURNING id)
 * into *id (0 when no row came); -1 with err set on failure. */
static int step_id(struct db *db, struct dbst *st, long long *id, const char *what,
		   struct kb_err *err)
{
	int rc = db_step(st);

	*id = 0;
	if (rc == DB_ROW) {
		*id = db_col_int(st, 0);
		rc = db_step(st);
	}
	if (rc != DB_DONE)
		return db_rows_fail(db, st, what, err);
	return db_rows_end(db, st, err);
}

static int save_summary(struct db *db, struct db_alert_summary *s, struct kb_err *err)
{
	struct dbst *st;
	long long id;
	int o = s->id ? 1 : 0;	/* the INSERT has no id: its parameters start at ?1 */

	if (s->id) {
		st = db_prepare(db, "UPDATE alert_summary SET good = ?2, bad = ?3 WHERE id = ?1"
				    " RETURNING id", err);
		if (!st)
			return -1;
		db_bind_int(st, 1, s->id);
	} else {
		st = db_prepare(db, "INSERT INTO alert_summary (good, bad) VALUES (?1, ?2)"
				    " RETURNING id", err);
		if (!st)
			return -1;
	}
	db_bind_text(st, 1 + o, s->good);
	db_bind_text(st, 2 + o, s->bad);
	if (step_id(db, st, &id, "storing an alert summary", err) < 0)
		return -1;
	if (!id)
		return kb_err_set(err, db->path, 0, "alert summary %lld went away while it was stored",
				  s->id);
	s->id = id;
	return 0;
}

static int save_alert(struct db *db, struct db_alert *a, long long summary_id, struct kb_err *err)
{
	struct dbst *st;
	long long id;
	int o = a->id ? 1 : 0;	/* as save_summary() */

	if (a->id) {
		st = db_prepare(db, "UPDATE alert SET summary_id = ?2, machine = ?3, benchmark = ?4,"
				    " config = ?5, metric = ?6, good = ?7, bad = ?8, change_pct = ?9,"
				    " q = ?10, verdict = ?11 WHERE id = ?1 RETURNING id", err);
		if (!st)
			return -1;
		db_bind_int(st, 1, a->id);
	} else {
		st = db_prepare(db, "INSERT INTO alert (summary_id, machine, benchmark, config, metric,"
				    " good, bad, change_pct, q, verdict)"
				    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id", err);
		if (!st)
			return -1;
	}
	db_bind_int(st, 1 + o, summary_id);
	db_bind_text(st, 2 + o, a->machine ? a->machine : "");
	db_bind_text(st, 3 + o, a->benchmark);
	db_bind_text(st, 4 + o, a->config);
	db_bind_text(st, 5 + o, a->metric);
	db_bind_text(st, 6 + o, a->good);
	db_bind_text(st, 7 + o, a->bad);
	db_bind_double(st, 8 + o, a->change_pct);
	db_bind_double(st, 9 + o, a->q);
	db_bind_text(st, 10 + o, a->verdict);
	if (step_id(db, st, &id, "storing an alert", err) < 0)
		return -1;
	if (!id)
		return kb_err_set(err, db->path, 0, "alert %lld went away while it was stored", a->id);
	a->id = id;
	a->summary_id = summary_id;
	return 0;
}

int db_alerts_save(struct db *db, struct db_alert_write *w, struct kb_err *err)
{
	size_t i;
	int rc = 0;

	if (db_begin(db, err) < 0)
		return -1;
	for (i = 0; rc == 0 && i < w->ns; i++)
		rc = save_summary(db, &w->s[i], err);
	for (i = 0; rc == 0 && i < w->na; i++)
		rc = save_alert(db, &w->a[i], w->s[w->summary[i]].id, err);
	if (rc < 0) {
		db_exec(db, "ROLLBACK", NULL);
		return -1;
	}
	return db_exec(db, "COMMIT", err);
}

int db_alert_set_state(struct db *db, long long id, const char *state, const char *note,
		       const char *fixed_by, struct kb_err *err)
{
	struct dbst *st;
	long long got;

	if (db_begin(db, err) < 0)
		return -1;
	st = db_prepare(db, "UPDATE alert_summary SET state = ?2, note = coalesce(?3, note),"
			    " fixed_by = coalesce(?4, fixed_by) WHERE id = ?1 RETURNING id", err);
	if (!st) {
		db_exec(db, "ROLLBACK", NULL);
		return -1;
	}
	db_bind_int(st, 1, id);
	db_bind_text(st, 2, state);
	db_bind_text(st, 3, note);
	db_bind_text(st, 4, fixed_by);
	if (step_id(db, st, &got, "setting an alert's state", err) < 0) {
		db_exec(db, "ROLLBACK", NULL);
		return -1;
	}
	if (!got) {
		db_exec(db, "ROLLBACK", NULL);
		return kb_err_set(err, db->path, 0, "no alert summary %lld (kbench alerts --all lists them)",
				  id);
	}
	return db_exec(db, "COMMIT", err);
}
