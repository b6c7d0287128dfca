/*
 * open.h - the store of a selection, opened for a verb that reads it
 * (chart, report): --db's store, the selection's names rejoined where a
 * comma cut them, checked against the store and resolved to display
 * names (select.h).
 */
#ifndef KB_CLI_OPEN_H
#define KB_CLI_OPEN_H

#include "select.h"

struct db;

/* 0 with *db open; -1 with err set (*db may be open: the caller closes it). */
int cli_open_selection(struct cli_select *sel, struct an_query *q, struct db **db,
		       struct kb_err *err);

#endif
