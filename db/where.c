/*
 * where.c - the WHERE clause of a selection (struct db_qsel, query.h),
 * shared by the query layer's statements (query.c, placement.c).  Only
 * placeholders go into SQL text; every value is bound.  Standard SQL
 * (IN lists, ||, LIKE) so that another backend reads it the same.
 */
#include "db_int.h"
#include "query.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void where_text(struct db_where *w, const char *s, char *owned)
{
	xgrow(&w->b, &w->cap, w->n + 1, sizeof(*w->b));
	w->b[w->n].text = s;
	w->b[w->n].i = 0;
	w->b[w->n++].owned = owned;
}

/* " IN (?, ?, ...)" binding v[0..n). */
void db_where_in(struct db_where *w, const char *const *v, size_t n)
{
	size_t i;

	buf_puts(&w->sql, " IN (");
	for (i = 0; i < n; i++) {
		buf_puts(&w->sql, i ? ", ?" : "?");
		where_text(w, v[i], NULL);
	}
	buf_puts(&w->sql, ")");
}

/* " IN (?, ?, ...)" binding the integers v[0..n). */
static void where_ids(struct db_where *w, const long long *v, size_t n)
{
	size_t i;

	buf_puts(&w->sql, " IN (");
	for (i = 0; i < n; i++) {
		buf_puts(&w->sql, i ? ", ?" : "?");
		xgrow(&w->b, &w->cap, w->n + 1, sizeof(*w->b));
		w->b[w->n].text = NULL;
		w->b[w->n].owned = NULL;
		w->b[w->n++].i = v[i];
	}
	buf_puts(&w->sql, ")");
}

/* Does s need escaping in a canonical config, or mean something to LIKE? */
static int config_plain(const char *s)
{
	return strpbrk(s, ",=\\%_") == NULL;
}

/* config filters: per key (in order of first appearance) the row's
 * config must hold key=one of its values.  A key with a value that is
 * not plain is left to the caller's exact filter. */
static void where_config(struct db_where *w, const struct db_qsel *sel)
{
	size_t i, j;

	for (i = 0; i < sel->nconfig; i++) {
		const char *key = sel->config[i].key;
		int plain = config_plain(key), first = 1;

		for (j = 0; j < i; j++)
			if (strcmp(sel->config[j].key, key) == 0)
				break;
		if (j < i)
			continue;	/* this key's clause is written */
		for (j = i; j < sel->nconfig && plain; j++)
			if (strcmp(sel->config[j].key, key) == 0 && !config_plain(sel->config[j].value))
				plain = 0;
		if (!plain)
			continue;
		buf_puts(&w->sql, " AND (");
		for (j = i; j < sel->nconfig; j++) {
			if (strcmp(sel->config[j].key, key) != 0)
				continue;
			buf_puts(&w->sql, first ? "" : " OR ");
			buf_puts(&w->sql, "',' || t.config || ',' LIKE ?");
			where_text(w, NULL, buf_aprintf("%%,%s=%s,%%", key, sel->config[j].value));
			first = 0;
		}
		buf_puts(&w->sql, ")");
	}
}

static void where_id(struct db_where *w, long long id)
{
	xgrow(&w->b, &w->cap, w->n + 1, sizeof(*w->b));
	w->b[w->n].text = NULL;
	w->b[w->n].owned = NULL;
	w->b[w->n++].i = id;
}

/* Rows that could share a comparison row with variant sel->near (query.h).
 * A machine key is the machine, or for a run on no machine its variant's
 * post ('unknown@post'), or unknown for a global variant: the same rule
 * as the key query.c loads. */
static void where_near(struct db_where *w, const struct db_qsel *sel)
{
	if (sel->near_config) {
		buf_puts(&w->sql, " AND (t.benchmark, t.config) IN"
			 " (SELECT nr.benchmark, nr.config FROM run nr WHERE nr.variant_id = ?"
			 " UNION SELECT ns.benchmark, ns.config FROM summary ns WHERE ns.variant_id = ?)");
		where_id(w, sel->near);
		where_id(w, sel->near);
	}
	if (sel->near_any_machine)
		return;
	buf_puts(&w->sql, " AND (t.machine_id IN"
		 " (SELECT nr.machine_id FROM run nr WHERE nr.variant_id = ?"
		 " UNION SELECT ns.machine_id FROM summary ns WHERE ns.variant_id = ?)"
		 " OR (t.machine_id IS NULL"
		 " AND EXISTS (SELECT 1 FROM run nr WHERE nr.variant_id = ? AND nr.machine_id IS NULL"
		 " UNION ALL SELECT 1 FROM summary ns WHERE ns.variant_id = ? AND ns.machine_id IS NULL)"
		 " AND t.variant_id IN (SELECT nv.id FROM variant nv JOIN variant nb ON nb.id = ?"
		 " WHERE (nv.scope = '' AND nb.scope = '')"
		 " OR (nv.scope <> '' AND nb.scope <> '' AND nv.scope_label = nb.scope_label))))");
	where_id(w, sel->near);
	where_id(w, sel->near);
	where_id(w, sel->near);
	where_id(w, sel->near);
	where_id(w, sel->near);
}

