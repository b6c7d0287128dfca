/*
 * store.c - writes parsed source files (rec_batches): each file imports
 * completely or not at all, and consecutive files share a transaction
 * (see group.c).  Identical bytes imported before are
 * recognised by their SHA-256 and change nothing unless the caller asks
 * to replace them.
 */
#include "db_int.h"
#include "group.h"
#include "relabel.h"
#include "../core/buf.h"
#include "../core/hidx.h"
#include "../core/num.h"
#include "../core/util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The statements; the first ones' text is the backend's (ops->sql). */
enum {
	S_INS_SOURCE = DB_SQL_INS_SOURCE, S_INS_VARIANT = DB_SQL_INS_VARIANT,
	S_INS_MACHINE = DB_SQL_INS_MACHINE,
	S_FIND_SOURCE = DB_SQL_COUNT, S_DEL_SAMPLES, S_DEL_JOBS, S_DEL_RUNS, S_DEL_SUMMARIES,
	S_DEL_ENV, S_DEL_SOURCE, S_GET_VARIANT, S_SET_VDESC, S_SET_VKERNEL, S_GET_MACHINE,
	S_HAS_METRIC, S_INS_METRIC, S_DEL_SEGMENTS, S_SET_MACHINE_HW, S_INS_ENV, S_COUNT
};

/* The backends' own statements have the slots after these. */
_Static_assert(S_COUNT <= DB_SLOT_BACKEND, "store.c's statements overlap the backend's");

static const char *const sql[S_COUNT] = {
	[S_FIND_SOURCE] = "SELECT id, path FROM source WHERE sha256 = ?1",
	/* A source and what it holds, children first: the import connection
	 * does not enforce foreign keys (see begin() in group.c), so nothing cascades. */
	[S_DEL_SAMPLES] = "DELETE FROM sample WHERE run_id IN (SELECT id FROM run WHERE source_id = ?1)",
	[S_DEL_JOBS] = "DELETE FROM job WHERE run_id IN (SELECT id FROM run WHERE source_id = ?1)",
	[S_DEL_RUNS] = "DELETE FROM run WHERE source_id = ?1",
	[S_DEL_SUMMARIES] = "DELETE FROM summary WHERE source_id = ?1",
	[S_DEL_ENV] = "DELETE FROM env WHERE source_id = ?1",
	[S_DEL_SOURCE] = "DELETE FROM source WHERE id = ?1",
	[S_GET_VARIANT] = "SELECT id FROM variant WHERE name = ?1 AND scope = ?2",
	[S_SET_VDESC] = "UPDATE variant SET description = ?2 WHERE id = ?1 "
			"AND (description IS NULL OR description = '')",
	[S_SET_VKERNEL] = "UPDATE variant SET kernel = ?2 WHERE id = ?1 "
			  "AND (kernel IS NULL OR ?3)",
	[S_GET_MACHINE] = "SELECT id FROM machine WHERE name = ?1",
	/* Two key lookups: an IN list or INSERT ... SELECT from the same table
	 * would make SQLite build ephemeral tables on every call (once per sample). */
	[S_HAS_METRIC] = "SELECT EXISTS (SELECT 1 FROM metric WHERE benchmark = ?1 AND name = ?2) "
			  "OR EXISTS (SELECT 1 FROM metric WHERE benchmark = '' AND name = ?2)",
	[S_INS_METRIC] = "INSERT INTO metric (benchmark, name, unit, better, description)"
			  " VALUES (?1, ?2, ?3, ?4, ?5)"
			  " ON CONFLICT DO NOTHING",
	[S_DEL_SEGMENTS] = "DELETE FROM segment WHERE source_id = ?1",
	/* numactl -H: the machine's CPUs and nodes as its latest text says */
	[S_SET_MACHINE_HW] = "UPDATE machine SET cpus = COALESCE(?2, cpus), nodes = COALESCE(?3, nodes),"
			     " description = COALESCE(?4, description) WHERE id = ?1",
	/* kbench run: the environment the source's runs ran in */
	[S_INS_ENV] = "INSERT INTO env (source_id, key, value) VALUES (?1, ?2, ?3)",
};

static struct dbst *stmt(struct db *db, int slot, struct kb_err *err)
{
	return db_cached(db, slot, slot < DB_SQL_COUNT ? db->ops->sql[slot] : sql[slot], err);
}

/* Run an insert of ops->sql that may give the id: 1 and *id set, 0 when
 * it gave no row (look it up), -1 with err set. */
static int insert_id(struct db *db, struct dbst *st, long long *id, struct kb_err *err)
{
	int rc = db_step(st);

	if (rc == DB_ROW) {
		*id = db_col_int(st, 0);
		db_reset(st);
		return 1;
	}
	if (rc != DB_DONE)
		return db_fail(db, err, "cannot store");
	db_reset(st);
	return 0;
}

/* Run a write statement to completion. */
static int step_done(struct db *db, struct dbst *st, struct kb_err *err)
{
	if (db_step(st) != DB_DONE)
		return db_fail(db, err, "cannot store");
	return 0;
}

