/*
 * mail.c - mbox files and RFC 5322 messages, MIME decoded into text.
 *
 *   Content-Type: multipart/mixed; boundary="------------AB12"
 *
 *   --------------AB12
 *   Content-Type: text/plain; charset=iso-8859-1
 *   Content-Transfer-Encoding: quoted-printable
 *
 *   Here are the numbers, see the attachment.
 *   --------------AB12
 *   Content-Type: text/plain; name="numa_test.txt"
 *   Content-Transfer-Encoding: base64
 *   Content-Disposition: attachment; filename="numa_test.txt"
 *
 *   RXhlY3V0aW5nIDQgdGltZXM6IC4vcmFuZHVwZHQgMTAwMDAwMA==
 *   --------------AB12--
 *
 * Every scan here moves forward only: a message is read in time linear
 * in its size times the nesting depth of its parts (at most MAX_DEPTH).
 */
#include "mail.h"
#include "../core/util.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 16
/* How far mail_is_message() looks for the end of the header block. */
#define SNIFF_BYTES 65536

/* Length of the line at p (without its '\n'), within end. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

/* The start of the line after p. */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

/* A blank line (only a CR, or nothing). */
static int blank(const char *p, size_t n)
{
	return n == 0 || (n == 1 && p[0] == '\r');
}

/* "Name: value": a field name of printable ASCII without ':' then ':'. */
static int header_line(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == ':')
			return i > 0;
		if (c <= 32 || c >= 127)
			return 0;
	}
	return 0;
}

/*
 * A "From " line that separates messages: "From ADDR DATE", the date with
 * its time (mboxo and mboxrd write "From a@b Mon Oct  7 11:00:00 2002").
 * A body line "From the run below" after a blank line is no separator,
 * even with a "Key: value" line after it (mboxo leaves it unquoted).
 */
static int from_line(const char *p, size_t n)
{
	size_t i = 5;

	if (n < 5 || memcmp(p, "From ", 5) != 0)
		return 0;
	if (i >= n || p[i] == ' ' || p[i] == '\t')
		return 0;
	while (i < n && p[i] != ' ' && p[i] != '\t')
		i++;            /* the address (or MAILER-DAEMON, a commit id) */
	for (; i + 4 < n; i++)  /* a time: H:MM or HH:MM */
		if (p[i] >= '0' && p[i] <= '9' && p[i + 1] == ':' && p[i + 2] >= '0' &&
		    p[i + 2] <= '9' && p[i + 3] >= '0' && p[i + 3] <= '9')
			return 1;
	return 0;
}

int mail_is_mbox(const char *data, size_t len)
{
	const char *end = data + len, *p;

	if (len < 6 || memcmp(data, "From ", 5) != 0)
		return 0;
	p = next_line(data, end);
	return p < end && header_line(p, line_len(p, end));
}

static int field_is(const char *p, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n > k && p[k] == ':' && strncasecmp(p, name, k) == 0;
}

int mail_is_message(const char *data, size_t len)
{
	const char *end = data + (len < SNIFF_BYTES ? len : SNIFF_BYTES), *p = data;
	int from = 0, other = 0;

	if (p >= end || !header_line(p, line_len(p, end)))
		return 0;
	while (p < end) {
		size_t n = line_len(p, end);
		if (blank(p, n))
			return from && other;
		if (p[0] == ' ' || p[0] == '\t')
			;       /* a folded line */
		else if (!header_line(p, n))
			return 0;
		else if (field_is(p, n, "From"))
			from = 1;
		else if (field_is(p, n, "Message-ID") || field_is(p, n, "Date") ||
			 field_is(p, n, "Subject"))
			other = 1;
		p = next_line(p, end);
	}
	return 0;
}

/* mbox ------------------------------------------------------------------ */

void mail_mbox_init(struct mail_mbox *m, const char *data, size_t len)
{
	m->data = data;
	m->len = len;
	m->pos = 0;
	m->line = 1;
}

