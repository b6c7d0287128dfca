/* test_hackbench.c - hackbench parser and the mmtests layout, against lkp's
 * expectations and the mmtests corpus. */
#include "unit.h"
#include "fixture.h"
#include "../../core/num.h"
#include "../../ingest/ingest.h"
#include "../../ingest/layout.h"
#include "../../ingest/parsers.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Import a file (absolute path) or inline text with all parsers. */
static void hb_load(struct unit_doc *f, const char *path, const char *text)
{
	char *data = NULL;
	size_t len;

	if (path) {
		data = unit_read_file(path, &len);
		CHECK(data != NULL);
		if (!data) {
			memset(f, 0, sizeof(*f));
			rec_batch_init(&f->batch);
			f->rc = -2;
			return;
		}
	} else {
		path = "inline";
		len = strlen(text);
	}
	if (unit_doc_parse(f, path, data ? data : text, len, NULL, NULL) != 0)
		unit_fail(__FILE__, __LINE__, "%s:%ld: %s", f->err.file, f->err.line, f->err.msg);
	free(data);
}

static void shared_path(char *out, size_t n, const char *rel)
{
	snprintf(out, n, "%s/%s", unit_shared_dir(), rel);
}

static const char *cfg(const struct rec_run *r, const char *key)
{
	const char *v = rec_run_config_get(r, key);
	return v ? v : "(unset)";
}

/* Value of key in an lkp "key: value" file; NAN when absent. */
static double yaml_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len > klen + 2 && memcmp(p, key, klen) == 0 && p[klen] == ':' && p[klen + 1] == ' ') {
			double v;
			if (num_parse(p + klen + 2, len - klen - 2, &v) == 0)
				return v;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NAN;
}

static long cfg_long(const struct rec_run *r, const char *key)
{
	const char *v = rec_run_config_get(r, key);
	return v ? strtol(v, NULL, 10) : -1;
}

/* lkp: KiB moved = tasks * messages * bytes >> 10, throughput = that / time. */
static double lkp_kib(const struct rec_run *r)
{
	long long t = cfg_long(r, "tasks"), m = cfg_long(r, "loops"), b = cfg_long(r, "datasize");
	return (double)((t * m * b) >> 10);
}

struct hb_times {
	double min, max, sum;
	int n;
	const struct rec_run *last;
};

/* Times of the runs with instance == inst (NULL: all runs). */
static struct hb_times collect(const struct rec_batch *b, const char *inst)
{
	struct hb_times t = { INFINITY, -INFINITY, 0, 0, NULL };
	size_t i;

	for (i = 0; i < b->nruns; i++) {
		const struct rec_run *r = b->runs[i];
		double v;
		if (inst && strcmp(cfg(r, "instance"), inst) != 0)
			continue;
		if (r->failed || r->nsamples != 1)
			continue;
		v = r->samples[0].value;
		t.min = v < t.min ? v : t.min;
		t.max = v > t.max ? v : t.max;
		t.sum += v;
		t.n++;
		t.last = r;
	}
	return t;
}

static double round2(double v)
{
	return floor(v * 100 + 0.5) / 100;
}

/* Throughputs from our stored times and config equal lkp's .yaml. */
static void check_lkp(const char *yaml, const struct hb_times *t, const char *suffix, int with_best)
{
	char key[128];
	double kib = lkp_kib(t->last);

	CHECK(t->n > 0);
	if (t->n == 0)
		return;
	snprintf(key, sizeof(key), "throughput%s", suffix);
	CHECK_NEAR(kib / t->min, yaml_value(yaml, key), 1e-6);
	if (with_best)
		CHECK_NEAR(kib / t->min, yaml_value(yaml, "throughput_best"), 1e-6);
	snprintf(key, sizeof(key), "throughput_worst%s", suffix);
	CHECK_NEAR(kib / t->max, yaml_value(yaml, key), 1e-6);
	snprintf(key, sizeof(key), "throughput_avg%s", suffix);
	CHECK(fabs(round2(kib / (t->sum / t->n)) - yaml_value(yaml, key)) <= 0.01);
}

