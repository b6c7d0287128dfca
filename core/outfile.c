/*
 * outfile.c - the one writer of every output file (see outfile.h).
 *
 * Why not rename whatever the user named: as root, `-o /dev/null` would
 * replace the machine's device with a regular file; a FIFO would become
 * a file, a symbolic link would be replaced instead of followed, a hard
 * link broken and a 0600 file come back 0644.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "err.h"
#include "term.h"
#include "util.h"

static void outfile_free(struct outfile *o)
{
	free(o->path);
	free(o->target);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

/* path with every symbolic link of its last component followed (a
 * dangling link names the file it would create).  NULL with errno set
 * on a loop or an error other than "does not exist". */
static char *resolve_links(const char *path)
{
	char *cur = xstrdup(path);
	int hops;

	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		char link[PATH_MAX];
		ssize_t n;
		char *next;

		if (lstat(cur, &st) != 0) {
			if (errno == ENOENT)
				return cur;
			free(cur);
			return NULL;
		}
		if (!S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		if (link[0] == '/' || !strchr(cur, '/')) {
			next = xstrdup(link);
		} else {
			const char *slash = strrchr(cur, '/');

			next = buf_aprintf("%.*s/%s", (int)(slash - cur), cur, link);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int outfile_open(struct outfile *o, const char *path, struct kb_err *err)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		o->is_stdout = 1;
		o->f = stdout;
		return 0;
	}
	o->target = resolve_links(path);
	if (!o->target)
		goto fail;
	if (stat(o->target, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device, a FIFO, a socket: written in place */
			o->f = fopen(o->target, "w");
			if (!o->f)
				goto fail;
			return 0;
		}
		o->had_target = 1;
		o->mode = st.st_mode & 07777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		o->keep_links = st.st_nlink > 1;
	} else if (errno != ENOENT) {
		goto fail;
	}
	o->tmp = buf_aprintf("%s.XXXXXX", o->target);
	fd = mkstemp(o->tmp);
	if (fd < 0)
		goto fail;
	if (!o->had_target) {
		mode_t um = umask(0);   /* as fopen() would create it */

		umask(um);
		o->mode = 0666 & ~um;
	}
	if (fchmod(fd, o->mode) != 0 || !(o->f = fdopen(fd, "w+"))) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		errno = e;
		goto fail;
	}
	return 0;
fail:
	kb_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	outfile_free(o);
	return -1;
}

void outfile_text(struct outfile *o)
{
	FILE *t;

	if (o->is_stdout || o->raw)
		return;         /* standard output is filtered already */
	t = term_filter(o->f, 0);
	if (!t)
		return;
	o->raw = o->f;
	o->f = t;
}

/* The filter flushed into the file, and gone: -1 on a write error. */
static int drop_filter(struct outfile *o)
{
	int rc = 0;

	if (o->raw) {
		rc = fclose(o->f);
		o->f = o->raw;
		o->raw = NULL;
	}
	return rc;
}

/* Copies the finished temporary file into the target itself (its hard
 * links and owner stay). */
static int copy_into_target(struct outfile *o)
{
	char chunk[65536];
	size_t n;
	int fd = open(o->target, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -1;
	rewind(o->f);
	while ((n = fread(chunk, 1, sizeof(chunk), o->f)) > 0) {
		size_t off = 0;

		while (off < n) {
			ssize_t w = write(fd, chunk + off, n - off);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				close(fd);
				return -1;
			}
			off += (size_t)w;
		}
	}
	if (ferror(o->f)) {
		close(fd);
		errno = EIO;
		return -1;
	}
	return close(fd);
}

int outfile_commit(struct outfile *o, struct kb_err *err)
{
	int rc = 0;

	if (drop_filter(o) != 0) {
		rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		outfile_abort(o);
		return rc;
	}

	if (o->is_stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		outfile_free(o);
		return rc;
	}
	if (!o->tmp) {
		if (fflush(o->f) != 0 || ferror(o->f))
			rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		if (fclose(o->f) != 0 && rc == 0)
			rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		outfile_free(o);
		return rc;
	}
	if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) {
		rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		outfile_abort(o);
		return rc;
	}
	if (!o->keep_links && o->had_target &&
	    (o->uid != geteuid() || o->gid != getegid()) &&
	    fchown(fileno(o->f), o->uid, o->gid) != 0)
		o->keep_links = 1;      /* not ours to give away: write it in place */
	if (o->keep_links) {
		if (copy_into_target(o) != 0)
			rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		fclose(o->f);
		unlink(o->tmp);
	} else if (fclose(o->f) != 0) {
		rc = kb_err_set(err, o->path, 0, "write error: %s", strerror(errno));
		unlink(o->tmp);
	} else if (rename(o->tmp, o->target) != 0) {
		rc = kb_err_set(err, o->path, 0, "cannot write: %s", strerror(errno));
		unlink(o->tmp);
	}
	outfile_free(o);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	drop_filter(o);
	if (o->is_stdout) {
		fflush(stdout);
	} else if (o->f) {
		fclose(o->f);
		if (o->tmp)
			unlink(o->tmp);
	}
	outfile_free(o);
}

int outfile_write(const char *path, int mode, outfile_writer write, void *ctx, struct kb_err *err)
{
	struct outfile of;
	const char *name = path ? path : "-";

	if (outfile_open(&of, name, err) < 0)
		return -1;
	if (mode == OUTFILE_TEXT)
		outfile_text(&of);
	if (write(of.f, ctx, err) < 0 || fflush(of.f) != 0 || ferror(of.f)) {
		if (!err->msg[0])
			kb_err_set(err, name, 0, "write error: %s", strerror(errno));
		else if (!err->file[0])
			snprintf(err->file, sizeof(err->file), "%s", name);
		outfile_abort(&of);
		return -1;
	}
	return outfile_commit(&of, err);
}

int outfile_make_dirs(const char *path, struct kb_err *err)
{
	char *p, *s;

	if (!path[0])
		return kb_err_set(err, "", 0, "an empty name is not a directory");
	p = xstrdup(path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
				free(p);
				return -1;
			}
			*s = '/';
		}
	if (mkdir(p, 0777) < 0 && errno != EEXIST) {
		kb_err_set(err, path, 0, "cannot create: %s", strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}
