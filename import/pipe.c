/*
 * pipe.c - the pipeline of `kbench import` (see pipe.h): the walk of the
 * paths given, the reader thread that reads and prepares each file, the
 * bounded queue that hands the prepared items to the storing thread in
 * path order, and the storing itself, with what is said about each
 * source held until its transaction commits.
 */
#include "pipe.h"
#include "source.h"
#include "../core/buf.h"
#include "../core/util.h"
#include "../core/textread.h"
#include "../ingest/layout.h"
#include "../ingest/mail.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The queue between the reader thread and the storing thread.  The reader
 * waits while the items it has handed over hold PIPE_BYTES of source or
 * PIPE_ITEMS items, so memory does not grow with the number of files
 * (a large file's records are stored before the next large file is read). */
#define PIPE_BYTES ((size_t)2 << 20)
#define PIPE_ITEMS 64

struct file_id {
	dev_t dev;
	ino_t ino;
	int used;
};

/* An event held until the files before it are committed: kbench says
 * "imported" only of what is in the store. */
struct said {
	enum import_event_kind kind;
	char *path, *text;
	struct kb_err err;              /* IMPORT_EV_FAILED */
	struct db_import_result *res;   /* IMPORT_EV_ALREADY, IMPORT_EV_STORED */
	size_t lost;                    /* IMPORT_EV_LOST */
	int stored;             /* about a stored file (its counts go to the totals) */
};

struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t room;    /* the reader waits for the storing side */
	pthread_cond_t ready;   /* the storing side waits for the reader */
	int reader_waits, store_waits;  /* signal only a thread that waits */
	struct import_item *head, *tail;
	size_t items, bytes;    /* handed over and not yet finished */
	int done;               /* the reader has no more items */
	/* Without a reader thread (--explain), items are finished at once. */
	int threaded;
	struct db *db;
	const struct import_opts *o;
	const struct import_events *ev;
	struct import_totals *t;
	/* What is said about stored files waits for their commit (storing
	 * side only). */
	struct said *wait;
	size_t nwait, waitcap;
	const char **args;
	size_t nargs;
	/* Counting pass (for the progress line): walk, count files and their
	 * bytes into t->total_*, read nothing. */
	int counting;
	/* The walk (reader side only): the directories on the current path,
	 * to see a link back up, and every file read, to read a file
	 * reached through several links once. */
	struct file_id *up;
	size_t nup, upcap;
	struct file_id *files;  /* open-addressing set, capacity filescap */
	size_t nfiles, filescap;
};

/* Add (dev, ino) to the walk's set of files; 0 when it was there. */
static int files_add(struct pipe *p, dev_t dev, ino_t ino)
{
	size_t i, mask;

	if ((p->nfiles + 1) * 2 > p->filescap) {
		struct file_id *old = p->files;
		size_t oldcap = p->filescap;
		p->filescap = p->filescap ? p->filescap * 2 : 1024;
		p->files = xcalloc(p->filescap, sizeof(*p->files));
		p->nfiles = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].used)
				files_add(p, old[i].dev, old[i].ino);
		free(old);
	}
	mask = p->filescap - 1;
	i = (size_t)(((unsigned long long)dev * 0x9E3779B97F4A7C15ull) ^ (unsigned long long)ino) & mask;
	while (p->files[i].used) {
		if (p->files[i].dev == dev && p->files[i].ino == ino)
			return 0;
		i = (i + 1) & mask;
	}
	p->files[i].dev = dev;
	p->files[i].ino = ino;
	p->files[i].used = 1;
	p->nfiles++;
	return 1;
}

static void finish(struct pipe *p, struct import_item *it);

/* Wait until the storing side has room for one more item.  Called before
 * reading a file too, so two large files are never in memory at once. */
static void pipe_wait_room(struct pipe *p)
{
	if (!p->threaded)
		return;
	pthread_mutex_lock(&p->lock);
	while (p->items >= PIPE_ITEMS || (p->items > 0 && p->bytes >= PIPE_BYTES)) {
		p->reader_waits = 1;
		pthread_cond_wait(&p->room, &p->lock);
		p->reader_waits = 0;
	}
	pthread_mutex_unlock(&p->lock);
}

