/*
 * textread.c - a source's bytes, read with a bound (see textread.h).
 */
#include "textread.h"
#include "gz.h"

#include <errno.h>
#include <string.h>

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
