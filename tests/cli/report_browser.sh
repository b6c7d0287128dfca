#!/bin/bash
# kbench report --format html in a real browser: headless Chromium loads
# the page (every seed imported into one store), its DOM holds the
# comparison tables' numbers, a screenshot is not blank, and every
# embedded image decodes.  `make check` installs chromium
# (scripts/install-deps --check); without it this test fails.
. "$(dirname "$0")/../lib.sh"
PNGINFO=${PNGINFO:-$KB_BIN_DIR/pnginfo}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome)}

if [ -z "$CHROMIUM" ]; then
	fail "chromium is installed" "no chromium on PATH (scripts/install-deps --check installs it)"
	exit 1
fi

# chrome ARGS...: headless Chromium that touches no network and no profile.
chrome() {
	timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$(mktemp -d "$TMP/profile.XXXXXX")" "$@" 2>"$TMP/chrome.err"
}

# Every seed into one store: seeds 000 and 001 both call their kernels
# A..E, which then merge (README: variant names are global in a store).
check "import every seed" "$KB" import "$SAMPLES/seeds/"
check "report html" "$KB" report --title "kbench seeds" -o "$TMP/report.html"

# ---- the DOM ----
chrome --dump-dom "file://$TMP/report.html" > "$TMP/dom.html"
check "chromium dumps the DOM" test -s "$TMP/dom.html"
check_grep "DOM: the title" '<h1>kbench seeds</h1>' "$TMP/dom.html"
check_grep "DOM: hackbench A at N=10 (seed 000)" '>5\.54\(0\.10\)<' "$TMP/dom.html"
check_grep "DOM: hackbench D at N=100 (seed 000)" '>30\.57\(17\.10\)<' "$TMP/dom.html"
check_grep "DOM: kernbench stock59-stats elapsed (seed 003)" '>29\.50<' "$TMP/dom.html"
check_grep "DOM: autonuma numa02 (seed 002)" '>53\.43' "$TMP/dom.html"
check_grep "DOM: a coloured verdict cell" 'class="num v-(better|worse)"' "$TMP/dom.html"
check_grep "DOM: a numa_test job table" '<caption>[^<]*tasks=8 \(run [0-9]+\)</caption>' "$TMP/dom.html"
# One section per benchmark and comparable set: a post's own variants, or
# the variants with global names on one machine.
check_eq "DOM: one section per benchmark and comparable set" \
	"$(grep -o '<section id="bench-[0-9]*">' "$TMP/dom.html" | wc -l)" \
	"$(sqlite3 "$KBENCH_DB" "select count(*) from (select distinct x.benchmark, case when v.scope <> '' then 'p' || v.scope else 'm' || coalesce(CAST(x.machine_id AS TEXT), '') end from (select benchmark, variant_id, machine_id from run where status = 'ok' union select benchmark, variant_id, machine_id from summary) x join variant v on v.id = x.variant_id) q")"
check_eq "DOM: no script elements" "$(grep -ci '<script' "$TMP/dom.html")" 0

# ---- a screenshot that is not blank ----
chrome --screenshot="$TMP/shot.png" --window-size=1280,2000 "file://$TMP/report.html" >/dev/null
check "chromium takes a screenshot" test -s "$TMP/shot.png"
"$PNGINFO" "$TMP/shot.png" > "$TMP/shot.txt" 2>&1
check_grep "screenshot: 1280x2000" ' 1280x2000 ' "$TMP/shot.txt"
colors=$(sed -n 's/.*colors=\([0-9]*\).*/\1/p' "$TMP/shot.txt")
check "screenshot: not blank (${colors:-0} colours)" test "${colors:-0}" -ge 100

# ---- every embedded image decodes, at the size the page gives it ----
mkdir -p "$TMP/img"
python3 - "$TMP/report.html" "$TMP/img" > "$TMP/img.txt" <<'EOF'
import base64, re, struct, sys
html = open(sys.argv[1], encoding="utf-8").read()
n = bad = 0
for m in re.finditer(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" width="(\d+)" height="(\d+)"', html):
    n += 1
    data = base64.b64decode(m.group(1), validate=True)
    ok = data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24]) if ok else (0, 0)
    if not ok or (w, h) != (int(m.group(2)), int(m.group(3))):
        bad += 1
        print("bad image %d: signature %s, IHDR %dx%d, page says %sx%s" % (n, ok, w, h, m.group(2), m.group(3)))
    open("%s/img%03d.png" % (sys.argv[2], n), "wb").write(data)
