#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void die_oom(size_t n)
{
	fprintf(stderr, "kbench: out of memory (%zu bytes)\n", n);
	abort();
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
		die_oom(n * size);
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
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void xgrow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t c = *cap;

	if (need <= c)
		return;
	if (c < 8)
		c = 8;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, c * elem);
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

const char *str_skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

size_t str_rtrim_len(const char *s, size_t len)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	return len;
}

const char *str_find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return s;
	if (n > len)
		return NULL;
	return memmem(s, len, needle, n);
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
