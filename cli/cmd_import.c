/*
 * cmd_import.c - `kbench import`: files, directories (recursive) and
 * stdin into the store, each source file all or nothing.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/term.h"
#include "../core/textread.h"
#include "../core/num.h"
#include "../core/sha256.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../ingest/ingest.h"
#include "../ingest/layout.h"
#include "../ingest/mail.h"
#include "import_pipe.h"
#include "progress.h"

#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Queue line (taken from the buffer) for stdout; returns its entry. */
static struct said *say(struct import_totals *t, struct buf *line)
{
	struct said *w;

	xgrow(&t->wait, &t->waitcap, t->nwait + 1, sizeof(*t->wait));
	w = &t->wait[t->nwait++];
	memset(w, 0, sizeof(*w));
	w->text = buf_detach(line);
	return w;
}

/* Queue line for stderr, in order with the other lines. */
static void say_error(struct import_totals *t, struct buf *line)
{
	say(t, line)->kind = SAID_ERR;
}

/* An error about a file. */
static void say_err(struct import_totals *t, const struct kb_err *e)
{
	struct buf line = BUF_INIT;

	cli_report_to(&line, "import", e);
	say_error(t, &line);
}

/* The waiting lines' files are committed: print them and count them. */
static void said_commit(struct import_totals *t)
{
	size_t i;

	for (i = 0; i < t->nwait; i++) {
		struct said *w = &t->wait[i];
		t->runs += w->runs;
		t->samples += w->samples;
		t->summaries += w->summaries;
		if (w->kind == SAID_FILE && t->talk != TALK_VERBOSE) {
			free(t->last);
			t->last = w->text;
			continue;
		}
		if (w->kind == SAID_SKIP && t->talk == TALK_QUIET) {
			free(w->text);
			continue;
		}
		progress_clear(&t->prog);
		if (w->kind == SAID_ERR)
			fflush(stdout);
		fputs(w->text, w->kind == SAID_ERR ? stderr : stdout);
		if (w->kind == SAID_ERR)
			fflush(stderr);
		free(w->text);
	}
	t->nwait = 0;
}

/* The first n stored files among the waiting lines were not stored after
 * all: forget their lines. */
static void said_lost(struct import_totals *t, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < t->nwait; i++) {
		if (n > 0 && t->wait[i].stored) {
			free(t->wait[i].text);
			n--;
			continue;
		}
		t->wait[k++] = t->wait[i];
	}
	t->nwait = k;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The bytes of path (or stdin for "-"); gzip data (by its magic bytes,
 * whatever the name) is inflated, so *.gz logs read like plain ones. */
int import_read_source(const char *path, struct buf *out, struct kb_err *err)
{
	FILE *f = stdin;
	int rc, gzip;

	if (strcmp(path, "-") != 0) {
		f = fopen(path, "rb");
		if (!f)
			return kb_err_set(err, path, 0, "cannot open: %s", strerror(errno));
	}
	/* Bounded while it is read, as gzip data is while it inflates: the
	 * same cap, the same line and NUL checks, the same messages. */
	rc = text_read(f, path, f == stdin ? "stdin" : NULL, INGEST_MAX_INFLATED,
		       INGEST_MAX_LINE, out, &gzip, err);
	if (f != stdin)
		fclose(f);
	if (rc == 0 && !gzip && ends_with(path, ".gz") && out->len) {
		buf_release(out);
		return kb_err_set(err, path, 0, "named .gz but not gzip data");
	}
	return rc;
}

/* Name of the directory that holds path ("" for stdin or a bare name). */
/* A source's own name, for the runs nothing else names: the file name
 * without its directory and without a .gz and one more extension
 * ("003_7caa478a1fca98f9.txt" -> "003_7caa478a1fca98f9").  Never the
 * folder the file sits in: files side by side are not one kernel. */
