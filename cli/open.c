/*
 * open.c - the store of a selection (see open.h).
 */
#include "open.h"
#include "cli.h"
#include "../db/db.h"

int cli_open_selection(struct cli_select *sel, struct an_query *q, struct db **db,
		       struct kb_err *err)
{
	struct cli_names nm;

	if (db_open_existing(db, cli_db_path(sel->db), err) < 0)
		return -1;
	cli_select_rejoin(sel, q, *db);
	cli_select_names(sel, &nm);
	if (cli_selection_check(*db, &nm, err) < 0 || cli_select_resolve(sel, *db, q, err) < 0)
		return -1;
	return 0;
}
