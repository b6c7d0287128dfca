/* render_alert_chart(): an alert's history chart marks its range, last
 * good and first bad, on the series' medians. */
#include "unit.h"
#include "../../analyze/alerts.h"
#include "../../render/alerts.h"
#include "../../render/chart.h"

#include <stdlib.h>

TEST(alerts_chart_marks_the_range)
{
	static char *names[] = { "c1", "c2", "c3", "c4", "c5", "c6" };
	struct an_hpoint pts[6];
	struct an_hchange ch;
	struct an_hseries s;
	struct an_alert al;
	struct an_alerts a;
	struct kb_err err;
	struct chart *c;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	memset(pts, 0, sizeof(pts));
	for (i = 0; i < 6; i++) {
		pts[i].variant = names[i];
		pts[i].rank = i;
		pts[i].median = i < 3 ? 10.0 : 11.0;
	}
	memset(&ch, 0, sizeof(ch));
	ch.index = 3;
	ch.verdict = AN_VERDICT_WORSE;
	memset(&s, 0, sizeof(s));
	s.benchmark = "hackbench";
	s.config = "tasks=8";
	s.metric = "time";
	s.unit = "s";
	s.machine = "box";
	s.points = pts;
	s.npoints = 6;
	s.changes = &ch;
	s.nchanges = 1;
	memset(&al, 0, sizeof(al));
	al.series = &s;
	al.change_pct = 10.0;
	al.verdict = AN_VERDICT_WORSE;
	memset(&a, 0, sizeof(a));
	a.alerts = &al;
	a.nalerts = 1;
	kb_err_clear(&err);
	c = chart_new(CHART_HISTORY);
	CHECK_INT(render_alert_chart(c, &a, 0, &err), 0);
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f) {
		chart_free(c);
		return;
	}
	CHECK_INT(chart_dump_layout(c, f, &err), 0);
	fclose(f);
	CHECK(strstr(text, " at=c3 verdict=same text=last good") != NULL);
	CHECK(strstr(text, " at=c4 verdict=worse text=first bad: +10.0% worse") != NULL);
	CHECK(strstr(text, "hackbench tasks=8 time on box") != NULL);
	free(text);
	chart_free(c);
	/* a change at the first point has no last good: refused */
	ch.index = 0;
	c = chart_new(CHART_HISTORY);
	CHECK_INT(render_alert_chart(c, &a, 0, &err), -1);
	chart_free(c);
}
