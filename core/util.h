/*
 * util.h - allocation that never returns NULL, and small string helpers.
 *
 * Out of memory is the one condition kbench does not try to survive: every
 * allocation goes through xmalloc() and friends, which print one line and
 * abort.  Everything else reports errors through struct kb_err (err.h).
 */
#ifndef KB_UTIL_H
#define KB_UTIL_H

#include <stddef.h>

/* a + b and a * b for sizes of allocations: an overflow aborts (it is a
 * bug or an absurd input, never a smaller buffer). */
size_t size_add(size_t a, size_t b);
size_t size_mul(size_t a, size_t b);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* The capacity xgrow() and arena_grow() give an array of cap that must
 * hold need: doubled from at least 8. */
size_t grow_cap(size_t cap, size_t need);
/* Grow *p (an array of elem-sized items with capacity *cap) to hold need. */
void xgrow(void *pp, size_t *cap, size_t need, size_t elem);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* True when s starts with prefix. */
int str_starts(const char *s, const char *prefix);
/* The value of hex digit c (0-9, A-F, a-f), or -1. */
int str_hexval(int c);
/* Case-insensitive equality. */
int str_ieq(const char *a, const char *b);
/* Pointer to the first non-blank character of s[0..end) or end.  (Inline:
 * the parsers call it for nearly every token of every line.) */
static inline const char *str_skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Length of s[0..len) without trailing blanks (space, tab, CR, LF). */
static inline size_t str_rtrim_len(const char *s, size_t len)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	return len;
}

/* Find needle in s[0..len); NULL when absent. */
const char *str_find(const char *s, size_t len, const char *needle);
/* The same, ASCII letters matching in either case. */
const char *str_find_ci(const char *s, size_t len, const char *needle);
/* Length of the valid UTF-8 sequence at p (1..4; overlong forms,
 * surrogates and code points past U+10FFFF are invalid), or 0. */
size_t str_utf8_seq(const unsigned char *p, const unsigned char *end);
/* True when s[0..len) is valid UTF-8 (a name that can go into JSON, XML
 * and the database as text). */
int str_utf8_valid(const char *s, size_t len);
/* Is name one of the items of the comma list list ("footnoted,sd_bound")?
 * NULL is the empty list. */
int str_list_has(const char *list, const char *name);
/* True when s[0..len) is one or more ASCII digits and nothing else. */
int str_all_digits(const char *s, size_t len);

/* FNV-1a over several strings: start from STR_HASH_INIT and add each
 * string in turn (NULL hashes as a marker of its own, so ("a", NULL) and
 * (NULL, "a") differ, and an end marker separates the strings). */
#define STR_HASH_INIT ((size_t)1469598103934665603ULL)
size_t str_hash_add(size_t h, const char *s);

#endif
