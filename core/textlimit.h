/*
 * textlimit.h - the limits a source's text is held to while it is read.
 *
 * Chunk by chunk, as the bytes come (from a file, standard input or
 * inflated gzip data): at most max bytes of text, no NUL byte, no line
 * over max_line bytes.  Prints nothing.
 */
#ifndef KB_TEXTLIMIT_H
#define KB_TEXTLIMIT_H

#include <stddef.h>

#include "err.h"

/* The limits, and where the text stands, across chunks. */
struct text_limit {
	size_t max;             /* bytes of text in all */
	size_t max_line;        /* 0: no line or NUL checks */
	const char *in;         /* "" or " in gzip data", for the messages */
	size_t total;
	size_t cur;             /* bytes of the current line so far */
	long line;              /* 1-based number of the current line */
};

void text_limit_init(struct text_limit *t, size_t max, size_t max_line, const char *in);
/* What text_limit_add and text_read return for binary data (a NUL byte),
 * so that a tree walk can skip such a file (an image beside the logs)
 * instead of failing it. */
#define TEXT_BINARY (-2)

/* p[0..n) as the text's continuation: -1 with err set (file path, the
 * line) on an over-long line or more than max bytes, TEXT_BINARY on a NUL
 * byte. */
int text_limit_add(struct text_limit *t, const void *p, size_t n, const char *path,
		   struct kb_err *err);

#endif
