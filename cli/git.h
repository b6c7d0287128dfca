/*
 * git.h - the first-parent history of a git repository, for kbench
 * alerts --git: git runs without a shell (fork and execvp of "git" with
 * its arguments), locally (git log reads the repository only).
 */
#ifndef KB_CLI_GIT_H
#define KB_CLI_GIT_H

#include <stddef.h>

#include "../core/err.h"

struct cli_git_log {
	char **commits;		/* full hashes, oldest first */
	char **subjects;	/* each commit's subject line */
	size_t n;
};

/* git -C dir log --first-parent --reverse HEAD into log.  0, or -1 with
 * err (git missing, not a repository, no commits, a git that failed). */
int cli_git_first_parent(const char *dir, struct cli_git_log *log, struct kb_err *err);
void cli_git_log_release(struct cli_git_log *log);

#endif
