#include "spell.h"

#include <stdint.h>
#include <string.h>

#define SPELL_MAX 64

size_t spell_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[SPELL_MAX][SPELL_MAX];

	if (la >= SPELL_MAX || lb >= SPELL_MAX)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

void spell_init(struct spell *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = SIZE_MAX;
}

void spell_try(struct spell *s, const char *name)
{
	size_t d = spell_distance(s->word, name);

	if (d < s->dist) {
		s->best = name;
		s->dist = d;
	}
}

const char *spell_best(const struct spell *s)
{
	size_t len = strlen(s->word), max = len <= 4 ? 1 : 2;

	if (!s->best || s->dist == 0 || s->dist > max || s->dist >= len)
		return NULL;
	return s->best;
}