TEST(hackbench_lkp_single_instance)
{
	struct unit_doc f;
	char path[2048];
	char *yaml;
	struct hb_times t;
	size_t len, i;

	shared_path(path, sizeof(path), "corpus/lkp/hackbench/hackbench");
	hb_load(&f, path, NULL);
	CHECK_INT(f.batch.nruns, 8);
	for (i = 0; i < f.batch.nruns; i++) {
		const struct rec_run *r = f.batch.runs[i];
		CHECK_STR(r->benchmark, "hackbench");
		CHECK_INT(r->iteration, (int)i + 1);
		CHECK_INT(r->failed, 0);
		CHECK_INT(r->nsamples, 1);
		CHECK_STR(cfg(r, "groups"), "256");
		CHECK_STR(cfg(r, "tasks"), "10240");
		CHECK_STR(cfg(r, "mode"), "process");
		CHECK_STR(cfg(r, "ipc"), "pipe");
		CHECK_STR(cfg(r, "loops"), "30000");
		CHECK_STR(cfg(r, "datasize"), "100");
		CHECK_STR(cfg(r, "impl"), "rt-tests");
		CHECK(rec_run_config_get(r, "instance") == NULL);
		CHECK(r->variant == NULL);
	}
	CHECK_NEAR(f.batch.runs[0]->samples[0].value, 9.541, 1e-12);
	CHECK_STR(f.batch.runs[0]->samples[0].unit, "s");
	CHECK_STR(f.batch.runs[0]->samples[0].metric, "time");
	CHECK_INT(f.batch.runs[0]->line, 3);

	shared_path(path, sizeof(path), "corpus/lkp/hackbench/hackbench.yaml");
	yaml = unit_read_file(path, &len);
	CHECK(yaml != NULL);
	t = collect(&f.batch, NULL);
	CHECK_INT(t.n, 8);
	if (yaml && t.n)
		check_lkp(yaml, &t, "", 1);
	free(yaml);
	unit_doc_free(&f);
}

TEST(hackbench_lkp_multi_instance)
{
	struct unit_doc f;
	char path[2048];
	char *yaml;
	struct hb_times all, i1, i2;
	size_t len;

	shared_path(path, sizeof(path), "corpus/lkp/hackbench/hackbench-multi-instance");
	hb_load(&f, path, NULL);
	CHECK_INT(f.batch.nruns, 16);
	CHECK_INT(rec_batch_nsamples(&f.batch), 16);
	if (f.batch.nruns == 16) {
		CHECK_STR(cfg(f.batch.runs[0], "instance"), "1");
		CHECK_STR(cfg(f.batch.runs[0], "groups"), "2");
		CHECK_STR(cfg(f.batch.runs[0], "mode"), "thread");
		CHECK_INT(f.batch.runs[7]->iteration, 8);
		CHECK_STR(cfg(f.batch.runs[8], "instance"), "2");
		CHECK_STR(cfg(f.batch.runs[8], "groups"), "8192");
		CHECK_STR(cfg(f.batch.runs[8], "tasks"), "327680");
		CHECK_INT(f.batch.runs[8]->iteration, 1);
	}
	shared_path(path, sizeof(path), "corpus/lkp/hackbench/hackbench-multi-instance.yaml");
	yaml = unit_read_file(path, &len);
	CHECK(yaml != NULL);
	i1 = collect(&f.batch, "1");
	i2 = collect(&f.batch, "2");
	all = collect(&f.batch, NULL);
	CHECK_INT(i1.n, 8);
	CHECK_INT(i2.n, 8);
	if (yaml && i1.n && i2.n) {
		check_lkp(yaml, &i1, ".instance1", 0);
		check_lkp(yaml, &i2, ".instance2", 0);
		/* lkp's combined keys: last instance's sizes, all instances' times */
		check_lkp(yaml, &all, "", 1);
	}
	free(yaml);
	unit_doc_free(&f);
}

TEST(hackbench_perf_messaging_fixture)
{
	struct unit_doc f;
	char path[2048];

	shared_path(path, sizeof(path), "corpus/lkp/perf-bench-sched-messaging/01");
	hb_load(&f, path, NULL);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_INT(r->nsamples, 1);
		if (r->nsamples)
			CHECK_NEAR(r->samples[0].value, 0.055, 1e-12);
		CHECK_STR(cfg(r, "impl"), "perf");
		CHECK_STR(cfg(r, "groups"), "10");
		CHECK_STR(cfg(r, "tasks"), "400");
		CHECK_STR(cfg(r, "mode"), "process");
	}
	unit_doc_free(&f);
}

