/*
 * arena.h - a bump allocator: one per imported file, freed at once.
 *
 * Memory from arena_alloc() lives until arena_release(); nothing is freed
 * individually.  Allocation failure aborts (see util.h).
 */
#ifndef KB_ARENA_H
#define KB_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	size_t used_total;
};

void arena_init(struct arena *a);
void arena_release(struct arena *a);
void *arena_alloc(struct arena *a, size_t n);  /* zeroed, 16-byte aligned */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);  /* NULL stays NULL */
/* xgrow() for arrays that live in the arena: the array moves to a bigger
 * place in a (doubling, like xgrow) and the old place is left unused. */
void arena_grow(struct arena *a, void *pp, size_t *cap, size_t need, size_t elem);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
