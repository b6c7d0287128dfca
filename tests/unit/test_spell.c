/* core/spell.c: the edit distance behind "did you mean", and when a name
 * is near enough to offer. */
#include "unit.h"
#include "../../core/spell.h"

static const char *nearest(const char *word, const char *const *names)
{
	struct spell s;

	spell_init(&s, word);
	for (; *names; names++)
		spell_try(&s, *names);
	return spell_best(&s);
}

TEST(spell_distance)
{
	CHECK_INT(spell_distance("compare", "compare"), 0);
	CHECK_INT(spell_distance("comapre", "compare"), 1);     /* a swap is one edit */
	CHECK_INT(spell_distance("varaints", "variants"), 1);
	CHECK_INT(spell_distance("compar", "compare"), 1);
	CHECK_INT(spell_distance("kitten", "sitting"), 3);
	CHECK_INT(spell_distance("", "ls"), 2);
}

TEST(spell_best)
{
	static const char *const verbs[] = { "import", "ls", "show", "chart", "report", "compare",
		"export", "regress", "history", "relabel", "init", "copy", "help", NULL };

	CHECK_STR(nearest("comapre", verbs), "compare");
	CHECK_STR(nearest("imprt", verbs), "import");
	CHECK_STR(nearest("regres", verbs), "regress");
	CHECK_STR(nearest("sl", verbs), "ls");
	CHECK(nearest("frobnicate", verbs) == NULL);
	CHECK(nearest("x", verbs) == NULL);             /* one letter is not a word to correct */
	CHECK(nearest("compare", verbs) == NULL);       /* nothing to correct */
	CHECK(nearest("cxmpxrx", verbs) == NULL);       /* three edits */
}
