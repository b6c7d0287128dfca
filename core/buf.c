#include "buf.h"

#include <stdarg.h>
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void buf_release(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t need = size_add(size_add(b->len, extra), 1);

	if (need > b->cap) {
		size_t c = b->cap ? b->cap : 64;
		while (c < need)
			c = c > SIZE_MAX / 2 ? need : c * 2;
		b->data = xrealloc(b->data, c);
		b->cap = c;
	}
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *buf_detach(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");

	buf_init(b);
	return p;
}

const char *buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

char *buf_aprintf(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (!b.data)
		buf_puts(&b, "");
	return buf_detach(&b);
}
