#!/bin/bash
# The command-line contract: help, version, usage errors exit 2.
. tests/lib.sh

check_status "kbench --version exits 0" 0 "$KB" --version
check_grep "--version prints the version" '^kbench [0-9]+\.[0-9]+' "$TMP/.out"
check_status "kbench help exits 0" 0 "$KB" help
check_grep "help lists import" 'import' "$TMP/.out"
check_status "kbench import --help exits 0" 0 "$KB" import --help
check_grep "import --help documents --variant" '\-\-variant NAME' "$TMP/.out"
check_status "kbench help ls exits 0" 0 "$KB" help ls
check_status "no verb is a usage error" 2 "$KB"
check_status "unknown verb exits 2" 2 "$KB" frobnicate
check_grep "unknown verb names it" "unknown command 'frobnicate'" "$TMP/.out"
check_status "unknown option exits 2" 2 "$KB" import --bogus x
check_grep "unknown option is named" "unknown option '--bogus'" "$TMP/.out"
check_grep "a pointer to the verb's help follows the error" "^run 'kbench import --help'" "$TMP/.out"
check_status "option missing its value exits 2" 2 "$KB" import --variant
check_status "ls on a missing database exits 2" 2 "$KB" ls --db "$TMP/none.db"
check_grep "ls names the missing database" 'no such database' "$TMP/.out"
check_status "import --list-formats" 0 "$KB" import --list-formats
check_grep "numa_test is a format" '^numa_test ' "$TMP/.out"
check_grep "hackbench is a format" '^hackbench ' "$TMP/.out"
check_status "show needs a run id" 2 "$KB" show
