/* test_perfstat.c - the perf stat parser on seed 002, lkp's perf-stat
 * fixtures and small hand-written blocks in each output mode. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>

#include "../../core/err.h"
#include "../../ingest/ingest.h"
#include "fixture.h"
#include "../../ingest/parsers.h"
#include "../../core/num.h"

struct parsed {
	struct unit_doc d;
	char *data;
};

/* p->data (if any) is kept. */
static void parse_text(struct parsed *p, const char *path, const char *text, size_t len)
{
	unit_doc_parse(&p->d, path, text, len, NULL, NULL);
}

static __attribute__((unused)) void parse_str(struct parsed *p, const char *text)
{
	p->data = NULL;
	parse_text(p, "test", text, strlen(text));
}

static int parse_file(struct parsed *p, const char *rel)
{
	char path[1024];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", unit_shared_dir(), rel);
	memset(p, 0, sizeof(*p));
	p->data = unit_read_file(path, &len);
	if (!p->data) {
		unit_fail(__FILE__, __LINE__, "cannot read %s", path);
		return -1;
	}
	parse_text(p, path, p->data, len);
	return 0;
}

static void parsed_release(struct parsed *p)
{
	unit_doc_free(&p->d);
	free(p->data);
}

static const struct rec_sample *sample_rec(const struct rec_run *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (strcmp(r->samples[i].metric, metric) == 0)
			return &r->samples[i];
	return NULL;
}

static size_t count_runs(const struct rec_batch *b, const char *bench)
{
	size_t i, n = 0;

	for (i = 0; i < b->nruns; i++)
		n += strcmp(b->runs[i]->benchmark, bench) == 0;
	return n;
}

static const struct rec_run *nth_run(const struct rec_batch *b, const char *bench, size_t k)
{
	size_t i;

	for (i = 0; i < b->nruns; i++)
		if (strcmp(b->runs[i]->benchmark, bench) == 0 && k-- == 0)
			return b->runs[i];
	return NULL;
}

/* perf-stat summaries, of metric when not NULL. */
static size_t count_summaries(const struct rec_batch *b, const char *metric)
{
	size_t i, n = 0;

	for (i = 0; i < b->nsummaries; i++)
		n += strcmp(b->summaries[i]->benchmark, "perf-stat") == 0 &&
		     (!metric || strcmp(b->summaries[i]->metric, metric) == 0);
	return n;
}

static const struct rec_summary *summary_of(const struct rec_batch *b, const char *metric)
{
	size_t i;

	for (i = 0; i < b->nsummaries; i++)
		if (strcmp(b->summaries[i]->benchmark, "perf-stat") == 0 &&
		    strcmp(b->summaries[i]->metric, metric) == 0)
			return b->summaries[i];
	return NULL;
}

static void show_err(const struct parsed *p)
{
	char msg[2100];

	if (p->d.rc != 0) {
		kb_err_format(&p->d.err, msg, sizeof(msg));
		unit_fail(__FILE__, __LINE__, "parse failed: %s", msg);
	}
}

/* Seed 002 ---------------------------------------------------------------- */

TEST(perfstat_seed002_blocks)
{
	static const struct {
		const char *bench;
		double cs, migrations, faults, pages, elapsed;
	} want[] = {
		{ "./numa01", 554289, 26727, 1982054, 5819, 1784.171745972 },
		{ "./numa01", 1072118, 43796, 5226896, 2815, 1763.961631143 },
		{ "./numa02", 14018, 1209, 40847, 629, 32.729238004 },
		{ "./numa02", 35891, 1579, 173443, 1106, 53.970814899 },
	};
	struct parsed p;
	size_t i;

	if (parse_file(&p, "seeds/002_c5c123cd839d7edc.txt") < 0)
		return;
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 4);
	for (i = 0; i < 4 && i < count_runs(&p.d.batch, "perf-stat"); i++) {
		const struct rec_run *r = nth_run(&p.d.batch, "perf-stat", i);
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "/usr/bin/time -f %%e %%S %%U %%c %%w -o start_bench.out -a %s",
			 want[i].bench);
		CHECK_STR(rec_run_config_get(r, "cmd"), cmd);
		CHECK_INT(r->nsamples, 5);
		CHECK(unit_sample(r, "cs") == want[i].cs);
		CHECK(unit_sample(r, "migrations") == want[i].migrations);
		CHECK(unit_sample(r, "faults") == want[i].faults);
		CHECK(unit_sample(r, "migrate:mm_migrate_pages") == want[i].pages);
		CHECK(unit_sample(r, "elapsed") == want[i].elapsed);
		CHECK_STR(sample_rec(r, "elapsed")->unit, "s");
		CHECK_STR(sample_rec(r, "cs")->unit, "");
	}
	CHECK_INT(count_summaries(&p.d.batch, NULL), 0);
	parsed_release(&p);
}

