/*
 * git.c - git's first-parent history through a pipe (see git.h).
 */
#include "git.h"

#include "../core/buf.h"
#include "../core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void cli_git_log_release(struct cli_git_log *log)
{
	size_t i;

	for (i = 0; i < log->n; i++) {
		free(log->commits[i]);
		free(log->subjects[i]);
	}
	free(log->commits);
	free(log->subjects);
	memset(log, 0, sizeof(*log));
}

/* Lines "HASH\tSUBJECT" of out into log. */
static int parse(const char *out, struct cli_git_log *log, struct kb_err *err)
{
	const char *s = out;
	size_t cap = 0;

	while (*s) {
		const char *nl = strchr(s, '\n'), *tab;
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		tab = memchr(s, '\t', len);
		if (!tab || tab - s < 40)
			return kb_err_set(err, "", 0, "git log printed a line that is not HASH<tab>SUBJECT");
		if (log->n + 1 > cap) {
			size_t ncap = cap ? 2 * cap : 256;
			log->commits = xrealloc(log->commits, ncap * sizeof(*log->commits));
			log->subjects = xrealloc(log->subjects, ncap * sizeof(*log->subjects));
			cap = ncap;
		}
		log->commits[log->n] = xstrndup(s, (size_t)(tab - s));
		log->subjects[log->n] = xstrndup(tab + 1, len - (size_t)(tab - s) - 1);
		log->n++;
		s += len + (nl ? 1 : 0);
	}
	return 0;
}

int cli_git_first_parent(const char *dir, struct cli_git_log *log, struct kb_err *err)
{
	char *const argv[] = { "git", "--no-pager", "-C", (char *)dir, "-c", "log.showSignature=false",
			       "log", "--first-parent", "--reverse", "--no-color",
			       "--format=%H%x09%s", "HEAD", "--", NULL };
	struct buf out = BUF_INIT, errb = BUF_INIT;
	int po[2], pe[2], status, rc = 0;
	pid_t pid;
	char chunk[65536];

	memset(log, 0, sizeof(*log));
	if (pipe(po) < 0)
		return kb_err_set(err, "", 0, "--git: pipe: %s", strerror(errno));
	if (pipe(pe) < 0) {
		close(po[0]);
		close(po[1]);
		return kb_err_set(err, "", 0, "--git: pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return kb_err_set(err, "", 0, "--git: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int devnull = open("/dev/null", 0);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		/* never ask for anything; the repository is DIR, whatever a
		 * caller's environment (a git hook's GIT_DIR) says */
		setenv("GIT_TERMINAL_PROMPT", "0", 1);
		unsetenv("GIT_DIR");
		unsetenv("GIT_WORK_TREE");
		unsetenv("GIT_INDEX_FILE");
		unsetenv("GIT_COMMON_DIR");
		execvp("git", argv);
		dprintf(2, "cannot run git: %s\n", strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	/* stderr is read after stdout: git's messages are short, well under
	 * a pipe's buffer */
	for (;;) {
		ssize_t n = read(po[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_add(&out, chunk, (size_t)n);
	}
	for (;;) {
		ssize_t n = read(pe[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (errb.len < 4096)
			buf_add(&errb, chunk, (size_t)n);
	}
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc = kb_err_set(err, "", 0, "--git: waitpid: %s", strerror(errno));
			goto done;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		const char *m = buf_str(&errb);
		size_t len = strcspn(m, "\n");
		rc = kb_err_set(err, "", 0, "--git %s: git log failed (%s%.*s)", dir,
				WIFEXITED(status) ? "" : "killed", (int)len, m);
		goto done;
	}
	rc = parse(buf_str(&out), log, err);
	if (rc == 0 && !log->n)
		rc = kb_err_set(err, "", 0, "--git %s: no commits", dir);
done:
	if (rc < 0)
		cli_git_log_release(log);
	buf_release(&out);
	buf_release(&errb);
	return rc;
}