static long long get_id(struct db *db, int ins, int get, const char *name, struct kb_err *err)
{
	struct dbst *st = stmt(db, ins, err);
	long long id;
	int rc;

	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	rc = insert_id(db, st, &id, err);
	if (rc != 0)
		return rc < 0 ? -1 : id;
	st = stmt(db, get, err);
	if (!st)
		return -1;
	db_bind_text(st, 1, name);
	if (db_step(st) != DB_ROW)
		return db_fail(db, err, "cannot find what was just stored");
	id = db_col_int(st, 0);
	/* Not left on its row: a statement on a row keeps its read open
	 * (and, after an error, the error) past the transaction's end. */
	db_reset(st);
	return id;
}

/* Variant names seen in this batch, with their ids. */
struct vcache {
	const char *name;
	const char *scope;
	long long id;
};

struct store_state {
	struct db *db;
	const struct db_import *imp;
	struct rec_batch *b;
	long long source_id, machine_id;
	const char *scope;      /* '' (names are global) or the source's SHA-256 */
	char *scope_label;      /* owned */
	int label_taken;        /* another post shows the label (the source's insert says) */
	unsigned char *skip_run, *skip_sum;     /* already stored from another source */
	struct mcache { const char *name; long long id; } *mc;  /* machines of this file */
	size_t nmc, mccap;
	struct vcache *v;
	size_t nv, vcap;
	struct iter_key { const char *variant, *bench, *config; int n; } *keys;
	size_t nkeys, keys_cap;
	/* Hash indexes of v, mc, keys and the batch's legends (b->variants):
	 * a lookup per row, not a search (a post of one variant per block
	 * made storing quadratic). */
	struct hidx vidx, mcidx, keyidx, legidx, namedidx;
	int legidx_built;
	struct db_bulk rows[DB_T_COUNT];        /* waiting for the backend's bulk path */
	struct buf json;        /* a job's or summary's JSON, on its way into rows */
};

static size_t leg_hash(const void *arr, size_t i)
{
	return str_hash_add(STR_HASH_INIT, ((const struct rec_variant *)arr)[i].name);
}

static int leg_eq(const void *arr, size_t i, const void *key)
{
	return strcmp(((const struct rec_variant *)arr)[i].name, key) == 0;
}

/* The batch's legend entry for name (the first, when several), or NULL. */
static const struct rec_variant *legend(struct store_state *s, const char *name)
{
	const struct rec_batch *b = s->b;
	size_t i;

	if (!s->legidx_built) {
		for (i = 0; i < b->nvariants; i++) {
			size_t h = leg_hash(b->variants, i);

			if (hidx_find(&s->legidx, h, b->variants, b->variants[i].name, leg_eq) ==
			    (size_t)-1)
				hidx_add(&s->legidx, h, i, b->variants, leg_hash);
		}
		s->legidx_built = 1;
	}
	i = hidx_find(&s->legidx, str_hash_add(STR_HASH_INIT, name), b->variants, name, leg_eq);
	return i == (size_t)-1 ? NULL : &b->variants[i];
}

struct vkey { const char *name, *scope; };

static size_t v_hash(const void *arr, size_t i)
{
	const struct vcache *v = &((const struct vcache *)arr)[i];

	return str_hash_add(str_hash_add(STR_HASH_INIT, v->name), v->scope);
}

static int v_eq(const void *arr, size_t i, const void *key)
{
	const struct vcache *v = &((const struct vcache *)arr)[i];
	const struct vkey *k = key;

	return strcmp(v->name, k->name) == 0 && strcmp(v->scope, k->scope) == 0;
}

static size_t vname_hash(const void *arr, size_t i)
{
	return str_hash_add(STR_HASH_INIT, ((const struct vcache *)arr)[i].name);
}

static int vname_eq(const void *arr, size_t i, const void *key)
{
	return strcmp(((const struct vcache *)arr)[i].name, key) == 0;
}

static size_t mc_hash(const void *arr, size_t i)
{
	return str_hash_add(STR_HASH_INIT, ((const struct mcache *)arr)[i].name);
}

static int mc_eq(const void *arr, size_t i, const void *key)
{
	return strcmp(((const struct mcache *)arr)[i].name, key) == 0;
}

static size_t key_hash3(const char *variant, const char *bench, const char *config)
{
	return str_hash_add(str_hash_add(str_hash_add(STR_HASH_INIT, variant), bench), config);
}

static size_t key_hash(const void *arr, size_t i)
{
	const struct iter_key *k = &((const struct iter_key *)arr)[i];

	return key_hash3(k->variant, k->bench, k->config);
}

static int key_eq(const void *arr, size_t i, const void *key)
{
	const struct iter_key *k = &((const struct iter_key *)arr)[i], *q = key;

	return strcmp(k->variant, q->variant) == 0 && strcmp(k->bench, q->bench) == 0 &&
	       strcmp(k->config, q->config) == 0;
}

/* Give variant id its description unless it has one already. */
static int describe_variant(struct db *db, long long id, const char *desc, struct kb_err *err)
{
	struct dbst *st = stmt(db, S_SET_VDESC, err);

	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	db_bind_text(st, 2, desc);
	return step_done(db, st, err);
}

