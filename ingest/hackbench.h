/*
 * hackbench.h - hackbench's own lines, recognised with the hackbench
 * parser's patterns, for the parsers whose output carries them (perf stat
 * -I 500 hackbench ...).
 */
#ifndef KB_HACKBENCH_H
#define KB_HACKBENCH_H

#include "ingest.h"

/* Is l a hackbench header: "Running in process mode with 10 groups using
 * 40 file descriptors each (== 400 tasks)" or "Each sender will pass 100
 * messages of 100 bytes"?  1 yes, 0 no. */
int hackbench_header_line(const struct ingest_line *l);
/* Is l hackbench's result, "Time: 0.454"?  1 yes, 0 no. */
int hackbench_time_line(const struct ingest_line *l);

/* Give run r the configuration the hackbench command line cmd asks for
 * (groups, loops, mode, ipc ...), as the hackbench parser reads a
 * command typed before its output: 1 when cmd is a hackbench command
 * naming its groups, else 0 (r untouched). */
struct rec_run;
int hackbench_cmd_config(struct rec_batch *out, const char *path, const char *cmd,
			 struct rec_run *r, long lineno);

/* A command line cmd in the prose above a run r that hackbench printed:
 * 1 when cmd is a hackbench command and every key both say agrees (the
 * groups r printed, its loops, data size, mode), else 0.  With apply,
 * r also gets the keys only the command says (ipc above all: the output
 * never prints it); the printed ones are left as they are.  r NULL: 1
 * when cmd is a hackbench command naming its groups. */
int hackbench_cmd_fill(struct rec_batch *out, const char *path, const struct ingest_line *cmd,
		       struct rec_run *r, int apply);

#endif
