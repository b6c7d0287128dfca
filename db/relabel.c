/*
 * relabel.c - fix what inference got wrong, after import: rename or merge
 * variants, move runs to another variant, set the machine of runs.  Each
 * change is one transaction and leaves a row in the relabel table per
 * variant or run it touched (what, when); re-importing a source with
 * --replace plays its rows again (db_relabel_replay()), so a fix is not
 * lost with the rows it fixed.
 *
 * Runs are named in relabel rows by what survives a re-import: the
 * source's SHA-256, the run's first line there, its benchmark and
 * configuration.
 */
#include "db_int.h"
#include "relabel.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step a statement without rows to its end. */
static int done(struct db *db, struct dbst *st, struct kb_err *err)
{
	int rc = db_step(st);

	db_finalize(st);
	if (rc != DB_DONE)
		return kb_err_set(err, db->path, 0, "cannot relabel: %s", db_errmsg(db));
	return 0;
}

/* The id of variant (name, scope), created when absent. */
static long long variant_make(struct db *db, const char *name, const char *scope,
			      struct kb_err *err)
{
	struct dbst *st;
	long long id = -1;
	int rc;

	st = db_prepare(db, "INSERT INTO variant (name, scope, scope_label)"
			    " VALUES (?1, ?2, coalesce((SELECT scope_label FROM variant"
			    " WHERE scope = ?2 AND scope <> '' LIMIT 1), ''))"
			    " ON CONFLICT DO NOTHING", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	db_bind_text(st, 2, scope);
	if (done(db, st, err) < 0)
		return -1;
	st = db_prepare(db, "SELECT id FROM variant WHERE name = ?1 AND scope = ?2", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	db_bind_text(st, 2, scope);
	rc = db_step(st);
	if (rc == DB_ROW)
		id = db_col_int(st, 0);
	db_finalize(st);
	if (id < 0)
		kb_err_set(err, db->path, 0, "cannot create variant '%s'", name);
	return id;
}

static int record(struct db *db, const char *action, const char *detail, const char *sha,
		  long long line, const char *bench, const char *config, const char *metric,
		  const char *from_name, const char *from_scope, const char *to_name,
		  const char *to_scope, const char *machine, struct kb_err *err)
{
	struct dbst *st = db_prepare(db,
		"INSERT INTO relabel (action, detail, source_sha, line, benchmark, config, from_name,"
		" from_scope, to_name, to_scope, machine, metric) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
		" ?8, ?9, ?10, ?11, ?12)", err);

	if (!st)
		return -1;
	db_bind_text(st, 1, action);
	db_bind_text(st, 2, detail);
	db_bind_text(st, 3, sha);
	if (line > 0)
		db_bind_int(st, 4, line);
	db_bind_text(st, 5, bench);
	db_bind_text(st, 6, config);
	db_bind_text(st, 7, from_name);
	db_bind_text(st, 8, from_scope);
	db_bind_text(st, 9, to_name);
	db_bind_text(st, 10, to_scope);
	db_bind_text(st, 11, machine);
	db_bind_text(st, 12, metric);
	return done(db, st, err);
}

/* The id of machine name, created when absent; -1 with err set. */
static long long machine_make(struct db *db, const char *name, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "INSERT INTO machine (name) VALUES (?1) ON CONFLICT DO NOTHING",
				     err);
	long long id = 0;

	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	if (done(db, st, err) < 0)
		return -1;
	st = db_prepare(db, "SELECT id FROM machine WHERE name = ?1", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	if (db_step(st) == DB_ROW)
		id = db_col_int(st, 0);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	if (id <= 0)
		return kb_err_set(err, db->path, 0, "cannot create machine '%s'", name);
	return id;
}

static int begin(struct db *db, struct kb_err *err)
{
	return db_begin(db, err);
}

static int finish(struct db *db, int rc, struct kb_err *err)
{
	if (rc < 0) {
		db_exec(db, "ROLLBACK", NULL);
		return -1;
	}
	return db_exec(db, "COMMIT", err);
}

/* A variant that a relabel created and that holds nothing any more goes
 * again, so moving runs away and back leaves the store as it was. */
static int drop_if_empty(struct db *db, long long id, struct kb_err *err)
{
	struct dbst *st = db_prepare(db,
		"DELETE FROM variant WHERE id = ?1"
		" AND NOT EXISTS (SELECT 1 FROM run WHERE variant_id = ?1)"
		" AND NOT EXISTS (SELECT 1 FROM summary WHERE variant_id = ?1 OR pub_base = ?1)"
		" AND EXISTS (SELECT 1 FROM relabel r WHERE r.action = 'move'"
		"             AND r.to_name = variant.name AND r.to_scope = variant.scope)", err);

	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	return done(db, st, err);
}

int db_relabel_rename(struct db *db, const char *from, const char *to, struct kb_err *err)
{
	char *name = NULL, *scope = NULL;
	struct dbst *st;
	long long id;
	int rc;

	if (!to || !*to)
		return kb_err_set(err, "", 0, "the new name is empty");
	if (begin(db, err) < 0)
		return -1;
	rc = db_variant_find(db, from, &id, &name, &scope, err);
	if (rc == 0) {
		st = db_prepare(db, "SELECT EXISTS (SELECT 1 FROM variant WHERE name = ?1 AND scope = ?2)",
				err);
		rc = st ? 0 : -1;
		if (st) {
			db_bind_text(st, 1, to);
			db_bind_text(st, 2, scope);
			if (db_step(st) == DB_ROW && (int)db_col_int(st, 0))
				rc = kb_err_set(err, "", 0, "variant '%s' exists already: use "
						"'kbench relabel merge %s %s'", to, from, to);
			db_finalize(st);
		}
	}
	if (rc == 0) {
		st = db_prepare(db, "UPDATE variant SET name = ?2 WHERE id = ?1", err);
		rc = st ? 0 : -1;
		if (st) {
			db_bind_int(st, 1, id);
			db_bind_text(st, 2, to);
			rc = done(db, st, err);
		}
	}
	if (rc == 0) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "rename variant %s -> %s", from, to);
		rc = record(db, "rename", buf_str(&b), NULL, 0, NULL, NULL, NULL, name, scope, to, scope,
			    NULL, err);
		buf_release(&b);
	}
	free(name);
	free(scope);
	return finish(db, rc, err);
}

