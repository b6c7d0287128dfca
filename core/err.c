#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void kb_err_clear(struct kb_err *e)
{
	e->file[0] = '\0';
	e->line = 0;
	e->msg[0] = '\0';
}

int kb_err_set(struct kb_err *e, const char *file, long line, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	e->line = line;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void kb_err_format(const struct kb_err *e, char *out, unsigned long n)
{
	if (e->file[0] && e->line > 0)
		snprintf(out, n, "%s:%ld: %s", e->file, e->line, e->msg);
	else if (e->file[0])
		snprintf(out, n, "%s: %s", e->file, e->msg);
	else
		snprintf(out, n, "%s", e->msg);
}