/* lkp's perf-stat fixtures ------------------------------------------------- */

/*
 * lkp's expected .yaml holds, per complete interval, "time: T" and
 * "i.<event>: rate" where rate = count / (T_k - T_{k-1}) (T_0 = 0).  We
 * store counts, so for every interval lkp lists we recompute the rate
 * and compare within 1e-6 relative.  Keys we do not reproduce (see
 * tests/README): derived ratios (i.ipc, i.cpi,
 * i.*-rate%, i.MPKI, i.cycles-between-cache-misses,
 * i.instructions-per-iTLB-miss), perf's metric column (i.metric.*), and
 * the whole-run ps.*, total.* and overall.* keys.  lkp drops the last
 * (partial) interval; we keep it, so we have one run more than it has
 * "time:" blocks.  Two lkp quirks are reproduced by summing: in the
 * blank-separated form (1) lkp reads the unit "msec" as the event, so
 * i.msec = (cpu-clock + task-clock) / dt; for hybrid CPUs (5) lkp merges
 * cpu_atom/X/ and cpu_core/X/ into i.X.
 */
static int lkp_derived(const char *key)
{
	static const char *const derived[] = {
		"ipc", "cpi", "MPKI", "cycles-between-cache-misses", "instructions-per-iTLB-miss",
	};
	size_t i, n = strlen(key);

	if (strncmp(key, "metric.", 7) == 0 || (n && key[n - 1] == '%'))
		return 1;
	for (i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		if (strcmp(key, derived[i]) == 0)
			return 1;
	return 0;
}

/* Count for lkp's event key in run r (summing lkp's merged names);
 * sets *found to the number of samples summed. */
/* The value of metric in interval job of r (-I: samples by interval), NAN if none. */
static double job_sample(const struct rec_run *r, const char *metric, int job)
{
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].job == job && strcmp(r->samples[i].metric, metric) == 0)
			return r->samples[i].value;
	return NAN;
}

static double lkp_count(const struct rec_run *r, const char *key, int job, int *found)
{
	double sum = 0;
	size_t i, n = strlen(key);

	*found = 0;
	for (i = 0; i < r->nsamples; i++) {
		const struct rec_sample *s = &r->samples[i];
		const char *m = s->metric;
		int hit = strcmp(m, key) == 0;
		if (s->job != job)
			continue;
		if (!hit && strcmp(key, "msec") == 0)
			hit = strcmp(s->unit, "msec") == 0;
		if (!hit && strncmp(m, "cpu_", 4) == 0) {
			const char *slash = strchr(m, '/');
			hit = slash && strncmp(slash + 1, key, n) == 0 && strcmp(slash + 1 + n, "/") == 0;
		}
		if (hit) {
			sum += s->value;
			(*found)++;
		}
	}
	return sum;
}

static void check_lkp_perfstat(const char *name)
{
	char rel[256], ypath[1024];
	struct parsed p;
	char *yaml, *line, *save = NULL;
	size_t ylen, interval = 0, checked = 0, nyaml_intervals = 0;
	double prev_t = 0, t = 0, dt = 0;
	const struct rec_run *r = NULL;

	snprintf(rel, sizeof(rel), "corpus/lkp/perf-stat/%s", name);
	if (parse_file(&p, rel) < 0)
		return;
	show_err(&p);
	snprintf(ypath, sizeof(ypath), "%s/%s.yaml", unit_shared_dir(), rel);
	yaml = unit_read_file(ypath, &ylen);
	CHECK(yaml != NULL);
	for (line = yaml ? strtok_r(yaml, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strstr(line, ": ");
		double want, got;
		int found;

		if (!colon)
			continue;
		*colon = '\0';
		if (num_parse(colon + 2, strlen(colon + 2), &want) < 0)
			continue;
		if (strcmp(line, "time") == 0) {
			prev_t = interval ? t : 0;
			t = want;
			interval++;
			nyaml_intervals++;
			/* one run for the execution, its intervals by sample job */
			r = nth_run(&p.d.batch, "perf-stat", 0);
			CHECK(r != NULL);
			if (r)
				CHECK_NEAR(job_sample(r, "time", (int)interval), t, 1e-12);
			dt = t - prev_t;
			continue;
		}
		if (strncmp(line, "i.", 2) != 0 || !r || lkp_derived(line + 2))
			continue;
		got = lkp_count(r, line + 2, (int)interval, &found);
		if (!found) {
			unit_fail(__FILE__, __LINE__, "%s interval %zu: no sample for lkp key %s",
				  name, interval, line);
			continue;
		}
		CHECK_NEAR(got / dt, want, 1e-6);
		checked++;
	}
	/* one execution, one run; lkp drops the partial last interval, we keep it */
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 1);
	if (r)
		CHECK(!isnan(job_sample(r, "time", (int)nyaml_intervals + 1)) &&
		      isnan(job_sample(r, "time", (int)nyaml_intervals + 2)));
	CHECK(checked >= 13 * nyaml_intervals);
	free(yaml);
	parsed_release(&p);
}