/* Every run and summary of variant from_id goes to to_id. */
static int move_all(struct db *db, long long from_id, long long to_id, struct kb_err *err)
{
	static const char *const sql[] = {
		"UPDATE run SET variant_id = ?2 WHERE variant_id = ?1",
		"UPDATE summary SET variant_id = ?2 WHERE variant_id = ?1",
		"UPDATE summary SET pub_base = ?2 WHERE pub_base = ?1",
	};
	size_t k;

	for (k = 0; k < sizeof(sql) / sizeof(sql[0]); k++) {
		struct dbst *st = db_prepare(db, sql[k], err);
		if (!st)
			return -1;
		db_bind_int(st, 1, from_id);
		db_bind_int(st, 2, to_id);
		if (done(db, st, err) < 0)
			return -1;
	}
	return 0;
}

int db_relabel_merge(struct db *db, const char *from, const char *into, struct kb_err *err)
{
	char *fname = NULL, *fscope = NULL, *tname = NULL, *tscope = NULL;
	long long fid = 0, tid = 0;
	int rc;

	if (begin(db, err) < 0)
		return -1;
	rc = db_variant_find(db, from, &fid, &fname, &fscope, err);
	if (rc == 0)
		rc = db_variant_find(db, into, &tid, &tname, &tscope, err);
	if (rc == 0 && fid == tid)
		rc = kb_err_set(err, "", 0, "'%s' and '%s' are the same variant", from, into);
	if (rc == 0)
		rc = move_all(db, fid, tid, err);
	if (rc == 0) {
		struct dbst *st = db_prepare(db, "DELETE FROM variant WHERE id = ?1", err);
		rc = st ? 0 : -1;
		if (st) {
			db_bind_int(st, 1, fid);
			rc = done(db, st, err);
		}
	}
	if (rc == 0) {
		struct buf b = BUF_INIT;
		buf_printf(&b, "merge variant %s into %s", from, into);
		rc = record(db, "merge", buf_str(&b), NULL, 0, NULL, NULL, NULL, fname, fscope, tname, tscope,
			    NULL, err);
		buf_release(&b);
	}
	free(fname);
	free(fscope);
	free(tname);
	free(tscope);
	return finish(db, rc, err);
}

