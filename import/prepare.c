/*
 * prepare.c - one source's bytes into an item of records (see prepare.h):
 * the front end and the parsers, then the layout of a result tree, the
 * user's --set and --variant-prefix, the names and the store's request.
 */
#include "prepare.h"
#include "../core/term.h"
#include "../core/num.h"
#include "../ingest/ingest.h"
#include "../ingest/layout.h"
#include "../ingest/mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Check one --set KEY=VALUE by its key: runs and the numeric config keys
 * want a positive whole number, mode and ipc one of their words, every
 * key a name ([A-Za-z_][A-Za-z0-9_.-]*, any length) and a value.
 * Returns 0, or -1 with a message for the user in msg.
 */
static int set_check(const char *kv, long *runs, char *msg, size_t cap)
{
	static const char *const whole[] = {
		"runs", "groups", "tasks", "loops", "datasize", "jobs", "instance",
	};
	const char *eq = strchr(kv, '='), *v;
	size_t i, klen;
	long n;

	if (!eq || eq == kv) {
		snprintf(msg, cap, "--set needs KEY=VALUE, not '%s'", kv);
		return -1;
	}
	klen = (size_t)(eq - kv);
	v = eq + 1;
	if (!((kv[0] >= 'A' && kv[0] <= 'Z') || (kv[0] >= 'a' && kv[0] <= 'z') || kv[0] == '_') ||
	    strspn(kv, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != klen) {
		snprintf(msg, cap, "--set: '%.*s' is not a key (letters, digits, '_', '.', '-')",
			 (int)(klen > 64 ? 64 : klen), kv);
		return -1;
	}
	if (!*v) {
		snprintf(msg, cap, "--set %.*s= needs a value", (int)(klen > 64 ? 64 : klen), kv);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(whole); i++) {
		if (strlen(whole[i]) != klen || memcmp(kv, whole[i], klen) != 0)
			continue;
		if (num_parse_long(v, strlen(v), &n) < 0 || n <= 0) {
			snprintf(msg, cap, "--set %s needs a positive whole number, not '%s'", whole[i], v);
			return -1;
		}
		if (i == 0)
			*runs = n;
		return 0;
	}
	if (klen == 4 && memcmp(kv, "mode", 4) == 0 && strcmp(v, "process") && strcmp(v, "thread")) {
		snprintf(msg, cap, "--set mode is process or thread, not '%s'", v);
		return -1;
	}
	if (klen == 3 && memcmp(kv, "ipc", 3) == 0 && strcmp(v, "pipe") && strcmp(v, "socket")) {
		snprintf(msg, cap, "--set ipc is pipe or socket, not '%s'", v);
		return -1;
	}
	return 0;
}

/* --time-format: blank-separated "%X" directives, 1 to 32 of them.  (Which
 * letters are numbers the time parser checks.) */
static int time_format_ok(const char *fmt)
{
	const char *p = fmt;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (p[0] != '%' || !((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z')) ||
		    (p[2] && p[2] != ' ' && p[2] != '\t'))
			return 0;
		p += 2;
		n++;
	}
	return n >= 1 && n <= 32;
}

/* --layout NAME as the enum. */
static int layout_named(const char *name, enum import_layout *layout)
{
	if (strcmp(name, "mmtests") == 0)
		*layout = LAYOUT_MMTESTS;
	else if (strcmp(name, "lkp") == 0)
		*layout = LAYOUT_LKP;
	else if (strcmp(name, "none") == 0)
		*layout = LAYOUT_NONE;
	else
		return -1;
	return 0;
}

int import_opts_check(struct import_opts *o, struct buf *msg)
{
	/* Names that become variants, machines or config go into JSON,
	 * XML and HTML: they must be text. */
	const char *const named[][2] = {
		{ "--variant", o->variant }, { "--variant-prefix", o->variant_prefix },
		{ "--machine", o->machine }, { "--kernel", o->kernel },
	};
	size_t i;

	if (o->layout_name && layout_named(o->layout_name, &o->layout) < 0) {
		buf_printf(msg, "unknown layout '%s' (mmtests, lkp or none)", o->layout_name);
		return -1;
	}
	if (o->variant && !*o->variant) {
		/* an empty name is no variant: the runs would be "" */
		buf_puts(msg, "--variant needs a name");
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (named[i][1] && !str_utf8_valid(named[i][1], strlen(named[i][1]))) {
			buf_printf(msg, "%s is not valid UTF-8", named[i][0]);
			return -1;
		}
	for (i = 0; i < o->nset; i++)
		if (!str_utf8_valid(o->set[i], strlen(o->set[i]))) {
			buf_puts(msg, "--set value is not valid UTF-8");
			return -1;
		}
	if (o->time_format && !time_format_ok(o->time_format)) {
		buf_printf(msg, "--time-format needs 1 to 32 blank-separated %%-directives such "
			   "as '%%e %%S %%U', not '%s'", o->time_format);
		return -1;
	}
	if (o->format && !ingest_parser_find(o->format)) {
		buf_printf(msg, "unknown format '%s' (see --list-formats)", o->format);
		return -1;
	}
	for (i = 0; i < o->nset; i++) {
		char text[256];         /* (a long value is cut, as it always was) */

		if (set_check(o->set[i], &o->runs, text, sizeof(text)) < 0) {
			buf_puts(msg, text);
			return -1;
		}
	}
	return 0;
}

static void apply_set(struct rec_batch *b, const char *const *set, size_t nset)
{
	size_t i, k;

	for (k = 0; k < nset; k++) {
		const char *eq = strchr(set[k], '='), *key;
		if (!eq)
			continue;   /* refused by set_check() */
		key = arena_strndup(&b->arena, set[k], (size_t)(eq - set[k]));
		if (strcmp(key, "runs") == 0)
			continue;   /* read by the parsers (n of kernbench summaries) */
		for (i = 0; i < b->nruns; i++)
			rec_run_config(b, b->runs[i], key, eq + 1);
		for (i = 0; i < b->nsummaries; i++)
			rec_summary_config(b, b->summaries[i], key, eq + 1);
	}
}

/*
 * --variant-prefix: the names a post gives its variants ("A".."E") are
 * only unique within that post, so put the user's prefix before every
 * name the text gave (runs, summaries and legends alike).
 */
static void apply_prefix(struct rec_batch *b, const char *prefix)
{
	size_t i;

	for (i = 0; i < b->nruns; i++)
		if (b->runs[i]->variant)
			b->runs[i]->variant = arena_printf(&b->arena, "%s%s", prefix, b->runs[i]->variant);
	for (i = 0; i < b->nsummaries; i++)
		if (b->summaries[i]->variant)
			b->summaries[i]->variant = arena_printf(&b->arena, "%s%s", prefix,
								b->summaries[i]->variant);
	for (i = 0; i < b->nvariants; i++)
		b->variants[i].name = arena_printf(&b->arena, "%s%s", prefix, b->variants[i].name);
}

/* Comma list of the parsers that claimed segments, in the order they
 * first did.  Counted as they come against the few distinct parsers seen
 * so far (at most the parser table), not against every earlier segment:
 * a post of 100,000 segments took quadratic time here. */
static void formats_used(const struct ingest_result *res, struct buf *out)
{
	const struct ingest_parser **seen;
	size_t i, k, nseen = 0, nparsers;

	ingest_parsers(&nparsers);
	seen = xcalloc(nparsers + 1, sizeof(*seen));
	for (i = 0; i < res->nsegs; i++) {
		const struct ingest_parser *p = res->segs[i].parser;

		if (!p)
			continue;
		for (k = 0; k < nseen && seen[k] != p; k++)
			;
		if (k < nseen)
			continue;
		if (nseen < nparsers + 1)
			seen[nseen++] = p;
		if (out->len)
			buf_putc(out, ',');
		buf_puts(out, p->name);
	}
	free(seen);
}

/* The variant segment s's runs (or else summaries) ended up with. */
static const char *seg_variant(const struct ingest_seg *s, const struct rec_batch *b)
{
	const struct rec_segment *sg;

	if (s->rec_seg < 0 || (size_t)s->rec_seg >= b->nsegments)
		return s->variant;
	sg = &b->segments[s->rec_seg];
	if (sg->nruns && sg->run_first < b->nruns && b->runs[sg->run_first]->variant)
		return b->runs[sg->run_first]->variant;
	if (sg->nsums && sg->sum_first < b->nsummaries && b->summaries[sg->sum_first]->variant)
		return b->summaries[sg->sum_first]->variant;
	return s->variant;
}

/* The notes the parsers left about source lines first..last. */
static void explain_notes(struct buf *out, const struct rec_batch *b, long first, long last)
{
	size_t i;

	for (i = 0; i < b->nnotes; i++)
		if (b->notes[i].line >= first && b->notes[i].line <= last)
			buf_printf(out, "      line %ld: %s\n", b->notes[i].line, b->notes[i].text);
}

/* --explain: how doc was read, segment by segment, into out. */
static void explain(struct buf *out, const struct ingest_doc *doc,
		    const struct ingest_result *res, const struct rec_batch *b)
{
	size_t i;
	char *shown = term_line(doc->path);

	buf_printf(out, "%s: %zu lines%s%s\n", shown, doc->nlines,
	       doc->was_qp ? ", quoted-printable decoded" : "",
	       doc->was_quoted ? ", mail quoting removed" : "");
	free(shown);
	for (i = 0; i < res->nsegs; i++) {
		const struct ingest_seg *s = &res->segs[i];
		long first = doc->lines[s->first].lineno, last = doc->lines[s->end - 1].lineno;
		if (s->parser) {
			buf_printf(out, "  lines %ld-%ld: %s (score %d): %zu runs, %zu samples, %zu summaries",
			       first, last, s->parser->name, s->score, s->runs, s->samples, s->summaries);
			if (seg_variant(s, b))
				buf_printf(out, ", variant %s", seg_variant(s, b));
			if (s->label)
				buf_printf(out, ", label '%s'", s->label);
			buf_putc(out, '\n');
			if (s->evidence)
				buf_printf(out, "      variant %s: %s\n", seg_variant(s, b), s->evidence);
			explain_notes(out, b, first, last);
		} else {
			size_t k, shown = 0;
			buf_printf(out, "  lines %ld-%ld: skipped (%zu lines of prose)\n", first, last,
			       s->end - s->first);
			for (k = s->first; k < s->end && shown < 2; k++) {
				if (ingest_line_blank(&doc->lines[k]))
					continue;
				buf_printf(out, "      | %.70s%s\n", doc->lines[k].s, doc->lines[k].len > 70 ? "..." : "");
				shown++;
			}
		}
	}
}

/* A failed item for path until a prepare function says otherwise. */
struct import_item *import_item_new(const char *path)
{
	struct import_item *it = xcalloc(1, sizeof(*it));

	it->path = xstrdup(path);
	it->kind = IMPORT_FAILED;
	kb_err_clear(&it->err);
	rec_batch_init(&it->batch);
	buf_init(&it->fmt);
	return it;
}

void import_item_free(struct import_item *it)
{
	free(it->notes);
	free(it->explained);
	free(it->mail_from);
	free(it->mail_date);
	free(it->mail_subject);
	free(it->message_id);
	rec_batch_release(&it->batch);
	buf_release(&it->fmt);
	free(it->parent);
	free(it->label);
	free(it->host);
	free(it->path);
	free(it);
}

/*
 * mmtests: the run's iter-<N>/kernel.version (`uname -a`) names the
 * machine and the variant's kernel release; without it the log root's
 * name log.<host>.<date> names the machine.  --machine, --variant and
 * --kernel win (the store prefers --kernel to a legend's).
 */
static void mmtests_where(const struct import_opts *o, const char *path, struct import_item *it,
			  const char **machine)
{
	struct layout_mmtests li;
	char kpath[4200], text[4096], host[256], release[256];
	char *abs;
	size_t len = 0;
	FILE *f;

	if (strcmp(path, "-") == 0 || layout_mmtests_parse(path, &li) < 0)
		return;
	if (layout_mmtests_kernel_path(path, kpath, sizeof(kpath)) == 0 &&
	    (f = fopen(kpath, "r")) != NULL) {
		len = fread(text, 1, sizeof(text), f);
		fclose(f);
	}
	if (len && layout_uname_parse(text, len, host, sizeof(host), release, sizeof(release)) == 0) {
		if (!*machine)
			*machine = it->host = xstrdup(host);
		if (!o->variant)
			rec_variant_add(&it->batch, li.run, NULL, release, 0);
		return;
	}
	if (*machine)
		return;
	abs = realpath(path, NULL);     /* "." as the run directory still has a root */
	if (layout_mmtests_root_host(abs ? abs : path, host, sizeof(host)) == 0)
		*machine = it->host = xstrdup(host);
	free(abs);
}

/*
 * Parse data[0..len), the text of the item (its display path and identity
 * set), which comes from the file at path (whose place in a result tree
 * and parent directory mean something).  walked: found while walking a
 * directory, or a mail message, where a text with no benchmark output (a
 * README, a reply with no numbers) is skipped, not an error.
 */
static void prepare_data(const struct import_opts *o, struct import_item *it, const char *path,
			 const char *data, size_t len, int walked)
{
	struct ingest_doc doc;
	struct ingest_result res = { NULL, 0, 0 };
	struct ingest_opts iopts = { o->time_format, o->runs, it->mail_subject };
	const struct ingest_parser *only = NULL;
	const char *machine = o->machine;
	struct buf expl = BUF_INIT;     /* what --explain says */
	int rc;

	memset(&doc, 0, sizeof(doc));
	arena_init(&doc.arena);
	if (o->format)
		only = ingest_parser_find(o->format);
	if (ingest_doc_load(&doc, it->path, data ? data : "", len, &it->err) < 0)
		goto out;
	rc = ingest_parse_doc(&doc, &iopts, only, &it->batch, &res, &it->err);
	/* blocks recognised that held nothing: --explain still shows them */
	if (rc == INGEST_NOTHING && o->explain && it->batch.nsegments)
		explain(&expl, &doc, &res, &it->batch);
	if (rc == INGEST_NOTHING && walked) {
		it->kind = IMPORT_SKIPPED;
		goto out;
	}
	if (rc < 0)
		goto out;
	if (o->explain) {
		explain(&expl, &doc, &res, &it->batch);
		it->kind = IMPORT_EXPLAINED;
		goto out;
	}
	if (o->layout == LAYOUT_LKP) {
		struct layout_lkp lk;
		layout_lkp_apply(path, &it->batch);
		if (!machine && layout_lkp_parse(path, &lk) == 0)
			machine = it->host = xstrdup(lk.host);
	} else if (o->layout != LAYOUT_NONE) {
		layout_apply(path, &it->batch);
		mmtests_where(o, path, it, &machine);
	}
	apply_set(&it->batch, o->set, o->nset);
	if (o->variant_prefix)
		apply_prefix(&it->batch, o->variant_prefix);
	rec_batch_finish(&it->batch);
	formats_used(&res, &it->fmt);
	it->parent = it->mail ? import_mail_label(it->mail_from, it->mail_date, it->message_id, it->path)
			      : import_source_name(path);
	it->label = xstrdup(it->parent);
	if (o->variant_prefix) {
		char *p = xmalloc(strlen(o->variant_prefix) + strlen(it->parent) + 1);
		strcpy(p, o->variant_prefix);
		strcat(p, it->parent);
		free(it->parent);
		it->parent = p;
	}
	it->imp.path = it->path;
	it->imp.sha256 = it->sha;
	it->imp.size = (long long)len;
	it->imp.format = buf_str(&it->fmt);
	it->imp.machine = machine;
	it->imp.variant = o->variant;
	it->imp.variant_fallback = it->parent;
	it->imp.scope_label = it->label;
	it->imp.global_labels = o->variant_prefix != NULL;
	it->imp.kernel = o->kernel;
	it->imp.replace = o->replace;
	it->imp.dry_run = o->dry_run;
	it->imp.mail_from = it->mail_from;
	it->imp.mail_date = it->mail_date;
	it->imp.mail_subject = it->mail_subject;
	it->imp.message_id = it->message_id;
	it->kind = IMPORT_READY;
out:
	if (it->kind == IMPORT_FAILED && !it->err.file[0])
		snprintf(it->err.file, sizeof(it->err.file), "%s", it->path);
	if (expl.len)
		it->explained = buf_detach(&expl);
	buf_release(&expl);
	ingest_result_release(&res);
	ingest_doc_release(&doc);
}

/* A plain file's bytes (read already). */
struct import_item *import_prepare(const struct import_opts *o, const char *path,
			    const struct buf *data, int walked)
{
	struct import_item *it = import_item_new(path);

	it->bytes = data->len;
	import_source_identity(o->layout, path, data, it->sha);
	prepare_data(o, it, path, data->data, data->len, walked);
	return it;
}

/*
 * One mail message msg[0..len) of the file at path (line: where it starts
 * there; index: its place in an mbox, 1-based, or 0 for a file that is
 * one message).  It is a source of its own, named "path#<Message-ID>"
 * (without one: "path#<index>" in an mbox, the path of a mail file).
 */
struct import_item *import_prepare_message(const struct import_opts *o, const char *path,
				    const char *msg, size_t len, int mboxrd, long line,
				    size_t index)
{
	struct import_item *it = import_item_new(path);
	struct mail_msg m;
	struct buf name = BUF_INIT;

	it->bytes = len;
	it->mail = 1;
	if (mail_decode(msg, len, mboxrd, path, line, &m, &it->err) < 0) {
		mail_msg_release(&m);
		return it;
	}
	if (m.message_id)
		buf_printf(&name, "%s#%s", path, m.message_id);
	else if (index)
		buf_printf(&name, "%s#%zu", path, index);
	else
		buf_puts(&name, path);
	free(it->path);
	it->path = buf_detach(&name);
	import_mail_identity(&m, it->sha);
	if (m.notes.len)
		it->notes = buf_detach(&m.notes);
	it->mail_from = m.from;
	it->mail_date = m.date;
	it->mail_subject = m.subject;
	it->message_id = m.message_id;
	m.from = m.date = m.subject = m.message_id = NULL;
	if (m.ntext == 0) {
		it->kind = IMPORT_SKIPPED;
		it->skip_why = "no text part";
	} else {
		prepare_data(o, it, path, m.text.data, m.text.len, 1);
	}
	mail_msg_release(&m);
	return it;
}