static char *source_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *res, *dot;

	if (strcmp(path, "-") == 0)
		return xstrdup("");
	base = base ? base + 1 : path;
	res = xstrdup(base);
	len = strlen(res);
	if (len > 3 && strcmp(res + len - 3, ".gz") == 0)
		res[len -= 3] = '\0';
	if (!str_utf8_valid(res, strlen(res)))
		res[0] = '\0';     /* a name that is not text names no variant */
	dot = strrchr(res, '.');
	if (dot && dot != res)
		*dot = '\0';
	return res;
}

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

/* A mail message's short name, for its variants' name@post and the runs
 * nothing names: the author's surname and the day it was sent
 * ("Focht-2002-10-07"), else the Message-ID's local part. */
static char *mail_label(const char *from, const char *date, const char *message_id,
			const char *path)
{
	struct buf b = BUF_INIT;
	const char *f = from, *lt, *end, *w;

	if (f && *f) {
		lt = strchr(f, '<');
		end = lt && lt > f ? lt : f + strlen(f);
		while (end > f && (end[-1] == ' ' || end[-1] == '"'))
			end--;
		w = end;
		while (w > f && w[-1] != ' ' && w[-1] != '"')
			w--;
		if (w == end && lt) {           /* no name: the address's local part */
			w = lt + 1;
			end = strchr(w, '@') ? strchr(w, '@') : w + strlen(w);
		}
		for (; w < end; w++)
			if (isalnum((unsigned char)*w) || *w == '-' || *w == '_' || *w == '.')
				buf_putc(&b, *w);
	}
	if (b.len && date && strlen(date) >= 10 && date[4] == '-')
		buf_printf(&b, "-%.10s", date);
	if (!b.len && message_id) {
		for (w = message_id; *w && *w != '@' && b.len < 24; w++)
			if (isalnum((unsigned char)*w) || *w == '-' || *w == '.')
				buf_putc(&b, *w);
	}
	if (!b.len)
		return source_name(path);
	return buf_detach(&b);
}

