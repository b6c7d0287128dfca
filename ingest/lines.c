/*
 * lines.c - the helpers every parser reads its lines with (declared in
 * ingest.h): blank lines, splitting at blanks, tokens and command-line
 * options, whole words, patterns, column heads.  They look at the lines
 * only: nothing here knows a format or the segmenter.
 */
#include "ingest.h"
#include "../core/rx.h"
#include "../core/util.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int ingest_line_blank(const struct ingest_line *l)
{
	return str_skip_ws(l->s, l->s + l->len) == l->s + l->len;
}

static __thread struct ingest_memo_scope memo;

void ingest_memo_begin(const struct ingest_doc *doc, struct ingest_memo_scope *save)
{
	*save = memo;
	memo.lines = doc->lines;
	memo.n = doc->nlines;
	/* 0: not known yet; a value is stored plus one */
	memo.v = doc->nlines ? xcalloc(doc->nlines, MEMO_KEYS) : NULL;
}

void ingest_memo_end(const struct ingest_memo_scope *save)
{
	free(memo.v);
	memo = *save;
}

/* The slot of l's key, or NULL when l is not one of the document's lines. */
static unsigned char *memo_slot(const struct ingest_line *l, enum ingest_memo_key key)
{
	uintptr_t at = (uintptr_t)l, base = (uintptr_t)memo.lines;
	size_t i;

	if (!memo.v || at < base || (at - base) % sizeof(*l) != 0)
		return NULL;
	i = (at - base) / sizeof(*l);
	if (i >= memo.n)
		return NULL;
	return &memo.v[i * MEMO_KEYS + key];
}

int ingest_memo_get(const struct ingest_line *l, enum ingest_memo_key key)
{
	unsigned char *v = memo_slot(l, key);

	return v && *v ? *v - 1 : -1;
}

void ingest_memo_put(const struct ingest_line *l, enum ingest_memo_key key, int v)
{
	unsigned char *slot = memo_slot(l, key);

	if (slot && v >= 0 && v < 255)
		*slot = (unsigned char)(v + 1);
}

size_t ingest_skip_blank(const struct ingest_line *lines, size_t i, size_t n)
{
	while (i < n && ingest_line_blank(&lines[i]))
		i++;
	return i;
}

size_t ingest_split(const char *s, size_t len, struct ingest_tok *tok, size_t max)
{
	const char *p = s, *end = s + len;
	size_t n = 0;

	for (;;) {
		const char *start;
		p = str_skip_ws(p, end);
		if (p >= end)
			break;
		start = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (n < max) {
			tok[n].s = start;
			tok[n].len = (size_t)(p - start);
		}
		n++;
	}
	return n;
}

int ingest_autonuma_test(const char *s, size_t n)
{
	size_t i;

	if (n < 6 || strncmp(s, "numa0", 5) != 0 || !(s[5] == '1' || s[5] == '2'))
		return 0;
	for (i = 6; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return n == 6 || s[6] == '_';
}

int ingest_word_eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

int ingest_line_names_word(const struct ingest_line *l, const char *w)
{
	size_t wl = strlen(w), i;
	int lo = tolower((unsigned char)w[0]), up = toupper((unsigned char)w[0]);

	for (i = 0; wl && i + wl <= l->len; i++) {
		/* the first letter first: a call per position is what costs */
		if (l->s[i] != lo && l->s[i] != up)
			continue;
		if (strncasecmp(l->s + i, w, wl) != 0)
			continue;
		if (i > 0 && (isalnum((unsigned char)l->s[i - 1]) || l->s[i - 1] == '_'))
			continue;
		if (i + wl < l->len && (isalnum((unsigned char)l->s[i + wl]) || l->s[i + wl] == '_'))
			continue;
		return 1;
	}
	return 0;
}

int ingest_tok_is(const struct ingest_tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->len == n && memcmp(t->s, word, n) == 0;
}

int ingest_line_matches(struct rx *rx, const struct ingest_line *l)
{
	struct rx_cap cap[1];

	/* rx_match() reports captures: a yes/no question still needs one */
	return rx_match(rx, l->s, l->len, cap, 1) > 0;
}

size_t ingest_opt_match(const struct ingest_tok *t, const char *name)
{
	size_t n = strlen(name);

	if (t->len < n || memcmp(t->s, name, n) != 0)
		return 0;
	if (t->len == n || t->s[n] == '=')
		return n;
	if (n == 2 && t->s[n] >= '0' && t->s[n] <= '9')
		return n;
	return 0;
}

size_t ingest_column_heads(const struct ingest_line *l, struct ingest_tok *names, size_t max)
{
	const char *p = l->s, *end = l->s + l->len;
	size_t n = 0, i, j;

	if (l->len > 200 || l->len < 5)
		return 0;
	while (p < end) {
		const char *w, *last;
		size_t words = 0, gap;
		int letter = 0;
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		/* a name: words set apart by one or two blanks */
		for (w = last = p; p < end;) {
			const char *t = p;
			while (p < end && *p != ' ')
				p++;
			words++;
			for (; t < p; t++) {
				if (isalpha((unsigned char)*t))
					letter = 1;
				if (*t == '=' || *t == ':' || *t == '#' || *t == '|')
					return 0;
			}
			last = p;
			for (gap = 0; p + gap < end && p[gap] == ' '; gap++)
				;
			if (gap >= 3 || p + gap == end)
				break;
			p += gap;
		}
		if (!letter || words > 4 || n == max)
			return 0;
		names[n].s = w;
		names[n++].len = (size_t)(last - w);
	}
	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (names[i].len == names[j].len && !memcmp(names[i].s, names[j].s, names[i].len))
				return 0;
	return n;
}
