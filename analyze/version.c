/*
 * version.c - kernel version ordering (see version.h).
 */
#include "version.h"

#include <ctype.h>
#include <string.h>

static int is_sep(int c)
{
	return c == '.' || c == '-' || c == '_' || c == '+' || c == '~';
}

/* Does the rest of a version, starting at s, mark a pre-release? */
static int is_prerelease(const char *s)
{
	static const char *const tags[] = { "rc", "pre", "alpha", "beta" };
	size_t i;

	if (*s == '~')
		return 1;
	while (*s && is_sep((unsigned char)*s))
		s++;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strncmp(s, tags[i], strlen(tags[i])) == 0)
			return 1;
	return 0;
}

int an_digits_cmp(const char **a, const char **b)
{
	const char *pa = *a, *pb = *b, *ea, *eb;
	size_t la, lb;
	int c;

	while (*pa == '0' && isdigit((unsigned char)pa[1]))
		pa++;
	while (*pb == '0' && isdigit((unsigned char)pb[1]))
		pb++;
	for (ea = pa; isdigit((unsigned char)*ea); ea++)
		;
	for (eb = pb; isdigit((unsigned char)*eb); eb++)
		;
	la = (size_t)(ea - pa);
	lb = (size_t)(eb - pb);
	if (la != lb)
		return la < lb ? -1 : 1;
	c = strncmp(pa, pb, la);
	if (c)
		return c;
	*a = ea;
	*b = eb;
	return 0;
}

/* Only ".0" pieces (3.10 vs 3.10.0.0) left? */
static int only_zeros(const char *s)
{
	while (*s == '.' && s[1] == '0') {
		s += 2;
		while (*s == '0')
			s++;
	}
	return *s == '\0';
}

int an_version_cmp(const char *a, const char *b)
{
	for (;;) {
		/* Skip separators, but notice a leading '~'. */
		if (*a == '\0' || *b == '\0') {
			if (*a == '\0' && *b == '\0')
				return 0;
			if (*a == '\0')
				return only_zeros(b) ? 0 : is_prerelease(b) ? 1 : -1;
			return only_zeros(a) ? 0 : is_prerelease(a) ? -1 : 1;
		}
		if (is_sep((unsigned char)*a) || is_sep((unsigned char)*b)) {
			int ta = *a == '~', tb = *b == '~';
			if (ta != tb)
				return ta ? -1 : 1;
			if (is_sep((unsigned char)*a) && is_sep((unsigned char)*b)) {
				a++;
				b++;
				continue;
			}
			/* "3.10-rc1" vs "3.10rc1" is the same; a separator against a
			 * piece otherwise: the shorter piece list sorts first. */
			if (is_sep((unsigned char)*a))
				a++;
			else
				b++;
			continue;
		}
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			int c = an_digits_cmp(&a, &b);

			if (c)
				return c < 0 ? -1 : 1;
			continue;
		}
		if (isdigit((unsigned char)*a) != isdigit((unsigned char)*b)) {
			/* A number against text: a pre-release text sorts first. */
			if (is_prerelease(a))
				return -1;
			if (is_prerelease(b))
				return 1;
			return isdigit((unsigned char)*a) ? 1 : -1;
		}
		/* Text pieces: compare the runs of non-digit, non-separator characters. */
		{
			const char *ea = a, *eb = b;
			size_t la, lb, l;
			int c;

			while (*ea && !isdigit((unsigned char)*ea) && !is_sep((unsigned char)*ea))
				ea++;
			while (*eb && !isdigit((unsigned char)*eb) && !is_sep((unsigned char)*eb))
				eb++;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			l = la < lb ? la : lb;
			c = strncmp(a, b, l);
			if (c)
				return c < 0 ? -1 : 1;
			if (la != lb)
				return la < lb ? -1 : 1;
			a = ea;
			b = eb;
		}
	}
}

int an_version_find(const char *s, char *out, size_t n)
{
	const char *p;

	if (n)
		out[0] = '\0';
	for (p = s; *p; p++) {
		const char *q = p, *e;
		size_t len;

		if (!isdigit((unsigned char)*p) || (p > s && isdigit((unsigned char)p[-1])))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q != '.' || !isdigit((unsigned char)q[1]))
			continue;
		for (e = p; *e && !isspace((unsigned char)*e); e++)
			;
		len = (size_t)(e - p);
		if (n) {
			if (len >= n)
				len = n - 1;
			memcpy(out, p, len);
			out[len] = '\0';
		}
		return 1;
	}
	return 0;
}

/* Length of the hex run at s when s is all hex to its end, else 0. */
static size_t hex_to_end(const char *s)
{
	size_t n = 0;

	while ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))
		n++;
	return s[n] ? 0 : n;
}

size_t an_commit_hash(const char *v, const char **h)
{
	const char *g;
	size_t n;

	*h = v;
	if (!(n = hex_to_end(v)) && (g = strrchr(v, '-')) && g[1] == 'g') {
		*h = g + 2;
		n = hex_to_end(*h);
	}
	return n >= 7 && n <= 40 ? n : 0;
}

int an_commit_match(const char *v, const char *c)
{
	const char *h;
	size_t n;

	if (strcmp(v, c) == 0)
		return 1;
	n = an_commit_hash(v, &h);
	return n && strncmp(h, c, n) == 0;
}
