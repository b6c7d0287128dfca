/*
 * textlimit.c - text held to its limits chunk by chunk (see textlimit.h).
 */
#include "textlimit.h"

#include <stdint.h>
#include <string.h>

void text_limit_init(struct text_limit *t, size_t max, size_t max_line, const char *in)
{
	t->max = max;
	t->max_line = max_line;
	t->in = in;
	t->total = 0;
	t->cur = 0;
	t->line = 1;
}

/* The '\n' bytes in [p, end), a word at a time. */
static size_t count_nl(const unsigned char *p, const unsigned char *end)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full, nl = 0x0a0a0a0a0a0a0a0aull;
	size_t n = 0;

	for (; end - p >= 8; p += 8) {
		uint64_t w, z;

		memcpy(&w, p, 8);
		w ^= nl;                                /* a '\n' is now a zero byte */
		z = ~(((w & lo7) + lo7) | w | lo7);     /* its high bit set, only there */
		n += (size_t)__builtin_popcountll(z);
	}
	for (; p < end; p++)
		n += *p == '\n';
	return n;
}

static int too_long(const struct text_limit *t, const char *path, struct kb_err *err)
{
	return kb_err_set(err, path, t->line, "line longer than %zu bytes%s (not a benchmark log)",
			  t->max_line, t->in);
}

/* A chunk no longer than a line may be: only its first line can make the
 * current one too long, and the lines inside it are short; so one search
 * for a NUL, the first and the last line end (not one per line: `yes`
 * feeds two-byte lines). */
static int add_short(struct text_limit *t, const unsigned char *p, size_t n, const char *path,
		     struct kb_err *err)
{
	const unsigned char *end = p + n, *nul = memchr(p, 0, n), *first, *last;

	if (nul) {
		t->line += (long)count_nl(p, nul);
		kb_err_set(err, path, t->line, "binary data (NUL byte)%s: not a text file", t->in);
		return TEXT_BINARY;
	}
	first = memchr(p, '\n', n);
	if (!first) {
		t->cur += n;
		return t->cur > t->max_line + 1 ? too_long(t, path, err) : 0;
	}
	t->cur += (size_t)(first - p);
	if (t->cur > t->max_line + 1)
		return too_long(t, path, err);
	last = memrchr(p, '\n', n);
	t->line += (long)count_nl(first, last + 1);
	t->cur = (size_t)(end - last - 1);
	return 0;
}

int text_limit_add(struct text_limit *t, const void *data, size_t n, const char *path,
		   struct kb_err *err)
{
	const unsigned char *p = data, *end = p + n;

	t->total += n;
	if (t->total > t->max)
		return kb_err_set(err, path, 0, "more than %zu bytes of text (the most kbench "
				  "reads of one source)", t->max);
	if (!t->max_line)
		return 0;
	if (n <= t->max_line)
		return add_short(t, p, n, path, err);
	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *stop = nl ? nl : end;

		if (memchr(p, 0, (size_t)(stop - p))) {
			kb_err_set(err, path, t->line, "binary data (NUL byte)%s: not a text file", t->in);
			return TEXT_BINARY;
		}
		t->cur += (size_t)(stop - p);
		/* one more byte allowed for the '\r' of a CRLF line end */
		if (t->cur > t->max_line + 1)
			return too_long(t, path, err);
		if (!nl)
			break;
		t->cur = 0;
		t->line++;
		p = nl + 1;
	}
	return 0;
}
