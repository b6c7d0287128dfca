#!/bin/bash
# The house rules of docs/design.md, checked on the objects of this build
# (nm's defined and undefined symbols give which file calls which):
#  - no circle of files but cli/main <-> cli/complete (the verb table and
#    its completion);
#  - no file calls up a floor: core < ingest < db < import < analyze <
#    render < cli;
#  - only the backends' files (db/sqlite*.c, db/pg*.c) call sqlite3_* or
#    PQ*, and no other code asks which backend it is on;
#  - no function in cli/ is over 120 lines, and cmd_report.c is at most 200.
# A check fails when the rule breaks; each check names what broke it.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh

command -v nm >/dev/null || { fail "nm (binutils) is installed"; exit 1; }
python3 - "$KB_BIN_DIR" "$PWD" > "$TMP/house.txt" 2>&1 <<'PY'
import collections, os, re, subprocess, sys

chk, src = sys.argv[1], sys.argv[2]
floors = ['core', 'ingest', 'db', 'import', 'analyze', 'render', 'cli']
defs, uses = {}, {}
for d in floors:
    od = os.path.join(chk, d)
    if not os.path.isdir(od):
        continue
    for o in sorted(os.listdir(od)):
        f = d + '/' + o[:-2]
        if not o.endswith('.o') or not os.path.exists(os.path.join(src, f + '.c')):
            continue        # a stale object of a file that is gone
        out = subprocess.run(['nm', os.path.join(od, o)], capture_output=True, text=True).stdout
        dd, uu = set(), set()
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBR':
                dd.add(p[2])
            elif len(p) == 2 and p[0] == 'U':
                uu.add(p[1])
        defs[f], uses[f] = dd, uu
print("files %d" % len(defs))
owner = {s: f for f, dd in defs.items() for s in dd}
g = collections.defaultdict(set)
for f, uu in uses.items():
    for s in uu:
        if s in owner and owner[s] != f:
            g[f].add(owner[s])

# circles: strongly connected components of more than one file
index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(g[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v:
                break
        if len(c) > 1:
            comps.append(sorted(c))
for v in sorted(defs):
    if v not in index:
        visit(v)
allowed = {'cli/main', 'cli/complete'}
for c in comps:
    if set(c) <= allowed:
        continue
    print("circle: " + " <-> ".join(c))
for f in sorted(g):
    for t in sorted(g[f]):
        a, b = f.split('/')[0], t.split('/')[0]
        if floors.index(b) > floors.index(a):
            syms = sorted(s for s in uses[f] if owner.get(s) == t)
            print("up: %s -> %s (%s)" % (f, t, ", ".join(syms[:4])))
for f, uu in sorted(uses.items()):
    if re.match(r'^db/(sqlite|pg)(_\w+)?$', f):
        continue        # a backend: db/sqlite*.c, db/pg*.c
    bad = sorted(s for s in uu if s.startswith('sqlite3_') or re.match(r'^PQ[a-z]', s))
    if bad:
        print("backend: %s calls %s" % (f, ", ".join(bad[:4])))
PY
check_eq "house: the objects of this build were read" "$(grep -c '^files [1-9]' "$TMP/house.txt")" "1"
check_eq "house: no circle of files but cli/main <-> cli/complete" \
	"$(grep '^circle:' "$TMP/house.txt")" ""
check_eq "house: no file calls up a floor" "$(grep '^up:' "$TMP/house.txt")" ""
check_eq "house: only db/sqlite*.c and db/pg*.c call a backend's library" \
	"$(grep '^backend:' "$TMP/house.txt")" ""
check_eq "house: sqlite3.h and libpq-fe.h are included only in db/sqlite.c, db/pg.c (and db/'s private header)" \
	"$(grep -l -E '#include <(sqlite3|libpq-fe)\.h>' core/*.[ch] ingest/*.[ch] db/*.[ch] import/*.[ch] \
		analyze/*.[ch] render/*.[ch] cli/*.[ch] | grep -v -x -E 'db/(sqlite|pg)(_[a-z]+)?\.c|db/db_int\.h|db/backend\.h')" ""
check_eq "house: no code outside the backends asks which backend it is on" \
	"$(grep -l -E 'DB_PG|DB_SQLITE|db_is_pg' core/*.[ch] ingest/*.[ch] db/*.[ch] import/*.[ch] \
		analyze/*.[ch] render/*.[ch] cli/*.[ch] | grep -v -x -E 'db/(sqlite|pg)(_[a-z]+)?\.c')" ""
# Function bodies: from a line that opens a definition at column 0 to
# the closing brace at column 0.
long=$(awk 'FNR == 1 { start = 0 }
	/^[a-z].*\(/ && !/;[[:space:]]*$/ { name = $0; start = FNR }
	/^}/ && start { if (FNR - start > 120) printf "%s:%d: %d lines\n", FILENAME, start, FNR - start; start = 0 }' cli/*.c)
check_eq "house: no function in cli/ is over 120 lines" "$long" ""
lines=$(wc -l < cli/cmd_report.c)
check_eq "house: cli/cmd_report.c is options and wiring (at most 200 lines, has $lines)" \
	"$([ "$lines" -le 200 ] && echo ok)" "ok"
