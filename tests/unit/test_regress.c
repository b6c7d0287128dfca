/* Findings rendering: XML escaping, JSON nulls, the text line. */
#include "unit.h"
#include "../../render/regress.h"

#include <stdlib.h>

static char *render_to_string(void (*fn)(FILE *, const void *), const void *arg)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fn(f, arg);
	fclose(f);
	return s;
}

static void esc(FILE *f, const void *s)
{
	render_xml_escape(f, s);
}

TEST(regress_xml_escape)
{
	char *s = render_to_string(esc, "a<b>&\"c\" 'd'\x01\te");

	CHECK_STR(s, "a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;?\te");
	free(s);
}

static void one_finding(struct an_regress *r, struct an_finding *f)
{
	memset(r, 0, sizeof(*r));
	memset(f, 0, sizeof(*f));
	f->kind = AN_FINDING_PLACEMENT;
	f->verdict = AN_VERDICT_WORSE;
	f->benchmark = (char *)"numa_test";
	f->config = (char *)"tasks=4";
	f->metric = (char *)"light_load_packed";
	f->unit = (char *)"nodes";
	f->variant = (char *)"D7 <patched> & \"tuned\"";
	f->baseline = (char *)"stock";
	f->base_value = 3;
	f->value = 1;
	f->change_pct = -100.0 * 2 / 3;
	f->ci_low = f->ci_high = f->p = f->q = f->runs_needed = NAN;
	f->evidence = (char *)"jobs per node 4/0/0/0 | baseline 2/1/1/0";
	r->baseline = (char *)"stock";
	r->findings = f;
	r->nfindings = 1;
	r->nworse = 1;
	an_opts_init(&r->opts);
}

static void junit(FILE *f, const void *r)
{
	struct render_regress_opts o = { RENDER_REGRESS_JUNIT, 0, 0 };
	struct kb_err err;

	render_regress(f, r, &o, &err);
}

static void json(FILE *f, const void *r)
{
	struct render_regress_opts o = { RENDER_REGRESS_JSON, 0, 0 };
	struct kb_err err;

	render_regress(f, r, &o, &err);
}

TEST(regress_render_junit_and_json)
{
	struct an_regress r;
	struct an_finding f;
	char *s, line[1024];

	one_finding(&r, &f);
	CHECK(an_finding_is_regression(&f));
	CHECK_STR(an_finding_kind_name(f.kind), "placement");
	s = render_to_string(junit, &r);
	CHECK(strstr(s, "D7 &lt;patched&gt; &amp; &quot;tuned&quot;") != NULL);
	CHECK(strstr(s, "<failure type=\"regression\"") != NULL);
	CHECK(strstr(s, "failures=\"1\"") != NULL);
	CHECK(strstr(s, "<patched>") == NULL);
	free(s);
	s = render_to_string(json, &r);
	CHECK(strstr(s, "\"kbench\": \"regress\"") != NULL);
	CHECK(strstr(s, "\"q\": null") != NULL);
	CHECK(strstr(s, "\"change_ci_low\": null") != NULL);
	CHECK(strstr(s, "\"kind\": \"placement\"") != NULL);
	CHECK(strstr(s, "nan") == NULL);
	free(s);
	render_finding_line(&f, line, sizeof(line));
	CHECK(strstr(line, "worse") == line);
	CHECK(strstr(line, "3 -> 1 nodes") != NULL);
	CHECK(strstr(line, "-66.7%") != NULL);
	CHECK(strstr(line, "nan") == NULL);
}