TEST(perfstat_lkp_1_blank_separated) { check_lkp_perfstat("1"); }
TEST(perfstat_lkp_2_csv) { check_lkp_perfstat("2"); }
TEST(perfstat_lkp_3_csv_indented) { check_lkp_perfstat("3"); }
TEST(perfstat_lkp_4_csv_indented) { check_lkp_perfstat("4"); }
TEST(perfstat_lkp_5_hybrid) { check_lkp_perfstat("5"); }

TEST(perfstat_lkp_partial_interval_and_cmd)
{
	struct parsed p;
	const struct rec_run *r;

	if (parse_file(&p, "corpus/lkp/perf-stat/4") < 0)
		return;
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 1);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (r) {
		CHECK_STR(rec_run_config_get(r, "cmd"), "system-wide");
		CHECK(job_sample(r, "major-faults", 4) == 2);   /* the partial 4th interval */
		CHECK(job_sample(r, "cpu-clock", 4) == 88252.13);
		CHECK(isnan(job_sample(r, "cpu-clock", 5)));
		CHECK_STR(sample_rec(r, "cpu-clock")->unit, "msec");
	}
	parsed_release(&p);
}

/* Hand-written blocks: one measurement in every form ----------------------- */

static const char block_de[] =
	" Performance counter stats for './hackbench 10':\n"
	"\n"
	"            341,09 msec task-clock                #    0,979 CPUs utilized\n"
	"           554.289      context-switches          #    1,625 M/sec\n"
	"            26.727      cpu-migrations            #   78,357 K/sec\n"
	"         1.982.054      page-faults               #    5,811 M/sec\n"
	"   <not supported>      cycles\n"
	"\n"
	"       0,348358079 seconds time elapsed\n"
	"\n"
	"       0,004038000 seconds user\n"
	"       0,344000000 seconds sys\n";

static const char block_en[] =
	" Performance counter stats for './hackbench 10':\n"
	"\n"
	"            341.09 msec task-clock                #    0.979 CPUs utilized\n"
	"           554,289      context-switches          #    1.625 M/sec\n"
	"            26,727      cpu-migrations            #   78.357 K/sec\n"
	"         1,982,054      page-faults               #    5.811 M/sec\n"
	"   <not supported>      cycles\n"
	"\n"
	"       0.348358079 seconds time elapsed\n"
	"\n"
	"       0.004038000 seconds user\n"
	"       0.344000000 seconds sys\n";

static const char block_c[] =
	" Performance counter stats for './hackbench 10':\n"
	"\n"
	"            341.09 msec task-clock                #    0.979 CPUs utilized\n"
	"            554289      context-switches          #    1.625 M/sec\n"
	"             26727      cpu-migrations            #   78.357 K/sec\n"
	"           1982054      page-faults               #    5.811 M/sec\n"
	"   <not supported>      cycles\n"
	"\n"
	"       0.348358079 seconds time elapsed\n"
	"\n"
	"       0.004038000 seconds user\n"
	"       0.344000000 seconds sys\n";

/* perf stat -x';' in de_DE: no grouping, decimal comma. */
static const char block_csv_semicolon[] =
	"341,09;msec;task-clock;341090186;100,00;0,979;CPUs utilized\n"
	"554289;;context-switches;341090186;100,00;1,625;M/sec\n"
	"26727;;cpu-migrations;341090186;100,00;78,357;K/sec\n"
	"1982054;;page-faults;341090186;100,00;5,811;M/sec\n"
	"<not supported>;;cycles;0;100,00;;\n";

