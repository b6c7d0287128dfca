#!/bin/bash
# kbench report: HTML and text content, assets, and HTML escaping of every
# user-supplied string (variant names, descriptions, paths).
. "$(dirname "$0")/../lib.sh"
PNGINFO=${PNGINFO:-$KB_BIN_DIR/pnginfo}
SEED000=$SAMPLES/seeds/000_009ccda627cb3777.txt
SEED003=$SAMPLES/seeds/003_7caa478a1fca98f9.txt

# ---- seed 000 (hackbench, numa_test, kernbench tables of A..E) ----
export KBENCH_DB=$TMP/s000.db
check "import seed 000" "$KB" import "$SEED000"
check "report html" "$KB" report -o "$TMP/r.html"
check_grep "html: doctype" '^<!DOCTYPE html>' "$TMP/r.html"
check_grep "html: a section per benchmark" 'id="bench-[0-9]+"><h2>hackbench</h2>' "$TMP/r.html"
check_grep "html: kernbench section" '<h2>kernbench</h2>' "$TMP/r.html"
check_grep "html: the verdict summary" '<h2>Verdicts</h2>' "$TMP/r.html"
check_grep "html: worst regressions listed" 'Worst regressions' "$TMP/r.html"
check_grep "html: hackbench A at N=10 as published" '>5\.54\(0\.10\)<' "$TMP/r.html"
check_grep "html: C at N=10 is a coloured 'better' cell" 'class="num v-better"[^>]*>-76\.4%' "$TMP/r.html"
check_grep "html: variant descriptions" 'vanilla O\(1\) scheduler from 2\.5\.39' "$TMP/r.html"
check_grep "html: methods footnote" 'id="methods"' "$TMP/r.html"
check_grep "html: methods name the test and alpha" 'q &lt; 0\.05' "$TMP/r.html"
check_grep "html: flags explained" 'very noisy \(CV &gt; 15%\)' "$TMP/r.html"
check_eq "html: no script, no external fetches" \
	"$(grep -ciE '<script|<link|src="https?:|@import' "$TMP/r.html")" 0
n_img=$(grep -o '<img src="data:image/png;base64,' "$TMP/r.html" | wc -l)
check "html: charts embedded as data: URIs" test "$n_img" -ge 4
check_grep "html: the findings of kbench regress at the top" '<h2>Findings</h2>' "$TMP/r.html"
check_eq "html: findings come before the verdicts" \
	"$(grep -o '<h2>[A-Za-z ]*</h2>' "$TMP/r.html" | head -2 | tr '\n' ' ')" "<h2>Findings</h2> <h2>Verdicts</h2> "

check "report with --baseline" "$KB" report --bench hackbench --baseline C -o "$TMP/rc.html"
check_grep "baseline C marked" 'C <small>\(baseline\)</small>' "$TMP/rc.html"
check_status "unknown format" 2 "$KB" report --format pdf
check_status "--assets needs html" 2 "$KB" report --format text --assets "$TMP/a"
check_status "nothing selected" 2 "$KB" report --bench nosuch -o "$TMP/x.html"

# ---- --assets: PNG files beside the page ----
mkdir -p "$TMP/out"
check "report --assets" "$KB" report --bench hackbench -o "$TMP/out/r.html" --assets "$TMP/out/img"
check_grep "assets: referenced relative to the page" '<img src="img/chart-1\.png"' "$TMP/out/r.html"
check_eq "assets: no data: URIs" "$(grep -c 'data:image' "$TMP/out/r.html")" 0
check_grep "assets: PNG files decode" ' 720x380 colors=' <("$PNGINFO" "$TMP/out/img/chart-1.png")

