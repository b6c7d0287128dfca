/*
 * gz.h - gzip-compressed input, read whole.
 *
 * Result trees keep logs gzipped (mmtests' *.gz, lkp's <program>.gz);
 * the importer inflates them in memory before the front end sees the
 * bytes.  Uses zlib; prints nothing.
 */
#ifndef KB_GZ_H
#define KB_GZ_H

#include <stddef.h>

#include "buf.h"
#include "err.h"

/* Do data[0..len) start with the gzip magic bytes (1f 8b)? */
int gz_is_gzip(const void *data, size_t len);

/*
 * Inflate the gzip stream data[0..len) (several concatenated members
 * allowed, as gzip itself writes them) and append the result to out.
 * Fails (-1, err set with file path and line 0) on a corrupt or
 * truncated stream, or when the result would exceed max bytes.
 *
 * max_line, when not 0, applies a text reader's limits while inflating,
 * chunk by chunk: a NUL byte, or a line longer than max_line bytes
 * (without its "\r\n" or "\n"), fails at once (err names the line), so
 * a gzip bomb is refused after a few kilobytes instead of after max.
 */
int gz_inflate(const void *data, size_t len, size_t max, size_t max_line, struct buf *out,
	       const char *path, struct kb_err *err);

#endif