int mail_mbox_next(struct mail_mbox *m, const char **msg, size_t *mlen, long *line)
{
	const char *end = m->data + m->len, *p = m->data + m->pos, *start;
	int prev_blank = 0;

	/* Skip to and past the next "From " line. */
	while (p < end && !(line_len(p, end) >= 5 && memcmp(p, "From ", 5) == 0)) {
		p = next_line(p, end);
		m->line++;
	}
	if (p >= end)
		return 1;
	p = next_line(p, end);
	m->line++;
	start = p;
	*line = m->line;
	while (p < end) {
		size_t n = line_len(p, end);
		if (prev_blank && from_line(p, n)) {
			const char *q = next_line(p, end);
			if (q < end && header_line(q, line_len(q, end)))
				break;
		}
		prev_blank = blank(p, n);
		p = next_line(p, end);
		m->line++;
	}
	*msg = start;
	*mlen = (size_t)(p - start);
	m->pos = (size_t)(p - m->data);
	/* The blank line before the next "From " line separates messages;
	 * it is not part of this one. */
	if (*mlen >= 2 && start[*mlen - 1] == '\n' && start[*mlen - 2] == '\n')
		(*mlen)--;
	else if (*mlen >= 4 && memcmp(start + *mlen - 4, "\r\n\r\n", 4) == 0)
		*mlen -= 2;
	return 0;
}

/* Headers ----------------------------------------------------------------- */

struct hdr {
	char *name;
	char *value;            /* unfolded, no CR */
};

struct hdrs {
	struct hdr *v;
	size_t n, cap;
};

static void hdrs_release(struct hdrs *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->v[i].name);
		free(h->v[i].value);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

static const char *hdr_get(const struct hdrs *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (strcasecmp(h->v[i].name, name) == 0)
			return h->v[i].value;
	return NULL;
}

/*
 * Read the header block at p[0..len).  *body is where the body starts,
 * *nlines how many lines the block took (blank line included).  strict:
 * a line that is neither a header nor a folded line is an error (a
 * message's own header block); else it starts the body (a MIME part
 * written without headers).
 */
static int parse_headers(const char *p0, size_t len, int strict, struct hdrs *h,
			 const char **body, long *nlines, const char *path, long line0,
			 struct kb_err *err)
{
	const char *end = p0 + len, *p = p0;
	struct buf v = BUF_INIT;
	char *name = NULL;
	long ln = 0;

	while (p < end) {
		size_t n = line_len(p, end), k;
		if (blank(p, n)) {
			p = next_line(p, end);
			ln++;
			break;
		}
		if ((p[0] == ' ' || p[0] == '\t') && name) {
			buf_add(&v, p, n && p[n - 1] == '\r' ? n - 1 : n);
		} else if (header_line(p, n)) {
			if (name) {
				xgrow(&h->v, &h->cap, h->n + 1, sizeof(*h->v));
				h->v[h->n].name = name;
				h->v[h->n++].value = buf_detach(&v);
			}
			k = (size_t)((const char *)memchr(p, ':', n) - p);
			name = xstrndup(p, k);
			k++;
			while (k < n && (p[k] == ' ' || p[k] == '\t'))
				k++;
			buf_reset(&v);
			buf_add(&v, p + k, n - k && p[n - 1] == '\r' ? n - k - 1 : n - k);
		} else if (strict) {
			free(name);
			buf_release(&v);
			/* the line quoted within the buffer: it need not end in NUL */
			return kb_err_set(err, path, line0 + ln, "not a mail header line: '%.*s'",
					  (int)(n < 40 ? n : 40), p);
		} else {
			break;
		}
		p = next_line(p, end);
		ln++;
	}
	if (name) {
		xgrow(&h->v, &h->cap, h->n + 1, sizeof(*h->v));
		h->v[h->n].name = name;
		h->v[h->n++].value = buf_detach(&v);
	}
	buf_release(&v);
	*body = p;
	*nlines = ln;
	return 0;
}

/* Content-Type and Content-Disposition ------------------------------------ */

struct ctype {
	char type[32], sub[64];
	char charset[64], boundary[256], name[256];
};

/* Copy s[0..n) into out (size cap), lower-cased when lower. */
static void copy_into(char *out, size_t cap, const char *s, size_t n, int lower)
{
	size_t i;

	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		out[i] = lower ? (char)tolower((unsigned char)s[i]) : s[i];
	out[n] = '\0';
}

