/*
 * regress.c - findings as text, JSON and JUnit XML (see regress.h).
 */
#include "regress.h"
#include "json.h"
#include "table.h"

#include "../core/buf.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int render_regress_fmt_parse(const char *s, enum render_regress_fmt *f)
{
	if (strcmp(s, "text") == 0)
		*f = RENDER_REGRESS_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = RENDER_REGRESS_JSON;
	else if (strcmp(s, "junit") == 0)
		*f = RENDER_REGRESS_JUNIT;
	else
		return -1;
	return 0;
}

/* A value with enough digits to read, never "nan". */
static void fmt_value(char *out, size_t n, double v)
{
	if (isnan(v))
		snprintf(out, n, "-");
	else if (fabs(v) >= 1e5)
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.6g", v);
}

static void fmt_q(char *out, size_t n, double q)
{
	if (isnan(q))
		snprintf(out, n, "q=-");
	else if (q < 0.0001)
		snprintf(out, n, "q<0.0001");
	else
		snprintf(out, n, "q=%.2g", q);
}

void render_finding_line(const struct an_finding *fd, char *out, size_t n)
{
	struct buf b = BUF_INIT;
	char bv[64], cv[64], qs[32];
	const char *fl[24];
	size_t nf, k;
	int share = fd->kind == AN_FINDING_PLACEMENT && strcmp(fd->unit, "%") == 0;

	fmt_value(bv, sizeof(bv), fd->base_value);
	fmt_value(cv, sizeof(cv), fd->value);
	fmt_q(qs, sizeof(qs), fd->q);
	buf_printf(&b, "%-12s %s%s %s%s%s%s %s  %s: %s -> %s", an_verdict_name(fd->verdict),
		   fd->kind == AN_FINDING_PLACEMENT ? "placement " : "", fd->benchmark,
		   fd->machine ? "on " : "", fd->machine ? fd->machine : "", fd->machine ? " " : "",
		   fd->config[0] ? fd->config : "-", fd->metric, fd->variant, bv, cv);
	if (fd->unit[0])
		buf_printf(&b, " %s", fd->unit);
	if (!isnan(fd->change_pct)) {
		if (share)
			buf_printf(&b, "  %+.1f points", fd->change_pct);
		else
			buf_printf(&b, "  %+.1f%%", fd->change_pct);
		if (!isnan(fd->ci_low) && !isnan(fd->ci_high))
			buf_printf(&b, " [%+.1f, %+.1f]", fd->ci_low, fd->ci_high);
	}
	if (fd->kind == AN_FINDING_PERFORMANCE || !isnan(fd->q))
		buf_printf(&b, "  %s", qs);
	if (fd->verdict == AN_VERDICT_INCONCLUSIVE && !isnan(fd->runs_needed))
		buf_printf(&b, "  needs %.0f runs per side", fd->runs_needed);
	if (fd->by_source)
		buf_puts(&b, "  by the source's own test");
	nf = an_flag_names(fd->flags, fl, sizeof(fl) / sizeof(fl[0]));
	for (k = 0; k < nf && k < sizeof(fl) / sizeof(fl[0]); k++)
		buf_printf(&b, "%s%s", k ? "," : "  [", fl[k]);
	if (nf)
		buf_putc(&b, ']');
	snprintf(out, n, "%s", buf_str(&b));
	buf_release(&b);
}

