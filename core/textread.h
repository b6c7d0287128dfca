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
#include "textlimit.h"

/*
 * All of f into out, gzip data (by its magic bytes) inflated, under the
 * limits of textlimit.h; *gzip says which it was.  -1 with err set on a
 * read error ("path: cannot read: reason", or "cannot read NAME: reason"
 * when name is not NULL, e.g. "stdin") or a limit; TEXT_BINARY for a NUL
 * byte.
 */
int text_read(FILE *f, const char *path, const char *name, size_t max, size_t max_line,
	      struct buf *out, int *gzip, struct kb_err *err);

#endif
