#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void die_oom(size_t n)
{
	fprintf(stderr, "kbench: out of memory (%zu bytes)\n", n);
	abort();
}

size_t size_add(size_t a, size_t b)
{
	if (a > SIZE_MAX - b) {
		fprintf(stderr, "kbench: allocation size overflows (%zu + %zu bytes)\n", a, b);
		abort();
	}
	return a + b;
}

size_t size_mul(size_t a, size_t b)
{
	if (b && a > SIZE_MAX / b) {
		fprintf(stderr, "kbench: allocation size overflows (%zu x %zu bytes)\n", a, b);
		abort();
	}
	return a * b;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom(size_mul(n, size));
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(size_add(n, 1));
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

size_t grow_cap(size_t cap, size_t need)
{
	size_t c = cap < 8 ? 8 : cap;

	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;   /* no doubling past the top */
	return c;
}

void xgrow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t c;

	if (need <= *cap)
		return;
	c = grow_cap(*cap, need);
	*p = xrealloc(*p, size_mul(c, elem));
	*cap = c;
}

int str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_ieq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

/* Haystacks shorter than this (lines, mostly) are searched by jumping
 * between occurrences of the needle's first byte: memmem() prepares a
 * shift table on every call, which costs more than a short line does. */
#define STR_FIND_SHORT 512

/* ASCII case-insensitive str_find(): the first byte of the needle in
 * either case is looked for first, so most places cost one compare
 * instead of a strncasecmp() call. */
const char *str_find_ci(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;
	char lo, up;

	if (n == 0)
		return s;
	if (n > len)
		return NULL;
	lo = needle[0] >= 'A' && needle[0] <= 'Z' ? (char)(needle[0] + 32) : needle[0];
	up = lo >= 'a' && lo <= 'z' ? (char)(lo - 32) : lo;
	for (i = 0; i + n <= len; i++) {
		if (s[i] != lo && s[i] != up)
			continue;
		if (strncasecmp(s + i + 1, needle + 1, n - 1) == 0)
			return s + i;
	}
	return NULL;
}

const char *str_find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	const char *p, *last;

	if (n == 0)
		return s;
	if (n > len)
		return NULL;
	if (len >= STR_FIND_SHORT)
		return memmem(s, len, needle, n);
	last = s + (len - n);       /* last place a match can start */
	for (p = s; p <= last; p++) {
		p = memchr(p, needle[0], (size_t)(last - p) + 1);
		if (!p)
			return NULL;
		if (memcmp(p + 1, needle + 1, n - 1) == 0)
			return p;
	}
	return NULL;
}

int str_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; n && p && (p = strstr(p, name)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
	return 0;
}

int str_all_digits(const char *s, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

size_t str_utf8_seq(const unsigned char *p, const unsigned char *end)
{
	size_t n, i;
	unsigned c = p[0];
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

int str_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = *p < 0x80 ? 1 : str_utf8_seq(p, end);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

int str_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

size_t str_hash_add(size_t h, const char *s)
{
	if (!s)
		return (h ^ 0x1ff) * (size_t)1099511628211ULL;
	while (*s)
		h = (h ^ (unsigned char)*s++) * (size_t)1099511628211ULL;
	return (h ^ 0x100) * (size_t)1099511628211ULL;
}
