/*
 * numactl.c - `numactl -H` (`numactl --hardware`): the machine's NUMA
 * nodes, their CPUs and memory, and the distances between them.
 *
 *   available: 2 nodes (0-1)
 *   node 0 cpus: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17
 *   node 0 size: 130958 MB
 *   node 0 free: 121570 MB
 *   node 1 cpus: 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35
 *   node 1 size: 131072 MB
 *   node 1 free: 126148 MB
 *   node distances:
 *   node   0   1
 *     0:  10  21
 *     1:  21  10
 *
 * It describes hardware, not a run: it fills the machine's CPUs (the
 * CPUs the nodes list), nodes and description (sizes and distances) in
 * the store, on the machine the file names (--machine, a result tree's
 * host, the one machine its runs name).  The free memory is a moment's
 * level and is not kept.  A block that is not whole (a node line
 * missing, a distance row short, "size: n MB" placeholders of a post
 * that explains the format) is not read, and --explain says why.
 */
#include "parsers.h"

#include <string.h>

#include "../core/buf.h"
#include "../core/num.h"
#include "../core/util.h"

#define NC_MAX_NODES 1024

/* The line's text after blanks and the markup a web page puts before
 * an output ("<pre><code>available: 2 nodes"). */
static const char *text_start(const struct ingest_line *l)
{
	const char *p = str_skip_ws(l->s, l->s + l->len), *end = l->s + l->len;

	while (p < end && *p == '<') {
		const char *q = memchr(p, '>', (size_t)(end - p));
		if (!q || q - p > 24 || memchr(p, ' ', (size_t)(q - p)))
			break;
		p = str_skip_ws(q + 1, end);
	}
	return p;
}

static int starts(const struct ingest_line *l, const char *word)
{
	const char *p = text_start(l);
	size_t n = strlen(word);

	return (size_t)(l->s + l->len - p) >= n && memcmp(p, word, n) == 0;
}

/* Lines of a numactl -H block after "available:". */
static int numactl_line(const struct ingest_line *l)
{
	struct ingest_tok t[4];
	size_t nt = ingest_split(l->s, l->len, t, 4);

	if (nt >= 2 && ingest_tok_is(&t[0], "node") && ingest_tok_is(&t[1], "distances:"))
		return 1;
	if (nt >= 3 && ingest_tok_is(&t[0], "node") && str_all_digits(t[1].s, t[1].len) &&
	    (ingest_tok_is(&t[2], "cpus:") || ingest_tok_is(&t[2], "size:") ||
	     ingest_tok_is(&t[2], "free:")))
		return 1;
	/* the distance header "node   0   1" and rows "  0:  10  21" */
	if (nt >= 2 && ingest_tok_is(&t[0], "node") && str_all_digits(t[1].s, t[1].len))
		return 1;
	if (nt >= 2 && t[0].len >= 2 && t[0].s[t[0].len - 1] == ':' &&
	    str_all_digits(t[0].s, t[0].len - 1) && str_all_digits(t[1].s, t[1].len))
		return 1;
	return 0;
}

static size_t numactl_claim(const struct ingest_opts *opts, const struct ingest_line *lines,
			    size_t n, int *score)
{
	size_t i;

	(void)opts;
	if (!starts(&lines[0], "available:") ||
	    !str_find(lines[0].s, lines[0].len, " nodes") || n < 2 || !numactl_line(&lines[1]))
		return 0;
	for (i = 1; i < n && numactl_line(&lines[i]); i++)
		;
	*score = 90;
	return i;
}

static long tok_long(const struct ingest_tok *t)
{
	long v;

	if (!t->len || !str_all_digits(t->s, t->len) || t->len > 9 ||
	    num_parse_long(t->s, t->len, &v) < 0)
		return -1;
	return v;
}