/* Hand an item over (the caller waited for room before making it). */
static void pipe_put(struct pipe *p, struct import_item *it)
{
	if (!p->threaded) {
		finish(p, it);
		return;
	}
	pthread_mutex_lock(&p->lock);
	if (p->tail)
		p->tail->next = it;
	else
		p->head = it;
	p->tail = it;
	p->items++;
	p->bytes += it->bytes;
	if (p->store_waits)
		pthread_cond_signal(&p->ready);
	pthread_mutex_unlock(&p->lock);
}

/* Finish items until the reader is done.  An item counts against the
 * reader's budget until it is finished. */
static void pipe_drain(struct pipe *p)
{
	size_t finished = 0, bytes = 0;

	for (;;) {
		struct import_item *it;
		pthread_mutex_lock(&p->lock);
		p->items -= finished;
		p->bytes -= bytes;
		if (finished && p->reader_waits)
			pthread_cond_signal(&p->room);
		while (!p->head && !p->done) {
			p->store_waits = 1;
			pthread_cond_wait(&p->ready, &p->lock);
			p->store_waits = 0;
		}
		it = p->head;
		if (it) {
			p->head = it->next;
			if (!p->head)
				p->tail = NULL;
		}
		pthread_mutex_unlock(&p->lock);
		if (!it)
			return;
		finished = 1;
		bytes = it->bytes;
		finish(p, it);
	}
}

/* Queue an event of kind about path (NULL: about no one source). */
static struct said *say(struct pipe *p, enum import_event_kind kind, const char *path,
			const char *text)
{
	struct said *w;

	xgrow(&p->wait, &p->waitcap, p->nwait + 1, sizeof(*p->wait));
	w = &p->wait[p->nwait++];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->path = path ? xstrdup(path) : NULL;
	w->text = text ? xstrdup(text) : NULL;
	return w;
}

static void say_err(struct pipe *p, const char *path, const struct kb_err *e)
{
	say(p, IMPORT_EV_FAILED, path, NULL)->err = *e;
}

static struct said *say_result(struct pipe *p, enum import_event_kind kind, const char *path,
			       const char *text, const struct db_import_result *res)
{
	struct said *w = say(p, kind, path, text);

	w->res = xmalloc(sizeof(*w->res));
	*w->res = *res;
	return w;
}

static void said_free(struct said *w)
{
	free(w->path);
	free(w->text);
	free(w->res);
}

/* The waiting events' files are committed: say them and count them. */
static void said_commit(struct pipe *p)
{
	size_t i;

	for (i = 0; i < p->nwait; i++) {
		struct said *w = &p->wait[i];
		struct import_event e = {
			w->kind, w->path, w->text, &w->err, w->res, w->lost,
		};

		if (w->kind == IMPORT_EV_STORED) {
			p->t->runs += w->res->runs;
			p->t->samples += w->res->samples;
			p->t->summaries += w->res->summaries;
		}
		p->ev->said(p->ev->ctx, &e);
		said_free(w);
	}
	p->nwait = 0;
}

/* The first n stored files among the waiting events were not stored
 * after all: forget what was to be said of them, and say so. */
static void said_lost(struct pipe *p, size_t n)
{
	size_t i, k = 0, lost = n;

	for (i = 0; i < p->nwait; i++) {
		if (n > 0 && p->wait[i].stored) {
			said_free(&p->wait[i]);
			n--;
			continue;
		}
		p->wait[k++] = p->wait[i];
	}
	p->nwait = k;
	if (lost) {
		say(p, IMPORT_EV_LOST, NULL, NULL)->lost = lost;
		p->t->failed += lost;
	}
}

/* Store a prepared item (no store with --explain), say the outcome and
 * count it; frees the item.  A stored file's events wait for its
 * transaction to commit. */
