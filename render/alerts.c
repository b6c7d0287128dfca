/*
 * alerts.c - kbench alerts as a mail or as JSON (see alerts.h).
 *
 * The mail, per summary shown:
 *
 *   Alert summary #3 [new]: regression on 8 machines, 8 alerts
 *   Suspect range (last good .. first bad):
 *     6.9.0-00375-g68679b2568d8 .. 6.9.0-00376-g78efeed33154
 *   Commits (git first-parent, --git):
 *     78efeed33154 sched/fair: ...
 *   Test machines: lkp-lab-h00 lkp-lab-h01 ...
 *   Did not move: ...
 *
 *   autonuma params=performance-800%,test=numa01 elapsed (s, lower is better)
 *     %change  95% interval         q  machine          before -> after
 *       +9.7%  [ +9.2, +10.3]  2e-245  lkp-lab-h00      280.4 -> 307.7
 *
 *   To bisect:
 *     git bisect start 6.9.0-00376-g78efeed33154 6.9.0-00375-g68679b2568d8
 *
 * A line that would pass 80 columns is wrapped at a blank (a word longer
 * than a line is cut), continued with an indent.
 */
#include "alerts.h"
#include "json.h"

#include "../core/buf.h"
#include "../core/term.h"
#include "../core/util.h"
#include "../analyze/version.h"
#include "chart.h"
#include "regress.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int render_alerts_fmt_parse(const char *s, enum render_alerts_fmt *f)
{
	if (strcmp(s, "text") == 0)
		*f = RENDER_ALERTS_TEXT;
	else if (strcmp(s, "json") == 0)
		*f = RENDER_ALERTS_JSON;
	else
		return -1;
	return 0;
}

/* line (no newline) into out, wrapped at RENDER_ALERTS_COLUMNS, the
 * continuations indented by indent blanks.  Control characters are shown
 * escaped first, so that the columns counted are the columns printed. */
static void emit(struct buf *out, const char *line, size_t indent)
{
	struct buf esc = BUF_INIT;
	const char *s, *end;
	size_t col = 0, width = RENDER_ALERTS_COLUMNS;

	term_escape(&esc, line, strlen(line), 0);
	s = buf_str(&esc);
	end = s + strlen(s);
	while (s < end) {
		const char *w = s;
		size_t n, lead = 0;

		while (w < end && *w == ' ')
			w++;
		lead = (size_t)(w - s);
		n = 0;
		while (w + n < end && w[n] != ' ')
			n++;
		if (col && col + lead + n > width) {
			/* a new line for this word */
			buf_putc(out, '\n');
			buf_printf(out, "%*s", (int)indent, "");
			col = indent;
			lead = 0;
		}
		buf_printf(out, "%*s", (int)lead, "");
		col += lead;
		while (n) {
			size_t room = width > col ? width - col : 0, take = n < room ? n : room;

			if (!take) {
				buf_putc(out, '\n');
				buf_printf(out, "%*s", (int)indent, "");
				col = indent;
				continue;
			}
			buf_add(out, w, take);
			col += take;
			w += take;
			n -= take;
		}
		s = w;
	}
	buf_putc(out, '\n');
	buf_release(&esc);
}

static void emitf(struct buf *out, size_t indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emitf(struct buf *out, size_t indent, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&line, fmt, ap);
	va_end(ap);
	emit(out, buf_str(&line), indent);
	buf_release(&line);
}

/* Position in the git history of the commit variant v stands for, or -1. */
static long git_pos(const struct render_alerts_opts *o, const char *v)
{
	size_t i;

	for (i = 0; i < o->ncommits; i++)
		if (an_commit_match(v, o->commits[i]))
			return (long)i;
	return -1;
}

static void fmt_num(char *out, size_t n, double x)
{
	if (isnan(x))
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.4g", x);
}

static void fmt_pct(char *out, size_t n, double x)
{
	if (isnan(x))
		snprintf(out, n, "    -");
	else
		snprintf(out, n, "%+5.1f", x);
}

const char *render_alerts_state_word(const struct an_alert_summary *sm)
{
	return sm->state == AN_ALERT_NEW && sm->is_new ? "new" : an_alert_state_name(sm->state);
}

