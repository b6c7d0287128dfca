#!/bin/bash
# Peer suite: every raw lkp fixture of the formats kbench reads is imported
# with `kbench import`, and the values stored in the database are compared
# with lkp's expected .yaml for the same quantities (1e-6 relative).  Keys
# we do not reproduce are counted by reason; tests/README explains each.
# A key this suite does not know fails, so new fixtures get looked at.
. tests/lib.sh

L="$SHARED/corpus/lkp"
cat > "$TMP/peer.py" <<'PY'
import sqlite3, sys, re, math
# args: db kind raw yaml variant
db, kind, raw, yaml, variant = sys.argv[1:6]
con = sqlite3.connect(db)
def q(sqlq, *a): return con.execute(sqlq, a).fetchall()
keys = []
for l in open(yaml):
    l = l.rstrip('\n')
    if not l.strip(): continue
    k, v = l.split(': ', 1)
    keys.append((k, v.strip()))
fails = 0; checked = 0; skipped = {}
def near(k, got, want, tol=1e-6):
    global fails, checked
    checked += 1
    w = float(want)
    if got is None or abs(got - w) > tol * max(1.0, abs(w)):
        fails += 1
        print("FAIL %s: %s: got %r, lkp %s" % (raw, k, got, want))
def skip(k, why): skipped.setdefault(why, []).append(k)
def done():
    if fails == 0 and checked > 0:
        print("PASS %s: %d lkp values reproduced within 1e-6" % (raw, checked))
    elif checked == 0:
        print("FAIL %s: no lkp value checked" % raw)
    for why, ks in skipped.items():
        if why == 'unknown key':
            print("FAIL %s: lkp keys this suite does not know: %s" % (raw, ' '.join(ks)))
        else:
            print("PASS %s: %d keys not reproduced (%s, see tests/README)" % (raw, len(ks), why))
    sys.exit(0)

if kind == 'hackbench':
    rows = q("select r.run_id, r.config, s.value from runs_v r join sample s on s.run_id = r.run_id "
             "where r.variant = ? and s.metric = 'time' and r.status = 'ok' order by r.run_id", variant)
    def cfg(c):
        return dict(kv.split('=', 1) for kv in c.split(','))
    groups = {}
    for rid, c, v in rows:
        groups.setdefault(cfg(c).get('instance', ''), []).append((cfg(c), v))
    def stats(lst):
        t = [v for _, v in lst]
        c = lst[-1][0]
        kib = (int(c['tasks']) * int(c['loops']) * int(c['datasize'])) >> 10
        return kib, min(t), max(t), sum(t) / len(t)
    allrows = [x for k in sorted(groups) for x in groups[k]]
    for k, v in keys:
        m = re.match(r'^throughput(_best|_avg|_worst)?(?:\.instance(\d+))?$', k)
        if not m: skip(k, 'unknown key'); continue
        lst = groups.get(m.group(2)) if m.group(2) else allrows
        kib, tmin, tmax, tavg = stats(lst)
        if m.group(1) in (None, '_best'): near(k, kib / tmin, v)
        elif m.group(1) == '_worst': near(k, kib / tmax, v)
        else: near(k, round(kib / tavg, 2), v)
    done()

if kind == 'perf-bench':
    for k, v in keys:
        if k == 'total_time_sec':
            r = q("select value from samples_v where variant = ? and metric = 'time'", variant)
            near(k, r[0][0] if len(r) == 1 else None, v)
        else: skip(k, 'unknown key')
    done()

if kind == 'kernbench':
    names = {'elapsed_time': 'elapsed', 'user_time': 'user', 'system_time': 'system',
             'percent_cpu': 'percent_cpu', 'context_switches': 'context_switches', 'sleeps': 'sleeps'}
    for k, v in keys:
        sd = k.endswith('_stddev')
        m = names.get(k[:-7] if sd else k)
        if not m: skip(k, 'unknown key'); continue
        s = q("select mean, sd from summary_v where variant = ? and metric = ?", variant, m)
        if s:
            near(k, s[0][1] if sd else s[0][0], v)
        elif not sd:
            r = q("select value from samples_v where variant = ? and metric = ?", variant, m)
            near(k, r[0][0] if len(r) == 1 else None, v)
        else:
            near(k, None, v)
    done()