/* The runs a relabel names: ids, or every run of a source (path or id),
 * or the runs of one segment (SOURCE:LINE, a line inside the segment). */
static const char *const runs_sql =
	"SELECT r.id, src.sha256, r.line, r.benchmark, r.config, v.id, v.name, v.scope,"
	" v.display, m.name, src.path, NULL, m.id FROM run r JOIN source src ON src.id = r.source_id"
	" JOIN variant_v v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id"
	" WHERE (CAST(?1 AS BIGINT) IS NOT NULL AND r.id = ?1)"
	"    OR (CAST(?2 AS TEXT) IS NOT NULL AND (src.path = ?2 OR CAST(src.id AS TEXT) = ?2) AND (CAST(?3 AS BIGINT) IS NULL"
	"        OR EXISTS (SELECT 1 FROM segment g WHERE g.source_id = src.id"
	"                   AND ?3 BETWEEN g.first_line AND g.last_line"
	"                   AND r.line BETWEEN g.first_line AND g.last_line)))"
	" ORDER BY r.id";

/* The published summaries of a source, or of its segment holding ?2. */
static const char *const summaries_sql =
	"SELECT s.id, src.sha256, s.line, s.benchmark, s.config, v.id, v.name, v.scope,"
	" v.display, m.name, src.path, s.metric, m.id FROM summary s JOIN source src ON src.id = s.source_id"
	" JOIN variant_v v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id"
	" WHERE (src.path = ?1 OR CAST(src.id AS TEXT) = ?1) AND (CAST(?2 AS BIGINT) IS NULL"
	"   OR EXISTS (SELECT 1 FROM segment g WHERE g.source_id = src.id"
	"              AND ?2 BETWEEN g.first_line AND g.last_line"
	"              AND s.line BETWEEN g.first_line AND g.last_line))"
	" ORDER BY s.id";

/* A run or a published summary (metric set) that a relabel touches. */
struct run_ref {
	long long id, vid, mid;         /* mid: 0 on no machine */
	char *sha, *bench, *config, *vname, *vscope, *display, *machine, *path, *metric;
	long long line;
};

static void refs_free_one(struct run_ref *r)
{
	free(r->sha);
	free(r->bench);
	free(r->config);
	free(r->vname);
	free(r->vscope);
	free(r->display);
	free(r->machine);
	free(r->path);
	free(r->metric);
}

static void refs_free(struct run_ref *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		refs_free_one(&r[i]);
	free(r);
}

/* Published summaries of two variants moved to one would be two values
 * of one cell: a move takes one variant's (--from). */
static int summaries_one_variant(const struct run_ref *r, size_t n, long long tid, const char *to,
				 struct kb_err *err)
{
	struct buf names = BUF_INIT;
	size_t i, j, nv = 0;

