/*
 * pg_conninfo.c - which --db names a PostgreSQL server, and the one password
 * masker every store name and libpq message goes through.
 *
 * Built on libpq's own parser (PQconninfoParse), so that what is masked
 * is what libpq reads as a password: a URI's user-info ends at its first
 * '@' or '/', not at '?' or '#' (postgresql://bob:Pa?ss#Wd9@host/db is
 * bob's password "Pa?ss#Wd9"), a keyword/value string carries password=
 * anywhere, quoted or not, and a URI's query may say password= too.
 * libpq takes the scheme in lower case only: POSTGRESQL:// is lowered
 * here, so that it is a server, never a SQLite file of that name.
 */
#include "db_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Length of s's postgresql:// or postgres:// prefix, in either case; 0. */
static size_t uri_scheme(const char *s)
{
	if (!strncasecmp(s, "postgresql://", 13))
		return 13;
	if (!strncasecmp(s, "postgres://", 11))
		return 11;
	return 0;
}

char *db_conninfo(const char *spec)
{
	char *c = xstrdup(spec);
	size_t i, k = uri_scheme(spec);

	for (i = 0; i < k; i++)
		c[i] = (char)(c[i] >= 'A' && c[i] <= 'Z' ? c[i] - 'A' + 'a' : c[i]);
	return c;
}

/* libpq's options of spec, or NULL when libpq cannot read it. */
static PQconninfoOption *parse(const char *spec)
{
	char *c = db_conninfo(spec), *msg = NULL;
	PQconninfoOption *o = PQconninfoParse(c, &msg);

	free(c);
	if (msg)
		PQfreemem(msg);
	return o;
}

int db_is_server(const char *spec)
{
	PQconninfoOption *o;

	if (!spec || !*spec)
		return 0;
	if (uri_scheme(spec))
		return 1;       /* even one libpq cannot read: never a file */
	if (!strchr(spec, '='))
		return 0;       /* libpq would take it for a database name */
	o = parse(spec);
	if (!o)
		return 0;
	PQconninfoFree(o);
	return 1;
}

/*
 * The URI's user-info password as it is written, [*beg, *end): from the
 * first ':' of the authority to the '@' that ends the user-info.  Where
 * libpq sees user-info (the first '@' comes before any '/'), that '@',
 * extended over every further '@' that comes before a '/' (an '@' in the
 * password, which libpq would cut there); where it sees none but a ':'
 * comes before a '/' that is followed by an '@' (a '/' in the password),
 * the last '@'.  Reads more as a password than libpq might, never less.
 */
static int written_password(const char *s, const char **beg, const char **end)
{
	size_t k = uri_scheme(s);
	const char *auth = s + k, *at, *colon, *p;

	if (!k)
		return 0;
	p = auth + strcspn(auth, "@/");
	if (*p == '@') {
		at = p;
		for (p = at + 1; *p && *p != '/'; p++)
			if (*p == '@')
				at = p;
	} else {
		at = strrchr(auth, '@');
		if (!at)
			return 0;
	}
	colon = memchr(auth, ':', (size_t)(at - auth));
	if (!colon)
		return 0;
	if (*(auth + strcspn(auth, "@/")) != '@' && colon > auth + strcspn(auth, "/"))
		return 0;   /* the ':' is past the host: a port, not a password */
	*beg = colon + 1;
	*end = at;
	return 1;
}

/* Does the query key at p (up to '=') name a password?  Its length. */
static size_t password_key(const char *p)
{
	size_t n = strcspn(p, "=&#");

	if (p[n] != '=')
		return 0;
	if (n >= 8 && !strncasecmp(p + n - 8, "password", 8))
		return n + 1;
	return 0;
}

/* The part of a URI from p on, password query values masked. */
static void mask_query(struct buf *out, const char *p)
{
	const char *q = strchr(p, '?');

	if (!q) {
		buf_puts(out, p);
		return;
	}
	buf_add(out, p, (size_t)(q - p));
	p = q;
	while (*p) {
		size_t k;

		buf_putc(out, *p);      /* '?' or '&' */
		p++;
		k = password_key(p);
		if (k) {
			buf_add(out, p, k);
			buf_puts(out, "***");
			p += k;
			p += strcspn(p, "&");
		} else {
			size_t n = strcspn(p, "&");

			buf_add(out, p, n);
			p += n;
		}
	}
}

/* A keyword/value value, quoted as libpq reads it when it must be. */
static void put_value(struct buf *out, const char *v)
{
	if (*v && !strpbrk(v, " \t\n\r\f\v'\\")) {
		buf_puts(out, v);
		return;
	}
	buf_putc(out, '\'');
	for (; *v; v++) {
		if (*v == '\'' || *v == '\\')
			buf_putc(out, '\\');
		buf_putc(out, *v);
	}
	buf_putc(out, '\'');
}