static void finish(struct pipe *p, struct import_item *it)
{
	struct import_totals *t = p->t;
	struct db_import_result out = { 0 };

	if (it->explained)
		say(p, IMPORT_EV_EXPLAIN, it->path, it->explained);
	if (it->notes)
		say(p, IMPORT_EV_NOTES, it->path, it->notes);
	switch (it->kind) {
	case IMPORT_SKIPPED:
		say(p, IMPORT_EV_SKIPPED, it->path,
		    it->err.msg[0] && it->is_dir ? it->err.msg
		    : it->skip_why ? it->skip_why : "no benchmark output recognised");
		t->skipped++;
		t->binary += it->binary;
		break;
	case IMPORT_EXPLAINED:
		t->files++;
		t->messages += it->mail;
		break;
	case IMPORT_FAILED:
		t->files += !it->is_dir;
		t->messages += it->mail;
		t->failed++;
		say_err(p, it->path, &it->err);
		break;
	case IMPORT_READY:
		t->files++;
		t->messages += it->mail;
		if (t->server_lost) {
			/* one message for them all, at the end */
			t->failed++;
			t->not_tried++;
			break;
		}
		if (db_store_batch(p->db, &it->imp, &it->batch, &out, &it->err) < 0) {
			t->server_lost = db_lost(p->db);
			/* Name the source file, not the database. */
			snprintf(it->err.file, sizeof(it->err.file), "%s", it->path);
			it->err.line = 0;
			t->failed++;
			said_lost(p, out.lost);
			say_err(p, it->path, &it->err);
			break;
		}
		if (out.already) {
			t->already++;
			say_result(p, IMPORT_EV_ALREADY, it->path, NULL, &out);
			break;
		}
		say_result(p, IMPORT_EV_STORED, it->path, buf_str(&it->fmt), &out)->stored =
			!p->o->dry_run;
		break;
	}
	t->runs_seen += out.runs;
	if (it->file_done) {
		t->disk_files++;
		t->disk_bytes += it->disk_bytes;
	}
	if (!p->db || db_store_pending(p->db) == 0)
		said_commit(p);
	import_item_free(it);
	if (p->ev->progress)
		p->ev->progress(p->ev->ctx, t);
}

/* The last item of the file at path: the file is done. */
static void file_done(struct import_item *it, const char *path, const struct stat *sb, size_t len)
{
	it->file_done = 1;
	it->disk_bytes = sb ? (long long)sb->st_size : (long long)len;
	(void)path;
}

/* Every message of an mbox, each an item of its own. */
static void pipe_mbox(struct pipe *p, const char *path, const struct buf *data,
		      const struct stat *sb)
{
	struct mail_mbox m;
	struct import_item *last = NULL;
	const char *msg;
	size_t len, index = 0;
	long line;

	mail_mbox_init(&m, data->data, data->len);
	while (mail_mbox_next(&m, &msg, &len, &line) == 0) {
		if (last)
			pipe_put(p, last);
		pipe_wait_room(p);
		last = import_prepare_message(p->o, path, msg, len, 1, line, ++index);
	}
	if (!last)      /* (mail_is_mbox() saw one message at least) */
		return;
	file_done(last, path, sb, data->len);
	pipe_put(p, last);
}

/*
 * Read path once there is room for it, parse it and hand it over: an mbox
 * as its messages, a mail file (a Maildir's, a saved .eml) as one message,
 * anything else as one source.
 */
static void pipe_file(struct pipe *p, const char *path, int walked, enum import_layout tree)
{
	/* an lkp run directory found without --layout: read as --layout lkp */
	struct import_opts lkp_opts = *p->o;
	const struct import_opts *o = p->o;
	struct buf data = BUF_INIT;
	struct stat sb, *sbp = NULL;
	struct import_item *it;
	int rc;

	if (strcmp(path, "-") != 0 && stat(path, &sb) == 0)
		sbp = &sb;
	if (p->counting) {
		p->t->total_files++;
		p->t->total_bytes += sbp ? (long long)sb.st_size : 0;
		return;
	}
	if (tree == LAYOUT_LKP && o->layout == LAYOUT_DETECT) {
		lkp_opts.layout = LAYOUT_LKP;
		o = &lkp_opts;
	}
	pipe_wait_room(p);
	it = import_item_new(path);
	if ((rc = import_read_source(path, &data, &it->err)) < 0) {
		buf_release(&data);     /* (what a corrupt gzip stream gave before it broke) */
		if (rc == TEXT_BINARY && walked) {
			/* an image or a binary beside the logs of a tree
			 * (the PNGs of mmtests' example_html_report): not a
			 * source, so not a failure of the import */
			it->kind = IMPORT_SKIPPED;
			it->binary = 1;
			it->skip_why = "binary file (a NUL byte), not read";
		}
		file_done(it, path, sbp, 0);
		pipe_put(p, it);
		return;
	}
	if (mail_is_mbox(buf_str(&data), data.len)) {
		import_item_free(it);
		pipe_mbox(p, path, &data, sbp);
	} else if (mail_is_message(buf_str(&data), data.len)) {
		import_item_free(it);
		it = import_prepare_message(p->o, path, data.data, data.len, 0, 1, 0);
		file_done(it, path, sbp, data.len);
		pipe_put(p, it);
	} else {
		import_item_free(it);
		it = import_prepare(o, path, &data, walked);
		file_done(it, path, sbp, data.len);
		pipe_put(p, it);
	}
	buf_release(&data);
}