if kind == 'autonuma':
    for k, v in keys:
        m = re.match(r'^(\w+)\.seconds$', k)
        if not m: skip(k, 'unknown key'); continue
        r = q("select avg(value), count(*) from samples_v where variant = ? and config = ? and metric = 'elapsed'",
              variant, 'test=' + m.group(1))
        # lkp: mean over the passes, rounded to 2 decimals
        near(k, round(r[0][0], 2) if r[0][1] else None, v)
    done()

if kind == 'time':
    names = {'user_time': 'user', 'system_time': 'sys', 'percent_of_cpu_this_job_got': 'percent_cpu',
             'elapsed_time': 'elapsed', 'maximum_resident_set_size': 'max_rss_kb',
             'major_page_faults': 'major_faults', 'minor_page_faults': 'minor_faults',
             'voluntary_context_switches': 'voluntary_cs', 'involuntary_context_switches': 'involuntary_cs',
             'swaps': 'swaps', 'file_system_inputs': 'fs_inputs', 'file_system_outputs': 'fs_outputs',
             'socket_messages_sent': 'socket_msgs_sent', 'socket_messages_received': 'socket_msgs_received',
             'signals_delivered': 'signals', 'exit_status': 'exit_status'}
    unstored = ('average_shared_text_size', 'average_unshared_data_size', 'average_stack_size',
                'average_total_size', 'average_resident_set_size')
    for k, v in keys:
        if k in unstored: skip(k, 'always 0 on Linux'); continue
        if k == 'page_size': skip(k, 'machine property'); continue
        m = names.get(k)
        if not m: skip(k, 'unknown key'); continue
        r = q("select value from samples_v where variant = ? and metric = ?", variant, m)
        if not r and k == 'percent_of_cpu_this_job_got':
            skip(k, "'?%' is stored as missing, lkp writes 0"); continue
        near(k, r[0][0] if len(r) == 1 else None, v)
    done()

if kind == 'perf-stat':
    # one run for the execution; its intervals are its samples by job
    # (issue 24: a time series within the run, not runs)
    runs = q("select run_id from runs_v where variant = ? and benchmark = 'perf-stat'", variant)
    near('one perf-stat run per execution', len(runs), 1, 0)
    samples = {}
    for m, v, u, it in q("select metric, value, unit, job from sample where run_id = ? and job is not null",
                         runs[0][0]):
        samples.setdefault(it, []).append((m, v, u))
    def tval(it):
        return [v for m, v, u in samples[it] if m == 'time'][0]
    def count(it, ev):
        tot, n = 0.0, 0
        for m, v, u in samples[it]:
            hit = m == ev or (ev == 'msec' and u == 'msec')
            if not hit and m.startswith('cpu_'):
                hit = m.split('/', 1)[1] == ev + '/' if '/' in m else False
            if hit: tot += v; n += 1
        return tot if n else None
    derived = re.compile(r'^(ipc|cpi|MPKI|cycles-between-cache-misses|instructions-per-iTLB-miss|metric\..*|.*%)$')
    nint = sum(1 for k, _ in keys if k == 'time')
    last = max(samples)
    it = 0
    for k, v in keys:
        if k == 'time':
            it += 1; near(k, tval(it), v); continue
        if k.startswith('i.'):
            ev = k[2:]
            if derived.match(ev): skip(k, 'derived ratio or perf metric column'); continue
            c = count(it, ev)
            dt = tval(it) - (tval(it - 1) if it > 1 else 0.0)
            near(k, c / dt if c is not None else None, v); continue
        if k.startswith('ps.'):
            # whole run: counts of the complete intervals over the last timestamp
            c = [count(j, k[3:]) for j in range(1, nint + 1)]
            near(k, sum(c) / tval(last) if None not in c else None, v); continue
        if k.startswith('total.'):
            c = [count(j, k[6:]) for j in range(1, nint + 1)]
            near(k, sum(c) if None not in c else None, v); continue
        if k.startswith('overall.'): skip(k, 'derived ratio'); continue
        skip(k, 'unknown key')
    near('interval count (lkp drops the partial last one)', len(samples), nint + 1, 0)
    done()
