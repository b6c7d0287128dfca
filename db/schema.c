/*
 * schema.c - the schema, as an ordered list of migrations keyed on
 * PRAGMA user_version.  Migration i brings a database from version i to
 * i+1 inside its own transaction.  Never edit a released migration:
 * append a new one.
 */
#include "db_int.h"
#include "schema_metrics.h"
#include "schema_views.h"

#include <stdio.h>
#include <string.h>

static const char *const migrations[] = {
/* 1: the first schema. */
"CREATE TABLE variant (\n"
"  id INTEGER PRIMARY KEY,\n"
"  name TEXT NOT NULL UNIQUE,        -- what is compared: 'A', '3.9.0-mainline_v39+()'\n"
"  kernel TEXT,                      -- kernel release when known\n"
"  description TEXT,                 -- legend text from the post, or the user's\n"
"  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))\n"
");\n"
"CREATE TABLE machine (\n"
"  id INTEGER PRIMARY KEY,\n"
"  name TEXT NOT NULL UNIQUE,\n"
"  cpus INTEGER, nodes INTEGER, description TEXT\n"
");\n"
"-- One imported file or post.  Re-importing the same bytes is a no-op.\n"
"CREATE TABLE source (\n"
"  id INTEGER PRIMARY KEY,\n"
"  path TEXT NOT NULL,\n"
"  sha256 TEXT NOT NULL UNIQUE,\n"
"  size INTEGER NOT NULL,\n"
"  format TEXT NOT NULL,             -- parser names that claimed segments\n"
"  imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))\n"
");\n"
"-- One execution of one benchmark configuration.\n"
"CREATE TABLE run (\n"
"  id INTEGER PRIMARY KEY,\n"
"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,\n"
"  variant_id INTEGER NOT NULL REFERENCES variant(id),\n"
"  machine_id INTEGER REFERENCES machine(id),\n"
"  benchmark TEXT NOT NULL,\n"
"  config TEXT NOT NULL DEFAULT '',  -- canonical sorted 'k=v,k=v'\n"
"  iteration INTEGER NOT NULL,\n"
"  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),\n"
"  error TEXT,\n"
"  line INTEGER                      -- first line of the run in the source\n"
");\n"
"CREATE INDEX run_source ON run(source_id);\n"
"CREATE INDEX run_bench ON run(benchmark, variant_id);\n"
"-- One observed number (tidy layout: a new metric never changes the schema).\n"
"CREATE TABLE sample (\n"
"  id INTEGER PRIMARY KEY,\n"
"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
"  metric TEXT NOT NULL,\n"
"  value REAL NOT NULL,\n"
"  unit TEXT NOT NULL DEFAULT '',\n"
"  job INTEGER                       -- NULL for run-level metrics\n"
");\n"
"CREATE INDEX sample_run ON sample(run_id);\n"
"-- numa_test job rows and their per-node placement.\n"
"CREATE TABLE job (\n"
"  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
"  job INTEGER NOT NULL,\n"
"  initial_node INTEGER,             -- iSched\n"
"  main_node INTEGER,                -- MSched: node with most time\n"
"  moved INTEGER NOT NULL DEFAULT 0, -- ended away from its initial node\n"
"  marked INTEGER NOT NULL DEFAULT 0, -- the '*' as printed (numa_test omits it at times)\n"
"  user_time REAL,\n"
"  PRIMARY KEY (run_id, job)\n"
") WITHOUT ROWID;\n"
"CREATE TABLE placement (\n"
"  run_id INTEGER NOT NULL,\n"
"  job INTEGER NOT NULL,\n"
"  node INTEGER NOT NULL,\n"
"  pct REAL NOT NULL,\n"
"  PRIMARY KEY (run_id, job, node),\n"
"  FOREIGN KEY (run_id, job) REFERENCES job(run_id, job) ON DELETE CASCADE\n"
") WITHOUT ROWID;\n"
"-- Pre-aggregated numbers from published tables (unknown values NULL).\n"
"CREATE TABLE summary (\n"
"  id INTEGER PRIMARY KEY,\n"
"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,\n"
"  variant_id INTEGER NOT NULL REFERENCES variant(id),\n"
"  machine_id INTEGER REFERENCES machine(id),\n"
"  benchmark TEXT NOT NULL,\n"
"  config TEXT NOT NULL DEFAULT '',\n"
"  metric TEXT NOT NULL,\n"
"  mean REAL, sd REAL, n INTEGER, min REAL, max REAL,\n"
"  unit TEXT NOT NULL DEFAULT '',\n"
"  flags TEXT NOT NULL DEFAULT '',   -- 'footnoted', 'estimated', ...\n"
"  line INTEGER\n"
");\n"
"CREATE INDEX summary_source ON summary(source_id);\n"
"CREATE INDEX summary_bench ON summary(benchmark, variant_id);\n"
"-- Metric catalogue: which direction is better drives every verdict.\n"
"-- benchmark '' is the default for any benchmark.\n"
"CREATE TABLE metric (\n"
"  benchmark TEXT NOT NULL DEFAULT '',\n"
"  name TEXT NOT NULL,\n"
"  unit TEXT NOT NULL DEFAULT '',\n"
"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher', 'none')),\n"
"  description TEXT,\n"
"  PRIMARY KEY (benchmark, name)\n"
") WITHOUT ROWID;\n"
DB_METRIC_ROWS
"CREATE VIEW samples_v AS\n"
"  SELECT s.run_id AS run_id, src.path AS source, v.name AS variant, m.name AS machine,\n"
"         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,\n"
"         s.job AS job, s.metric AS metric, s.value AS value, s.unit AS unit\n"
"  FROM sample s JOIN run r ON r.id = s.run_id JOIN source src ON src.id = r.source_id\n"
"  JOIN variant v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n"
"CREATE VIEW runs_v AS\n"
"  SELECT r.id AS run_id, src.path AS source, v.name AS variant, m.name AS machine,\n"
"         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,\n"
"         r.status AS status, r.error AS error\n"
"  FROM run r JOIN source src ON src.id = r.source_id\n"
"  JOIN variant v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n"
"CREATE VIEW placement_v AS\n"
"  SELECT p.run_id AS run_id, v.name AS variant, r.config AS config, p.job AS job,\n"
"         p.node AS node, p.pct AS pct, j.initial_node AS initial_node, j.main_node AS main_node\n"
"  FROM placement p JOIN job j ON j.run_id = p.run_id AND j.job = p.job\n"
"  JOIN run r ON r.id = p.run_id JOIN variant v ON v.id = r.variant_id;\n"
"CREATE VIEW summary_v AS\n"
"  SELECT src.path AS source, v.name AS variant, m.name AS machine, s.benchmark AS benchmark,\n"
"         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,\n"
"         s.min AS min, s.max AS max, s.unit AS unit\n"
"  FROM summary s JOIN source src ON src.id = s.source_id\n"
"  JOIN variant v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id;\n",
/* 2: compact numa_test rows, and no indexes on (benchmark, variant_id):
 * the queries read whole tables in their own order, and keeping those
 * indexes up to date at random places was a sixth of the import time. */
"DROP INDEX run_bench;\n"
"DROP INDEX summary_bench;\n"
/* Compact numa_test rows.  A job's per-node percentages move into the
 * job row as a JSON array (job.pct), and a job's user time is no longer
 * repeated as a per-job 'user' sample: the views and the query functions
 * present both as before.  A numa_test file stored about six rows per
 * job line; now one. */
"ALTER TABLE job ADD COLUMN pct TEXT;  -- JSON array: percent of time on node 0, 1, ...\n"
"UPDATE job SET pct = (SELECT json_group_array(p.pct) FROM\n"
"    (SELECT pct FROM placement p WHERE p.run_id = job.run_id AND p.job = job.job ORDER BY p.node) p)\n"
"  WHERE EXISTS (SELECT 1 FROM placement p WHERE p.run_id = job.run_id AND p.job = job.job);\n"
"DELETE FROM sample WHERE job IS NOT NULL AND metric = 'user' AND unit = 's'\n"
"  AND EXISTS (SELECT 1 FROM job j WHERE j.run_id = sample.run_id AND j.job = sample.job\n"
"              AND j.user_time = sample.value);\n"
"DROP VIEW placement_v;\n"
"DROP TABLE placement;\n"
"-- One row per job and node, as the placement table had them.\n"
"CREATE VIEW placement AS\n"
"  SELECT j.run_id AS run_id, j.job AS job, e.key AS node, CAST(e.value AS REAL) AS pct\n"
"  FROM job j, json_each(j.pct) e WHERE e.type IN ('integer', 'real');\n"
"CREATE VIEW placement_v AS\n"
"  SELECT j.run_id AS run_id, v.name AS variant, r.config AS config, j.job AS job,\n"
"         e.key AS node, CAST(e.value AS REAL) AS pct, j.initial_node AS initial_node,\n"
"         j.main_node AS main_node\n"
"  FROM job j JOIN json_each(j.pct) e JOIN run r ON r.id = j.run_id\n"
"  JOIN variant v ON v.id = r.variant_id WHERE e.type IN ('integer', 'real');\n"
"-- Run-level samples and the per-job user times, as one table of numbers.\n"
"CREATE VIEW sample_all AS\n"
"  SELECT id, run_id, metric, value, unit, job FROM sample\n"
"  UNION ALL\n"
"  SELECT NULL, run_id, 'user', user_time, 's', job FROM job WHERE user_time IS NOT NULL;\n"
"DROP VIEW samples_v;\n"
"CREATE VIEW samples_v AS\n"
"  SELECT s.run_id AS run_id, src.path AS source, v.name AS variant, m.name AS machine,\n"
"         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,\n"
"         s.job AS job, s.metric AS metric, s.value AS value, s.unit AS unit\n"
"  FROM sample_all s JOIN run r ON r.id = s.run_id JOIN source src ON src.id = r.source_id\n"
"  JOIN variant v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n",
/* 3: what must stay apart.  A variant name that a post's own text gives
 * ("A", a table's row label) belongs to that post: variant gains a scope
 * (the SHA-256 of the source that named it, '' for names a user or a
 * result tree gives) and (name, scope) is unique.  The views show each
 * variant by its display name: the name alone, or name@post when two
 * variants share a name.  Each parsed segment is remembered by the
 * SHA-256 of its normalised text, so the same output arriving again (a
 * quoted reply, another encoding, a copied file) is not stored twice;
 * relabel records every change made by 'kbench relabel'. */
"DROP VIEW samples_v;\n"
"DROP VIEW runs_v;\n"
"DROP VIEW placement_v;\n"
"DROP VIEW summary_v;\n"
"CREATE TABLE variant_new (\n"
"  id INTEGER PRIMARY KEY,\n"
"  name TEXT NOT NULL,               -- what is compared: 'A', '3.9.0-mainline_v39+()'\n"
"  scope TEXT NOT NULL DEFAULT '',   -- SHA-256 of the post whose text named it; '' global\n"
"  scope_label TEXT NOT NULL DEFAULT '', -- the post's short name, for display\n"
"  kernel TEXT,                      -- kernel release when known\n"
"  description TEXT,                 -- legend text from the post, or the user's\n"
"  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),\n"
"  UNIQUE (name, scope)\n"
");\n"
"INSERT INTO variant_new (id, name, kernel, description, created_at)\n"
"  SELECT id, name, kernel, description, created_at FROM variant;\n"
"DROP TABLE variant;\n"
"ALTER TABLE variant_new RENAME TO variant;\n"
"-- Each variant with the name it is shown by: name@post when another\n"
"-- variant has the same name and this one belongs to a post.\n"
"CREATE VIEW variant_v AS\n"
"  SELECT v.id AS id, v.name AS name, v.scope AS scope, v.scope_label AS scope_label,\n"
"         CASE WHEN v.scope <> '' AND EXISTS (SELECT 1 FROM variant w\n"
"                                            WHERE w.name = v.name AND w.id <> v.id)\n"
"              THEN v.name || '@' || v.scope_label ELSE v.name END AS display,\n"
"         v.kernel AS kernel, v.description AS description\n"
"  FROM variant v;\n"
"CREATE VIEW samples_v AS\n"
"  SELECT s.run_id AS run_id, src.path AS source, v.display AS variant, m.name AS machine,\n"
"         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,\n"
"         s.job AS job, s.metric AS metric, s.value AS value, s.unit AS unit\n"
"  FROM sample_all s JOIN run r ON r.id = s.run_id JOIN source src ON src.id = r.source_id\n"
"  JOIN variant_v v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n"
"CREATE VIEW runs_v AS\n"
"  SELECT r.id AS run_id, src.path AS source, v.display AS variant, m.name AS machine,\n"
"         r.benchmark AS benchmark, r.config AS config, r.iteration AS iteration,\n"
"         r.status AS status, r.error AS error\n"
"  FROM run r JOIN source src ON src.id = r.source_id\n"
"  JOIN variant_v v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n"
"CREATE VIEW placement_v AS\n"
"  SELECT j.run_id AS run_id, v.display AS variant, r.config AS config, j.job AS job,\n"
"         e.key AS node, CAST(e.value AS REAL) AS pct, j.initial_node AS initial_node,\n"
"         j.main_node AS main_node\n"
"  FROM job j JOIN json_each(j.pct) e JOIN run r ON r.id = j.run_id\n"
"  JOIN variant_v v ON v.id = r.variant_id WHERE e.type IN ('integer', 'real');\n"
"CREATE VIEW summary_v AS\n"
"  SELECT src.path AS source, v.display AS variant, m.name AS machine, s.benchmark AS benchmark,\n"
"         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,\n"
"         s.min AS min, s.max AS max, s.unit AS unit\n"
"  FROM summary s JOIN source src ON src.id = s.source_id\n"
"  JOIN variant_v v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id;\n"
"-- The analysis verbs select in SQL: a comparison of a few variants, or\n"
"-- the history of one machine, in a store of thousands reads its runs\n"
"-- through these, then their samples and jobs by run.\n"
"CREATE INDEX run_variant ON run(variant_id);\n"
"CREATE INDEX run_machine ON run(machine_id);\n"
"CREATE INDEX summary_variant ON summary(variant_id);\n"
"CREATE INDEX variant_label ON variant(scope_label);\n"
"-- One parsed piece of a source, by the SHA-256 of its normalised text\n"
"-- (mail quoting, quoted-printable, line ends and trailing blanks undone).\n"
"CREATE TABLE segment (\n"
"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,\n"
"  first_line INTEGER NOT NULL,\n"
"  last_line INTEGER NOT NULL,\n"
"  format TEXT NOT NULL,\n"
"  hash TEXT NOT NULL,\n"
"  runs INTEGER NOT NULL DEFAULT 0,  -- runs stored from it (0 when a copy)\n"
"  summaries INTEGER NOT NULL DEFAULT 0,\n"
"  copy_of INTEGER                   -- source that first carried it, when this is a copy\n"
");\n"
"CREATE INDEX segment_hash ON segment(hash);\n"
"CREATE INDEX segment_source ON segment(source_id);\n"
"-- What 'kbench relabel' changed, in order; replayed on --replace.\n"
"CREATE TABLE relabel (\n"
"  id INTEGER PRIMARY KEY,\n"
"  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),\n"
"  action TEXT NOT NULL CHECK (action IN ('rename', 'merge', 'move', 'machine')),\n"
"  detail TEXT NOT NULL,             -- what changed, as 'kbench ls' shows it\n"
"  source_sha TEXT,                  -- move/machine: the run's source ...\n"
"  line INTEGER,                     -- ... its first line there ...\n"
"  benchmark TEXT, config TEXT,      -- ... and what it ran (NULL: every run of the source)\n"
"  from_name TEXT, from_scope TEXT,  -- rename/merge/move: the variant before\n"
"  to_name TEXT, to_scope TEXT,      -- ... and after\n"
"  machine TEXT                      -- machine: the machine set\n"
");\n",
/* 4: summary_v gains flags (last: the views are a contract, columns are only
 * added): the summary's flags as stored, "footnoted" for a published cell
 * the post marks (seed 001's "(33.32)"), "" for a plain one. */
"DROP VIEW summary_v;\n"
"CREATE VIEW summary_v AS\n"
"  SELECT src.path AS source, v.display AS variant, m.name AS machine, s.benchmark AS benchmark,\n"
"         s.config AS config, s.metric AS metric, s.mean AS mean, s.sd AS sd, s.n AS n,\n"
"         s.min AS min, s.max AS max, s.unit AS unit, s.flags AS flags\n"
"  FROM summary s JOIN source src ON src.id = s.source_id\n"
"  JOIN variant_v v ON v.id = s.variant_id LEFT JOIN machine m ON m.id = s.machine_id;\n",
/* 5: mail posts.  A message of an mbox or Maildir is a source of its own
 * (path "thread.mbox#<Message-ID>"); its headers, decoded to UTF-8, say
 * who posted it, when and under which subject.  NULL for plain files. */
"ALTER TABLE source ADD COLUMN mail_from TEXT;     -- From: \"Erich Focht <efocht@ess.nec.de>\"\n"
"ALTER TABLE source ADD COLUMN mail_date TEXT;     -- Date: \"2002-10-07 17:20:11 +0200\"\n"
"ALTER TABLE source ADD COLUMN mail_subject TEXT;  -- Subject:\n"
"ALTER TABLE source ADD COLUMN message_id TEXT;    -- Message-ID, without <>\n",
/* 6: a published table's own verdict on a cell (mmtests compare-kernels'
 * "( -12.40%)" and its "*...*" mark, the 0-day robot's %change), and the
 * other statistics it prints (JSON object: Hmean, CoeffVar, BAmean-99 ...).
 * PostgreSQL's text of it is db_pg_migrations[0] (schema_pg.c). */
"ALTER TABLE summary ADD COLUMN pub_change REAL;               -- change vs the table's baseline, %\n"
"ALTER TABLE summary ADD COLUMN pub_mark TEXT NOT NULL DEFAULT '';  -- its significance mark\n"
"ALTER TABLE summary ADD COLUMN stats TEXT;                    -- JSON: other statistics\n"
DB_SUMMARY_V_6,
/* 7: the variant a published change is against (the table's baseline
 * column): a post may re-compare the same cells against another column
 * in a second table, and a verdict is only shown against its own
 * baseline.  A variant id, no foreign key (a variant left without data
 * is deleted); relabel's merges carry it along. */
"ALTER TABLE summary ADD COLUMN pub_base INTEGER;  -- variant(id) pub_change is against\n"
DB_SUMMARY_V_7,
/* 8: a relabel of a published summary (move, machine) names it by its
 * metric too (NULL: the row is a run's). */
"ALTER TABLE relabel ADD COLUMN metric TEXT;  -- move/machine of a summary: its metric\n",
/* 9: kbench alerts.  A change point found along a series (machine x
 * benchmark x config x metric) is an alert; alerts of overlapping commit
 * ranges form one summary, which carries the triage state.  Series and
 * commits are named by text, not by id: a re-import (new ids) or a
 * relabel keeps the states.  PostgreSQL's text is db_pg_migrations[3]. */
"CREATE TABLE alert_summary (\n"
"  id INTEGER PRIMARY KEY,\n"
"  state TEXT NOT NULL DEFAULT 'new'\n"
"    CHECK (state IN ('new', 'acknowledged', 'invalid', 'fixed')),\n"
"  note TEXT,                        -- the triager's words\n"
"  fixed_by TEXT,                    -- fixed: the commit that fixed it\n"
"  good TEXT NOT NULL,               -- the range as last reported: last good ...\n"
"  bad TEXT NOT NULL,                -- ... and first bad commit (variant names)\n"
"  first_seen TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))\n"
");\n"
"CREATE TABLE alert (\n"
"  id INTEGER PRIMARY KEY,\n"
"  summary_id INTEGER NOT NULL REFERENCES alert_summary(id) ON DELETE CASCADE,\n"
"  machine TEXT NOT NULL,            -- the series: '' when not known ...\n"
"  benchmark TEXT NOT NULL, config TEXT NOT NULL, metric TEXT NOT NULL,\n"
"  good TEXT NOT NULL, bad TEXT NOT NULL,  -- last good, first bad commit\n"
"  change_pct REAL,                  -- median after vs before, %\n"
"  q REAL,                           -- Benjamini-Hochberg q of its split\n"
"  verdict TEXT NOT NULL,            -- worse, better or changed\n"
"  first_seen TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))\n"
");\n"
"CREATE INDEX alert_series ON alert (benchmark, metric, config, machine);\n"
"CREATE INDEX alert_by_summary ON alert (summary_id);\n",
/* 10: the environment `kbench run` recorded with each run's source: uname,
 * /proc/cmdline, kernel.numa_balancing, THP, the cpufreq governor, the
 * tool's version line.  A source's rows go with it (replace, delete). */
"CREATE TABLE env (\n"
"  source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,\n"
"  key TEXT NOT NULL,                -- 'uname', 'kernel.numa_balancing', ...\n"
"  value TEXT NOT NULL,\n"
"  PRIMARY KEY (source_id, key)\n"
") WITHOUT ROWID;\n"
"-- each source's settings with the machine and variant of its runs\n"
"CREATE VIEW env_v AS\n"
"  SELECT DISTINCT src.path AS source, m.name AS machine, v.display AS variant,\n"
"         e.key AS key, e.value AS value\n"
"  FROM env e JOIN source src ON src.id = e.source_id JOIN run r ON r.source_id = e.source_id\n"
"  JOIN variant_v v ON v.id = r.variant_id LEFT JOIN machine m ON m.id = r.machine_id;\n",
};

