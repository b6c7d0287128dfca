/*
 * gz.c - inflate a gzip file held in memory (see gz.h).
 */
#include "gz.h"

#include <string.h>
#include <zlib.h>

int gz_is_gzip(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* State of the text checks across chunks. */
struct text_check {
	size_t max_line;
	size_t cur;             /* bytes of the current line so far */
	long line;              /* 1-based number of the current line */
};

/* Check p[0..n) as the continuation of the text; -1 with err set when a
 * NUL byte or an over-long line shows it is not what a parser reads. */
static int text_check(struct text_check *t, const unsigned char *p, size_t n,
		      const char *path, struct kb_err *err)
{
	const unsigned char *end = p + n;

	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *stop = nl ? nl : end;
		if (memchr(p, 0, (size_t)(stop - p)))
			return kb_err_set(err, path, t->line,
					  "binary data (NUL byte) in gzip data: not a text file");
		t->cur += (size_t)(stop - p);
		/* one more byte allowed for the '\r' of a CRLF line end */
		if (t->cur > t->max_line + 1)
			return kb_err_set(err, path, t->line,
					  "line longer than %zu bytes in gzip data (not a benchmark log)",
					  t->max_line);
		if (!nl)
			break;
		t->cur = 0;
		t->line++;
		p = nl + 1;
	}
	return 0;
}

int gz_inflate(const void *data, size_t len, size_t max, size_t max_line, struct buf *out,
	       const char *path, struct kb_err *err)
{
	struct text_check tc = { max_line, 0, 1 };
	unsigned char chunk[65536];
	const unsigned char *in = data;
	size_t used = 0, produced = 0;
	z_stream zs;
	int rc;

	if (!gz_is_gzip(data, len))
		return kb_err_set(err, path, 0, "not gzip data (no gzip header)");
	memset(&zs, 0, sizeof(zs));
	/* 16 + MAX_WBITS: gzip wrapper only. */
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return kb_err_set(err, path, 0, "cannot start gzip decompression");
	for (;;) {
		size_t avail = len - used;
		zs.next_in = (unsigned char *)in + used;
		zs.avail_in = avail > 0x40000000u ? 0x40000000u : (unsigned)avail;
		do {
			zs.next_out = chunk;
			zs.avail_out = sizeof(chunk);
			rc = inflate(&zs, Z_NO_FLUSH);
			if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
				inflateEnd(&zs);
				return kb_err_set(err, path, 0, "corrupt gzip data: %s",
						  zs.msg ? zs.msg : "inflate failed");
			}
			produced += sizeof(chunk) - zs.avail_out;
			if (max_line && text_check(&tc, chunk, sizeof(chunk) - zs.avail_out,
						   path, err) < 0) {
				inflateEnd(&zs);
				return -1;
			}
			if (produced > max) {
				inflateEnd(&zs);
				return kb_err_set(err, path, 0,
						  "gzip data inflates to more than %zu bytes", max);
			}
			buf_add(out, chunk, sizeof(chunk) - zs.avail_out);
		} while (zs.avail_out == 0 && rc != Z_STREAM_END);
		used = (size_t)(zs.next_in - in);
		if (rc == Z_STREAM_END) {
			/* Another member may follow (cat a.gz b.gz); trailing
			 * zero padding is tolerated, as gzip does. */
			while (used < len && in[used] == 0)
				used++;
			if (used >= len)
				break;
			if (!gz_is_gzip(in + used, len - used)) {
				inflateEnd(&zs);
				return kb_err_set(err, path, 0, "trailing garbage after gzip data");
			}
			inflateReset(&zs);
			continue;
		}
		if (used >= len || rc == Z_BUF_ERROR) {
			inflateEnd(&zs);
			return kb_err_set(err, path, 0, "truncated gzip data (unexpected end of file)");
		}
	}
	inflateEnd(&zs);
	return 0;
}
