/*
 * rusage.c - run a command, then report its wall time and peak RSS.
 *
 *   rusage COMMAND [ARG...]
 *
 * Runs COMMAND with its stdout and stderr untouched, waits for it and
 * prints to stderr one line "rusage: seconds=S peak_rss_kb=K status=X cpu_s=C"
 * (C: user + system CPU seconds of the child and its threads).
 * Peak RSS is ru_maxrss of the child from wait4(), which Linux reports
 * in kilobytes; wall time comes from CLOCK_MONOTONIC around fork/wait.
 * Exits with the command's status (127 if it could not be started).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	pid_t pid;
	int status = 0, code;

	if (argc < 2) {
		fprintf(stderr, "usage: rusage COMMAND [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("rusage: wait4");
			return 127;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(stderr, "rusage: seconds=%.3f peak_rss_kb=%ld status=%d cpu_s=%.3f\n",
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_maxrss, code,
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return code;
}
