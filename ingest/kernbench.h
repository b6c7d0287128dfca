/*
 * kernbench.h - kernbench's result lines ("Elapsed Time 424.17 (3.45908)"),
 * one table of label, metric and unit, for the parsers that read them
 * (kernbench.c, and sidebyside.c for two outputs pasted side by side).
 */
#ifndef KB_KERNBENCH_H
#define KB_KERNBENCH_H

enum { KB_NMETRICS = 6 };

struct kernbench_metric {
	const char *label;      /* "Elapsed Time" */
	const char *metric;     /* "elapsed" */
	const char *unit;       /* "s" */
};

extern const struct kernbench_metric kb_metrics[KB_NMETRICS];

#endif
