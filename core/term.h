/*
 * term.h - the one sanitiser of text for a terminal or a text report.
 *
 * Text from input (a post's legend, a table label, mail headers, a walked
 * file name) may hold ESC, OSC, BEL and other control characters.  None
 * of them reaches a terminal: stdout and stderr, and the text reports
 * written with -o, go through a filter that shows every control
 * character escaped ("\e" for ESC, "\xHH" for the others and for bytes
 * that are not UTF-8, "\u009b" for a C1 control); line ends and tabs pass.
 * kbench's own colours are written with TERM_CSI, which only the filter
 * turns into ESC [ (followed by digits, ';' and 'm': an SGR, nothing else).
 */
#ifndef KB_TERM_H
#define KB_TERM_H

#include <stddef.h>
#include <stdio.h>

struct buf;

/* Begins one of kbench's own colour sequences: TERM_CSI "1;31m". */
#define TERM_CSI "\377["

/* s[0..n) with its control characters escaped, appended to out.  With
 * keep_lines, '\n' and '\t' stay as they are; without (a file name, a
 * name in a one-line message), they are escaped too. */
void term_escape(struct buf *out, const char *s, size_t n, int keep_lines);
/* The same as a new string (caller frees): term_escape(s, strlen(s), 0). */
char *term_line(const char *s);

/* s to f on one line: term_escape(s, strlen(s), 0). */
void term_fputs(const char *s, FILE *f);

/* A stream that writes the sanitised bytes to under (flushing it on every
 * write).  fclose() of it closes under too when close_under. */
FILE *term_filter(FILE *under, int close_under);
/* stdout and stderr replaced by filters over the original streams. */
void term_install(void);
/* The file descriptor under f (a filter's stream's), -1 if none. */
int term_fd(FILE *f);
/* Whether fd is a terminal that takes escape sequences (colour, the
 * progress line's erase): a tty, and $TERM is not "dumb" (Emacs' shell,
 * a serial console), as git and less decide. */
int term_ansi(int fd);

#endif