	for (i = 0; i < n; i++) {
		if (!r[i].metric || r[i].vid == tid)
			continue;
		for (j = 0; j < i; j++)
			if (r[j].metric && r[j].vid == r[i].vid)
				break;
		if (j < i)
			continue;
		nv++;
		buf_printf(&names, "%s%s", nv > 1 ? ", " : "", r[i].display);
	}
	if (nv > 1)
		kb_err_set(err, "", 0, "the selection holds published summaries of %zu variants (%s): "
			   "moved together to %s they would be one variant's; take one with --from V",
			   nv, buf_str(&names), to);
	buf_release(&names);
	return nv > 1 ? -1 : 0;
}

/* Append the rows of st (runs_sql's or summaries_sql's columns). */
static int refs_read(struct db *db, struct dbst *st, struct run_ref **out, size_t *n,
		     size_t *cap, struct kb_err *err)
{
	int rc;

	while ((rc = db_step(st)) == DB_ROW) {
		struct run_ref *r;
		xgrow(out, cap, *n + 1, sizeof(**out));
		r = &(*out)[(*n)++];
		r->id = db_col_int(st, 0);
		r->sha = db_col_text(st, 1);
		r->line = db_col_null(st, 2) ? 0 : db_col_int(st, 2);
		r->bench = db_col_text(st, 3);
		r->config = db_col_text(st, 4);
		r->vid = db_col_int(st, 5);
		r->vname = db_col_text(st, 6);
		r->vscope = db_col_text(st, 7);
		r->display = db_col_text(st, 8);
		r->machine = db_col_text(st, 9);
		r->path = db_col_text(st, 10);
		r->metric = db_col_text(st, 11);
		r->mid = db_col_null(st, 12) ? 0 : db_col_int(st, 12);
	}
	return db_rows_end(db, st, err);
}

/* Does the source (path or id) exist? */
static int source_known(struct db *db, const char *source, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT 1 FROM source WHERE path = ?1"
				     " OR CAST(id AS TEXT) = ?1", err);
	int known;

	if (!st)
		return -1;
	db_bind_text(st, 1, source);
	known = db_step(st) == DB_ROW;
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return known;
}

/* The runs, then (for a source or segment) the published summaries, that
 * sel names; an error when it names nothing. */
static int select_runs(struct db *db, const struct db_relabel_runs *sel, struct run_ref **out,
		       size_t *n, struct kb_err *err)
{
	size_t cap = 0, k, npass = sel->nruns ? sel->nruns : 1;
	int known;

	*out = NULL;
	*n = 0;
	for (k = 0; k < npass; k++) {
		struct dbst *st = db_prepare(db, runs_sql, err);
		size_t before = *n;
		if (!st)
			return -1;
		if (sel->nruns)
			db_bind_int(st, 1, sel->runs[k]);
		db_bind_text(st, 2, sel->source);
		if (sel->segment_line > 0)
			db_bind_int(st, 3, sel->segment_line);
		if (refs_read(db, st, out, n, &cap, err) < 0)
			return -1;
		if (sel->nruns && *n == before)
			return kb_err_set(err, "", 0, "no run %lld", sel->runs[k]);
	}
	if (sel->source && !sel->nruns) {
		struct dbst *st = db_prepare(db, summaries_sql, err);
		if (!st)
			return -1;
		db_bind_text(st, 1, sel->source);
		if (sel->segment_line > 0)
			db_bind_int(st, 2, sel->segment_line);
		if (refs_read(db, st, out, n, &cap, err) < 0)
			return -1;
	}
	if (*n && sel->from) {
		long long fid = 0;
		char *fname = NULL, *fscope = NULL;
		size_t keep = 0;

		if (db_variant_find(db, sel->from, &fid, &fname, &fscope, err) < 0)
			return -1;
		free(fname);
		free(fscope);
		for (k = 0; k < *n; k++) {
			if ((*out)[k].vid == fid) {
				(*out)[keep++] = (*out)[k];
				continue;
			}
			refs_free_one(&(*out)[k]);
		}
		*n = keep;
		if (!keep)
			return kb_err_set(err, "", 0, "nothing selected is on variant %s", sel->from);
	}
	if (*n)
		return 0;
	known = sel->source ? source_known(db, sel->source, err) : 1;
	if (known < 0)
		return -1;
	if (!known)
		return kb_err_set(err, "", 0, "no source %s (kbench ls --all lists them)", sel->source);
	if (sel->segment_line > 0)
		return kb_err_set(err, "", 0, "no run or summary in a segment of %s at line %ld",
				  sel->source, sel->segment_line);
	return kb_err_set(err, "", 0, "no run or summary in source %s", sel->source ? sel->source : "-");
}

