/*
 * json.h - small Jansson helpers shared by the JSON renderers.
 */
#ifndef KB_RENDER_JSON_H
#define KB_RENDER_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "../core/err.h"

/* x as a JSON real; null for NaN and infinities, which JSON cannot carry. */
json_t *render_jnum(double x);
/* Write root to f (indent 2, keys in insertion order, 10 significant
 * digits) and a newline, then drop root.  -1 with err on a write error. */
int render_json_write(FILE *f, json_t *root, struct kb_err *err);

#endif
