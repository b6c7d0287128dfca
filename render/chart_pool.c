/*
 * chart_pool.c - charts written to files on worker threads (chart_pool.h).
 */
#include "chart_pool.h"
#include "chart.h"
#include "chart_int.h"
#include "../core/buf.h"
#include "../core/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Charts waiting: enough to keep the workers busy while the caller
 * builds, few enough that waiting charts cost little memory. */
#define POOL_QUEUE 8
#define POOL_MAX_THREADS 3

struct job {
	struct chart *c;
	char *path;             /* the file to write, or NULL: */
	struct buf *out;        /* the PNG bytes, into the caller's buffer */
};

struct chart_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;            /* a job was queued, or stop */
	pthread_cond_t room;            /* a job was taken, or one finished */
	struct job q[POOL_QUEUE];
	size_t head, n;                 /* the queue: q[head], ... n of them */
	size_t busy;                    /* jobs being written */
	int stop;
	int cancel;                     /* freed before its wait: write no more */
	int failed;
	struct kb_err err;              /* the first failure */
	pthread_t th[POOL_MAX_THREADS];
	int nth;
};

static void job_free(struct job *j)
{
	chart_free(j->c);
	free(j->path);
	j->c = NULL;
	j->path = NULL;
}

/* Draw j's chart into its file or buffer: 0, or -1 with err set. */
static int job_run(const struct job *j, struct kb_err *err)
{
	return j->path ? chart_render_file(j->c, j->path, err) : chart_render_png_buf(j->c, j->out, err);
}

static void *worker(void *arg)
{
	struct chart_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct job j;
		struct kb_err err;
		int rc = 0;

		while (!p->n && !p->stop)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->n)
			break;          /* stopped, and nothing left */
		j = p->q[p->head];
		p->head = (p->head + 1) % POOL_QUEUE;
		p->n--;
		p->busy++;
		pthread_cond_broadcast(&p->room);
		if (!p->failed && !p->cancel) {
			pthread_mutex_unlock(&p->lock);
			kb_err_clear(&err);
			rc = job_run(&j, &err);
			job_free(&j);
			pthread_mutex_lock(&p->lock);
			if (rc < 0 && !p->failed) {
				p->failed = 1;
				p->err = err;
			}
		} else {
			job_free(&j);   /* after a failure, or freed: written no more */
		}
		p->busy--;
		pthread_cond_broadcast(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	chart_thread_done();
	return NULL;
}

int chart_pool_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n <= 1)
		return 0;
	return n - 1 > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)(n - 1);
}

struct chart_pool *chart_pool_new(int nthreads)
{
	struct chart_pool *p = xcalloc(1, sizeof(*p));
	int i;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	kb_err_clear(&p->err);
	if (nthreads > POOL_MAX_THREADS)
		nthreads = POOL_MAX_THREADS;
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&p->th[i], NULL, worker, p) != 0)
			break;  /* fewer workers (none: written at once) */
		p->nth++;
	}
	return p;
}

/* Queue j (or, with no worker, do it now). */
static int give(struct chart_pool *p, struct job j, struct kb_err *err)
{
	int rc;

	if (!p->nth) {
		if (p->failed) {
			job_free(&j);
			*err = p->err;
			return -1;
		}
		rc = job_run(&j, err);
		job_free(&j);
		if (rc < 0) {
			p->failed = 1;
			p->err = *err;
		}
		return rc;
	}
	pthread_mutex_lock(&p->lock);
	while (p->n == POOL_QUEUE && !p->failed)
		pthread_cond_wait(&p->room, &p->lock);
	if (p->failed) {
		*err = p->err;
		pthread_mutex_unlock(&p->lock);
		job_free(&j);
		return -1;
	}
	p->q[(p->head + p->n) % POOL_QUEUE] = j;
	p->n++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

int chart_pool_file(struct chart_pool *p, struct chart *c, const char *path,
		    struct kb_err *err)
{
	return give(p, (struct job){ c, xstrdup(path), NULL }, err);
}

int chart_pool_png(struct chart_pool *p, struct chart *c, struct buf *out, struct kb_err *err)
{
	return give(p, (struct job){ c, NULL, out }, err);
}

int chart_pool_wait(struct chart_pool *p, struct kb_err *err)
{
	int rc = 0;

	pthread_mutex_lock(&p->lock);
	while (p->n || p->busy)
		pthread_cond_wait(&p->room, &p->lock);
	if (p->failed) {
		*err = p->err;
		rc = -1;
	}
	pthread_mutex_unlock(&p->lock);
	return rc;
}

void chart_pool_free(struct chart_pool *p)
{
	int i;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	p->cancel = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nth; i++)
		pthread_join(p->th[i], NULL);
	/* (the workers leave the queue empty: each drains it before it stops) */
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