/* Read the "; key=value" parameters of a Content-Type or -Disposition. */
static void read_params(const char *s, struct ctype *ct)
{
	while (*s) {
		const char *k, *ke;
		char val[256];
		size_t vn = 0;

		while (*s && *s != ';')
			s++;
		if (!*s)
			return;
		s++;
		while (*s == ' ' || *s == '\t')
			s++;
		k = s;
		while (*s && *s != '=' && *s != ';' && *s != ' ' && *s != '\t')
			s++;
		ke = s;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '=')
			continue;
		s++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '"') {
			s++;
			while (*s && *s != '"') {
				if (*s == '\\' && s[1])
					s++;
				if (vn + 1 < sizeof(val))
					val[vn++] = *s;
				s++;
			}
			if (*s == '"')
				s++;
		} else {
			while (*s && *s != ';' && *s != ' ' && *s != '\t') {
				if (vn + 1 < sizeof(val))
					val[vn++] = *s;
				s++;
			}
		}
		val[vn] = '\0';
		if ((size_t)(ke - k) == 7 && strncasecmp(k, "charset", 7) == 0)
			copy_into(ct->charset, sizeof(ct->charset), val, vn, 1);
		else if ((size_t)(ke - k) == 8 && strncasecmp(k, "boundary", 8) == 0)
			copy_into(ct->boundary, sizeof(ct->boundary), val, vn, 0);
		else if (((size_t)(ke - k) == 4 && strncasecmp(k, "name", 4) == 0) ||
			 ((size_t)(ke - k) == 8 && strncasecmp(k, "filename", 8) == 0))
			copy_into(ct->name, sizeof(ct->name), val, vn, 0);
	}
}

static void read_ctype(const struct hdrs *h, struct ctype *ct)
{
	const char *s = hdr_get(h, "Content-Type"), *t;
	const char *d = hdr_get(h, "Content-Disposition");

	memset(ct, 0, sizeof(*ct));
	if (s) {
		while (*s == ' ' || *s == '\t')
			s++;
		t = s;
		while (*t && *t != '/' && *t != ';' && *t != ' ')
			t++;
		copy_into(ct->type, sizeof(ct->type), s, (size_t)(t - s), 1);
		if (*t == '/') {
			s = ++t;
			while (*t && *t != ';' && *t != ' ' && *t != '\t')
				t++;
			copy_into(ct->sub, sizeof(ct->sub), s, (size_t)(t - s), 1);
		}
		read_params(t, ct);
	}
	if (!ct->type[0]) {
		strcpy(ct->type, "text");
		strcpy(ct->sub, "plain");
	}
	if (d)
		read_params(d, ct);
}

/* Transfer encodings --------------------------------------------------------- */

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Base64: characters outside the alphabet (line ends) are ignored; '='
 * ends the data. */
static void decode_base64(const char *s, size_t n, struct buf *out)
{
	unsigned long acc = 0;
	int bits = 0;
	size_t i;

	for (i = 0; i < n && s[i] != '='; i++) {
		int v = b64val((unsigned char)s[i]);
		if (v < 0)
			continue;
		acc = (acc << 6 | (unsigned long)v) & 0xFFFFFF;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_putc(out, (char)((acc >> bits) & 0xFF));
		}
	}
}

/* Quoted-printable; q: the Q encoding of header words ('_' is a space). */
static void decode_qp(const char *s, size_t n, int q, struct buf *out)
{
	size_t i = 0;

	while (i < n) {
		char c = s[i];
		if (c == '=' && i + 1 < n && s[i + 1] == '\n') {
			i += 2;
		} else if (c == '=' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
			i += 3;
		} else if (c == '=' && i + 2 < n && str_hexval((unsigned char)s[i + 1]) >= 0 &&
			   str_hexval((unsigned char)s[i + 2]) >= 0) {
			buf_putc(out, (char)(str_hexval((unsigned char)s[i + 1]) * 16 +
					     str_hexval((unsigned char)s[i + 2])));
			i += 3;
		} else {
			buf_putc(out, q && c == '_' ? ' ' : c);
			i++;
		}
	}
}