/* The list of names as one line after head. */
static void emit_names(struct buf *out, const char *head, char *const *v, size_t n)
{
	struct buf line = BUF_INIT;
	size_t i;

	buf_puts(&line, head);
	for (i = 0; i < n; i++) {
		buf_putc(&line, ' ');
		buf_puts(&line, v[i][0] ? v[i] : "unknown");
	}
	if (!n)
		buf_puts(&line, " none");
	emit(out, buf_str(&line), 4);
	buf_release(&line);
}

void render_alerts_summary_text(struct buf *out, const struct an_alerts *a, size_t i,
				const struct render_alerts_opts *o)
{
	const struct an_alert_summary *sm = &a->summaries[i];
	size_t k, nworse = 0, nbetter = 0;
	const struct an_hseries *last = NULL;
	long gp, bp;

	for (k = 0; k < sm->nalerts; k++) {
		enum an_verdict v = a->alerts[sm->alerts[k]].verdict;
		nworse += v == AN_VERDICT_WORSE;
		nbetter += v == AN_VERDICT_BETTER;
	}
	emitf(out, 4, "Alert summary #%lld [%s]: %s on %zu machine%s, %zu alert%s (%zu worse, "
	      "%zu better)", sm->id, render_alerts_state_word(sm), sm->worse ? "regression" : "change",
	      sm->nmachines, sm->nmachines == 1 ? "" : "s", sm->nalerts, sm->nalerts == 1 ? "" : "s",
	      nworse, nbetter);
	if (sm->note)
		emitf(out, 4, "Note: %s", sm->note);
	if (sm->state == AN_ALERT_FIXED && sm->fixed_by)
		emitf(out, 4, "Fixed by: %s", sm->fixed_by);
	emitf(out, 4, "Suspect range (last good .. first bad, %zu commit%s tested between):",
	      sm->bad_rank - sm->good_rank - 1, sm->bad_rank - sm->good_rank == 2 ? "" : "s");
	emitf(out, 4, "  %s .. %s", sm->good, sm->bad);
	if (o->ncommits) {
		gp = git_pos(o, sm->good);
		bp = git_pos(o, sm->bad);
		if (gp >= 0 && bp > gp) {
			emitf(out, 4, "Commits (first-parent history of %s, %ld):", o->git_dir,
			      bp - gp);
			/* a mail names the first ones; git log has the rest */
			for (k = (size_t)gp + 1; k <= (size_t)bp && k <= (size_t)gp + RENDER_ALERTS_SUBJECTS; k++)
				emitf(out, 17, "  %.12s %s", o->commits[k], o->subjects[k]);
			if (bp - gp > RENDER_ALERTS_SUBJECTS)
				emitf(out, 4, "  and %ld more: git log --first-parent %.12s..%.12s",
				      bp - gp - RENDER_ALERTS_SUBJECTS, o->commits[gp], o->commits[bp]);
		} else {
			emitf(out, 4, "Commits: the range is not in the first-parent history of %s",
			      o->git_dir);
		}
	}
	emit_names(out, "Test machines:", sm->machines, sm->nmachines);
	emit_names(out, "Did not move:", sm->quiet, sm->nquiet);
	for (k = 0; k < sm->nalerts; k++) {
		const struct an_alert *al = &a->alerts[sm->alerts[k]];
		const struct an_hseries *s = al->series;
		char lo[16], hi[16], ch[16], iv[40], b[32], f[32];

		if (!last || strcmp(last->benchmark, s->benchmark) || strcmp(last->config, s->config) ||
		    strcmp(last->metric, s->metric)) {
			buf_putc(out, '\n');
			emitf(out, 4, "%s%s%s %s (%s%s%s is better)", s->benchmark, s->config[0] ? " " : "",
			      s->config, s->metric, s->unit, s->unit[0] ? ", " : "",
			      s->dir == AN_DIR_LOWER ? "lower" : s->dir == AN_DIR_HIGHER ? "higher"
									 : "neither");
			emitf(out, 4, "  %%change  95%% interval         q  %-16s before -> after",
			      "machine");
		}
		last = s;
		fmt_pct(ch, sizeof(ch), al->change_pct);
		snprintf(lo, sizeof(lo), isnan(al->lo_pct) ? "-" : "%+.1f", al->lo_pct);
		snprintf(hi, sizeof(hi), isnan(al->hi_pct) ? "-" : "%+.1f", al->hi_pct);
		fmt_num(b, sizeof(b), al->before);
		fmt_num(f, sizeof(f), al->after);
		snprintf(iv, sizeof(iv), "%s..%s", lo, hi);
		emitf(out, 44, "   %s%%  %-13s  %8.2g  %-16s %s -> %s %s", ch, iv, al->q,
		      s->machine ? s->machine : "unknown", b, f, an_verdict_name(al->verdict));
		/* the commits of this series, when they are not the summary's */
		if (al->good_rank != sm->good_rank || al->bad_rank != sm->bad_rank)
			emitf(out, 8, "      here: %s .. %s", al->good, al->bad);
	}
	buf_putc(out, '\n');
	emitf(out, 4, "To bisect:");
	emitf(out, 4, "  git bisect start %s %s", sm->bad, sm->good);
}

