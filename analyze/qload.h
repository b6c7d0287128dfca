/*
 * qload.h - an analysis' selection as the query layer's (db/query.h):
 * what an an_query selects is loaded, not the whole benchmark.
 *
 *   struct db_qdata d;
 *   if (an_query_load(db, &q, &d, &err) < 0) ...fail...
 *   ... d as from db_query_select() ...
 *   db_qdata_release(&d);
 *
 * The selection loaded: q's benchmark; q's metrics plus the ones derived
 * metrics are made of (elapsed, hackbench, elapsed_minus_hackbench); q's
 * configs; q's variants plus its baseline (all variants when q names
 * none).  The result may hold more than q selects: callers filter as
 * before.  Returns 0, or -1 with err set.
 */
#ifndef KB_AN_QLOAD_H
#define KB_AN_QLOAD_H

#include "../core/err.h"
#include "../db/query.h"
#include "compare.h"

int an_query_load(struct db *db, const struct an_query *q, struct db_qdata *out,
		  struct kb_err *err);
/* an_query_load() with the variants given as ids (names resolved by
 * the caller, db_variant_resolve_id()) instead of q's names: only those
 * variants' runs and summaries, and only they in the variant list. */
int an_query_load_ids(struct db *db, const struct an_query *q, const long long *ids,
		      size_t nids, struct db_qdata *out, struct kb_err *err);
/* an_query_load() of the runs and job rows only: no samples, no
 * summaries (regress lists the runs behind a finding). */
int an_query_load_runs(struct db *db, const struct an_query *q, struct db_qdata *out,
		       struct kb_err *err);
/* Exactly the samples and summaries q selects, for export: q's
 * benchmark, its variants (names as the user gives them; unknown or
 * ambiguous: -1 with err), configs, machines ("unknown" and the
 * "unknown@<post>" keys compare prints) and metrics as named (nothing
 * derived, nothing they are made of).  Runs not selected may stay in
 * out->runs; no sample points at them. */
int an_query_load_exact(struct db *db, const struct an_query *q, struct db_qdata *out,
			struct kb_err *err);
/* The (variant, machine key) pairs q selects (db_query_variant_keys()). */
int an_query_variant_keys(struct db *db, const struct an_query *q, struct db_vkey **out,
			  size_t *n, struct kb_err *err);
/* ... by benchmark (db_query_variant_bench_keys()). */
struct db_vbkey;
int an_query_variant_bench_keys(struct db *db, const struct an_query *q, struct db_vbkey **out,
				size_t *n, struct kb_err *err);
/* The numa_test job rows and placement of the runs q selects
 * (db_placement_select(); q's metrics do not narrow it). */
struct db_placement;
int an_placement_load(struct db *db, const struct an_query *q, struct db_placement *out,
		      struct kb_err *err);

#endif
