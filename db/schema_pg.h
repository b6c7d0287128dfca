/*
 * schema_pg.h - the store's schema for PostgreSQL: one SQL script that
 * creates, in an empty database, everything the SQLite migrations 1..5 of
 * schema.c build (same tables, columns in the same order, indexes, the
 * metric catalogue, and the views with the same column names).
 *
 * PostgreSQL has no PRAGMA user_version: the version lives in the one-row
 * table kbench_schema(version integer).  The script creates that table
 * (IF NOT EXISTS) but stores no row: the caller runs the script and its
 * INSERT INTO kbench_schema VALUES (PG_SCHEMA_BASE) in one transaction.
 * A PostgreSQL store starts at schema version 5 - there are no older
 * PostgreSQL stores to upgrade - so its migration list starts there: the
 * first PostgreSQL migration is the one that makes version 6.
 */
#ifndef KB_DB_SCHEMA_PG_H
#define KB_DB_SCHEMA_PG_H

/* The schema version db_pg_schema creates. */
#define PG_SCHEMA_BASE 5

extern const char *const db_pg_schema;
/* PostgreSQL's own text of the migrations after PG_SCHEMA_BASE, where
 * SQLite's would not do (types, collation): [0] makes version 6. */
extern const char *const db_pg_migrations[];
extern const int db_pg_nmigrations;

#endif