static long long variant_id(struct store_state *s, const char *name, const char *desc,
			    const char *scope, struct kb_err *err)
{
	struct group *g = s->db->group;
	const struct rec_variant *lg;
	struct dbst *st;
	long long id, *known;
	unsigned at;
	int rc;
	struct vkey key = { name, scope };
	size_t h = str_hash_add(str_hash_add(STR_HASH_INIT, name), scope);
	size_t i = hidx_find(&s->vidx, h, s->v, &key, v_eq);

	if (i != (size_t)-1)
		return s->v[i].id;
	known = db_known_find(&g->var, name, scope, &at);
	if (known) {
		id = *known;
	} else {
		st = stmt(s->db, S_INS_VARIANT, err);
		if (!st)
			return -1;
		db_bind_text(st, 1, name);
		db_bind_text(st, 2, scope);
		db_bind_text(st, 3, scope[0] ? s->scope_label : "");
		rc = insert_id(s->db, st, &id, err);
		if (rc < 0)
			return -1;
		if (rc > 0)
			goto have_id;
		st = stmt(s->db, S_GET_VARIANT, err);
		if (!st)
			return -1;
		db_bind_text(st, 1, name);
		db_bind_text(st, 2, scope);
		if (db_step(st) != DB_ROW)
			return db_fail(s->db, err, "cannot find what was just stored");
		id = db_col_int(st, 0);
		db_reset(st);
have_id:
		db_known_add(&g->var, name, scope, id);
	}
	lg = legend(s, name);
	if (!desc && lg)
		desc = lg->description;
	if (desc && describe_variant(s->db, id, desc, err) < 0)
		return -1;
	if (s->imp->kernel || (lg && lg->kernel)) {
		st = stmt(s->db, S_SET_VKERNEL, err);
		if (!st)
			return -1;
		db_bind_int(st, 1, id);
		db_bind_text(st, 2, s->imp->kernel ? s->imp->kernel : lg->kernel);
		db_bind_int(st, 3, s->imp->kernel != NULL);
		if (step_done(s->db, st, err) < 0)
			return -1;
	}
	xgrow(&s->v, &s->vcap, s->nv + 1, sizeof(*s->v));
	s->v[s->nv].name = name;
	s->v[s->nv].scope = scope;
	s->v[s->nv].id = id;
	hidx_add(&s->vidx, h, s->nv, s->v, v_hash);
	s->nv++;
	return id;
}

static const char *pick_variant(const struct db_import *imp, const char *own)
{
	if (imp->variant)
		return imp->variant;
	if (own)
		return own;
	if (imp->variant_fallback && imp->variant_fallback[0])
		return imp->variant_fallback;
	return "unknown";
}

/* The id of the machine a run ran on (0: unknown): --machine, else what
 * the text or the tree said. */
static long long named_machine(struct store_state *s, const char *name, struct kb_err *err);

static long long run_machine(struct store_state *s, const struct rec_run *r, struct kb_err *err)
{
	return named_machine(s, s->imp->machine ? s->imp->machine : r->machine, err);
}

/* The id of machine name (0 for none), made when the store has none. */
static long long named_machine(struct store_state *s, const char *name, struct kb_err *err)
{
	long long id;
	size_t i, h;

	if (!name || !name[0])
		return 0;
	h = str_hash_add(STR_HASH_INIT, name);
	i = hidx_find(&s->mcidx, h, s->mc, name, mc_eq);
	if (i != (size_t)-1)
		return s->mc[i].id;
	id = get_id(s->db, S_INS_MACHINE, S_GET_MACHINE, name, err);
	if (id < 0)
		return -1;
	xgrow(&s->mc, &s->mccap, s->nmc + 1, sizeof(*s->mc));
	s->mc[s->nmc].name = name;
	s->mc[s->nmc].id = id;
	hidx_add(&s->mcidx, h, s->nmc, s->mc, mc_hash);
	s->nmc++;
	return id;
}

static int next_iteration(struct store_state *s, const char *variant, const struct rec_run *r)
{
	struct iter_key q = { variant, r->benchmark, r->config_str, 0 };
	size_t h = key_hash3(variant, r->benchmark, r->config_str);
	size_t i = hidx_find(&s->keyidx, h, s->keys, &q, key_eq);

	if (i != (size_t)-1)
		return ++s->keys[i].n;
	xgrow(&s->keys, &s->keys_cap, s->nkeys + 1, sizeof(*s->keys));
	q.n = 1;
	s->keys[s->nkeys] = q;
	hidx_add(&s->keyidx, h, s->nkeys, s->keys, key_hash);
	return s->keys[s->nkeys++].n;
}

/* Catalogue a metric unless it is there for this benchmark or for all
 * ('' rows); a new one takes the direction its parser declared for it
 * (rec_metric_declare), else it is 'lower' better when its unit is a
 * time.  The
 * pairs seen in this transaction are remembered, so most files ask
 * SQLite nothing. */
static int note_metric(struct store_state *s, const char *bench, const char *metric,
		       const char *unit, struct kb_err *err)
{
	static const char *const times[] = { "s", "msec", "ms", "us", "usec", "ns" };
	struct db *db = s->db;
	struct group *g = db->group;
	const char *better = "none";
	struct dbst *st;
	unsigned at;
	size_t i;
	int have;

	if (db_known_find(&g->met, bench, metric, &at))
		return 0;
	st = stmt(db, S_HAS_METRIC, err);
	if (!st)
		return -1;
	db_bind_text(st, 1, bench);
	db_bind_text(st, 2, metric);
	if (db_step(st) != DB_ROW)
		return db_fail(db, err, "cannot read the metric catalogue");
	have = (int)db_col_int(st, 0);
	db_reset(st);
	if (!have) {
		const struct rec_metric *decl = NULL;
		unit = unit ? unit : "";
		for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
			if (strcmp(unit, times[i]) == 0)
				better = "lower";
		for (i = 0; i < s->b->nmetrics && !decl; i++)
			if (!strcmp(s->b->metrics[i].name, metric) &&
			    (!s->b->metrics[i].benchmark[0] || !strcmp(s->b->metrics[i].benchmark, bench)))
				decl = &s->b->metrics[i];
		if (decl)
			better = decl->better;
		st = stmt(db, S_INS_METRIC, err);
		if (!st)
			return -1;
		db_bind_text(st, 1, bench);
		db_bind_text(st, 2, metric);
		db_bind_text(st, 3, unit);
		db_bind_text(st, 4, better);
		db_bind_text(st, 5, decl && decl->description[0] ? decl->description : NULL);
		if (step_done(db, st, err) < 0)
			return -1;
	}
	db_known_add(&g->met, bench, metric, 0);
	return 0;
}

