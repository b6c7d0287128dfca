/*
 * term.c - the one sanitiser of text for a terminal (see term.h).
 */
#include "term.h"
#include "buf.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does p[0..n) start one of our own SGR sequences (TERM_CSI [0-9;]* m)?
 * Its length; 0 when it does not; -1 when n is too short to tell. */
static long own_sgr(const unsigned char *p, size_t n)
{
	size_t i;

	if (n < 2)
		return -1;
	if (p[1] != '[')
		return 0;
	for (i = 2; i < n && i < 24; i++) {
		if (p[i] == 'm')
			return (long)i + 1;
		if (!((p[i] >= '0' && p[i] <= '9') || p[i] == ';'))
			return 0;
	}
	return i < 24 ? -1 : 0;
}

/* How many bytes a UTF-8 sequence led by c needs (0: c leads none). */
static size_t utf8_need(unsigned c)
{
	if (c >= 0xC2 && c <= 0xDF)
		return 2;
	if (c >= 0xE0 && c <= 0xEF)
		return 3;
	if (c >= 0xF0 && c <= 0xF4)
		return 4;
	return 0;
}

/*
 * Sanitise p[0..n) into out.  own: TERM_CSI sequences become ESC [.
 * partial: the text goes on after n, so an incomplete sequence at the
 * end is left (its length is returned) rather than escaped.
 */
static size_t sanitise(struct buf *out, const unsigned char *p, size_t n, int keep_lines,
		       int own, int partial)
{
	const unsigned char *end = p + n;

	while (p < end) {
		unsigned c = *p;
		size_t k;

		if (c >= 0x20 && c < 0x7F) {
			const unsigned char *q = p;

			while (q < end && *q >= 0x20 && *q < 0x7F)
				q++;
			buf_add(out, p, (size_t)(q - p));
			p = q;
			continue;
		}
		if ((c == '\n' || c == '\t') && keep_lines) {
			buf_putc(out, (char)c);
			p++;
			continue;
		}
		if (c == '\n' || c == '\t' || c == '\r') {
			buf_puts(out, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r");
			p++;
			continue;
		}
		if (c == 0x1B) {
			buf_puts(out, "\\e");
			p++;
			continue;
		}
		if (c < 0x80) {
			buf_printf(out, "\\x%02x", c);
			p++;
			continue;
		}
		if (c == 0xFF && own) {
			long m = own_sgr(p, (size_t)(end - p));

			if (m < 0 && partial)
				return (size_t)(end - p);
			if (m > 0) {
				buf_putc(out, 0x1B);
				buf_add(out, p + 1, (size_t)m - 1);
				p += m;
				continue;
			}
		}
		k = utf8_need(c);
		if (k && (size_t)(end - p) < k && partial) {
			size_t i;

			for (i = 1; p + i < end && (p[i] & 0xC0) == 0x80; i++)
				;
			if (p + i == end)
				return (size_t)(end - p);  /* the rest comes next */
		}
		k = str_utf8_seq(p, end);
		if (!k) {
			buf_printf(out, "\\x%02x", c);
			p++;
			continue;
		}
		if (c == 0xC2 && p[1] < 0xA0) {
			buf_printf(out, "\\u%04x", (unsigned)p[1]);    /* C1: U+0080..U+009F */
			p += 2;
			continue;
		}
		buf_add(out, p, k);
		p += k;
	}
	return 0;
}

void term_escape(struct buf *out, const char *s, size_t n, int keep_lines)
{
	sanitise(out, (const unsigned char *)s, n, keep_lines, 0, 0);
}

char *term_line(const char *s)
{
	struct buf b = BUF_INIT;

	term_escape(&b, s ? s : "", s ? strlen(s) : 0, 0);
	return buf_detach(&b);
}

void term_fputs(const char *s, FILE *f)
{
	struct buf b = BUF_INIT;

	term_escape(&b, s ? s : "", s ? strlen(s) : 0, 0);
	fputs(buf_str(&b), f);
	buf_release(&b);
}

struct filter {
	FILE *under;
	int close_under;
	unsigned char carry[32];
	size_t ncarry;
};

/* The last filter made, and stdout's and stderr's (kept reachable: they
 * may stay open to the end). */
static void *last_cookie;
static void *volatile std_cookies[2];   /* volatile: stored, never read */

static ssize_t filter_write(void *cookie, const char *data, size_t n)
{
	struct filter *f = cookie;
	struct buf in = BUF_INIT, out = BUF_INIT;
	size_t left;

	buf_add(&in, f->carry, f->ncarry);
	buf_add(&in, data, n);
	left = sanitise(&out, (const unsigned char *)in.data, in.len, 1, 1, 1);
	if (left > sizeof(f->carry)) {  /* cannot be: sequences are short */
		sanitise(&out, (const unsigned char *)in.data + in.len - left, left, 1, 1, 0);
		left = 0;
	}
	memcpy(f->carry, in.data + in.len - left, left);
	f->ncarry = left;
	if (out.len && fwrite(out.data, 1, out.len, f->under) != out.len) {
		buf_release(&in);
		buf_release(&out);
		return -1;
	}
	buf_release(&in);
	buf_release(&out);
	if (fflush(f->under) != 0)
		return -1;
	return (ssize_t)n;
}

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	struct buf out = BUF_INIT;
	int rc = 0;

	if (f->ncarry) {
		sanitise(&out, f->carry, f->ncarry, 1, 1, 0);
		if (fwrite(out.data, 1, out.len, f->under) != out.len)
			rc = -1;
		buf_release(&out);
	}
	if (fflush(f->under) != 0)
		rc = -1;
	if (f->close_under && fclose(f->under) != 0)
		rc = -1;
	free(f);
	return rc;
}

FILE *term_filter(FILE *under, int close_under)
{
	cookie_io_functions_t io = { NULL, filter_write, NULL, filter_close };
	struct filter *f = xcalloc(1, sizeof(*f));
	FILE *s;

	f->under = under;
	f->close_under = close_under;
	s = fopencookie(f, "w", io);
	if (!s) {
		free(f);
		return NULL;
	}
	last_cookie = f;
	return s;
}

static struct { FILE *s; FILE *under; } installed[2];

void term_install(void)
{
	FILE *o = stdout, *e = stderr, *fo, *fe;

	fo = term_filter(o, 0);
	std_cookies[0] = last_cookie;
	fe = term_filter(e, 0);
	std_cookies[1] = last_cookie;
	if (!fo || !fe)
		return;
	/* stdout: line by line on a terminal, in blocks otherwise (as stdio
	 * does); stderr unbuffered */
	setvbuf(fo, NULL, isatty(fileno(o)) ? _IOLBF : _IOFBF, 65536);
	setvbuf(fe, NULL, _IONBF, 0);
	installed[0].s = fo;
	installed[0].under = o;
	installed[1].s = fe;
	installed[1].under = e;
	stdout = fo;
	stderr = fe;
}

int term_fd(FILE *f)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (installed[i].s && installed[i].s == f)
			return fileno(installed[i].under);
	return fileno(f);
}

int term_ansi(int fd)
{
	const char *t = getenv("TERM");

	return fd >= 0 && isatty(fd) && !(t && strcmp(t, "dumb") == 0);
}
