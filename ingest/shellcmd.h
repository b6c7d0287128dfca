/*
 * shellcmd.h - a command line as people paste it (shellcmd.c), for the
 * parsers whose output is led by the command that printed it (schbench,
 * perf bench):
 *
 *   $ ./schbench -m 2 -t 16 -r 30
 *   root@box:~# taskset -c 0-7 schbench -F 128
 *   2023-04-19 17:08:51 ./schbench -m 1 -t 128 -r 30        (lkp's log)
 *   # perf bench sched pipe -l 100000
 */
#ifndef KB_SHELLCMD_H
#define KB_SHELLCMD_H

#include "ingest.h"

/*
 * Index of the token naming program prog ("schbench", "perf"; a path
 * before it is ignored) in tok[0..ntok), when only a prompt ("$", "#",
 * "user@host:~$", "[root@box ~]#"), a date or clock, and wrappers with
 * their options (taskset, numactl, chrt, nice, sudo, time, env ...)
 * stand before it; -1 when the line is not such a command.  At most
 * max_prefix tokens may stand before the program.
 */
int shellcmd_prog(const struct ingest_tok *tok, size_t ntok, const char *prog, size_t max_prefix);

/*
 * The command a shell loop runs, "$ for i in 1 2; do ./schbench -r 4; done"
 * -> "./schbench -r 4": sets *body to it and returns its length; 0 when
 * the line is no "for ...; do CMD" or "while ...; do CMD" loop.
 */
size_t shellcmd_loop_body(const char *s, size_t len, const char **body);

/* Does token t, without its directories, equal word? */
int shellcmd_tok_base_is(const struct ingest_tok *t, const char *word);

#endif
