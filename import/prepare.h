/*
 * prepare.h - the first stage of importing: one source's bytes (a plain
 * file, or one mail message) read, identified and parsed into an item of
 * records, with the user's options applied (--set, --variant-prefix, the
 * result-tree layout, --machine, --format, ...).  Pure: prints nothing,
 * touches no store; safe on a thread of its own.
 */
#ifndef KB_IMPORT_PREPARE_H
#define KB_IMPORT_PREPARE_H

#include "../core/buf.h"
#include "../core/err.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../ingest/record.h"
#include "source.h"

#include <stddef.h>

/* The options of `kbench import` that shape what is imported. */
struct import_opts {
	const char *variant, *variant_prefix, *machine, *kernel, *format, *time_format, *layout_name;
	const char **set;           /* --set KEY=VALUE, in order */
	size_t nset;
	long runs;                  /* from --set runs=N, 0 when not given */
	int dry_run, replace, explain;
	enum import_layout layout;  /* from layout_name */
};

/* Check the options as the user gave them and fill in what they imply
 * (layout from layout_name, runs from --set runs=N).  0, or -1 with the
 * first problem, a sentence for the user, in msg. */
int import_opts_check(struct import_opts *o, struct buf *msg);

enum import_item_kind {
	IMPORT_READY,           /* parsed: store it */
	IMPORT_FAILED,          /* err says why */
	IMPORT_SKIPPED,         /* walked file with no benchmark output */
	IMPORT_EXPLAINED,       /* --explain: explained, nothing to store */
};

/* One prepared source: its records and what the store needs to know. */
struct import_item {
	enum import_item_kind kind;
	struct import_item *next;       /* the pipe's queue */
	char *path;             /* as displayed */
	int is_dir;             /* a directory that could not be read */
	size_t bytes;           /* of the source, for the reader's memory budget */
	struct kb_err err;
	struct rec_batch batch;
	struct db_import imp;   /* points into the item */
	char sha[65];
	char *parent, *host, *label;
	struct buf fmt;         /* the parsers that claimed segments, comma list */
	const char *skip_why;   /* IMPORT_SKIPPED: why */
	int binary;             /* IMPORT_SKIPPED: a binary file of a walk */
	char *notes;            /* lines about parts left out of a mail, or NULL */
	char *explained;        /* --explain's account of the file, or NULL */
	char *mail_from, *mail_date, *mail_subject, *message_id;
	int mail;               /* a message of an mbox, a Maildir or a mail file */
	/* the last item of a file: the file is done, with this many bytes */
	int file_done;
	long long disk_bytes;
};

/* A failed item for path until a prepare function says otherwise. */
struct import_item *import_item_new(const char *path);
void import_item_free(struct import_item *it);

/* A plain file's bytes (read already) as an item; never NULL.  walked:
 * found while walking a directory, where a text with no benchmark
 * output is skipped, not an error. */
struct import_item *import_prepare(const struct import_opts *o, const char *path,
				   const struct buf *data, int walked);
/* One mail message msg[0..len) of the file at path as an item; never
 * NULL.  mboxrd: from an mbox (">From " unquoted); line: where it starts
 * in the file; index: its place in an mbox, 1-based, or 0 for a file that
 * is one message. */
struct import_item *import_prepare_message(const struct import_opts *o, const char *path,
					   const char *msg, size_t len, int mboxrd, long line,
					   size_t index);

#endif
