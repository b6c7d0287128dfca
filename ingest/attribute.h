/*
 * attribute.h - a post's own evidence for its raw output (attribute.c):
 * which of the post's variants a block belongs to (by the published
 * numbers it repeats, or the prose that names it), and which label line
 * introduced it.  Called by the front end once a document is parsed.
 */
#ifndef KB_ATTRIBUTE_H
#define KB_ATTRIBUTE_H

#include <stddef.h>

#include "ingest.h"

/* Where segment k of the batch sits in the document: the prose lines
 * before it are [prose_first, first), its own lines [first, end). */
struct ingest_span {
	size_t prose_first, first, end;
	/* The legend or kernel line in force (context.variant), and the
	 * index + 1 of the line that set it (0: none). */
	const char *ctx_variant, *ctx_desc;
	size_t ctx_at;
	int ctx_kernel;         /* ctx_variant came from a kernel line */
};

/* Name the runs that nothing named (b->segments[k] is spans[k]), set each
 * segment's label and evidence, and put "label=..." into the config of
 * segments that would otherwise fall together.  Never fails. */
void ingest_attribute(const struct ingest_doc *doc, struct rec_batch *b,
		      const struct ingest_span *spans);

#endif
