/*
 * source.h - one source of an import: its bytes (read bounded, gzip
 * inflated), its identity (the SHA-256 that makes a re-import a no-op)
 * and the names it gives the runs nothing else names.
 */
#ifndef KB_IMPORT_SOURCE_H
#define KB_IMPORT_SOURCE_H

#include "../core/buf.h"
#include "../core/err.h"
#include "../ingest/mail.h"

#include <stdio.h>

/* How paths below a directory are read (--layout). */
enum import_layout {
	LAYOUT_DETECT = 0,      /* default: mmtests trees are detected */
	LAYOUT_MMTESTS,
	LAYOUT_LKP,
	LAYOUT_NONE,            /* every file, paths mean nothing */
};

/* The bytes of path (or stdin for "-") into out, gzip data (by its magic
 * bytes, whatever the name) inflated, bounded by INGEST_MAX_INFLATED and
 * INGEST_MAX_LINE.  0, or a negative text_read() code (TEXT_BINARY: a NUL
 * byte) with err set; out may hold what was read before the failure. */
int import_read_source(const char *path, struct buf *out, struct kb_err *err);
/* The same for the open stream f, read as the file at path (stdin: as
 * "-"); f stays open. */
int import_read_stream(FILE *f, const char *path, struct buf *out, struct kb_err *err);

/* The SHA-256 (hex) of data, plus, inside a result tree read with layout,
 * the part of path the layout reads: sha[65]. */
void import_source_identity(enum import_layout layout, const char *path,
			    const struct buf *data, char sha[65]);
/* The SHA-256 (hex) of a decoded mail message's headers and text. */
void import_mail_identity(const struct mail_msg *m, char sha[65]);

/* A source's own name: the file name without directory, .gz and one more
 * extension ("" for stdin).  Allocated; the caller frees it. */
char *import_source_name(const char *path);
/* A mail message's short name ("Focht-2002-10-07", else the Message-ID's
 * local part, else the file's name).  Allocated; the caller frees it. */
char *import_mail_label(const char *from, const char *date, const char *message_id,
			const char *path);

#endif
