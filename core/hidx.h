/*
 * hidx.h - a hash index over an array the caller owns.
 *
 * The array keeps its entries (and its order); the index maps a key's
 * hash to the entry's position, by open addressing.  The caller hashes
 * (str_hash_add) and compares, so one index type serves any key: the
 * store's variant, machine and iteration caches, where a linear search
 * per row made an import of many variants quadratic.
 */
#ifndef KB_HIDX_H
#define KB_HIDX_H

#include <stddef.h>

struct hidx {
	size_t *slot;           /* entry + 1; 0 empty */
	size_t cap;             /* a power of two, or 0 */
	size_t n;
};

/* Does entry i of arr hold key? */
typedef int (*hidx_eq)(const void *arr, size_t i, const void *key);
/* The hash of entry i of arr (for growing). */
typedef size_t (*hidx_hash)(const void *arr, size_t i);

/* The entry holding key (of hash h), or (size_t)-1. */
size_t hidx_find(const struct hidx *x, size_t h, const void *arr, const void *key, hidx_eq eq);
/* Index entry i (of hash h; not there yet). */
void hidx_add(struct hidx *x, size_t h, size_t i, const void *arr, hidx_hash hash);
void hidx_release(struct hidx *x);

#endif