TEST(hackbench_rt_tests_threaded_blocks)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"Running in threaded mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Time: 0.454\n"
		"Running in process mode with 20 groups using 40 file descriptors each (== 800 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Time: 0.912\n");
	CHECK_INT(f.batch.nruns, 2);
	if (f.batch.nruns == 2) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_STR(cfg(r, "mode"), "thread");
		CHECK_STR(cfg(r, "groups"), "10");
		CHECK_STR(cfg(r, "tasks"), "400");
		CHECK_STR(cfg(r, "impl"), "rt-tests");
		CHECK(rec_run_config_get(r, "ipc") == NULL);    /* not printed */
		CHECK_INT(r->iteration, 0);
		CHECK_NEAR(r->samples[0].value, 0.454, 1e-12);
		CHECK_STR(cfg(f.batch.runs[1], "mode"), "process");
		CHECK_NEAR(f.batch.runs[1]->samples[0].value, 0.912, 1e-12);
	}
	unit_doc_free(&f);
}

TEST(hackbench_quoted_collapsed_mail)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"Here is what I got:\n"
		"\n"
		"> $ ./hackbench -g 10 -T -s 512\n"
		"> Running  in threaded mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		">  Each sender will pass 100 messages of 512 bytes\n"
		">\tTime:  0.500\r\n"
		"\n"
		"Thanks.\n");
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_STR(cfg(r, "mode"), "thread");
		CHECK_STR(cfg(r, "ipc"), "socket");
		CHECK_STR(cfg(r, "datasize"), "512");
		CHECK_NEAR(r->samples[0].value, 0.5, 1e-12);
	}
	unit_doc_free(&f);
}

TEST(hackbench_old_forms)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"Time: 5.54\n"
		"Time: 5.61\n");
	CHECK_INT(f.batch.nruns, 2);
	if (f.batch.nruns == 2) {
		CHECK_STR(cfg(f.batch.runs[0], "impl"), "legacy");
		CHECK_NEAR(f.batch.runs[1]->samples[0].value, 5.61, 1e-12);
	}
	unit_doc_free(&f);

	hb_load(&f, NULL,
		"hackbench 10 process 1000\n"
		"Running with 10*40 (== 400) tasks.\n"
		"Time: 1.234\n"
		"Each sender passed 1000 messages of 100 bytes in average\n");
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_INT(r->failed, 0);
		CHECK_STR(cfg(r, "groups"), "10");
		CHECK_STR(cfg(r, "tasks"), "400");
		CHECK_STR(cfg(r, "mode"), "process");
		CHECK_STR(cfg(r, "loops"), "1000");
		CHECK_STR(cfg(r, "datasize"), "100");
		CHECK_STR(cfg(r, "impl"), "legacy");
	}
	unit_doc_free(&f);
}

TEST(hackbench_perf_simple_format)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"# perf bench sched messaging -t -g 5 -l 50 --format=simple\n"
		"# Running 'sched/messaging' benchmark:\n"
		"0.630\n");
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_NEAR(r->samples[0].value, 0.630, 1e-12);
		CHECK_STR(cfg(r, "impl"), "perf");
		CHECK_STR(cfg(r, "groups"), "5");
		CHECK_STR(cfg(r, "loops"), "50");
		CHECK_STR(cfg(r, "mode"), "thread");
	}
	unit_doc_free(&f);
}

