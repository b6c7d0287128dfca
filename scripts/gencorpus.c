/*
 * gencorpus.c - write a benchmark corpus for `make bench` by varying the
 * numbers in real sample files.
 *
 *   gencorpus [-n FILES] [-b BYTES] [-B BIGSIZE] [-s SEED] OUTDIR SPEC...
 *   SPEC = FLAGS:WEIGHT:PATH
 *     FLAGS  d  vary decimal numbers (23.84, 0.090, 16,167.76)
 *            i  also vary integers of three or more digits (30000, 8610)
 *            q  write every other copy mail-quoted ("> " prefixes under a
 *               short mail header), the rest plain
 *            b  may be repeated into the big files
 *     WEIGHT how many of every sum(WEIGHT) small files use this sample
 *
 * First FILES small files are written, each one sample with its numbers
 * varied; then big files of about BIGSIZE bytes (a "b" sample repeated,
 * every block varied differently) until the corpus holds BYTES.  All the
 * numbers of one file (of one block in a big file) are multiplied by the
 * same factor f in [0.9, 1.1), keeping their decimals, so equal numbers
 * stay equal (interval timestamps, repeated command lines) and order is
 * kept (min <= mean <= max).  A value up to 100 is multiplied by
 * f^(1 - v/100) when f > 1 instead, which keeps percentages at or below
 * 100 and still in order.  Integers shorter than three digits, numbers with
 * leading zeros, and digits that are part of words, versions, dates,
 * times or paths are left alone: they carry structure (job counts,
 * node names).  Identical outputs are deduplicated by kbench, so a
 * 64-bit hash of every file is kept and a file whose bytes were already
 * written is drawn again with another seed.
 *
 * Output: OUTDIR/NNN/NNNNNN.txt, 1000 files per directory.  Prints
 * "gencorpus: files=N bytes=B big=K" on success; exits 1 on failure.
 * Deterministic: the same arguments give the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct sample {
	char *path, *data;
	size_t len;
	int weight, ints, quote, big;
};

struct out {
	char *p;
	size_t len, cap;
};

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "gencorpus: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static void out_grow(struct out *o, size_t more)
{
	if (o->len + more <= o->cap)
		return;
	o->cap = (o->len + more) * 2 + 4096;
	o->p = realloc(o->p, o->cap);
	if (!o->p)
		die("out of memory", NULL);
}

static void out_add(struct out *o, const char *s, size_t n)
{
	out_grow(o, n);
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t hash_bytes(const char *s, size_t n, uint64_t h)
{
	size_t i;

	h ^= 0xcbf29ce484222325ULL;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return mix64(h);
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/*
 * Length of the number starting at s[i] (0 if none): digits, optionally
 * grouped by commas in threes ("16,167"), optionally '.' and decimals.
 * *dec gets the number of decimals, *grouped whether commas appear.
 */
static size_t number_at(const char *s, size_t i, size_t end, int *dec, int *grouped)
{
	size_t j = i, k;

	*dec = -1;
	*grouped = 0;
	while (j < end && is_digit(s[j]))
		j++;
	if (j - i <= 3 && s[i] != '0') {
		/* thousands groups: ",ddd" not followed by another digit */
		while (j + 3 < end && s[j] == ',' && is_digit(s[j + 1]) && is_digit(s[j + 2]) &&
		       is_digit(s[j + 3]) && !(j + 4 < end && is_digit(s[j + 4]))) {
			j += 4;
			*grouped = 1;
		}
	}
	if (j + 1 < end && s[j] == '.' && is_digit(s[j + 1])) {
		k = j + 1;
		while (k < end && is_digit(s[k]))
			k++;
		*dec = (int)(k - j - 1);
		j = k;
	}
	return j - i;
}

/* Whether the number s[i..i+n) may be varied (see the header comment). */
static int variable(const char *s, size_t i, size_t n, size_t end, int dec, int ints)
{
	char prev = i ? s[i - 1] : ' ', next = i + n < end ? s[i + n] : ' ';
	size_t digits = 0, k;

	if (is_alpha(prev) || is_digit(prev) || strchr("_.:#/=+", prev))
		return 0;
	if (prev == '-' && i >= 2 && (is_alpha(s[i - 2]) || is_digit(s[i - 2])))
		return 0;
	if (strchr("_.:/-", next) || is_digit(next))
		return 0;
	if (s[i] == '0' && i + 1 < end && is_digit(s[i + 1]))
		return 0;    /* 07, 00.47: part of a date or time */
	if (dec < 0) {
		if (!ints || is_alpha(next))
			return 0;
		for (k = i; k < i + n; k++)
			digits += is_digit(s[k]);
		return digits >= 3;
	}
	return 1;
}

