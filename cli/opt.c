#include "opt.h"
#include "../core/num.h"
#include "../core/util.h"

#include <stdlib.h>
#include <string.h>

void strlist_push(struct strlist *l, const char *s)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = s;
}

void strlist_release(struct strlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void opt_usage(const struct cmd_usage *u, FILE *f)
{
	const struct opt *o;

	fprintf(f, "usage: kbench %s %s\n", u->verb, u->synopsis);
	if (u->summary)
		fprintf(f, "\n%s\n", u->summary);
	if (!u->opts || u->opts->type == OPT_T_END)
		return;
	fprintf(f, "\noptions:\n");
	for (o = u->opts; o->type != OPT_T_END; o++) {
		char left[64];
		if (o->arg)
			snprintf(left, sizeof(left), "--%s %s", o->name, o->arg);
		else
			snprintf(left, sizeof(left), "--%s", o->name);
		fprintf(f, "  %-26s %s\n", left, o->help);
	}
	fprintf(f, "  %-26s %s\n", "--help", "show this help");
}

static int bad(const struct cmd_usage *u, const char *fmt, const char *what)
{
	fprintf(stderr, "kbench %s: ", u->verb);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	opt_usage(u, stderr);
	return -1;
}

static int set_value(const struct cmd_usage *u, const struct opt *o, const char *v)
{
	double d;
	long l;

	switch (o->type) {
	case OPT_T_STRING:
		*(const char **)o->value = v;
		return 0;
	case OPT_T_LIST:
		strlist_push(o->value, v);
		return 0;
	case OPT_T_DOUBLE:
		if (num_parse(v, strlen(v), &d) < 0)
			return bad(u, "--%s needs a number", o->name);
		*(double *)o->value = d;
		return 0;
	case OPT_T_LONG:
		if (num_parse_long(v, strlen(v), &l) < 0)
			return bad(u, "--%s needs a whole number", o->name);
		*(long *)o->value = l;
		return 0;
	default:
		return -1;
	}
}

int opt_parse(const struct cmd_usage *u, int argc, char **argv, const char ***args, size_t *nargs)
{
	size_t cap = 0;
	int i, only_args = 0;

	*args = NULL;
	*nargs = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o;
		const char *eq;
		size_t nlen;

		if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
			xgrow(args, &cap, *nargs + 1, sizeof(**args));
			(*args)[(*nargs)++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_args = 1;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			opt_usage(u, stdout);
			free(*args);
			*args = NULL;
			return 1;
		}
		if (a[1] != '-') {
			free(*args);
			*args = NULL;
			return bad(u, "unknown option '%s'", a);
		}
		a += 2;
		eq = strchr(a, '=');
		nlen = eq ? (size_t)(eq - a) : strlen(a);
		for (o = u->opts; o && o->type != OPT_T_END; o++)
			if (strlen(o->name) == nlen && strncmp(o->name, a, nlen) == 0)
				break;
		if (!o || o->type == OPT_T_END) {
			free(*args);
			*args = NULL;
			return bad(u, "unknown option '%s'", argv[i]);
		}
		if (o->type == OPT_T_FLAG) {
			if (eq) {
				free(*args);
				*args = NULL;
				return bad(u, "--%s takes no value", o->name);
			}
			*(int *)o->value = 1;
			continue;
		}
		if (eq) {
			if (set_value(u, o, eq + 1) < 0)
				goto fail;
		} else {
			if (i + 1 >= argc) {
				free(*args);
				*args = NULL;
				return bad(u, "--%s needs a value", o->name);
			}
			if (set_value(u, o, argv[++i]) < 0)
				goto fail;
		}
	}
	return 0;
fail:
	free(*args);
	*args = NULL;
	return -1;
}
