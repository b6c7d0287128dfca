#define PCRE2_CODE_UNIT_WIDTH 8
#include "rx.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Per thread: a match context whose JIT stack may grow to RX_JIT_STACK
 * (PCRE2's default of 32 KiB ran out on lines of ~6 KB against patterns
 * with a repeated group), and the first match error since the last
 * rx_error_take().
 */
#define RX_JIT_STACK ((size_t)16 << 20)

struct rx_thread {
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit;
	int err;                /* PCRE2 error code, 0 for none */
	const char *err_at;     /* the subject that failed */
	const char *err_pattern;
};

static pthread_key_t rx_key;
static pthread_once_t rx_once = PTHREAD_ONCE_INIT;

static void rx_thread_free(void *p)
{
	struct rx_thread *t = p;

	pcre2_match_context_free(t->mctx);
	pcre2_jit_stack_free(t->jit);
	free(t);
}

static void rx_key_create(void)
{
	if (pthread_key_create(&rx_key, rx_thread_free) != 0) {
		fprintf(stderr, "kbench: cannot create thread-specific data\n");
		abort();
	}
}

static struct rx_thread *rx_thread(void)
{
	struct rx_thread *t;

	pthread_once(&rx_once, rx_key_create);
	t = pthread_getspecific(rx_key);
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->mctx = pcre2_match_context_create(NULL))) {
		fprintf(stderr, "kbench: out of memory\n");
		abort();
	}
	t->jit = pcre2_jit_stack_create(32 * 1024, RX_JIT_STACK, NULL);
	if (t->jit)
		pcre2_jit_stack_assign(t->mctx, NULL, t->jit);
	pthread_setspecific(rx_key, t);
	return t;
}

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

	struct rx_thread *t = rx_thread();

	if (!rx->code)
		rx_compile(rx);
	rc = pcre2_match(rx->code, (PCRE2_SPTR)s, len, 0, PCRE2_NO_UTF_CHECK, rx->md, t->mctx);
	if (rc < 0) {
		if (rc != PCRE2_ERROR_NOMATCH && !t->err) {
			t->err = rc;
			t->err_at = s;
			t->err_pattern = rx->pattern;
		}
		return rc == PCRE2_ERROR_NOMATCH ? 0 : RX_ERROR;
	}
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

int rx_error_take(const char **at, char *msg, size_t msgsz)
{
	struct rx_thread *t = rx_thread();
	int had = t->err != 0;

	if (had && msg && msgsz) {
		PCRE2_UCHAR m[256];
		if (pcre2_get_error_message(t->err, m, sizeof(m)) < 0)
			snprintf((char *)m, sizeof(m), "error %d", t->err);
		snprintf(msg, msgsz, "%s (pattern /%.60s%s/)", (const char *)m, t->err_pattern,
			 strlen(t->err_pattern) > 60 ? "..." : "");
	}
	if (at)
		*at = had ? t->err_at : NULL;
	t->err = 0;
	t->err_at = t->err_pattern = NULL;
	return had;
}
