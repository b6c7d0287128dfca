/* test_scaling.c - no input may make a parser superlinear: for each line
 * shape below, the import path (front end, every parser, a layout,
 * record finishing) over 1 MB of the shape repeated must take less than
 * 20 times what 100 KB takes (linear: about 10; quadratic: about 100).
 * A ratio, never an absolute time.  The shapes are what each parser and
 * the segmenter look at: evidence lines, lines a claim scans over, prose,
 * legends, quoting, and blocks that are each a run. */
#include "unit.h"
#include "../../ingest/ingest.h"
#include "../../ingest/layout.h"

#include <stdlib.h>
#include <time.h>

static const struct {
	const char *name;
	const char *text;       /* one repetition */
	int layout;             /* 0 none, 1 mmtests, 2 lkp */
} shapes[] = {
	{ "hackbench iterations", "Iterations: 5\n", 0 },
	{ "hackbench time", "Time: 1.234\n", 1 },
	{ "hackbench block",
	  "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
	  "Each sender will pass 100 messages of 100 bytes\nTime: 0.512\n", 2 },
	{ "hackbench quoted in a mail", "> Time: 1.0\n> \n", 0 },
	{ "lkp header", "Instance: 1\nPATH=/usr/bin:/bin\n", 2 },
	{ "kernbench warmup", "Warmup run...\n", 0 },
	{ "kernbench block",
	  "6.1.36vsched+\nAverage Optimal load -j 128 Run (std deviation):\n"
	  "Elapsed Time 2197.600000\nUser Time 27779.360000\nSystem Time 5413.140000\n"
	  "Percent CPU 1510.000000\nContext Switches 8976594.000000\nSleeps 4611413.000000\n\n", 2 },
	{ "kernbench average lines", "Elapsed Time 2197.600000\n", 0 },
	{ "numa_test job rows", "1 7.5 92.5 0.0 0.0 | 0 1 *| 38.29\n", 0 },
	{ "numa_test header", "Job node00 node01 node02 node03 | iSched MSched | UserTime(s)\n", 0 },
	{ "perf stat interval lines",
	  "1.012763890 3969592418  cpu-cycles 2683629138 16.60 0.246 GHz\n", 2 },
	{ "perf stat counters",
	  "        16,167.74 msec task-clock          #   16.168 CPUs utilized\n", 0 },
	{ "perf stat header",
	  " Performance counter stats for './hackbench 10':\n", 0 },
	{ "gnu time lines",
	  "0.24user 0.00system 0:00.47elapsed 51%CPU (0avgtext+0avgdata 3456maxresident)k\n"
	  "0inputs+0outputs (0major+150minor)pagefaults 0swaps\n", 2 },
	{ "gnu time verbose", "\tUser time (seconds): 0.24\n", 0 },
	{ "real user sys", "real 0m1.000s\nuser 0m0.500s\nsys 0m0.100s\n", 0 },
	{ "autonuma pairs", "numa01\n313.17\n", 2 },
	{ "autonuma table", "  numa01:  1784.16  1864.15  1800.16\n", 0 },
	{ "summary table row", "A     1.23   4.56   7.89   10.11\n", 0 },
	{ "testcase header", "Testcase: Min Max Avg StdDev\n", 0 },
	{ "rule lines", "-----------------------------\n", 0 },
	{ "lkp-report section",
	  "=========================================================================================\n"
	  "compiler/cpufreq_governor/ipc/iterations/kconfig/mode/nr_threads/rootfs/tbox_group/testcase:\n"
	  "  gcc-12/performance/pipe/4/x86_64-rhel-8.3/process/100%/debian-11.1-x86_64-20220510.cgz/lkp-icl-2sp2/hackbench\n\n"
	  "commit: \n  a1b2c3d4e5 (\"sched/fair: one\")\n  9f8e7d6c5b (\"sched/fair: two\")\n\n"
	  "a1b2c3d4e5f60718 9f8e7d6c5b4a39281706f5e4d3c \n---------------- --------------------------- \n"
	  "         %stddev     %change         %stddev\n             \\          |                \\  \n"
	  "     41235 \xc2\xb1  1%     -12.4%      36122 \xc2\xb1  2%  hackbench.throughput\n"
	  "     12.79 \xc2\xb1  2%     +10.0       22.80        mpstat.cpu.all.idle%\n"
	  " 5.698e+09           +62.0%  9.228e+09        cpuidle..time\n\n", 0 },
	{ "lkp-report rows alone",
	  "    245257 \xc2\xb1  7%     -13.8%     211354 \xc2\xb1  4%  sched_debug.cfs_rq:/.avg_vruntime.stddev\n", 0 },
	{ "lkp-report parameter headers with no table",
	  "compiler/cpufreq_governor/kconfig/rootfs/tbox_group/test/testcase:\n"
	  "  gcc-13/performance/x86_64-rhel-8.3/debian-12.cgz/lkp-skl-fpga01/page_fault2/will-it-scale\n\n"
	  "commit: \n  59142d87ab (\"memcg: x\")\n\n", 0 },
	{ "lkp-report 2013 block",
	  "      v3.13-rc3       eabb1f89905a0c809d13  \n---------------  -------------------------  \n"
	  "     88901 ~ 2%      -3.1%      86131 ~ 0%  brickland2/micro/hackbench/600%-process-pipe\n"
	  "    407038           +1.2%     412032       TOTAL hackbench.throughput\n\n", 0 },
	{ "lkp-report fail:runs rows",
	  "       fail:runs  %reproduction    fail:runs\n           |             |             |    \n"
	  "          3:9          -33%            :8     dmesg.WARNING:at#for_ip_swapgs_restore_regs\n", 0 },
	{ "prose", "The quick brown fox jumps over the lazy dog, 42 times.\n", 0 },
	{ "legend", "A: vanilla O(1) scheduler from 2.5.39\n", 0 },
	{ "kernel line", "KernelVersion: 3.9.0-mainline_v39+()\n", 0 },
	{ "iterations prose", "Ran 5 iterations for each setup\n", 0 },
	{ "numbers only", "313.17\n", 0 },
	{ "command line", "Executing 4 times: ./randupdt 1000000\n", 0 },
	{ "quoted-printable", "Time: 1.0=20\nJob node00=3D1\n", 0 },
	{ "gnu time lines with run tags", " A:  35.57user 38.18system 1:20.28elapsed 91%CPU\n", 0 },
	{ "perf generic counters, no header", "     5,429,632,865 node-loads\n"
	  "     3,806,419,082 node-load-misses(70.1%)\n", 0 },
	{ "perf generic counter blocks under labels",
	  "autoNUMA:\n\n     4,538,975,144 node-loads\n     2,666,374,830 node-load-misses\n"
	  "     2,148,950,354 node-stores\n\n", 0 },
	{ "kernbench (vs) lines", "Average Half Load -j 3 Run:\nElapsed Time 573.582 (vs 576.196)\n"
	  "User Time 1576.36 (vs 1582.19)\n\n", 0 },
	{ "sized system headings", "Smaller system ( 12Cores, 96CPUS)\n", 0 },
	{ "a release named in a sentence", "Also note that 2.4.x exhibits even greater delta:\n\n"
	  "A:  28.32user 29.51system 1:01.17elapsed 93%CPU\n\n", 0 },
	{ "quoted indented lines", "> >  A:  35.57user 38.18system 1:20.28elapsed 91%CPU\n", 0 },
	{ "patch links", "<http://example.org/patches/patch-2.6.6-spa>\n", 0 },
	{ "column heads lines", "v5.4                                     v5.4 + patch\n", 0 },
	{ "perf stat hand-merged columns", "context-switches    43,373  ( +-  0.40% )   44,597 ( +-  0.55% )\n", 0 },
	{ "perf stat command lines in prose", "perf stat --null --repeat 10 -- perf bench sched messaging\n"
	  "\n  5.7295 +- 0.0219 seconds time elapsed  ( +-  0.38% )\n\n", 0 },
	{ "vmstat -w", "--procs-- -----------------------memory---------------------- ---swap-- -----io---- -system-- ----------cpu----------\n"
	  "   r    b         swpd         free         buff        cache   si   so    bi    bo   in   cs  us  sy  id  wa  st  gu\n"
	  "   4    0            0     23154508        30524      1346832    0    0   406  3444  372  819  55  16  28   0   1   0\n", 0 },
	{ "numastat -p of several PIDs", "Per-node process memory usage (in MBs)\n"
	  "PID                        Node 0           Total\n----------------  --------------- ---------------\n"
	  "4965 (sleep)                 1.77            1.77\n", 0 },
	{ "label lines before blocks",
	  "Without the patch:\n\nRunning with 10*40 (== 400) tasks.\nTime: 3.120\n\n"
	  "With the patch:\n\nRunning with 10*40 (== 400) tasks.\nTime: 2.910\n\n", 0 },
	{ "sentences, list items and underlined labels",
	  "On qemu, before this patch, hackbench gives:\nTime: 4.120\n\n(1) within a cluster:\n"
	  "Time: 4.285\n\n- my patch:\nTime: 1.2\n\nbzImage_cgroups_preempt\n-----------------------\n"
	  "Time: 14.940\n\n", 0 },
	{ "unnamed blocks between paragraphs",
	  "This paragraph says something about the next block of numbers.\n\n"
	  "Running with 10*40 (== 400) tasks.\nTime: 2.100\n\n", 0 },
	{ "a box's edge", " |\n |  Vanilla kernel (v5.13-rc7):\n |____________\n |  Time: 1.0\n", 0 },
	{ "schedbench table, misordered header",
	  "NUMA schedbench 4:\n     Elapsed TotalUser TotalSys AvgUser\n"
	  "  k1 32.45 49.47 129.86 0.82\n  k2 38.61 45.15 154.48 1.06\n\n", 0 },
	{ "summary rows, placeholders and remarks",
	  "  k1 0.00 40.10 300.50 1.60 ( + 3 % vs base)\n  k2\n", 0 },
	{ "prose ending in a title", "Here is what a compile gave, Kernbench:\n", 0 },
	{ "title, legend, no header", "Kernbench:\n  * a = vanilla\n", 0 },
	{ "bare grid header", "schedbench/hackbench: time(s)\n 10 25 50\n", 0 },
	{ "kernbench remarks",
	  "Average Optimal load -j 24 Run (std deviation):\nElapsed Time 424.486 (16.7365) ( + 2 % vs base)\n"
	  "User Time 4146.8 (764.012) -45% regression\nSystem Time 419.24 (62.4507)\n"
	  "Percent CPU 1012.1 (264.558) [+-1.3%]\nContext Switches 393363 (268899)\nSleeps 739905 (147344)\n", 0 },
	{ "testcase stddev table",
	  "Testcase: Min Max Avg StdDev\n  numa01: 118.98 122.37 120.96 1.17\n\n", 0 },
	{ "perf stat Indian grouping",
	  " Performance counter stats for './numa01':\n\n   7,99,35,29,041 cache-misses\n"
	  "   12,27,462 cs  [100.00%]\n\n   1407.690148814 seconds time elapsed\n\n", 0 },
	{ "perf stat Indian counter lines", "   7,99,35,29,041 cache-misses\n", 0 },
	{ "perf stat wrapped tails",
	  " Performance counter stats for './hackbench' (5 runs):\n\n"
	  "   1081      cpu-migrations           #    0.475 \nK/sec      ( +-  1.89% )\n"
	  "   2253177626      instructions  #    0.60 insn per cycle\n"
	  "                     #    1.39  stalled cycles per insn  ( +-  2.00% )\n\n"
	  "   0.33225 seconds time elapsed \n  ( +-  0.97% )\n\n", 0 },
	{ "perf stat wrapped tail lines", "M/sec                       ( +-  1.62% )\n", 0 },
	{ "perf stat annotated block",
	  " Performance counter stats for './hackbench 10' (5 runs):\n\n"
	  "   5,653   context-switches   #    0.002 M/sec   ( +-  1.62% )   -45% regression\n"
	  "   1,081   cpu-migrations    [+-1.3%]\n"
	  "   0.46225 +- 0.00321 seconds time elapsed  ( +-  0.97% )   ( + 3 % vs base)\n\n", 0 },
	{ "perf stat annotation-like lines", "  5,653   context-switches  -45% regression  (+1%) (+2%) (+3%) (+4%)\n", 0 },
	{ "perf stat headerless blocks",
	  "   7375.924053  task-clock (msec)  #  0.998 CPUs utilized\n   31,107,548,846  cycles\n\n"
	  "   7.389068145 seconds time elapsed\n\n", 0 },
	{ "perf stat counter lines alone", "   31,107,548,846      cycles\n\n", 0 },
	{ "perf stat hand-merged columns",
	  " Performance counter stats for 'system wide' (5 runs):\n\n"
	  "context-switches    43,373  ( +-  0.40% )   44,597 ( +-  0.55% )\n\n", 0 },
	{ "perf stat column-like lines", "cs  4 ( +- 1% )  4 ( +- 1% )  4 ( +- 1% )  4 ( +- 1% ) x\n", 0 },
	{ "gnu time cut after %CPU", "0.00user 5.59system 0:05.60elapsed 99%CPU\n", 0 },
	{ "busybox real user sys", "  real\t0m 1.23s\n  user\t0m 0.50s\n  sys\t0m 0.10s\n\n", 0 },
	{ "gnu time wrapped lines",
	  "144.45user 31.58system 1:00:08elapsed 4%CPU \n(0avgtext+0avgdata 0maxresident)k\n"
	  "0inputs+0outputs (380524major+919600minor)pagefaults \n0swaps\n", 0 },
	{ "inline means, no heading", "  mainline   :  3.871(+/- 0.84%)\n", 0 },
	{ "inline means under headings",
	  "hackbench -g 20 -l 800, the average of 10 runs:\n\n"
	  "    mainline   :  3.871(+/- 0.84%)\n    patched    :  4.102 +- 0.03 (+5.9%)\n\n", 0 },
	{ "inline-mean headings alone", "hackbench -g 20 -l 800, the average of 10 runs:\n", 0 },
	{ "inline-mean perf lines",
	  "numa01:\n\tmm-a:   146.88 +- 6.54 seconds time elapsed  ( +-  4.45% )\n", 0 },
	{ "variant table rows", "1      1,327(+/-10,06 %)     1,247(+/-5,45 %)       5,97 %\n", 0 },
	{ "variant tables", "grp    base    + the patch\n4      1.25    1.21\n\n", 0 },
	{ "hackbench command lines", "hackbench -l (2560/#grp) -g #grp\n", 0 },
	{ "describe table rows", "| mean  | 0.622300 | 0.613000 |    -1.494 |\n", 0 },
	{ "kernbench pasted twice",
	  "Elapsed Time 338.122 (0.869207)       Elapsed Time 336.404 (1.69196)\n", 0 },
	{ "autonuma pairs side by side", "numa01      numa01\n224.70      137.23\n", 0 },
	{ "hackbench wrapped header",
	  "Running in process mode with 10 groups using 40 file descriptors\neach (== 400 tasks)\n"
	  "Each sender will pass 100 messages of\n100 bytes\nTime: 0.512\n", 0 },
	{ "hackbench header cut short",
	  "Running in process mode with 10 groups using 40 file descriptors\nTime: 0.512\n", 0 },
	{ "hackbench prompt and wrapper",
	  "root@box:~# taskset -c 0,1 hackbench -p -T -g 4 -l 1000 -s $size\nTime: 0.5\n", 0 },
	{ "hackbench command lines only", "./hackbench 10 process 1000\n", 0 },
	{ "hackbench driver script",
	  "echo \"./hackbench 10 process 1000\"\n./hackbench 10 process 1000\n", 0 },
	{ "hackbench output example",
	  "Running in threaded mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
	  "Each sender will pass 20000 messages of 100 bytes\nand the time it prints.\n", 0 },
	{ "hackbench annotated time", "Time: 3.120 ( + 3 % vs base)\nTime: 2.950  -45% regression\n", 0 },
	{ "hackbench time in another unit", "Time: 3120 ms\n", 0 },
	{ "hackbench author's average", "Time: 4.0\nTime: 4.2\n\nGiving an average of 4.1\n", 0 },
	{ "hackbench runs on one line",
	  "hackbench 50: Time: 851.469 Time: 847.143 Time: 826.868\n", 0 },
	{ "hackbench runs listed after labels",
	  "Running in threaded mode with 2 groups using 40 file descriptors\n"
	  "w/o: 1.1 1.2 1.3=1.2\nw/ but reverted:\n 1.0 1.1\n1.2=1.1\n", 0 },
	{ "hackbench numbers under a header",
	  "Running in threaded mode with 2 groups using 40 file descriptors\nw/o:\n1.1 1.2\n1.3\n", 0 },
	{ "perf messaging with its prompt",
	  "# perf bench sched messaging -g 20 -l 1000\n# Running 'sched/messaging' benchmark:\n"
	  "# 20 sender and receiver processes per group\n# 20 groups == 800 processes run\n\n"
	  "     Total time: 0.234 [sec]\n", 0 },
	{ "perf stat bare elapsed lines",
	  "  5.7295 +- 0.0219 seconds time elapsed  ( +-  0.38% )\n", 0 },
	{ "perf stat elapsed under prompts",
	  " # trace-cmd start -e all\n # perf stat -r 10 hackbench 50\n"
	  "       1.566904059 seconds time elapsed ( +-  0.27% )\n\n", 0 },
	{ "perf stat bracket-named lines",
	  "  [ -vanilla ]   19.5514 +- 0.0235 seconds time elapsed  ( +-  0.12% )\n", 0 },
	{ "perf stat named counter lines",
	  "  6.9.0/pipe.60:   170,719,761   context-switches   ( +-  0.19% )\n", 0 },
	{ "perf stat named runs",
	  "  6.9.0/pipe.60:   170,719,761   context-switches   ( +-  0.19% )\n"
	  "  6.9.0/pipe.60:   30.833112186 seconds time elapsed   ( +-  0.11% )\n\n", 0 },
	{ "perf stat prompts without output", "kepler:~> taskset -c 2 perf stat -r 5 perf bench sched pipe\n", 0 },
	{ "kernbench under names, a Total row",
	  "Average Optimal -j 8 Load Run:\n\n      Vanilla    Soft Cap 0%\n\n"
	  "Elapsed Time 1056.1 (1.92)  1064.1 (1.59)\n   Total  2089.8  2100.4\n\n", 0 },
	{ "kernbench headings in columns",
	  "Average Half Load -j 4 Run:            Average Optimal -j 32 Load Run:\n", 0 },
	{ "kernbench rows in columns",
	  "Elapsed Time 266.96                    Elapsed Time 232.32   ---(*1)\n", 0 },
	{ "kernbench columns named",
	  "kernel: a-1                            kernel: b-2\nHost: h1           Host: h2\n\n"
	  "Average Optimal -j 32 Load Run:        Average Optimal -j 32 Load Run:\n"
	  "Elapsed Time 130                       Elapsed Time 129.562\n\n", 0 },
	{ "kernbench metric rows",
	  "kernbench numbers\n\nbox\n       Base   New   % change\nUser   85.07  84.84  -0.26\n"
	  "System 34.32  33.84  -1.39\nTotal  119.38 118.68 -0.59\n\n", 0 },
	{ "metric rows, nothing named", "User   85.07  84.84  -0.26\n", 0 },
	{ "numbered run rows", "\tv1\tv2\ntest1\t81.0 \t\t118.1\ntest2\t82.1 \t\t116.9\navg(s)\t81.5\t\t117.5\n", 0 },
	{ "legend lines", "version1: v6.2\n", 0 },
	{ "boxed underlines", "[ lower is better ]   -----  ------   |  -------\n          |\n", 0 },
	{ "mmtests compare-kernels table",
	  "hackbench-process-pipes\n                          5.13.0-rc2             5.13.0-rc2\n"
	  "                             vanilla     sched-avgidle-v1r5\n"
	  "Amean     1        0.3950 (   0.00%)      0.3887 (   1.60%)\n"
	  "Stddev    1        0.0052 (   0.00%)      0.0025 (  51.57%)\n\n", 0 },
	{ "mmtests rows alone", "Amean     12       2.3507 (   0.00%)      2.3360 *   0.62%*\n", 0 },
	{ "mmtests Ops and Duration rows",
	  "Ops NUMA hint faults   15758.00   222100.00\nDuration User   25810.02   25158.93\n", 0 },
	{ "num_group table",
	  "hackbench\n   num_group   base   + fix   ratio\n   100   39.262   39.035\n   150   947.4   113.2   >800%\n", 0 },
	{ "vartable metric rows",
	  "perf bench sched messaging -g 5 -t -l 100000\n\n            mm-stable   slub-optimize\n"
	  "Total time      7.473    7.209\n\n", 0 },
	{ "vartable run rows",
	  " - perf bench sched messaging -g 5 -t -l 100000\n   baseline\tRFC\n   7.042s\t6.966s\n"
	  "   7.022s\t7.045s\n\n", 0 },
	{ "vartable time and counter rows",
	  "numa01_THREAD_ALLOC result on 6.4.0-rc1\n      base   base+fix\nreal   1m3.025s   1m3.551s\n"
	  "user   213m44.232s   219m55.662s\n\nnuma_hit   5478165   4907431\n\n", 0 },
	{ "vartable rows alone", "numa_pte_updates        1989274           11606\n   7.042s\t6.966s\n", 0 },
	{ "vartable context lines alone", "perf bench sched messaging -g 5 -t -l 100000\n", 0 },
	/* NUMA monitors (numamon.c, numactl.c) */
	{ "numastat table", "                           node0           node1\n"
	  "numa_hit                67798958        57342158\nother_node 7664 5610521\n", 0 },
	{ "numastat before/after", "before:\n     node0\nnuma_hit 1\nafter:\n     node0\nnuma_hit 2\n\n", 0 },
	{ "numastat -m rows", "MemFree                  4500.03         4500.03\n", 0 },
	{ "numastat -m table", "Per-node system memory usage (in MBs):\n"
	  "Token SwapCached not in hash table.\n                          Node 0           Total\n"
	  "                 --------------- ---------------\nMemFree  4500.03  4500.03\n\n", 0 },
	{ "vmstat lines", "numa_hint_faults 2705\n", 0 },
	{ "vmstat lines of no known key", "foo_bar 12\n", 0 },
	{ "vmstat before/after", "before:\nnuma_hit 1\npgfault 2\nafter:\nnuma_hit 3\npgfault 4\n", 0 },
	{ "lkp monitor series", "time: 1796095080.043763740\nnode: 0\nnuma_hit 4052644\nnr_free_pages 3\n", 0 },
	{ "lkp time lines alone", "time: 1796095080\n", 0 },
	{ "lkp meminfo", "time: 1.5\nnode: 0\nNode 0 MemFree:         3501864 kB\n", 0 },
	{ "lkp numa_stat", "time: 1636689892\ncgroup: pmbench.1\nanon N0=94208 N1=474624000\n", 0 },
	{ "vmstat(8)", "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
	  " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
	  " 2  0      0 224636  33636 6760228    0    0    54   141  129   23  1  1 98  0  0\n"
	  " 0  0      0 224752  33636 6760180    0    0     0     4  753 2187  2  1 98  0  0\n", 0 },
	{ "numactl -H", "available: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 0 size: 130958 MB\n"
	  "node 1 cpus: 2 3\nnode 1 size: 131072 MB\nnode distances:\nnode   0   1\n  0:  10  21\n"
	  "  1:  21  10\n", 0 },
	{ "schbench final report",
	  "Wakeup Latencies percentiles (usec) runtime 30 (s) (434591 total samples)\n"
	  "\t  50.0th: 6          (169879 samples)\n\t* 99.0th: 9          (14226 samples)\n"
	  "\t  min=1, max=119\naverage rps: 17108.70\n", 0 },
	{ "schbench intermediate reports",
	  "Wakeup Latencies percentiles (usec) runtime 10 (s) (82781 total samples)\n"
	  "\t  50.0th: 5          (0 samples)\n\t  min=1, max=119\ncurrent rps: 15869.42\n", 0 },
	{ "schbench command lines without blocks",
	  "$ ./schbench -m 2 -t 16 -r 30\nwarmup done, zeroing stats\n", 0 },
	{ "schbench shell loops without output", "$ for i in 1 2; do ./schbench -m 2 -r 4; done\n", 0 },
	{ "schbench percentile lines alone", "        * 99.0th: 8          (2076 samples)\n", 0 },
	{ "perf bench sched pipe",
	  "# Running 'sched/pipe' benchmark:\n# Executed 1000000 pipe operations between two processes\n\n"
	  "     Total time: 4.567 [sec]\n\n       4.567890 usecs/op\n         218923 ops/sec\n", 0 },
	{ "perf bench numa setup lines", "# Running 'numa/mem' benchmark:\n #\n ###\n", 0 },
	{ "perf bench commands without output", "$ perf bench sched pipe -l 1000\n", 0 },
};

