/*
 * fuzz_import.c - libFuzzer target over the bytes-to-records path of
 * `kbench import --dry-run`: gzip inflation, the front end (validation,
 * mail quoting, quoted-printable), segmentation with every parser, a
 * result-tree layout and record finishing.  Nothing touches SQLite.
 *
 * The layout applied is chosen by the input's length (none, mmtests,
 * lkp), so one corpus file exercises one fixed path and a crash replays
 * exactly.  Built by `make fuzz` with clang -fsanitize=fuzzer; replayed
 * without libFuzzer by replay.c in `make check`.
 */
#include "../../core/buf.h"
#include "../../core/gz.h"
#include "../../ingest/ingest.h"
#include "../../ingest/layout.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Paths whose shape the two layouts read. */
static const char mmtests_path[] =
	"work/log/run-a/iter-0/hackbench-process-pipes/logs/hackbench-4-1";
static const char lkp_path[] =
	"hackbench/performance-pipe-8-process-100%/host/debian-12-x86_64/"
	"x86_64-rhel-9.4/gcc-12/0a1b2c3d4e/0/hackbench";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf text = BUF_INIT;
	struct ingest_doc doc;
	struct ingest_result res = { NULL, 0, 0 };
	struct ingest_opts opts = { NULL, 0, NULL };
	struct rec_batch batch;
	struct kb_err err;
	const char *src = (const char *)data;
	size_t len = size;

	kb_err_clear(&err);
	if (gz_is_gzip(data, size)) {
		if (gz_inflate(data, size, INGEST_MAX_INFLATED, INGEST_MAX_LINE, &text, "fuzz", &err) < 0)
			goto out;
		src = text.data ? text.data : "";
		len = text.len;
	}
	rec_batch_init(&batch);
	if (ingest_doc_load(&doc, "fuzz", src, len, &err) == 0 &&
	    ingest_parse_doc(&doc, &opts, NULL, &batch, &res, &err) == 0) {
		switch (size % 3) {
		case 1:
			layout_apply(mmtests_path, &batch);
			break;
		case 2:
			layout_lkp_apply(lkp_path, &batch);
			break;
		}
		rec_batch_finish(&batch);
	}
	ingest_result_release(&res);
	ingest_doc_release(&doc);
	rec_batch_release(&batch);
out:
	buf_release(&text);
	return 0;
}
