/*
 * version.h - kernel version order for histories: 2.4.18 < 2.5.39 <
 * 2.5.59 < 3.9.0 < 3.10-rc1 < 3.10 < 3.10.1 < 4.18.0-1.
 *
 * A version string is compared piece by piece: runs of digits as numbers,
 * other runs of characters as text (separators . - _ + ~ only separate).
 * When one string ends where the other goes on, a continuation that is a
 * pre-release ("rc", "pre", "alpha", "beta", "~...") sorts first, any other
 * continuation ("-1", ".1", "-mainline") sorts after.  Missing trailing
 * ".0" pieces equal zero: 3.10 == 3.10.0.  Pure, never fails.
 */
#ifndef KB_AN_VERSION_H
#define KB_AN_VERSION_H

#include <stddef.h>

/* <0, 0, >0 like strcmp. */
int an_version_cmp(const char *a, const char *b);

/* The runs of digits at *a and *b (both must start with one) compared as
 * numbers, leading zeros ignored: <0, 0 or >0 (a strncmp() result when
 * the runs are the same length).  On 0 both pointers move past the runs. */
int an_digits_cmp(const char **a, const char **b);

/* Find a kernel version inside s ("3.9.0-mainline_v39+()" -> "3.9.0-mainline_v39+()",
 * "linux-5.4.0-rc2" -> "5.4.0-rc2", "v6.1" -> "6.1"): the first run that starts
 * with digits '.' digits, up to the next blank.  Copies it into out (size n)
 * and returns 1, or returns 0 (out = "") when s holds no such run. */
int an_version_find(const char *s, char *out, size_t n);

/* Does variant name v stand for commit c (a full hash)?  v equals c, or
 * c starts with v's hash part: v itself when all hex (7..40 digits), or
 * what follows "-g" at its end (git describe's 6.9.0-00201-g6e1830a3477b,
 * 7 digits or more).  1 yes, 0 no.  Pure. */
int an_commit_match(const char *v, const char *c);
/* The hash part of variant name v (as an_commit_match()) into *h; its
 * length, 0 when v has none. */
size_t an_commit_hash(const char *v, const char **h);

#endif