/* The tree kind of dir, given the kind of its parent (LAYOUT_NONE: not
 * in a tree yet). */
static enum import_layout tree_below(const struct import_opts *o, const char *dir,
				     enum import_layout parent)
{
	if (parent != LAYOUT_NONE)
		return parent;
	if (o->layout == LAYOUT_MMTESTS || o->layout == LAYOUT_LKP)
		return o->layout;
	if (o->layout == LAYOUT_DETECT && layout_mmtests_detect(dir))
		return LAYOUT_MMTESTS;
	if (o->layout == LAYOUT_DETECT && layout_lkp_detect(dir))
		return LAYOUT_LKP;     /* a run directory: its files read as lkp's */
	return LAYOUT_NONE;
}

/* The tree kind of a file named on the command line: its directory's. */
static enum import_layout file_tree(const struct import_opts *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	enum import_layout t;

	if (o->layout != LAYOUT_DETECT || !slash)
		return LAYOUT_NONE;
	dir = xstrndup(path, (size_t)(slash - path));
	t = layout_lkp_detect(dir) ? LAYOUT_LKP : LAYOUT_NONE;
	free(dir);
	return t;
}

static int file_wanted(const char *path, enum import_layout tree)
{
	switch (tree) {
	case LAYOUT_MMTESTS:
		return layout_mmtests_wanted(path);
	case LAYOUT_LKP:
		return layout_lkp_wanted(path);
	default:
		return 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does dir hold a Maildir's cur/, new/ and tmp/? */
static int is_maildir(const char *dir)
{
	static const char *const sub[] = { "cur", "new", "tmp" };
	struct buf path = BUF_INIT;
	struct stat sb;
	size_t i;
	int yes = 1;

	for (i = 0; i < ARRAY_SIZE(sub) && yes; i++) {
		buf_reset(&path);
		buf_printf(&path, "%s/%s", dir, sub[i]);
		yes = stat(buf_str(&path), &sb) == 0 && S_ISDIR(sb.st_mode);
	}
	buf_release(&path);
	return yes;
}

/* An entry of the walk that is not imported: failed (an error, counted)
 * or skipped (said, not counted as a failure). */
static void walk_note(struct pipe *p, const char *path, int skipped, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void walk_note(struct pipe *p, const char *path, int skipped, const char *fmt, ...)
{
	struct import_item *it;
	va_list ap;

	if (p->counting)        /* said by the pass that reads */
		return;
	it = import_item_new(path);

	it->is_dir = 1;
	if (skipped)
		it->kind = IMPORT_SKIPPED;
	va_start(ap, fmt);
	vsnprintf(it->err.msg, sizeof(it->err.msg), fmt, ap);
	va_end(ap);
	snprintf(it->err.file, sizeof(it->err.file), "%s", path);
	pipe_wait_room(p);
	pipe_put(p, it);
}

/* Prepare every regular file below dir, in name order, skipping hidden
 * entries.  Inside a result tree (mmtests, detected or named with
 * --layout; lkp, named) only its result files are read. */
static void prepare_dir(struct pipe *p, const char *dir, enum import_layout tree)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct stat ds;
	int rd_errno;

	/* A link back to a directory on the current path would walk for ever
	 * (two such links: exponentially long before the names overflow). */
	memset(&ds, 0, sizeof(ds));
	if (stat(dir, &ds) == 0) {
		for (i = 0; i < p->nup; i++)
			if (p->up[i].dev == ds.st_dev && p->up[i].ino == ds.st_ino) {
				walk_note(p, dir, 1, "a link to a directory it is inside (a loop), "
					  "not followed");
				return;
			}
	}
	d = opendir(dir);
	if (!d) {
		struct import_item *it;
		if (p->counting)
			return;
		it = import_item_new(dir);
		it->is_dir = 1;
		kb_err_set(&it->err, dir, 0, "cannot open directory: %s", strerror(errno));
		pipe_wait_room(p);
		pipe_put(p, it);
		return;
	}
	for (;;) {
		errno = 0;
		e = readdir(d);
		if (!e)
			break;
		if (e->d_name[0] == '.')
			continue;
		/* A Maildir: its messages are in new/ and cur/; tmp/ holds
		 * deliveries in progress. */
		if (strcmp(e->d_name, "tmp") == 0 && is_maildir(dir))
			continue;
		xgrow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	rd_errno = errno;
	closedir(d);
	if (rd_errno) {
		walk_note(p, dir, 0, "cannot read directory: %s", strerror(rd_errno));
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	xgrow(&p->up, &p->upcap, p->nup + 1, sizeof(*p->up));
	p->up[p->nup].dev = ds.st_dev;
	p->up[p->nup].ino = ds.st_ino;
	p->nup++;
	for (i = 0; i < n; i++) {
		struct buf path = BUF_INIT;
		struct stat sb;
		buf_printf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		if (stat(path.data, &sb) < 0) {
			/* a dangling link, a file removed meanwhile, no permission */
			walk_note(p, path.data, 0, "cannot stat: %s", strerror(errno));
		} else if (!str_utf8_valid(names[i], strlen(names[i]))) {
			walk_note(p, path.data, 0, "name is not valid UTF-8 (rename it)");
		} else if (S_ISDIR(sb.st_mode)) {
			prepare_dir(p, path.data, tree_below(p->o, path.data, tree));
		} else if (S_ISREG(sb.st_mode) && file_wanted(path.data, tree)) {
			if (files_add(p, sb.st_dev, sb.st_ino))
				pipe_file(p, path.data, 1, tree);
			else
				walk_note(p, path.data, 1, "the same file as one read before (a link)");
		}
		buf_release(&path);
		free(names[i]);
	}
	p->nup--;
	free(names);
}

/* Prepare every path of the command line, in order. */
static void prepare_all(struct pipe *p)
{
	size_t i;

	for (i = 0; i < p->nargs; i++) {
		const char *a = p->args[i];
		struct stat sb;
		if (!str_utf8_valid(a, strlen(a)))
			walk_note(p, a, 0, "name is not valid UTF-8 (rename it)");
		else if (strcmp(a, "-") != 0 && stat(a, &sb) == 0 && S_ISDIR(sb.st_mode))
			prepare_dir(p, a, tree_below(p->o, a, LAYOUT_NONE));
		else
			pipe_file(p, a, 0, strcmp(a, "-") != 0 ? file_tree(p->o, a) : LAYOUT_NONE);
	}
}

static void *reader_main(void *arg)
{
	struct pipe *p = arg;

	pthread_setname_np(pthread_self(), "kbench-read");   /* for top and perf */
	prepare_all(p);
	pthread_mutex_lock(&p->lock);
	p->done = 1;
	pthread_cond_signal(&p->ready);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Commit the store's last group; what was said of files it lost is
 * taken back. */
static void pipe_flush(struct pipe *p)
{
	struct kb_err err;
	size_t lost = 0;

	kb_err_clear(&err);
	if (p->db && db_store_flush(p->db, &lost, &err) < 0) {
		said_lost(p, lost);
		say_err(p, NULL, &err);
	}
	said_commit(p);
}

/* Import every path: with a database, read on a second thread. */
void import_pipe_run(struct db *db, const struct import_opts *o, const struct import_events *ev,
		     const char **args, size_t nargs, struct import_totals *t)
{
	struct pipe p;
	pthread_t reader;

	memset(&p, 0, sizeof(p));
	p.db = db;
	p.o = o;
	p.ev = ev;
	p.t = t;
	p.args = args;
	p.nargs = nargs;
	if (ev->progress) {
		/* Count first, so the progress line can say how far it is. */
		p.counting = 1;
		prepare_all(&p);
		p.counting = 0;
		/* the reading pass meets every file again: it has read none */
		p.nfiles = 0;
		if (p.files)
			memset(p.files, 0, p.filescap * sizeof(*p.files));
	}
	p.threaded = db != NULL;
	if (p.threaded) {
		pthread_mutex_init(&p.lock, NULL);
		pthread_cond_init(&p.room, NULL);
		pthread_cond_init(&p.ready, NULL);
		if (pthread_create(&reader, NULL, reader_main, &p) != 0)
			p.threaded = 0;
	}
	if (p.threaded) {
		pipe_drain(&p);
		pthread_join(reader, NULL);
	} else {
		prepare_all(&p);
	}
	pipe_flush(&p);
	free(p.wait);
	free(p.up);
	free(p.files);
	if (db == NULL)
		return;
	pthread_cond_destroy(&p.room);
	pthread_cond_destroy(&p.ready);
	pthread_mutex_destroy(&p.lock);
}
