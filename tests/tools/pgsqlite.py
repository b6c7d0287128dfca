#!/usr/bin/env python3
"""Compare a SQLite store with a PostgreSQL one (tests/cli/pg_schema.sh).

  pgsqlite.py copy STORE.db URI
      Copy every row of every table of the SQLite store into the PostgreSQL
      database URI (which holds db_pg_schema, nothing imported): ids as
      they are, doubles by their shortest exact text (repr), through COPY.
      The metric catalogue is replaced by the store's.  Afterwards each
      identity sequence is moved past the largest id, so that rows inserted
      later get the ids SQLite gives them (max(id) + 1).

  pgsqlite.py compare STORE.db URI
      For every table and view of the store: the same column names in the
      same order on both sides, and the same rows (as a multiset; every
      value of the same type - integer, double, text, NULL - and doubles
      bit for bit).  One PASS or FAIL line each.

  pgsqlite.py ordered STORE.db URI SQL...
      Each SQL query on both sides: the same rows in the same order.

PostgreSQL is reached with psql (no Python driver needed); a relation's
column types come from psql's \\gdesc, its rows from COPY ... TO STDOUT.
"""
import collections
import sqlite3
import struct
import subprocess
import sys

# Tables in an order that satisfies their foreign keys.
TABLE_ORDER = ["source", "variant", "machine", "run", "sample", "job", "summary",
               "metric", "segment", "relabel", "alert_summary", "alert", "env"]


def psql(uri, args, stdin=None):
    r = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri] + args,
                       input=stdin, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError("psql failed: %s" % r.stderr.decode("utf-8", "replace").strip())
    return r.stdout.decode("utf-8")


def copy_escape(v):
    """A value in COPY's text format."""
    if v is None:
        return "\\N"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, bytes):
        raise ValueError("blob values are not part of the store")
    s = str(v)
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r"))


def copy_unescape(s):
    out, i = [], 0
    esc = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\", "b": "\b", "f": "\f", "v": "\v"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(esc.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def convert(text, typ):
    if text == "\\N":
        return None
    v = copy_unescape(text)
    if typ in ("bigint", "integer", "smallint"):
        return int(v)
    if typ in ("double precision", "real"):
        return float(v)
    return v


def pg_query(uri, sql):
    """(names, types, rows) of a query on PostgreSQL."""
    desc = psql(uri, ["-A", "-t", "-F", "\x1f", "-f", "-"],
                stdin=(sql + " \\gdesc\n").encode())
    cols = [line.split("\x1f") for line in desc.splitlines() if line]
    names = [c[0] for c in cols]
    types = [c[1] for c in cols]
    data = psql(uri, ["-c", "COPY (%s) TO STDOUT" % sql])
    rows = []
    for line in data.split("\n"):
        if line == "":
            continue
        fields = line.split("\t")
        rows.append(tuple(convert(f, t) for f, t in zip(fields, types)))
    return names, types, rows


def sqlite_query(db, sql):
    cur = db.execute(sql)
    return [d[0] for d in cur.description], [tuple(r) for r in cur.fetchall()]


def typed(v):
    """A value with its type, doubles by their bits: equal only when the
    same type and the same value."""
    if v is None:
        return (0, "")
    if isinstance(v, int):
        return (1, v)
    if isinstance(v, float):
        return (2, struct.pack(">d", v))
    return (3, v)


def show(row):
    return "(" + ", ".join(repr(v) for v in row) + ")"


def relations(db):
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
        "AND name NOT LIKE 'sqlite_%' ORDER BY type, name")]


def cmd_copy(path, uri):
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    missing = sorted(set(tables) - set(TABLE_ORDER))
    if missing:
        print("pgsqlite: the store has tables this copy does not know: %s" % ", ".join(missing),
              file=sys.stderr)
        return 1
    psql(uri, ["-c", "DELETE FROM metric"])
    for t in TABLE_ORDER:
        names, rows = sqlite_query(db, "SELECT * FROM %s" % t)
        data = "".join("\t".join(copy_escape(v) for v in r) + "\n" for r in rows)
        psql(uri, ["-c", "COPY %s (%s) FROM STDIN" % (t, ", ".join(names))],
             stdin=data.encode("utf-8"))
    # Identity sequences past the copied ids (COPY of explicit ids does not
    # advance them; an empty table leaves its sequence at 1).
    psql(uri, ["-f", "-"], stdin="".join("SELECT setval(pg_get_serial_sequence('%s', 'id'), max(id)) FROM %s "
              "HAVING max(id) IS NOT NULL;\n" % (t, t)
              for t in TABLE_ORDER if t not in ("job", "metric", "segment", "env")).encode())
    return 0


def cmd_compare(path, uri):
    db = sqlite3.connect(path)
    failed = 0
    for rel in relations(db):
        sq_names, sq_rows = sqlite_query(db, "SELECT * FROM %s" % rel)
        try:
            pg_names, _, pg_rows = pg_query(uri, "SELECT * FROM %s" % rel)
        except RuntimeError as e:
            print("FAIL %s: reads on PostgreSQL\n  %s" % (rel, e))
            failed += 1
            continue
        if sq_names != pg_names:
            print("FAIL %s: the same columns\n  sqlite:     %s\n  postgresql: %s"
                  % (rel, ",".join(sq_names), ",".join(pg_names)))
            failed += 1
            continue
        print("PASS %s: the same columns (%s)" % (rel, ",".join(sq_names)))
        a = sorted((tuple(typed(v) for v in r), r) for r in sq_rows)
        b = sorted((tuple(typed(v) for v in r), r) for r in pg_rows)
        ka, kb = [x[0] for x in a], [x[0] for x in b]
        if ka == kb:
            print("PASS %s: the same %d rows, values and types" % (rel, len(ka)))
            continue
        failed += 1
        ca, cb = collections.Counter(ka), collections.Counter(kb)
        only_a = [r for k, r in a if ca[k] > cb[k]][:5]
        only_b = [r for k, r in b if cb[k] > ca[k]][:5]
        print("FAIL %s: the same rows (sqlite %d, postgresql %d)" % (rel, len(ka), len(kb)))
        for r in only_a:
            print("  only in sqlite:     " + show(r))
        for r in only_b:
            print("  only in postgresql: " + show(r))
    return 1 if failed else 0


def cmd_ordered(path, uri, queries):
    db = sqlite3.connect(path)
    failed = 0
    for q in queries:
        _, sq_rows = sqlite_query(db, q)
        _, _, pg_rows = pg_query(uri, q)
        ta = [tuple(typed(v) for v in r) for r in sq_rows]
        tb = [tuple(typed(v) for v in r) for r in pg_rows]
        if ta == tb and ta:
            print("PASS same rows in the same order: %s" % q)
            continue
        failed += 1
        print("FAIL same rows in the same order: %s" % q)
        print("  sqlite:     " + " ".join(show(r) for r in sq_rows[:12]))
        print("  postgresql: " + " ".join(show(r) for r in pg_rows[:12]))
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "copy":
        return cmd_copy(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "compare":
        return cmd_compare(argv[2], argv[3])
    if len(argv) >= 5 and argv[1] == "ordered":
        return cmd_ordered(argv[2], argv[3], argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (RuntimeError, sqlite3.Error, ValueError) as e:
        # Exit 1 is "a check failed, FAIL printed"; anything else is 3.
        print("FAIL pgsqlite.py %s: %s" % (" ".join(sys.argv[1:2]), e))
        sys.exit(3)