static int numactl_parse(const struct ingest_ctx *ctx, const struct ingest_line *lines,
			 size_t n, struct rec_batch *out, struct kb_err *err)
{
	struct ingest_tok t[NC_MAX_NODES + 4];
	const char *first = text_start(&lines[0]);
	size_t nt = ingest_split(first, (size_t)(lines[0].s + lines[0].len - first), t, 4), i, k;
	long nodes, cpus = 0, size_mb = 0, seen_cpus = 0, seen_size = 0;
	long dist_rows = 0, dist_cols = 0;
	const char *why = NULL;
	struct buf desc = BUF_INIT, dist = BUF_INIT;

	(void)err;
	nodes = nt >= 2 ? tok_long(&t[1]) : -1;
	if (nodes <= 0 || nodes > NC_MAX_NODES)
		why = "the node count is not a number";
	for (i = 1; i < n && !why; i++) {
		const struct ingest_line *l = &lines[i];
		nt = ingest_split(l->s, l->len, t, NC_MAX_NODES + 4);
		if (nt > NC_MAX_NODES + 3) {
			why = "a line too long to be numactl's";
			break;
		}
		if (nt >= 2 && ingest_tok_is(&t[0], "node") && ingest_tok_is(&t[1], "distances:"))
			continue;
		if (nt >= 3 && ingest_tok_is(&t[0], "node") && ingest_tok_is(&t[2], "cpus:")) {
			for (k = 3; k < nt; k++) {
				if (tok_long(&t[k]) < 0) {
					why = "a CPU number is not a number";
					break;
				}
				cpus++;
			}
			seen_cpus++;
			continue;
		}
		if (nt >= 3 && ingest_tok_is(&t[0], "node") && ingest_tok_is(&t[2], "size:")) {
			long v = nt == 5 ? tok_long(&t[3]) : -1;
			if (v < 0 || !ingest_tok_is(&t[4], "MB")) {
				why = "a node's size is not 'N MB'";
				break;
			}
			size_mb += v;
			seen_size++;
			continue;
		}
		if (nt >= 3 && ingest_tok_is(&t[0], "node") && ingest_tok_is(&t[2], "free:"))
			continue;
		if (ingest_tok_is(&t[0], "node")) {
			dist_cols = (long)nt - 1;
			continue;
		}
		/* "  0:  10  21" */
		if ((long)nt - 1 != dist_cols) {
			why = "a distance row's length differs from the header's";
			break;
		}
		if (dist.len)
			buf_puts(&dist, " / ");
		for (k = 1; k < nt; k++)
			buf_printf(&dist, "%s%.*s", k > 1 ? " " : "", (int)t[k].len, t[k].s);
		dist_rows++;
	}
	if (!why && seen_cpus != nodes)
		why = "not every node lists its CPUs";
	if (!why && seen_size && seen_size != nodes)
		why = "not every node gives its size";
	if (!why && dist_rows && (dist_rows != nodes || dist_cols != nodes))
		why = "the distance table is not one row and column per node";
	if (why) {
		rec_note(out, lines[0].lineno, "numactl -H: not read: %s", why);
		buf_release(&desc);
		buf_release(&dist);
		return 0;
	}
	buf_printf(&desc, "%ld NUMA node%s, %ld CPUs", nodes, nodes == 1 ? "" : "s", cpus);
	if (seen_size)
		buf_printf(&desc, ", %ld MB", size_mb);
	if (dist_rows)
		buf_printf(&desc, "; node distances %s", buf_str(&dist));
	buf_puts(&desc, " (numactl -H)");
	rec_machine_add(out, NULL, (int)cpus, (int)nodes, buf_str(&desc), lines[0].lineno);
	rec_note(out, lines[0].lineno, "numactl -H: %s: the machine's nodes and CPUs, stored on "
		 "the machine the file names (--machine, a Host: line, a result tree's host)",
		 buf_str(&desc));
	(void)ctx;
	buf_release(&desc);
	buf_release(&dist);
	return 0;
}

const struct ingest_parser numactl_parser = {
	"numactl",
	"numactl -H: the machine's NUMA nodes and CPUs: 'available: 2 nodes (0-1)'",
	numactl_claim, numactl_parse,
};
