/*
 * envdiff.h - where two variants' recorded environments differ on one
 * machine (kbench run's settings: kernel.numa_balancing, THP, the
 * governor, the command line, the tool's version ...), for the header of
 * a report: a comparison whose sides ran with numa_balancing 0 and 1 says
 * so next to its numbers.  Reads the store through db/; prints nothing.
 */
#ifndef KB_AN_ENVDIFF_H
#define KB_AN_ENVDIFF_H

#include <stddef.h>

#include "../core/err.h"

struct db;
struct buf;

/*
 * The settings recorded for baseline and for variant on machine that
 * differ (a key one side lacks counts, as "-"), as "key a -> b" joined
 * by "; " into out (reset first).  Returns the number of differing keys;
 * 0 when they agree or when either side has nothing recorded (*recorded
 * says which sides have: bit 1 the baseline, bit 2 the variant); -1 with
 * err set on a database error.
 */
int an_env_diff(struct db *db, const char *machine, const char *baseline, const char *variant,
		struct buf *out, int *recorded, struct kb_err *err);

#endif
