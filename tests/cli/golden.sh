#!/bin/bash
# Golden outputs, in the style of git's test_cmp: every case of
# tests/golden/cases runs a kbench command on a store built here from the
# seeds, the corpora or a generated tree, and its output (standard output
# and error, then "[exit N]" when N is not 0) must equal tests/golden/NAME
# byte for byte after masking what varies from run to run.  Layout dumps
# (NAME.layout) must also pass tests/tools/layout_check.py.
#
# GOLDEN_UPDATE=1 (make golden-update) rewrites the files instead; review
# the diff before committing it.
. "$(dirname "$0")/../lib.sh"
GOLDEN=$PWD/tests/golden
export SOURCE_DATE_EPOCH=0
# Text is wrapped before paths are masked, so the paths must be as long
# wherever the tests run (a checkout anywhere, any $TMPDIR): the stores,
# the samples and the corpora are reached through one directory of a fixed
# length.
rm -rf "$TMP"
TMP=$(mktemp -d /tmp/kbgold.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
ln -s "$SAMPLES" "$TMP/s"
ln -s "$SHARED" "$TMP/h"
SAMPLES=$TMP/s
SHARED=$TMP/h

build_store() {     # NAME: import what the store holds into $TMP/NAME.db
	local db=$TMP/$1.db f n
	[ -f "$db" ] && return 0
	case $1 in
	seed000) "$KB" import --db "$db" "$SAMPLES/seeds/000_009ccda627cb3777.txt" ;;
	seed001) "$KB" import --db "$db" "$SAMPLES/seeds/001_84b93bea668f5b54.txt" ;;
	seed01) "$KB" import --db "$db" "$SAMPLES/seeds/000_009ccda627cb3777.txt" \
			"$SAMPLES/seeds/001_84b93bea668f5b54.txt" ;;
	seeds)
		for f in "$SAMPLES"/seeds/*.txt; do
			n=$(basename "$f" | cut -c1-3)
			"$KB" import --db "$db" --variant-prefix "post$n:" "$f" || return 1
		done ;;
	lkp) "$KB" import --db "$db" "$SAMPLES/lkp" ;;
	mmtests) "$KB" import --db "$db" "$SAMPLES/mmtests" ;;
	numatest) "$KB" import --db "$db" "$SAMPLES/numatest" ;;
	kernbench) "$KB" import --db "$db" "$SHARED/corpus/kernbench" ;;
	gen20)
		bash tests/tools/genstore.sh variants20 "$TMP/gen20" &&
		"$KB" import --db "$db" "$TMP/gen20" ;;
	hist500)
		bash tests/tools/genstore.sh history500 "$TMP/hist500" &&
		"$KB" import --db "$db" "$TMP/hist500" ;;
	*) echo "unknown store $1"; return 1 ;;
	esac >"$TMP/import-$1.log" 2>&1
}

mask() {
	# The PostgreSQL pass: a store's database is shown as its path, also
	# where the report wrapped its URI (after a '/') onto more lines.
	if [ -n "${KBENCH_PG_URI-}" ] && [ -n "${store-}" ]; then
		U=$KBENCH_PG_URI P=$TMP/$store.db perl -0pe '
			BEGIN { $p = join("", map { quotemeta($_) . ($_ eq "/" ? "\\s*" : "") } split //, $ENV{U}) }
			s/from\s+$p\s*kbt_[0-9a-f]+/from $ENV{P}/g; s/$p\s*kbt_[0-9a-f]+/$ENV{P}/g'
	else
		cat
	fi | sed -e "s#$SAMPLES#SAMPLES#g" -e "s#$SHARED#SHARED#g" -e "s#$TMP#TMP#g" \
	    -E -e 's#[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z#TIME#g'
}

updated=0
while read -r name store args; do
	case $name in ''|'#'*) continue ;; esac
	args=${args//SAMPLES/$SAMPLES}
	args=${args//SHARED/$SHARED}
	eval "set -- $args"
	if [ "$store" != - ]; then
		if ! build_store "$store"; then
			fail "golden $name: store $store" "$(head -c 2000 "$TMP/import-$store.log")"
			continue
		fi
		export KBENCH_DB=$TMP/$store.db
	else
		export KBENCH_DB=$TMP/none.db
	fi
	(cd "$TMP" && "$KB" "$@") >"$TMP/actual" 2>&1
	rc=$?
	[ "$rc" != 0 ] && echo "[exit $rc]" >>"$TMP/actual"
	mask <"$TMP/actual" >"$TMP/actual.masked"
	if [ -n "$GOLDEN_UPDATE" ]; then
		if ! cmp -s "$TMP/actual.masked" "$GOLDEN/$name"; then
			cp "$TMP/actual.masked" "$GOLDEN/$name"
			updated=$((updated + 1))
			echo "updated $name"
		fi
	fi
	if [ ! -f "$GOLDEN/$name" ]; then
		fail "golden $name" "no tests/golden/$name (make golden-update writes it)"
	elif cmp -s "$GOLDEN/$name" "$TMP/actual.masked"; then
		pass "golden $name"
	else
		fail "golden $name: kbench $args" "$(diff -u "$GOLDEN/$name" "$TMP/actual.masked" | head -40)"
	fi
	case $name in
	*.layout)
		if python3 tests/tools/layout_check.py "$TMP/actual.masked" >"$TMP/lc.out" 2>&1; then
			pass "layout check $name"
		else
			fail "layout check $name" "$(head -20 "$TMP/lc.out")"
		fi ;;
	esac
done <"$GOLDEN/cases"
[ -n "$GOLDEN_UPDATE" ] && echo "golden-update: $updated file(s) rewritten"
exit 0
