/*
 * gz.c - inflate a gzip file held in memory (see gz.h).
 */
#include "gz.h"
#include "textlimit.h"

#include <string.h>
#include <zlib.h>

int gz_is_gzip(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int gz_inflate(const void *data, size_t len, size_t max, size_t max_line, struct buf *out,
	       const char *path, struct kb_err *err)
{
	struct text_limit tl;
	unsigned char chunk[65536];
	const unsigned char *in = data;
	size_t used = 0;
	z_stream zs;
	int rc, lim;

	if (!gz_is_gzip(data, len))
		return kb_err_set(err, path, 0, "not gzip data (no gzip header)");
	text_limit_init(&tl, max, max_line, " in gzip data");
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
			if ((lim = text_limit_add(&tl, chunk, sizeof(chunk) - zs.avail_out, path, err)) < 0) {
				inflateEnd(&zs);
				return lim;     /* TEXT_BINARY for a NUL byte */
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
