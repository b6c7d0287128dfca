/* test_gnutime.c - GNU time parser against lkp's expectations, mmtests and seed 002. */
#include "unit.h"
#include "fixture.h"

#include <stdlib.h>

/* Value of metric in run r; NAN when absent. */
static double tm_sample(const struct rec_run *r, const char *metric)
{
	return r ? unit_sample(r, metric) : NAN;
}

static int tm_has(const struct rec_run *r, const char *metric)
{
	return !isnan(tm_sample(r, metric));
}

/* lkp key -> our metric (tests/README lists the keys we drop). */
static const char *const tm_map[][2] = {
	{ "user_time", "user" },
	{ "system_time", "sys" },
	{ "percent_of_cpu_this_job_got", "percent_cpu" },
	{ "elapsed_time", "elapsed" },
	{ "maximum_resident_set_size", "max_rss_kb" },
	{ "major_page_faults", "major_faults" },
	{ "minor_page_faults", "minor_faults" },
	{ "voluntary_context_switches", "voluntary_cs" },
	{ "involuntary_context_switches", "involuntary_cs" },
	{ "swaps", "swaps" },
	{ "file_system_inputs", "fs_inputs" },
	{ "file_system_outputs", "fs_outputs" },
	{ "socket_messages_sent", "socket_msgs_sent" },
	{ "socket_messages_received", "socket_msgs_received" },
	{ "signals_delivered", "signals" },
	{ "exit_status", "exit_status" },
};

static void tm_check_lkp(const char *name, int percent_missing, int failed)
{
	char rel[256], path[2048];
	struct unit_doc f;
	const struct rec_run *r;
	char *yaml;
	size_t len, k;

	snprintf(rel, sizeof(rel), "corpus/lkp/generated/time/%s", name);
	snprintf(path, sizeof(path), "%s/%s.yaml", unit_shared_dir(), rel);
	yaml = unit_read_file(path, &len);
	CHECK(yaml != NULL);
	unit_doc_load(&f, rel, NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	if (r && yaml) {
		CHECK_STR(r->benchmark, "time");
		CHECK_INT(r->failed, failed);
		CHECK(rec_run_config_get(r, "command") != NULL);
		CHECK_INT(r->nsamples, 16 - percent_missing);
		for (k = 0; k < sizeof(tm_map) / sizeof(tm_map[0]); k++) {
			if (percent_missing && strcmp(tm_map[k][1], "percent_cpu") == 0) {
				CHECK(!tm_has(r, "percent_cpu"));   /* lkp says 0 for "?%" */
				continue;
			}
			CHECK_NEAR(tm_sample(r, tm_map[k][1]), unit_yaml(yaml, tm_map[k][0]), 1e-9);
		}
	}
	free(yaml);
	unit_doc_free(&f);
}

TEST(gnutime_lkp_verbose_01_to_04)
{
	tm_check_lkp("01", 0, 0);
	tm_check_lkp("02", 0, 1);
	tm_check_lkp("03", 0, 0);
	tm_check_lkp("04", 1, 0);      /* 1:02:03.45 and "?%" */
}

TEST(gnutime_lkp_02_failed_run_message)
{
	struct unit_doc f;

	unit_doc_load(&f, "corpus/lkp/generated/time/02", NULL, NULL);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns) {
		CHECK(f.batch.runs[0]->failed);
		CHECK(f.batch.runs[0]->error && strstr(f.batch.runs[0]->error, "status 2"));
		CHECK_NEAR(tm_sample(f.batch.runs[0], "exit_status"), 2, 0);
		CHECK_STR(rec_run_config_get(f.batch.runs[0], "command"), "sh -c sleep 0.3; exit 2");
	}
	unit_doc_free(&f);
}