static const char block_json[] =
	"{\"counter-value\" : \"341.090000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 341090186, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.979\", \"metric-unit\" : \"CPUs utilized\"}\n"
	"{\"counter-value\" : \"554289.000000\", \"unit\" : \"\", \"event\" : \"context-switches\", \"event-runtime\" : 341090186, \"pcnt-running\" : 100.00, \"metric-value\" : \"1.625\", \"metric-unit\" : \"M/sec\"}\n"
	"{\"counter-value\" : \"26727.000000\", \"unit\" : \"\", \"event\" : \"cpu-migrations\", \"event-runtime\" : 341090186, \"pcnt-running\" : 100.00}\n"
	"{\"counter-value\" : \"1982054.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 341090186, \"pcnt-running\" : 100.00}\n"
	"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00}\n";

/* The counters every form above carries. */
static void check_counters(const char *what, const char *text, int with_seconds)
{
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 1);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (!r) {
		unit_fail(__FILE__, __LINE__, "%s: no run", what);
		parsed_release(&p);
		return;
	}
	CHECK(unit_sample(r, "task-clock") == 341.09);
	CHECK_STR(sample_rec(r, "task-clock") ? sample_rec(r, "task-clock")->unit : NULL, "msec");
	CHECK(unit_sample(r, "context-switches") == 554289);
	CHECK(unit_sample(r, "cpu-migrations") == 26727);
	CHECK(unit_sample(r, "page-faults") == 1982054);
	CHECK(sample_rec(r, "cycles") == NULL);        /* <not supported>: missing */
	if (with_seconds) {
		CHECK_STR(rec_run_config_get(r, "cmd"), "./hackbench 10");
		CHECK(unit_sample(r, "elapsed") == 0.348358079);
		CHECK(unit_sample(r, "user") == 0.004038);
		CHECK(unit_sample(r, "sys") == 0.344);
		CHECK_INT(r->nsamples, 7);
	} else {
		CHECK_INT(r->nsamples, 4);
	}
	parsed_release(&p);
}

TEST(perfstat_locales_same_values)
{
	check_counters("de_DE", block_de, 1);
	check_counters("en_US", block_en, 1);
	check_counters("C", block_c, 1);
}

TEST(perfstat_csv_semicolon_and_json_match_human)
{
	check_counters("-x;", block_csv_semicolon, 0);
	check_counters("-j", block_json, 0);
}

TEST(perfstat_repeat_summary)
{
	static const char text[] =
		" Performance counter stats for './hackbench 10' (5 runs):\n"
		"\n"
		"            341.09 msec task-clock       #    0.979 CPUs utilized            ( +-  1.50% )\n"
		"             5,543      context-switches #    0.016 M/sec                    ( +-  3.15% )\n"
		"               267      cpu-migrations   #    0.783 K/sec                    ( +- 10.00% )\n"
		"     <not counted>      cycles\n"
		"\n"
		"           0.18183 +- 0.00598 seconds time elapsed  ( +-  3.29% )\n";
	struct parsed p;
	const struct rec_summary *s;

	parse_str(&p, text);
	show_err(&p);
	/* means of 5 runs: summaries only, not also a one-run sample */
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 0);
	CHECK(summary_of(&p.d.batch, "cycles") == NULL);
	CHECK_INT(count_summaries(&p.d.batch, NULL), 4);
	s = summary_of(&p.d.batch, "context-switches");
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->n, 5);
		CHECK(s->mean == 5543);
		/* rse 3.15% of the mean -> sd = 0.0315 * 5543 * sqrt(5) */
		CHECK_NEAR(s->sd, 0.0315 * 5543 * sqrt(5.0), 1e-9);
		CHECK_STR(s->config[0].key, "cmd");
	}
	s = summary_of(&p.d.batch, "elapsed");
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->n, 5);
		CHECK(s->mean == 0.18183);
		CHECK_NEAR(s->sd, 0.00598 * sqrt(5.0), 1e-12);
		CHECK_STR(s->unit, "s");
	}
	parsed_release(&p);
}

TEST(perfstat_csv_repeat_with_cmdline)
{
	static const char text[] =
		"perf stat -r 5 -x, -e cs ./hackbench 10\n"
		"5543,,context-switches,3.15%,341090186,100.00,,\n";
	struct parsed p;
	const struct rec_summary *s;

	parse_str(&p, text);
	show_err(&p);
	s = summary_of(&p.d.batch, "context-switches");
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->n, 5);
		CHECK_NEAR(s->sd, 0.0315 * 5543 * sqrt(5.0), 1e-9);
		CHECK_STR(s->config[0].value, "./hackbench 10");
	}
	parsed_release(&p);
}

