/*
 * chart_pool.h - charts written to files (or PNG bytes) on worker
 * threads while the caller goes on building the next ones (a report's
 * charts: encoding PNG is a quarter of a store's report).
 *
 * Each chart goes to its own file, so the files are the same whatever
 * the order the workers finish in.  The queue is bounded: a caller that
 * gives charts faster than they are written waits, so memory stays that
 * of a few charts.  Painting is thread-safe: each chart has its own
 * cairo surface and pango context, pango's font map is per thread, and
 * the text-size cache (chart_paint.c) is per thread.
 */
#ifndef KB_RENDER_CHART_POOL_H
#define KB_RENDER_CHART_POOL_H

#include "../core/err.h"

struct buf;
struct chart;
struct chart_pool;

/* A pool of nthreads workers; 0 (or a thread that cannot start) writes
 * each chart at once, in chart_pool_file(). */
struct chart_pool *chart_pool_new(int nthreads);
/* Workers for this machine: one CPU fewer than it has online (the
 * caller's), at most 3. */
int chart_pool_threads(void);
/* Write c to path (chart_render_file()) and free c; the pool owns c from
 * here on, whatever the outcome.  0, or -1 with err set to the first
 * failure of any chart given so far (nothing more is written then). */
int chart_pool_file(struct chart_pool *p, struct chart *c, const char *path,
		    struct kb_err *err);
/* Render c as PNG into out (chart_render_png_buf()), which must stay
 * valid and untouched until chart_pool_wait() returns; c as above. */
int chart_pool_png(struct chart_pool *p, struct chart *c, struct buf *out, struct kb_err *err);
/* Wait until every chart given is written: 0, or -1 with the first
 * failure's error. */
int chart_pool_wait(struct chart_pool *p, struct kb_err *err);
/* Stop the workers and free the pool (NULL: nothing).  Charts still
 * waiting are freed unwritten: call chart_pool_wait() first to have them. */
void chart_pool_free(struct chart_pool *p);

#endif
