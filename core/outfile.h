/*
 * outfile.h - the one writer of every output file (-o, --output, --assets,
 * chart files).
 *
 * A regular file, or one that does not exist yet, is written into a
 * temporary file beside its target (a symbolic link resolved first) and
 * renamed over it when complete, with the old file's mode and owner; a
 * file with more than one hard link is written in place from that
 * temporary copy, so its links stay.  Anything else (a device, a FIFO, a
 * socket, "-" for standard output) is written in place.  A run that fails
 * (outfile_abort) leaves a regular target as it was.  Every write error,
 * a full device included, comes back from outfile_commit.
 */
#ifndef KB_OUTFILE_H
#define KB_OUTFILE_H

#include <stdio.h>

struct kb_err;

struct outfile {
	FILE *f;        /* write here between open and commit/abort */
	FILE *raw;      /* under f when f is the terminal filter (outfile_text) */
	char *path;     /* as given (for messages) */
	char *target;   /* the file written: path with its links resolved */
	char *tmp;      /* the temporary file, NULL when written in place */
	int is_stdout;
	int keep_links; /* target has other hard links: copy into it */
	int had_target; /* target existed: its mode and owner are kept */
	unsigned mode;
	unsigned uid, gid;
};

/* Opens path ("-": standard output) for writing.  0, or -1 with err set
 * ("path: cannot write: reason"). */
int outfile_open(struct outfile *o, const char *path, struct kb_err *err);
/* Text from here on goes through the terminal sanitiser (core/term.h):
 * a text report holds no control character from input either. */
void outfile_text(struct outfile *o);
/* Flushes, checks and puts the file in place; releases o either way.
 * 0, or -1 with err set (the target as it was when it is a regular file). */
int outfile_commit(struct outfile *o, struct kb_err *err);
/* Drops what was written (the temporary file); releases o. */
void outfile_abort(struct outfile *o);

/*
 * The seam every verb writes its output through: opens path (NULL or
 * "-": standard output), passes the stream to write(), and commits what
 * it wrote, or drops it when write() returns < 0 or the stream has a
 * write error.  OUTFILE_TEXT sends the text through the terminal
 * sanitiser.  0, or -1 with err set (a regular target as it was).
 */
enum { OUTFILE_BINARY = 0, OUTFILE_TEXT = 1 };
typedef int (*outfile_writer)(FILE *f, void *ctx, struct kb_err *err);
int outfile_write(const char *path, int mode, outfile_writer write, void *ctx, struct kb_err *err);

/* mkdir -p path (an output directory, such as the report's --assets):
 * 0, or -1 with err set ("path: cannot create: reason"). */
int outfile_make_dirs(const char *path, struct kb_err *err);

#endif