print("images=%d bad=%d" % (n, bad))
print("all=%d" % len(re.findall(r'<img ', html)))
EOF
check_grep "images: signature and IHDR size match" '^images=[1-9][0-9]* bad=0$' "$TMP/img.txt"
check_eq "images: every <img> is a data: URI" "$(sed -n 's/^all=//p' "$TMP/img.txt")" \
	"$(sed -n 's/^images=\([0-9]*\).*/\1/p' "$TMP/img.txt")"
if "$PNGINFO" "$TMP"/img/*.png > "$TMP/decoded.txt" 2>&1; then
	pass "images: every one decodes with cairo"
else
	fail "images: every one decodes with cairo" "$(grep -v colors= "$TMP/decoded.txt" | head -5)"
fi
check_eq "images: none is blank" "$(awk '{ sub("colors=", "", $3); if ($3 + 0 < 4) print }' "$TMP/decoded.txt" | wc -l)" 0

# ---- hostile names stay text in the browser ----
export KBENCH_DB=$TMP/esc.db
awk -v dir="$TMP" '/^Executing/ { n++; f = sprintf("%s/block%d.txt", dir, n) }
	/^(Detailed|Control|-- )/ { f = "" } f { print > f }' "$SAMPLES/seeds/003_7caa478a1fca98f9.txt"
check "import as <script>" "$KB" import --variant '<script>alert(1)</script>' "$TMP/block1.txt"
check "import as \"><img" "$KB" import --variant '"><img src=x onerror=alert(1)>' "$TMP/block3.txt"
check "report on hostile names" "$KB" report -o "$TMP/esc.html"
chrome --dump-dom "file://$TMP/esc.html" > "$TMP/esc-dom.html"
check_eq "browser: no script element" "$(grep -ci '<script' "$TMP/esc-dom.html")" 0
check_eq "browser: no img without a data: URI" "$(grep -o '<img [^>]*>' "$TMP/esc-dom.html" | grep -vc 'src="data:image/png')" 0
check_grep "browser: the <script> name is text" '&lt;script&gt;alert\(1\)&lt;/script&gt;' "$TMP/esc-dom.html"
check_grep "browser: the \"><img name is text" '"&gt;&lt;img src=x onerror=alert\(1\)&gt;' "$TMP/esc-dom.html"

# ---- the page never scrolls sideways at 1280 px ----
# Every seed with its own prefix plus 20 generated variants (hackbench
# with 20 + 5 variants, a wide lkp config): the widest tables kbench makes.
# A copy of the page (without its Content-Security-Policy, which forbids
# scripts) gets a script that writes the document's scrollWidth into the
# DOM Chromium dumps.
export KBENCH_DB=$TMP/wide.db
for f in "$SAMPLES"/seeds/*.txt; do
	"$KB" import --variant-prefix "post$(basename "$f" | cut -c1-3):" "$f" >/dev/null 2>&1
done
bash tests/tools/genstore.sh variants20 "$TMP/gen20"
check "import a 20-variant tree and the lkp samples" "$KB" import "$TMP/gen20" "$SAMPLES/lkp"
check "report html of the wide store" "$KB" report -o "$TMP/wide.html"
sed -e 's#<meta http-equiv="Content-Security-Policy"[^>]*>##' \
    -e 's#</body>#<script>document.body.setAttribute("data-sw", document.documentElement.scrollWidth)</script></body>#' \
	"$TMP/wide.html" > "$TMP/wide-probe.html"
chrome --dump-dom --window-size=1280,900 "file://$TMP/wide-probe.html" > "$TMP/wide-dom.html"
sw=$(grep -o 'data-sw="[0-9]*"' "$TMP/wide-dom.html" | grep -o '[0-9]*')
check "scrollWidth at 1280 px is ${sw:-unknown} <= 1280" test "${sw:-99999}" -le 1280
check_grep "a wide section shows its findings, not a 20-column table" \
	'too many to compare side by side' "$TMP/wide-dom.html"
