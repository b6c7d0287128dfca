/*
 * schema_views.h - view texts that both backends' migrations share
 * (schema.c, schema_pg.c): the same SQL in either dialect.  Part of a
 * released migration: never change one, add a new one.
 */
#ifndef KB_DB_SCHEMA_VIEWS_H
#define KB_DB_SCHEMA_VIEWS_H

/* Migration 6: summary_v gains the published verdict and statistics. */
#define DB_SUMMARY_V_6 \
	"DROP VIEW summary_v;\n" \
	"CREATE VIEW summary_v AS\n" \
	"  SELECT src.path AS source, v.display AS variant, m.name AS machine, s.benchmark AS benchmark,\n" \
	"         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,\n" \
	"         s.min AS min, s.max AS max, s.unit AS unit, s.flags AS flags,\n" \
	"         s.pub_change AS pub_change, s.pub_mark AS pub_mark, s.stats AS stats\n" \
	"  FROM summary s JOIN source src ON src.id = s.source_id\n" \
	"  JOIN variant_v v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id;\n"

/* Migration 7: summary_v gains pub_base, the variant the published
 * change is against (NULL when none or unknown). */
#define DB_SUMMARY_V_7 \
	"DROP VIEW summary_v;\n" \
	"CREATE VIEW summary_v AS\n" \
	"  SELECT src.path AS source, v.display AS variant, m.name AS machine, s.benchmark AS benchmark,\n" \
	"         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,\n" \
	"         s.min AS min, s.max AS max, s.unit AS unit, s.flags AS flags,\n" \
	"         s.pub_change AS pub_change, s.pub_mark AS pub_mark, s.stats AS stats,\n" \
	"         pb.display AS pub_base\n" \
	"  FROM summary s JOIN source src ON src.id = s.source_id\n" \
	"  JOIN variant_v v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id\n" \
	"  LEFT JOIN variant_v pb ON pb.id = s.pub_base;\n"

#endif