/* Append v to the JSON text in out: the shortest decimal that reads back
 * as v (percentages are printed with one or two decimals, so try those
 * first), or null for NaN. */
static void json_number(struct buf *out, double v)
{
	char tmp[32];
	int d, scale;

	if (!isfinite(v)) {
		buf_puts(out, "null");
		return;
	}
	for (d = 0, scale = 1; d < 3 && fabs(v) < 1e12; d++, scale *= 10) {
		double k = nearbyint(v * scale);
		if (k / scale == v) {
			/* |k|'s digits, least significant first, at least d + 1 of
			 * them; the point goes d digits from the right. */
			unsigned long long a = (unsigned long long)llabs((long long)k);
			char digits[24], *p = tmp;
			int n = 0, x;
			do {
				digits[n++] = (char)('0' + a % 10);
				a /= 10;
			} while (a);
			while (n < d + 1)
				digits[n++] = '0';
			if (k < 0)
				*p++ = '-';
			for (x = n - 1; x >= d; x--)
				*p++ = digits[x];
			*p++ = '.';
			if (d == 0)
				*p++ = '0';
			for (x = d - 1; x >= 0; x--)
				*p++ = digits[x];
			*p = '\0';
			buf_puts(out, tmp);
			return;
		}
	}
	num_format(v, tmp);
	buf_puts(out, tmp);
}

/* Append the JSON array of a job's per-node percentages to out, NUL
 * ended; returns where it starts, or SIZE_MAX (nothing added) for a job
 * without placement. */
static size_t placement_json(struct buf *out, const struct rec_job *j)
{
	size_t at = out->len;
	int k;

	if (j->nnodes <= 0)
		return SIZE_MAX;
	buf_putc(out, '[');
	for (k = 0; k < j->nnodes; k++) {
		if (k)
			buf_putc(out, ',');
		json_number(out, j->pct[k]);
	}
	buf_putc(out, ']');
	buf_putc(out, '\0');
	return at;
}

/* A summary's other statistics as a JSON object {"name":value,...} in
 * out, NUL-ended; returns where it starts, or SIZE_MAX when it has none. */
static size_t stats_json(struct buf *out, const struct rec_summary *sm)
{
	size_t at = out->len, i;
	const unsigned char *c;

	if (!sm->nstats)
		return SIZE_MAX;
	buf_putc(out, '{');
	for (i = 0; i < sm->nstats; i++) {
		buf_puts(out, i ? ",\"" : "\"");
		for (c = (const unsigned char *)sm->stats[i].name; *c; c++) {
			if (*c == '"' || *c == '\\')
				buf_putc(out, '\\');
			if (*c < 0x20)
				buf_printf(out, "\\u%04x", *c);
			else
				buf_putc(out, (char)*c);
		}
		buf_puts(out, "\":");
		json_number(out, sm->stats[i].value);
	}
	buf_putc(out, '}');
	buf_putc(out, '\0');
	return at;
}

/* The job of r numbered job, or NULL. */
static const struct rec_job *find_job(const struct rec_run *r, int job)
{
	size_t i;

	if (job >= 1 && (size_t)job <= r->njobs && r->jobs[job - 1].job == job)
		return &r->jobs[job - 1];
	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].job == job)
			return &r->jobs[i];
	return NULL;
}

/* A per-job 'user' sample that repeats its job row's user time: the job
 * row stores it, and the views and queries show it as a sample. */
static int in_job_row(const struct rec_run *r, const struct rec_sample *sm)
{
	const struct rec_job *j;

	if (sm->job <= 0 || strcmp(sm->metric, "user") != 0 || strcmp(sm->unit, "s") != 0)
		return 0;
	j = find_job(r, sm->job);
	return j && j->user == sm->value;
}

/*
 * A file's rows wait in s->rows for the backend's bulk path (multi-row
 * INSERTs, COPY): up to ops->bulk->batch rows a table (0: until the file
 * is done).  Runs are numbered by the store (ops->bulk->next_run_id), so
 * their rows can wait too; a table's rows are written after the runs
 * waiting, so a row's run is there before it.
 */
static int rows_added(struct store_state *s, int table, struct kb_err *err)
{
	size_t batch = s->db->ops->bulk->batch;

	if (!batch || db_bulk_count(&s->rows[table]) < batch)
		return 0;
	if (table != DB_T_RUN && db_bulk_write(s->db, &s->rows[DB_T_RUN], err) < 0)
		return -1;
	return db_bulk_write(s->db, &s->rows[table], err);
}