TEST(gnutime_mmtests_default_format)
{
	struct unit_doc f;
	const struct rec_run *r;

	unit_doc_load(&f, "corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400/"
		"hackbench-process-pipes/iter-0/hackbench-process-pipes/logs/time-1-1", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	CHECK_STR(r ? r->benchmark : NULL, "time");
	CHECK_NEAR(tm_sample(r, "elapsed"), 0.89, 1e-12);
	CHECK_NEAR(tm_sample(r, "user"), 2.65, 1e-12);
	CHECK_NEAR(tm_sample(r, "sys"), 25.05, 1e-12);
	CHECK_NEAR(tm_sample(r, "percent_cpu"), 3103, 0);
	CHECK_NEAR(tm_sample(r, "max_rss_kb"), 7424, 0);
	CHECK_NEAR(tm_sample(r, "major_faults"), 0, 0);
	CHECK_NEAR(tm_sample(r, "minor_faults"), 2047, 0);
	CHECK_NEAR(tm_sample(r, "fs_outputs"), 128, 0);
	CHECK(!tm_has(r, "exit_status"));
	CHECK(r && !r->failed);
	unit_doc_free(&f);

	unit_doc_load(&f, "corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400/"
		"forkintensive/iter-0/hackbench-thread-sockets/logs/time-172-3", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	CHECK_INT(f.batch.nruns ? f.batch.runs[0]->nsamples : 0, 10);
	unit_doc_free(&f);
}

TEST(gnutime_seed002_preset_lines_are_autonuma_runs)
{
	struct unit_doc f;
	const struct rec_run *r = NULL;
	size_t i, n = 0;

	unit_doc_load(&f, "seeds/002_c5c123cd839d7edc.txt", NULL, NULL);
	CHECK_INT(f.rc, 0);
	for (i = 0; i < f.batch.nruns; i++) {
		if (strcmp(f.batch.runs[i]->benchmark, "autonuma") != 0 ||
		    !tm_has(f.batch.runs[i], "voluntary_cs"))
			continue;
		n++;
		if (n == 3)
			r = f.batch.runs[i];
	}
	CHECK_INT(n, 4);
	CHECK(r != NULL);
	if (r) {
		/* numa02 32.72 51.25 1415.06 6013 111 */
		CHECK_STR(rec_run_config_get(r, "test"), "numa02");
		CHECK_NEAR(tm_sample(r, "elapsed"), 32.72, 1e-12);
		CHECK_NEAR(tm_sample(r, "sys"), 51.25, 1e-12);
		CHECK_NEAR(tm_sample(r, "user"), 1415.06, 1e-12);
		CHECK_NEAR(tm_sample(r, "involuntary_cs"), 6013, 0);
		CHECK_NEAR(tm_sample(r, "voluntary_cs"), 111, 0);
		CHECK_STR(r->variant, "3.9.0-mainline_v39+()");
		CHECK_INT(r->variant_origin, REC_ORIGIN_CONTEXT);
	}
	unit_doc_free(&f);
}

TEST(gnutime_time_format_option)
{
	struct unit_doc f;
	struct ingest_opts opts = { "%E %U %S %P %M %x", 0, NULL };
	const struct rec_run *r;

	unit_doc_load(&f, NULL, "run log\n\nnuma01_THREAD_ALLOC 1:01.50 10.5 2.25 95% 1024 0\n", &opts);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	CHECK_STR(r ? r->benchmark : NULL, "autonuma");
	CHECK_STR(r ? rec_run_config_get(r, "test") : NULL, "numa01_THREAD_ALLOC");
	CHECK_NEAR(tm_sample(r, "elapsed"), 61.5, 1e-12);
	CHECK_NEAR(tm_sample(r, "user"), 10.5, 1e-12);
	CHECK_NEAR(tm_sample(r, "sys"), 2.25, 1e-12);
	CHECK_NEAR(tm_sample(r, "percent_cpu"), 95, 0);
	CHECK_NEAR(tm_sample(r, "max_rss_kb"), 1024, 0);
	CHECK_NEAR(tm_sample(r, "exit_status"), 0, 0);
	unit_doc_free(&f);
}

TEST(gnutime_posix_and_status_lines)
{
	struct unit_doc f;
	const struct rec_run *r;

	unit_doc_load(&f, NULL, "Command terminated by signal 9\nreal 1.00\nuser 0.50\nsys 0.10\n", NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 1);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	CHECK(r && r->failed && strstr(r->error, "signal 9"));
	CHECK_NEAR(tm_sample(r, "elapsed"), 1.0, 1e-12);
	CHECK_NEAR(tm_sample(r, "sys"), 0.1, 1e-12);
	unit_doc_free(&f);

	unit_doc_load(&f, NULL, "\nreal\t0m1.250s\nuser\t0m0.500s\nsys\t1m0.010s\n", NULL);
	CHECK_INT(f.rc, 0);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	CHECK_NEAR(tm_sample(r, "elapsed"), 1.25, 1e-12);
	CHECK_NEAR(tm_sample(r, "sys"), 60.01, 1e-12);
	unit_doc_free(&f);

	unit_doc_load(&f, NULL, "Command exited with non-zero status 1\n"
		"0.01user 0.00system 0:00.01elapsed ?%CPU (0avgtext+0avgdata 1536maxresident)k\n"
		"0inputs+0outputs (0major+73minor)pagefaults 0swaps\n", NULL);
	CHECK_INT(f.rc, 0);
	r = f.batch.nruns ? f.batch.runs[0] : NULL;
	CHECK(r && r->failed && strstr(r->error, "status 1"));
	CHECK_NEAR(tm_sample(r, "exit_status"), 1, 0);
	CHECK(!tm_has(r, "percent_cpu"));
	CHECK_NEAR(tm_sample(r, "minor_faults"), 73, 0);
	unit_doc_free(&f);
}

static void tm_expect_error(const char *text, const struct ingest_opts *opts, long line)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, text, opts);
	CHECK_INT(f.rc, -1);
	CHECK_INT(f.err.line, line);
	CHECK(strstr(f.err.msg, "time") != NULL);
	unit_doc_free(&f);
}

TEST(gnutime_bad_input_fails_with_line)
{
	struct ingest_opts opts = { "%e %S", 0, NULL };

	/* Default format cut after its first line. */
	tm_expect_error("x\n2.65user 25.05system 0:00.89elapsed 3103%CPU (0avgtext+0avgdata 7424maxresident)k\n",
			NULL, 2);
	/* Garbage in a labelled -v line. */
	tm_expect_error("\tUser time (seconds): 0.24\n"
			"\tSystem time (seconds): 0.00\n"
			"\tPercent of CPU this job got: 51%\n"
			"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:0x.47\n"
			"\tMaximum resident set size (kbytes): 1428\n", NULL, 4);
	tm_expect_error("\tUser time (seconds): 0.24\n"
			"\tSystem time (seconds): 0.00\n"
			"\tVoluntary context switches: many\n", NULL, 3);
	/* -p report cut before sys. */
	tm_expect_error("real 1.00\nuser 0.50\n", NULL, 2);
	/* Field count does not match --time-format. */
	tm_expect_error("numa02 32.72 51.25 1415.06\n", &opts, 1);
	/* Preset: five numbers, one garbled. */
	tm_expect_error("\n\nnuma02 32.72 51.25 14x5.06 6013 111\n", NULL, 3);
}

TEST(gnutime_prose_not_claimed)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, "Exit status: 0\nreal 1.00\nThe numa01 run took 12 s\nnuma01\n", NULL);
	CHECK_INT(f.rc, INGEST_NOTHING);
	CHECK_INT(f.batch.nruns, 0);
	unit_doc_free(&f);
}
