/*
 * schema_metrics.h - the metric catalogue's first rows, which both
 * backends' schemas insert (schema.c's migration 1, schema_pg.c): which
 * direction is better for the metrics kbench knows by name.  The text is
 * part of a released migration: never change it, add rows in a new one.
 */
#ifndef KB_DB_SCHEMA_METRICS_H
#define KB_DB_SCHEMA_METRICS_H

#define DB_METRIC_ROWS \
	"INSERT INTO metric (benchmark, name, unit, better, description) VALUES\n" \
	"  ('', 'elapsed', 's', 'lower', 'wall-clock time'),\n" \
	"  ('', 'user', 's', 'lower', 'user CPU time'),\n" \
	"  ('', 'sys', 's', 'lower', 'system CPU time'),\n" \
	"  ('', 'system', 's', 'lower', 'system CPU time'),\n" \
	"  ('', 'time', 's', 'lower', 'benchmark time'),\n" \
	"  ('', 'avg_user', 's', 'lower', 'mean user time of the jobs'),\n" \
	"  ('', 'total_user', 's', 'lower', 'user time of all jobs'),\n" \
	"  ('', 'total_sys', 's', 'lower', 'system time of all jobs'),\n" \
	"  ('', 'hackbench', 's', 'lower', 'time of the hackbench disturbance'),\n" \
	"  ('', 'elapsed_minus_hackbench', 's', 'lower', 'elapsed time minus hackbench time (E-H)'),\n" \
	"  ('', 'throughput', 'KiB/s', 'higher', 'messages x bytes x tasks / time'),\n" \
	"  ('', 'percent_cpu', '%', 'none', 'CPU utilisation'),\n" \
	"  ('', 'context_switches', '', 'none', 'context switches'),\n" \
	"  ('', 'sleeps', '', 'none', 'voluntary waits'),\n" \
	"  ('', 'involuntary_cs', '', 'none', 'involuntary context switches'),\n" \
	"  ('', 'voluntary_cs', '', 'none', 'voluntary context switches'),\n" \
	"  ('', 'max_rss_kb', 'KiB', 'none', 'peak resident set size'),\n" \
	"  ('', 'major_faults', '', 'none', 'major page faults'),\n" \
	"  ('', 'minor_faults', '', 'none', 'minor page faults'),\n" \
	"  ('', 'exit_status', '', 'none', 'exit status'),\n" \
	"  ('perf-stat', 'elapsed', 's', 'lower', 'seconds time elapsed'),\n" \
	"  ('perf-stat', 'user', 's', 'lower', 'seconds user'),\n" \
	"  ('perf-stat', 'sys', 's', 'lower', 'seconds sys');\n"

#endif
