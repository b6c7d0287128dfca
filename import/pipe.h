/*
 * pipe.h - `kbench import`'s engine: the walk of the paths given
 * (directories recursively, result trees, Maildirs, mboxes), a reader
 * thread that reads, hashes and parses each source (prepare.h) while the
 * caller's thread stores them through db/ (finish), and the bounded queue
 * between the two.  The store and the events stay on the caller's thread,
 * ingest runs on the reader thread only, so parsing overlaps storing on a
 * second core.  Sources are stored in the order of the paths, so what is
 * said about them comes in that order too, as if one at a time.  Prints
 * nothing: everything to say goes through a struct import_events.
 */
#ifndef KB_IMPORT_PIPE_H
#define KB_IMPORT_PIPE_H

#include "../core/err.h"
#include "../db/db.h"
#include "prepare.h"

#include <stddef.h>

/* What an import did, counted as it goes. */
struct import_totals {
	size_t files, failed, already, skipped;
	size_t runs, samples, summaries;        /* of files committed */
	size_t binary;          /* of skipped: binary files of a walk */
	size_t messages;        /* of files: mail messages */
	/* the store's server went away: files after it are not tried */
	int server_lost;
	size_t not_tried;
	/* for a progress line: whole files handled, their bytes on disk,
	 * runs parsed, and what the walk found before importing began */
	size_t disk_files, runs_seen, total_files;
	long long disk_bytes, total_bytes;
};

enum import_event_kind {
	IMPORT_EV_EXPLAIN,      /* --explain's account of a source: text */
	IMPORT_EV_NOTES,        /* parts of a mail left out: text, a line each */
	IMPORT_EV_SKIPPED,      /* not a source (no benchmark output, binary, a
				 * link read before): text says why */
	IMPORT_EV_FAILED,       /* err says why (err->file the source, or empty) */
	IMPORT_EV_ALREADY,      /* the same bytes were imported before as
				 * res->already_path: nothing changed */
	IMPORT_EV_STORED,       /* stored (with dry_run: would be): text the
				 * formats, res the counts */
	IMPORT_EV_LOST,         /* the lost files last said STORED were not stored
				 * after all (the store rolled their transaction back) */
};

/* Something to say about a source.  Pointers are valid during the call. */
struct import_event {
	enum import_event_kind kind;
	const char *path;       /* the source as given (not escaped); NULL for
				 * what is about no one source */
	const char *text;
	const struct kb_err *err;
	const struct db_import_result *res;
	size_t lost;
};

/* How an import reports.  Called on the thread of import_pipe_run() only,
 * never on the reader thread. */
struct import_events {
	void *ctx;
	/* In path order; a stored source's events wait until its transaction
	 * commits (what is said to be imported is in the store). */
	void (*said)(void *ctx, const struct import_event *ev);
	/* After each source, with the totals so far; may be NULL.  When set,
	 * the paths are walked once before importing to count the files and
	 * their bytes (t->total_files, t->total_bytes). */
	void (*progress)(void *ctx, const struct import_totals *t);
};

/* Import every path of args, in order: with a database, files are read
 * and prepared on a second thread while this one stores them; without one
 * (--explain), one at a time.  Commits the store's last group.  Outcomes
 * are counted in t (zeroed by the caller) and said through ev. */
void import_pipe_run(struct db *db, const struct import_opts *o, const struct import_events *ev,
		     const char **args, size_t nargs, struct import_totals *t);

#endif
