/*
 * buf.h - a growable byte buffer, always NUL-terminated.
 *
 * struct buf b = BUF_INIT; buf_puts(&b, "x"); ... buf_release(&b);
 * b.data is never NULL after the first append; buf_detach() hands the
 * memory to the caller.
 */
#ifndef KB_BUF_H
#define KB_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_init(struct buf *b);
void buf_release(struct buf *b);
void buf_reset(struct buf *b);
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* A malloc'd string of fmt ("" rather than NULL when it is empty). */
char *buf_aprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *buf_detach(struct buf *b);
/* Contents as a C string ("" when empty). */
const char *buf_str(const struct buf *b);

#endif
