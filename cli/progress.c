/*
 * progress.c - the redrawn status line (see progress.h).
 */
#include "progress.h"
#include "../core/buf.h"
#include "../core/term.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int progress_tty(void)
{
	return term_ansi(STDERR_FILENO);     /* the line is erased with ESC [K */
}

void progress_init(struct progress *p, const char *verb, int on, double delay)
{
	memset(p, 0, sizeof(*p));
	p->on = on;
	p->verb = verb;
	p->delay = delay;
	p->start = now();
	p->last = 0;
}

double progress_elapsed(const struct progress *p)
{
	return now() - p->start;
}

int progress_due(struct progress *p)
{
	double t;

	if (!p->on)
		return 0;
	t = now();
	return t - p->start >= p->delay && t - p->last >= 0.1;
}

/* Columns of the terminal on stderr (80 when unknown). */
static int columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
		return ws.ws_col;
	return 80;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w <= 0)
			return;     /* a status line is not worth an error */
		s += w;
		n -= (size_t)w;
	}
}

void progress_draw(struct progress *p, const char *text)
{
	int width;

	if (!p->on)
		return;
	/* One column short of the edge: a full line would wrap on some
	 * terminals, and \r would then redraw only its second half. */
	width = columns() - 1;
	fflush(stdout);
	{
		/* straight to the terminal: the status line's own \r and ESC [K
		 * are the only control characters, the text is sanitised */
		struct buf line = BUF_INIT, t = BUF_INIT;
		int tw = width - (int)strlen(p->verb) - 2 > 0 ? width - (int)strlen(p->verb) - 2 : 0;

		term_escape(&t, text, strlen(text), 0);
		buf_printf(&line, "\r%.*s: %.*s\033[K", width, p->verb, tw, buf_str(&t));
		fflush(stderr);
		write_all(STDERR_FILENO, line.data, line.len);
		buf_release(&t);
		buf_release(&line);
	}
	p->drawn = 1;
	p->last = now();
}

void progress_clear(struct progress *p)
{
	if (!p->drawn)
		return;
	fflush(stderr);
	write_all(STDERR_FILENO, "\r\033[K", 4);
	p->drawn = 0;
}

static void *ticker_main(void *arg)
{
	struct progress *p = arg;
	struct timespec until;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000 * 1000 * 1000) {
			until.tv_sec++;
			until.tv_nsec -= 1000 * 1000 * 1000;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &until);
		if (!p->stop && progress_due(p)) {
			char text[256];
			if (p->total)
				snprintf(text, sizeof(text), "%s %zu/%zu, %.1f s", p->stage, p->done,
					 p->total, progress_elapsed(p));
			else
				snprintf(text, sizeof(text), "%s, %.1f s", p->stage[0] ? p->stage : "working",
					 progress_elapsed(p));
			progress_draw(p, text);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void progress_start_ticker(struct progress *p)
{
	if (!p->on)
		return;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (pthread_create(&p->thread, NULL, ticker_main, p) != 0) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		return;
	}
	p->ticking = 1;
}

void progress_step(struct progress *p, const char *stage, size_t done, size_t total)
{
	if (!p->ticking)
		return;
	pthread_mutex_lock(&p->lock);
	snprintf(p->stage, sizeof(p->stage), "%s", stage);
	p->done = done;
	p->total = total;
	pthread_mutex_unlock(&p->lock);
}

void progress_end(struct progress *p)
{
	if (p->ticking) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		p->ticking = 0;
	}
	progress_clear(p);
}