/* The selection of runs or summaries (both have benchmark, config,
 * variant_id, machine_id, source_id). */
void db_where_build(struct db_where *w, const struct db_qsel *sel)
{
	size_t i;

	buf_init(&w->sql);
	w->b = NULL;
	w->n = w->cap = 0;
	buf_puts(&w->sql, "1 = 1");
	if (!sel)
		return;
	if (sel->bench) {
		buf_puts(&w->sql, " AND t.benchmark = ?");
		where_text(w, sel->bench, NULL);
	}
	if (sel->nvariants) {
		/* A user names a variant by its display name, its name alone, or
		 * name@post: select every variant whose name is one of those or
		 * its part before the last '@'; analyze/ then picks the one meant
		 * (db_variant_resolve()) among what was loaded. */
		buf_puts(&w->sql, " AND t.variant_id IN (SELECT id FROM variant WHERE name IN (");
		for (i = 0; i < sel->nvariants; i++) {
			const char *at = strrchr(sel->variants[i], '@');
			buf_puts(&w->sql, i ? ", ?" : "?");
			where_text(w, sel->variants[i], NULL);
			if (at && at > sel->variants[i]) {
				buf_puts(&w->sql, ", ?");
				where_text(w, NULL, xstrndup(sel->variants[i],
							     (size_t)(at - sel->variants[i])));
			}
		}
		buf_puts(&w->sql, "))");
	}
	if (sel->nmachines) {
		/* A machine is named as kbench prints it (the key query.c
		 * loads): its name; "unknown", the runs of no named machine;
		 * "unknown@POST", those of the variants of that post. */
		int unknown = 0;
		for (i = 0; i < sel->nmachines; i++)
			unknown |= strcmp(sel->machines[i], "unknown") == 0;
		/* With variants named, their index selects: a machine holds
		 * many variants' runs, and without statistics the planner would
		 * read all of them (unary + keeps it off run_machine). */
		buf_puts(&w->sql, sel->nvariants || sel->nvariant_ids
				  ? " AND (+t.machine_id IN (SELECT id FROM machine WHERE name"
				  : " AND (t.machine_id IN (SELECT id FROM machine WHERE name");
		db_where_in(w, sel->machines, sel->nmachines);
		buf_puts(&w->sql, ")");
		if (unknown)
			buf_puts(&w->sql, " OR t.machine_id IS NULL");
		for (i = 0; !unknown && i < sel->nmachines; i++)
			if (strncmp(sel->machines[i], DB_UNKNOWN_AT, strlen(DB_UNKNOWN_AT)) == 0) {
				buf_puts(&w->sql, " OR (t.machine_id IS NULL AND t.variant_id IN"
					 " (SELECT id FROM variant WHERE scope <> '' AND scope_label = ?))");
				where_text(w, sel->machines[i] + strlen(DB_UNKNOWN_AT), NULL);
			}
		buf_puts(&w->sql, ")");
	}
	if (sel->nvariant_ids) {
		buf_puts(&w->sql, " AND t.variant_id");
		where_ids(w, sel->variant_ids, sel->nvariant_ids);
	}
	if (sel->nsources) {
		buf_puts(&w->sql, " AND t.source_id");
		where_ids(w, sel->sources, sel->nsources);
	}
	where_config(w, sel);
	if (sel->near > 0)
		where_near(w, sel);
}

/* Bind w's values from placeholder first on; returns the next one. */
int db_where_bind(const struct db_where *w, struct dbst *st, int first)
{
	size_t i;

	for (i = 0; i < w->n; i++, first++) {
		if (w->b[i].owned)
			db_bind_text(st, first, w->b[i].owned);
		else if (w->b[i].text)
			db_bind_text(st, first, w->b[i].text);
		else
			db_bind_int(st, first, w->b[i].i);
	}
	return first;
}

void db_where_release(struct db_where *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->b[i].owned);
	free(w->b);
	buf_release(&w->sql);
}

/* Prepare head + " WHERE " + w + tail and bind w. */
struct dbst *db_where_prepare(struct db *db, const char *head, const struct db_where *w,
				   const char *tail, struct kb_err *err)
{
	char *sql = buf_aprintf("%s WHERE %s%s", head, buf_str(&w->sql), tail);
	struct dbst *st = db_prepare(db, sql, err);

	free(sql);
	if (st)
		db_where_bind(w, st, 1);
	return st;
}

