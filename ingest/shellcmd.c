/*
 * shellcmd.c - find the program of a pasted command line behind its
 * prompt, date and wrappers (shellcmd.h).
 */
#include "shellcmd.h"
#include "../core/util.h"

#include <string.h>

int shellcmd_tok_base_is(const struct ingest_tok *t, const char *word)
{
	const char *s = t->s, *end = t->s + t->len, *p;
	size_t n = strlen(word);

	for (p = s; p < end; p++)
		if (*p == '/')
			s = p + 1;
	return (size_t)(end - s) == n && memcmp(s, word, n) == 0;
}

/* "root@box:~#", "me@host:~/src$", "~]#" (of "[root@box ~]#"), "box:/tmp>",
 * or the "[root@box" that opens a bracketed one. */
static int tok_is_prompt(const struct ingest_tok *t)
{
	char last;

	if (t->len == 1)
		return strchr("$#%>", t->s[0]) != NULL;
	if (t->s[0] == '[' && memchr(t->s, '@', t->len))
		return 1;
	last = t->s[t->len - 1];
	if (!strchr("$#%>", last))
		return 0;
	return memchr(t->s, '@', t->len) || memchr(t->s, ':', t->len) ||
	       memchr(t->s, ']', t->len) || memchr(t->s, '~', t->len);
}

/* A date or a clock: "2023-04-19", "17:08:51", "[12:00:01]". */
static int tok_is_stamp(const struct ingest_tok *t)
{
	size_t i, digits = 0;

	for (i = 0; i < t->len; i++) {
		if (t->s[i] >= '0' && t->s[i] <= '9')
			digits++;
		else if (!strchr("-:.T+,[]", t->s[i]))
			return 0;
	}
	return digits >= 2;
}

static int tok_is_wrapper(const struct ingest_tok *t)
{
	static const char *const words[] = {
		"taskset", "numactl", "chrt", "nice", "ionice", "sudo", "time", "nohup", "env",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (shellcmd_tok_base_is(t, words[i]))
			return 1;
	return 0;
}

/* A wrapper's option or its value: "-c", "--membind=0", "0-7", "0,2", "99", "VAR=x". */
static int tok_is_wrapper_arg(const struct ingest_tok *t)
{
	size_t i;

	if (t->s[0] == '-' || memchr(t->s, '=', t->len))
		return 1;
	for (i = 0; i < t->len; i++)
		if (!strchr("0123456789,-.:", t->s[i]))
			return 0;
	return 1;
}

int shellcmd_prog(const struct ingest_tok *tok, size_t ntok, const char *prog, size_t max_prefix)
{
	size_t i;
	int wrapped = 0;

	for (i = 0; i < ntok && i <= max_prefix; i++) {
		if (tok[i].len == 0)
			return -1;
		if (shellcmd_tok_base_is(&tok[i], prog))
			return (int)i;
		if (tok_is_wrapper(&tok[i])) {
			wrapped = 1;
			continue;
		}
		if (wrapped) {
			if (!tok_is_wrapper_arg(&tok[i]))
				return -1;
			continue;
		}
		if (!tok_is_prompt(&tok[i]) && !tok_is_stamp(&tok[i]))
			return -1;
	}
	return -1;
}

size_t shellcmd_loop_body(const char *s, size_t len, const char **body)
{
	struct ingest_tok tok[8];
	const char *end = s + len, *p, *semi;
	size_t ntok, i;

	/* "for" or "while" after at most a prompt and a date */
	ntok = ingest_split(s, len, tok, 8);
	for (i = 0; i < ntok && i < 8 && i < 4; i++) {
		if (ingest_tok_is(&tok[i], "for") || ingest_tok_is(&tok[i], "while"))
			break;
		if (!tok_is_prompt(&tok[i]) && !tok_is_stamp(&tok[i]))
			return 0;
	}
	if (i == ntok || i == 4 || i == 8)
		return 0;
	/* "; do " (or ";do ") after the loop's head */
	for (p = tok[i].s; p < end; p++) {
		const char *q;

		if (*p != ';')
			continue;
		q = str_skip_ws(p + 1, end);
		if (end - q > 3 && q[0] == 'd' && q[1] == 'o' && (q[2] == ' ' || q[2] == '\t')) {
			p = str_skip_ws(q + 2, end);
			break;
		}
	}
	if (p >= end)
		return 0;
	semi = memchr(p, ';', (size_t)(end - p));
	*body = p;
	return (size_t)((semi ? semi : end) - p);
}