/* Every row still waiting, in table order (runs before their rows). */
static int rows_flush(struct store_state *s, struct kb_err *err)
{
	int t;

	for (t = 0; t < DB_T_COUNT; t++)
		if (db_bulk_write(s->db, &s->rows[t], err) < 0)
			return -1;
	return 0;
}

/* JSON text of json_fn's, copied into r (NULL when there is none). */
static void put_json(struct db_bulk *r, struct buf *json, size_t at)
{
	db_bulk_text(r, at == SIZE_MAX ? NULL : json->data + at);
	buf_reset(json);
}

static int store_run(struct store_state *s, struct rec_run *r, struct db_import_result *res,
		     struct kb_err *err)
{
	const char *vname = pick_variant(s->imp, r->variant);
	/* A name the text gave is the post's; --variant, a result tree's, and
	 * the source's own name (nothing named the runs) are global. */
	long long vid = variant_id(s, vname, s->imp->variant ? NULL : r->variant_desc,
				   r->variant && !s->imp->variant ? s->scope : "", err);
	struct db_bulk *rr = &s->rows[DB_T_RUN];
	long long run_id, mid;
	size_t i;

	if (vid < 0)
		return -1;
	mid = run_machine(s, r, err);
	if (mid < 0)
		return -1;
	/* as many as the file has runs, asked for at once */
	run_id = s->db->ops->bulk->next_run_id(s->db, s->b->nruns, err);
	if (run_id < 0)
		return -1;
	db_bulk_int(rr, run_id);
	db_bulk_int(rr, s->source_id);
	db_bulk_int(rr, vid);
	db_bulk_positive(rr, mid);
	db_bulk_static(rr, r->benchmark);
	db_bulk_static(rr, r->config_str);
	db_bulk_int(rr, r->iteration > 0 ? r->iteration : next_iteration(s, vname, r));
	db_bulk_static(rr, r->failed ? "failed" : "ok");
	db_bulk_static(rr, r->failed ? r->error : NULL);
	db_bulk_int(rr, r->line);
	if (rows_added(s, DB_T_RUN, err) < 0)
		return -1;
	res->runs++;
	if (r->failed)
		res->failed_runs++;
	for (i = 0; i < r->nsamples; i++) {
		const struct rec_sample *sm = &r->samples[i];
		struct db_bulk *sr = &s->rows[DB_T_SAMPLE];
		if (!isfinite(sm->value))
			continue;
		res->samples++;
		if (in_job_row(r, sm))
			continue;
		db_bulk_int(sr, run_id);
		db_bulk_static(sr, sm->metric);
		db_bulk_real(sr, sm->value);
		db_bulk_static(sr, sm->unit);
		db_bulk_positive(sr, sm->job);
		if (rows_added(s, DB_T_SAMPLE, err) < 0 ||
		    note_metric(s, r->benchmark, sm->metric, sm->unit, err) < 0)
			return -1;
	}
	for (i = 0; i < r->njobs; i++) {
		const struct rec_job *j = &r->jobs[i];
		struct db_bulk *jr = &s->rows[DB_T_JOB];
		db_bulk_int(jr, run_id);
		db_bulk_int(jr, j->job);
		db_bulk_int(jr, j->initial_node);
		db_bulk_int(jr, j->main_node);
		db_bulk_int(jr, j->moved);
		db_bulk_int(jr, j->marked);
		db_bulk_real(jr, j->user);
		put_json(jr, &s->json, placement_json(&s->json, j));
		if (rows_added(s, DB_T_JOB, err) < 0)
			return -1;
		res->jobs++;
	}
	return 0;
}

static int store_summary(struct store_state *s, const struct rec_summary *sm,
			 struct db_import_result *res, struct kb_err *err)
{
	long long vid = variant_id(s, pick_variant(s->imp, sm->variant),
				   s->imp->variant ? NULL : sm->variant_desc,
				   sm->variant && !s->imp->variant ? s->scope : "", err);
	long long mid = s->machine_id, pbid = 0;
	struct db_bulk *r = &s->rows[DB_T_SUMMARY];

	if (vid < 0)
		return -1;
	/* the variant the table's own change is against, named as the
	 * summary's own is (none under --variant: one variant for all) */
	if (sm->pub_base && !s->imp->variant && sm->variant) {
		pbid = variant_id(s, sm->pub_base, NULL, s->scope, err);
		if (pbid < 0)
			return -1;
		if (pbid == vid)
			pbid = 0;
	}
	/* a summary the text places on a machine of its own ("on a 4 node
	 * machine"), unless --machine names one for the whole file */
	if (sm->machine && !s->imp->machine && (mid = named_machine(s, sm->machine, err)) < 0)
		return -1;
	db_bulk_int(r, s->source_id);
	db_bulk_int(r, vid);
	db_bulk_positive(r, mid);
	db_bulk_static(r, sm->benchmark);
	db_bulk_static(r, sm->config_str ? sm->config_str : "");
	db_bulk_static(r, sm->metric);
	db_bulk_real(r, sm->mean);
	db_bulk_real(r, sm->sd);
	db_bulk_positive(r, sm->n);
	db_bulk_real(r, sm->min);
	db_bulk_real(r, sm->max);
	db_bulk_static(r, sm->unit);
	db_bulk_static(r, sm->flags ? sm->flags : "");
	db_bulk_int(r, sm->line);
	db_bulk_real(r, sm->pub_change);
	db_bulk_static(r, sm->pub_mark ? sm->pub_mark : "");
	put_json(r, &s->json, stats_json(&s->json, sm));
	db_bulk_positive(r, pbid);
	if (rows_added(s, DB_T_SUMMARY, err) < 0 ||
	    note_metric(s, sm->benchmark, sm->metric, sm->unit, err) < 0)
		return -1;
	res->summaries++;
	return 0;
}

