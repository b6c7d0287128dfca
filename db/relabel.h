/*
 * relabel.h - fix variants and machines after import (kbench relabel),
 * every change recorded in the relabel table and played again when its
 * source is imported again with --replace.
 *
 * Variants are named as a user names them (display name, name alone when
 * unique, name@start-of-post).  Each function is one transaction: it
 * returns 0, or -1 with err set and nothing changed.
 */
#ifndef KB_DB_RELABEL_H
#define KB_DB_RELABEL_H

#include <stddef.h>

#include "db.h"

/* Which runs: run ids, or every run and published summary of a source
 * (its path or id), or, with segment_line, the runs and summaries of the
 * segment of that source holding the line.  Naming nothing is an error. */
struct db_relabel_runs {
	const long long *runs;
	size_t nruns;
	const char *source;
	long segment_line;
	const char *from;       /* only the ones now on this variant (NULL: any) */
};

int db_relabel_rename(struct db *db, const char *from, const char *to, struct kb_err *err);
/* Every run and summary of from goes to into; from is dropped. */
int db_relabel_merge(struct db *db, const char *from, const char *into, struct kb_err *err);
/* What a move or machine change did: runs and summaries changed (one
 * relabel row each), and the ones selected that were there already
 * (nothing recorded for them). */
struct db_relabel_count {
	size_t runs, summaries, unchanged;
};

/* The runs (and summaries) go to variant to (made, global, when no
 * variant has that name); cnt (may be NULL) says what moved. */
int db_relabel_move(struct db *db, const struct db_relabel_runs *sel, const char *to,
		    struct db_relabel_count *cnt, struct kb_err *err);
int db_relabel_machine(struct db *db, const struct db_relabel_runs *sel, const char *machine,
		       struct db_relabel_count *cnt, struct kb_err *err);

struct db_relabel {
	long long id;
	char *at, *action, *detail;
};

int db_relabel_list(struct db *db, struct db_relabel **out, size_t *n, struct kb_err *err);
void db_relabel_list_free(struct db_relabel *r, size_t n);

/* Inside an import's transaction, after source sha was stored again
 * (--replace): play the relabel rows that concern it. */
int db_relabel_replay(struct db *db, const char *sha, struct kb_err *err);

#endif
