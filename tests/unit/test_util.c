/* core/util.c string helpers and arena_grow: str_find takes two roads (short haystacks
 * by first byte, long ones through memmem); both must find the first
 * occurrence. */
#include "unit.h"
#include "../../core/arena.h"
#include "../../core/num.h"
#include "../../core/util.h"

#include <stdlib.h>

static long find_at(const char *s, size_t len, const char *needle)
{
	const char *p = str_find(s, len, needle);
	return p ? (long)(p - s) : -1;
}

TEST(util_str_find_short)
{
	const char *s = "Running 'hackbench 20' in the background: hackbench";

	CHECK_INT(find_at(s, strlen(s), "hackbench"), 9);
	CHECK_INT(find_at(s, strlen(s), "Running"), 0);
	CHECK_INT(find_at(s, strlen(s), "ground:"), 34);
	CHECK_INT(find_at(s, strlen(s), "hackbenck"), -1);
	CHECK_INT(find_at(s, strlen(s), ""), 0);
	CHECK_INT(find_at(s, 8, "hackbench"), -1);      /* beyond len */
	CHECK_INT(find_at(s, 17, "hackbench"), -1);     /* cut short by len */
	CHECK_INT(find_at(s, 18, "hackbench"), 9);      /* ends exactly at len */
	CHECK_INT(find_at("aaab", 4, "ab"), 2);
	CHECK_INT(find_at("a", 1, "a"), 0);
	CHECK_INT(find_at("ab", 2, "abc"), -1);
	CHECK_INT(find_at("x\0hackbench", 11, "hackbench"), 2);
}

TEST(util_str_find_long)
{
	size_t len = 5000, i;
	char *s = malloc(len);

	for (i = 0; i < len; i++)
		s[i] = (char)('a' + i % 7);
	memcpy(s + 4000, "Usage:", 6);
	memcpy(s + 4500, "Usage:", 6);
	CHECK_INT(find_at(s, len, "Usage:"), 4000);
	CHECK_INT(find_at(s, 4005, "Usage:"), -1);
	CHECK_INT(find_at(s, len, "Usage;"), -1);
	/* the same search on the short road */
	CHECK_INT(find_at(s + 3900, 200, "Usage:"), 100);
	free(s);
}

TEST(util_str_skip_ws_rtrim)
{
	const char *s = " \t x \t\r\n";

	CHECK_INT(str_skip_ws(s, s + strlen(s)) - s, 3);
	CHECK_INT(str_skip_ws(s, s + 2) - s, 2);
	CHECK_INT(str_rtrim_len(s, strlen(s)), 4);
	CHECK_INT(str_rtrim_len(" \t", 2), 0);
}

/* arena_grow keeps what the array held while it moves and doubles. */
TEST(arena_grow_keeps_contents)
{
	struct arena a;
	int *v = NULL;
	size_t cap = 0, i, ok = 1;

	arena_init(&a);
	for (i = 0; i < 5000; i++) {
		arena_grow(&a, &v, &cap, i + 1, sizeof(*v));
		v[i] = (int)(i * 7);
	}
	CHECK(cap >= 5000 && cap < 10000);
	for (i = 0; i < 5000; i++)
		if (v[i] != (int)(i * 7))
			ok = 0;
	CHECK(ok);
	arena_grow(&a, &v, &cap, 10, sizeof(*v));      /* no shrinking, no move */
	CHECK_INT(v[4999], 4999 * 7);
	arena_release(&a);
}

/* core/num.c: a number too large for a double is no number (strtod would
 * give infinity, and a run would be stored ok with no sample). */
TEST(num_parse_rejects_overflow)
{
	double v = 0;

	CHECK_INT(num_parse("1e999", 5, &v), -1);
	CHECK_INT(num_parse("-1e999", 6, &v), -1);
	CHECK_INT(num_parse("1e308", 5, &v), 0);
	CHECK_INT(num_parse("1.8781e+06", 10, &v), 0);
	CHECK_NEAR(v, 1878100, 1e-9);
	CHECK_INT(num_parse("5.54", 4, &v), 0);
	CHECK_NEAR(v, 5.54, 1e-12);
}

TEST(util_str_list_has)
{
	CHECK_INT(str_list_has("footnoted,sd_bound", "footnoted"), 1);
	CHECK_INT(str_list_has("footnoted,sd_bound", "sd_bound"), 1);
	CHECK_INT(str_list_has("footnoted,sd_bound", "sd"), 0);
	CHECK_INT(str_list_has("xfootnoted,footnoted", "footnoted"), 1);
	CHECK_INT(str_list_has("xfootnoted", "footnoted"), 0);
	CHECK_INT(str_list_has(NULL, "footnoted"), 0);
	CHECK_INT(str_list_has("", "footnoted"), 0);
}
