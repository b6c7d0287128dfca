/*
 * test_run.c - kbench run's engine (import/run.c) without a benchmark:
 * configs and their points, placeholders, the seeded shuffle, monitors,
 * and one run's output into a source (a failed run, output no parser
 * reads, the monitors' deltas, an identity of its own).
 */
#include "unit.h"
#include "../../core/buf.h"
#include "../../import/run.h"

#include <stdlib.h>

TEST(run_configs_points_in_order)
{
	const char *specs[] = { "groups=1,2,4", "mode=process,thread" };
	struct run_configs c;
	struct buf msg = BUF_INIT, t = BUF_INIT;

	CHECK_INT(run_configs_parse(&c, specs, 2, &msg), 0);
	CHECK_INT(c.npoints, 6);
	run_config_text(&c, 0, &t);
	CHECK_STR(buf_str(&t), "groups=1,mode=process");
	run_config_text(&c, 1, &t);
	CHECK_STR(buf_str(&t), "groups=1,mode=thread");
	run_config_text(&c, 5, &t);
	CHECK_STR(buf_str(&t), "groups=4,mode=thread");
	run_configs_release(&c);
	buf_release(&t);
	buf_release(&msg);
}

TEST(run_configs_refused)
{
	const char *twice[] = { "g=1", "g=2" }, *empty[] = { "g=1,,2" }, *noeq[] = { "g" };
	struct run_configs c;
	struct buf msg = BUF_INIT;

	CHECK_INT(run_configs_parse(&c, twice, 2, &msg), -1);
	CHECK_STR(buf_str(&msg), "--config g is given twice (give its values in one list)");
	run_configs_release(&c);
	buf_reset(&msg);
	CHECK_INT(run_configs_parse(&c, empty, 1, &msg), -1);
	CHECK_STR(buf_str(&msg), "--config g has an empty value");
	run_configs_release(&c);
	buf_reset(&msg);
	CHECK_INT(run_configs_parse(&c, noeq, 1, &msg), -1);
	CHECK_STR(buf_str(&msg), "--config needs KEY=VALUE,VALUE..., not 'g'");
	run_configs_release(&c);
	buf_release(&msg);
}

TEST(run_placeholders)
{
	const char *specs[] = { "groups=2,8" };
	char *argv[] = { (char *)"hackbench", (char *)"-g", (char *)"{groups}", (char *)"x{groups}y{}",
			 NULL };
	char *bad[] = { (char *)"hackbench", (char *)"-l", (char *)"{loops}", NULL };
	char *none[] = { (char *)"hackbench", NULL };
	struct run_configs c;
	struct buf msg = BUF_INIT;
	char **av;

	CHECK_INT(run_configs_parse(&c, specs, 1, &msg), 0);
	CHECK_INT(run_placeholders_check(&c, bad, 3, &msg), -1);
	CHECK_STR(buf_str(&msg), "'{loops}' in the command names no --config key");
	buf_reset(&msg);
	CHECK_INT(run_placeholders_check(&c, none, 1, &msg), -1);
	CHECK_STR(buf_str(&msg), "--config groups: the command has no {groups} to put its values in");
	buf_reset(&msg);
	/* "{}" names no key either */
	CHECK_INT(run_placeholders_check(&c, argv, 4, &msg), -1);
	CHECK_STR(buf_str(&msg), "'{}' in the command names no --config key");
	av = run_argv_expand(&c, 1, argv, 3);
	CHECK_STR(av[0], "hackbench");
	CHECK_STR(av[2], "8");
	CHECK(av[3] == NULL);
	run_argv_free(av);
	run_configs_release(&c);
	buf_release(&msg);
}

TEST(run_shuffle_is_seeded_and_a_permutation)
{
	struct run_rng a, b;
	size_t p[8], q[8], i, seen, differ = 0, round;

	run_rng_seed(&a, 42);
	run_rng_seed(&b, 42);
	for (round = 0; round < 50; round++) {
		run_rng_shuffle(&a, p, 8);
		run_rng_shuffle(&b, q, 8);
		for (i = 0, seen = 0; i < 8; i++) {
			CHECK_INT(p[i], q[i]);
			seen |= (size_t)1 << p[i];
		}
		CHECK_INT(seen, 0xff);
	}
	run_rng_seed(&b, 43);
	run_rng_shuffle(&b, q, 8);
	run_rng_shuffle(&a, p, 8);
	for (i = 0; i < 8; i++)
		differ += p[i] != q[i];
	CHECK(differ > 0);
	/* splitmix64's first output of seed 0, as published */
	run_rng_seed(&a, 0);
	CHECK(run_rng_next(&a) == 0xe220a8397b1dcdafULL);
}