/* "run 3 (post.txt:83 numa_test tasks=4)" or "summary 7 (post.txt:46
 * kernbench - elapsed)": what a relabel row says it touched. */
static void ref_name(struct buf *b, const struct run_ref *r)
{
	buf_printf(b, "%s %lld (%s:%lld %s %s", r->metric ? "summary" : "run", r->id, r->path,
		   r->line, r->bench, r->config[0] ? r->config : "-");
	if (r->metric)
		buf_printf(b, " %s", r->metric);
	buf_putc(b, ')');
}

/* What a move or machine change did. */
static void count_ref(struct db_relabel_count *cnt, const struct run_ref *r, int changed)
{
	if (!cnt)
		return;
	if (!changed)
		cnt->unchanged++;
	else if (r->metric)
		cnt->summaries++;
	else
		cnt->runs++;
}

int db_relabel_move(struct db *db, const struct db_relabel_runs *sel, const char *to,
		    struct db_relabel_count *cnt, struct kb_err *err)
{
	struct run_ref *refs = NULL;
	char *tname = NULL, *tscope = NULL;
	long long tid = 0;
	size_t n = 0, i;
	int rc;

	if (cnt)
		memset(cnt, 0, sizeof(*cnt));
	if (!to || !*to)
		return kb_err_set(err, "", 0, "move needs --to VARIANT");
	if (begin(db, err) < 0)
		return -1;
	rc = select_runs(db, sel, &refs, &n, err);
	if (rc == 0) {
		struct kb_err e2;
		kb_err_clear(&e2);
		if (db_variant_find(db, to, &tid, &tname, &tscope, &e2) < 0) {
			if (strstr(e2.msg, "ambiguous")) {
				*err = e2;
				rc = -1;
			} else {
				/* A name the user gives is global. */
				tname = xstrdup(to);
				tscope = xstrdup("");
				tid = variant_make(db, to, "", err);
				rc = tid < 0 ? -1 : 0;
			}
		}
	}
	if (rc == 0)
		rc = summaries_one_variant(refs, n, tid, to, err);
	for (i = 0; rc == 0 && i < n; i++) {
		struct buf b = BUF_INIT;
		struct dbst *st;

		count_ref(cnt, &refs[i], refs[i].vid != tid);
		if (refs[i].vid == tid)
			continue;
		st = db_prepare(db, refs[i].metric ? "UPDATE summary SET variant_id = ?2 WHERE id = ?1"
						   : "UPDATE run SET variant_id = ?2 WHERE id = ?1", err);
		if (!st) {
			rc = -1;
			break;
		}
		db_bind_int(st, 1, refs[i].id);
		db_bind_int(st, 2, tid);
		rc = done(db, st, err);
		if (rc < 0)
			break;
		buf_puts(&b, "move ");
		ref_name(&b, &refs[i]);
		buf_printf(&b, " from %s to %s", refs[i].display, to);
		rc = record(db, "move", buf_str(&b), refs[i].sha, refs[i].line, refs[i].bench,
			    refs[i].config, refs[i].metric, refs[i].vname, refs[i].vscope, tname,
			    tscope, NULL, err);
		buf_release(&b);
		if (rc == 0)
			rc = drop_if_empty(db, refs[i].vid, err);
	}
	refs_free(refs, n);
	free(tname);
	free(tscope);
	return finish(db, rc, err);
}