if kind == 'monitor':
    # lkp's monitor files are time series: a "time:" line, then that
    # reading's keys.  kbench stores a counter as its change over the
    # readings (last - first) and a level as its mean (vmstat(8): over the
    # rows after the first, the average since boot); the same from lkp's
    # values per reading.  The counters are the kernel's event counts
    # (docs/formats.md, NUMA monitors).
    counters = ('numa_', 'pg', 'pswp', 'thp_', 'compact_', 'allocstall', 'kswapd_', 'kcompactd_',
                'htlb_buddy_alloc_', 'unevictable_pgs_', 'slabs_scanned', 'pageoutrun',
                'zone_reclaim_failed', 'drop_pagecache', 'drop_slab', 'oom_kill',
                'workingset_refault', 'workingset_activate', 'workingset_restore',
                'workingset_nodereclaim', 'nr_dirtied', 'nr_written', 'nr_vmscan_immediate_reclaim',
                'nr_vmscan_write', 'nr_promoted', 'nr_promote_', 'nr_tlb_', 'nr_foll_pin_',
                'balloon_', 'swap_ra', 'ksm_swpin_copy', 'cow_ksm', 'zswpin', 'zswpout', 'zswpwb',
                'direct_map_level', 'vma_lock_', 'nr_unaccepted_')
    mon = raw.split('/')[-2]
    cgroup = None
    for l in open(sys.argv[6]):
        if l.startswith('cgroup: '): cgroup = l.split()[1]
    series = {}
    order = []
    tick = -1
    for k, v in keys:
        if k == 'time': tick += 1; continue
        if k not in series: series[k] = []; order.append(k)
        series[k].append((tick, float(v)))
    def counter(k):
        if mon == 'numa-numastat': return True
        if mon in ('proc-vmstat', 'numa-vmstat'):
            key = k.split('.', 1)[1] if mon == 'numa-vmstat' else k
            return key.startswith(counters)
        return False
    for k in order:
        vals = series[k]
        if mon == 'vmstat':
            metric = 'vmstat.' + k
            vals = vals[1:]
        elif mon == 'memory--numa_stat':
            metric = 'memory--numa_stat.' + k[len(cgroup) + 1:]
        else:
            metric = mon + '.' + k
        r = q("select value from samples_v where variant = ? and metric = ?", variant, metric)
        got = r[0][0] if len(r) == 1 else None
        if counter(k):
            if len(vals) < 2: skip(k, 'a counter read once measures no run'); continue
            near(k + ' (last - first)', got, vals[-1][1] - vals[0][1])
        else:
            near(k + ' (mean)', got, sum(x for _, x in vals) / len(vals))
    done()

if kind == 'schbench':
    # lkp averages every block it sees; its *_end_* keys are each
    # iteration's last block.  kbench stores one run per final report.
    rows = q("select r.run_id, r.config, s.metric, s.value from runs_v r join sample s on s.run_id = r.run_id "
             "where r.variant = ? and r.status = 'ok' order by r.run_id", variant)
    runs = {}
    for rid, c, m, v in rows:
        runs.setdefault(rid, (dict(kv.split('=', 1) for kv in c.split(',')), {}))[1][m] = v
    blocks = sum(1 for l in open(yaml[:-len('.yaml')]) if l.startswith('Wakeup Latencies percentiles'))
    names = {'50%': 'p50', '90%': 'p90', '99%': 'p99', '99.9%': 'p99_9', 'min': 'min', 'max': 'max'}
    def vals(prefix, pct, inst=None):
        m = prefix + '_' + names[pct]
        return [r[1][m] for r in runs.values() if m in r[1] and (inst is None or r[0].get('instance') == inst)]
    def rsd(v):
        a = sum(v) / len(v)
        return (sum((x - a) ** 2 for x in v) / len(v)) ** 0.5 * 100 / a
    for k, v in keys:
        m = re.match(r'^(wakeup|request)_(end_)?latency_(50%|90%|99%|99\.9%|min|max)_us(_max|_stddev%)?(?:\.instance(\d+))?$', k)
        if not m: skip(k, 'unknown key'); continue
        prefix, end, pct, stat, inst = m.groups()
        x = vals(prefix, pct, inst)
        if not end and blocks != len(runs):
            skip(k, 'lkp averages the intermediate reports too; kbench stores each run\'s final report'); continue
        if not x: near(k, None, v); continue
        if stat == '_max': near(k, max(x), v)
        elif stat == '_stddev%': near(k, round(rsd(x), 2), v)
        else: near(k, round(sum(x) / len(x), 2), v)
    done()

