/*
 * envdiff.c - two variants' recorded environments compared key by key
 * (see envdiff.h).
 */
#include "envdiff.h"
#include "../core/buf.h"
#include "../db/db.h"

#include <string.h>

/* The env of variant in m, or NULL. */
static const struct db_env *env_of(const struct db_machine_env *m, const char *variant)
{
	size_t i;

	for (i = 0; i < m->nenvs; i++)
		if (strcmp(m->envs[i].variant, variant) == 0)
			return &m->envs[i];
	return NULL;
}

/* Keys that are different for every run and say nothing of the setup. */
static int ignored(const char *key)
{
	return strcmp(key, "missing") == 0;
}

static void one(struct buf *out, const char *key, const char *a, const char *b, int *n)
{
	if (ignored(key) || (a && b && strcmp(a, b) == 0))
		return;
	if (out->len)
		buf_puts(out, "; ");
	buf_printf(out, "%s %s -> %s", key, a ? a : "-", b ? b : "-");
	(*n)++;
}

int an_env_diff(struct db *db, const char *machine, const char *baseline, const char *variant,
		struct buf *out, int *recorded, struct kb_err *err)
{
	struct db_machine_env m;
	const struct db_env *a, *b;
	size_t i;
	int n = 0;

	buf_reset(out);
	*recorded = 0;
	if (db_machine_env(db, machine, NULL, &m, err) < 0)
		return -1;
	a = env_of(&m, baseline);
	b = env_of(&m, variant);
	*recorded = (a ? 1 : 0) | (b ? 2 : 0);
	if (a && b) {
		/* the baseline's keys in order, then the variant's it lacks */
		for (i = 0; i < a->n; i++)
			one(out, a->keys[i], a->values[i], db_env_get(b, a->keys[i]), &n);
		for (i = 0; i < b->n; i++)
			if (!db_env_get(a, b->keys[i]))
				one(out, b->keys[i], NULL, b->values[i], &n);
	}
	db_machine_env_release(&m);
	return n;
}