int db_relabel_machine(struct db *db, const struct db_relabel_runs *sel, const char *machine,
		       struct db_relabel_count *cnt, struct kb_err *err)
{
	struct run_ref *refs = NULL;
	size_t n = 0, i;
	long long mid = 0;
	int rc;

	if (cnt)
		memset(cnt, 0, sizeof(*cnt));
	if (!machine || !*machine)
		return kb_err_set(err, "", 0, "the machine name is empty");
	if (begin(db, err) < 0)
		return -1;
	rc = select_runs(db, sel, &refs, &n, err);
	if (rc == 0) {
		mid = machine_make(db, machine, err);
		rc = mid > 0 ? 0 : -1;
	}
	for (i = 0; rc == 0 && i < n; i++) {
		struct buf b = BUF_INIT;
		struct dbst *st;

		count_ref(cnt, &refs[i], refs[i].mid != mid);
		if (refs[i].mid == mid)
			continue;
		st = db_prepare(db, refs[i].metric ? "UPDATE summary SET machine_id = ?2 WHERE id = ?1"
						   : "UPDATE run SET machine_id = ?2 WHERE id = ?1", err);
		if (!st) {
			rc = -1;
			break;
		}
		db_bind_int(st, 1, refs[i].id);
		db_bind_int(st, 2, mid);
		rc = done(db, st, err);
		if (rc < 0)
			break;
		buf_puts(&b, "machine of ");
		ref_name(&b, &refs[i]);
		buf_printf(&b, ": %s -> %s", refs[i].machine ? refs[i].machine : "unknown", machine);
		rc = record(db, "machine", buf_str(&b), refs[i].sha, refs[i].line, refs[i].bench,
			    refs[i].config, refs[i].metric, refs[i].machine, NULL, NULL, NULL, machine,
			    err);
		buf_release(&b);
	}
	refs_free(refs, n);
	return finish(db, rc, err);
}

int db_relabel_list(struct db *db, struct db_relabel **out, size_t *n, struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT id, at, action, detail FROM relabel ORDER BY id", err);
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = db_step(st)) == DB_ROW) {
		struct db_relabel *r;
		xgrow(out, &cap, *n + 1, sizeof(**out));
		r = &(*out)[(*n)++];
		r->id = db_col_int(st, 0);
		r->at = db_col_text(st, 1);
		r->action = db_col_text(st, 2);
		r->detail = db_col_text(st, 3);
	}
	db_finalize(st);
	if (rc != DB_DONE)
		return kb_err_set(err, db->path, 0, "cannot read relabels: %s", db_errmsg(db));
	return 0;
}

void db_relabel_list_free(struct db_relabel *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].at);
		free(r[i].action);
		free(r[i].detail);
	}
	free(r);
}

/* Replay (inside the import's transaction) ------------------------------- */

/* One relabel row as the replay needs it. */
struct replay_row {
	char *action, *bench, *config, *metric, *from_name, *from_scope, *to_name, *to_scope,
		*machine;
	long long line;         /* 0: NULL */
};

static void replay_rows_free(struct replay_row *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].action);
		free(r[i].bench);
		free(r[i].config);
		free(r[i].metric);
		free(r[i].from_name);
		free(r[i].from_scope);
		free(r[i].to_name);
		free(r[i].to_scope);
		free(r[i].machine);
	}
	free(r);
}

/* The id of variant (name, scope), or 0 when there is none. */
static long long variant_find(struct db *db, const char *name, const char *scope,
			      struct kb_err *err)
{
	struct dbst *st = db_prepare(db, "SELECT id FROM variant WHERE name = ?1 AND scope = ?2", err);
	long long id = 0;

	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	db_bind_text(st, 2, scope ? scope : "");
	if (db_step(st) == DB_ROW)
		id = db_col_int(st, 0);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return id;
}