/* Append value with dec decimals, grouped by commas when grouped. */
static void put_number(struct out *o, double v, int dec, int grouped)
{
	char tmp[64], grp[96];
	int n, lead, k, g = 0;

	n = snprintf(tmp, sizeof(tmp), "%.*f", dec < 0 ? 0 : dec, v);
	if (n <= 0 || n >= (int)sizeof(tmp))
		return;
	if (!grouped) {
		out_add(o, tmp, (size_t)n);
		return;
	}
	lead = (int)strcspn(tmp, ".");
	for (k = 0; k < lead; k++) {
		if (k && (lead - k) % 3 == 0)
			grp[g++] = ',';
		grp[g++] = tmp[k];
	}
	memcpy(grp + g, tmp + lead, (size_t)(n - lead));
	out_add(o, grp, (size_t)(g + n - lead));
}

static size_t count_digits(const char *s, size_t n)
{
	size_t k, d = 0;

	for (k = 0; k < n; k++)
		d += is_digit(s[k]);
	return d;
}

/*
 * Append s[0..len) to o with its numbers varied by seed; quote prefixes
 * every line with "> ".
 */
static void vary(struct out *o, const struct sample *sm, uint64_t seed, int quote)
{
	double factor = 0.9 + 0.2 * (double)(mix64(seed) >> 11) / 9007199254740992.0;
	const char *s = sm->data;
	size_t i = 0, end = sm->len, start = 0;
	int bol = 1;

	out_grow(o, end + end / 4 + 64);
	while (i < end) {
		int dec, grouped;
		size_t n;

		if (bol && quote) {
			out_add(o, s + start, i - start);
			out_add(o, "> ", 2);
			start = i;
		}
		bol = 0;
		if (s[i] == '\n') {
			bol = 1;
			i++;
			continue;
		}
		if (!is_digit(s[i]) || (i && is_digit(s[i - 1]))) {
			i++;
			continue;
		}
		n = number_at(s, i, end, &dec, &grouped);
		if (!variable(s, i, n, end, dec, sm->ints)) {
			i += n;
			continue;
		}
		{
			char tmp[64];
			size_t k, t = 0;
			double v, f;
			size_t olen;

			for (k = i; k < i + n && t < sizeof(tmp) - 1; k++)
				if (s[k] != ',')
					tmp[t++] = s[k];
			tmp[t] = '\0';
			v = strtod(tmp, NULL);
			f = v > 100 || factor < 1 ? factor : pow(factor, 1 - v / 100);
			out_add(o, s + start, i - start);
			olen = o->len;
			put_number(o, v * f, dec, grouped);
			/* a grouped number must keep its digit count: in CSV the
			 * commas may be field separators */
			if (grouped && count_digits(o->p + olen, o->len - olen) != count_digits(s + i, n)) {
				o->len = olen;
				out_add(o, s + i, n);
			}
			i += n;
			start = i;
		}
	}
	out_add(o, s + start, end - start);
}

static void mail_header(struct out *o, uint64_t id)
{
	char tmp[256];
	int n = snprintf(tmp, sizeof(tmp),
			 "From: Bench Author <bench@example.org>\n"
			 "Subject: Re: [PATCH] sched: numbers for run %llu\n"
			 "\n"
			 "On the test box I get:\n"
			 "\n", (unsigned long long)id);
	out_add(o, tmp, (size_t)n);
}

/* Open-addressing set of 64-bit hashes (0 is the empty slot). */
struct hset {
	uint64_t *v;
	size_t cap, n;
};

static int hset_add(struct hset *h, uint64_t x)
{
	size_t i;

	if (!x)
		x = 1;
	if ((h->n + 1) * 2 > h->cap) {
		struct hset b = { NULL, h->cap ? h->cap * 2 : 1024, 0 };
		b.v = calloc(b.cap, sizeof(*b.v));
		if (!b.v)
			die("out of memory", NULL);
		for (i = 0; i < h->cap; i++)
			if (h->v[i])
				hset_add(&b, h->v[i]);
		free(h->v);
		*h = b;
	}
	for (i = x & (h->cap - 1); h->v[i]; i = (i + 1) & (h->cap - 1))
		if (h->v[i] == x)
			return 0;
	h->v[i] = x;
	h->n++;
	return 1;
}