static void apply_set(struct rec_batch *b, const struct strlist *set)
{
	size_t i, k;

	for (k = 0; k < set->n; k++) {
		const char *eq = strchr(set->v[k], '='), *key;
		if (!eq)
			continue;   /* refused by set_check() */
		key = arena_strndup(&b->arena, set->v[k], (size_t)(eq - set->v[k]));
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
static void explain_notes(const struct rec_batch *b, long first, long last)
{
	size_t i;

	for (i = 0; i < b->nnotes; i++)
		if (b->notes[i].line >= first && b->notes[i].line <= last)
			printf("      line %ld: %s\n", b->notes[i].line, b->notes[i].text);
}

static void explain(const struct ingest_doc *doc, const struct ingest_result *res,
		    const struct rec_batch *b)
{
	size_t i;
	char *shown = term_line(doc->path);

	printf("%s: %zu lines%s%s\n", shown, doc->nlines,
	       doc->was_qp ? ", quoted-printable decoded" : "",
	       doc->was_quoted ? ", mail quoting removed" : "");
	free(shown);
	for (i = 0; i < res->nsegs; i++) {
		const struct ingest_seg *s = &res->segs[i];
		long first = doc->lines[s->first].lineno, last = doc->lines[s->end - 1].lineno;
		if (s->parser) {
			printf("  lines %ld-%ld: %s (score %d): %zu runs, %zu samples, %zu summaries",
			       first, last, s->parser->name, s->score, s->runs, s->samples, s->summaries);
			if (seg_variant(s, b))
				printf(", variant %s", seg_variant(s, b));
			if (s->label)
				printf(", label '%s'", s->label);
			putchar('\n');
			if (s->evidence)
				printf("      variant %s: %s\n", seg_variant(s, b), s->evidence);
			explain_notes(b, first, last);
		} else {
			size_t k, shown = 0;
			printf("  lines %ld-%ld: skipped (%zu lines of prose)\n", first, last,
			       s->end - s->first);
			for (k = s->first; k < s->end && shown < 2; k++) {
				if (ingest_line_blank(&doc->lines[k]))
					continue;
				printf("      | %.70s%s\n", doc->lines[k].s, doc->lines[k].len > 70 ? "..." : "");
				shown++;
			}
		}
	}
}

/*
 * The identity of a source is the SHA-256 of its bytes.  Inside a result
 * tree the path is data too (mmtests' run/iter/benchmark/file name carry
 * the variant, configuration and iteration), so there two byte-identical
 * files at different places are different measurements: their identity
 * also covers the part of the path the layout reads.
 */
static void source_identity(const struct import_opts *o, const char *path,
			    const struct buf *data, char sha[65])
{
	struct layout_mmtests li;
	struct layout_lkp lk;
	struct sha256 s;
	char key[4200];
	int n = 0;

	sha256_init(&s);
	if (data->len)
		sha256_update(&s, data->data, data->len);
	if (strcmp(path, "-") == 0 || o->layout == LAYOUT_NONE)
		n = 0;
	else if (o->layout == LAYOUT_LKP && layout_lkp_parse(path, &lk) == 0)
		n = snprintf(key, sizeof(key), "\n#kbench layout lkp %s/%s/%s/%s/%s/%s/%s/%d/%s",
			     lk.testcase, lk.params, lk.host, lk.rootfs, lk.kconfig, lk.compiler,
			     lk.commit, lk.run, lk.file);
	else if (o->layout != LAYOUT_LKP && layout_mmtests_parse(path, &li) == 0)
		n = snprintf(key, sizeof(key), "\n#kbench layout mmtests %s/iter-%d/%s/logs/%s",
			     li.run, li.suite_iter, li.bench_dir, li.file);
	if (n > 0)
		sha256_update(&s, key, (size_t)n < sizeof(key) ? (size_t)n : sizeof(key) - 1);
	sha256_final_hex(&s, sha);
}

/* Files reported as imported whose transaction group SQLite rolled back. */
static void lost_files(struct import_totals *t, size_t n)
{
	struct buf line = BUF_INIT;

	buf_printf(&line, "kbench import: the %zu file%s before this error %s not stored after all "
		   "(the store rolled back their transaction); import them again\n",
		   n, n == 1 ? "" : "s", n == 1 ? "was" : "were");
	say_error(t, &line);
	t->failed += n;
}


/* A failed item for path until import_prepare() says otherwise. */
struct item *import_item_new(const char *path)
{
	struct item *it = xcalloc(1, sizeof(*it));

	it->path = xstrdup(path);
	it->kind = ITEM_FAILED;
	kb_err_clear(&it->err);
	rec_batch_init(&it->batch);
	buf_init(&it->fmt);
	return it;
}

void import_item_free(struct item *it)
{
	free(it->notes);
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
static void mmtests_where(const struct import_opts *o, const char *path, struct item *it,
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
static void prepare_data(const struct import_opts *o, struct item *it, const char *path,
			 const char *data, size_t len, int walked)
{
	struct ingest_doc doc;
	struct ingest_result res = { NULL, 0, 0 };
	struct ingest_opts iopts = { o->time_format, o->runs, it->mail_subject };
	const struct ingest_parser *only = NULL;
	const char *machine = o->machine;
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
		explain(&doc, &res, &it->batch);
	if (rc == INGEST_NOTHING && walked) {
		it->kind = ITEM_SKIPPED;
		goto out;
	}
	if (rc < 0)
		goto out;
	if (o->explain) {
		explain(&doc, &res, &it->batch);
		it->kind = ITEM_EXPLAINED;
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
	apply_set(&it->batch, &o->set);
	if (o->variant_prefix)
		apply_prefix(&it->batch, o->variant_prefix);
	rec_batch_finish(&it->batch);
	formats_used(&res, &it->fmt);
	it->parent = it->mail ? mail_label(it->mail_from, it->mail_date, it->message_id, it->path)
			      : source_name(path);
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
	it->kind = ITEM_READY;
out:
	if (it->kind == ITEM_FAILED && !it->err.file[0])
		snprintf(it->err.file, sizeof(it->err.file), "%s", it->path);
	ingest_result_release(&res);
	ingest_doc_release(&doc);
}

/* A plain file's bytes (read already). */
struct item *import_prepare(const struct import_opts *o, const char *path,
			    const struct buf *data, int walked)
{
	struct item *it = import_item_new(path);

	it->bytes = data->len;
	source_identity(o, path, data, it->sha);
	prepare_data(o, it, path, data->data, data->len, walked);
	return it;
}

/*
 * The identity of a mail message: the SHA-256 of its decoded form (the
 * Message-ID, From, Date and Subject headers, then the text), so the same
 * message from an mbox, a gzipped mbox or a Maildir is one source, and
 * two messages with the same text are two.
 */
static void mail_identity(const struct mail_msg *m, char sha[65])
{
	struct sha256 s;
	struct buf h = BUF_INIT;

	buf_printf(&h, "kbench mail\nMessage-ID: %s\nFrom: %s\nDate: %s\nSubject: %s\n\n",
		   m->message_id ? m->message_id : "", m->from ? m->from : "",
		   m->date ? m->date : "", m->subject ? m->subject : "");
	sha256_init(&s);
	sha256_update(&s, h.data, h.len);
	if (m->text.len)
		sha256_update(&s, m->text.data, m->text.len);
	sha256_final_hex(&s, sha);
	buf_release(&h);
}

/*
 * One mail message msg[0..len) of the file at path (line: where it starts
 * there; index: its place in an mbox, 1-based, or 0 for a file that is
 * one message).  It is a source of its own, named "path#<Message-ID>"
 * (without one: "path#<index>" in an mbox, the path of a mail file).
 */
struct item *import_prepare_message(const struct import_opts *o, const char *path,
				    const char *msg, size_t len, int mboxrd, long line,
				    size_t index)
{
	struct item *it = import_item_new(path);
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
	mail_identity(&m, it->sha);
	if (m.notes.len) {
		/* "path: line 12: HTML part skipped" per note */
		const char *s = m.notes.data, *e = s + m.notes.len;
		while (s < e) {
			const char *nl = memchr(s, '\n', (size_t)(e - s));
			size_t n = nl ? (size_t)(nl - s) : (size_t)(e - s);
			char *shown = term_line(it->path);

			buf_printf(&name, "%s: %.*s\n", shown, (int)n, s);
			free(shown);
			s += n + 1;
		}
		it->notes = buf_detach(&name);
	}
	it->mail_from = m.from;
	it->mail_date = m.date;
	it->mail_subject = m.subject;
	it->message_id = m.message_id;
	m.from = m.date = m.subject = m.message_id = NULL;
	if (m.ntext == 0) {
		it->kind = ITEM_SKIPPED;
		it->skip_why = "no text part";
	} else {
		prepare_data(o, it, path, m.text.data, m.text.len, 1);
	}
	mail_msg_release(&m);
	return it;
}

/* "5210/20004 files, 27.9/106.8 MB, 498213 runs, 2604 files/s, ETA 0:06" */
static void draw_progress(struct import_totals *t)
{
	double secs = progress_elapsed(&t->prog), frac = 0;
	char text[256];
	int n;

	n = snprintf(text, sizeof(text), "%zu/%zu files, %.1f/%.1f MB, %zu runs, %.0f files/s",
		     t->disk_files, t->total_files, (double)t->disk_bytes / 1e6,
		     (double)t->total_bytes / 1e6, t->runs_seen,
		     secs > 0 ? (double)t->disk_files / secs : 0.0);
	if (t->total_bytes > 0)
		frac = (double)t->disk_bytes / (double)t->total_bytes;
	else if (t->total_files > 0)
		frac = (double)t->disk_files / (double)t->total_files;
	if (frac > 0.01 && frac < 1 && n > 0 && (size_t)n < sizeof(text)) {
		long eta = (long)(secs * (1 - frac) / frac + 0.5);
		snprintf(text + n, sizeof(text) - (size_t)n, ", ETA %ld:%02ld", eta / 60, eta % 60);
	}
	progress_draw(&t->prog, text);
}

/* Store a prepared item (db is NULL with --explain), report the outcome
 * and count it; frees the item.  A stored file's line waits for its
 * transaction to commit. */
void import_finish(struct db *db, const struct import_opts *o, struct item *it,
		   struct import_totals *t)
{
	struct db_import_result out = { 0 };
	struct buf line = BUF_INIT;
	struct said *w;
	/* names as they may be shown: a newline or ESC in a file name escaped */
	char *shown = term_line(it->path), *other = NULL;

	if (it->notes) {
		buf_puts(&line, it->notes);
		say(t, &line)->kind = SAID_SKIP;
	}
	switch (it->kind) {
	case ITEM_SKIPPED:
		buf_printf(&line, "%s: skipped, %s\n", shown,
			   it->err.msg[0] && it->is_dir ? it->err.msg
			   : it->skip_why ? it->skip_why : "no benchmark output recognised");
		say(t, &line)->kind = SAID_SKIP;
		t->skipped++;
		t->binary += it->binary;
		break;
	case ITEM_EXPLAINED:
		t->files++;
		t->messages += it->mail;
		break;
	case ITEM_FAILED:
		t->files += !it->is_dir;
		t->messages += it->mail;
		t->failed++;
		say_err(t, &it->err);
		break;
	case ITEM_READY:
		t->files++;
		t->messages += it->mail;
		if (t->server_lost) {
			/* one message for them all, at the end */
			t->failed++;
			t->not_tried++;
			break;
		}
		if (db_store_batch(db, &it->imp, &it->batch, &out, &it->err) < 0) {
			t->server_lost = db_lost(db);
			/* Name the source file, not the database. */
			snprintf(it->err.file, sizeof(it->err.file), "%s", it->path);
			it->err.line = 0;
			t->failed++;
			if (out.lost) {
				said_lost(t, out.lost);
				lost_files(t, out.lost);
			}
			say_err(t, &it->err);
			break;
		}
		if (out.already) {
			t->already++;
			other = term_line(out.already_path);
			buf_printf(&line, "%s: already imported%s%s, nothing changed "
				   "(use --replace to import again)\n", shown,
				   strcmp(out.already_path, it->path) ? " as " : "",
				   strcmp(out.already_path, it->path) ? other : "");
			say(t, &line);
			break;
		}
		buf_printf(&line, "%s: %s%s, %zu runs", shown, o->dry_run ? "would import " : "",
			   buf_str(&it->fmt), out.runs);
		if (out.failed_runs)
			buf_printf(&line, " (%zu failed)", out.failed_runs);
		buf_printf(&line, ", %zu samples", out.samples);
		if (out.summaries)
			buf_printf(&line, ", %zu summaries", out.summaries);
		if (out.copied_runs || out.copied_summaries) {
			buf_printf(&line, "; ");
			if (out.copied_runs)
				buf_printf(&line, "%zu runs", out.copied_runs);
			if (out.copied_runs && out.copied_summaries)
				buf_printf(&line, " and ");
			if (out.copied_summaries)
				buf_printf(&line, "%zu summaries", out.copied_summaries);
			other = term_line(out.copied_from);
			buf_printf(&line, " already stored from %s", other);
		}
		buf_putc(&line, '\n');
		w = say(t, &line);
		w->stored = !o->dry_run;
		w->runs = out.runs;
		w->samples = out.samples;
		w->summaries = out.summaries;
		break;
	}
	t->runs_seen += out.runs;
	if (it->file_done) {
		t->disk_files++;
		t->disk_bytes += it->disk_bytes;
	}
	if (!db || db_store_pending(db) == 0)
		said_commit(t);
	buf_release(&line);
	free(shown);
	free(other);
	import_item_free(it);
	if (progress_due(&t->prog))
		draw_progress(t);
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

static int list_formats(void)
{
	size_t n, i, w = 0;
	const struct ingest_parser *const *p = ingest_parsers(&n);

	/* the names in one column, as wide as the longest */
	for (i = 0; i < n; i++)
		if (strlen(p[i]->name) > w)
			w = strlen(p[i]->name);
	for (i = 0; i < n; i++)
		printf("%-*s  %s\n", (int)w, p[i]->name, p[i]->description);
	return EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o;
	const struct opt opts[] = {
		OPT_STRING("db", "PATH", &o.db, "the store (default ./kbench.db or $KBENCH_DB)"),
		OPT_STRING("variant", "NAME", &o.variant, "name the variant of every run (wins over the text)"),
		OPT_STRING("variant-prefix", "P", &o.variant_prefix, "put P before every variant name the text gives (A -> PA)"),
		OPT_STRING("machine", "NAME", &o.machine, "name the machine the runs come from"),
		OPT_STRING("kernel", "RELEASE", &o.kernel, "record the kernel release of the variant"),
		OPT_LIST("set", "KEY=VALUE", &o.set, "add KEY=VALUE to every run's config (runs=N: n of summaries)"),
		OPT_STRING("format", "NAME", &o.format, "use only this parser (see --list-formats)"),
		OPT_STRING("time-format", "FMT", &o.time_format, "fields of GNU time -f lines, e.g. '%e %S %U %c %w'"),
		OPT_STRING("layout", "mmtests|lkp|none", &o.layout_name,
			   "read paths as a result tree: mmtests, lkp, or none (default: detect mmtests)"),
		OPT_FLAG("dry-run", &o.dry_run, "parse and report, store nothing"),
		OPT_FLAG("replace", &o.replace, "import again bytes that were imported before"),
		OPT_FLAG("explain", &o.explain, "print each segment: line range, format, lines skipped"),
		OPT_FLAG("list-formats", &o.list_formats, "list the formats kbench reads"),
		OPT_FLAG("verbose", &o.verbose, "a line for every file, also on a terminal"),
		OPT_FLAG("quiet", &o.quiet, "print only errors and the summary"),
		OPT_END,
	};
	const struct cmd_usage u = { "import",
		"[options] PATH...   (PATH: file, directory, mbox, Maildir or - for stdin)",
		"Detects each file's format, stores its runs; each file all or nothing.", opts };
	struct import_totals t;
	const char **args;
	size_t nargs, i;
	struct db *db = NULL;
	struct kb_err err;
	int rc;

	memset(&o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	rc = opt_parse(&u, argc, argv, &args, &nargs);
	if (rc)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	if (o.list_formats) {
		free(args);
		strlist_release(&o.set);
		return list_formats();
	}
	rc = EXIT_OK;
	if (nargs == 0) {
		fprintf(stderr, "kbench import: nothing to import (give files, directories or -)\n");
		opt_usage(&u, stderr);
		rc = EXIT_USAGE;
		goto done;
	}
	if (o.layout_name) {
		if (strcmp(o.layout_name, "mmtests") == 0)
			o.layout = LAYOUT_MMTESTS;
		else if (strcmp(o.layout_name, "lkp") == 0)
			o.layout = LAYOUT_LKP;
		else if (strcmp(o.layout_name, "none") == 0)
			o.layout = LAYOUT_NONE;
		else {
			fprintf(stderr, "kbench import: unknown layout '%s' (mmtests, lkp or none)\n",
				o.layout_name);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	{
		/* Names that become variants, machines or config go into JSON,
		 * XML and HTML: they must be text. */
		const char *const named[][2] = {
			{ "--variant", o.variant }, { "--variant-prefix", o.variant_prefix },
			{ "--machine", o.machine }, { "--kernel", o.kernel },
		};
		if (o.variant && !*o.variant) {
			/* an empty name is no variant: the runs would be "" */
			fprintf(stderr, "kbench import: --variant needs a name\n");
			rc = EXIT_USAGE;
			goto done;
		}
		for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (named[i][1] && !str_utf8_valid(named[i][1], strlen(named[i][1]))) {
				fprintf(stderr, "kbench import: %s is not valid UTF-8\n", named[i][0]);
				rc = EXIT_USAGE;
				goto done;
			}
		for (i = 0; i < o.set.n; i++)
			if (!str_utf8_valid(o.set.v[i], strlen(o.set.v[i]))) {
				fprintf(stderr, "kbench import: --set value is not valid UTF-8\n");
				rc = EXIT_USAGE;
				goto done;
			}
	}
	if (o.time_format && !time_format_ok(o.time_format)) {
		fprintf(stderr, "kbench import: --time-format needs 1 to 32 blank-separated "
			"%%-directives such as '%%e %%S %%U', not '%s'\n", o.time_format);
		rc = EXIT_USAGE;
		goto done;
	}
	if (o.format && !ingest_parser_find(o.format)) {
		fprintf(stderr, "kbench import: unknown format '%s' (see --list-formats)\n", o.format);
		rc = EXIT_USAGE;
		goto done;
	}
	for (i = 0; i < o.set.n; i++) {
		char msg[256];
		if (set_check(o.set.v[i], &o.runs, msg, sizeof(msg)) < 0) {
			fprintf(stderr, "kbench import: %s\n", msg);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	if (o.verbose && o.quiet) {
		fprintf(stderr, "kbench import: --verbose and --quiet do not go together\n");
		rc = EXIT_USAGE;
		goto done;
	}
	if (o.quiet)
		t.talk = TALK_QUIET;
	else if (!o.verbose && !o.explain && progress_tty() && isatty(STDOUT_FILENO))
		t.talk = TALK_COMPACT;
	else
		t.talk = TALK_VERBOSE;
	progress_init(&t.prog, "import", !o.quiet && !o.explain && progress_tty(), 0.2);
	kb_err_clear(&err);
	if (!o.explain && db_open(&db, cli_db_path(o.db), &err) < 0) {
		cli_report("import", &err);
		rc = EXIT_USAGE;
		goto done;
	}
	import_pipe_run(db, &o, args, nargs, &t);
	if (db) {
		size_t lost = 0;
		if (db_store_flush(db, &lost, &err) < 0) {
			said_lost(&t, lost);
			if (lost)
				lost_files(&t, lost);
			say_err(&t, &err);
		}
	}
	said_commit(&t);
	progress_clear(&t.prog);
	free(t.wait);
	if (t.server_lost)
		fprintf(stderr, "kbench import: the connection to %s was lost: %zu more file%s not "
			"stored; the files reported above were stored whole; import the same "
			"files again to complete the set\n", db_name(db), t.not_tried,
			t.not_tried == 1 ? "" : "s");
	if ((t.files > 1 || t.binary) && !o.explain) {
		if (t.messages)
			printf("%zu files (%zu mail messages): ", t.files, t.messages);
		else
			printf("%zu files: ", t.files);
		printf("%zu runs, %zu samples, %zu summaries; %zu already imported, "
		       "%zu failed, %zu skipped", t.runs, t.samples, t.summaries,
		       t.already, t.failed, t.skipped);
		if (t.binary)
			printf(" (%zu binary)", t.binary);
		putchar('\n');
	} else if (t.last) {
		fputs(t.last, stdout);  /* one file: its line is the summary */
	}
	free(t.last);
	if (t.failed)
		rc = EXIT_USAGE;
done:
	db_close(db);
	free(args);
	strlist_release(&o.set);
	return rc;
}
