/*
 * group.h - what store.c (one file's records into SQL), group.c (the
 * transaction files share, and its replay) and known.c (what the group
 * has learnt) share.  Not for use outside db/.
 */
#ifndef KB_DB_GROUP_H
#define KB_DB_GROUP_H

#include "db_int.h"
#include "../ingest/record.h"

#include <stddef.h>

/* What a group transaction has learnt, forgotten when it ends: variant
 * ids and metrics known to the catalogue, so most files ask SQLite
 * neither.  A small hash set of owned (a, b) names; b may be NULL. */
#define KNOWN_MAX 512
#define KNOWN_SLOTS 1024        /* a power of two, > 2 * KNOWN_MAX */

struct known {
	struct {
		char *a, *b;
		long long id;
	} k[KNOWN_MAX];
	size_t n;
	unsigned short slot[KNOWN_SLOTS];       /* index + 1, 0 = empty */
};

/* The entry for (a, b), or NULL; *at is where it goes when absent. */
long long *db_known_find(struct known *kn, const char *a, const char *b, unsigned *at);
/* Add (a, b) -> id (copies of the names) unless it is there or the set is full. */
void db_known_add(struct known *kn, const char *a, const char *b, long long id);
/* Empty the set. */
void db_known_forget(struct known *kn);

/* A file stored in the open group, kept to be stored again (replay()). */
struct kept {
	struct db_import imp;
	char *str[12];          /* the imp strings, owned */
	struct rec_batch b;
};

struct group {
	struct kept *k;
	size_t n, cap;
	long long bytes;        /* source bytes kept */
	double start;
	struct known var;       /* variant name -> id */
	struct known met;       /* (benchmark, metric) in the catalogue */
};

/* Store one batch in the open transaction (store.c): 0, or -1 with err
 * set; the transaction is then to be rolled back. */
int db_store_one(struct db *db, const struct db_import *imp, struct rec_batch *b,
		 struct db_import_result *res, struct kb_err *err);

#endif