static void load(struct sample *sm, const char *spec)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	FILE *f;
	long sz;

	if (!c2)
		die("bad sample spec (want FLAGS:WEIGHT:PATH)", spec);
	memset(sm, 0, sizeof(*sm));
	sm->ints = memchr(spec, 'i', (size_t)(c1 - spec)) != NULL;
	sm->quote = memchr(spec, 'q', (size_t)(c1 - spec)) != NULL;
	sm->big = memchr(spec, 'b', (size_t)(c1 - spec)) != NULL;
	sm->weight = atoi(c1 + 1);
	sm->path = strdup(c2 + 1);
	f = fopen(sm->path, "rb");
	if (!f)
		die(strerror(errno), sm->path);
	if (fseek(f, 0, SEEK_END) < 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		die("cannot size", sm->path);
	sm->data = malloc((size_t)sz + 1);
	if (!sm->data || fread(sm->data, 1, (size_t)sz, f) != (size_t)sz)
		die("cannot read", sm->path);
	fclose(f);
	sm->len = (size_t)sz;
}

static void write_file(const char *dir, size_t idx, const struct out *o)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%03zu", dir, idx / 1000);
	if (idx % 1000 == 0 && mkdir(path, 0777) < 0 && errno != EEXIST)
		die(strerror(errno), path);
	snprintf(path, sizeof(path), "%s/%03zu/%06zu.txt", dir, idx / 1000, idx);
	f = fopen(path, "wb");
	if (!f || fwrite(o->p, 1, o->len, f) != o->len || fclose(f) != 0)
		die("cannot write", path);
}

int main(int argc, char **argv)
{
	size_t nfiles = 20000, bytes = 0, bigsize = 4u << 20, total = 0, i, nbig = 0;
	size_t nsm = 0, wsum = 0, nbigsm = 0, *pick, npick = 0;
	uint64_t seed = 1;
	struct sample *sm;
	struct out o = { NULL, 0, 0 };
	struct hset seen = { NULL, 0, 0 };
	const char *dir;
	int a = 1;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "-n"))
			nfiles = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "-b"))
			bytes = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "-B"))
			bigsize = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "-s"))
			seed = strtoull(argv[a + 1], NULL, 10);
		else
			die("unknown option", argv[a]);
	}
	if (argc - a < 2)
		die("usage: gencorpus [-n FILES] [-b BYTES] [-B BIGSIZE] [-s SEED] OUTDIR FLAGS:WEIGHT:PATH...", NULL);
	dir = argv[a++];
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		die(strerror(errno), dir);
	sm = calloc((size_t)(argc - a), sizeof(*sm));
	for (; a < argc; a++) {
		load(&sm[nsm], argv[a]);
		wsum += (size_t)sm[nsm].weight;
		nbigsm += sm[nsm].big;
		nsm++;
	}
	if (!wsum)
		die("all weights are zero", NULL);
	/* A weighted round robin: sample k appears weight[k] times in pick. */
	pick = malloc(wsum * sizeof(*pick));
	for (i = 0; i < nsm; i++) {
		int w;
		for (w = 0; w < sm[i].weight; w++)
			pick[npick++] = i;
	}
	for (i = 0;; i++) {
		int big = i >= nfiles, tries;

		if (big && (total >= bytes || !bigsize))
			break;
		for (tries = 0; tries < 64; tries++) {
			uint64_t fs = mix64(seed * 0x100000001ULL + i * 131 + (uint64_t)tries * 7919);
			const struct sample *s;
			int quote;

			o.len = 0;
			if (!big) {
				s = &sm[pick[i % wsum]];
				quote = s->quote && ((fs & 1) || tries >= 8);
				if (quote)
					mail_header(&o, i);
				vary(&o, s, fs, quote);
			} else {
				size_t blk = 0, k, which = nbig % (nbigsm ? nbigsm : 1);
				for (k = 0, s = NULL; k < nsm; k++)
					if (sm[k].big && which-- == 0)
						s = &sm[k];
				if (!s)
					die("no sample is marked b for the big files", NULL);
				quote = s->quote && (nbig & 1);
				if (quote)
					mail_header(&o, i);
				while (o.len < bigsize)
					vary(&o, s, mix64(fs + blk++), quote);
			}
			if (hset_add(&seen, hash_bytes(o.p, o.len, 0)))
				break;
		}
		if (tries == 64)
			die("cannot make distinct bytes from a sample; too few numbers in it", NULL);
		write_file(dir, i, &o);
		total += o.len;
		nbig += big;
	}
	printf("gencorpus: files=%zu bytes=%zu big=%zu\n", i, total, nbig);
	return 0;
}
