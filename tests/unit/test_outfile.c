/* core/outfile.c: outfile_write(), the seam every verb writes through.
 * A writer that fails leaves the target as it was; a text writer's
 * control characters are escaped; a directory is refused. */
#include "unit.h"
#include "../../core/err.h"
#include "../../core/outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int put_text(FILE *f, void *ctx, struct kb_err *err)
{
	(void)err;
	return fputs(ctx, f) < 0 ? -1 : 0;
}

static int put_then_fail(FILE *f, void *ctx, struct kb_err *err)
{
	fputs(ctx, f);
	return kb_err_set(err, "", 0, "the writer gave up");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char b[256];
	size_t n;

	if (!f)
		return NULL;
	n = fread(b, 1, sizeof(b) - 1, f);
	b[n] = 0;
	fclose(f);
	return b;
}

TEST(outfile_write_commits_and_keeps)
{
	char dir[] = "/tmp/kb-outfile-XXXXXX";
	char path[300];
	struct kb_err err;
	const char *got;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	kb_err_clear(&err);
	CHECK_INT(outfile_write(path, OUTFILE_BINARY, put_text, "first\n", &err), 0);
	got = slurp(path);
	CHECK(got && strcmp(got, "first\n") == 0);
	/* a writer that fails: the old file stays, and the error names it */
	kb_err_clear(&err);
	CHECK_INT(outfile_write(path, OUTFILE_BINARY, put_then_fail, "second\n", &err), -1);
	CHECK(strcmp(err.msg, "the writer gave up") == 0);
	CHECK(strcmp(err.file, path) == 0);
	got = slurp(path);
	CHECK(got && strcmp(got, "first\n") == 0);
	/* text: an ESC from input is shown escaped, never written raw */
	kb_err_clear(&err);
	CHECK_INT(outfile_write(path, OUTFILE_TEXT, put_text, "a\033[31mb\n", &err), 0);
	got = slurp(path);
	CHECK(got && !strchr(got, '\033'));
	/* a directory is refused */
	kb_err_clear(&err);
	CHECK_INT(outfile_write(dir, OUTFILE_BINARY, put_text, "x", &err), -1);
	CHECK(strstr(err.msg, "cannot write") != NULL);
	unlink(path);
	CHECK_INT(rmdir(dir), 0);
}

TEST(outfile_make_dirs_nested)
{
	char dir[] = "/tmp/kb-outdirs-XXXXXX";
	char path[300], file[320];
	struct kb_err err;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	kb_err_clear(&err);
	CHECK_INT(outfile_make_dirs(path, &err), 0);
	CHECK_INT(outfile_make_dirs(path, &err), 0);    /* there already: fine */
	/* a regular file in the way is no directory */
	snprintf(file, sizeof(file), "%s/a/f", dir);
	CHECK_INT(outfile_write(file, OUTFILE_BINARY, put_text, "x", &err), 0);
	snprintf(path, sizeof(path), "%s/a/f/g", dir);
	kb_err_clear(&err);
	CHECK_INT(outfile_make_dirs(path, &err), -1);
	CHECK(strstr(err.msg, "cannot create") != NULL);
	kb_err_clear(&err);
	CHECK_INT(outfile_make_dirs("", &err), -1);
	unlink(file);
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a/b", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", dir);
	rmdir(path);
	CHECK_INT(rmdir(dir), 0);
}