static int text(FILE *f, const struct an_alerts *a, const struct render_alerts_opts *o)
{
	struct buf out = BUF_INIT;
	size_t i, shown = 0, nnew = 0;
	int rc;

	for (i = 0; i < a->nsummaries; i++)
		if (o->show[i]) {
			shown++;
			nnew += a->summaries[i].is_new;
		}
	emitf(&out, 4, "kbench alerts: %zu summar%s shown (%zu new) of %zu; %zu alerts in %zu "
	      "series of %zu commits, q < %g", shown, shown == 1 ? "y" : "ies", nnew,
	      a->nsummaries, a->nalerts, a->nseries, a->norder, a->opts.alpha);
	for (i = 0; i < a->nsummaries; i++) {
		if (!o->show[i])
			continue;
		buf_putc(&out, '\n');
		render_alerts_summary_text(&out, a, i, o);
	}
	rc = fputs(buf_str(&out), f) < 0 ? -1 : 0;
	buf_release(&out);
	return rc;
}

/* s as a JSON string; text that is not UTF-8 goes escaped as the
 * terminal shows it. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *e;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	e = term_line(s);
	j = json_string(e);
	free(e);
	return j ? j : json_null();
}

static json_t *jnames(char *const *v, size_t n)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, jstr(v[i]));
	return arr;
}

static int json(FILE *f, const struct an_alerts *a, const struct render_alerts_opts *o,
		struct kb_err *err)
{
	json_t *root = json_object(), *sums = json_array();
	size_t i, k;

	json_object_set_new(root, "kbench", json_string("alerts"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "order", json_string(o->ncommits ? "git" : "store"));
	json_object_set_new(root, "alpha", render_jnum(a->opts.alpha));
	json_object_set_new(root, "pvalue", render_jnum(a->opts.pvalue));
	json_object_set_new(root, "window", json_integer((json_int_t)a->opts.window));
	json_object_set_new(root, "near", json_integer((json_int_t)a->opts.near));
	json_object_set_new(root, "min_points", json_integer((json_int_t)a->opts.min_points));
	json_object_set_new(root, "commits", json_integer((json_int_t)a->norder));
	json_object_set_new(root, "series", json_integer((json_int_t)a->nseries));
	json_object_set_new(root, "tests", json_integer((json_int_t)a->ntests));
	json_object_set_new(root, "alerts", json_integer((json_int_t)a->nalerts));
	json_object_set_new(root, "summaries_found", json_integer((json_int_t)a->nsummaries));
	for (i = 0; i < a->nsummaries; i++) {
		const struct an_alert_summary *sm = &a->summaries[i];
		json_t *so, *als = json_array();
		struct buf bis = BUF_INIT;

		if (!o->show[i])
			continue;
		so = json_object();
		json_object_set_new(so, "id", json_integer(sm->id));
		json_object_set_new(so, "state", json_string(an_alert_state_name(sm->state)));
		json_object_set_new(so, "new", json_boolean(sm->is_new));
		json_object_set_new(so, "regression", json_boolean(sm->worse));
		json_object_set_new(so, "note", jstr(sm->note));
		json_object_set_new(so, "fixed_by", jstr(sm->fixed_by));
		json_object_set_new(so, "first_seen", jstr(sm->first_seen));
		json_object_set_new(so, "good", jstr(sm->good));
		json_object_set_new(so, "bad", jstr(sm->bad));
		json_object_set_new(so, "width", json_integer((json_int_t)(sm->bad_rank - sm->good_rank + 1)));
		json_object_set_new(so, "machines", jnames(sm->machines, sm->nmachines));
		json_object_set_new(so, "quiet", jnames(sm->quiet, sm->nquiet));
		buf_printf(&bis, "git bisect start %s %s", sm->bad, sm->good);
		json_object_set_new(so, "bisect", jstr(buf_str(&bis)));
		buf_release(&bis);
		if (o->ncommits) {
			long gp = git_pos(o, sm->good), bp = git_pos(o, sm->bad);
			json_t *cs = json_array();

			for (k = gp >= 0 && bp > gp ? (size_t)gp + 1 : 1; gp >= 0 && bp > gp && k <= (size_t)bp; k++) {
				json_t *c = json_object();
				json_object_set_new(c, "commit", jstr(o->commits[k]));
				json_object_set_new(c, "subject", jstr(o->subjects[k]));
				json_array_append_new(cs, c);
			}
			json_object_set_new(so, "git_commits", cs);
		}
		for (k = 0; k < sm->nalerts; k++) {
			const struct an_alert *al = &a->alerts[sm->alerts[k]];
			const struct an_hseries *s = al->series;
			json_t *ao = json_object(), *iv = json_array();

			json_object_set_new(ao, "id", json_integer(al->id));
			json_object_set_new(ao, "machine", jstr(s->machine));
			json_object_set_new(ao, "benchmark", jstr(s->benchmark));
			json_object_set_new(ao, "config", jstr(s->config));
			json_object_set_new(ao, "metric", jstr(s->metric));
			json_object_set_new(ao, "unit", jstr(s->unit));
			json_object_set_new(ao, "better", json_string(an_direction_name(s->dir)));
			json_object_set_new(ao, "good", jstr(al->good));
			json_object_set_new(ao, "bad", jstr(al->bad));
			json_object_set_new(ao, "before", render_jnum(al->before));
			json_object_set_new(ao, "after", render_jnum(al->after));
			json_object_set_new(ao, "change_pct", render_jnum(al->change_pct));
			json_array_append_new(iv, render_jnum(al->lo_pct));
			json_array_append_new(iv, render_jnum(al->hi_pct));
			json_object_set_new(ao, "interval_pct", iv);
			json_object_set_new(ao, "p", render_jnum(al->p));
			json_object_set_new(ao, "q", render_jnum(al->q));
			json_object_set_new(ao, "verdict", json_string(an_verdict_name(al->verdict)));
			json_array_append_new(als, ao);
		}
		json_object_set_new(so, "alerts", als);
		json_array_append_new(sums, so);
	}
	json_object_set_new(root, "summaries", sums);
	return render_json_write(f, root, err);
}

int render_alerts(FILE *f, const struct an_alerts *a, const struct render_alerts_opts *o,
		  struct kb_err *err)
{
	if (o->fmt == RENDER_ALERTS_JSON)
		return json(f, a, o, err);
	if (text(f, a, o) < 0)
		return kb_err_set(err, "", 0, "write error");
	return 0;
}

int render_alert_chart(struct chart *c, const struct an_alerts *a, size_t alert,
		       struct kb_err *err)
{
	const struct an_alert *al = &a->alerts[alert];
	const struct an_hseries *s = al->series;
	const struct an_hchange *ch = &s->changes[al->change];
	struct buf t = BUF_INIT;
	char what[128];
	size_t i;
	int ser;

	if (!s->npoints || ch->index < 1)
		return kb_err_set(err, "", 0, "the alert's series has no points to draw");
	buf_printf(&t, "%s%s%s %s on %s", s->benchmark, s->config[0] ? " " : "", s->config, s->metric,
		   s->machine ? s->machine : "an unknown machine");
	chart_set_title(c, buf_str(&t));
	buf_release(&t);
	chart_set_axis(c, 'x', "commit", NULL);
	chart_set_axis(c, 'y', s->metric, s->unit[0] ? s->unit : NULL);
	ser = chart_series(c, s->machine ? s->machine : "unknown");
	for (i = 0; i < s->npoints; i++)
		chart_value(c, ser, chart_category(c, s->points[i].variant), s->points[i].median, NAN);
	/* the range: last good, first bad */
	chart_history_mark(c, chart_category(c, s->points[ch->index - 1].variant), "last good",
			   CHART_SAME);
	snprintf(what, sizeof(what), "first bad: %+.1f%% %s", al->change_pct,
		 an_verdict_name(al->verdict));
	chart_history_mark(c, chart_category(c, s->points[ch->index].variant), what,
			   render_chart_verdict(al->verdict));
	return 0;
}
