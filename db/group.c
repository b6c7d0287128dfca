/*
 * group.c - the group transaction of db_store_batch(): consecutive source
 * files share one transaction, each file's records are kept until it
 * commits, and after a failure the files before it are stored again
 * (replay), so each file still imports completely or not at all.  What
 * the group has learnt (variant ids, catalogued metrics) is kept in
 * known.c's sets.
 */
#include "db_int.h"
#include "group.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Forget what the group learnt (its transaction ended or was rolled back). */
static void forget(struct group *g)
{
	db_known_forget(&g->var);
	db_known_forget(&g->met);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Grouping.  Files share one transaction without savepoints (a savepoint
 * per file made SQLite copy every page it touched into a sub-journal,
 * about a third of the import's time).  The group keeps each stored
 * file's records until it commits; when a file fails halfway, the whole
 * transaction is rolled back and the files before it are stored again
 * from what was kept, so each file still imports completely or not at
 * all.
 */

static char *own(char **slot, const char *s)
{
	*slot = s ? xstrdup(s) : NULL;
	return *slot;
}

/* Keep a stored file's records (moved out of b) until the group commits. */
static void keep(struct group *g, const struct db_import *imp, struct rec_batch *b)
{
	struct kept *k;

	xgrow(&g->k, &g->cap, g->n + 1, sizeof(*g->k));
	k = &g->k[g->n++];
	memset(k, 0, sizeof(*k));
	k->imp = *imp;
	k->imp.path = own(&k->str[0], imp->path);
	k->imp.sha256 = own(&k->str[1], imp->sha256);
	k->imp.format = own(&k->str[2], imp->format);
	k->imp.machine = own(&k->str[3], imp->machine);
	k->imp.variant = own(&k->str[4], imp->variant);
	k->imp.variant_fallback = own(&k->str[5], imp->variant_fallback);
	k->imp.kernel = own(&k->str[6], imp->kernel);
	k->imp.scope_label = own(&k->str[7], imp->scope_label);
	k->imp.mail_from = own(&k->str[8], imp->mail_from);
	k->imp.mail_date = own(&k->str[9], imp->mail_date);
	k->imp.mail_subject = own(&k->str[10], imp->mail_subject);
	k->imp.message_id = own(&k->str[11], imp->message_id);
	k->b = *b;
	rec_batch_init(b);
	g->bytes += imp->size;
}

static void drop_kept(struct group *g)
{
	size_t i;
	int s;

	for (i = 0; i < g->n; i++) {
		for (s = 0; s < 12; s++)
			free(g->k[i].str[s]);
		rec_batch_release(&g->k[i].b);
	}
	g->n = 0;
	g->bytes = 0;
}

/* Open a group transaction: the backend's bulk transaction (SQLite:
 * foreign-key checks off, runs numbered from the highest id). */
static int begin(struct db *db, struct kb_err *err)
{
	struct group *g;

	if (!db->group)
		db->group = xcalloc(1, sizeof(*db->group));
	g = db->group;
	if (db->ops->bulk->begin(db, err) < 0)
		return -1;
	db->grouped = 1;
	g->start = now_seconds();
	return 0;
}

/* End the group transaction, if SQLite has not already, without its writes. */
static void rollback(struct db *db)
{
	/* Every statement back to its start first: one left on a row, or
	 * holding the error of a failed step, would keep the connection's
	 * read transaction (and the error) for the files after this one. */
	db_each_stmt(db, db_reset);
	if (db_in_txn(db))
		db_exec(db, "ROLLBACK", NULL);
	db->grouped = 0;
	/* What the group learnt holds after a COMMIT (the next group starts
	 * from it), not after a rollback. */
	if (db->group)
		forget(db->group);
}

/* After a failure: roll back and store the kept files again.  Returns how
 * many of them could not be stored again (they are dropped). */
static size_t replay(struct db *db)
{
	struct group *g = db->group;
	struct db_import_result res;
	struct kb_err err;
	size_t i, lost = 0, n;

	rollback(db);
	for (i = 0; i < g->n; i++) {
		if (!db->grouped && begin(db, NULL) < 0)
			break;
		if (db_store_one(db, &g->k[i].imp, &g->k[i].b, &res, &err) < 0) {
			/* Stored once, refused now (I/O error, disk full): give up on
			 * the ones before it too, as they share the transaction. */
			rollback(db);
			lost = i + 1;
		}
	}
	lost += g->n - i;
	/* Commits like any group (and drops what it kept). */
	if (db_store_flush(db, &n, NULL) < 0)
		lost = n;
	drop_kept(g);
	return lost;
}

int db_store_flush(struct db *db, size_t *lost, struct kb_err *err)
{
	size_t n = db->group ? db->group->n : 0;

	if (lost)
		*lost = 0;
	if (!db->grouped)
		return 0;
	db->grouped = 0;
	/* A SELECT left on a row would keep this connection's read
	 * transaction, and with it the oldest WAL frame a checkpoint must
	 * keep, past the COMMIT: the log would grow for the whole import. */
	db_each_stmt(db, db_reset);
	if (db->ops->bulk->commit(db, err) < 0) {
		rollback(db);
		if (lost)
			*lost = n;
		drop_kept(db->group);
		return -1;
	}
	drop_kept(db->group);
	return 0;
}

size_t db_store_pending(const struct db *db)
{
	return db->grouped && db->group ? db->group->n : 0;
}

void db_store_release(struct db *db)
{
	if (!db->group)
		return;
	drop_kept(db->group);
	forget(db->group);
	free(db->group->k);
	free(db->group);
	db->group = NULL;
}

int db_store_batch(struct db *db, const struct db_import *imp, struct rec_batch *b,
		   struct db_import_result *res, struct kb_err *err)
{
	int rc, tries, retry;

	if (imp->dry_run) {
		/* Its own transaction, always rolled back. */
		if (db_store_flush(db, &res->lost, err) < 0)
			return -1;
		if (begin(db, err) < 0)
			return -1;
		rc = db_store_one(db, imp, b, res, err);
		rollback(db);
		return rc;
	}
	for (tries = 0;; tries++) {
		if (!db->grouped && begin(db, err) < 0) {
			memset(res, 0, sizeof(*res));
			return -1;
		}
		rc = db_store_one(db, imp, b, res, err);
		if (rc == 0)
			break;
		/* A deadlock with another importer (PostgreSQL): it goes on,
		 * this group is rolled back; store the kept files again and
		 * try this one once more, after a pause that differs between
		 * importers. */
		retry = db_retryable(db) && tries < 8;
		res->lost = replay(db);
		if (!retry || res->lost)
			return -1;
		{
			/* 2-100 ms, from a sequence of this process's own */
			static unsigned seed;
			struct timespec ts;
			if (!seed)
				seed = (unsigned)getpid() * 2654435761u + 1;
			ts.tv_sec = 0;
			ts.tv_nsec = (long)(1 + rand_r(&seed) % 50) * 2000000L;
			nanosleep(&ts, NULL);
		}
	}
	if (!res->already)
		keep(db->group, imp, b);
	if (now_seconds() - db->group->start >= DB_GROUP_SECONDS ||
	    db->group->bytes >= DB_GROUP_BYTES)
		return db_store_flush(db, &res->lost, err);
	return 0;
}
