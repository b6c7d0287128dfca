/*
 * cmd_import.c - `kbench import`: files, directories (recursive) and
 * stdin into the store, one transaction per source file.
 */
#include "cli.h"
#include "../core/buf.h"
#include "../core/gz.h"
#include "../core/num.h"
#include "../core/sha256.h"
#include "../core/util.h"
#include "../db/db.h"
#include "../ingest/ingest.h"
#include "../ingest/layout.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How paths below a directory are read (--layout). */
enum import_layout {
	LAYOUT_DETECT = 0,      /* default: mmtests trees are detected */
	LAYOUT_MMTESTS,
	LAYOUT_LKP,
	LAYOUT_NONE,            /* every file, paths mean nothing */
};

struct import_opts {
	const char *db;
	const char *variant, *variant_prefix, *machine, *kernel, *format, *time_format, *layout_name;
	struct strlist set;
	long runs;                  /* from --set runs=N, 0 when not given */
	int dry_run, replace, list_formats, explain;
	enum import_layout layout;
};

/* Largest text a gzipped source may inflate to. */
#define IMPORT_MAX_INFLATED ((size_t)1 << 30)

struct import_totals {
	size_t files, failed, already, skipped, runs, samples, summaries;
};

static int read_all(FILE *f, struct buf *out)
{
	char tmp[65536];
	size_t n;

	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(out, tmp, n);
	return ferror(f) ? -1 : 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The bytes of path (or stdin for "-"); gzip data (by its magic bytes,
 * whatever the name) is inflated, so *.gz logs read like plain ones. */
static int read_source(const char *path, struct buf *out, struct kb_err *err)
{
	struct buf raw = BUF_INIT;
	FILE *f;
	int rc;

	if (strcmp(path, "-") == 0) {
		if (read_all(stdin, &raw) < 0) {
			buf_release(&raw);
			return kb_err_set(err, "-", 0, "cannot read stdin");
		}
	} else {
		f = fopen(path, "rb");
		if (!f)
			return kb_err_set(err, path, 0, "cannot open: %s", strerror(errno));
		rc = read_all(f, &raw);
		fclose(f);
		if (rc < 0) {
			buf_release(&raw);
			return kb_err_set(err, path, 0, "cannot read: %s", strerror(errno));
		}
	}
	if (!gz_is_gzip(raw.data, raw.len)) {
		if (ends_with(path, ".gz") && raw.len) {
			buf_release(&raw);
			return kb_err_set(err, path, 0, "named .gz but not gzip data");
		}
		*out = raw;
		return 0;
	}
	rc = gz_inflate(raw.data, raw.len, IMPORT_MAX_INFLATED, out, path, err);
	buf_release(&raw);
	return rc;
}

/* Name of the directory that holds path ("" for stdin or a bare name). */
static char *parent_name(const char *path)
{
	char *copy, *dir, *base, *res;

	if (strcmp(path, "-") == 0)
		return xstrdup("");
	copy = xstrdup(path);
	dir = dirname(copy);
	if (strcmp(dir, ".") == 0) {
		char cwd[4096];
		free(copy);
		if (!getcwd(cwd, sizeof(cwd)))
			return xstrdup("");
		copy = xstrdup(cwd);
		dir = copy;
	}
	base = basename(dir);
	res = xstrdup(strcmp(base, "/") == 0 ? "" : base);
	free(copy);
	return res;
}

static void apply_set(struct rec_batch *b, const struct strlist *set)
{
	size_t i, k;

	for (k = 0; k < set->n; k++) {
		const char *eq = strchr(set->v[k], '=');
		char key[256];
		if (!eq || (size_t)(eq - set->v[k]) >= sizeof(key))
			continue;
		memcpy(key, set->v[k], (size_t)(eq - set->v[k]));
		key[eq - set->v[k]] = '\0';
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

/* Comma list of the parsers that claimed segments. */
static void formats_used(const struct ingest_result *res, struct buf *out)
{
	size_t i, k;

	for (i = 0; i < res->nsegs; i++) {
		const struct ingest_parser *p = res->segs[i].parser;
		int seen = 0;
		if (!p)
			continue;
		for (k = 0; k < i; k++)
			if (res->segs[k].parser == p)
				seen = 1;
		if (seen)
			continue;
		if (out->len)
			buf_putc(out, ',');
		buf_puts(out, p->name);
	}
}

static void explain(const struct ingest_doc *doc, const struct ingest_result *res)
{
	size_t i;

	printf("%s: %zu lines%s%s\n", doc->path, doc->nlines,
	       doc->was_qp ? ", quoted-printable decoded" : "",
	       doc->was_quoted ? ", mail quoting removed" : "");
	for (i = 0; i < res->nsegs; i++) {
		const struct ingest_seg *s = &res->segs[i];
		long first = doc->lines[s->first].lineno, last = doc->lines[s->end - 1].lineno;
		if (s->parser) {
			printf("  lines %ld-%ld: %s (score %d): %zu runs, %zu samples, %zu summaries",
			       first, last, s->parser->name, s->score, s->runs, s->samples, s->summaries);
			if (s->variant)
				printf(", variant %s", s->variant);
			putchar('\n');
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

/* walked: found while walking a directory, where a file with no
 * benchmark output (a README, a monitor log) is skipped, not an error. */
/* Files reported as imported whose transaction group SQLite rolled back. */
static void lost_files(struct import_totals *t, size_t n)
{
	fprintf(stderr, "kbench import: the %zu file%s before this error %s not stored after all "
		"(SQLite rolled back their transaction); import them again\n",
		n, n == 1 ? "" : "s", n == 1 ? "was" : "were");
	t->failed += n;
}

static int import_one(struct db *db, const struct import_opts *o, const char *path,
		      int walked, struct import_totals *t)
{
	struct buf data = BUF_INIT, fmt = BUF_INIT;
	struct ingest_doc doc;
	struct ingest_result res = { NULL, 0, 0 };
	struct ingest_opts iopts = { o->time_format, o->runs };
	struct rec_batch batch;
	struct kb_err err;
	struct db_import imp;
	struct db_import_result out = { 0 };
	const struct ingest_parser *only = NULL;
	char sha[65], *parent, *host = NULL;
	const char *machine = o->machine;
	const char *display = strcmp(path, "-") == 0 ? "-" : path;
	int rc = -1;

	kb_err_clear(&err);
	rec_batch_init(&batch);
	memset(&doc, 0, sizeof(doc));
	arena_init(&doc.arena);
	t->files++;
	if (o->format)
		only = ingest_parser_find(o->format);
	if (read_source(path, &data, &err) < 0)
		goto out;
	source_identity(o, path, &data, sha);
	if (ingest_doc_load(&doc, display, data.data ? data.data : "", data.len, &err) < 0)
		goto out;
	rc = ingest_parse_doc(&doc, &iopts, only, &batch, &res, &err);
	if (rc == INGEST_NOTHING && walked) {
		printf("%s: skipped, no benchmark output recognised\n", display);
		t->skipped++;
		t->files--;
		rc = 0;
		goto out;
	}
	if (rc < 0) {
		rc = -1;
		goto out;
	}
	rc = -1;
	if (o->explain) {
		explain(&doc, &res);
		rc = 0;
		goto out;
	}
	if (o->layout == LAYOUT_LKP) {
		struct layout_lkp lk;
		layout_lkp_apply(path, &batch);
		if (!machine && layout_lkp_parse(path, &lk) == 0)
			machine = host = xstrdup(lk.host);
	} else if (o->layout != LAYOUT_NONE) {
		layout_apply(path, &batch);
	}
	apply_set(&batch, &o->set);
	if (o->variant_prefix)
		apply_prefix(&batch, o->variant_prefix);
	rec_batch_finish(&batch);
	formats_used(&res, &fmt);
	parent = parent_name(path);
	if (o->variant_prefix) {
		char *p = xmalloc(strlen(o->variant_prefix) + strlen(parent) + 1);
		strcpy(p, o->variant_prefix);
		strcat(p, parent);
		free(parent);
		parent = p;
	}
	memset(&imp, 0, sizeof(imp));
	imp.path = display;
	imp.sha256 = sha;
	imp.size = (long long)data.len;
	imp.format = buf_str(&fmt);
	imp.machine = machine;
	imp.variant = o->variant;
	imp.variant_fallback = parent;
	imp.kernel = o->kernel;
	imp.replace = o->replace;
	imp.dry_run = o->dry_run;
	rc = db_store_batch(db, &imp, &batch, &out, &err);
	free(parent);
	if (rc < 0) {
		/* Name the source file, not the database. */
		snprintf(err.file, sizeof(err.file), "%s", display);
		err.line = 0;
		goto out;
	}
	if (out.already) {
		t->already++;
		printf("%s: already imported%s%s, nothing changed (use --replace to import again)\n",
		       display, strcmp(out.already_path, display) ? " as " : "",
		       strcmp(out.already_path, display) ? out.already_path : "");
	} else {
		printf("%s: %s%s, %zu runs", display, o->dry_run ? "would import " : "",
		       buf_str(&fmt), out.runs);
		if (out.failed_runs)
			printf(" (%zu failed)", out.failed_runs);
		printf(", %zu samples", out.samples);
		if (out.summaries)
			printf(", %zu summaries", out.summaries);
		putchar('\n');
		t->runs += out.runs;
		t->samples += out.samples;
		t->summaries += out.summaries;
	}
out:
	if (rc < 0) {
		t->failed++;
		if (!err.file[0])
			snprintf(err.file, sizeof(err.file), "%s", display);
		cli_report("import", &err);
		if (out.lost)
			lost_files(t, out.lost);
	}
	ingest_result_release(&res);
	ingest_doc_release(&doc);
	rec_batch_release(&batch);
	buf_release(&data);
	buf_release(&fmt);
	free(host);
	return rc;
}

/* The tree kind of dir, given the kind of its parent (LAYOUT_NONE: not
 * in a tree yet). */
static enum import_layout tree_below(const struct import_opts *o, const char *dir,
				     enum import_layout parent)
{
	if (parent != LAYOUT_NONE)
		return parent;
	if (o->layout == LAYOUT_MMTESTS || o->layout == LAYOUT_LKP)
		return o->layout;
	if (o->layout == LAYOUT_DETECT && layout_mmtests_detect(dir))
		return LAYOUT_MMTESTS;
	return LAYOUT_NONE;
}

static int file_wanted(const char *path, enum import_layout tree)
{
	switch (tree) {
	case LAYOUT_MMTESTS:
		return layout_mmtests_wanted(path);
	case LAYOUT_LKP:
		return layout_lkp_wanted(path);
	default:
		return 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Import every regular file below dir, in name order, skipping hidden
 * entries.  Inside a result tree (mmtests, detected or named with
 * --layout; lkp, named) only its result files are read. */
static void import_dir(struct db *db, const struct import_opts *o, const char *dir,
		       enum import_layout tree, struct import_totals *t)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!d) {
		struct kb_err err;
		kb_err_set(&err, dir, 0, "cannot open directory: %s", strerror(errno));
		cli_report("import", &err);
		t->failed++;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		xgrow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct buf p = BUF_INIT;
		struct stat sb;
		buf_printf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		if (stat(p.data, &sb) == 0) {
			if (S_ISDIR(sb.st_mode))
				import_dir(db, o, p.data, tree_below(o, p.data, tree), t);
			else if (S_ISREG(sb.st_mode) && file_wanted(p.data, tree))
				import_one(db, o, p.data, 1, t);
		}
		buf_release(&p);
		free(names[i]);
	}
	free(names);
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
	size_t n, i;
	const struct ingest_parser *const *p = ingest_parsers(&n);

	for (i = 0; i < n; i++)
		printf("%-15s %s\n", p[i]->name, p[i]->description);
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
		OPT_STRING("layout", "NAME", &o.layout_name,
			   "read paths as a result tree: mmtests, lkp, or none (default: detect mmtests)"),
		OPT_FLAG("dry-run", &o.dry_run, "parse and report, store nothing"),
		OPT_FLAG("replace", &o.replace, "import again bytes that were imported before"),
		OPT_FLAG("explain", &o.explain, "print each segment: line range, format, lines skipped"),
		OPT_FLAG("list-formats", &o.list_formats, "list the formats kbench reads"),
		OPT_END,
	};
	const struct cmd_usage u = { "import", "[options] PATH...   (PATH: file, directory or - for stdin)",
		"Detects each file's format, stores its runs; one transaction per file.", opts };
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
		const char *eq = strchr(o.set.v[i], '=');
		if (!eq || eq == o.set.v[i]) {
			fprintf(stderr, "kbench import: --set needs KEY=VALUE, not '%s'\n", o.set.v[i]);
			rc = EXIT_USAGE;
			goto done;
		}
		if (str_starts(o.set.v[i], "runs="))
			num_parse_long(eq + 1, strlen(eq + 1), &o.runs);
	}
	kb_err_clear(&err);
	if (!o.explain && db_open(&db, cli_db_path(o.db), &err) < 0) {
		cli_report("import", &err);
		rc = EXIT_USAGE;
		goto done;
	}
	for (i = 0; i < nargs; i++) {
		struct stat sb;
		if (strcmp(args[i], "-") != 0 && stat(args[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			import_dir(db, &o, args[i], tree_below(&o, args[i], LAYOUT_NONE), &t);
		else
			import_one(db, &o, args[i], 0, &t);
	}
	if (db) {
		size_t lost = 0;
		if (db_store_flush(db, &lost, &err) < 0) {
			cli_report("import", &err);
			lost_files(&t, lost);
		}
	}
	if (t.files > 1 && !o.explain)
		printf("%zu files: %zu runs, %zu samples, %zu summaries; %zu already imported, "
		       "%zu failed, %zu skipped\n", t.files, t.runs, t.samples, t.summaries,
		       t.already, t.failed, t.skipped);
	if (t.failed)
		rc = EXIT_USAGE;
done:
	db_close(db);
	free(args);
	strlist_release(&o.set);
	return rc;
}
