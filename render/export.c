/*
 * export.c - stored samples and summaries (db/query.h) as CSV or JSON
 * records for other tools: what kbench export --what samples|summary
 * writes (table.h).
 */
#include "table_int.h"
#include "json.h"
#include "../core/util.h"
#include "../db/query.h"

/* Stored samples and summaries ---------------------------------------------- */

static const char *variant_name(const struct db_qdata *q, long long id)
{
	size_t i;

	for (i = 0; i < q->nvariants; i++)
		if (q->variants[i].id == id)
			return q->variants[i].name;
	return "";
}

static int emit_records(FILE *f, enum render_fmt fmt, const char *what,
			const char *const *cols, size_t ncols, json_t *records,
			struct kb_err *err)
{
	size_t i, k;

	if (fmt == RENDER_JSON) {
		json_t *root = json_object();
		json_object_set_new(root, "kbench", json_string(what));
		json_object_set_new(root, "version", json_integer(1));
		json_object_set_new(root, "rows", records);
		return render_json_dump(f, root, err);
	}
	if (render_csv_record(f, cols, ncols) < 0)
		goto fail;
	for (i = 0; i < json_array_size(records); i++) {
		json_t *o = json_array_get(records, i);
		char *owned[32];
		const char *fields[32];
		int rc;

		for (k = 0; k < ncols && k < 32; k++)
			fields[k] = owned[k] = render_json_field(json_object_get(o, cols[k]));
		rc = render_csv_record(f, fields, ncols);
		for (k = 0; k < ncols && k < 32; k++)
			free(owned[k]);
		if (rc < 0)
			goto fail;
	}
	json_decref(records);
	return 0;
fail:
	json_decref(records);
	return kb_err_set(err, "", 0, "write error");
}

int render_samples(FILE *f, const struct db_qdata *q, enum render_fmt fmt, struct kb_err *err)
{
	static const char *const cols[] = {
		"variant", "machine", "benchmark", "config", "run", "iteration", "status",
		"job", "metric", "value", "unit",
	};
	json_t *recs = json_array();
	size_t i;

	for (i = 0; i < q->nsamples; i++) {
		const struct db_qsample *s = &q->samples[i];
		const struct db_qrun *r = &q->runs[s->run];
		json_t *o = json_object();

		json_object_set_new(o, "variant", json_string(variant_name(q, r->variant_id)));
		json_object_set_new(o, "machine", render_jstr(r->machine));
		json_object_set_new(o, "benchmark", json_string(r->benchmark));
		json_object_set_new(o, "config", json_string(r->config));
		json_object_set_new(o, "run", json_integer(r->id));
		json_object_set_new(o, "iteration", json_integer(r->iteration));
		json_object_set_new(o, "status", json_string(r->ok ? "ok" : "failed"));
		json_object_set_new(o, "job", s->job < 0 ? json_null() : json_integer(s->job));
		json_object_set_new(o, "metric", json_string(s->metric));
		json_object_set_new(o, "value", render_jnum(s->value));
		json_object_set_new(o, "unit", json_string(s->unit ? s->unit : ""));
		json_array_append_new(recs, o);
	}
	return emit_records(f, fmt, "samples", cols, ARRAY_SIZE(cols), recs, err);
}

int render_summaries(FILE *f, const struct db_qdata *q, enum render_fmt fmt,
		     struct kb_err *err)
{
	static const char *const cols[] = {
		"variant", "benchmark", "config", "metric", "mean", "sd", "n", "min", "max",
		"unit", "flags",
	};
	json_t *recs = json_array();
	size_t i;

	for (i = 0; i < q->nsummaries; i++) {
		const struct db_qsummary *s = &q->summaries[i];
		json_t *o = json_object();

		json_object_set_new(o, "variant", json_string(variant_name(q, s->variant_id)));
		json_object_set_new(o, "benchmark", json_string(s->benchmark));
		json_object_set_new(o, "config", json_string(s->config));
		json_object_set_new(o, "metric", json_string(s->metric));
		json_object_set_new(o, "mean", render_jnum(s->mean));
		json_object_set_new(o, "sd", render_jnum(s->sd));
		json_object_set_new(o, "n", s->n > 0 ? json_integer(s->n) : json_null());
		json_object_set_new(o, "min", render_jnum(s->min));
		json_object_set_new(o, "max", render_jnum(s->max));
		json_object_set_new(o, "unit", json_string(s->unit ? s->unit : ""));
		json_object_set_new(o, "flags", json_string(s->flags ? s->flags : ""));
		json_array_append_new(recs, o);
	}
	return emit_records(f, fmt, "summaries", cols, ARRAY_SIZE(cols), recs, err);
}
