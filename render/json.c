/*
 * json.c - small Jansson helpers shared by the JSON renderers (json.h).
 */
#include "json.h"

#include <math.h>

json_t *render_jnum(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

int render_json_write(FILE *f, json_t *root, struct kb_err *err)
{
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));

	json_decref(root);
	fputc('\n', f);
	if (rc < 0 || ferror(f))
		return kb_err_set(err, "", 0, "write error");
	return 0;
}
