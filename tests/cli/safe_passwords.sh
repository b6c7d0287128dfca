#!/bin/bash
# Passwords never show (issue 22, item 2): every shape of password libpq
# reads ('?', '#', '/', '@' in a URI's password, keyword/value, an
# upper-case scheme, a service file, a URI query) given to every verb and
# to the report; none is found in any output, error or file, and none is
# taken for a SQLite file (no file of that name is created).  Against a
# server that is not there in both passes; in the PostgreSQL pass of
# tests/run also against the test cluster with password logins.
. tests/lib.sh
KB=${KB_REAL:-$KB}
unset KBENCH_DB

SEED0="$SAMPLES/seeds/000_009ccda627cb3777.txt"
W="$TMP/work"
mkdir -p "$W"
"$KB" import --db "$TMP/ref.db" "$SEED0" >/dev/null 2>&1

# every verb against store $1 (a server), from directory $W; all output
# (and the files the verbs write) appended to $TMP/all.out
every_verb() {
	local d=$1
	(
		cd "$W" || exit 1
		"$KB" import --db "$d" "$SEED0"
		"$KB" import --db "$d" --dry-run "$SEED0"
		"$KB" ls --db "$d"
		"$KB" show --db "$d" 1
		"$KB" compare --db "$d"
		"$KB" export --db "$d"
		"$KB" chart --db "$d" --type bars --bench hackbench -o "$TMP/pw.svg"
		"$KB" report --db "$d" -o "$TMP/pw.html"
		"$KB" report --db "$d" --format text
		"$KB" regress --db "$d" --baseline A@000
		"$KB" history --db "$d" --metric time
		"$KB" relabel --db "$d" rename A A2
		"$KB" relabel --db "$d" --list
		"$KB" init --db "$d"
		"$KB" copy --from "$d" --to "$TMP/pwcopy.db"
		"$KB" copy --from "$TMP/ref.db" --to "$d"
		KBENCH_DB=$d "$KB" ls
		KBENCH_DB=$d "$KB" report --format text
	) >>"$TMP/all.out" 2>&1
	cat "$TMP/pw.html" "$TMP/pw.svg" >>"$TMP/all.out" 2>/dev/null
	rm -f "$TMP/pw.html" "$TMP/pw.svg"
}

# no_secret DESC SECRET...: none of the secrets anywhere in $TMP/all.out
no_secret() {
	local d=$1 s found=""
	shift
	for s in "$@"; do
		grep -qF -- "$s" "$TMP/all.out" && found="$found '$s'"
	done
	if [ -z "$found" ]; then pass "$d"; else
		fail "$d" "found$found in:" "$(grep -F -e "$1" "$TMP/all.out" | head -5)"; fi
}

# --- a server that is not there ---------------------------------------------------
cat >"$TMP/pg_service.conf" <<'EOF'
[kbsafe]
host=/nonexistent/sock
dbname=kb
user=frank
password=SvcPw5secret
EOF
export PGSERVICEFILE="$TMP/pg_service.conf"
S=%2Fnonexistent%2Fsock
shapes=(
	"postgresql://bob:Pa?ss#Wd9x@$S/kb"
	"postgresql://alice:pa/ssWD7@$S/kb"
	"postgresql://carol:p@ssAT8@$S/kb"
	"postgresql://carol:p%40ssPE8@$S/kb"
	"host=/nonexistent/sock user=dave password=KeyVal9secret dbname=kb"
	"host=/nonexistent/sock user=dave password='Sp ace3 secret' dbname=kb"
	"POSTGRESQL://erin:UpPer6secret@$S/kb"
	"Postgres://erin:MiXed6secret@$S/kb"
	"service=kbsafe"
	"postgresql://gina@$S/kb?password=QuEry4secret"
	"postgresql://hal:bad%ZZpw9@$S/kb"
	"dbname=kb password=NoHost2secret"
)
secrets=("ss#Wd9x" "Pa?ss" "ssWD7" "ssAT8" "p@ss" "ssPE8" "KeyVal9" "ace3 secret" "UpPer6" "MiXed6"
	"SvcPw5" "QuEry4" "ZZpw9" "NoHost2")
