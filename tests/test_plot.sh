#!/bin/bash
# test_plot.sh - settle plot (src/report/plot.c).
#
# Runs a small popcount sweep (--quick, 1K 32K 1M 8M) and a claim without
# sizes (endian), then plots them: SVG that is well-formed XML (python3
# xml.etree) and shows the cache lines L1d/L2/LLC in size order, the size
# axis, the variant names and one sample panel per size; PNG with the PNG
# signature and the canvas width. The cache sizes are set in a copy of the
# result file so that the labels are known whatever this machine has.
# Refusals exit 2 with one line: a foreign or unreadable file, a bad
# extension, gnuplot missing (the message names the apt-get command), no
# sweep for --kind throughput. A failing gnuplot leaves an existing
# picture as it was and no temporary file.
#
# Usage: SETTLE=build/settle bash tests/test_plot.sh
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
finish() {
	test_end test_plot
	exit $?
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/settle-plot-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# settle plot's own temporary directories go here, to see them removed.
mkdir "$tmp/t"
export TMPDIR=$tmp/t
cd "$tmp" || exit 1

# refused CMD...: exit status 2 and exactly one line on stderr.
refused() {
	local what=$1 rc lines
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" = 2 ] && [ "$lines" = 1 ]; then
		ok "$what: exit 2, $(cat "$tmp/err")"
	else
		bad "$what: exit $rc (want 2), $lines lines on stderr (want 1): $(head -3 "$tmp/err")"
	fi
}

# ---- the data --------------------------------------------------------------
if "$SETTLE" run popcount --quick --size 1K --size 32K --size 1M --size 8M \
	--variant swar32 --variant swar64 --format json --output sweep.json \
	>/dev/null 2>"$tmp/err"; then
	ok "settle run popcount --quick, 4 sizes, --format json"
else
	bad "settle run popcount: $(head -3 "$tmp/err")"
	finish
fi
if "$SETTLE" run endian --quick --format json --output endian.json \
	>/dev/null 2>"$tmp/err"; then
	ok "settle run endian --quick --format json (no sizes)"
else
	bad "settle run endian: $(head -3 "$tmp/err")"
fi
# Known caches: L1d 32 KiB, L2 1 MiB, L3 4 MiB (and a 48 KiB L1i, not drawn);
# the sweep goes beyond the LLC, to 8 MiB.
python3 - <<'EOF' || bad "rewriting the caches of sweep.json"
import json
d = json.load(open("sweep.json"))
d["machine"]["caches"] = [
    {"level": 1, "type": "Data", "size_bytes": 32768},
    {"level": 1, "type": "Instruction", "size_bytes": 49152},
    {"level": 2, "type": "Unified", "size_bytes": 1048576},
    {"level": 3, "type": "Unified", "size_bytes": 4194304},
]
json.dump(d, open("known.json", "w"))
EOF

# ---- refusals (need no gnuplot) -------------------------------------------
refused "bad extension .pdf" "$SETTLE" plot known.json -o out.pdf
check "nothing written for .pdf" test ! -e out.pdf
refused "no extension" "$SETTLE" plot known.json --output out
echo '{"benchmarks": 1, "foo": [1, 2]}' >foreign.json
refused "a JSON file that is no result" "$SETTLE" plot foreign.json -o f.svg
printf 'not json at all\n' >garbage.json
refused "a file that is not JSON" "$SETTLE" plot garbage.json -o f.svg
refused "a missing file" "$SETTLE" plot missing.json -o f.svg
check "nothing written for refused files" test ! -e f.svg
refused "no output" "$SETTLE" plot known.json
refused "unknown --kind" "$SETTLE" plot known.json -o k.svg --kind pie
ln -s /dev/null null.svg
refused "an .svg name that is a link to /dev/null" \
	"$SETTLE" plot known.json -o null.svg
check "... named as not a regular file, with no '-' hint (plot takes none)" \
	eval 'grep -q "not a regular file" "$tmp/err" && ! grep -q "standard output" "$tmp/err"'
mkdir empty-path
refused "gnuplot not in PATH" env -u SETTLE_GNUPLOT PATH="$tmp/empty-path" \
	"$SETTLE" plot known.json -o nognuplot.svg
check "the message gives the apt-get command" \
	grep -q "apt-get install -y gnuplot-nox" "$tmp/err"
refused "SETTLE_GNUPLOT names a missing program" \
	env SETTLE_GNUPLOT=/nonexistent/gnuplot "$SETTLE" plot known.json -o x.svg
check "... named as it was given, as not an executable file" \
	grep -q "SETTLE_GNUPLOT=/nonexistent/gnuplot: not an executable file" "$tmp/err"
refused "SETTLE_GNUPLOT names a program not in PATH" \
	env SETTLE_GNUPLOT=nosuch-gnuplot "$SETTLE" plot known.json -o x.svg
check "... named as it was given (not as PATH's last folder), with no apt-get hint" \
	eval 'grep -q "SETTLE_GNUPLOT=nosuch-gnuplot: not found in PATH" "$tmp/err" && ! grep -q apt-get "$tmp/err"'
check "nothing written without gnuplot" test ! -e nognuplot.svg -a ! -e x.svg

if ! command -v gnuplot >/dev/null; then
	bad "gnuplot found (make test installs it as root; else: sudo apt-get install -y gnuplot-nox)"
	finish
fi

# ---- SVG ------------------------------------------------------------------
if "$SETTLE" plot known.json -o sweep.svg --kind all 2>"$tmp/err"; then
	ok "settle plot known.json -o sweep.svg"
else
	bad "settle plot -o sweep.svg: $(head -3 "$tmp/err")"
fi
check "nothing on stderr (no gnuplot warnings)" test ! -s "$tmp/err"
check "sweep.svg exists and is not empty" test -s sweep.svg
# Text of the SVG, one element per line, and the x of each cache label.
if python3 - <<'EOF' >svg.txt 2>"$tmp/err"
import re
import xml.etree.ElementTree as ET
root = ET.parse("sweep.svg").getroot()
assert root.tag.endswith("svg"), root.tag
for g in root.iter():
    if not g.tag.endswith("}g"):
        continue
    m = re.match(r"translate\(([-0-9.]+),([-0-9.]+)\)", g.get("transform", ""))
    for t in g:
        if t.tag.endswith("}text"):
            text = "".join(t.itertext()).strip()
            if text:
                print("%s\t%s" % (text, m.group(1) if m else "-"))
EOF
then
	ok "sweep.svg is well-formed XML (xml.etree)"
else
	bad "sweep.svg is not well-formed XML: $(tail -1 "$tmp/err")"
fi
has() { grep -qF -- "$1" svg.txt; }
# a text element that is exactly $1 (not part of the title lines)
label() { awk -F'\t' -v t="$1" '$1 == t { found = 1 } END { exit !found }' svg.txt; }
for t in "L1d 32 KiB" "L2 1 MiB" "LLC (L3) 4 MiB" "DRAM"; do
	check "sweep.svg marks '$t'" label "$t"
done
# near the right edge (4 MiB of 1 KiB-8 MiB) the DRAM label is short, so
# that it ends before the key; further left it is said in full
check "the LLC line near the right edge: 'DRAM', not the long label" \
	eval '! has "beyond the LLC"'
python3 - <<'EOF' || bad "rewriting the caches of known.json"
import json
d = json.load(open("known.json"))
d["machine"]["caches"] = [
    {"level": 1, "type": "Data", "size_bytes": 16384},
    {"level": 2, "type": "Unified", "size_bytes": 131072},
    {"level": 3, "type": "Unified", "size_bytes": 524288},
]
json.dump(d, open("small-llc.json", "w"))
EOF
if "$SETTLE" plot small-llc.json -o small-llc.svg 2>"$tmp/err" &&
   grep -q ">beyond the LLC: DRAM<" small-llc.svg; then
	ok "an LLC line further left (512 KiB): 'beyond the LLC: DRAM'"
else
	bad "small-llc.svg: no 'beyond the LLC: DRAM' $(head -3 "$tmp/err")"
fi
check "the L1i cache is not drawn" test -z "$(grep -E 'L1i|48 KiB' svg.txt)"
x1=$(awk -F'\t' '$1 ~ /^L1d / { print $2 }' svg.txt)
x2=$(awk -F'\t' '$1 ~ /^L2 / { print $2 }' svg.txt)
x3=$(awk -F'\t' '$1 ~ /^LLC / { print $2 }' svg.txt)
check "cache lines in size order left to right (x $x1 < $x2 < $x3)" \
	awk -v a="$x1" -v b="$x2" -v c="$x3" \
	'BEGIN { exit !(a != "" && a + 0 < b + 0 && b + 0 < c + 0) }'
# On a log axis 32 KiB -> 1 MiB (5 octaves) spans 5/2 of 1 MiB -> 4 MiB
# (the lines' labels start at their lines, both left-aligned)...
check "the size axis is logarithmic (L1d-L2 gap = 5/2 of L2 to 4 MiB)" \
	awk -v a="$x1" -v b="$x2" -v c="$(awk -F'\t' '$1 == "4 MiB" { print $2; exit }' svg.txt)" \
	'BEGIN { r = (b - a) / (c - b); exit !(r > 2.3 && r < 2.7) }'
for t in "1 KiB" "1 MiB" "throughput by buffer size" "bytes per ns"; do
	check "sweep.svg shows '$t'" has "$t"
done
for v in builtin-generic swar32 swar64; do
	check "sweep.svg names variant $v" has "$v"
done
check "sweep.svg: one sample panel per size (4)" \
	test "$(grep -c 'every sample' svg.txt)" = 4
check "the real caches of this machine are drawn too" \
	"$SETTLE" plot sweep.json -o real.svg
if python3 -c 'import json,sys; sys.exit(not json.load(open("sweep.json"))["machine"]["caches"])'; then
	check "real.svg marks L1d" grep -q 'L1d ' real.svg
fi
# Names are the user's (settle run FILE.c): quotes, markup, UTF-8, a line
# break (drawn as a space).
python3 - <<'EOF'
import json
d = json.load(open("known.json"))
for r in d["results"]:
    if r["variant"] == "swar32":
        r["variant"] = r["label"] = "pop'cnt <&> \"x\" \u00fc\nnext"
d["claims"]["popcount"]["title"] = "it's <b>bold</b> & \\ \"q\""
json.dump(d, open("names.json", "w"))
EOF
check "names with quotes, markup and UTF-8 plot" \
	"$SETTLE" plot names.json -o names.svg
check "names.svg is well-formed and shows the names as written" python3 -c '
import xml.etree.ElementTree as ET, sys
s = "".join(ET.parse("names.svg").getroot().itertext())
sys.exit(not ("pop'"'"'cnt <&> \"x\" \u00fc next" in s and
              "it'"'"'s <b>bold</b> & \\ \"q\"" in s))'

# two labels alike in their first 100 characters are two lines (a cut
# label made them one, and a variant went missing without a word)
python3 - <<'EOF' || bad "rewriting the labels of sweep.json"
import json
d = json.load(open("sweep.json"))
for r in d["results"]:
    if r["variant"] in ("swar32", "swar64"):
        r["label"] = "x" * 100 + "-" + r["variant"]
json.dump(d, open("long.json", "w"))
EOF
if "$SETTLE" plot long.json -o long.svg 2>"$tmp/err"; then
	n=$(grep -o 'id="gnuplot_plot_[0-9]*a"' long.svg | sort -u | wc -l)
	check "labels alike in their first 100 characters: 3 lines, not 2 ($n)" \
		test "$n" = 3
else
	bad "settle plot long.json: $(head -3 "$tmp/err")"
fi

# ---- a row whose time is not the work's ---------------------------------------
# An invalid row (work hoisted) is drawn nowhere: not in the sweep (its
# throughput is not the work's), not in its size's sample panel, where it
# is named as not shown.
python3 - <<'EOF' || bad "rewriting known.json with an invalid row"
import json
d = json.load(open("known.json"))
for r in d["results"]:
    if r["variant"] == "swar32" and r["params"]["size_bytes"] == 1024:
        c = r["repetition_check"]  # evidence of work done once a call
        c["ns_2x"] = list(c["ns_1x"])
json.dump(d, open("invalid.json", "w"))
EOF
if "$SETTLE" plot invalid.json -o invalid.svg --kind samples 2>"$tmp/err" &&
   grep -q "not shown, below the clock's resolution or invalid: swar32" \
	invalid.svg; then
	ok "an invalid row is left out of its sample panel, named"
else
	bad "invalid.svg: the invalid row not named as not shown $(head -3 "$tmp/err")"
fi

# ---- PNG ------------------------------------------------------------------
if "$SETTLE" plot known.json --output sweep.png 2>"$tmp/err"; then
	ok "settle plot known.json --output sweep.png"
else
	bad "settle plot --output sweep.png: $(head -3 "$tmp/err")"
fi
check "sweep.png starts with the PNG signature" \
	test "$(head -c 8 sweep.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
check "sweep.png is 1200 px wide (IHDR)" \
	test "$(od -An -j16 -N4 -tu1 sweep.png | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')" = 1200
"$SETTLE" plot known.json -o UPPER.PNG 2>/dev/null
check "the extension is case-insensitive (.PNG)" \
	test "$(head -c 4 UPPER.PNG 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e47

# ---- the subtitle: what a sample is, what built the claims --------------------
# a whole command's sample is one run (it said "each >= 0 ms"), and
# settle's compiler built none of it (it was named); a claim file's build
# is the user's compiler, not settle's own
if "$SETTLE" run --command 'a=true' --command 'b=true' --samples 3 \
	--output cmd.json >/dev/null 2>&1 &&
   "$SETTLE" plot cmd.json -o cmd.svg 2>"$tmp/err"; then
	check "a command file's subtitle: runs, no minimum time" python3 -c '
import xml.etree.ElementTree as ET, sys
s = "".join(ET.parse("cmd.svg").getroot().itertext())
sys.exit(not ("3 runs each" in s and "each >=" not in s and
             "-std=c11" not in s))'
else
	bad "plot of a command file: $(head -3 "$tmp/err")"
fi
cat >mine.c <<'C'
#include <settle.h>
static uint64_t spin(void *s, const void *a, uint64_t n)
{
	uint64_t t = 0;

	(void)s, (void)a;
	for (uint64_t i = 0; i < n; i++) { t += i; settle_keep(t); }
	return 1;
}
static const struct settle_variant v[] = { { .name = "spin", .run = spin } };
static const struct settle_claim c = { .name = "mine", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
if "$SETTLE" run mine.c --build "cc -O1" --quick --samples 3 \
	--output mine.json >/dev/null 2>&1 &&
   "$SETTLE" plot mine.json -o mine.svg 2>"$tmp/err"; then
	check "a claim file's subtitle names its build" python3 -c '
import xml.etree.ElementTree as ET, sys
s = "".join(ET.parse("mine.svg").getroot().itertext())
sys.exit(not "built with cc -O1" in s)'
else
	bad "plot of a claim file: $(head -3 "$tmp/err")"
fi

# ---- claims without sizes, --kind --------------------------------------------
if [ -s endian.json ]; then
	check "endian.json (no sizes) plots to SVG" \
		"$SETTLE" plot endian.json -o endian.svg
	check "endian.svg is well-formed and shows its samples" python3 -c '
import xml.etree.ElementTree as ET, sys
s = "".join(ET.parse("endian.svg").getroot().itertext())
sys.exit(not ("endian: every sample" in s and "-O2 we64" in s
              and "throughput by" not in s))'
	refused "--kind throughput without a sweep" \
		"$SETTLE" plot endian.json -o none.svg --kind throughput
fi
check "--kind throughput draws only the sweep" \
	"$SETTLE" plot known.json -o thr.svg --kind throughput
check "thr.svg has no sample panel" test -z "$(grep 'every sample' thr.svg)"
check "--kind samples draws no sweep" \
	"$SETTLE" plot known.json -o smp.svg --kind samples
check "smp.svg has no throughput panel and no cache line" \
	test -z "$(grep -E 'throughput by|LLC \(' smp.svg)"

# ---- whole or not at all -----------------------------------------------------
cp sweep.svg keep.svg
refused "a failing gnuplot" env SETTLE_GNUPLOT=/bin/false \
	"$SETTLE" plot known.json -o sweep.svg
check "a failed plot leaves the old picture as it was" cmp -s sweep.svg keep.svg
# A gnuplot that writes half a picture, then fails.
cat >fakegnuplot <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'\$/\1/p" "$1")
[ -n "$out" ] && echo '<svg half a picture' >"$out"
echo 'line 12: fake gnuplot failure' >&2
exit 1
EOF
chmod +x fakegnuplot
refused "a gnuplot failing halfway" env SETTLE_GNUPLOT="$tmp/fakegnuplot" \
	"$SETTLE" plot known.json -o sweep.svg
check "its message is quoted" grep -q "fake gnuplot failure" "$tmp/err"
check "the half picture did not replace the old one" cmp -s sweep.svg keep.svg
# A gnuplot that writes an empty picture and exits 0 (it was installed:
# exit 0, a picture of 0 bytes).
cat >emptygnuplot <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'\$/\1/p" "$1")
[ -n "$out" ] && : >"$out"
exit 0
EOF
chmod +x emptygnuplot
refused "a gnuplot writing an empty picture" \
	env SETTLE_GNUPLOT="$tmp/emptygnuplot" "$SETTLE" plot known.json -o sweep.svg
check "...said so" grep -q "gnuplot wrote an empty picture" "$tmp/err"
check "...and the old picture kept" cmp -s sweep.svg keep.svg
check "no temporary picture left beside the target" \
	test -z "$(ls -A | grep '^\.')"
check "settle plot removed its temporary directories" \
	test -z "$(ls -A "$tmp/t")"
# A gnuplot that ignores SIGTERM and does not end: settle, told twice to
# stop, ends at once and removes its temporary directory (it was left
# behind with data.dat, plot.gp and gnuplot.log in it; one SIGTERM ends
# it 10 s on, the same way).
cat >stuckgnuplot <<'EOF'
#!/bin/sh
trap '' TERM INT
touch "$STUCK_MARK"
sleep 60
EOF
chmod +x stuckgnuplot
rm -f stuck.mark
STUCK_MARK=$tmp/stuck.mark SETTLE_GNUPLOT="$tmp/stuckgnuplot" \
	"$SETTLE" plot known.json -o stuck.svg 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do [ -e stuck.mark ] && break; sleep 0.1; done
kill -TERM $pid; sleep 0.3; kill -TERM $pid; wait $pid; rc=$?
pkill -f "$tmp/stuckgnuplot" 2>/dev/null
check "a stuck gnuplot: settle plot ends on SIGTERM (exit 143)" test "$rc" = 143
check "...and removes its temporary directory" test -z "$(ls -A "$tmp/t")"
check "...and writes no picture" test ! -e stuck.svg
# Nobody there to send a signal: a gnuplot that does not end is stopped
# SETTLE_PLOT_TIMEOUT seconds on (60 by default; settle plot waited for
# ever), said, nothing written, nothing left.
rm -f stuck.mark
start=$(date +%s)
STUCK_MARK=$tmp/stuck.mark SETTLE_GNUPLOT="$tmp/stuckgnuplot" \
	SETTLE_PLOT_TIMEOUT=1 "$SETTLE" plot known.json -o stuck.svg \
	>/dev/null 2>"$tmp/err"
rc=$?
took=$(( $(date +%s) - start ))
pkill -f "$tmp/stuckgnuplot" 2>/dev/null
check "a stuck gnuplot is stopped at SETTLE_PLOT_TIMEOUT=1 (${took} s), exit 2" \
	test "$rc" = 2 -a "$took" -le 20
check "...saying so" grep -q "gnuplot did not finish within 1 s and was stopped" "$tmp/err"
check "...with no picture and no temporary directory left" \
	test ! -e stuck.svg -a -z "$(ls -A "$tmp/t")"
refused "a malformed SETTLE_PLOT_TIMEOUT" env SETTLE_PLOT_TIMEOUT=1m \
	SETTLE_GNUPLOT="$tmp/stuckgnuplot" "$SETTLE" plot known.json -o t.svg
grep -q "malformed SETTLE_PLOT_TIMEOUT '1m' (whole seconds, 1 to 86400)" "$tmp/err" &&
	ok "...naming the variable and its range" || bad "timeout message: $(cat "$tmp/err")"
refused "SETTLE_PLOT_TIMEOUT=0" env SETTLE_PLOT_TIMEOUT=0 \
	SETTLE_GNUPLOT="$tmp/stuckgnuplot" "$SETTLE" plot known.json -o t.svg

# ---- fit to post: the default picture ---------------------------------------
python3 - <<'EOF'
import json
d = json.load(open("known.json"))
d["machine"]["hypervisor"] = True
d["machine"]["model_name"] = "Model X CPU"
json.dump(d, open("hv.json", "w"))
EOF
if "$SETTLE" plot hv.json -o default.svg 2>"$tmp/err"; then
	python3 - >def.txt <<'EOF'
import xml.etree.ElementTree as ET
for t in ET.parse("default.svg").getroot().iter():
    if t.tag.endswith("}text"):
        print("".join(t.itertext()).strip())
EOF
	check "by default a sweep is drawn without the sample panels" \
		test "$(grep -c 'every sample' def.txt)" = 0
	check "the throughput axis is logarithmic" grep -q "log scale" def.txt
	check "the title names the claim and the machine, not the file" \
		sh -c 'grep -q "^settle: popcount" def.txt && grep -q "Model X CPU" def.txt && ! grep -q "hv.json" def.txt'
	check "the cache lines say the hypervisor reports them" \
		grep -q "reported by the hypervisor" def.txt
	for v in builtin-generic swar32 swar64; do
		check "the default picture names $v" grep -q "$v" def.txt
	done
	h=$(python3 -c 'import xml.etree.ElementTree as E; r=E.parse("default.svg").getroot(); print(int(float(r.get("viewBox").split()[3])))')
	check "a picture of sensible size (height $h px, at most 1000)" \
		test "$h" -le 1000
else
	bad "settle plot hv.json: $(cat "$tmp/err")"
fi

# a variant named with '%' (a tic label is a format to gnuplot: "50%"
# failed the plot with "Bad format character"): drawn, named as it is
python3 - <<'EOF' || bad "renaming a variant of known.json"
import json
d = json.load(open("known.json"))
for r in d["results"]:
    if r["variant"] == "swar64":
        r["variant"] = "50%d"
        r["label"] = r["label"].replace("swar64", "50%d")
json.dump(d, open("pct.json", "w"))
EOF
if "$SETTLE" plot pct.json --kind samples -o pct.svg 2>"$tmp/err"; then
	python3 - >pct.txt <<'EOF'
import xml.etree.ElementTree as ET
for t in ET.parse("pct.svg").getroot().iter():
    if t.tag.endswith("}text"):
        print("".join(t.itertext()).strip())
EOF
	check "a variant named 50%d: its tic label as it is" grep -q "50%d" pct.txt
else
	bad "settle plot of a variant named 50%d: $(cat "$tmp/err")"
fi

finish
