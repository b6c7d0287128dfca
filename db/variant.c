/*
 * variant.c - a variant as a user names it (display name, name alone
 * when unique, or name@start-of-post), resolved to its display name and
 * id; a reader's connection remembers what it resolved.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An ambiguous name's error names this many of the variants it may mean. */
#define AMBIGUOUS_NAMED 8

/* A variant as the user names it: display name, name alone when unique,
 * or name@start-of-post.  Fills id, name and scope (owned by caller). */
int db_variant_find(struct db *db, const char *want, long long *id, char **name,
		    char **scope, struct kb_err *err)
{
	/* A display name is the name, or name@label: its variant is named
	 * want, or named the part of want before an '@' with the label after
	 * it; asking for those lets the indexes find it (display itself is
	 * computed per row). */
	static const char *const sql[] = {
		NULL,
		"SELECT id, name, scope, display FROM variant_v WHERE name = ?1 ORDER BY id",
		"SELECT id, name, scope, display FROM variant_v WHERE CAST(?1 AS TEXT) LIKE '%@%'"
		" AND name = substr(?1, 1, length(?1) - length(?2) - 1)"
		" AND substr(scope_label, 1, length(?2)) = ?2 ORDER BY id",
	};
	const char *at = strrchr(want, '@');
	struct buf list = BUF_INIT;
	size_t k;
	int hits = 0, rc;

	for (k = 0; k < 3 && !hits; k++) {
		struct buf q0 = BUF_INIT;
		struct dbst *st;
		const char *p;
		int np = 1;

		if (k == 0) {
			buf_puts(&q0, "SELECT id, name, scope, display FROM variant_v"
				 " WHERE display = ?1 AND (name = ?1");
			for (p = strchr(want, '@'); p; p = strchr(p + 1, '@')) {
				buf_printf(&q0, " OR (name = ?%d AND scope_label = ?%d)", np + 1, np + 2);
				np += 2;
			}
			buf_puts(&q0, ") ORDER BY id");
		}
		st = db_prepare(db, k == 0 ? buf_str(&q0) : sql[k], err);
		buf_release(&q0);
		if (!st)
			return -1;
		db_bind_text(st, 1, want);
		if (k == 0) {
			np = 1;
			for (p = strchr(want, '@'); p; p = strchr(p + 1, '@')) {
				char *part = xstrndup(want, (size_t)(p - want));
				db_bind_text(st, ++np, part);
				db_bind_text(st, ++np, p + 1);
				free(part);
			}
		}
		if (k == 2)
			db_bind_text(st, 2, at ? at + 1 : "");
		while ((rc = db_step(st)) == DB_ROW) {
			if (!hits) {
				*id = db_col_int(st, 0);
				*name = db_col_text(st, 1);
				*scope = db_col_text(st, 2);
			}
			/* A lab's store has hundreds of "A"s: name the first few. */
			if (hits < AMBIGUOUS_NAMED)
				buf_printf(&list, "%s%s", hits ? ", " : "", db_col_str(st, 3));
			hits++;
		}
		db_finalize(st);
		if (rc != DB_DONE) {
			buf_release(&list);
			return kb_err_set(err, db->path, 0, "cannot read variants: %s",
					  db_errmsg(db));
		}
	}
	if (hits == 1) {
		buf_release(&list);
		return 0;
	}
	if (hits > 1) {
		free(*name);
		free(*scope);
		*name = *scope = NULL;
		if (hits > AMBIGUOUS_NAMED)
			buf_printf(&list, " and %d more (kbench ls --all lists them)",
				   hits - AMBIGUOUS_NAMED);
		kb_err_set(err, "", 0, "variant '%s' is ambiguous: %s", want, buf_str(&list));
	} else {
		kb_err_set(err, "", 0, "unknown variant '%s'", want);
	}
	buf_release(&list);
	return -1;
}

int db_variant_resolve(struct db *db, const char *want, char **display, struct kb_err *err)
{
	long long id;

	return db_variant_resolve_id(db, want, &id, display, err);
}

/*
 * A reader resolves the same names again and again (a store's report,
 * section by section): what a name resolved to is remembered for the
 * connection.  A reader's view does not change under it, a writer's
 * does, so writers ask the store every time.
 */
struct vcache_ent {
	char *want, *display;
	long long id;
};

struct vcache {
	struct vcache_ent *e;   /* open addressing; want NULL = empty */
	size_t cap, n;          /* cap: a power of two */
};

static struct vcache_ent *vcache_slot(struct vcache *c, const char *want)
{
	size_t i, mask = c->cap - 1;

	for (i = str_hash_add(STR_HASH_INIT, want) & mask; c->e[i].want; i = (i + 1) & mask)
		if (strcmp(c->e[i].want, want) == 0)
			break;
	return &c->e[i];
}

static void vcache_put(struct db *db, const char *want, long long id, const char *display)
{
	struct vcache *c = db->vcache;
	struct vcache_ent *e;
	size_t i;

	if (!c)
		c = db->vcache = xcalloc(1, sizeof(*c));
	if (2 * (c->n + 1) > c->cap) {
		struct vcache old = *c;

		c->cap = c->cap ? 2 * c->cap : 256;
		c->e = xcalloc(c->cap, sizeof(*c->e));
		for (i = 0; i < old.cap; i++)
			if (old.e[i].want)
				*vcache_slot(c, old.e[i].want) = old.e[i];
		free(old.e);
	}
	e = vcache_slot(c, want);
	if (e->want)
		return;
	e->want = xstrdup(want);
	e->display = xstrdup(display);
	e->id = id;
	c->n++;
}

void db_vcache_free(struct db *db)
{
	size_t i;

	if (!db->vcache)
		return;
	for (i = 0; i < db->vcache->cap; i++) {
		free(db->vcache->e[i].want);
		free(db->vcache->e[i].display);
	}
	free(db->vcache->e);
	free(db->vcache);
	db->vcache = NULL;
}

int db_variant_resolve_id(struct db *db, const char *want, long long *idp, char **display,
			  struct kb_err *err)
{
	struct dbst *st;
	char *name = NULL, *scope = NULL;
	long long id;
	int rc;

	*display = NULL;
	if (db->readonly && db->vcache) {
		const struct vcache_ent *e = vcache_slot(db->vcache, want);

		if (e->want) {
			*idp = e->id;
			*display = xstrdup(e->display);
			return 0;
		}
	}
	if (db_variant_find(db, want, &id, &name, &scope, err) < 0)
		return -1;
	*idp = id;
	free(name);
	free(scope);
	st = db_prepare(db, "SELECT display FROM variant_v WHERE id = ?1", err);
	if (!st)
		return -1;
	db_bind_int(st, 1, id);
	rc = db_step(st);
	if (rc == DB_ROW)
		*display = db_col_text(st, 0);
	db_finalize(st);
	if (!*display)
		return db_fail(db, err, "cannot read variants");
	if (db->readonly)
		vcache_put(db, want, id, *display);
	return 0;
}