static const char mmtests_path[] =
	"work/log/run-a/iter-0/hackbench-process-pipes/logs/hackbench-4-1";
static const char lkp_path[] =
	"hackbench/performance-pipe-8-process-100%/host/debian-12-x86_64/"
	"x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0/hackbench";

static double now(void)
{
	struct timespec ts;

	/* CPU time: the machine is shared, wall time measures the others */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds the import path takes over text repeated to at least bytes. */
static double parse_time(const char *text, int layout, size_t bytes)
{
	size_t n = strlen(text), len = 0;
	char *data = malloc(bytes + n + 64);
	struct ingest_doc doc;
	struct ingest_result res = { NULL, 0, 0 };
	struct rec_batch batch;
	struct kb_err err;
	double t0;

	if (!data)
		abort();
	len = (size_t)sprintf(data, "Subject: scaling\n\n");
	while (len < bytes) {
		memcpy(data + len, text, n);
		len += n;
	}
	rec_batch_init(&batch);
	kb_err_clear(&err);
	t0 = now();
	if (ingest_doc_load(&doc, "scaling", data, len, &err) == 0) {
		if (ingest_parse_doc(&doc, NULL, NULL, &batch, &res, &err) == 0) {
			if (layout == 1)
				layout_apply(mmtests_path, &batch);
			else if (layout == 2)
				layout_lkp_apply(lkp_path, &batch);
			rec_batch_finish(&batch);
		}
	}
	t0 = now() - t0;
	ingest_result_release(&res);
	ingest_doc_release(&doc);
	rec_batch_release(&batch);
	free(data);
	return t0;
}

TEST(scaling_every_line_shape_is_linear)
{
	size_t small = 100 * 1000, big = 1000 * 1000, i;
	/* KB_SCALING_SMALL=bytes prints every ratio; KB_SCALING_SHAPE=name
	 * runs one shape (for a profiler) */
	const char *env = getenv("KB_SCALING_SMALL"), *only = getenv("KB_SCALING_SHAPE");

	if (env)
		small = (size_t)atol(env), big = small * 10;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		/* the best of two for the small run: a short run is the one a
		 * hiccup distorts (and the first one pays for warming up) */
		double a, a2, b, ratio;
		int round;
		if (only && !strstr(shapes[i].name, only))
			continue;
		a = parse_time(shapes[i].text, shapes[i].layout, small);
		a2 = parse_time(shapes[i].text, shapes[i].layout, small);
		if (a2 < a)
			a = a2;
		b = parse_time(shapes[i].text, shapes[i].layout, big);
		/* Measure both sizes again before calling a shape superlinear:
		 * a shape that makes a run every few bytes touches ~100 bytes
		 * of fresh memory per input byte, and page faults and cache
		 * misses on a loaded machine push a linear parser's ratio from
		 * 10 to past 20 now and then (once in CI: 23).  A quadratic
		 * one stays near 100 however often it is measured. */
		for (round = 0; round < 3 && b / (a < 1e-3 ? 1e-3 : a) >= 20; round++) {
			double a3 = parse_time(shapes[i].text, shapes[i].layout, small);
			double b2 = parse_time(shapes[i].text, shapes[i].layout, big);
			if (a3 < a)
				a = a3;
			if (b2 < b)
				b = b2;
		}
		if (a < 1e-3)
			a = 1e-3;  /* below what a shared machine measures well */
		ratio = b / a;
		if (env)
			printf("  %-28s %8.4f s %8.4f s  ratio %.1f\n", shapes[i].name, a, b, ratio);
		if (ratio >= 20)
			unit_fail(__FILE__, __LINE__, "%s: 1 MB takes %.1fx the time of 100 KB (%.3f s vs %.3f s)",
				  shapes[i].name, ratio, b, a);
	}
}