/* Does variant id hold a run or summary of source src? */
static int variant_holds(struct db *db, long long id, long long src, struct kb_err *err)
{
	struct dbst *st = db_prepare(db,
		"SELECT EXISTS (SELECT 1 FROM run WHERE variant_id = ?1 AND source_id = ?2)"
		" OR EXISTS (SELECT 1 FROM summary WHERE variant_id = ?1 AND source_id = ?2)", err);
	int holds = 0;

	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	db_bind_int(st, 2, src);
	if (db_step(st) == DB_ROW)
		holds = (int)db_col_int(st, 0);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	return holds;
}

/* The variant a replayed row sends rows to, made when absent (its id
 * then added to made[], to go again if the replay leaves it empty). */
static long long replay_target(struct db *db, const struct replay_row *r, long long **made,
			       size_t *nmade, size_t *capmade, struct kb_err *err)
{
	long long id = variant_find(db, r->to_name, r->to_scope, err);

	if (id)
		return id;
	id = variant_make(db, r->to_name, r->to_scope ? r->to_scope : "", err);
	if (id > 0) {
		xgrow(made, capmade, *nmade + 1, sizeof(**made));
		(*made)[(*nmade)++] = id;
	}
	return id;
}

/* A rename or merge played on source src: from's rows go to to. */
static int replay_variant(struct db *db, long long from, long long to, long long src,
			  struct kb_err *err)
{
	static const char *const sql[] = {
		"UPDATE run SET variant_id = ?2 WHERE variant_id = ?1 AND source_id = ?3",
		"UPDATE summary SET variant_id = ?2 WHERE variant_id = ?1 AND source_id = ?3",
		"UPDATE summary SET pub_base = ?2 WHERE pub_base = ?1 AND source_id = ?3",
	};
	size_t k;

	for (k = 0; k < sizeof(sql) / sizeof(sql[0]); k++) {
		struct dbst *st = db_prepare(db, sql[k], err);
		if (!st)
			return -1;
		db_bind_int(st, 1, from);
		db_bind_int(st, 2, to);
		db_bind_int(st, 3, src);
		if (done(db, st, err) < 0)
			return -1;
	}
	return 0;
}

/* One relabel row played on the rows of source src. */
static int replay_one(struct db *db, const struct replay_row *r, long long src, long long **made,
		      size_t *nmade, size_t *capmade, struct kb_err *err)
{
	/* A run is matched by what survives a re-import: its first line,
	 * benchmark and configuration; a summary by its line, benchmark,
	 * configuration, metric, and for a move the variant it had (a row
	 * of a side-by-side table holds every variant's). */
	static const char *const where =
		" WHERE source_id = ?2 AND line IS NOT DISTINCT FROM CAST(?3 AS BIGINT)"
		" AND benchmark = ?4 AND config = ?5";
	struct buf q = BUF_INIT;
	long long id, from = 0;
	struct dbst *st;
	int rc;

	if (!strcmp(r->action, "rename") || !strcmp(r->action, "merge")) {
		/* The old variant, as the import made it again. */
		from = variant_find(db, r->from_name, r->from_scope, err);
		if (from <= 0)
			return (int)from;
		rc = variant_holds(db, from, src, err);
		if (rc <= 0)
			return rc;
		id = replay_target(db, r, made, nmade, capmade, err);
		if (id < 0)
			return -1;
		return id == from ? 0 : replay_variant(db, from, id, src, err);
	}
	if (!strcmp(r->action, "move")) {
		if (r->metric) {
			from = variant_find(db, r->from_name, r->from_scope, err);
			if (from <= 0)
				return (int)from;
		}
		id = replay_target(db, r, made, nmade, capmade, err);
		buf_printf(&q, "UPDATE %s SET variant_id = ?1%s", r->metric ? "summary" : "run", where);
		if (r->metric)
			buf_puts(&q, " AND metric = ?6 AND variant_id = ?7");
	} else {
		id = machine_make(db, r->machine, err);
		buf_printf(&q, "UPDATE %s SET machine_id = ?1%s", r->metric ? "summary" : "run", where);
		if (r->metric)
			buf_puts(&q, " AND metric = ?6");
	}
	if (id < 0) {
		buf_release(&q);
		return -1;
	}
	st = db_prepare(db, buf_str(&q), err);
	buf_release(&q);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	db_bind_int(st, 2, src);
	if (r->line > 0)
		db_bind_int(st, 3, r->line);
	db_bind_text(st, 4, r->bench);
	db_bind_text(st, 5, r->config);
	if (r->metric)
		db_bind_text(st, 6, r->metric);
	if (from)
		db_bind_int(st, 7, from);
	return done(db, st, err);
}

