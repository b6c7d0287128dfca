/*
 * chart_layout.c - the layout entry point: checks the canvas and the
 * data, picks the chart kind (chart_kinds.c) by the chart's type, which
 * draws its data marks in the frame chart_frame.c builds; and frees a
 * layout.  Sits above both, so the kinds and the frame kit never call
 * back up here.
 */
#include "chart_int.h"
#include "chart_kinds.h"
#include "../core/err.h"
#include "../core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int chart_layout_compute(const struct chart *c, struct chart_gc *gc,
			 struct chart_layout *lay, struct kb_err *err)
{
	memset(lay, 0, sizeof(*lay));
	lay->c = c;
	lay->width = fmin(c->width, CHART_MAX_SIDE);
	lay->height = fmin(c->height, CHART_MAX_SIDE);
	if (!(c->width >= 100 && c->height >= 80))
		return kb_err_set(err, NULL, 0, "chart: canvas %gx%g is too small", c->width, c->height);
	if (c->type == CHART_PLACEMENT ? c->npanels == 0 : (c->nvals == 0))
		return kb_err_set(err, NULL, 0, "chart: no data to draw");
	if (c->note)
		lay->note = xstrdup(c->note);
	switch (c->type) {
	case CHART_BARS:
		lay_bars(lay, gc);
		break;
	case CHART_LINES:
		lay_lines(lay, gc);
		break;
	case CHART_POINTS:
		lay_points(lay, gc);
		break;
	case CHART_PLACEMENT:
		lay_placement(lay, gc);
		break;
	case CHART_NODELOAD:
		lay_nodeload(lay, gc);
		break;
	case CHART_CHANGE:
		lay_change(lay, gc);
		break;
	case CHART_HISTORY:
		lay_history(lay, gc);
		break;
	default:
		return kb_err_set(err, NULL, 0, "chart: unknown type %d", (int)c->type);
	}
	lay->width = ceil(lay->width - 1e-6);
	lay->height = ceil(lay->height - 1e-6);
	return 0;
}

void chart_layout_release(struct chart_layout *lay)
{
	size_t i;

	for (i = 0; i < lay->nmarks; i++) {
		free(lay->marks[i].info);
		free(lay->marks[i].text);
	}
	free(lay->marks);
	for (i = 0; i < lay->nlentries; i++)
		free(lay->lentries[i].label);
	free(lay->lentries);
	free(lay->x.ticks);
	free(lay->y.ticks);
	free(lay->title_text);
	free(lay->note);
	memset(lay, 0, sizeof(*lay));
}