if kind == 'perf-bench-numa-mem':
    names = {'secs_latency': 'NUMA-convergence-latency', 'secs_slowest': 'runtime-max/thread',
             'secs_fastest': 'runtime-min/thread', 'secs_avg': 'runtime-avg/thread',
             'max_avg_diff': 'spread-runtime/thread', 'GB_per_thread': 'data/thread', 'GB_total': 'data-total',
             'nsecs_byte_thread': 'runtime/byte/thread', 'GB_sec_thread': 'thread-speed', 'GB_sec_total': 'total-speed'}
    for k, v in keys:
        if k not in names: skip(k, 'unknown key'); continue
        r = q("select value from samples_v where variant = ? and metric = ?", variant, names[k])
        near(k, r[0][0] if len(r) == 1 else None, v)
    done()

if kind == 'perf-bench-syscall':
    names = {'total_time_sec': 'time', 'usecs_per_op': 'usecs_per_op', 'ops_per_sec': 'ops_per_sec'}
    for k, v in keys:
        m = re.match(r'^(\w+)\.(total_time_sec|usecs_per_op|ops_per_sec)$', k)
        if not m: skip(k, 'unknown key'); continue
        r = q("select value from samples_v where variant = ? and metric = ? and config like ?",
              variant, names[m.group(2)], '%syscall=' + m.group(1) + '%')
        near(k, r[0][0] if len(r) == 1 else None, v)
    done()

if kind == 'perf-bench-mem':
    for k, v in keys:
        m = re.match(r'^(memcpy|memset)\.([\w-]+)\.GB_per_sec$', k)
        if not m: skip(k, 'unknown key'); continue
        r = q("select value, config from samples_v where variant = ? and metric = 'bandwidth'", variant)
        r = [x for x, c in r if 'op=%s' % m.group(1) in c.split(',') and 'function=%s' % m.group(2) in c.split(',')]
        near(k, r[0] if len(r) == 1 else None, v)
    done()

if kind == 'perf-bench-futex':
    names = {'ops/s': 'ops_per_sec', 'wokeup_time_ms': 'wakeup_time', 'requeued_time_ms': 'requeue_time',
             'avg_per_thread_latency_ms': 'per_thread_latency', 'stddev%': 'rse_pct'}
    for k, v in keys:
        if k not in names: skip(k, 'unknown key'); continue
        r = q("select value from samples_v where variant = ? and metric = ?", variant, names[k])
        near(k, r[0][0] if len(r) == 1 else None, v)
    done()
print("FAIL unknown kind " + kind)
PY

n=0
for dir in hackbench kernbench perf-stat perf-bench-sched-messaging autonuma-benchmark generated/time \
	   schbench perf-bench-numa-mem perf-bench-syscall perf-bench-mem perf-bench-futex; do
	case $dir in
	generated/time) kind=time ;;
	autonuma-benchmark) kind=autonuma ;;
	perf-bench-sched-messaging) kind=perf-bench ;;
	schbench) kind=schbench ;;
	*) kind=$dir ;;
	esac
	for raw in "$L/$dir"/*; do
		case $raw in *.yaml) continue ;; esac
		[ -f "$raw.yaml" ] || { fail "$raw has no .yaml"; continue; }
		rel=${raw#"$L"/}
		"$KB" import --variant "$rel" "$raw" > "$TMP/import.out" 2>&1; rc=$?
		check_eq "$rel: kbench import exits 0" "$rc" "0"
		python3 "$TMP/peer.py" "$KBENCH_DB" "$kind" "$rel" "$raw.yaml" "$rel" "$raw"
		n=$((n + 1))
	done
done
check_eq "all 24 raw fixtures of the eleven formats were compared" "$n" "24"

# NUMA monitors (ingest/numamon.c): time series, compared reading by reading.
n=0
for dir in generated/numa-numastat generated/proc-vmstat generated/numa-vmstat generated/numa-meminfo \
	   vmstat memory--numa_stat; do
	for raw in "$L/$dir"/*; do
		case $raw in *.yaml) continue ;; esac
		rel=${raw#"$L"/}
		"$KB" import --variant "$rel" "$raw" > "$TMP/import.out" 2>&1; rc=$?
		check_eq "$rel: kbench import exits 0" "$rc" "0"
		python3 "$TMP/peer.py" "$KBENCH_DB" monitor "$rel" "$raw.yaml" "$rel" "$raw"
		n=$((n + 1))
	done
done
check_eq "all 7 raw monitor fixtures were compared" "$n" "7"
