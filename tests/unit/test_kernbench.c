/* test_kernbench.c - kernbench parser against lkp's expectations and the corpus. */
#include "unit.h"
#include "fixture.h"

#include <stdlib.h>

static const struct rec_summary *kb_sum(const struct rec_batch *b, size_t nth, const char *metric)
{
	size_t i, seen = 0;

	for (i = 0; i < b->nsummaries; i++)
		if (strcmp(b->summaries[i]->benchmark, "kernbench") == 0 &&
		    strcmp(b->summaries[i]->metric, metric) == 0 && seen++ == nth)
			return b->summaries[i];
	return NULL;
}

static const char *kb_sum_config(const struct rec_summary *s, const char *key)
{
	size_t i;

	for (i = 0; s && i < s->nconfig; i++)
		if (strcmp(s->config[i].key, key) == 0)
			return s->config[i].value;
	return NULL;
}

/* lkp expected keys, in our metric order. */
static const char *const kb_lkp_keys[] = {
	"elapsed_time", "user_time", "system_time", "percent_cpu", "context_switches", "sleeps",
};
static const char *const kb_metric_names[] = {
	"elapsed", "user", "system", "percent_cpu", "context_switches", "sleeps",
};

static char *kb_read_shared(const char *rel)
{
	char path[2048];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", unit_shared_dir(), rel);
	return unit_read_file(path, &len);
}

TEST(kernbench_lkp_01_summary_matches_yaml)
{
	struct unit_doc f;
	char *yaml = kb_read_shared("corpus/lkp/kernbench/01.yaml");
	char key[64];
	size_t k;

	unit_doc_load(&f, "corpus/lkp/kernbench/01", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK(yaml != NULL);
	CHECK_INT(f.batch.nruns, 0);
	CHECK_INT(f.batch.nsummaries, 6);
	for (k = 0; yaml && k < 6; k++) {
		const struct rec_summary *s = kb_sum(&f.batch, 0, kb_metric_names[k]);
		CHECK(s != NULL);
		if (!s)
			continue;
		snprintf(key, sizeof(key), "%s_stddev", kb_lkp_keys[k]);
		CHECK_NEAR(s->mean, unit_yaml(yaml, kb_lkp_keys[k]), 1e-6);
		CHECK_NEAR(s->sd, unit_yaml(yaml, key), 1e-6);
		CHECK_INT(s->n, 5);      /* five "run number" lines */
		CHECK_STR(kb_sum_config(s, "load"), "optimal");
		CHECK_STR(kb_sum_config(s, "jobs"), "8");
	}
	if (f.batch.nsummaries == 6) {
		CHECK_STR(kb_sum(&f.batch, 0, "elapsed")->unit, "s");
		CHECK_STR(kb_sum(&f.batch, 0, "percent_cpu")->unit, "%");
	}
	free(yaml);
	unit_doc_free(&f);
}

TEST(kernbench_lkp_02_single_run_is_samples)
{
	struct unit_doc f;
	char *yaml = kb_read_shared("corpus/lkp/kernbench/02.yaml");
	size_t k;

	unit_doc_load(&f, "corpus/lkp/kernbench/02", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 0);
	CHECK_INT(f.batch.nruns, 1);
	if (f.batch.nruns == 1 && yaml) {
		const struct rec_run *r = f.batch.runs[0];
		CHECK_STR(r->benchmark, "kernbench");
		CHECK_STR(rec_run_config_get(r, "load"), "optimal");
		CHECK_STR(rec_run_config_get(r, "jobs"), "144");
		CHECK_INT(r->nsamples, 6);
		for (k = 0; k < 6; k++)
			CHECK_NEAR(unit_sample(r, kb_metric_names[k]), unit_yaml(yaml, kb_lkp_keys[k]), 1e-6);
	}
	free(yaml);
	unit_doc_free(&f);
}

TEST(kernbench_sci_notation_and_kernel_lines)
{
	struct unit_doc f;
	const struct rec_summary *s;

	unit_doc_load(&f, "corpus/kernbench/linuxmm_20121109_srivatsa_kernbench_sci_notation.txt", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 12);
	s = kb_sum(&f.batch, 0, "sleeps");
	CHECK(s != NULL);
	if (s) {
		CHECK_NEAR(s->mean, 1878100, 1e-12);
		CHECK_NEAR(s->sd, 5310.33, 1e-12);
		CHECK_INT(s->n, 0);
		CHECK_STR(s->variant, "3.7.0-rc3-vanilla-default");
	}
	s = kb_sum(&f.batch, 1, "context_switches");
	CHECK(s != NULL);
	if (s) {
		CHECK_NEAR(s->mean, 2149600, 1e-12);
		CHECK_STR(s->variant, "3.7.0-rc3-sorted-buddy-default");
	}
	unit_doc_free(&f);
}

TEST(kernbench_runs_option_gives_n)
{
	struct unit_doc f;
	struct ingest_opts opts = { NULL, 3, NULL };

	unit_doc_load(&f, "corpus/kernbench/linuxmm_20170823_tycho_kernbench_log_halfload_j2_3runs.txt",
		NULL, &opts);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 24);
	CHECK_INT(kb_sum(&f.batch, 0, "elapsed")->n, 3);
	/* the '# __flush_tlb_one' line names the block; the kernel line is its kernel */
	CHECK_STR(kb_sum(&f.batch, 0, "elapsed")->variant, "__flush_tlb_one");
	CHECK_STR(kb_sum(&f.batch, 0, "elapsed")->variant_desc, "kernel 4.13.0-rc5+");
	CHECK_STR(kb_sum_config(kb_sum(&f.batch, 0, "elapsed"), "load"), "half");
	CHECK_STR(kb_sum_config(kb_sum(&f.batch, 1, "elapsed"), "load"), "optimal");
	CHECK_NEAR(kb_sum(&f.batch, 2, "elapsed")->mean, 86.57, 1e-12);
	unit_doc_free(&f);
}

