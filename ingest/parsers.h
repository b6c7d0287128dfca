/*
 * parsers.h - every parser's descriptor, for registry.c.  Each lives in
 * its own file under ingest/ and opens with an excerpt of its format.
 */
#ifndef KB_PARSERS_H
#define KB_PARSERS_H

#include "ingest.h"

extern const struct ingest_parser numatest_parser;    /* numatest.c */
extern const struct ingest_parser hackbench_parser;   /* hackbench.c */

#endif
