/*
 * alert.h - the alerts kbench alerts stored (tables alert_summary and
 * alert, schema migration 9): what earlier runs reported, and the triage
 * state of each summary.
 *
 * A series and its commits are named by text (machine, benchmark, config,
 * metric; variant names), never by row id, so a re-import keeps them.
 * Which stored alert a change point found today is, is analyze/alerts.c's
 * rule; this file only reads and writes rows.  Every function returns 0,
 * or -1 with err set (and, for a write, nothing changed: one transaction).
 */
#ifndef KB_DB_ALERT_H
#define KB_DB_ALERT_H

#include <stddef.h>

#include "../core/err.h"

struct db;

/* One stored alert (strings owned by the struct db_alerts). */
struct db_alert {
	long long id, summary_id;
	char *machine;		/* "" when not known */
	char *benchmark, *config, *metric;
	char *good, *bad;	/* last good, first bad commit */
	double change_pct, q;	/* NaN when not stored */
	char *verdict;		/* "worse", "better", "changed" */
};

/* One stored summary: its triage. */
struct db_alert_summary {
	long long id;
	char *state;		/* "new", "acknowledged", "invalid", "fixed" */
	char *note, *fixed_by;	/* NULL when none */
	char *good, *bad;	/* its range when last reported */
	char *first_seen;	/* UTC, %Y-%m-%dT%H:%M:%fZ */
};

struct db_alerts {
	struct db_alert *alerts;	/* by id */
	size_t nalerts;
	struct db_alert_summary *summaries;	/* by id */
	size_t nsummaries;
};

/* Every stored alert and summary into out (zeroed first). */
int db_alerts_load(struct db *db, struct db_alerts *out, struct kb_err *err);
void db_alerts_release(struct db_alerts *a);
/* The summary with this id in a (loaded), or NULL. */
const struct db_alert_summary *db_alerts_summary(const struct db_alerts *a, long long id);

/* What one run found, to be written: summaries first (id 0: a new one,
 * created, and its id written back; else its range updated), then alerts
 * (id 0: inserted, its id written back; else updated), each alert in
 * summary s[summary[i]].  One transaction. */
struct db_alert_write {
	struct db_alert_summary *s;
	size_t ns;
	struct db_alert *a;
	const size_t *summary;	/* [na]: index into s */
	size_t na;
};
int db_alerts_save(struct db *db, struct db_alert_write *w, struct kb_err *err);

/* Set summary id's state ("new", "acknowledged", "invalid", "fixed");
 * note and fixed_by replace the stored ones when not NULL.  -1 with err
 * "no alert summary ID" when there is none. */
int db_alert_set_state(struct db *db, long long id, const char *state, const char *note,
		       const char *fixed_by, struct kb_err *err);

#endif
