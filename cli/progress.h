/*
 * progress.h - one status line on stderr, redrawn in place, for work that
 * takes a while.  Only on a terminal: when stderr is not a terminal (a
 * log, a pipe, a test) nothing is ever drawn.
 *
 *   import: 5210/20004 files, 27.9/106.8 MB, 498213 runs, 2604 files/s, ETA 0:06
 *
 * Two ways to drive it:
 *  - the caller redraws from its own loop (import): progress_due() says
 *    when a redraw is worth it (ten times a second), progress_draw() draws;
 *  - a ticker thread redraws what the caller last reported with
 *    progress_step() (report, history, regress), starting after a delay so
 *    that quick commands print nothing extra.
 * Before printing anything else to the terminal, call progress_clear().
 */
#ifndef KB_PROGRESS_H
#define KB_PROGRESS_H

#include <pthread.h>
#include <stddef.h>

struct progress {
	int on;                 /* stderr is a terminal and the user wants it */
	int drawn;              /* a line is on the screen now */
	const char *verb;
	double start, last;     /* monotonic seconds */
	double delay;           /* draw nothing before start + delay */
	/* ticker */
	int ticking, stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char stage[128];
	size_t done, total;
};

/* Is stderr a terminal? */
int progress_tty(void);
/* Start the clock; on: draw at all (progress_tty() and no --quiet). */
void progress_init(struct progress *p, const char *verb, int on, double delay);
/* Seconds since progress_init. */
double progress_elapsed(const struct progress *p);
/* Time for a redraw (on, past the delay, a tenth of a second since the last)? */
int progress_due(struct progress *p);
/* Draw "verb: text" over the current line, cut to the terminal's width. */
void progress_draw(struct progress *p, const char *text);
/* Erase the line (if one is drawn), so other output starts on a clean line. */
void progress_clear(struct progress *p);

/* Ticker: redraw "verb: stage done/total, 2.4 s" ten times a second after
 * the delay, until progress_end().  Does nothing when p is off. */
void progress_start_ticker(struct progress *p);
/* Report the current stage (may be called from any thread). */
void progress_step(struct progress *p, const char *stage, size_t done, size_t total);
/* Stop the ticker and clear the line. */
void progress_end(struct progress *p);

#endif
