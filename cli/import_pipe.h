/*
 * import_pipe.h - what `kbench import` (cmd_import.c) and its pipeline
 * (import_pipe.c: the directory walk, the reader thread and the queue
 * between it and the storing thread) share.
 */
#ifndef KB_IMPORT_PIPE_H
#define KB_IMPORT_PIPE_H

#include "../core/buf.h"
#include "../core/err.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../ingest/record.h"
#include "opt.h"
#include "progress.h"

#include <stddef.h>

/* How paths below a directory are read (--layout). */
enum import_layout {
	LAYOUT_DETECT = 0,      /* default: mmtests trees are detected */
	LAYOUT_MMTESTS,
	LAYOUT_LKP,
	LAYOUT_NONE,            /* every file, paths mean nothing */
};

struct import_opts {
	const char *db;
	const char *variant, *variant_prefix, *machine, *kernel, *format, *time_format, *layout_name;
	struct strlist set;
	long runs;                  /* from --set runs=N, 0 when not given */
	int dry_run, replace, list_formats, explain, verbose, quiet;
	enum import_layout layout;
};

/*
 * What is printed.  VERBOSE: a line per file on stdout (the default
 * when stdout or stderr is not a terminal, and --verbose).  COMPACT (both
 * are terminals): the progress line, and per-file lines only for errors,
 * skips and notes.  QUIET (--quiet): errors only.  COMPACT and QUIET end
 * with the summary (for one file: that file's line).
 */
enum import_talk { TALK_VERBOSE, TALK_COMPACT, TALK_QUIET };


/* A line of output about a file, held until the file's transaction
 * commits: kbench says "imported" only of what is in the database. */
enum said_kind { SAID_FILE, SAID_SKIP, SAID_ERR };

struct said {
	char *text;
	enum said_kind kind;    /* SAID_ERR goes to stderr */
	int stored;             /* about a stored file (its counts go to the totals) */
	size_t runs, samples, summaries;
};

struct import_totals {
	size_t files, failed, already, skipped, runs, samples, summaries;
	size_t binary;          /* of skipped: binary files of a walk */
	/* the store's server went away: files after it are not tried */
	int server_lost;
	size_t not_tried;
	struct said *wait;      /* lines waiting for the commit */
	size_t nwait, waitcap;
	enum import_talk talk;
	char *last;             /* the last file line not printed (COMPACT, QUIET) */
	struct progress prog;
	/* for the progress line: whole files handled, their bytes on disk,
	 * runs parsed, and what the walk found before importing began */
	size_t disk_files, runs_seen, total_files, messages;
	long long disk_bytes, total_bytes;
};

/*
 * Importing is two stages.  prepare() reads, hashes and parses one file
 * into an item; finish() stores the item and prints what happened.  With
 * a database, a reader thread prepares the files in order while the main
 * thread stores them (SQLite and stdout stay on the main thread; ingest
 * runs on the reader thread only), so parsing overlaps storing on a
 * second core.  Items arrive in the order of the paths, so the output is
 * the same as one at a time.
 */
enum item_kind {
	ITEM_READY,             /* parsed: store it */
	ITEM_FAILED,            /* err says why */
	ITEM_SKIPPED,           /* walked file with no benchmark output */
	ITEM_EXPLAINED,         /* --explain: printed already, nothing to store */
};

struct item {
	enum item_kind kind;
	struct item *next;
	char *path;             /* as displayed */
	int is_dir;             /* a directory that could not be read */
	size_t bytes;           /* of the source, for the reader's memory budget */
	struct kb_err err;
	struct rec_batch batch;
	struct db_import imp;
	char sha[65];
	char *parent, *host, *label;
	struct buf fmt;
	const char *skip_why;   /* ITEM_SKIPPED: why */
	int binary;             /* ITEM_SKIPPED: a binary file of a walk */
	char *notes;            /* lines about parts left out of a mail */
	char *mail_from, *mail_date, *mail_subject, *message_id;
	int mail;               /* a message of an mbox, a Maildir or a mail file */
	/* the last item of a file: the file is done, with this many bytes */
	int file_done;
	long long disk_bytes;
};

/* A failed item for path until import_prepare() says otherwise. */
struct item *import_item_new(const char *path);
void import_item_free(struct item *it);
/* The bytes of path (or stdin for "-"), gzip inflated; -1 with err set. */
int import_read_source(const char *path, struct buf *out, struct kb_err *err);
/* A plain file's bytes (read already) as an item; never NULL. */
struct item *import_prepare(const struct import_opts *o, const char *path,
			    const struct buf *data, int walked);
/* One mail message msg[0..len) of the file at path as an item; never NULL. */
struct item *import_prepare_message(const struct import_opts *o, const char *path,
				    const char *msg, size_t len, int mboxrd, long line,
				    size_t index);
/* Store a prepared item (db is NULL with --explain), report the outcome
 * and count it in t; frees the item. */
void import_finish(struct db *db, const struct import_opts *o, struct item *it,
		   struct import_totals *t);

/* Import every path of args, in order: with a database, files are read
 * and parsed on a second thread while this one stores them; without one
 * (--explain), one at a time.  Outcomes are counted in t. */
void import_pipe_run(struct db *db, const struct import_opts *o, const char **args,
		     size_t nargs, struct import_totals *t);

#endif