/* How many numbers a segment holds: a copy of a lone "Time: 5.039" may
 * be a coincidence, a copy of a table or a job block is not. */
static size_t segment_numbers(const struct rec_batch *b, const struct rec_segment *sg)
{
	size_t i, n = sg->nsums;

	for (i = sg->run_first; i < sg->run_first + sg->nruns && i < b->nruns; i++)
		n += b->runs[i]->nsamples + b->runs[i]->njobs;
	return n;
}

/*
 * The same output seen twice is stored once.  A segment whose normalised
 * text another source carried before (a reply quoting a post, the same
 * attachment in another encoding, a copied file), or an earlier segment
 * of this file carried, is a copy: its runs and summaries are not
 * stored, and the segment row says which source had it first.  Files of
 * a result tree are not checked against each other: there the path is
 * part of the measurement, and two runs may print the same few numbers.
 */
static int cmp_seg_hash(const void *a, const void *b, void *arg)
{
	const struct rec_batch *batch = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(batch->segments[x].hash, batch->segments[y].hash);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/* Mark the segments of this file that repeat an earlier one of it. */
static void copies_within(const struct rec_batch *b, long long source_id, long long *copy_of)
{
	size_t k, *order, *stretch;

	/* Sorted by hash (then place), the first of each hash is the one kept. */
	order = xcalloc(b->nsegments + 1, sizeof(*order));
	for (k = 0; k < b->nsegments; k++)
		order[k] = k;
	if (b->nsegments > 1)
		qsort_r(order, b->nsegments, sizeof(*order), cmp_seg_hash, (void *)b);
	/* Segments that follow each other with at most a blank line between
	 * are one stretch of output: the same text twice there is the same
	 * result measured twice ("0.00user 0.00system 0:00.01elapsed 64%CPU"
	 * two runs in a row), not a copy. */
	stretch = xcalloc(b->nsegments + 1, sizeof(*stretch));
	for (k = 1; k < b->nsegments; k++)
		stretch[k] = stretch[k - 1] +
			     (b->segments[k].first_line > b->segments[k - 1].last_line + 2);
	for (k = 1; k < b->nsegments; k++)
		if (strcmp(b->segments[order[k - 1]].hash, b->segments[order[k]].hash) == 0 &&
		    stretch[order[k - 1]] != stretch[order[k]])
			copy_of[order[k]] = source_id;
	free(stretch);
	free(order);
}

static int find_copies(struct store_state *s, long long *copy_of,
		       struct db_import_result *res, struct kb_err *err)
{
	struct rec_batch *b = s->b;
	struct db_segq *q;
	size_t k, i, n = 0, *at;
	int rc;

	s->skip_run = xcalloc(b->nruns + 1, 1);
	s->skip_sum = xcalloc(b->nsummaries + 1, 1);
	if (b->global_labels)
		return 0;
	copies_within(b, s->source_id, copy_of);
	/* The others with numbers enough: has another source carried them? */
	for (k = 0; k < b->nsegments; k++)
		if (segment_numbers(b, &b->segments[k]) < 4)
			copy_of[k] = 0;
	q = xcalloc(b->nsegments + 1, sizeof(*q));
	at = xcalloc(b->nsegments + 1, sizeof(*at));
	for (k = 0; k < b->nsegments; k++) {
		if (copy_of[k] || segment_numbers(b, &b->segments[k]) < 4)
			continue;
		q[n].hash = b->segments[k].hash;
		at[n++] = k;
	}
	rc = s->db->ops->bulk->find_copies(s->db, q, n, err);
	for (i = 0; rc == 0 && i < n; i++)
		copy_of[at[i]] = q[i].source;
	for (k = 0, i = 0; rc == 0 && k < b->nsegments; k++) {
		const struct rec_segment *sg = &b->segments[k];
		const char *from = NULL;
		size_t j;

		if (i < n && at[i] == k)
			from = q[i++].path;
		if (!copy_of[k])
			continue;
		if (copy_of[k] == s->source_id)
			from = s->imp->path;
		if (!res->copied_from[0])
			snprintf(res->copied_from, sizeof(res->copied_from), "%s", from ? from : "");
		for (j = sg->run_first; j < sg->run_first + sg->nruns && j < b->nruns; j++)
			s->skip_run[j] = 1;
		for (j = sg->sum_first; j < sg->sum_first + sg->nsums && j < b->nsummaries; j++)
			s->skip_sum[j] = 1;
	}
	for (i = 0; i < n; i++)
		free(q[i].path);
	free(q);
	free(at);
	return rc;
}

static void store_segments(struct store_state *s, const long long *copy_of)
{
	const struct rec_batch *b = s->b;
	struct db_bulk *r = &s->rows[DB_T_SEGMENT];
	size_t k;

	for (k = 0; k < b->nsegments; k++) {
		const struct rec_segment *sg = &b->segments[k];

		db_bulk_int(r, s->source_id);
		db_bulk_int(r, sg->first_line);
		db_bulk_int(r, sg->last_line);
		db_bulk_static(r, sg->format);
		db_bulk_static(r, sg->hash);
		db_bulk_int(r, copy_of[k] ? 0 : (long long)sg->nruns);
		db_bulk_int(r, copy_of[k] ? 0 : (long long)sg->nsums);
		db_bulk_positive(r, copy_of[k]);
	}
}

/* The source's short name, for name@label. */
static const char *scope_label_of(const struct db_import *imp)
{
	return imp->scope_label && imp->scope_label[0] ? imp->scope_label : "stdin";
}

/* Scope of the names this file's text gives: '' when they are global
 * (--variant, --variant-prefix, a result tree), else the source's
 * SHA-256, shown as name@label; the label is the source's short name,
 * with a piece of the hash when another post already shows that label. */
static int set_scope(struct store_state *s, struct kb_err *err)
{
	const struct db_import *imp = s->imp;
	const char *label = scope_label_of(imp);

	s->scope = "";
	s->scope_label = xstrdup("");
	if (imp->variant || imp->global_labels || s->b->global_labels)
		return 0;
	s->scope = imp->sha256;
	free(s->scope_label);
	if (s->label_taken) {       /* asked with the source's insert */
		size_t n = strlen(label) + 10;
		s->scope_label = xmalloc(n);
		snprintf(s->scope_label, n, "%s~%.7s", label, imp->sha256);
	} else {
		s->scope_label = xstrdup(label);
	}
	return 0;
}

/* A machine's hardware as the text describes it (numactl -H): on the
 * machine it names, else the file's (--machine, or the one machine its
 * runs name).  A file that only describes hardware and names no machine
 * is refused: there is nothing to put it on. */
static int store_machine_hw(struct store_state *s, const struct rec_machine *m,
			    struct kb_err *err)
{
	long long mid = s->machine_id;
	struct dbst *st;

	if (m->name && !s->imp->machine && (mid = named_machine(s, m->name, err)) < 0)
		return -1;
	if (mid == 0) {
		if (s->b->nruns || s->b->nsummaries)
			return 0;       /* noted at parse time: nothing names the machine */
		return kb_err_set(err, s->imp->path, m->line, "numactl: the text describes a machine "
				  "(%d nodes, %d CPUs) but does not name it: give --machine NAME",
				  m->nodes, m->cpus);
	}
	st = stmt(s->db, S_SET_MACHINE_HW, err);
	if (!st)
		return -1;
	db_bind_int(st, 1, mid);
	if (m->cpus > 0)
		db_bind_int(st, 2, m->cpus);
	else
		db_bind_null(st, 2);
	if (m->nodes > 0)
		db_bind_int(st, 3, m->nodes);
	else
		db_bind_null(st, 3);
	db_bind_text(st, 4, m->description);
	return step_done(s->db, st, err);
}

/* The settings of the environment the source's runs ran in (kbench run). */
static int store_env(struct store_state *s, const struct rec_env *e, struct kb_err *err)
{
	struct dbst *st = stmt(s->db, S_INS_ENV, err);

	if (!st)
		return -1;
	db_bind_int(st, 1, s->source_id);
	db_bind_text(st, 2, e->key);
	db_bind_text(st, 3, e->value);
	return step_done(s->db, st, err);
}

/* The machine of the file's published summaries: --machine, else the
 * one machine its runs name (a post that says where it ran once). */
static long long summary_machine(struct store_state *s, struct kb_err *err)
{
	const char *name = s->imp->machine;
	size_t i;

	for (i = 0; !name && i < s->b->nruns; i++)
		if (s->b->runs[i]->machine)
			name = s->b->runs[i]->machine;
	for (i = 0; name && i < s->b->nruns; i++)
		if (s->b->runs[i]->machine && strcmp(s->b->runs[i]->machine, name) != 0)
			return 0;
	if (!name)
		return 0;
	return get_id(s->db, S_INS_MACHINE, S_GET_MACHINE, name, err);
}

static int store_all(struct store_state *s, struct db_import_result *res, struct kb_err *err)
{
	struct db *db = s->db;
	const struct db_import *imp = s->imp;
	struct dbst *st;
	long long source_id, *copy_of;
	size_t i;
	int slot, rc, tries;

	for (tries = 0;; tries++) {
		/* A new file (the common case) is one INSERT, which gives no
		 * row when the bytes are there; then look. */
		if (!imp->replace && tries == 0) {
			rc = DB_DONE;
			st = NULL;
		} else {
			st = stmt(db, S_FIND_SOURCE, err);
			if (!st)
				return -1;
			db_bind_text(st, 1, imp->sha256);
			rc = db_step(st);
		}
		if (rc == DB_ROW) {
			long long old = db_col_int(st, 0);
			const char *p = db_col_str(st, 1);
			if (!imp->replace) {
				res->already = 1;
				res->source_id = old;
				snprintf(res->already_path, sizeof(res->already_path), "%s", p ? p : "");
				db_reset(st);
				return 0;
			}
			db_reset(st);
			for (slot = S_DEL_SAMPLES; slot <= S_DEL_SOURCE; slot++) {
				st = stmt(db, slot, err);
				if (!st)
					return -1;
				db_bind_int(st, 1, old);
				if (step_done(db, st, err) < 0)
					return -1;
			}
			st = stmt(db, S_DEL_SEGMENTS, err);
			if (!st)
				return -1;
			db_bind_int(st, 1, old);
			if (step_done(db, st, err) < 0)
				return -1;
		} else if (rc != DB_DONE) {
			return db_fail(db, err, "cannot look up earlier imports");
		} else if (st) {
			db_reset(st);
		}
		st = stmt(db, S_INS_SOURCE, err);
		if (!st)
			return -1;
		db_bind_text(st, 1, imp->path);
		db_bind_text(st, 2, imp->sha256);
		db_bind_int(st, 3, imp->size);
		db_bind_text(st, 4, imp->format ? imp->format : "");
		db_bind_text(st, 5, imp->mail_from);
		db_bind_text(st, 6, imp->mail_date);
		db_bind_text(st, 7, imp->mail_subject);
		db_bind_text(st, 8, imp->message_id);
		db_bind_text(st, 9, scope_label_of(imp));
		rc = db_step(st);
		if (rc == DB_ROW) {
			source_id = db_col_int(st, 0);
			s->label_taken = (int)db_col_int(st, 1);
			db_reset(st);
			break;
		}
		if (rc != DB_DONE)
			return db_fail(db, err, "cannot store");
		db_reset(st);
		/* No row: the bytes are stored (PostgreSQL: maybe by another
		 * importer, committed after the lookup); look again. */
		if (tries)
			return kb_err_set(err, db->path, 0, "cannot store: the source is stored and not found");
	}
	res->source_id = source_id;
	s->source_id = source_id;
	if (set_scope(s, err) < 0)
		return -1;
	s->machine_id = summary_machine(s, err);
	if (s->machine_id < 0)
		return -1;
	copy_of = xcalloc(s->b->nsegments + 1, sizeof(*copy_of));
	rc = find_copies(s, copy_of, res, err);
	for (i = 0; rc == 0 && i < s->b->nruns; i++) {
		if (s->skip_run[i]) {
			res->copied_runs++;
			continue;
		}
		rc = store_run(s, s->b->runs[i], res, err);
	}
	for (i = 0; rc == 0 && i < s->b->nsummaries; i++) {
		if (s->skip_sum[i]) {
			res->copied_summaries++;
			continue;
		}
		rc = store_summary(s, s->b->summaries[i], res, err);
	}
	if (rc == 0)
		store_segments(s, copy_of);
	free(copy_of);
	for (i = 0; rc == 0 && i < s->b->nmachines; i++)
		rc = store_machine_hw(s, &s->b->machines[i], err);
	for (i = 0; rc == 0 && i < s->b->nenv; i++)
		rc = store_env(s, &s->b->env[i], err);
	if (rc < 0)
		return -1;
	/* Each file writes its own, so that a refused row fails its own
	 * file, and the files before it stay. */
	if (rows_flush(s, err) < 0)
		return -1;
	/* What 'kbench relabel' changed in the rows just replaced holds again. */
	if (imp->replace && db_relabel_replay(db, imp->sha256, err) < 0)
		return -1;
	/* Legends for variants that own no run here still get described. */
	if (s->b->nvariants && !imp->variant) {
		/* the names stored, by name alone (any scope) */
		size_t k;

		for (k = 0; k < s->nv; k++) {
			size_t h = str_hash_add(STR_HASH_INIT, s->v[k].name);

			if (hidx_find(&s->namedidx, h, s->v, s->v[k].name, vname_eq) == (size_t)-1)
				hidx_add(&s->namedidx, h, k, s->v, vname_hash);
		}
	}
	for (i = 0; i < s->b->nvariants && !imp->variant; i++) {
		const struct rec_variant *v = &s->b->variants[i];
		int stored = hidx_find(&s->namedidx, str_hash_add(STR_HASH_INIT, v->name), s->v, v->name,
				       vname_eq) != (size_t)-1;

		if (!stored && v->description && s->nv > 0) {
			/* only describe variants that exist already */
			struct dbst *g = stmt(db, S_GET_VARIANT, err);
			if (!g)
				return -1;
			db_bind_text(g, 1, v->name);
			db_bind_text(g, 2, s->scope);
			rc = db_step(g);
			if (rc == DB_ROW) {
				long long id = db_col_int(g, 0);
				db_reset(g);
				if (describe_variant(db, id, v->description, err) < 0)
					return -1;
			} else if (rc != DB_DONE) {
				return db_fail(db, err, "cannot read the variant table");
			} else {
				db_reset(g);
			}
		}
	}
	return 0;
}

/* Store one batch in the open transaction (group.h). */
int db_store_one(struct db *db, const struct db_import *imp, struct rec_batch *b,
		 struct db_import_result *res, struct kb_err *err)
{
	struct store_state s;
	int rc, i;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.db = db;
	s.imp = imp;
	s.b = b;
	for (i = 0; i < DB_T_COUNT; i++)
		db_bulk_init(&s.rows[i], i);
	rc = store_all(&s, res, err);
	hidx_release(&s.vidx);
	hidx_release(&s.mcidx);
	hidx_release(&s.keyidx);
	hidx_release(&s.legidx);
	hidx_release(&s.namedidx);
	free(s.v);
	free(s.keys);
	free(s.mc);
	free(s.skip_run);
	free(s.skip_sum);
	free(s.scope_label);
	for (i = 0; i < DB_T_COUNT; i++)
		db_bulk_release(&s.rows[i]);
	buf_release(&s.json);
	return rc;
}