TEST(perfstat_csv_per_node_intervals)
{
	static const char text[] =
		"     1.000123456,N0,2,1234,,cs,1000,100.00,,\n"
		"     1.000123456,N1,2,2345,,cs,1000,100.00,,\n"
		"     2.000123456,N0,2,1300,,cs,1000,100.00,,\n"
		"     2.000123456,N1,2,<not counted>,,cs,0,100.00,,\n";
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 2);    /* one per node, intervals within */
	r = nth_run(&p.d.batch, "perf-stat", 1);
	if (r) {
		CHECK_STR(rec_run_config_get(r, "node"), "1");
		CHECK(job_sample(r, "cs", 1) == 2345);
		CHECK(isnan(job_sample(r, "cs", 2)));           /* <not counted> */
		CHECK(job_sample(r, "time", 2) == 2.000123456);
	}
	parsed_release(&p);
}

TEST(perfstat_interleaved_hackbench)
{
	static const char text[] =
		"#           time             counts unit events\n"
		"     1.001060001              3,119      context-switches   #    3.119 K/sec\n"
		"Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
		"Each sender will pass 100 messages of 100 bytes\n"
		"     2.002120002              3,301      context-switches   #    3.301 K/sec\n"
		"Time: 0.454\n"
		"     2.454000000                 12      context-switches   #    0.026 K/sec\n";
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 1);
	CHECK_INT(count_runs(&p.d.batch, "hackbench"), 1);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (r) {
		CHECK(job_sample(r, "context-switches", 2) == 3301);
		CHECK(job_sample(r, "context-switches", 3) == 12);  /* the partial last interval */
	}
	r = nth_run(&p.d.batch, "hackbench", 0);
	if (r) {
		CHECK(unit_sample(r, "time") == 0.454);
		CHECK_STR(rec_run_config_get(r, "groups"), "10");
		CHECK_STR(rec_run_config_get(r, "mode"), "process");
	}
	parsed_release(&p);
}

/* Failures ------------------------------------------------------------------ */

static void check_fails(const char *text, long line, const char *msg_part)
{
	struct parsed p;

	parse_str(&p, text);
	CHECK(p.d.rc < 0);
	CHECK_INT(p.d.err.line, line);
	if (!strstr(p.d.err.msg, msg_part))
		unit_fail(__FILE__, __LINE__, "message '%s' lacks '%s'", p.d.err.msg, msg_part);
	parsed_release(&p);
}

/* The C-locale interval: a count without a unit is printed
 * "%.0f", so its ',' groups thousands (and the stamp, never localised,
 * proves nothing either way). */
TEST(perfstat_grouped_count_decides)
{
	static const char text[] =
		"#           time             counts unit events\n"
		"     1.001084544              3,157      context-switches\n"
		"     2.002169088            554,289      cs\n";
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (r)
		CHECK(unit_sample(r, "context-switches") == 3157);
	r = nth_run(&p.d.batch, "perf-stat", 1);
	if (r)
		CHECK(unit_sample(r, "cs") == 554289);
	parsed_release(&p);
}

/* Both readings named when nothing decides a msec value. */
TEST(perfstat_ambiguous_fails)
{
	struct parsed p;

	parse_str(&p, "#           time             counts unit events\n"
		      "     1.000193166              1,234 msec task-clock\n"
		      "     2.000386121              1,301 msec task-clock\n");
	CHECK(p.d.rc < 0);
	CHECK_INT(p.d.err.line, 2);
	CHECK_STR(p.d.err.msg, "ambiguous number format: '1,234' reads as 1234 (',' separating "
		  "thousands) or as 1.234 (',' the decimal mark), and nothing else in the block "
		  "tells which");
	parsed_release(&p);
}

/* A count grouped with '.' (de_DE) decides the msec value that alone
 * reads two ways. */
TEST(perfstat_counts_decide_msec)
{
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, "#           time             counts unit events\n"
		      "     1.000193166              1.234 msec task-clock\n"
		      "     1.000193166             15.065      context-switches\n");
	show_err(&p);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (r) {
		CHECK(unit_sample(r, "task-clock") == 1234);
		CHECK(unit_sample(r, "context-switches") == 15065);
	}
	parsed_release(&p);
}