TEST(run_monitors_parse)
{
	struct buf msg = BUF_INIT;
	unsigned m;

	CHECK_INT(run_monitors_parse("numa,numastat", &m, &msg), 0);
	CHECK_INT(m, RUN_MON_NUMA | RUN_MON_NUMASTAT);
	CHECK_INT(run_monitors_parse("none", &m, &msg), 0);
	CHECK_INT(m, 0);
	CHECK_INT(run_monitors_parse("numa,vmstats", &m, &msg), -1);
	CHECK_STR(buf_str(&msg), "--monitor: unknown monitor 'vmstats' (numa, vmstat, numastat or none)");
	buf_release(&msg);
}

static struct import_item *source_of(const char *text, int status, const char *err,
				     const struct run_counters *before,
				     const struct run_counters *after, int index)
{
	struct import_opts o;
	struct run_source_opts so;
	struct run_output out;
	char *argv[] = { (char *)"hackbench", (char *)"-g", (char *)"2", NULL };
	struct import_item *it;

	memset(&o, 0, sizeof(o));
	o.variant = "v";
	o.machine = "box";
	memset(&so, 0, sizeof(so));
	so.o = &o;
	so.started = "2026-12-04T21:00:00Z";
	so.pid = 1;
	so.index = index;
	run_output_init(&out);
	buf_puts(&out.all, text);
	buf_puts(&out.err, err);
	out.status = status;
	it = run_source(&so, argv, NULL, 0, 1, &out, before, after);
	run_output_release(&out);
	return it;
}

static const char HB[] = "Running in process mode with 2 groups using 40 file descriptors each (== 80 tasks)\n"
			 "Each sender will pass 50 messages of 100 bytes\nTime: 0.125\n";

TEST(run_source_of_an_output)
{
	struct run_counters b, a;
	struct import_item *it, *again;
	size_t i;

	memset(&b, 0, sizeof(b));
	memset(&a, 0, sizeof(a));
	b.names = calloc(1, sizeof(char *));
	b.values = calloc(1, sizeof(long long));
	a.names = calloc(1, sizeof(char *));
	a.values = calloc(1, sizeof(long long));
	b.names[0] = strdup("vmstat.numa_hit");
	a.names[0] = strdup("vmstat.numa_hit");
	b.values[0] = 1000;
	a.values[0] = 1234;
	b.n = a.n = 1;
	it = source_of(HB, 0, "", &b, &a, 1);
	CHECK_INT(it->kind, IMPORT_READY);
	CHECK_INT(it->batch.nruns, 1);
	CHECK_STR(it->batch.runs[0]->benchmark, "hackbench");
	CHECK_INT(it->batch.runs[0]->iteration, 1);
	CHECK(!it->batch.runs[0]->failed);
	for (i = 0; i < it->batch.runs[0]->nsamples; i++)
		if (strcmp(it->batch.runs[0]->samples[i].metric, "vmstat.numa_hit") == 0)
			break;
	CHECK(i < it->batch.runs[0]->nsamples);
	if (i < it->batch.runs[0]->nsamples)
		CHECK_NEAR(it->batch.runs[0]->samples[i].value, 234, 0);
	/* the same output, the next run: another identity */
	again = source_of(HB, 0, "", NULL, NULL, 2);
	CHECK(strcmp(it->sha, again->sha) != 0);
	CHECK(strcmp(it->batch.segments[0].hash, again->batch.segments[0].hash) != 0);
	import_item_free(it);
	import_item_free(again);
	run_counters_release(&b);
	run_counters_release(&a);
}

TEST(run_source_of_a_failed_run)
{
	struct import_item *it = source_of("", 3, "hackbench: cannot fork\n", NULL, NULL, 1);

	CHECK_INT(it->kind, IMPORT_READY);
	CHECK_INT(it->batch.nruns, 1);
	CHECK_STR(it->batch.runs[0]->benchmark, "hackbench");
	CHECK(it->batch.runs[0]->failed);
	CHECK_STR(it->batch.runs[0]->error, "exit status 3: hackbench: cannot fork");
	import_item_free(it);
}

TEST(run_source_of_output_no_parser_reads)
{
	struct import_item *it = source_of("hello\n", 0, "", NULL, NULL, 1);

	CHECK_INT(it->kind, IMPORT_FAILED);
	CHECK(strstr(it->err.msg, "the output of 'hackbench -g 2' is no format kbench reads "
		     "(tried: numa_test, hackbench,") == it->err.msg);
	import_item_free(it);
}