/* Charsets that need no conversion (UTF-8 and its ASCII subset, and the
 * labels that only say "unknown"). */
static int charset_is_utf8(const char *cs)
{
	static const char *const same[] = {
		"", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968", "unknown-8bit",
		"x-unknown", "unknown", "default",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(same); i++)
		if (strcasecmp(cs, same[i]) == 0)
			return 1;
	return 0;
}

/* Append s[0..n) in charset cs to out as UTF-8.  -1 with *why set when
 * the charset is unknown or the bytes are not valid in it. */
static int to_utf8(const char *cs, const char *s, size_t n, struct buf *out, const char **why)
{
	iconv_t cd;
	char *in = (char *)s;
	size_t inleft = n;

	if (charset_is_utf8(cs)) {
		buf_add(out, s, n);
		return 0;
	}
	cd = iconv_open("UTF-8", cs);
	if (cd == (iconv_t)-1) {
		*why = "unknown charset";
		return -1;
	}
	while (inleft > 0) {
		char tmp[4096], *o = tmp;
		size_t oleft = sizeof(tmp);
		size_t r = iconv(cd, &in, &inleft, &o, &oleft);
		buf_add(out, tmp, sizeof(tmp) - oleft);
		if (r == (size_t)-1 && errno != E2BIG) {
			iconv_close(cd);
			*why = "bytes that are not valid in charset";
			return -1;
		}
	}
	iconv_close(cd);
	return 0;
}

/*
 * s (freed) as valid UTF-8: a byte that starts no valid sequence (a raw
 * Latin-1 name, an encoded word of bytes that are not UTF-8) is U+FFFD,
 * as is a NUL an encoded word decoded to.  Headers are stored as text:
 * PostgreSQL refuses invalid UTF-8 (a copy would fail on every retry) and
 * a terminal would show it garbled.
 */
static char *valid_text(char *s)
{
	struct buf out = BUF_INIT;
	const unsigned char *p, *end;

	if (!s)
		return NULL;
	if (str_utf8_valid(s, strlen(s)))
		return s;
	p = (const unsigned char *)s;
	end = p + strlen(s);
	while (p < end) {
		size_t n = *p < 0x80 ? 1 : str_utf8_seq(p, end);

		if (!n) {
			buf_puts(&out, "\xEF\xBF\xBD");
			p++;
		} else {
			buf_add(&out, p, n);
			p += n;
		}
	}
	free(s);
	return buf_detach(&out);
}

/* A decoded header word's bytes with every NUL as U+FFFD (a NUL would cut
 * the header short). */
static void no_nul(struct buf *b, size_t from)
{
	struct buf out = BUF_INIT;
	size_t i;

	if (!memchr(b->data + from, 0, b->len - from))
		return;
	for (i = from; i < b->len; i++) {
		if (b->data[i])
			buf_putc(&out, b->data[i]);
		else
			buf_puts(&out, "\xEF\xBF\xBD");
	}
	b->len = from;
	buf_add(b, out.data, out.len);
	buf_release(&out);
}

/* Encoded words (RFC 2047) ------------------------------------------------ */

/* One "=?charset?B|Q?text?=" at s: decoded into out, returns its length,
 * or 0 when s does not start a valid one. */
static size_t encoded_word(const char *s, struct buf *out)
{
	const char *cs, *enc, *txt, *e;
	char charset[64];
	struct buf raw = BUF_INIT;
	const char *why;
	char *star;
	size_t n, before;

	if (s[0] != '=' || s[1] != '?')
		return 0;
	cs = s + 2;
	enc = memchr(cs, '?', strnlen(cs, 64));
	if (!enc || enc == cs || !(enc[1] == 'B' || enc[1] == 'b' || enc[1] == 'Q' || enc[1] == 'q') ||
	    enc[2] != '?')
		return 0;
	txt = enc + 3;
	/* An encoded word is at most 75 characters: look no further. */
	for (e = txt; *e && e < txt + 256 && !(e[0] == '?' && e[1] == '='); e++)
		;
	if (e[0] != '?' || e[1] != '=')
		return 0;
	for (n = 0; txt + n < e; n++)
		if (txt[n] == ' ' || txt[n] == '\t')
			return 0;
	copy_into(charset, sizeof(charset), cs, (size_t)(enc - cs), 1);
	star = strchr(charset, '*');        /* RFC 2231 language */
	if (star)
		*star = '\0';
	if (enc[1] == 'B' || enc[1] == 'b')
		decode_base64(txt, (size_t)(e - txt), &raw);
	else
		decode_qp(txt, (size_t)(e - txt), 1, &raw);
	before = out->len;
	if (to_utf8(charset, raw.data ? raw.data : "", raw.len, out, &why) < 0) {
		buf_release(&raw);
		return 0;
	}
	buf_release(&raw);
	no_nul(out, before);
	return (size_t)(e + 2 - s);
}

