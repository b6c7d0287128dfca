/* test_layout.c - lkp result-root paths, gzipped mmtests result files,
 * and the gzip helper. */
#include "unit.h"
#include "../../core/gz.h"
#include "../../ingest/layout.h"

#include <zlib.h>

#define LKP_RUN "/r/hackbench/performance-pipe-8-process-100%/lkp-icl-2sp2/debian-12-x86_64/" \
	"x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/3"

TEST(layout_lkp_paths)
{
	struct layout_lkp li;

	CHECK_INT(layout_lkp_parse(LKP_RUN "/hackbench", &li), 0);
	CHECK_STR(li.testcase, "hackbench");
	CHECK_STR(li.params, "performance-pipe-8-process-100%");
	CHECK_STR(li.host, "lkp-icl-2sp2");
	CHECK_STR(li.rootfs, "debian-12-x86_64");
	CHECK_STR(li.kconfig, "x86_64-rhel-9.4");
	CHECK_STR(li.compiler, "gcc-12");
	CHECK_STR(li.commit, "0a1b2c3d4e");
	CHECK_INT(li.run, 3);
	CHECK_STR(li.program, "hackbench");
	CHECK_INT(layout_lkp_parse("a/b/c/d/e/f/g/0/time", &li), 0);
	CHECK_INT(layout_lkp_parse("b/c/d/e/f/g/0/time", &li), -1);        /* 8 components */
	CHECK_INT(layout_lkp_parse("a/b/c/d/e/f/g/x/time", &li), -1);      /* run not a number */

	CHECK(layout_lkp_wanted(LKP_RUN "/hackbench"));
	CHECK(layout_lkp_wanted(LKP_RUN "/time"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-stat.gz"));
	CHECK(layout_lkp_wanted(LKP_RUN "/autonuma-benchmark"));
	CHECK(layout_lkp_wanted(LKP_RUN "/kernbench"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-sched-messaging"));
	CHECK(layout_lkp_wanted(LKP_RUN "/schbench"));
	CHECK(layout_lkp_wanted(LKP_RUN "/schbench.gz"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-sched-pipe"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-syscall"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-mem"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-numa-mem"));
	CHECK(layout_lkp_wanted(LKP_RUN "/perf-bench-futex"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/perf-bench"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/schbench.json"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/hackbench.json"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/job.yaml"));
	/* the NUMA monitors kbench reads (numamon.c), and one it does not */
	CHECK(layout_lkp_wanted(LKP_RUN "/vmstat.gz"));
	CHECK(layout_lkp_wanted(LKP_RUN "/proc-vmstat.gz"));
	CHECK(layout_lkp_wanted(LKP_RUN "/numa-numastat"));
	CHECK(layout_lkp_wanted(LKP_RUN "/numa-meminfo.gz"));
	CHECK(layout_lkp_wanted(LKP_RUN "/memory--numa_stat"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/mpstat.gz"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/proc-vmstat.json"));
	CHECK(!layout_lkp_wanted(LKP_RUN "/timex"));
}

TEST(layout_lkp_apply_numbers_runs)
{
	struct rec_batch b;
	struct rec_run *r[3];
	int i;

	rec_batch_init(&b);
	for (i = 0; i < 3; i++) {
		r[i] = rec_run_new(&b, "hackbench", i + 1);
		r[i]->iteration = i + 1;
		rec_run_config(&b, r[i], "groups", i == 2 ? "4" : "8");
	}
	layout_lkp_apply(LKP_RUN "/hackbench", &b);
	/* groups=8: 2 runs in run directory 3 -> 7, 8; groups=4: 1 run -> 4 */
	CHECK_INT(r[0]->iteration, 7);
	CHECK_INT(r[1]->iteration, 8);
	CHECK_INT(r[2]->iteration, 4);
	CHECK_STR(r[0]->variant, "0a1b2c3d4e");
	CHECK_STR(rec_run_config_get(r[2], "params"), "performance-pipe-8-process-100%");
	rec_batch_release(&b);
}

TEST(layout_mmtests_gz_result_file)
{
	struct layout_mmtests li;

	CHECK_INT(layout_mmtests_parse("w/run/iter-0/hackbench-process-pipes/logs/hackbench-12-3.gz", &li), 0);
	CHECK_STR(li.kind, "hackbench");
	CHECK_INT(li.param, 12);
	CHECK_INT(li.iteration, 3);
}

static size_t gzip_text(const char *text, unsigned char *out, size_t cap)
{
	z_stream zs;
	size_t n;

	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (unsigned)strlen(text);
	zs.next_out = out;
	zs.avail_out = (unsigned)cap;
	deflate(&zs, Z_FINISH);
	n = cap - zs.avail_out;
	deflateEnd(&zs);
	return n;
}

TEST(gz_inflate_members_and_errors)
{
	unsigned char z[512], two[1024];
	struct buf out = BUF_INIT;
	struct kb_err err;
	size_t n = gzip_text("Time: 0.454\n", z, sizeof(z));

	CHECK(gz_is_gzip(z, n));
	CHECK_INT(gz_inflate(z, n, 1 << 20, 0, &out, "x.gz", &err), 0);
	CHECK_STR(buf_str(&out), "Time: 0.454\n");
	buf_reset(&out);
	memcpy(two, z, n);
	memcpy(two + n, z, n);
	CHECK_INT(gz_inflate(two, 2 * n, 1 << 20, 0, &out, "x.gz", &err), 0);
	CHECK_STR(buf_str(&out), "Time: 0.454\nTime: 0.454\n");
	buf_reset(&out);
	CHECK_INT(gz_inflate(z, n - 6, 1 << 20, 0, &out, "x.gz", &err), -1);   /* truncated */
	CHECK(strstr(err.msg, "truncated") != NULL);
	CHECK_INT(gz_inflate(z, n, 4, 0, &out, "x.gz", &err), -1);             /* over the limit */
	buf_reset(&out);
	z[12] ^= 0x55;
	CHECK_INT(gz_inflate(z, n, 1 << 20, 0, &out, "x.gz", &err), -1);       /* corrupt */
	CHECK_STR(err.file, "x.gz");
	buf_release(&out);
}

/* mmtests: where a run says it ran (kernel.version, log.<host>.<date>). */
TEST(layout_mmtests_machine_and_kernel)
{
	static const char uname_a[] = "Linux ltccip8.aus.stglabs.ibm.com 4.18.0-184.el8.ppc64le #1 SMP "
		"Wed Feb 26 04:19:23 UTC 2020 ppc64le ppc64le ppc64le GNU/Linux\n";
	const char *res = "work/log.ltccip8.2020-06-03_1400/forkintensive/iter-0/"
		"hackbench-process-pipes/logs/hackbench-12-3";
	char host[64], rel[64], path[512];

	CHECK_INT(layout_uname_parse(uname_a, strlen(uname_a), host, sizeof(host), rel, sizeof(rel)), 0);
	CHECK_STR(host, "ltccip8");
	CHECK_STR(rel, "4.18.0-184.el8.ppc64le");
	CHECK_INT(layout_uname_parse("4.18.0\n", 7, host, sizeof(host), rel, sizeof(rel)), -1);
	CHECK_INT(layout_uname_parse(uname_a, strlen(uname_a), host, 4, rel, sizeof(rel)), -1);
	CHECK_INT(layout_mmtests_kernel_path(res, path, sizeof(path)), 0);
	CHECK_STR(path, "work/log.ltccip8.2020-06-03_1400/forkintensive/iter-0/kernel.version");
	CHECK_INT(layout_mmtests_root_host(res, host, sizeof(host)), 0);
	CHECK_STR(host, "ltccip8");
	CHECK_INT(layout_mmtests_root_host("/x/log.box.example.com.2021-01-02/run/iter-1/b/logs/time-4-1",
					   host, sizeof(host)), 0);
	CHECK_STR(host, "box");
	CHECK_INT(layout_mmtests_root_host("/x/work/log/run/iter-1/b/logs/time-4-1", host, sizeof(host)), -1);
	CHECK_INT(layout_mmtests_root_host("/x/log.nodate/run/iter-1/b/logs/time-4-1", host, sizeof(host)), -1);
}
