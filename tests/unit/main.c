/* Runs every registered unit test; prints PASS/FAIL lines and a summary. */
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>

struct unit_test {
	const char *name;
	unit_fn fn;
};

static struct unit_test *tests;     /* grows: no test is ever dropped */
static size_t ntests, tests_cap;
static int failed_now;

void unit_register(const char *name, unit_fn fn)
{
	if (ntests == tests_cap) {
		tests_cap = tests_cap ? tests_cap * 2 : 256;
		tests = realloc(tests, tests_cap * sizeof(*tests));
		if (!tests)
			abort();
	}
	tests[ntests].name = name;
	tests[ntests].fn = fn;
	ntests++;
}

size_t unit_registered(const char *prefix)
{
	size_t i, n = 0;

	for (i = 0; i < ntests; i++)
		n += strncmp(tests[i].name, prefix, strlen(prefix)) == 0;
	return n;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	failed_now = 1;
}

const char *unit_samples_dir(void)
{
	const char *d = getenv("KBENCH_SAMPLES");
	return d ? d : "samples";
}

const char *unit_shared_dir(void)
{
	const char *d = getenv("KBENCH_SHARED");
	return d ? d : "../shared";
}

char *unit_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 + 1 > cap) {
			cap = (n + 65536 + 1) * 2;
			p = realloc(p, cap);
			if (!p)
				abort();
		}
		got = fread(p + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	fclose(f);
	p[n] = '\0';
	if (len)
		*len = n;
	return p;
}

static int cmp_test(const void *a, const void *b)
{
	return strcmp(((const struct unit_test *)a)->name, ((const struct unit_test *)b)->name);
}

int main(int argc, char **argv)
{
	size_t i, pass = 0, fail = 0;

	qsort(tests, ntests, sizeof(tests[0]), cmp_test);
	for (i = 0; i < ntests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		failed_now = 0;
		tests[i].fn();
		printf("%s %s\n", failed_now ? "FAIL" : "PASS", tests[i].name);
		if (failed_now)
			fail++;
		else
			pass++;
	}
	printf("unit: %zu passed, %zu failed\n", pass, fail);
	free(tests);
	return fail ? 1 : 0;
}
