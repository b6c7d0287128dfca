/*
 * query.c - the selection's defaults, parsers and match rule (query.h).
 */
#include "query.h"
#include "../core/util.h"
#include "../ingest/record.h"

#include <string.h>

void an_query_init(struct an_query *q)
{
	memset(q, 0, sizeof(*q));
	q->conv = AN_CONV_RAW;
	q->test = AN_TEST_WELCH;
	q->threshold = 1.0;
	q->alpha = 0.05;
}

/* Parsers ---------------------------------------------------------------- */

const char *an_direction_name(enum an_direction d)
{
	return d == AN_DIR_LOWER ? "lower" : d == AN_DIR_HIGHER ? "higher" : "none";
}

const char *an_convention_name(enum an_convention c)
{
	return c == AN_CONV_SPEED ? "speed" : c == AN_CONV_BETTER ? "better" : "raw";
}

const char *an_test_name(enum an_test t)
{
	return t == AN_TEST_MWU ? "mwu" : "welch";
}

int an_direction_parse(const char *s, enum an_direction *d)
{
	if (strcmp(s, "lower") == 0)
		*d = AN_DIR_LOWER;
	else if (strcmp(s, "higher") == 0)
		*d = AN_DIR_HIGHER;
	else if (strcmp(s, "none") == 0)
		*d = AN_DIR_NONE;
	else
		return -1;
	return 0;
}

int an_convention_parse(const char *s, enum an_convention *c)
{
	if (strcmp(s, "raw") == 0)
		*c = AN_CONV_RAW;
	else if (strcmp(s, "speed") == 0)
		*c = AN_CONV_SPEED;
	else if (strcmp(s, "better") == 0)
		*c = AN_CONV_BETTER;
	else
		return -1;
	return 0;
}

int an_test_parse(const char *s, enum an_test *t)
{
	if (strcmp(s, "welch") == 0)
		*t = AN_TEST_WELCH;
	else if (strcmp(s, "mwu") == 0)
		*t = AN_TEST_MWU;
	else
		return -1;
	return 0;
}

int an_kv_parse(char *str, struct an_kv *kv)
{
	char *eq = strchr(str, '=');

	if (!eq || eq == str)
		return -1;
	*eq = '\0';
	kv->key = str;
	kv->value = eq + 1;
	return 0;
}

int an_better_parse(char *str, struct an_better *b)
{
	char *eq = strchr(str, '=');

	if (!eq || eq == str || an_direction_parse(eq + 1, &b->dir) < 0)
		return -1;
	*eq = '\0';
	b->metric = str;
	return 0;
}

void an_list_split(const char *s, char ***out, size_t *n)
{
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = xstrndup(s, len);
		}
		s += len;
		if (*s == ',')
			s++;
	}
}

/* The match rule ---------------------------------------------------------- */

int an_config_match(const struct an_kv *kv, size_t n, const char *config)
{
	return REC_CONFIG_MATCH(config, kv, n);
}

int an_machine_selected(const char *const *machines, size_t n, const char *key)
{
	size_t i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++) {
		const char *m = machines[i];
		if (key ? strcmp(key, m) == 0 ||
			  (strcmp(m, "unknown") == 0 && strncmp(key, "unknown@", 8) == 0)
			: strcmp(m, "unknown") == 0)
			return 1;
	}
	return 0;
}

int an_variant_selected(const char *const *variants, size_t n, const char *name)
{
	size_t i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++)
		if (strcmp(variants[i], name) == 0)
			return 1;
	return 0;
}

int an_query_metric_selected(const struct an_query *q, const char *metric)
{
	size_t i;
	int elapsed = 0, hackbench = 0;

	if (!q->nmetrics)
		return 1;
	for (i = 0; i < q->nmetrics; i++) {
		if (strcmp(q->metrics[i], metric) == 0)
			return 1;
		elapsed |= strcmp(q->metrics[i], "elapsed") == 0;
		hackbench |= strcmp(q->metrics[i], "hackbench") == 0;
	}
	return strcmp(metric, "elapsed_minus_hackbench") == 0 && elapsed && hackbench;
}

int an_query_match(const struct an_query *q, const char *config, const char *machine_key)
{
	return an_config_match(q->config, q->nconfig, config) &&
	       an_machine_selected(q->machines, q->nmachines, machine_key);
}