TEST(kernbench_vsched_log_runs_variant_and_orphans)
{
	struct unit_doc f;
	size_t i, optimal128 = 0;

	unit_doc_load(&f, "corpus/kernbench/vsched_kernel__kernbench.log", NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 0);
	CHECK_INT(f.batch.nruns, 84);   /* one per "Average" block */
	for (i = 0; i < f.batch.nruns; i++) {
		const struct rec_run *r = f.batch.runs[i];
		CHECK_STR(r->variant, "6.1.36vsched+");
		CHECK_INT(r->variant_origin, REC_ORIGIN_CONTENT);
		CHECK_INT(r->nsamples, 6);
		CHECK_STR(rec_run_config_get(r, "load"), "optimal");
		if (strcmp(rec_run_config_get(r, "jobs"), "128") == 0)
			optimal128++;
	}
	CHECK(optimal128 > 0);
	if (f.batch.nruns) {
		/* First block follows three date/uname pairs, two of them orphans. */
		CHECK_NEAR(unit_sample(f.batch.runs[0], "elapsed"), 2197.6, 1e-12);
		CHECK_NEAR(unit_sample(f.batch.runs[0], "context_switches"), 8976594, 1e-12);
		CHECK_INT(f.batch.runs[0]->line, 7);
	}
	unit_doc_free(&f);
}

TEST(kernbench_console_counts_runs)
{
	struct unit_doc f;
	const struct rec_summary *s;

	unit_doc_load(&f, "corpus/kernbench/lkml_20060418_vivier_kernbench_console_2.6.16_two_runs.txt",
		NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 36);
	s = kb_sum(&f.batch, 2, "percent_cpu");
	CHECK(s != NULL);
	if (s) {
		CHECK_NEAR(s->mean, 1073.8, 1e-12);
		CHECK_NEAR(s->sd, 381.226, 1e-12);
		CHECK_INT(s->n, 5);
		CHECK_STR(kb_sum_config(s, "load"), "maximal");
		CHECK(kb_sum_config(s, "jobs") == NULL);
	}
	unit_doc_free(&f);
	unit_doc_load(&f, "corpus/kernbench/linuxmm_20101130_balbir_kernbench_console_optimal_only_stddev0.txt",
		NULL, NULL);
	CHECK_INT(f.rc, 0);
	s = kb_sum(&f.batch, 1, "percent_cpu");
	CHECK(s && s->sd == 0 && s->mean == 178 && s->n == 5);
	unit_doc_free(&f);
}

TEST(kernbench_old_v020_means)
{
	struct unit_doc f;
	const struct rec_summary *s;

	unit_doc_load(&f, "corpus/kernbench/lkml_20040219_kernbench-0.20_announce_sample_old_format.txt",
		NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nruns, 0);
	CHECK_INT(f.batch.nsummaries, 24);
	s = kb_sum(&f.batch, 0, "elapsed");
	CHECK(s && isnan(s->sd) && s->n == 0);
	CHECK_STR(kb_sum_config(s, "load"), "single");
	s = kb_sum(&f.batch, 2, "sleeps");
	CHECK_NEAR(s ? s->mean : NAN, 40406, 1e-12);
	CHECK_STR(kb_sum_config(s, "load"), "optimal");
	CHECK_STR(kb_sum_config(kb_sum(&f.batch, 3, "sleeps"), "load"), "maximal");
	unit_doc_free(&f);
}

