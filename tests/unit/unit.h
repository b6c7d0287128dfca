/*
 * unit.h - a tiny unit-test harness.  Each TEST() registers itself before
 * main() runs; tests/unit/main.c runs them all and prints one
 * "PASS name" / "FAIL name" line per test.
 *
 *   TEST(stats_mean_of_three) {
 *       CHECK_NEAR(an_mean(x, 3), 2.0, 1e-12);
 *   }
 */
#ifndef KB_UNIT_H
#define KB_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, unit_fn fn);
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* How many registered tests' names start with prefix. */
size_t unit_registered(const char *prefix);
/* Directory of the repository's samples/ and of ../shared (set by main). */
const char *unit_samples_dir(void);
const char *unit_shared_dir(void);
/* Read a whole file into a malloc'd NUL-terminated buffer; NULL on error. */
char *unit_read_file(const char *path, size_t *len);

#define TEST(name) \
	static void test_##name(void); \
	__attribute__((constructor)) static void reg_##name(void) \
	{ unit_register(#name, test_##name); } \
	static void test_##name(void)

#define CHECK(cond) do { if (!(cond)) unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); } while (0)

#define CHECK_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) unit_fail(__FILE__, __LINE__, "%s == %lld, expected %lld", #a, _a, _b); } while (0)

#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b) != 0) unit_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
		#a, _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)

/* Absolute-or-relative tolerance: |a-b| <= tol * max(1, |b|). */
#define CHECK_NEAR(a, b, tol) do { double _a = (a), _b = (b); \
	if (!(fabs(_a - _b) <= (tol) * (fabs(_b) > 1 ? fabs(_b) : 1))) \
		unit_fail(__FILE__, __LINE__, "%s == %.10g, expected %.10g", #a, _a, _b); } while (0)

#endif