static int text(FILE *f, const struct an_regress *r, const struct render_regress_opts *o)
{
	static const enum an_verdict groups[] = { AN_VERDICT_WORSE, AN_VERDICT_BETTER,
						  AN_VERDICT_CHANGED, AN_VERDICT_INCONCLUSIVE,
						  AN_VERDICT_SAME };
	static const char *const titles[] = { "Regressions (worse)", "Improvements (better)",
					      "Changed (no better direction)",
					      "Inconclusive (more runs needed)", "Same" };
	size_t g, i;
	char line[4096];

	fprintf(f, "kbench regress: baseline %s\n", r->baseline ? r->baseline : "-");
	fprintf(f, "%zu worse, %zu better, %zu changed, %zu inconclusive, %zu same "
		   "(%s test, alpha %g on BH q, threshold %g%%)\n",
		r->nworse, r->nbetter, r->nchanged, r->ninconclusive, r->nsame,
		r->opts.test == AN_TEST_MWU ? "Mann-Whitney" : "Welch", r->opts.alpha, r->opts.delta);
	for (i = 0; i < r->nwarnings; i++)
		fprintf(f, "warning: %s\n", r->warnings[i]);
	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		int header = 0;

		if (groups[g] == AN_VERDICT_SAME && !o->verbose)
			continue;
		for (i = 0; i < r->nfindings; i++) {
			const struct an_finding *fd = &r->findings[i];
			int is_same = fd->verdict != AN_VERDICT_WORSE && fd->verdict != AN_VERDICT_BETTER &&
				      fd->verdict != AN_VERDICT_CHANGED &&
				      fd->verdict != AN_VERDICT_INCONCLUSIVE;

			if (is_same ? groups[g] != AN_VERDICT_SAME : fd->verdict != groups[g])
				continue;
			if (!header) {
				fprintf(f, "\n%s:\n", titles[g]);
				header = 1;
			}
			render_finding_line(fd, line, sizeof(line));
			if (o->color && render_verdict_color(fd->verdict)[0]) {
				/* colour the verdict word the line starts with */
				size_t w = strcspn(line, " ");
				fprintf(f, "  %s%.*s%s%s\n", render_verdict_color(fd->verdict), (int)w,
					line, RENDER_COLOR_END, line + w);
			} else {
				fprintf(f, "  %s\n", line);
			}
			if (fd->kind == AN_FINDING_PLACEMENT || o->verbose)
				fprintf(f, "      %s\n", fd->evidence);
		}
	}
	return ferror(f) ? -1 : 0;
}

static json_t *finding_json(const struct an_finding *fd)
{
	json_t *o = json_object(), *flags = json_array(), *runs = json_array(),
	       *bruns = json_array();
	const char *fl[24];
	size_t nf, k;

	json_object_set_new(o, "kind", json_string(an_finding_kind_name(fd->kind)));
	json_object_set_new(o, "verdict", json_string(an_verdict_name(fd->verdict)));
	json_object_set_new(o, "benchmark", json_string(fd->benchmark));
	json_object_set_new(o, "config", json_string(fd->config));
	if (fd->machine)
		json_object_set_new(o, "machine", json_string(fd->machine));
	if (fd->base_machine && fd->cand_machine) {
		json_object_set_new(o, "baseline_machine", json_string(fd->base_machine));
		json_object_set_new(o, "candidate_machine", json_string(fd->cand_machine));
	}
	json_object_set_new(o, "metric", json_string(fd->metric));
	json_object_set_new(o, "unit", json_string(fd->unit));
	json_object_set_new(o, "better", json_string(an_direction_name(fd->dir)));
	json_object_set_new(o, "variant", json_string(fd->variant));
	json_object_set_new(o, "baseline", json_string(fd->baseline));
	json_object_set_new(o, "base_value", render_jnum(fd->base_value));
	json_object_set_new(o, "value", render_jnum(fd->value));
	json_object_set_new(o, "base_n", json_integer((json_int_t)fd->base_n));
	json_object_set_new(o, "n", json_integer((json_int_t)fd->n));
	json_object_set_new(o, "change_pct", render_jnum(fd->change_pct));
	json_object_set_new(o, "change_ci_low", render_jnum(fd->ci_low));
	json_object_set_new(o, "change_ci_high", render_jnum(fd->ci_high));
	json_object_set_new(o, "p", render_jnum(fd->p));
	json_object_set_new(o, "q", render_jnum(fd->q));
	json_object_set_new(o, "runs_needed", render_jnum(fd->runs_needed));
	json_object_set_new(o, "verdict_by", json_string(fd->by_source ? "source" : "kbench"));
	nf = an_flag_names(fd->flags, fl, sizeof(fl) / sizeof(fl[0]));
	for (k = 0; k < nf && k < sizeof(fl) / sizeof(fl[0]); k++)
		json_array_append_new(flags, json_string(fl[k]));
	json_object_set_new(o, "flags", flags);
	json_object_set_new(o, "evidence", json_string(fd->evidence));
	for (k = 0; k < fd->nruns; k++)
		json_array_append_new(fd->runs[k].is_baseline ? bruns : runs,
				      json_integer(fd->runs[k].id));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "baseline_runs", bruns);
	return o;
}

