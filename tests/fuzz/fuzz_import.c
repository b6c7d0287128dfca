/*
 * fuzz_import.c - libFuzzer target over the bytes-to-records path of
 * `kbench import --dry-run`: the bounded read with gzip inflation, mail
 * (an mbox's messages, one message), then import/'s prepare stage: the
 * front end (validation, mail quoting, quoted-printable), segmentation
 * with every parser, a result-tree layout, --set, --variant-prefix,
 * --explain and record finishing.  Nothing touches a store.
 *
 * The layout applied is chosen by the input's length (none, mmtests,
 * lkp), and so is --explain, so one corpus file exercises one fixed path
 * and a crash replays exactly.  Built by `make fuzz` with clang
 * -fsanitize=fuzzer; replayed without libFuzzer by replay.c in `make check`.
 */
#include "../../core/buf.h"
#include "../../import/prepare.h"
#include "../../import/source.h"
#include "../../ingest/mail.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Paths whose shape the two layouts read. */
static const char mmtests_path[] =
	"work/log/run-a/iter-0/hackbench-process-pipes/logs/hackbench-4-1";
static const char lkp_path[] =
	"hackbench/performance-pipe-8-process-100%/host/debian-12-x86_64/"
	"x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0/hackbench";

/* What `kbench import --set ... --variant-prefix fz-` would give. */
static const char *set[] = { "tasks=8", "mode=process", "runs=5", "note=fuzz" };

/* The text of one file, as the pipe hands it to prepare. */
static void prepare_text(const struct import_opts *o, const char *path, const struct buf *text)
{
	struct mail_mbox m;
	const char *msg;
	size_t len, index = 0;
	long line;

	if (mail_is_mbox(buf_str(text), text->len)) {
		mail_mbox_init(&m, text->data, text->len);
		while (mail_mbox_next(&m, &msg, &len, &line) == 0)
			import_item_free(import_prepare_message(o, path, msg, len, 1, line, ++index));
	} else if (mail_is_message(buf_str(text), text->len)) {
		import_item_free(import_prepare_message(o, path, text->data, text->len, 0, 1, 0));
	} else {
		import_item_free(import_prepare(o, path, text, 0));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "fuzz", mmtests_path, lkp_path };
	static const enum import_layout layouts[] = { LAYOUT_NONE, LAYOUT_MMTESTS, LAYOUT_LKP };
	struct import_opts o;
	struct buf text = BUF_INIT, msg = BUF_INIT;
	struct kb_err err;
	FILE *f = NULL;
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.set = set;
	o.nset = sizeof(set) / sizeof(set[0]);
	o.variant_prefix = "fz-";
	o.dry_run = 1;
	if (import_opts_check(&o, &msg) < 0)
		goto out;       /* (the options above are good) */
	o.layout = layouts[size % 3];
	o.explain = (size / 3) % 2;
	kb_err_clear(&err);
	if (size) {
		f = fmemopen((void *)data, size, "rb");
		if (!f)
			goto out;
		rc = import_read_stream(f, paths[size % 3], &text, &err);
		fclose(f);
	}
	if (rc == 0)
		prepare_text(&o, paths[size % 3], &text);
out:
	buf_release(&text);
	buf_release(&msg);
	return 0;
}
