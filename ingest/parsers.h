/*
 * parsers.h - every parser's descriptor, for registry.c.  Each lives in
 * its own file under ingest/ and opens with an excerpt of its format.
 */
#ifndef KB_PARSERS_H
#define KB_PARSERS_H

#include "ingest.h"

extern const struct ingest_parser numatest_parser;    /* numatest.c */
extern const struct ingest_parser hackbench_parser;   /* hackbench.c */
extern const struct ingest_parser kernbench_parser;   /* kernbench.c */
extern const struct ingest_parser perfstat_parser;    /* perfstat.c */
extern const struct ingest_parser gnutime_parser;     /* gnutime.c */
extern const struct ingest_parser autonuma_parser;    /* autonuma.c */
extern const struct ingest_parser lkprobot_parser;    /* lkprobot.c */
extern const struct ingest_parser schbench_parser;    /* schbench.c */
extern const struct ingest_parser perfbench_parser;   /* perfbench.c */
extern const struct ingest_parser sumtable_parser;    /* sumtable.c */
extern const struct ingest_parser inlinemean_parser;  /* inlinemean.c */
extern const struct ingest_parser sidebyside_parser;  /* sidebyside.c */
extern const struct ingest_parser mmtestscmp_parser;  /* mmtestscmp.c */
extern const struct ingest_parser vartable_parser;    /* vartable.c */
extern const struct ingest_parser numastat_parser;    /* numamon.c */
extern const struct ingest_parser vmstat_parser;      /* numamon.c */
extern const struct ingest_parser lkpmon_parser;      /* numamon.c */
extern const struct ingest_parser numactl_parser;     /* numactl.c */

#endif