# ---- text ----
check "report text" "$KB" report --format text -o "$TMP/r.txt"
check_grep "text: title" '^kbench report$' "$TMP/r.txt"
check_grep "text: hackbench table as compare prints it (with n)" '^10 +4 +5\.54\(0\.10\) +5\.37\(0\.06\) +-3\.1' "$TMP/r.txt"
check_grep "text: verdict counts" '^[0-9]+ comparisons: [0-9]+ worse, [0-9]+ better' "$TMP/r.txt"
check_grep "text: methods" '^Methods$' "$TMP/r.txt"
check_eq "text: no HTML" "$(grep -c '<[a-z]' "$TMP/r.txt")" 0
prose_long=$(sed -n '1,/^=====/p' "$TMP/r.txt" | awk 'length > 80' | wc -l)
check_eq "text: prose before the tables wrapped at 80 columns" "$prose_long" 0
# the report keeps 80 columns: its first block of columns is A, B, C
"$KB" compare --bench hackbench --variants A,B,C > "$TMP/cmp.txt" 2>&1
check "text: the hackbench table is compare's" grep -qxF "$(sed -n 2p "$TMP/cmp.txt")" "$TMP/r.txt"

# ---- numa_test job tables and heatmaps from seed 003's detailed blocks ----
export KBENCH_DB=$TMP/s003.db
awk -v dir="$TMP" '/^Executing/ { n++; f = sprintf("%s/block%d.txt", dir, n) }
	/^(Detailed|Control|-- )/ { f = "" } f { print > f }' "$SEED003"
check "import D7" "$KB" import --variant ingoD7-59.stats "$TMP/block1.txt" "$TMP/block2.txt"
check "import stock" "$KB" import --variant stock59-stats "$TMP/block3.txt" "$TMP/block4.txt"
check "report numa_test" "$KB" report --baseline stock59-stats -o "$TMP/n.html"
check_grep "numa: job tables" '<caption>ingoD7-59\.stats, disturb=hackbench:20,tasks=4 \(run [0-9]+\)</caption>' "$TMP/n.html"
check_grep "numa: a moved job marked" '<td class="moved">\*</td>' "$TMP/n.html"
check_grep "numa: heatmap captions" 'percent of time per node for every job' "$TMP/n.html"
check_grep "numa: jobs per node chart" 'Jobs per node' "$TMP/n.html"
check_grep "numa: the placement checks counted, none decided (one run a side)" \
	'finds against stock59-stats: 0 worse, 0 better, 0 changed, [0-9]+ inconclusive \(performance and numa_test placement checks\)' "$TMP/n.html"
check "report numa_test text" "$KB" report --baseline stock59-stats --format text -o "$TMP/n.txt"
check_grep "numa text: job table as numa_test prints it" '^  5    13\.1    0\.0    0\.0   86\.9 \|    0     3   \*\|  33\.36' "$TMP/n.txt"

# ---- escaping: names, descriptions and paths are text, never markup ----
export KBENCH_DB=$TMP/esc.db
XSS1='<script>alert(1)</script>'
XSS2='"><img src=x onerror=alert(1)>'
cp "$TMP/block1.txt" "$TMP/a&b<i>.txt"
check "import as <script>" "$KB" import --variant "$XSS1" "$TMP/a&b<i>.txt"
check "import as \"><img" "$KB" import --variant "$XSS2" "$TMP/block3.txt"
{ printf 'Q: <b>bold</b> & "quoted" <script>alert(3)</script>\n\n'; cat "$TMP/block2.txt"; } > "$TMP/legend.txt"
check "import a legend with markup" "$KB" import "$TMP/legend.txt"
check "report on hostile names" "$KB" report --title "<i>title</i>" -o "$TMP/esc.html"
check_eq "escape: no <script> element" "$(grep -ci '<script' "$TMP/esc.html")" 0
check_eq "escape: no injected <img" "$(grep -c '<img src=x' "$TMP/esc.html")" 0
check_eq "escape: no injected <b> or <i>" "$(grep -cE '<b>bold|<i>title|&b<i>' "$TMP/esc.html")" 0
check_grep "escape: <script> name as text" '&lt;script&gt;alert\(1\)&lt;/script&gt;' "$TMP/esc.html"
check_grep "escape: quote-breaking name as text" '&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;' "$TMP/esc.html"
check_grep "escape: description as text" '&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;' "$TMP/esc.html"
check_grep "escape: source path as text" 'a&amp;b&lt;i&gt;\.txt' "$TMP/esc.html"
check_grep "escape: title as text" '<h1>&lt;i&gt;title&lt;/i&gt;</h1>' "$TMP/esc.html"
check "report text on hostile names" "$KB" report --format text -o "$TMP/esc.txt"
check_grep "text: names verbatim" '<script>alert\(1\)</script>' "$TMP/esc.txt"