int db_relabel_replay(struct db *db, const char *sha, struct kb_err *err)
{
	struct replay_row *rows = NULL;
	long long src = 0, *made = NULL;
	size_t n = 0, cap = 0, nmade = 0, capmade = 0, i;
	struct dbst *st;
	int rc;

	st = db_prepare(db, "SELECT id FROM source WHERE sha256 = ?1", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, sha);
	if (db_step(st) == DB_ROW)
		src = db_col_int(st, 0);
	if (db_rows_end(db, st, err) < 0)
		return -1;
	if (!src)
		return 0;
	/* Every change in the order it was made: a rename then a merge of
	 * the new name, or a move to a variant renamed later, end where
	 * they ended the first time. */
	st = db_prepare(db, "SELECT action, line, benchmark, config, metric, from_name, from_scope,"
			" to_name, to_scope, machine FROM relabel"
			" WHERE action IN ('rename', 'merge') OR source_sha = ?1 ORDER BY id", err);
	if (!st)
		return -1;
	db_bind_text(st, 1, sha);
	while ((rc = db_step(st)) == DB_ROW) {
		struct replay_row *r;
		xgrow(&rows, &cap, n + 1, sizeof(*rows));
		r = &rows[n++];
		r->action = db_col_text(st, 0);
		r->line = db_col_null(st, 1) ? 0 : db_col_int(st, 1);
		r->bench = db_col_text(st, 2);
		r->config = db_col_text(st, 3);
		r->metric = db_col_text(st, 4);
		r->from_name = db_col_text(st, 5);
		r->from_scope = db_col_text(st, 6);
		r->to_name = db_col_text(st, 7);
		r->to_scope = db_col_text(st, 8);
		r->machine = db_col_text(st, 9);
	}
	rc = db_rows_end(db, st, err);
	for (i = 0; rc == 0 && i < n; i++)
		rc = replay_one(db, &rows[i], src, &made, &nmade, &capmade, err);
	/* The variants the replay went through on the way (a name renamed,
	 * then merged away) and the old names the import made again go, once
	 * they hold nothing. */
	for (i = 0; rc == 0 && i < nmade; i++) {
		st = db_prepare(db, "DELETE FROM variant WHERE id = ?1"
				" AND NOT EXISTS (SELECT 1 FROM run WHERE variant_id = ?1)"
				" AND NOT EXISTS (SELECT 1 FROM summary WHERE variant_id = ?1 OR pub_base = ?1)", err);
		rc = st ? 0 : -1;
		if (st) {
			db_bind_int(st, 1, made[i]);
			rc = done(db, st, err);
		}
	}
	if (rc == 0)
		rc = db_exec(db, "DELETE FROM variant WHERE NOT EXISTS (SELECT 1 FROM run WHERE variant_id = variant.id)"
			     " AND NOT EXISTS (SELECT 1 FROM summary WHERE variant_id = variant.id OR pub_base = variant.id)"
			     " AND EXISTS (SELECT 1 FROM relabel l WHERE l.action IN ('rename', 'merge')"
			     "   AND l.from_name = variant.name AND l.from_scope = variant.scope)", err);
	replay_rows_free(rows, n);
	free(made);
	return rc;
}
