/*
 * hidx.c - a hash index over an array the caller owns (see hidx.h).
 */
#include "hidx.h"
#include "util.h"

#include <stdlib.h>

size_t hidx_find(const struct hidx *x, size_t h, const void *arr, const void *key, hidx_eq eq)
{
	size_t m, i;

	if (!x->cap)
		return (size_t)-1;
	m = x->cap - 1;
	for (i = h & m; x->slot[i]; i = (i + 1) & m)
		if (eq(arr, x->slot[i] - 1, key))
			return x->slot[i] - 1;
	return (size_t)-1;
}

static void put(struct hidx *x, size_t h, size_t i)
{
	size_t m = x->cap - 1, k;

	for (k = h & m; x->slot[k]; k = (k + 1) & m)
		;
	x->slot[k] = i + 1;
}

void hidx_add(struct hidx *x, size_t h, size_t i, const void *arr, hidx_hash hash)
{
	if ((x->n + 1) * 2 > x->cap) {
		struct hidx bigger = { NULL, x->cap ? x->cap * 2 : 16, x->n };
		size_t k;

		bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
		for (k = 0; k < x->cap; k++)
			if (x->slot[k])
				put(&bigger, hash(arr, x->slot[k] - 1), x->slot[k] - 1);
		free(x->slot);
		*x = bigger;
	}
	put(x, h, i);
	x->n++;
}

void hidx_release(struct hidx *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = x->n = 0;
}
