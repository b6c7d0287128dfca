#include "arena.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t size;
	size_t used;
	/* data follows, aligned */
	max_align_t data[];
};

#define ARENA_BLOCK 65536

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->used_total = 0;
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	arena_init(a);
}

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	void *p;

	n = size_add(n, 15) & ~(size_t)15;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = xmalloc(size_add(sizeof(*b), size));
		b->size = size;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	a->used_total += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, size_add(n, 1));

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list again;
	int n;
	char *p;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return arena_strdup(a, "");
	p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

void arena_grow(struct arena *a, void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t c;
	void *n;

	if (need <= *cap)
		return;
	c = grow_cap(*cap, need);
	n = arena_alloc(a, size_mul(c, elem));
	if (*p && *cap)
		memcpy(n, *p, *cap * elem);
	*p = n;
	*cap = c;
}