/* A header value with its encoded words decoded; blanks between two
 * encoded words go, as RFC 2047 says. */
static char *decode_words(const char *s)
{
	struct buf out = BUF_INIT;
	int after_word = 0;

	buf_puts(&out, "");
	while (*s) {
		size_t n = encoded_word(s, &out);
		if (n) {
			s += n;
			after_word = 1;
			continue;
		}
		if (*s == ' ' || *s == '\t') {
			size_t k = 0;
			while (s[k] == ' ' || s[k] == '\t')
				k++;
			if (after_word) {
				struct buf probe = BUF_INIT;
				size_t m = encoded_word(s + k, &probe);
				buf_release(&probe);
				if (m) {
					s += k;         /* dropped */
					continue;
				}
			}
			buf_add(&out, s, k);
			s += k;
			after_word = 0;
			continue;
		}
		buf_putc(&out, *s++);
		after_word = 0;
	}
	return buf_detach(&out);
}

/* Dates ----------------------------------------------------------------------- */

static const char *const months[] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
};

static const struct { const char *name; int off; } zones[] = {
	{ "ut", 0 }, { "utc", 0 }, { "gmt", 0 }, { "z", 0 },
	{ "est", -500 }, { "edt", -400 }, { "cst", -600 }, { "cdt", -500 },
	{ "mst", -700 }, { "mdt", -600 }, { "pst", -800 }, { "pdt", -700 },
};

/* "Mon, 7 Oct 2002 17:20:11 +0200 (CEST)" -> "2002-10-07 17:20:11 +0200";
 * NULL when s is no such date. */
static char *read_date(const char *s)
{
	char tok[8][32];
	int nt = 0, i, day = -1, mon = -1, year = -1, hh = -1, mi = -1, ss = 0, tz = 0, t0;
	char out[64];

	while (*s && nt < 8) {
		size_t n = 0;
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (*s == '(')
			break;
		while (*s && *s != ' ' && *s != '\t' && *s != ',' && n + 1 < sizeof(tok[0]))
			tok[nt][n++] = (char)tolower((unsigned char)*s++);
		while (*s && *s != ' ' && *s != '\t' && *s != ',')
			s++;
		tok[nt][n] = '\0';
		if (n)
			nt++;
	}
	t0 = nt > 0 && isalpha((unsigned char)tok[0][0]) ? 1 : 0;   /* day of week */
	if (nt < t0 + 4)
		return NULL;
	day = atoi(tok[t0]);
	for (i = 0; i < 12; i++)
		if (strncmp(tok[t0 + 1], months[i], 3) == 0)
			mon = i + 1;
	if (!isdigit((unsigned char)tok[t0 + 2][0]))
		return NULL;
	year = atoi(tok[t0 + 2]);
	if (strlen(tok[t0 + 2]) <= 2)
		year += year < 50 ? 2000 : 1900;
	if (sscanf(tok[t0 + 3], "%d:%d:%d", &hh, &mi, &ss) < 2)
		return NULL;
	if (nt > t0 + 4) {
		const char *z = tok[t0 + 4];
		if ((z[0] == '+' || z[0] == '-') && strlen(z) == 5 && isdigit((unsigned char)z[1]))
			tz = (z[0] == '-' ? -1 : 1) * atoi(z + 1);
		else
			for (i = 0; i < (int)ARRAY_SIZE(zones); i++)
				if (strcmp(z, zones[i].name) == 0)
					tz = zones[i].off;
	}
	if (day < 1 || day > 31 || mon < 1 || year < 1900 || year > 9999 || hh < 0 || hh > 23 ||
	    mi < 0 || mi > 59 || ss < 0 || ss > 60)
		return NULL;
	snprintf(out, sizeof(out), "%04d-%02d-%02d %02d:%02d:%02d %c%04d", year, mon, day, hh, mi,
		 ss, tz < 0 ? '-' : '+', tz < 0 ? -tz : tz);
	return xstrdup(out);
}

