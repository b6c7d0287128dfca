/*
 * known.c - what a group transaction has learnt (group.h): a small
 * open-addressing hash set of owned (a, b) names and their ids.
 */
#include "group.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>

static unsigned known_hash(const char *a, const char *b)
{
	return (unsigned)str_hash_add(str_hash_add(STR_HASH_INIT, a), b);
}

/* The entry for (a, b), or NULL; *at is where it goes when absent. */
long long *db_known_find(struct known *kn, const char *a, const char *b, unsigned *at)
{
	unsigned i = known_hash(a, b) & (KNOWN_SLOTS - 1);

	for (; kn->slot[i]; i = (i + 1) & (KNOWN_SLOTS - 1)) {
		size_t e = (size_t)kn->slot[i] - 1;
		if (strcmp(kn->k[e].a, a) == 0 &&
		    (b ? kn->k[e].b && strcmp(kn->k[e].b, b) == 0 : !kn->k[e].b))
			return &kn->k[e].id;
	}
	*at = i;
	return NULL;
}

void db_known_add(struct known *kn, const char *a, const char *b, long long id)
{
	unsigned at;

	if (kn->n >= KNOWN_MAX || db_known_find(kn, a, b, &at))
		return;
	kn->k[kn->n].a = xstrdup(a);
	kn->k[kn->n].b = b ? xstrdup(b) : NULL;
	kn->k[kn->n].id = id;
	kn->slot[at] = (unsigned short)++kn->n;
}

void db_known_forget(struct known *kn)
{
	size_t i;

	for (i = 0; i < kn->n; i++) {
		free(kn->k[i].a);
		free(kn->k[i].b);
	}
	kn->n = 0;
	memset(kn->slot, 0, sizeof(kn->slot));
}