TEST(kernbench_every_corpus_file_imports)
{
	static const char *const files[] = {
		"corpus/kernbench/linuxmm_20090812_prarit_kernbench_log_3kernels_sci_notation.txt",
		"corpus/kernbench/lkml_20040219_kernbench-0.20_announce_sample_old_format.txt",
		"corpus/kernbench/linuxmm_20101130_balbir_kernbench_console_optimal_only_stddev0.txt",
		"corpus/kernbench/linuxmm_20170823_tycho_kernbench_log_halfload_j2_3runs.txt",
		"corpus/kernbench/lkml_20060418_vivier_kernbench_console_2.6.16_two_runs.txt",
		"corpus/kernbench/vsched_kernel__kernbench.log",
		"corpus/kernbench/linuxmm_20121109_srivatsa_kernbench_sci_notation.txt",
		"corpus/lkp/kernbench/01",
		"corpus/lkp/kernbench/02",
	};
	static const size_t nsum[] = { 54, 24, 12, 24, 36, 0, 12, 6, 0 };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct unit_doc f;
		size_t k, total = 0;

		unit_doc_load(&f, files[i], NULL, NULL);
		if (f.rc != 0)
			unit_fail(__FILE__, __LINE__, "%s: %s:%ld: %s", files[i], f.err.file, f.err.line,
				  f.err.msg);
		CHECK_INT(f.batch.nsummaries, nsum[i]);
		for (k = 0; k < f.batch.nsummaries; k++)
			CHECK_STR(f.batch.summaries[k]->benchmark, "kernbench");
		for (k = 0; k < f.batch.nruns; k++) {
			CHECK_STR(f.batch.runs[k]->benchmark, "kernbench");
			total += f.batch.runs[k]->nsamples;
		}
		CHECK_INT(total, 6 * f.batch.nruns);
		unit_doc_free(&f);
	}
}

TEST(kernbench_prarit_variants_from_uname)
{
	struct unit_doc f;

	unit_doc_load(&f, "corpus/kernbench/linuxmm_20090812_prarit_kernbench_log_3kernels_sci_notation.txt",
		NULL, NULL);
	CHECK_INT(f.rc, 0);
	CHECK_STR(kb_sum(&f.batch, 2, "elapsed")->variant, "2.6.31-rc5-git2-resources");
	CHECK_STR(kb_sum(&f.batch, 3, "elapsed")->variant, "2.6.31-rc5-git2-no-resources");
	CHECK_STR(kb_sum(&f.batch, 8, "elapsed")->variant, "2.6.31-rc5-git2-mem-patch");
	CHECK_NEAR(kb_sum(&f.batch, 1, "context_switches")->mean, 2864670, 1e-12);
	CHECK_STR(kb_sum_config(kb_sum(&f.batch, 1, "elapsed"), "jobs"), "256");
	unit_doc_free(&f);
}

static void kb_expect_error(const char *text, long line)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, text, NULL);
	CHECK_INT(f.rc, -1);
	CHECK_INT(f.err.line, line);
	CHECK(strstr(f.err.msg, "kernbench") != NULL);
	unit_doc_free(&f);
}

/* A block that gives only some of the six lines (a post keeps the ones it
 * talks about, a log was cut) stores those, and a note names the rest. */
TEST(kernbench_partial_block_keeps_what_is_there)
{
	struct unit_doc f;
	size_t i;
	int noted = 0;

	unit_doc_load(&f, NULL, "Average Optimal load -j 8 Run (std deviation):\n"
		      "Elapsed Time 28.094 (0.182565)\n"
		      "User Time 184.74 (0.397052)\n"
		      "System Time 20.72 (0.18262)\n"
		      "Percent CPU 730.8 (5.54076)\n"
		      "Context Switches 20525.8 (1393.89)\n", NULL);
	CHECK_INT(f.rc, 0);
	CHECK_INT(f.batch.nsummaries, 5);
	CHECK_NEAR(kb_sum(&f.batch, 0, "context_switches")->mean, 20525.8, 1e-9);
	for (i = 0; i < f.batch.nnotes; i++)
		noted |= strstr(f.batch.notes[i].text, "5 of 6 values; not in it: Sleeps") != NULL;
	CHECK(noted);
	unit_doc_free(&f);
}

TEST(kernbench_bad_input_fails_with_line)
{
	/* Garbage value. */
	kb_expect_error("intro\n\n"
			"Average Half load -j 4 Run (std deviation):\n"
			"Elapsed Time 28.094 (0.182565)\n"
			"User Time 18x4.74 (0.397052)\n"
			"System Time 20.72 (0.18262)\n"
			"Percent CPU 730.8 (5.54076)\n"
			"Context Switches 20525.8 (1393.89)\n"
			"Sleeps 23456.6 (16.2111)\n", 5);
	/* Bad sd. */
	kb_expect_error("Average Half load -j 4 Run (std deviation):\n"
			"Elapsed Time 28.094 (0.182565)\n"
			"User Time 184.74 (0.397052)\n"
			"System Time 20.72 (0.18262)\n"
			"Percent CPU 730.8 (5.54076)\n"
			"Context Switches 20525.8 (13x93.89)\n"
			"Sleeps 23456.6 (16.2111)\n", 6);
}

TEST(kernbench_prose_not_claimed)
{
	struct unit_doc f;

	unit_doc_load(&f, NULL, "Average load was high today.\nElapsed Time is what matters\n"
		"Tue Aug 11 13:45:14 EDT 2009\n2.6.31\n", NULL);
	CHECK_INT(f.rc, INGEST_NOTHING);
	CHECK_INT(f.batch.nsummaries + f.batch.nruns, 0);
	unit_doc_free(&f);
}