/* Bodies ------------------------------------------------------------------------ */

struct decoder {
	struct mail_msg *out;
	const char *path;
	struct kb_err *err;
};

static int decode_entity(struct decoder *d, const char *p, size_t len, int strict, int depth,
			 long line0);

/* Is the line p[0..n) the delimiter of boundary b?  2: the closing one. */
static int delimiter(const char *p, size_t n, const char *b, size_t bn)
{
	size_t k;

	if (n < bn + 2 || p[0] != '-' || p[1] != '-' || memcmp(p + 2, b, bn) != 0)
		return 0;
	k = bn + 2;
	if (n >= k + 2 && p[k] == '-' && p[k + 1] == '-')
		return 2;
	for (; k < n; k++)
		if (p[k] != ' ' && p[k] != '\t' && p[k] != '\r')
			return 0;
	return 1;
}

/* One part of a multipart body. */
struct part {
	const char *p;
	size_t len;
	long line;
};

/* Cut a multipart body at its delimiters. */
static void split_parts(const char *body, size_t len, const char *b, long line0,
			struct part **parts, size_t *np)
{
	const char *end = body + len, *p = body, *start = NULL;
	size_t bn = strlen(b), cap = 0;
	long ln = line0, start_line = 0;

	*parts = NULL;
	*np = 0;
	while (p < end) {
		size_t n = line_len(p, end);
		int k = delimiter(p, n, b, bn);
		if (k) {
			if (start) {
				const char *e = p;
				/* the line end before a delimiter belongs to it */
				if (e > start && e[-1] == '\n')
					e--;
				if (e > start && e[-1] == '\r')
					e--;
				xgrow(parts, &cap, *np + 1, sizeof(**parts));
				(*parts)[*np].p = start;
				(*parts)[*np].len = (size_t)(e - start);
				(*parts)[(*np)++].line = start_line;
			}
			if (k == 2)
				return;
			start = next_line(p, end);
			start_line = ln + 1;
		}
		p = next_line(p, end);
		ln++;
	}
	if (start && start < end) {   /* no closing delimiter: the rest */
		xgrow(parts, &cap, *np + 1, sizeof(**parts));
		(*parts)[*np].p = start;
		(*parts)[*np].len = (size_t)(end - start);
		(*parts)[(*np)++].line = start_line;
	}
}

static void note(struct decoder *d, const char *what, const struct ctype *ct, long line)
{
	buf_printf(&d->out->notes, "line %ld: %s%s%s%s (%s/%s) skipped\n", line, what,
		   ct->name[0] ? " '" : "", ct->name, ct->name[0] ? "'" : "", ct->type, ct->sub);
}

/* Is the Content-Transfer-Encoding value v the encoding name, as a whole
 * word ("base64x" is not base64), blanks or a comment after it allowed? */
static int encoding_is(const char *v, const char *name)
{
	size_t k = strlen(name);

	return strncasecmp(v, name, k) == 0 &&
	       (v[k] == '\0' || v[k] == ' ' || v[k] == '\t' || v[k] == '(' || v[k] == ';');
}