TEST(hackbench_failures_are_failed_runs)
{
	struct unit_doc f;
	size_t i;

	hb_load(&f, NULL,
		"hackbench: invalid option -- 'x'\n"
		"Usage: hackbench [-p|--pipe] [-s|--datasize <bytes>] [-l|--loops <num loops>]\n"
		"Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Signal 2 caught, longjmp'ing out!\n"
		"longjmp'ed out, reaping children\n"
		"sending SIGTERM to all child processes\n"
		"Time: 3.000\n"
		"Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Time: 0.400\n");
	CHECK_INT(f.batch.nruns, 3);
	CHECK_INT(rec_batch_nsamples(&f.batch), 1);
	if (f.batch.nruns == 3) {
		CHECK_INT(f.batch.runs[0]->failed, 1);
		CHECK_INT(f.batch.runs[0]->nsamples, 0);
		CHECK_STR(f.batch.runs[0]->error, "hackbench: invalid option -- 'x'");
		CHECK_INT(f.batch.runs[1]->failed, 1);
		CHECK_INT(f.batch.runs[1]->nsamples, 0);
		CHECK_STR(f.batch.runs[1]->error, "Signal 2 caught, longjmp'ing out!");
		CHECK_STR(cfg(f.batch.runs[1], "groups"), "10");
		CHECK_INT(f.batch.runs[2]->failed, 0);
		CHECK_NEAR(f.batch.runs[2]->samples[0].value, 0.4, 1e-12);
	}
	for (i = 0; i < f.batch.nruns; i++)
		CHECK(!f.batch.runs[i]->failed || f.batch.runs[i]->nsamples == 0);
	unit_doc_free(&f);

	hb_load(&f, NULL, "Signal 2 caught, longjmp'ing out!\n");
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		CHECK_INT(f.batch.runs[0]->failed, 1);
		CHECK_INT(f.batch.runs[0]->nsamples, 0);
	}
	unit_doc_free(&f);
}

TEST(hackbench_cut_iteration_is_failed)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"Instance: 1\n"
		"Iterations: 1\n"
		"2026-07-19 18:00:37 hackbench -g 2 -f 20 --threads --pipe -l 100 -s 100\n"
		"Running in threaded mode with 2 groups using 40 file descriptors each (== 80 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"Time: 1.5\n"
		"Iterations: 2\n"
		"2026-07-19 18:00:39 hackbench -g 2 -f 20 --threads --pipe -l 100 -s 100\n");
	CHECK_INT(f.batch.nruns, 2);
	if (f.batch.nruns == 2) {
		const struct rec_run *r = f.batch.runs[1];
		CHECK_INT(r->failed, 1);
		CHECK_STR(r->error, "no result");
		CHECK_INT(r->nsamples, 0);
		CHECK_INT(r->iteration, 2);
		CHECK_STR(cfg(r, "groups"), "2");
		CHECK_STR(cfg(r, "ipc"), "pipe");
		CHECK_STR(cfg(r, "mode"), "thread");
	}
	unit_doc_free(&f);
}

static size_t claim_text(const char *text, int *score)
{
	struct ingest_doc doc;
	struct kb_err err;
	struct ingest_opts opts = { NULL, 0, NULL };
	size_t n = 0;

	*score = 0;
	if (ingest_doc_load(&doc, "inline", text, strlen(text), &err) == 0)
		n = hackbench_parser.claim(&opts, doc.lines, doc.nlines, score);
	ingest_doc_release(&doc);
	return n;
}

TEST(hackbench_claims_nothing_else)
{
	int score;

	CHECK_INT(claim_text("Running 'hackbench 20' in the background: Time: 9.639\n", &score), 0);
	CHECK_INT(claim_text("# Running 'sched/pipe' benchmark:\n"
			     "# Executed 500000 pipe operations between two processes\n\n"
			     "     Total time: 3.381 [sec]\n", &score), 0);
	CHECK_INT(claim_text("     Total time: 3.381 [sec]\n", &score), 0);
	CHECK_INT(claim_text("I ran hackbench -g 10 on both kernels.\n", &score), 0);
	CHECK_INT(claim_text("hackbench\n", &score), 0);
	CHECK_INT(claim_text("Iterations: 5\n", &score), 0);
	CHECK_INT(claim_text("Time: 12:30 is when we meet\n", &score), 0);
	CHECK_INT(claim_text("PATH=/usr/bin\nTime: 1.0\n", &score), 0);
	CHECK_INT(claim_text("Time: 1.0\nand some prose after it\n", &score), 1);
	CHECK(score > 0 && score < 90);
}

/* mmtests ----------------------------------------------------------------- */

#define MMT "corpus/mmtests/prashantph-mmtests_CI/log.ltccip8.2020-06-03_1400"

