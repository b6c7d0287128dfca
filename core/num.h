/*
 * num.h - number parsing and printing that ignore the process locale.
 *
 * Benchmark outputs are read with a "." decimal point regardless of
 * LC_NUMERIC; parsers that meet locale-formatted numbers (perf stat's
 * "554,289" or "341,09") normalise them first and then call these.
 */
#ifndef KB_NUM_H
#define KB_NUM_H

#include <stddef.h>

/* Parse all of s[0..len) as a decimal or scientific number ("1.8781e+06",
 * "-3", ".5").  Returns 0 and sets *out, or -1 when s is not exactly one
 * number (no trailing junk, no empty string) or a number too large for a
 * double ("1e999": strtod's infinity is never a value). */
int num_parse(const char *s, size_t len, double *out);

/* Parse s[0..len) as a whole number (optional sign, digits only). */
int num_parse_long(const char *s, size_t len, long *out);

/* Skip blanks at *p, parse the longest number there, advance *p past it.
 * Returns 0 and sets *out, or -1 (and leaves *p) when no number starts
 * there. */
int num_scan(const char **p, const char *end, double *out);

/* Shortest text that reads back as exactly v ("0.1", "1784.171745972").
 * NaN prints as "nan".  out must hold 32 bytes. */
void num_format(double v, char *out);

/* Count of digits after the decimal point in the token s[0..len)
 * (0 when there is none): how precisely a number was printed. */
int num_decimals(const char *s, size_t len);

#endif