/* A text part: undo the transfer encoding and the charset, append. */
static int add_text(struct decoder *d, const struct hdrs *h, const struct ctype *ct,
		    const char *body, size_t len, long line)
{
	const char *cte = hdr_get(h, "Content-Transfer-Encoding");
	struct buf raw = BUF_INIT, *text = &d->out->text;
	const char *why = NULL;
	size_t before = text->len;
	int rc;

	if (cte)
		while (*cte == ' ' || *cte == '\t')
			cte++;
	if (cte && encoding_is(cte, "base64"))
		decode_base64(body, len, &raw);
	else if (cte && encoding_is(cte, "quoted-printable"))
		decode_qp(body, len, 0, &raw);
	else
		buf_add(&raw, body, len);
	if (text->len && text->data[text->len - 1] != '\n')
		buf_putc(text, '\n');
	if (text->len)
		buf_putc(text, '\n');   /* a blank line between parts */
	before = text->len;
	rc = to_utf8(ct->charset, raw.data ? raw.data : "", raw.len, text, &why);
	buf_release(&raw);
	if (rc < 0) {
		text->len = before;
		return kb_err_set(d->err, d->path, line, "%s %s in a text part", why, ct->charset);
	}
	d->out->ntext++;
	return 0;
}

static int decode_multipart(struct decoder *d, const struct ctype *ct, const char *body,
			    size_t len, int depth, long line)
{
	struct part *parts;
	size_t np, i, pick = (size_t)-1;
	int rc = 0;

	split_parts(body, len, ct->boundary, line, &parts, &np);
	if (strcmp(ct->sub, "alternative") == 0) {
		/* One of the alternatives: the first plain text one. */
		for (i = 0; i < np && pick == (size_t)-1; i++) {
			struct hdrs h = { NULL, 0, 0 };
			struct ctype pc;
			const char *pb;
			long nl;
			if (parse_headers(parts[i].p, parts[i].len, 0, &h, &pb, &nl, d->path,
					  parts[i].line, d->err) == 0) {
				read_ctype(&h, &pc);
				if ((strcmp(pc.type, "text") == 0 && strcmp(pc.sub, "html") != 0) ||
				    strcmp(pc.type, "multipart") == 0)
					pick = i;
			}
			hdrs_release(&h);
		}
		if (pick == (size_t)-1)
			buf_printf(&d->out->notes, "line %ld: multipart/alternative without a plain "
				   "text part: HTML skipped\n", line);
		else
			rc = decode_entity(d, parts[pick].p, parts[pick].len, 0, depth + 1,
					   parts[pick].line);
	} else {
		for (i = 0; i < np && rc == 0; i++)
			rc = decode_entity(d, parts[i].p, parts[i].len, 0, depth + 1, parts[i].line);
	}
	free(parts);
	return rc;
}

/* A message or a MIME part: headers, then a body by its Content-Type. */
static int decode_entity(struct decoder *d, const char *p, size_t len, int strict, int depth,
			 long line0)
{
	struct hdrs h = { NULL, 0, 0 };
	struct ctype ct;
	const char *body;
	long nl;
	size_t blen;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return kb_err_set(d->err, d->path, line0, "MIME parts nested deeper than %d",
				  MAX_DEPTH);
	if (parse_headers(p, len, strict, &h, &body, &nl, d->path, line0, d->err) < 0) {
		hdrs_release(&h);
		return -1;
	}
	blen = len - (size_t)(body - p);
	read_ctype(&h, &ct);
	if (strcmp(ct.type, "multipart") == 0 && ct.boundary[0])
		rc = decode_multipart(d, &ct, body, blen, depth, line0 + nl);
	else if (strcmp(ct.type, "message") == 0 && strcmp(ct.sub, "rfc822") == 0)
		rc = decode_entity(d, body, blen, 0, depth + 1, line0 + nl);
	else if (strcmp(ct.type, "text") == 0 && strcmp(ct.sub, "html") == 0)
		note(d, "HTML part", &ct, line0);
	else if (strcmp(ct.type, "text") == 0 || strcmp(ct.type, "multipart") == 0)
		rc = add_text(d, &h, &ct, body, blen, line0 + nl);
	else
		note(d, "attachment", &ct, line0);
	hdrs_release(&h);
	return rc;
}

/* mboxrd: ">From " -> "From ", ">>From " -> ">From " in a copy. */
static void unquote_from(const char *msg, size_t len, struct buf *out)
{
	const char *end = msg + len, *p = msg;

	while (p < end) {
		const char *q = next_line(p, end);
		size_t k = 0;
		while (p + k < q && p[k] == '>')
			k++;
		if (k > 0 && (size_t)(q - p) >= k + 5 && memcmp(p + k, "From ", 5) == 0)
			p++;
		buf_add(out, p, (size_t)(q - p));
		p = q;
	}
}