: >"$TMP/all.out"
for d in "${shapes[@]}"; do
	check_status "ls --db '${d:0:16}...': exit 2 (no server)" 2 "$KB" ls --db "$d"
	check_grep "... a connection error, not a SQLite file" "cannot connect" "$TMP/.out"
	every_verb "$d"
done
no_secret "no password in any output, error or file (no server)" "${secrets[@]}"
check_grep "... the URI's user-info is shown masked" "bob:\*\*\*@" "$TMP/all.out"
check_grep "... the keyword/value string too" "password=\*\*\* dbname=kb" "$TMP/all.out"
check_grep "... a '/' in the password is refused with the reason" "percent-encode '/' as %2F" "$TMP/all.out"
check_eq "no file was created for a connection string" "$(ls -A "$W")" ""

# --- the test cluster, with password logins -----------------------------------------
if [ -n "${KBENCH_PG_URI-}" ] && [ -n "${KBENCH_PG_DIR-}" ]; then
	BASE=$KBENCH_PG_URI
	sock=${BASE#postgresql://postgres@}
	sock=${sock%/}
	sockdir=$(printf '%b' "${sock//%/\\x}")
	q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$1" -c "$2"; }
	q "${BASE}postgres" "DROP DATABASE IF EXISTS kb_safe" >/dev/null
	q "${BASE}postgres" "CREATE DATABASE kb_safe" >/dev/null
	"$KB" import --db "${BASE}kb_safe" "$SEED0" >/dev/null 2>&1
	q "${BASE}kb_safe" "DROP ROLE IF EXISTS kb_safe_q; DROP ROLE IF EXISTS kb_safe_s;
		CREATE ROLE kb_safe_q LOGIN PASSWORD 'Qu?ss#Wd9'; CREATE ROLE kb_safe_s LOGIN PASSWORD 'Sl/as@h8';
		GRANT CONNECT ON DATABASE kb_safe TO kb_safe_q, kb_safe_s;
		GRANT USAGE ON SCHEMA public TO kb_safe_q, kb_safe_s;
		GRANT SELECT ON ALL TABLES IN SCHEMA public TO kb_safe_q, kb_safe_s" >/dev/null
	scripts/pg-cluster password-auth "$KBENCH_PG_DIR" kb_safe_q >/dev/null 2>&1
	scripts/pg-cluster password-auth "$KBENCH_PG_DIR" kb_safe_s >/dev/null 2>&1
	cat >"$TMP/pg_service.conf" <<EOF
[kbsafe]
host=$sockdir
dbname=kb_safe
user=kb_safe_q
password=Qu?ss#Wd9
EOF
	good=(
		"postgresql://kb_safe_q:Qu?ss#Wd9@$sock/kb_safe"
		"POSTGRESQL://kb_safe_q:Qu?ss#Wd9@$sock/kb_safe"
		"postgresql://kb_safe_s:Sl%2Fas%40h8@$sock/kb_safe"
		"host=$sockdir user=kb_safe_s password='Sl/as@h8' dbname=kb_safe"
		"host=$sockdir user=kb_safe_q password=Qu?ss#Wd9 dbname=kb_safe"
		"service=kbsafe"
		"postgresql://kb_safe_q@$sock/kb_safe?password=Qu%3Fss%23Wd9"
	)
	: >"$TMP/all.out"
	for d in "${good[@]}"; do
		check "server: ls --db '${d:0:24}...' connects" "$KB" ls --db "$d"
		check "server: report -o with that login" "$KB" report --db "$d" -o "$TMP/r.html"
		cat "$TMP/.out" "$TMP/r.html" >>"$TMP/all.out"
		every_verb "$d"
	done
	for d in "postgresql://kb_safe_s:Sl/as@h8@$sock/kb_safe" "postgresql://kb_safe_q:WrongQ?x9@$sock/kb_safe"; do
		check_status "server: a password libpq cannot read or a wrong one: exit 2" 2 "$KB" ls --db "$d"
		every_verb "$d"
	done
	no_secret "server: no password in any output, error or file" "Qu?ss" "ss#Wd9" "Sl/as" "as@h8" \
		"Sl%2Fas" "Qu%3Fss" "WrongQ"
	check_grep "server: the report names the store, masked" "kb_safe_q:\*\*\*@" "$TMP/all.out"
	check_eq "server: no file was created for a connection string" "$(ls -A "$W")" ""
fi