# ---- --limit and --since: each section's newest variants ----
export KBENCH_DB=$TMP/lim.db
check "two posts, A-E and A-F" "$KB" import "$SAMPLES/seeds/000_009ccda627cb3777.txt" \
	"$SAMPLES/seeds/001_84b93bea668f5b54.txt"
check "report --limit 2" "$KB" report --format text --bench hackbench --limit 2 -o "$TMP/lim.txt"
check_eq "--limit 2: seed 000's hackbench table holds its two newest, D and E" \
	"$(sed -n '/^hackbench  time/,/^groups  *n /p' "$TMP/lim.txt" | grep -cE '^  \[[12]\] [DE]@000_')" 2
check_eq "--limit 2: ... two columns" "$(grep -c '^groups  *n  *\[1\]  *\[2\]  *%chg$' "$TMP/lim.txt")" 1
check_eq "--limit 2: ... against the older of them" \
	"$(grep -c '^%chg against D@000_009ccda627cb3777\.$' "$TMP/lim.txt")" 1
check "report without --limit" "$KB" report --format text --bench hackbench -o "$TMP/nolim.txt"
check_eq "... which compares A to E against A" "$(grep -c '^%chg against A@000_' "$TMP/nolim.txt")" 1
check_status "--limit 0 is refused" 2 "$KB" report --limit 0
check_grep "... saying why" "--limit takes a whole number of at least 1" "$TMP/.out"
# Seed 000's variants imported long ago: --since keeps seed 001's only.
sql "update variant set created_at = '2020-01-01T00:00:00.000Z' where scope_label like '000%'" >/dev/null
check "report --since 2025-01-01" "$KB" report --format text --since 2025-01-01 -o "$TMP/since.txt"
check_eq "--since: no section of seed 000" "$(grep -c '^%chg against .*@000_' "$TMP/since.txt")" 0
check_grep "--since: seed 001's sections stay" "^%chg against [A-F]@001_" "$TMP/since.txt"
check "report --since 2019-06-01" "$KB" report --format text --since 2019-06-01 -o "$TMP/since2.txt"
check_grep "--since before both: seed 000's sections too" "^%chg against [A-F]@000_" "$TMP/since2.txt"
check_status "--since a later day than any import: nothing to report" 2 \
	"$KB" report --format text --since 2999-01-01
check_status "--since wants a date" 2 "$KB" report --since yesterday
check_grep "... and says the form" "--since takes a date, YYYY-MM-DD" "$TMP/.out"

# Every mark of a value, as compare prints it: lkp's hackbench cell
# 10.27(0.84) is noisy and has an outlier ("on" in compare's table).
KBENCH_DB=$TMP/lkp.db "$KB" import "$SAMPLES/lkp" > /dev/null 2>&1
check "html report of the lkp samples" env KBENCH_DB="$TMP/lkp.db" "$KB" report -o "$TMP/lkp.html"
check_grep "html: a cell shows both of its marks" '10\.27\(0\.84\)<span class="mark">on</span>' "$TMP/lkp.html"
check_grep "... the legend explains o" '<li><span class="mark">o</span> outliers' "$TMP/lkp.html"
check_grep "... and n" '<li><span class="mark">n</span> noisy \(CV > 5%\)' "$TMP/lkp.html"
