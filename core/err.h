/*
 * err.h - the error struct every layer fills instead of printing.
 *
 * A failing function returns -1 and leaves file, line and message here;
 * the command layer prints "file:line: message" (or "file: message" when
 * line is 0).
 */
#ifndef KB_ERR_H
#define KB_ERR_H

struct kb_err {
	char file[1024];
	long line;
	char msg[1024];
};

void kb_err_clear(struct kb_err *e);
/* Sets the error and returns -1, so "return kb_err_set(...)" reads well. */
int kb_err_set(struct kb_err *e, const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "file:line: message" into out (size n). */
void kb_err_format(const struct kb_err *e, char *out, unsigned long n);

#endif
