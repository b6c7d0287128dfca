/* rx_match: long lines against patterns with a repeated group match
 * (PCRE2's default 32 KiB JIT stack gave up at ~6 KB, silently read as
 * "no match"), and a match that PCRE2 cannot decide is reported. */
#include "unit.h"
#include "../../core/rx.h"

#include <stdlib.h>

TEST(rx_long_lines_match)
{
	/* the shapes of GNU time's custom lines and autonuma's header, as
	 * they were before they were made possessive */
	static struct rx values = RX("^\\s*(numa0[12](?:_[A-Za-z0-9_]+)?)((?:\\s+[-+0-9.:?%][^\\s]*)+)\\s*$");
	static struct rx header = RX("^\\s*Testcase\\s*:((?:\\s+(?:Min|Max|Avg|Mean|Stddev|%Change))+)\\s*$");
	size_t n = 100000, len, i;
	char *s = malloc(n + 64);
	struct rx_cap cap[3];

	len = (size_t)sprintf(s, "numa01");
	for (i = 0; len + 4 < n; i++)
		len += (size_t)sprintf(s + len, " 1.5");
	CHECK_INT(rx_match(&values, s, len, cap, 3), 3);
	CHECK_INT(cap[2].len, len - 6);
	len = (size_t)sprintf(s, "Testcase:");
	while (len + 4 < n)
		len += (size_t)sprintf(s + len, " Min");
	CHECK_INT(rx_match(&header, s, len, cap, 2), 2);
	CHECK_INT(rx_error_take(NULL, NULL, 0), 0);
	free(s);
}

TEST(rx_match_errors_are_reported)
{
	/* nested repeats: exponential backtracking hits PCRE2's match limit */
	static struct rx bad = RX("^(\\w+\\s?)*$");
	const char *s = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!";
	const char *at = NULL;
	char msg[300];
	struct rx_cap cap[2];

	rx_error_take(NULL, NULL, 0);
	CHECK_INT(rx_match(&bad, s, strlen(s), cap, 2), RX_ERROR);
	CHECK_INT(rx_error_take(&at, msg, sizeof(msg)), 1);
	CHECK(at == s);
	CHECK(strstr(msg, "limit") != NULL);
	CHECK(strstr(msg, "/^(\\w+\\s?)*$/") != NULL);
	CHECK_INT(rx_error_take(&at, msg, sizeof(msg)), 0);   /* taken: forgotten */
	CHECK(at == NULL);
}