/* Thousands grouped two ways in one block is refused. */
TEST(perfstat_two_groupings_fail)
{
	check_fails("#           time             counts unit events\n"
		    "     1.000193166             15,065      context-switches\n"
		    "     1.000193166              2\xe2\x80\xaf" "739      page-faults\n",
		    3, "groups thousands with ',', line 3 with U+202F");
}

TEST(perfstat_inconsistent_fails)
{
	check_fails(" Performance counter stats for './x':\n"
		    "           341,09 msec task-clock\n"
		    "       0.348358079 seconds time elapsed\n",
		    3, "inconsistent number format");
}

TEST(perfstat_truncated_fails)
{
	check_fails(" Performance counter stats for './numa01':\n"
		    "\n"
		    "           554,289 cs                                      [100.00%]\n"
		    "            26,727 migrations                              [100.00%]\n"
		    "         1,98\n",
		    4, "truncated perf stat block");
}

TEST(perfstat_garbled_fails)
{
	check_fails(" Performance counter stats for './numa01':\n"
		    "\n"
		    "           554,289 cs                                      [100.00%]\n"
		    "            26,7x7 migrations                              [100.00%]\n"
		    "\n"
		    "    1784.171745972 seconds time elapsed\n",
		    4, "unreadable perf stat line");
	check_fails("1.017184940,4659960482,,cpu-cycles,2785208122,16.69,0.279,GHz\n"
		    "1.017184940,46599,6048,2,,cpu-cycles\n",
		    2, "unreadable perf stat line");
}

TEST(perfstat_header_without_counters_fails)
{
	check_fails(" Performance counter stats for './numa01':\n", 1, "without any counter");
}

TEST(perfstat_per_socket_quoted_mail)
{
	static const char text[] =
		"> > Performance counter stats for 'system wide':\n"
		"> >\n"
		"> > S0        4          1,234.56 msec cpu-clock          #    4.000 CPUs utilized\n"
		"> > S0        4             3,119      context-switches   #    0.003 M/sec\n"
		"> > S1        4          1,200.00 msec cpu-clock          #    4.000 CPUs utilized\n"
		"> > S1        4             3,000      context-switches   #    0.003 M/sec\n"
		"> >\n"
		"> >       0.308712345 seconds time elapsed\n";
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 3);
	r = nth_run(&p.d.batch, "perf-stat", 1);
	if (r) {
		CHECK_STR(rec_run_config_get(r, "socket"), "1");
		CHECK_STR(rec_run_config_get(r, "cmd"), "system-wide");
		CHECK(unit_sample(r, "cpu-clock") == 1200.0);
		CHECK(unit_sample(r, "context-switches") == 3000);
	}
	r = nth_run(&p.d.batch, "perf-stat", 2);      /* elapsed: not per socket */
	if (r) {
		CHECK(rec_run_config_get(r, "socket") == NULL);
		CHECK(unit_sample(r, "elapsed") == 0.308712345);
	}
	parsed_release(&p);
}

TEST(perfstat_colon_separator_and_old_layout)
{
	static const char text[] =
		"Some prose first.\n"
		"\n"
		"perf stat -x: -e migrate:mm_migrate_pages -e cs -- ./numa01\n"
		"5819::migrate:mm_migrate_pages:1784171745972:100.00::\n"
		"554289::cs:1784171745972:100.00::\n"
		"\n"
		" Performance counter stats for './old':\n"
		"\n"
		"       1704.224301 task-clock (msec)         #    0.999 CPUs utilized\n"
		"             2,359 context-switches          #    0.001 M/sec                   [100.00%]\n"
		"     <not counted> cycles\n"
		"\n"
		"       1.705671213 seconds time elapsed\n";
	struct parsed p;
	const struct rec_run *r;

	parse_str(&p, text);
	show_err(&p);
	CHECK_INT(count_runs(&p.d.batch, "perf-stat"), 2);
	r = nth_run(&p.d.batch, "perf-stat", 0);
	if (r) {
		CHECK_STR(rec_run_config_get(r, "cmd"), "./numa01");
		CHECK(unit_sample(r, "migrate:mm_migrate_pages") == 5819);
		CHECK(unit_sample(r, "cs") == 554289);
	}
	r = nth_run(&p.d.batch, "perf-stat", 1);
	if (r) {
		CHECK(unit_sample(r, "task-clock") == 1704.224301);
		CHECK_STR(sample_rec(r, "task-clock") ? sample_rec(r, "task-clock")->unit : NULL, "msec");
		CHECK(unit_sample(r, "context-switches") == 2359);
		CHECK(sample_rec(r, "cycles") == NULL);
	}
	parsed_release(&p);
}
