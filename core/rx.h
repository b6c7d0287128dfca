/*
 * rx.h - PCRE2 patterns compiled once, on first use, with JIT.
 *
 *   static struct rx hdr = RX("^Job\\s+node\\d+");
 *   struct rx_cap cap[4];
 *   if (rx_match(&hdr, line, len, cap, 4) > 0) ...
 *
 * A pattern that fails to compile is a programming error and aborts.
 * The compiled code is kept for the life of the process.
 */
#ifndef KB_RX_H
#define KB_RX_H

#include <stddef.h>

struct rx {
	const char *pattern;
	unsigned flags;         /* RX_CASELESS ... */
	void *code;             /* pcre2_code_8 */
	void *md;               /* pcre2_match_data_8 */
};

#define RX_CASELESS 1u
#define RX(p) { (p), 0u, NULL, NULL }
#define RXI(p) { (p), RX_CASELESS, NULL, NULL }

struct rx_cap {
	const char *s;          /* NULL when the group did not take part */
	size_t len;
};

/* Match rx against s[0..len).  Returns the number of captures filled
 * (group 0 = whole match), 0 when there is no match, or RX_ERROR when
 * PCRE2 could not decide (a match or JIT stack limit): callers that only
 * test "> 0" read that as no match, so the error is also kept for
 * rx_error_take().  Groups that did not match have s == NULL.
 * The compiled code is shared; use one pattern from one thread at a time. */
#define RX_ERROR (-1)
int rx_match(struct rx *rx, const char *s, size_t len, struct rx_cap *cap, int ncap);

/* Did a match on this thread fail with an error since the last call?
 * Returns 1 and sets *at to the subject of the first such match and
 * msg to PCRE2's message and the pattern (either may be NULL), then
 * forgets it; 0 when there was none. */
int rx_error_take(const char **at, char *msg, size_t msgsz);

#endif
