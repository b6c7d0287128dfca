/*
 * textread.h - a source's bytes, read with a bound.
 *
 * Plain files, standard input and gzip data are held to the same limits
 * while they are read, chunk by chunk: at most max bytes of text, no NUL
 * byte, no line over max_line bytes.  `kbench import /dev/zero` or
 * `yes | kbench import -` stop at once or at the cap, not when memory
 * runs out.  Prints nothing.
 */
#ifndef KB_TEXTREAD_H
#define KB_TEXTREAD_H

#include <stddef.h>
#include <stdio.h>

#include "buf.h"
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

/*
 * All of f into out, gzip data (by its magic bytes) inflated, under the
 * limits above; *gzip says which it was.  -1 with err set on a read
 * error ("path: cannot read: reason", or "cannot read NAME: reason" when
 * name is not NULL, e.g. "stdin") or a limit; TEXT_BINARY for a NUL byte.
 */
int text_read(FILE *f, const char *path, const char *name, size_t max, size_t max_line,
	      struct buf *out, int *gzip, struct kb_err *err);

#endif
