#define PCRE2_CODE_UNIT_WIDTH 8
#include "rx.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

static void rx_compile(struct rx *rx)
{
	int errcode;
	PCRE2_SIZE erroff;
	uint32_t opts = PCRE2_UTF | PCRE2_NO_UTF_CHECK;
	pcre2_code *code;

	if (rx->flags & RX_CASELESS)
		opts |= PCRE2_CASELESS;
	code = pcre2_compile((PCRE2_SPTR)rx->pattern, PCRE2_ZERO_TERMINATED, opts,
			     &errcode, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof(msg));
		fprintf(stderr, "kbench: bad pattern /%s/ at %zu: %s\n", rx->pattern,
			(size_t)erroff, (const char *)msg);
		abort();
	}
	pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	rx->code = code;
	rx->md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!rx->md) {
		fprintf(stderr, "kbench: out of memory\n");
		abort();
	}
}

int rx_match(struct rx *rx, const char *s, size_t len, struct rx_cap *cap, int ncap)
{
	int rc, i;
	PCRE2_SIZE *ov;

	if (!rx->code)
		rx_compile(rx);
	rc = pcre2_match(rx->code, (PCRE2_SPTR)s, len, 0, PCRE2_NO_UTF_CHECK, rx->md, NULL);
	if (rc < 0)
		return 0;
	if (rc == 0)
		rc = (int)pcre2_get_ovector_count(rx->md);
	ov = pcre2_get_ovector_pointer(rx->md);
	for (i = 0; i < ncap; i++) {
		if (i < rc && ov[2 * i] != PCRE2_UNSET) {
			cap[i].s = s + ov[2 * i];
			cap[i].len = ov[2 * i + 1] - ov[2 * i];
		} else {
			cap[i].s = NULL;
			cap[i].len = 0;
		}
	}
	return rc < ncap ? rc : ncap;
}
