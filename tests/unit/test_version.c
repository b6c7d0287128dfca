/* Kernel version order for histories. */
#include "unit.h"
#include "../../analyze/version.h"

static int lt(const char *a, const char *b)
{
	return an_version_cmp(a, b) < 0 && an_version_cmp(b, a) > 0;
}

TEST(version_order)
{
	static const char *const v[] = { "2.4.18", "2.5.39", "2.5.59", "3.9.0", "3.10-rc1",
					 "3.10-rc2", "3.10", "3.10.1", "4.18.0", "4.18.0-1",
					 "4.18.0-2", "4.18.0-10", "5.0", "5.1", "5.2", "5.10",
					 "5.29" };
	size_t i, j, n = sizeof(v) / sizeof(v[0]);

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = an_version_cmp(v[i], v[j]);
			if ((i < j && c >= 0) || (i > j && c <= 0) || (i == j && c != 0))
				unit_fail(__FILE__, __LINE__, "cmp(%s, %s) = %d", v[i], v[j], c);
		}
	CHECK_INT(an_version_cmp("3.10", "3.10.0"), 0);
	CHECK(lt("3.9.0", "3.9.0-mainline_v39+()"));
	CHECK(lt("5.4~rc1", "5.4"));
	CHECK(lt("2.5.9", "2.5.10"));
	CHECK(lt("2.5.010", "2.5.11"));
}

TEST(version_find)
{
	char out[64];

	CHECK(an_version_find("3.9.0-mainline_v39+()", out, sizeof(out)));
	CHECK_STR(out, "3.9.0-mainline_v39+()");
	CHECK(an_version_find("linux-5.4.0-rc2", out, sizeof(out)));
	CHECK_STR(out, "5.4.0-rc2");
	CHECK(an_version_find("v6.1 + fixes", out, sizeof(out)));
	CHECK_STR(out, "6.1");
	CHECK(!an_version_find("stock", out, sizeof(out)));
	CHECK_STR(out, "");
	CHECK(!an_version_find("D7", out, sizeof(out)));
}

TEST(version_commit_match)
{
	const char *c = "6e1830a3477b5be846cf16b7a2e90611b9f4aa01";

	CHECK_INT(an_commit_match("6.9.0-00201-g6e1830a3477b", c), 1);	/* git describe */
	CHECK_INT(an_commit_match("6e1830a", c), 1);			/* a short hash */
	CHECK_INT(an_commit_match(c, c), 1);				/* the hash */
	CHECK_INT(an_commit_match("6e1830", c), 0);			/* 6 digits: too short */
	CHECK_INT(an_commit_match("6.9.0-00201-g6e1830a3477c", c), 0);	/* another commit */
	CHECK_INT(an_commit_match("v6.9-rc1", c), 0);			/* no hash in it */
	CHECK_INT(an_commit_match("6e1830a3477b-dirty", c), 0);		/* not all hex */
	CHECK_INT(an_commit_match("v6.9-rc1", "v6.9-rc1"), 1);		/* the same text */
}
