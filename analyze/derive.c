/*
 * derive.c - metrics kbench computes per run from what a run stored
 * (numa_test): E-H, and the user time of jobs that moved away from their
 * initial node versus those that stayed.  See compare.h.
 */
#include "compare.h"

#include <math.h>

static const char *const derived_names[] = {
	"elapsed_minus_hackbench", "user_moved", "user_stayed", "moved_pct", NULL,
};

const char *const *an_derive_metric_names(void)
{
	return derived_names;
}

void an_derive_numa_run(double elapsed, double hackbench, const struct an_job *jobs,
			size_t njobs, struct an_derived *out)
{
	double sum_moved = 0, sum_stayed = 0;
	size_t n_moved = 0, n_stayed = 0, n_user_moved = 0, n_user_stayed = 0, i;

	out->elapsed_minus_hackbench = elapsed - hackbench;	/* NaN propagates */
	out->user_moved = out->user_stayed = out->moved_pct = NAN;
	for (i = 0; i < njobs; i++) {
		if (jobs[i].moved) {
			n_moved++;
			if (!isnan(jobs[i].user)) {
				sum_moved += jobs[i].user;
				n_user_moved++;
			}
		} else {
			n_stayed++;
			if (!isnan(jobs[i].user)) {
				sum_stayed += jobs[i].user;
				n_user_stayed++;
			}
		}
	}
	if (njobs)
		out->moved_pct = 100.0 * (double)n_moved / (double)njobs;
	if (n_user_moved)
		out->user_moved = sum_moved / (double)n_user_moved;
	if (n_user_stayed)
		out->user_stayed = sum_stayed / (double)n_user_stayed;
}
