/*
 * source.c - a source's bytes, identity and names (see source.h).
 */
#include "source.h"
#include "../core/sha256.h"
#include "../core/textread.h"
#include "../core/util.h"
#include "../ingest/ingest.h"
#include "../ingest/layout.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The bytes of path (or stdin for "-"); gzip data (by its magic bytes,
 * whatever the name) is inflated, so *.gz logs read like plain ones. */
int import_read_source(const char *path, struct buf *out, struct kb_err *err)
{
	FILE *f = stdin;
	int rc;

	if (strcmp(path, "-") != 0) {
		f = fopen(path, "rb");
		if (!f)
			return kb_err_set(err, path, 0, "cannot open: %s", strerror(errno));
	}
	rc = import_read_stream(f, path, out, err);
	if (f != stdin)
		fclose(f);
	return rc;
}

int import_read_stream(FILE *f, const char *path, struct buf *out, struct kb_err *err)
{
	int rc, gzip;

	/* Bounded while it is read, as gzip data is while it inflates: the
	 * same cap, the same line and NUL checks, the same messages. */
	rc = text_read(f, path, f == stdin ? "stdin" : NULL, INGEST_MAX_INFLATED,
		       INGEST_MAX_LINE, out, &gzip, err);
	if (rc == 0 && !gzip && ends_with(path, ".gz") && out->len) {
		buf_release(out);
		return kb_err_set(err, path, 0, "named .gz but not gzip data");
	}
	return rc;
}

/*
 * The identity of a source is the SHA-256 of its bytes.  Inside a result
 * tree the path is data too (mmtests' run/iter/benchmark/file name carry
 * the variant, configuration and iteration), so there two byte-identical
 * files at different places are different measurements: their identity
 * also covers the part of the path the layout reads.
 */
void import_source_identity(enum import_layout layout, const char *path,
			    const struct buf *data, char sha[65])
{
	struct layout_mmtests li;
	struct layout_lkp lk;
	struct sha256 s;
	char key[4200];
	int n = 0;

	sha256_init(&s);
	if (data->len)
		sha256_update(&s, data->data, data->len);
	if (strcmp(path, "-") == 0 || layout == LAYOUT_NONE)
		n = 0;
	else if (layout == LAYOUT_LKP && layout_lkp_parse(path, &lk) == 0)
		n = snprintf(key, sizeof(key), "\n#kbench layout lkp %s/%s/%s/%s/%s/%s/%s/%d/%s",
			     lk.testcase, lk.params, lk.host, lk.rootfs, lk.kconfig, lk.compiler,
			     lk.commit, lk.run, lk.file);
	else if (layout != LAYOUT_LKP && layout_mmtests_parse(path, &li) == 0)
		n = snprintf(key, sizeof(key), "\n#kbench layout mmtests %s/iter-%d/%s/logs/%s",
			     li.run, li.suite_iter, li.bench_dir, li.file);
	if (n > 0)
		sha256_update(&s, key, (size_t)n < sizeof(key) ? (size_t)n : sizeof(key) - 1);
	sha256_final_hex(&s, sha);
}

/*
 * The identity of a mail message: the SHA-256 of its decoded form (the
 * Message-ID, From, Date and Subject headers, then the text), so the same
 * message from an mbox, a gzipped mbox or a Maildir is one source, and
 * two messages with the same text are two.
 */
void import_mail_identity(const struct mail_msg *m, char sha[65])
{
	struct sha256 s;
	struct buf h = BUF_INIT;

	buf_printf(&h, "kbench mail\nMessage-ID: %s\nFrom: %s\nDate: %s\nSubject: %s\n\n",
		   m->message_id ? m->message_id : "", m->from ? m->from : "",
		   m->date ? m->date : "", m->subject ? m->subject : "");
	sha256_init(&s);
	sha256_update(&s, h.data, h.len);
	if (m->text.len)
		sha256_update(&s, m->text.data, m->text.len);
	sha256_final_hex(&s, sha);
	buf_release(&h);
}

/* A source's own name, for the runs nothing else names: the file name
 * without its directory and without a .gz and one more extension
 * ("003_7caa478a1fca98f9.txt" -> "003_7caa478a1fca98f9").  Never the
 * folder the file sits in: files side by side are not one kernel. */
char *import_source_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *res, *dot;

	if (strcmp(path, "-") == 0)
		return xstrdup("");
	base = base ? base + 1 : path;
	res = xstrdup(base);
	len = strlen(res);
	if (len > 3 && strcmp(res + len - 3, ".gz") == 0)
		res[len -= 3] = '\0';
	if (!str_utf8_valid(res, strlen(res)))
		res[0] = '\0';     /* a name that is not text names no variant */
	dot = strrchr(res, '.');
	if (dot && dot != res)
		*dot = '\0';
	return res;
}

/* A mail message's short name, for its variants' name@post and the runs
 * nothing names: the author's surname and the day it was sent
 * ("Focht-2002-10-07"), else the Message-ID's local part. */
char *import_mail_label(const char *from, const char *date, const char *message_id,
			const char *path)
{
	struct buf b = BUF_INIT;
	const char *f = from, *lt, *end, *w;

	if (f && *f) {
		lt = strchr(f, '<');
		end = lt && lt > f ? lt : f + strlen(f);
		while (end > f && (end[-1] == ' ' || end[-1] == '"'))
			end--;
		w = end;
		while (w > f && w[-1] != ' ' && w[-1] != '"')
			w--;
		if (w == end && lt) {           /* no name: the address's local part */
			w = lt + 1;
			end = strchr(w, '@') ? strchr(w, '@') : w + strlen(w);
		}
		for (; w < end; w++)
			if (isalnum((unsigned char)*w) || *w == '-' || *w == '_' || *w == '.')
				buf_putc(&b, *w);
	}
	if (b.len && date && strlen(date) >= 10 && date[4] == '-')
		buf_printf(&b, "-%.10s", date);
	if (!b.len && message_id) {
		for (w = message_id; *w && *w != '@' && b.len < 24; w++)
			if (isalnum((unsigned char)*w) || *w == '-' || *w == '.')
				buf_putc(&b, *w);
	}
	if (!b.len)
		return import_source_name(path);
	return buf_detach(&b);
}
