#include "num.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static locale_t c_locale(void)
{
	static locale_t loc;

	if (!loc)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

/* Length of the longest numeric prefix of s[0..len) in C syntax. */
static size_t number_span(const char *s, size_t len)
{
	size_t i = 0, digits = 0, save;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return 0;
	save = i;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t ed = 0;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, ed++;
		if (!ed)
			i = save;
	}
	return i;
}

/*
 * Plain decimals of up to 15 digits ("-23.84", "0.090", "8610") are the
 * numbers of benchmark output: convert those without strtod.  The digits
 * form an integer below 2^53 and 10^d (d <= 22) is exact too, so the one
 * division is correctly rounded, as strtod is.  Returns -1 to fall back.
 */
static int convert_plain(const char *s, size_t n, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
		1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	unsigned long long m = 0;
	size_t i = 0, digits = 0;
	int neg = 0, dec = -1;

	if (s[0] == '+' || s[0] == '-')
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			m = m * 10 + (unsigned)(s[i] - '0');
			digits++;
			if (dec >= 0)
				dec++;
		} else if (s[i] == '.' && dec < 0) {
			dec = 0;
		} else {
			return -1;
		}
	}
	if (digits == 0 || digits > 15)
		return -1;
	*out = dec > 0 ? (double)m / pow10[dec] : (double)m;
	if (neg)
		*out = -*out;
	return 0;
}

static int convert(const char *s, size_t n, double *out)
{
	char tmp[64];
	char *end;

	if (n > 0 && convert_plain(s, n, out) == 0)
		return 0;
	if (n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*out = strtod_l(tmp, &end, c_locale());
	/* Too large for a double ("1e999"): not a value kbench can store. */
	return (size_t)(end - tmp) == n && isfinite(*out) ? 0 : -1;
}

int num_parse(const char *s, size_t len, double *out)
{
	size_t n = number_span(s, len);

	if (n == 0 || n != len)
		return -1;
	return convert(s, n, out);
}

int num_parse_long(const char *s, size_t len, long *out)
{
	size_t i = 0;
	long v = 0;
	int neg = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (__LONG_MAX__ - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

int num_scan(const char **p, const char *end, double *out)
{
	const char *s = *p;
	size_t n;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	n = number_span(s, (size_t)(end - s));
	if (n == 0 || convert(s, n, out) < 0)
		return -1;
	*p = s + n;
	return 0;
}

void num_format(double v, char *out)
{
	int prec;

	if (isnan(v)) {
		strcpy(out, "nan");
		return;
	}
	if (isinf(v)) {
		strcpy(out, v > 0 ? "inf" : "-inf");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		double back;
		snprintf(out, 32, "%.*g", prec, v);
		if (convert(out, strlen(out), &back) == 0 && back == v)
			break;
	}
}

int num_decimals(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);
	int d = 0;

	if (!dot)
		return 0;
	for (dot++; dot < s + len && *dot >= '0' && *dot <= '9'; dot++)
		d++;
	return d;
}
