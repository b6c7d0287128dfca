/* The harness itself and the allocation helpers' limits. */
#include "unit.h"
#include "../../core/arena.h"
#include "../../core/buf.h"
#include "../../core/util.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Register 1,100 more tests the way TEST() does, in a child (so that
 * this run's list and counts stay as they are): the harness kept the
 * first 1,024 tests and silently dropped the rest. */
#define HARNESS_MANY 1100

static void harness_one(void)
{
}

TEST(harness_keeps_every_test)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		static char names[HARNESS_MANY][32];
		size_t before = unit_registered("");
		int i;
		for (i = 0; i < HARNESS_MANY; i++) {
			snprintf(names[i], sizeof(names[i]), "harness_many_%04d", i);
			unit_register(names[i], harness_one);
		}
		_exit(unit_registered("") == before + HARNESS_MANY &&
		      unit_registered("harness_many_") == HARNESS_MANY ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Run fn in a child: 1 when it aborted (as an allocation must when its
 * size overflows), 0 when it returned. */
static int aborts(void (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void grow_overflow(void)
{
	char *p = NULL;
	size_t cap = 0;

	/* cap * elem wraps: without the check a tiny block came back */
	xgrow(&p, &cap, SIZE_MAX / 64, 128);
	p[cap - 1] = 1;
	free(p);
}

static void arena_overflow(void)
{
	struct arena a;
	char *p = NULL;
	size_t cap = 0;

	arena_init(&a);
	arena_grow(&a, &p, &cap, SIZE_MAX / 64, 128);
	arena_release(&a);
}

static void buf_overflow(void)
{
	struct buf b = BUF_INIT;

	buf_putc(&b, 'x');
	buf_grow(&b, SIZE_MAX);
	buf_release(&b);
}

TEST(harness_growth_overflow_aborts)
{
	CHECK_INT(aborts(grow_overflow), 1);
	CHECK_INT(aborts(arena_overflow), 1);
	CHECK_INT(aborts(buf_overflow), 1);
	CHECK(grow_cap(SIZE_MAX / 2 + 2, SIZE_MAX / 2 + 3) >= SIZE_MAX / 2 + 3);
	CHECK_INT(size_mul(1 << 20, 1 << 10), 1 << 30);
}