TEST(layout_mmtests_paths)
{
	struct layout_mmtests li;

	CHECK_INT(layout_mmtests_parse("/x/log/forkintensive/iter-0/hackbench-thread-sockets/logs/hackbench-296-7", &li), 0);
	CHECK_STR(li.run, "forkintensive");
	CHECK_STR(li.bench_dir, "hackbench-thread-sockets");
	CHECK_STR(li.kind, "hackbench");
	CHECK_INT(li.param, 296);
	CHECK_INT(li.iteration, 7);
	CHECK_STR(li.mode, "thread");
	CHECK_STR(li.ipc, "socket");
	CHECK_INT(layout_mmtests_parse("run/iter-2/hackbench-process-pipes/logs/time-12-3", &li), 0);
	CHECK_STR(li.kind, "time");
	CHECK_INT(li.suite_iter, 2);
	CHECK_STR(li.mode, "process");
	CHECK_STR(li.ipc, "pipe");
	CHECK_INT(layout_mmtests_parse("iter-0/hackbench/logs/hackbench-1-1", &li), -1);
	CHECK_INT(layout_mmtests_parse("/a/b/hackbench-1-1", &li), -1);

	CHECK(layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/hackbench-1-1"));
	CHECK(layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/time-1-1"));
	CHECK(layout_mmtests_wanted("r/iter-0/schbench/logs/time-4"));
	CHECK(!layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/mmtests.log.gz"));
	CHECK(layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/hackbench-1-1.gz"));   /* gzipped result */
	CHECK(!layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/hackbench-1-1.xz"));
	CHECK(!layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/logs/hackbench-x-1"));
	CHECK(!layout_mmtests_wanted("r/iter-0/hackbench-process-pipes/tests-timestamp"));
	CHECK(!layout_mmtests_wanted("r/iter-0/mpstat-hackbench-process-pipes.gz"));
	CHECK(!layout_mmtests_wanted("r/iter-0/x/notlogs/hackbench-1-1"));
}

TEST(layout_mmtests_detect_tree)
{
	char path[2048];

	shared_path(path, sizeof(path), "corpus/mmtests/prashantph-mmtests_CI");
	CHECK(layout_mmtests_detect(path));
	shared_path(path, sizeof(path), MMT);
	CHECK(layout_mmtests_detect(path));
	shared_path(path, sizeof(path), MMT "/forkintensive");
	CHECK(layout_mmtests_detect(path));
	shared_path(path, sizeof(path), MMT "/forkintensive/iter-0/hackbench-thread-pipes/logs");
	CHECK(layout_mmtests_detect(path));
	shared_path(path, sizeof(path), "corpus/lkp/hackbench");
	CHECK(!layout_mmtests_detect(path));
	shared_path(path, sizeof(path), "corpus/lkp/hackbench/hackbench");
	CHECK(!layout_mmtests_detect(path));       /* a file, not a directory */
	CHECK(!layout_mmtests_detect("/nonexistent/dir"));
}

struct walk_count {
	size_t files;           /* hackbench result files */
	size_t with_total;      /* ... that contain "Total time:" */
	size_t samples;         /* samples parsed from them */
	size_t runs;
};

static void check_mmtests_file(const char *path, struct walk_count *w)
{
	struct layout_mmtests li;
	struct unit_doc f;
	size_t len, i;
	char *data;

	if (!layout_mmtests_wanted(path) || layout_mmtests_parse(path, &li) < 0 ||
	    strcmp(li.kind, "hackbench") != 0)
		return;
	w->files++;
	data = unit_read_file(path, &len);
	CHECK(data != NULL);
	if (!data)
		return;
	if (strstr(data, "Total time:"))
		w->with_total++;
	free(data);
	hb_load(&f, path, NULL);
	layout_apply(path, &f.batch);
	w->samples += rec_batch_nsamples(&f.batch);
	w->runs += f.batch.nruns;
	CHECK_INT(f.batch.nruns, 1);
	for (i = 0; i < f.batch.nruns; i++) {
		const struct rec_run *r = f.batch.runs[i];
		CHECK_STR(r->benchmark, "hackbench");
		CHECK_STR(r->variant, li.run);
		CHECK_INT(r->variant_origin, REC_ORIGIN_CONTEXT);
		CHECK_INT(r->iteration, li.iteration);
		CHECK_INT(cfg_long(r, "groups"), li.param);
		CHECK_STR(cfg(r, "mode"), li.mode);
		CHECK_STR(cfg(r, "ipc"), li.ipc);
		CHECK_STR(cfg(r, "impl"), "perf");
		CHECK_INT(cfg_long(r, "tasks"), li.param * 40);
	}
	unit_doc_free(&f);
}

static void walk(const char *dir, struct walk_count *w)
{
	char sub[4096];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	CHECK(d != NULL);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (stat(sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(sub, w);
		else if (S_ISREG(st.st_mode))
			check_mmtests_file(sub, w);
	}
	closedir(d);
}

TEST(hackbench_mmtests_tree)
{
	struct walk_count w = { 0, 0, 0, 0 };
	char path[2048];

	shared_path(path, sizeof(path), "corpus/mmtests/prashantph-mmtests_CI");
	walk(path, &w);
	/* 15 group counts x (3 + 4 variants x 7) iterations */
	CHECK_INT(w.files, 465);
	CHECK_INT(w.samples, w.with_total);
	CHECK_INT(w.runs, w.files);
}

TEST(hackbench_mmtests_one_file)
{
	struct unit_doc f;
	char path[2048];

	shared_path(path, sizeof(path),
		    MMT "/hackbench-process-pipes/iter-0/hackbench-process-pipes/logs/hackbench-203-2");
	hb_load(&f, path, NULL);
	layout_apply(path, &f.batch);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_STR(r->variant, "hackbench-process-pipes");
		CHECK_INT(r->iteration, 2);
		CHECK_STR(cfg(r, "groups"), "203");
		CHECK_STR(cfg(r, "ipc"), "pipe");
		CHECK_STR(cfg(r, "mode"), "process");
	}
	unit_doc_free(&f);
}

TEST(layout_apply_precedence)
{
	struct rec_batch b;
	struct rec_run *r, *other;

	rec_batch_init(&b);
	r = rec_run_new(&b, "hackbench", 1);
	rec_run_config(&b, r, "groups", "5");           /* disagrees: file name wins */
	rec_run_config(&b, r, "mode", "thread");        /* the parser's word wins */
	rec_run_variant(&b, r, "from-output", NULL, REC_ORIGIN_CONTENT);
	other = rec_run_new(&b, "hackbench", 9);
	other->iteration = 4;                           /* the parser knew it */
	layout_apply("w/log/base/iter-1/hackbench-process-sockets/logs/hackbench-12-3", &b);
	CHECK_STR(cfg(r, "groups"), "12");
	CHECK_STR(cfg(r, "mode"), "thread");
	CHECK_STR(cfg(r, "ipc"), "socket");
	CHECK_INT(r->iteration, 3);
	CHECK_STR(r->variant, "from-output");
	CHECK_STR(other->variant, "base");
	CHECK_INT(other->iteration, 4);
	CHECK_STR(cfg(other, "mode"), "process");
	/* not a layout path: untouched */
	layout_apply("/tmp/hackbench-12-3", &b);
	CHECK_INT(b.nruns, 2);
	rec_batch_release(&b);
}

TEST(hackbench_nested_quoted_printable_mail)
{
	struct unit_doc f;

	hb_load(&f, NULL,
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"> > Iterations: 3\n"
		"> > 2026-07-19 18:06:13 hackbench -g 4 -f 10 --process -l 2000 -s 64\n"
		"> > Running in process mode with 4 groups using 20 file descriptors each (=3D=3D 80 =\n"
		"tasks)\n"
		"> > Each sender will pass 2000 messages of 64 bytes\n"
		"> > Time: 0.250\n");
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_INT(r->iteration, 3);
		CHECK_STR(cfg(r, "tasks"), "80");
		CHECK_STR(cfg(r, "ipc"), "socket");
		CHECK_STR(cfg(r, "loops"), "2000");
		CHECK_NEAR(r->samples[0].value, 0.25, 1e-12);
	}
	unit_doc_free(&f);
}

TEST(hackbench_broken_number_rejects_file)
{
	struct ingest_doc doc;
	struct rec_batch b;
	struct kb_err err;
	const char *text =
		"Running in process mode with 99999999999999999999999 groups using 40 file descriptors each (== 400 tasks)\n"
		"Time: 0.454\n";

	rec_batch_init(&b);
	CHECK_INT(ingest_doc_load(&doc, "inline", text, strlen(text), &err), 0);
	CHECK_INT(ingest_parse_doc(&doc, NULL, NULL, &b, NULL, &err), -1);
	CHECK_INT(err.line, 1);
	ingest_doc_release(&doc);
	rec_batch_release(&b);
}