static int json(FILE *f, const struct an_regress *r, struct kb_err *err)
{
	json_t *root = json_object(), *arr = json_array(), *sum = json_object(), *warn = json_array();
	size_t i;

	json_object_set_new(root, "kbench", json_string("regress"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "baseline", r->baseline ? json_string(r->baseline) : json_null());
	json_object_set_new(sum, "worse", json_integer((json_int_t)r->nworse));
	json_object_set_new(sum, "better", json_integer((json_int_t)r->nbetter));
	json_object_set_new(sum, "changed", json_integer((json_int_t)r->nchanged));
	json_object_set_new(sum, "inconclusive", json_integer((json_int_t)r->ninconclusive));
	json_object_set_new(sum, "same", json_integer((json_int_t)r->nsame));
	json_object_set_new(root, "summary", sum);
	json_object_set_new(root, "test", json_string(an_test_name(r->opts.test)));
	json_object_set_new(root, "alpha", render_jnum(r->opts.alpha));
	json_object_set_new(root, "threshold", render_jnum(r->opts.delta));
	json_object_set_new(root, "change", json_string(an_convention_name(r->opts.conv)));
	for (i = 0; i < r->nwarnings; i++)
		json_array_append_new(warn, json_string(r->warnings[i]));
	json_object_set_new(root, "warnings", warn);
	for (i = 0; i < r->nfindings; i++) {
		enum an_verdict v = r->findings[i].verdict;
		if (v == AN_VERDICT_WORSE || v == AN_VERDICT_BETTER || v == AN_VERDICT_CHANGED ||
		    v == AN_VERDICT_INCONCLUSIVE)
			json_array_append_new(arr, finding_json(&r->findings[i]));
	}
	json_object_set_new(root, "findings", arr);
	return render_json_write(f, root, err);
}

void render_xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputc('?', f);	/* not representable in XML 1.0 */
			else
				fputc(c, f);
		}
	}
}

static int junit(FILE *f, const struct an_regress *r)
{
	size_t i, nskipped = r->ninconclusive;
	char line[4096];

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"kbench regress\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		r->nfindings, r->nworse, nskipped);
	fputs("  <testsuite name=\"", f);
	render_xml_escape(f, "kbench regress against ");
	render_xml_escape(f, r->baseline ? r->baseline : "-");
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		r->nfindings, r->nworse, nskipped);
	if (r->nwarnings) {
		fputs("    <properties>\n", f);
		for (i = 0; i < r->nwarnings; i++) {
			fputs("      <property name=\"warning\" value=\"", f);
			render_xml_escape(f, r->warnings[i]);
			fputs("\"/>\n", f);
		}
		fputs("    </properties>\n", f);
	}
	for (i = 0; i < r->nfindings; i++) {
		const struct an_finding *fd = &r->findings[i];
		char cls[1024];

		snprintf(cls, sizeof(cls), "%s.%s", an_finding_kind_name(fd->kind), fd->benchmark);
		fputs("    <testcase classname=\"", f);
		render_xml_escape(f, cls);
		fputs("\" name=\"", f);
		if (fd->machine) {
			fputs("on ", f);
			render_xml_escape(f, fd->machine);
			fputs(" ", f);
		}
		render_xml_escape(f, fd->config[0] ? fd->config : "-");
		fputs(" ", f);
		render_xml_escape(f, fd->metric);
		fputs(": ", f);
		render_xml_escape(f, fd->variant);
		fputs(" vs ", f);
		render_xml_escape(f, fd->baseline);
		fputs("\">\n", f);
		render_finding_line(fd, line, sizeof(line));
		if (fd->verdict == AN_VERDICT_WORSE) {
			fputs("      <failure type=\"regression\" message=\"", f);
			render_xml_escape(f, line);
			fputs("\">", f);
			render_xml_escape(f, fd->evidence);
			fputs("</failure>\n", f);
		} else if (fd->verdict == AN_VERDICT_INCONCLUSIVE) {
			fputs("      <skipped message=\"", f);
			render_xml_escape(f, line);
			fputs("\"/>\n", f);
		}
		fputs("      <system-out>", f);
		render_xml_escape(f, line);
		fputs("\n", f);
		render_xml_escape(f, fd->evidence);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

int render_regress(FILE *f, const struct an_regress *r, const struct render_regress_opts *o,
		   struct kb_err *err)
{
	int rc;

	switch (o->fmt) {
	case RENDER_REGRESS_JSON:
		return json(f, r, err);
	case RENDER_REGRESS_JUNIT:
		rc = junit(f, r);
		break;
	default:
		rc = text(f, r, o);
		break;
	}
	if (rc < 0)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}