int db_schema_version(void)
{
	return (int)(sizeof(migrations) / sizeof(migrations[0]));
}

const char *db_migration(int i)
{
	return migrations[i];
}

/* The schema version into *version; -1 with err set when it cannot be
 * read (a busy or corrupt database is not version 0).  SQLite keeps it
 * in PRAGMA user_version, PostgreSQL in the table kbench_schema. */
int db_schema_read(struct db *db, int *version, struct kb_err *err)
{
	if (db->ops->schema_read(db, version, err) < 0)
		return -1;
	/* No kbench writes a negative version (migration -1 does not
	 * exist): a store that says so was written by something else. */
	if (*version < 0)
		return kb_err_set(err, db->path, 0, "not a kbench store: its schema version is %d "
				  "(PRAGMA user_version; kbench writes 1 to %d)", *version,
				  db_schema_version());
	return 0;
}

int db_schema_check(struct db *db, struct kb_err *err)
{
	int version;

	if (db_schema_read(db, &version, err) < 0)
		return -1;
	if (version > db_schema_version())
		return kb_err_set(err, db->path, 0,
				  "database schema version %d is newer than this kbench (%d)",
				  version, db_schema_version());
	if (!db->ops->reader_upgrades && version == 0 && db->readonly)
		return kb_err_set(err, db->path, 0, "no kbench store in this database "
				  "(run 'kbench init', or import something, as a role that may create tables)");
	return version < db_schema_version();
}

int db_migrate(struct db *db, struct kb_err *err)
{
	int rc = db_schema_check(db, err);

	if (rc <= 0)
		return rc;
	return db->ops->migrate(db, err);
}
