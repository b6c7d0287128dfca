/*
 * textread.c - a source's bytes, read with a bound (see textread.h).
 */
#include "textread.h"
#include "gz.h"

#include <errno.h>
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

/* Append up to n bytes of f to out; the count, 0 at the end, -1 on error. */
static long read_chunk(FILE *f, struct buf *out, size_t n)
{
	size_t got;

	buf_grow(out, n);
	errno = 0;
	got = fread(out->data + out->len, 1, n, f);
	out->len += got;
	out->data[out->len] = '\0';
	if (!got && ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return (long)got;
}

int text_read(FILE *f, const char *path, const char *name, size_t max, size_t max_line,
	      struct buf *out, int *gzip, struct kb_err *err)
{
	struct text_limit t;
	struct buf raw = BUF_INIT;
	size_t start = out->len;
	long got;
	int rc;

	*gzip = 0;
	text_limit_init(&t, max, max_line, "");
	/* The first bytes say whether it is gzip data. */
	while (out->len - start < 2 && (got = read_chunk(f, out, 65536)) > 0)
		;
	if (ferror(f))
		goto read_error;
	if (!gz_is_gzip(out->data + start, out->len - start)) {
		if ((rc = text_limit_add(&t, out->data + start, out->len - start, path, err)) < 0)
			return rc;
		for (;;) {
			size_t at = out->len;

			got = read_chunk(f, out, 65536);
			if (got < 0)
				goto read_error;
			if (!got)
				return 0;
			if ((rc = text_limit_add(&t, out->data + at, (size_t)got, path, err)) < 0)
				return rc;
		}
	}
	/* gzip: the compressed bytes, under the same cap, then inflated */
	*gzip = 1;
	buf_add(&raw, out->data + start, out->len - start);
	out->len = start;
	if (out->data)
		out->data[start] = '\0';
	while ((got = read_chunk(f, &raw, 65536)) > 0)
		if (raw.len > max) {
			buf_release(&raw);
			return kb_err_set(err, path, 0, "more than %zu bytes of gzip data (the most "
					  "kbench reads of one source)", max);
		}
	if (got < 0) {
		buf_release(&raw);
		goto read_error;
	}
	rc = gz_inflate(raw.data, raw.len, max, max_line, out, path, err);
	buf_release(&raw);
	return rc;
read_error:
	if (name)
		return kb_err_set(err, path, 0, "cannot read %s: %s", name, strerror(errno));
	return kb_err_set(err, path, 0, "cannot read: %s", strerror(errno));
}
