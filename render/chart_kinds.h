/*
 * chart_kinds.h - the layout of each chart kind (chart_kinds.c): bars,
 * nodeload, points, lines, history, change and placement.  Each turns
 * the model into data marks within the frame chart_frame.c builds;
 * chart_layout_compute() (chart_layout.c) picks one by the chart's type.
 */
#ifndef KB_CHART_KINDS_H
#define KB_CHART_KINDS_H

#include "chart_int.h"

void lay_bars(struct chart_layout *L, struct chart_gc *gc);
void lay_nodeload(struct chart_layout *L, struct chart_gc *gc);
void lay_points(struct chart_layout *L, struct chart_gc *gc);
void lay_lines(struct chart_layout *L, struct chart_gc *gc);
void lay_history(struct chart_layout *L, struct chart_gc *gc);
void lay_change(struct chart_layout *L, struct chart_gc *gc);
void lay_placement(struct chart_layout *L, struct chart_gc *gc);

#endif
