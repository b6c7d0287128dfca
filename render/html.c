/*
 * html.c - HTML escaping and base64 for the report.
 */
#include "html.h"
#include "../core/buf.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n, i;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

void html_escape(struct buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return;
	while (*p) {
		size_t n;

		switch (*p) {
		case '&': buf_puts(out, "&amp;"); p++; continue;
		case '<': buf_puts(out, "&lt;"); p++; continue;
		case '>': buf_puts(out, "&gt;"); p++; continue;
		case '"': buf_puts(out, "&quot;"); p++; continue;
		case '\'': buf_puts(out, "&#39;"); p++; continue;
		case '\t': case '\n': buf_putc(out, (char)*p); p++; continue;
		default: break;
		}
		if (*p < 0x20 || *p == 0x7F) {
			buf_puts(out, "\xEF\xBF\xBD");
			p++;
			continue;
		}
		n = utf8_len(p);
		if (n == 0) {
			buf_puts(out, "\xEF\xBF\xBD");
			p++;
			continue;
		}
		buf_add(out, p, n);
		p += n;
	}
}

void html_base64(struct buf *out, const void *data, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	size_t i;

	buf_grow(out, (n + 2) / 3 * 4 + 1);
	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
		char q[4] = { tab[v >> 18 & 63], tab[v >> 12 & 63], tab[v >> 6 & 63], tab[v & 63] };

		buf_add(out, q, 4);
	}
	if (i < n) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
		char q[4] = { tab[v >> 18 & 63], tab[v >> 12 & 63],
			      i + 1 < n ? tab[v >> 6 & 63] : '=', '=' };

		buf_add(out, q, 4);
	}
}

void html_url_path(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
			buf_putc(out, (char)c);
		else
			buf_printf(out, "%%%02X", c);
	}
}