static char *message_id(const char *v)
{
	const char *a, *b;

	while (*v == ' ' || *v == '\t')
		v++;
	a = strchr(v, '<');
	b = a ? strchr(a, '>') : NULL;
	if (a && b && b > a + 1)
		return xstrndup(a + 1, (size_t)(b - a - 1));
	b = v;
	while (*b && *b != ' ' && *b != '\t')
		b++;
	return b > v ? xstrndup(v, (size_t)(b - v)) : NULL;
}

int mail_decode(const char *msg, size_t len, int mboxrd, const char *path, long line0,
		struct mail_msg *out, struct kb_err *err)
{
	struct buf copy = BUF_INIT;
	struct hdrs h = { NULL, 0, 0 };
	struct decoder d = { out, path, err };
	const char *body, *v;
	long nl;
	int rc;

	memset(out, 0, sizeof(*out));
	if (mboxrd) {
		unquote_from(msg, len, &copy);
		msg = copy.data ? copy.data : "";
		len = copy.len;
	}
	rc = parse_headers(msg, len, 1, &h, &body, &nl, path, line0, err);
	if (rc == 0) {
		if ((v = hdr_get(&h, "Message-ID")) != NULL)
			out->message_id = valid_text(message_id(v));
		if ((v = hdr_get(&h, "From")) != NULL)
			out->from = valid_text(decode_words(v));
		if ((v = hdr_get(&h, "Subject")) != NULL)
			out->subject = valid_text(decode_words(v));
		if ((v = hdr_get(&h, "Date")) != NULL && !(out->date = read_date(v)))
			out->date = valid_text(xstrdup(v));
		rc = decode_entity(&d, msg, len, 1, 0, line0);
	}
	/* One line end at the end, however the message was stored (an mbox
	 * needs one before the next "From " line, a Maildir file may have
	 * none): the same message decodes to the same text. */
	while (out->text.len && (out->text.data[out->text.len - 1] == '\n' ||
				 out->text.data[out->text.len - 1] == '\r'))
		out->text.len--;
	if (out->text.len) {
		out->text.data[out->text.len] = '\0';
		buf_putc(&out->text, '\n');
	}
	hdrs_release(&h);
	buf_release(&copy);
	return rc;
}

void mail_msg_release(struct mail_msg *m)
{
	free(m->message_id);
	free(m->from);
	free(m->date);
	free(m->subject);
	buf_release(&m->text);
	buf_release(&m->notes);
	memset(m, 0, sizeof(*m));
}

char *mail_author(const char *from)
{
	const char *lt = strchr(from, '<'), *a, *b;

	if (lt) {
		a = from;
		b = lt;
	} else if ((a = strchr(from, '(')) != NULL && (b = strchr(a, ')')) != NULL) {
		a++;
	} else {
		a = from;
		b = from + strlen(from);
	}
	while (a < b && (*a == ' ' || *a == '\t' || *a == '"'))
		a++;
	while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '"'))
		b--;
	if (b == a && lt) {     /* "<e@x>" alone: the address */
		a = lt + 1;
		b = strchr(a, '>');
		if (!b)
			b = a + strlen(a);
	}
	return xstrndup(a, (size_t)(b - a));
}

void mail_byline(const char *from, const char *date, const char *subject, struct buf *out)
{
	size_t start = out->len;

	if (from && *from) {
		char *a = mail_author(from);
		buf_puts(out, a);
		free(a);
	}
	if (date && *date) {
		if (out->len > start)
			buf_puts(out, ", ");
		/* the day of a date read_date() wrote; else the header as it was */
		if (strlen(date) >= 10 && date[4] == '-' && date[7] == '-')
			buf_add(out, date, 10);
		else
			buf_puts(out, date);
	}
	if (subject && *subject) {
		if (out->len > start)
			buf_puts(out, ", ");
		buf_puts(out, subject);
	}
}