void db_mask_spec(const char *spec, struct buf *out)
{
	PQconninfoOption *o, *p;
	const char *beg, *end;

	if (uri_scheme(spec)) {
		if (written_password(spec, &beg, &end)) {
			buf_add(out, spec, (size_t)(beg - spec));
			buf_puts(out, "***");
			mask_query(out, end);
		} else {
			mask_query(out, spec);
		}
		return;
	}
	if (!db_is_server(spec) || !(o = parse(spec))) {
		buf_puts(out, spec);    /* a SQLite file */
		return;
	}
	for (p = o; p->keyword; p++) {
		if (!p->val)
			continue;
		if (out->len)
			buf_putc(out, ' ');
		buf_printf(out, "%s=", p->keyword);
		if (strchr(p->dispchar, '*'))
			buf_puts(out, "***");
		else
			put_value(out, p->val);
	}
	PQconninfoFree(o);
}

/* Line ends and tabs as blanks, trailing blanks dropped. */
static void oneline(struct buf *m)
{
	size_t i;

	for (i = 0; i < m->len; i++)
		if (m->data[i] == '\n' || m->data[i] == '\t')
			m->data[i] = ' ';
	while (m->len && m->data[m->len - 1] == ' ')
		m->data[--m->len] = '\0';
}

/* Does a query parameter (a '?' then an '=') come between [b, e)?  Then
 * an '@' at e is the query's, not the end of a password. */
static int query_between(const char *b, const char *e)
{
	const char *q = memchr(b, '?', (size_t)(e - b));

	return q && memchr(q, '=', (size_t)(e - q)) != NULL;
}

/* Percent-decoded [b, e). */
static char *pct_decode(const char *b, const char *e)
{
	char *d = xmalloc((size_t)(e - b) + 1), *w = d;

	while (b < e) {
		if (*b == '%' && e - b >= 3 && str_hexval(b[1]) >= 0 && str_hexval(b[2]) >= 0) {
			*w++ = (char)(str_hexval(b[1]) * 16 + str_hexval(b[2]));
			b += 3;
		} else {
			*w++ = *b++;
		}
	}
	*w = '\0';
	return d;
}

/* Every secret of spec as it may show in a message, longest first is
 * not needed: each is replaced in turn, and "***" holds none. */
static void add_secret(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!*s) {
		free(s);
		return;
	}
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

void db_mask_message(const char *spec, const char *msg, struct buf *out)
{
	char **sec = NULL;
	size_t nsec = 0, cap = 0, i;
	PQconninfoOption *o = parse(spec), *p;
	const char *beg, *end;
	struct buf cur = BUF_INIT;

	if (o) {
		for (p = o; p->keyword; p++)
			if (p->val && strchr(p->dispchar, '*'))
				add_secret(&sec, &nsec, &cap, xstrdup(p->val));
		PQconninfoFree(o);
	}
	if (written_password(spec, &beg, &end)) {
		add_secret(&sec, &nsec, &cap, xstrndup(beg, (size_t)(end - beg)));
		add_secret(&sec, &nsec, &cap, pct_decode(beg, end));
	}
	buf_puts(&cur, msg);
	for (i = 0; i < nsec; i++) {
		struct buf next = BUF_INIT;
		const char *s = buf_str(&cur), *hit;
		size_t len = strlen(sec[i]);

		while ((hit = strstr(s, sec[i])) != NULL) {
			buf_add(&next, s, (size_t)(hit - s));
			buf_puts(&next, "***");
			s = hit + len;
		}
		buf_puts(&next, s);
		buf_release(&cur);
		cur = next;
		free(sec[i]);
	}
	free(sec);
	buf_puts(out, buf_str(&cur));
	buf_release(&cur);
}

int db_conninfo_check(const char *spec, struct kb_err *err)
{
	PQconninfoOption *o, *p;
	const char *beg, *end;
	char *msg = NULL, *c, *written = NULL;
	const char *read = NULL;
	struct buf shown = BUF_INIT;
	int rc = 0;

	db_mask_spec(spec, &shown);
	c = db_conninfo(spec);
	o = PQconninfoParse(c, &msg);
	free(c);
	if (!o) {
		struct buf m = BUF_INIT;

		db_mask_message(spec, msg ? msg : "out of memory", &m);
		oneline(&m);
		rc = kb_err_set(err, buf_str(&shown), 0, "cannot connect: %s", buf_str(&m));
		buf_release(&m);
		goto done;
	}
	for (p = o; p->keyword; p++)
		if (p->val && !strcmp(p->keyword, "password"))
			read = p->val;
	/* A password libpq would read otherwise than it is written ('/' or
	 * '@' in it, not percent-encoded) would connect as someone else, or
	 * put its pieces into the host, port and database of the error. */
	if (written_password(spec, &beg, &end) && !strstr(end, "password=") &&
	    !query_between(beg, end)) {
		written = pct_decode(beg, end);
		if (!read || strcmp(read, written) != 0)
			rc = kb_err_set(err, buf_str(&shown), 0, "cannot connect: libpq reads the "
					"URI's password otherwise than it is written: percent-encode "
					"'/' as %%2F and '@' as %%40 in it");
	}
	free(written);
	PQconninfoFree(o);
done:
	if (msg)
		PQfreemem(msg);
	buf_release(&shown);
	return rc;
}
