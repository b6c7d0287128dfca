/*
 * spell.h - "did you mean": the nearest of a set of names to a misspelled one.
 *
 *   struct spell s;
 *   spell_init(&s, "comapre");
 *   for (each name) spell_try(&s, name);
 *   if (spell_best(&s)) ... "did you mean '%s'?"
 *
 * The distance is Damerau-Levenshtein (optimal string alignment: an
 * insertion, a deletion, a substitution or a swap of two neighbours each
 * cost one).  A name is offered only when it is near: at most one edit
 * for a word of up to four characters, two for a longer one, and never
 * as many edits as the word has characters.  The first of equally near
 * names wins (the table's order).  Nothing is allocated.
 */
#ifndef KB_SPELL_H
#define KB_SPELL_H

#include <stddef.h>

struct spell {
	const char *word;       /* what was typed */
	const char *best;       /* nearest name so far, or NULL */
	size_t dist;            /* its distance */
};

/* Edits from a to b; names longer than 63 bytes count as far (SIZE_MAX). */
size_t spell_distance(const char *a, const char *b);
void spell_init(struct spell *s, const char *word);
void spell_try(struct spell *s, const char *name);
/* The nearest name tried, if near enough to offer; else NULL. */
const char *spell_best(const struct spell *s);

#endif
