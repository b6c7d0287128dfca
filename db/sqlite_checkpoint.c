/*
 * sqlite_checkpoint.c - the SQLite backend's WAL checkpointer thread.
 *
 * Copying the write-ahead log back into the database file (and the
 * fsyncs that go with it) took about a fifth of a large import when the
 * importing connection did it itself every 1000 pages.  During an import
 * the store hands that work to a thread with its own connection: after a
 * commit that leaves the log at DB_CKPT_PAGES or more, the thread runs a
 * PASSIVE checkpoint, which copies what it can without blocking the
 * writer.  Whatever is left is checkpointed when the database closes, as
 * before.  If the thread or its connection cannot be had, SQLite's own
 * automatic checkpoints stay on.
 */
#include "db_int.h"
#include "../core/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DB_CKPT_PAGES 1000
/* The log restarts from its beginning only when a checkpoint has copied
 * all of it before the next write; the thread rarely catches up with a
 * busy writer, so past this size the writer finishes the copy itself. */
#define DB_WAL_PAGES_MAX 4096

struct ckpt {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	sqlite3 *h;             /* the checkpointer's own connection */
	int kick, stop;
	int pages;              /* frames in the log after the last commit (writer's) */
};

static void *ckpt_main(void *arg)
{
	struct ckpt *c = arg;

	pthread_setname_np(pthread_self(), "kbench-ckpt");
	for (;;) {
		int stop;
		pthread_mutex_lock(&c->lock);
		while (!c->kick && !c->stop)
			pthread_cond_wait(&c->cond, &c->lock);
		stop = c->stop;
		c->kick = 0;
		pthread_mutex_unlock(&c->lock);
		if (stop)
			return NULL;
		/* PASSIVE: as much as can be copied without waiting for the
		 * writer; a busy or partial result is fine, the next kick or the
		 * close finishes it. */
		sqlite3_wal_checkpoint_v2(c->h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	}
}

/* Called by SQLite after each commit on the importing connection. */
static int wal_hook(void *arg, sqlite3 *h, const char *name, int pages)
{
	struct ckpt *c = arg;

	(void)h;
	(void)name;
	c->pages = pages;
	if (pages >= DB_CKPT_PAGES) {
		pthread_mutex_lock(&c->lock);
		c->kick = 1;
		pthread_cond_signal(&c->cond);
		pthread_mutex_unlock(&c->lock);
	}
	return SQLITE_OK;
}

void db_ckpt_start(struct db *db)
{
	struct ckpt *c;

	if (db->ckpt)
		return;
	c = xcalloc(1, sizeof(*c));
	if (sqlite3_open_v2(db->path, &c->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK ||
	    sqlite3_exec(c->h, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close_v2(c->h);
		free(c);
		return;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	if (pthread_create(&c->thread, NULL, ckpt_main, c) != 0) {
		pthread_cond_destroy(&c->cond);
		pthread_mutex_destroy(&c->lock);
		sqlite3_close_v2(c->h);
		free(c);
		return;
	}
	/* Replaces SQLite's automatic checkpoints on this connection. */
	sqlite3_wal_hook(db->h, wal_hook, c);
	db->ckpt = c;
}

void db_ckpt_after_commit(struct db *db)
{
	struct ckpt *c = db->ckpt;

	if (!c || c->pages < DB_WAL_PAGES_MAX)
		return;
	c->pages = 0;
	/* Busy when the thread is at it: then the next commit tries again. */
	sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

void db_ckpt_stop(struct db *db)
{
	struct ckpt *c = db->ckpt;

	if (!c)
		return;
	sqlite3_wal_autocheckpoint(db->h, DB_CKPT_PAGES);      /* SQLite's own again */
	pthread_mutex_lock(&c->lock);
	c->stop = 1;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	sqlite3_close_v2(c->h);
	free(c);
	db->ckpt = NULL;
}
