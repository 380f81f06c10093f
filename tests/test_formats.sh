#!/bin/bash
# test_formats.sh - the output formats of the settle command, checked with
# other people's parsers, and interoperability with Google Benchmark.
#
#   - under LC_ALL=de_DE.UTF-8 (generated here with localedef when
#     missing, as root) md, text, csv, json and gbench-json have '.'
#     decimals and no ',' decimal;
#   - md: every table has a header, a separator line and rows of the same
#     number of cells; text: no line over 72 columns; csv: python3's csv
#     module reads it, every row as wide as the header, and a name with a
#     comma, a quote and a line break comes back whole (and was quoted);
#   - json and gbench-json: strict parsers (jansson with
#     JSON_REJECT_DUPLICATES, python3's json refusing NaN and Infinity);
#     names with quotes, backslashes, control and non-ASCII characters
#     round-trip; the files are pure ASCII;
#   - settle compare reads files written by a real Google Benchmark
#     program (libbenchmark-dev, built here with g++), and Google
#     Benchmark's compare.py (libbenchmark-tools) reads settle's
#     gbench-json, with the samples as its repetitions;
#   - progress on a terminal (script(1) gives settle a pty) names the
#     claim, variant, sample k of N and the time left; nothing on a
#     stderr that is not a terminal.
# A check whose tool is missing says SKIP loudly; make test installs them
# (TEST_PKGS). Run by make test with SETTLE and BUILD set.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
PY=${PYTHON:-python3}
skips=0

skip() {
	skips=$((skips + 1))
	echo "SKIP ==================================================="
	echo "SKIP $*"
	echo "SKIP ==================================================="
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/test_formats.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

if [ ! -x "$SETTLE" ]; then
	bad "$SETTLE is not built"
	echo "$pass passed, $fail failed"
	exit 1
fi
command -v "$PY" >/dev/null || { bad "python3 not found"; exit 1; }

# ---- the German locale ----------------------------------------------------
have_de() { locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; }
if ! have_de && [ "$(id -u)" = 0 ] && command -v localedef >/dev/null; then
	localedef -i de_DE -f UTF-8 de_DE.UTF-8 >/dev/null 2>&1
fi
DE=
if have_de && [ "$(LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)" = "," ]
then
	DE=de_DE.UTF-8
	ok "de_DE.UTF-8 is generated, its decimal point is ','"
else
	skip "no de_DE.UTF-8 locale (Debian: apt-get install locales;" \
	     "localedef -i de_DE -f UTF-8 de_DE.UTF-8): formats checked" \
	     "under the C locale only"
fi
LOC=${DE:-C}

# ---- checkers -------------------------------------------------------------
cat > "$TMP/checks.py" <<'EOF'
import csv, io, json, sys, unicodedata

def strict_json(path):
    def no_const(name):
        raise ValueError("non-finite number %s" % name)
    def no_dup(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key")
        return dict(pairs)
    raw = open(path, "rb").read()
    bad = [b for b in raw if b >= 0x80]
    if bad:
        raise ValueError("non-ASCII byte 0x%02x" % bad[0])
    return json.loads(raw.decode("ascii"), parse_constant=no_const,
                      object_pairs_hook=no_dup)

def width(line):
    w = 0
    for ch in line:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w

def text_width(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    worst = max(lines, key=width)
    if width(worst) > 72:
        raise ValueError("%d columns: %r" % (width(worst), worst))
    if len(lines) < 5:
        raise ValueError("only %d lines" % len(lines))

def cells(line):
    n, i = 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        n += line[i] == "|"
        i += 1
    return n - 1

def md_tables(path):
    import re
    sep = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+$")
    lines = open(path, encoding="utf-8").read().split("\n")
    tables, i = 0, 0
    while i < len(lines):
        if i + 1 < len(lines) and sep.match(lines[i + 1]):
            head = lines[i]
            i += 1
            if not head.startswith("|") or cells(head) != cells(lines[i]):
                raise ValueError("bad header %r" % head)
            j = i + 1
            while j < len(lines) and lines[j].startswith("|"):
                if cells(lines[j]) != cells(head):
                    raise ValueError("%d cells under a %d-cell header: %r"
                                     % (cells(lines[j]), cells(head), lines[j]))
                j += 1
            if j == i + 1:
                raise ValueError("a table without rows")
            tables += 1
            i = j
        else:
            if lines[i].startswith("|"):
                raise ValueError("table line outside a table: %r" % lines[i])
            i += 1
    if tables == 0:
        raise ValueError("no table")

NUMERIC = ["n", "median_ns", "min_ns", "mean_ns", "mad_ns", "bytes_per_ns",
           "cycles_per_op", "ratio", "ci_low", "ci_high", "ci_level"]

def csv_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    # the conclusions close the file as "# claim: settled: ..." lines,
    # after the last record; nothing of them may come before
    body, _, tail = text.partition("\r\n# ")
    for line in ("# " + tail).split("\r\n") if tail else []:
        if line and not line.startswith("# "):
            raise ValueError("a record after the conclusions: %r" % line)
    rows = list(csv.reader(io.StringIO(body + "\r\n"), strict=True))
    head = rows[0]
    for r in rows[1:]:
        if len(r) != len(head):
            raise ValueError("%d fields, header %d: %r" % (len(r), len(head), r))
        for k in NUMERIC:
            v = r[head.index(k)]
            if v:
                float(v)  # "1,5" would fail (and split the row)
    if len(rows) < 2:
        raise ValueError("no rows")
    return head, rows[1:]

what, path = sys.argv[1], sys.argv[2]
try:
    if what == "json":
        strict_json(path)
    elif what == "text":
        text_width(path)
    elif what == "md":
        md_tables(path)
    elif what == "csv":
        csv_rows(path)
    elif what == "csv-names":
        # whole, but for control characters other than tab, CR and LF,
        # written out as on a terminal (a raw ESC ran on `cat r.csv`)
        head, rows = csv_rows(path)
        want = [n.replace("\x01", "\\x01") for n in sys.argv[3:5]]
        if rows[0][0] != want[0] or rows[0][1] != want[1]:
            raise ValueError("names %r %r" % (rows[0][0], rows[0][1]))
        raw = open(path, "rb").read()
        if any(b < 32 and b not in (9, 10, 13) or b == 127 for b in raw):
            raise ValueError("a raw control character")
    elif what == "json-names":
        doc = strict_json(path)
        r = doc["results"][0]
        if r["claim"] != sys.argv[3] or r["variant"] != sys.argv[4]:
            raise ValueError("names %r %r" % (r["claim"], r["variant"]))
    elif what == "gbench-names":
        doc = strict_json(path)
        name = doc["benchmarks"][0]["name"]
        if name != sys.argv[3] + "/" + sys.argv[4]:
            raise ValueError("name %r" % name)
    elif what == "gbench-layout":
        doc = strict_json(path)
        ctx = doc["context"]
        for k in ("date", "host_name", "executable", "num_cpus",
                  "mhz_per_cpu", "caches", "library_build_type"):
            ctx[k]
        runs = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        for b in runs:
            for k in ("name", "family_index", "per_family_instance_index",
                      "run_name", "repetitions", "repetition_index",
                      "threads", "iterations", "real_time", "cpu_time"):
                b[k]
            if b["time_unit"] != "ns" or b["repetitions"] != 3:
                raise ValueError("entry %r" % b)
        if len(runs) != 8 * 3:
            raise ValueError("%d iteration entries, expected 24" % len(runs))
    elif what == "compare-dump":
        # compare.py -d: its reading of settle's samples, name by name
        a = strict_json(sys.argv[3])
        dump = json.load(open(path))
        first = a["benchmarks"][0]
        m = [d for d in dump if d["name"] == first["name"]]
        if not m or m[0]["measurements"][0]["real_time"] != first["real_time"]:
            raise ValueError("compare.py did not read %s" % first["name"])
except Exception as e:
    print("  %s: %s" % (path, e))
    sys.exit(1)
EOF
pycheck() { "$PY" "$TMP/checks.py" "$@"; }

JCHECK=
if cc -o "$TMP/jcheck" -x c - -ljansson 2>/dev/null <<'EOF'
#include <jansson.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	json_error_t e;
	json_t *j = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &e);

	if (!j) {
		fprintf(stderr, "  jansson: %s: %s at line %d\n", argv[1],
			e.text, e.line);
		return 1;
	}
	json_decref(j);
	return argc == 2 ? 0 : 1;
}
EOF
then
	JCHECK=$TMP/jcheck
else
	skip "cannot build a jansson checker (libjansson-dev)"
fi
jansson() { [ -z "$JCHECK" ] || "$JCHECK" "$1"; }

decimals() { # '.' decimals present, no digit,digit anywhere
	grep -qE '[0-9]\.[0-9]' "$1" && ! grep -qE '[0-9],[0-9]' "$1"
}

# ---- a real run, shown in every format under the German locale -----------
if "$SETTLE" run endian --quick --samples 3 --format json \
	--output "$TMP/r.json" >/dev/null 2>"$TMP/err"; then
	ok "settle run endian --format json --output"
else
	bad "settle run endian --format json: $(cat "$TMP/err")"
fi
for fmt in md text csv json gbench-json; do
	out=$TMP/show.$fmt
	if LC_ALL=$LOC "$SETTLE" show "$TMP/r.json" --format $fmt >"$out" \
		2>"$TMP/err"; then
		ok "LC_ALL=$LOC settle show --format $fmt"
	else
		bad "LC_ALL=$LOC settle show --format $fmt: $(cat "$TMP/err")"
		continue
	fi
	if [ $fmt = csv ]; then
		check "$fmt: python3 csv reads it, numbers with '.'" pycheck csv "$out"
	else
		check "$fmt: '.' decimals, no ',' decimal" decimals "$out"
	fi
	case $fmt in
	md)	check "md: tables with header separators" pycheck md "$out" ;;
	text)	check "text: no line over 72 columns" pycheck text "$out"
		check "text: machine line on top" grep -q '^machine: ' \
			<(head -1 "$out") ;;
	json)	check "json: strict python3 json, ASCII only" pycheck json "$out"
		check "json: jansson JSON_REJECT_DUPLICATES" jansson "$out" ;;
	gbench-json)
		check "gbench-json: strict python3 json" pycheck json "$out"
		check "gbench-json: jansson JSON_REJECT_DUPLICATES" jansson "$out"
		check "gbench-json: Google Benchmark's fields" \
			pycheck gbench-layout "$out" ;;
	esac
done

# straight from a run too (emit), and --output for a text format
if LC_ALL=$LOC "$SETTLE" run endian --quick --samples 3 --format text \
	>"$TMP/run.text" 2>"$TMP/err"; then
	check "LC_ALL=$LOC settle run --format text: 72 columns" \
		pycheck text "$TMP/run.text"
	check "settle run --format text: '.' decimals" decimals "$TMP/run.text"
else
	bad "settle run --format text: $(cat "$TMP/err")"
fi
if LC_ALL=$LOC "$SETTLE" run endian --quick --samples 3 --format csv \
	--output "$TMP/run.csv" >"$TMP/stdout" 2>"$TMP/err"; then
	check "settle run --format csv --output: file parses" \
		pycheck csv "$TMP/run.csv"
	check "settle run --format csv --output: nothing on stdout" \
		test ! -s "$TMP/stdout"
else
	bad "settle run --format csv --output: $(cat "$TMP/err")"
fi
# --output without --format: the name's ending chooses, json otherwise
shows() { "$SETTLE" show "$1" >/dev/null 2>&1; }
mkdir -p "$TMP/a.md"
for name in r.json r.md a.md/results; do
	if "$SETTLE" run endian --quick --samples 3 --output "$TMP/$name" \
		>"$TMP/stdout" 2>"$TMP/err"; then
		case $name in
		r.md)	check "settle run --output r.md: Markdown tables" \
				pycheck md "$TMP/$name"
			check "settle run --output r.md: nothing on stdout" \
				test ! -s "$TMP/stdout" ;;
		*)	check "settle run --output $name: settle show reads it" \
				shows "$TMP/$name"
			check "settle run --output $name: the table on stdout" \
				grep -q 'verdict' "$TMP/stdout" ;;
		esac
	else
		bad "settle run --output $name: $(cat "$TMP/err")"
	fi
done
# one sample a side has no interval (level 0): none is printed as if 95 %
if "$SETTLE" run endian --quick --samples 1 --output "$TMP/one.json" \
	>"$TMP/one.table" 2>"$TMP/err"; then
	check "one sample: the rows say too few samples" \
		grep -q "unclear (too few samples)" "$TMP/one.table"
	check "one sample: no interval printed" \
		bash -c '! grep -E "x +\[" "$1"' _ "$TMP/one.table"
	"$SETTLE" compare "$TMP/one.json" "$TMP/one.json" >"$TMP/one.cmp" 2>&1
	check "compare, one sample a side: bounds shown as -" \
		grep -q "\[ *-, *-\]" "$TMP/one.cmp"
	check "compare, one sample a side: no numeric interval" \
		bash -c '! grep -E "\[ *[-+][0-9.]+%," "$1"' _ "$TMP/one.cmp"
	"$SETTLE" compare "$TMP/one.json" "$TMP/one.json" --format json \
		>"$TMP/one.cmp.json" 2>&1
	check "compare --format json, one sample a side: ci_low_pct null" \
		$PY -c 'import json, sys
rows = [r for c in json.load(open(sys.argv[1]))["comparisons"]
        for r in c["rows"] if r.get("verdict") not in (None, "undefined")]
sys.exit(not rows or any(r["ci_low_pct"] is not None for r in rows))' \
		"$TMP/one.cmp.json"
else
	bad "settle run --samples 1: $(cat "$TMP/err")"
fi
"$SETTLE" run endian --quick --format yaml >/dev/null 2>"$TMP/err"
rc=$?
check "settle run --format yaml: exit 2 naming the formats" \
	test $rc = 2 -a -n "$(grep 'gbench-json' "$TMP/err")"
"$SETTLE" show "$TMP/r.json" --format yaml >/dev/null 2>"$TMP/err"
check "settle show --format yaml: exit 2" test $? = 2

# ---- names that need escaping ---------------------------------------------
CLAIM=$(printf 'we,ird "q" \\ back\001tab\there \303\251 \360\237\230\200')
VARIANT=$(printf 'v|1, "x" *y*\nline')
"$PY" - "$TMP/weird.in.json" "$CLAIM" "$VARIANT" <<'EOF'
import json, sys
path, claim, variant = sys.argv[1:]
doc = {"schema": "settle-result/1",
       "machine": {"model_name": "CPU", "isa": ["sse2"], "kernel": "k"},
       "build": {"compiler": "cc"}, "settings": {"samples": 3},
       "claims": {claim: {"title": claim, "op_name": "op",
                          "baseline": "base", "sizes": False,
                          "bytes_per_op": 0, "show_cycles": False}},
       "results": [
           {"claim": claim, "variant": variant, "params": {},
            "samples_ns": [1.5, 1.5, 1.5]},
           {"claim": claim, "variant": "base", "params": {},
            "samples_ns": [2.5, 2.5, 2.5]}]}
open(path, "w", encoding="utf-8").write(json.dumps(doc, ensure_ascii=False))
EOF
for fmt in csv json gbench-json md text; do
	LC_ALL=$LOC "$SETTLE" show "$TMP/weird.in.json" --format $fmt \
		>"$TMP/weird.$fmt" 2>"$TMP/err" ||
		bad "settle show weird.in.json --format $fmt: $(cat "$TMP/err")"
done
check "csv: names with comma, quote, newline come back whole, controls written out" \
	pycheck csv-names "$TMP/weird.csv" "$CLAIM" "$VARIANT"
check "csv: the field with a comma and quotes is quoted, quotes doubled" \
	grep -qF '"we,ird ""q"" \ back' "$TMP/weird.csv"
check "json: names with quotes, backslash, controls, non-ASCII round-trip" \
	pycheck json-names "$TMP/weird.json" "$CLAIM" "$VARIANT"
check "json: jansson reads the escaped names" jansson "$TMP/weird.json"
check "json: U+1F600 as a surrogate pair" grep -q '\\ud83d\\ude00' \
	"$TMP/weird.json"
check "gbench-json: escaped names round-trip" \
	pycheck gbench-names "$TMP/weird.gbench-json" "$CLAIM" "$VARIANT"
check "md: '|' in a name escaped, table intact" pycheck md "$TMP/weird.md"
# (the line end of the name is shown escaped, as on a terminal: \x0a,
# its backslash escaped for Markdown)
check "md: the escaped cell" grep -qF 'v\|1, "x" \*y\*\\x0aline' "$TMP/weird.md"
check "text: 72 columns with the odd names" pycheck text "$TMP/weird.text"

# ---- Google Benchmark files into settle compare ---------------------------
if [ -f /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null; then
	cat > "$TMP/bm.cc" <<'EOF'
#include <benchmark/benchmark.h>
#include <cstdint>
static void BM_settle_sum(benchmark::State &state)
{
	uint64_t n = static_cast<uint64_t>(state.range(0)), sum = 0;

	for (auto _ : state) {
		for (uint64_t i = 0; i < n; i++)
			sum += i;
		benchmark::DoNotOptimize(sum);
	}
}
BENCHMARK(BM_settle_sum)->Arg(64)->Arg(4096);
static void BM_settle_us(benchmark::State &state)
{
	uint64_t sum = 0;

	for (auto _ : state) {
		for (int i = 0; i < 2000; i++) {
			sum += i;
			benchmark::DoNotOptimize(sum);
		}
	}
}
BENCHMARK(BM_settle_us)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
EOF
	if g++ -O2 -o "$TMP/bm" "$TMP/bm.cc" -lbenchmark -lpthread 2>"$TMP/err"; then
		for k in 1 2; do
			"$TMP/bm" --benchmark_repetitions=3 \
				--benchmark_min_time=0.01 \
				--benchmark_format=json \
				--benchmark_out="$TMP/g$k.json" >/dev/null 2>&1 ||
				bad "the Google Benchmark program failed"
		done
		"$SETTLE" compare "$TMP/g1.json" "$TMP/g2.json" >"$TMP/cmp" 2>&1
		check "settle compare reads two Google Benchmark files" test $? = 0
		check "compare: a row per benchmark, 3 repetitions a side" \
			grep -qE 'BM_settle_sum 4096 .* 3/3 ' "$TMP/cmp"
		check "compare: the microsecond benchmark in ns" \
			grep -qE 'BM_settle_us BM_settle_us +([0-9.]+ us|[0-9]{3}\.[0-9] ns)' "$TMP/cmp"
		check "compare: aggregates are not rows" \
			test -z "$(grep -E '_mean|_median|_stddev|_cv' "$TMP/cmp")"
		check "compare: geometric mean" grep -q 'geometric mean' "$TMP/cmp"
		LC_ALL=$LOC "$SETTLE" show "$TMP/g1.json" --format csv \
			>"$TMP/g1.csv" 2>&1
		check "settle show of a Google Benchmark file, as csv" \
			pycheck csv "$TMP/g1.csv"
		sed 's/"benchmarks"/"benchmarkz"/' "$TMP/g1.json" > "$TMP/g3.json"
		"$SETTLE" compare "$TMP/g1.json" "$TMP/g3.json" >/dev/null 2>&1
		check "compare: a file that is neither kind: exit 2" test $? = 2
	else
		bad "g++ could not build against libbenchmark: $(head -3 "$TMP/err")"
	fi
else
	skip "Google Benchmark is not installed (apt-get install" \
	     "libbenchmark-dev g++): settle compare of its files not checked"
fi

# ---- settle's gbench-json into Google Benchmark's compare.py --------------
COMPARE=
for c in /usr/share/benchmark/compare.py /usr/share/benchmark/tools/compare.py \
	 /usr/lib/benchmark/tools/compare.py; do
	[ -f "$c" ] && { COMPARE=$c; break; }
done
GBPY=
for p in /usr/bin/python3 "$PY"; do
	if command -v "$p" >/dev/null &&
	   "$p" -c 'import scipy.stats, numpy' 2>/dev/null; then
		GBPY=$p
		break
	fi
done
if [ -z "$COMPARE" ]; then
	skip "Google Benchmark's compare.py is not installed (apt-get install" \
	     "libbenchmark-tools)"
elif [ -z "$GBPY" ]; then
	skip "compare.py needs scipy and numpy (apt-get install python3-scipy" \
	     "python3-numpy)"
else
	cp "$TMP/show.gbench-json" "$TMP/A.json"
	if "$SETTLE" run endian --quick --samples 3 --format gbench-json \
		--output "$TMP/B.json" >/dev/null 2>"$TMP/err"; then
		"$GBPY" "$COMPARE" -d "$TMP/dump.json" benchmarks "$TMP/A.json" \
			"$TMP/B.json" >"$TMP/gbcmp" 2>&1
		check "Google Benchmark's compare.py accepts settle's gbench-json" \
			test $? = 0
		check "compare.py: settle's names" \
			grep -q 'endian/we64/build:-O2' "$TMP/gbcmp"
		check "compare.py: a U test over the samples as repetitions" \
			grep -q 'U Test, Repetitions: 3 vs 3' "$TMP/gbcmp"
		check "compare.py: OVERALL_GEOMEAN" grep -q OVERALL_GEOMEAN \
			"$TMP/gbcmp"
		check "compare.py read settle's sample values" \
			pycheck compare-dump "$TMP/dump.json" "$TMP/A.json"
	else
		bad "settle run --format gbench-json --output: $(cat "$TMP/err")"
	fi
fi

# ---- progress -------------------------------------------------------------
if command -v script >/dev/null; then
	script -qec "$SETTLE run endian --samples 4 --min-time 30 --variant we64" /dev/null \
		>"$TMP/pty" 2>&1
	check "progress on a terminal: exit 0" test $? = 0
	tr '\r' '\n' <"$TMP/pty" >"$TMP/pty.lines"
	check "progress: claim, variant and sample k of N" \
		grep -qE '^.*endian: -O[02] [a-z0-9]+, sample [1-4] of 4' \
		"$TMP/pty.lines"
	check "progress: time left" grep -qE 'about [0-9]+ (s|min)' \
		"$TMP/pty.lines"
else
	skip "script(1) not found (util-linux): progress on a terminal not checked"
fi
"$SETTLE" run endian --quick --samples 3 >/dev/null 2>"$TMP/err"
check "no progress when stderr is not a terminal" test ! -s "$TMP/err"

# -o through --processes: each process gets its own --output, and the
# user's -o (or -oFILE) is not passed on to it (it said "--output given
# twice" there, or wrote the user's file from each process)
for o in "-o $TMP/po.json" "-o$TMP/po.json"; do
	rm -f "$TMP/po.json"
	# shellcheck disable=SC2086
	"$SETTLE" run popcount --quick --size 4K --samples 2 --variant swar64 \
		--processes 2 $o >/dev/null 2>"$TMP/err"
	check "run --processes 2 $o writes the pooled file" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(d["settings"]["processes"] != 2)' "$TMP/po.json"
done

# an --output name whose ending names no format: the result file, json,
# said on standard error (it was silent); .json itself says nothing
"$SETTLE" run endian --quick --samples 3 --variant we32 --output "$TMP/r.html" \
	>/dev/null 2>"$TMP/html.err"
"$SETTLE" run endian --quick --samples 3 --variant we32 --output "$TMP/r.json" \
	>/dev/null 2>"$TMP/json.err"
if grep -q "no format ends in '.html'; writing json" "$TMP/html.err" &&
   python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/r.html" &&
   ! grep -q "no format ends" "$TMP/json.err"; then
	ok "--output r.html: json, said on standard error; r.json: nothing said"
else
	bad "--output r.html: $(cat "$TMP/html.err")"
fi

# csv and json-lines, two row-per-result formats, carry the same cycles
# (json-lines left them out of claims whose table has no cycles column)
G=$(cd "$(dirname "$0")" && pwd)/golden/in/founding.json
"$SETTLE" show "$G" --format csv >"$TMP/cy.csv" 2>/dev/null
"$SETTLE" show "$G" --format json-lines >"$TMP/cy.jsonl" 2>/dev/null
if python3 - "$TMP/cy.csv" "$TMP/cy.jsonl" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
objs = [json.loads(l) for l in open(sys.argv[2]) if '"variant"' in l]
c = [float(r["cycles_per_op"]) if r["cycles_per_op"] else None for r in rows]
j = [o.get("cycles_per_op") for o in objs]
same = len(c) == len(j) and all(
    (a is None and b is None) or (a is not None and b is not None and
                                  abs(a - b) <= 1e-6 * abs(a)) for a, b in zip(c, j))
sys.exit(0 if same and any(x is not None for x in c) else 1)
PY
then
	ok "csv and json-lines: the same cycles per operation, row by row"
else
	bad "csv and json-lines disagree on cycles_per_op"
fi

# settle's own gbench-json compares with the result file of the same run,
# row for row (its names, "bswap/avx2/elem_bits:16/size:4096", matched no
# claim, variant and params: "no claim/variant/params in common"); the
# same samples, so no row changes
for f in bswap founding byob; do
	in=$(dirname "$G")/$f.json
	if "$SETTLE" show "$in" --format gbench-json >"$TMP/own-$f.gb" &&
	   "$SETTLE" compare "$in" "$TMP/own-$f.gb" --format json \
		>"$TMP/own-$f.cmp" 2>"$TMP/own-$f.err" &&
	   python3 - "$in" "$TMP/own-$f.cmp" <<'PY'
import json, sys
src = json.load(open(sys.argv[1]))
rows = json.load(open(sys.argv[2]))["comparisons"][0]["rows"]
key = lambda r: (r["claim"], r["variant"], json.dumps(r["params"], sort_keys=True))
want = sorted(key(r) for r in src["results"] if r["samples_ns"])
assert sorted(key(r) for r in rows) == want, (len(rows), len(want))
assert all(r["change_pct"] == 0 and r["n_old"] == r["n_new"] for r in rows)
assert any(len(r["params"]) > 1 or "build" in r["params"] for r in rows)
PY
	then ok "gbench-json of $f.json compares with it, every row, no change"
	else bad "gbench-json of $f.json against it: $(head -c 300 "$TMP/own-$f.err")"
	fi
done
# ... and says which entry when those members are not a row's names
python3 - "$TMP/own-bswap.gb" "$TMP/bad-own.gb" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"][3]["settle_params"] = {"size_bytes": 0}
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" show "$TMP/bad-own.gb" >/dev/null 2>"$TMP/bad-own.err"; rc=$?
if [ $rc = 2 ] && grep -q "benchmarks\[3\]: settle_params.size_bytes is not a size" "$TMP/bad-own.err"
then ok "gbench-json with a malformed settle_params: exit 2, the entry named"
else bad "gbench-json with a malformed settle_params: status $rc: $(cat "$TMP/bad-own.err")"
fi

# ... and, with its processes, layouts, preempted samples and CPU times,
# compares with another file as that run's result file does: the same
# rows, changes, intervals, verdicts and reasons (before, a file of 3
# processes read back as one process, every sample pooled: all 56 rows of
# founding-proc-steady against founding-proc had other intervals)
python3 - "$(dirname "$G")/proc-slow-mode.json" "$TMP/cpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:  # the slow samples preempted: CPU time the median's
    s = r["samples_ns"]; m = sorted(s)[len(s) // 2]
    r["samples_cpu_ns"] = [min(x, m * 1.01) for x in s]
    r["preempted_samples"] = sum(1 for x in s if x > m * 1.01)
json.dump(d, open(sys.argv[2], "w"))
PY
# ... and a row whose work was hoisted (twice the repetitions in the same
# time): invalid through gbench-json too (it read slower or faster there)
python3 - "$(dirname "$G")/layouts-moved.json" "$TMP/hoisted.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["variant"] == "moved":
        r["repetition_check"]["ns_2x"] = r["repetition_check"]["ns_1x"]
json.dump(d, open(sys.argv[2], "w"))
PY
for pair in founding-proc:founding-proc-steady layouts:layouts-moved \
	    proc:proc-we32 proc:cpu layouts:hoisted; do
	old=$(dirname "$G")/${pair%%:*}.json
	new=$(dirname "$G")/${pair#*:}.json
	[ "${pair#*:}" = cpu ] && new=$TMP/cpu.json
	[ "${pair#*:}" = hoisted ] && new=$TMP/hoisted.json
	if "$SETTLE" show "$new" --format gbench-json >"$TMP/rt.gb" &&
	   "$SETTLE" compare "$old" "$new" --format json >"$TMP/rt1" 2>/dev/null &&
	   "$SETTLE" compare "$old" "$TMP/rt.gb" --format json >"$TMP/rt2" 2>/dev/null &&
	   python3 - "$TMP/rt1" "$TMP/rt2" <<'PY'
import json, sys
rows = [json.load(open(f))["comparisons"][0]["rows"] for f in sys.argv[1:]]
keys = ("verdict", "why", "change_pct", "ci_low_pct", "ci_high_pct",
        "n_old", "n_new", "unstable", "layout_sensitive")
pick = lambda r: ((r["claim"], r["variant"], json.dumps(r["params"], sort_keys=True)),
                  tuple(r.get(k) for k in keys))
a, b = (sorted(map(pick, x)) for x in rows)
assert a and a == b, [x for x in zip(a, b) if x[0] != x[1]][:2]
assert any(r["verdict"] in ("same", "slower", "faster", "invalid")
           for r in rows[0])
PY
	then ok "compare with ${pair#*:}'s gbench-json: every row as with its result file"
	else bad "compare with ${pair#*:}'s gbench-json differs from its result file"
	fi
done
# the band its verdicts were drawn with goes with it: show gives the
# result file's verdicts (a 5 % band's "same" read unclear at 1 %)
python3 - "$(dirname "$G")/proc.json" "$TMP/band5.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["settings"]["equivalence_band"] = 0.05
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" show "$TMP/band5.json" --format gbench-json >"$TMP/band5.gb"
"$SETTLE" show "$TMP/band5.json" --format csv | grep -v "^#" | cut -d, -f1-3,18 >"$TMP/band5.a"
"$SETTLE" show "$TMP/band5.gb" --format csv | grep -v "^#" | cut -d, -f1-3,18 >"$TMP/band5.b"
"$SETTLE" show "$TMP/band5.gb" --equivalence 1 --format csv | grep -v "^#" | cut -d, -f1-3,18 >"$TMP/band1.b"
if cmp -s "$TMP/band5.a" "$TMP/band5.b" && ! cmp -s "$TMP/band5.b" "$TMP/band1.b" &&
   grep -q ",same" "$TMP/band5.b"; then
	ok "gbench-json keeps its band: show's verdicts are the result file's"
else
	bad "gbench-json's band: $(diff "$TMP/band5.a" "$TMP/band5.b" | head -4)"
fi
# show_refused FILE PATTERN WHAT: show refuses FILE, exit 2, its message
# matching PATTERN
show_refused() {
	local rc
	"$SETTLE" show "$1" >/dev/null 2>"$TMP/refused.err"
	rc=$?
	if [ $rc = 2 ] && grep -q "$2" "$TMP/refused.err"
	then ok "$3: refused"
	else bad "$3: status $rc: $(cat "$TMP/refused.err")"
	fi
}

# in a file of one process too, entries out of the order they were taken
# in (sorted by time: two rows read "same" where the file in its order
# was unclear) or without their index (copied: 50 samples a row from 5)
# are refused
"$SETTLE" show "$(dirname "$G")/byob.json" --format gbench-json >"$TMP/one.gb"
python3 - "$TMP/one.gb" "$TMP/one-bad" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"]
rows = {}
for e in b:
    if e["run_type"] == "iteration":
        rows.setdefault(e["run_name"], []).append(e)
first = list(rows.values())[0]
at = [i for i, e in enumerate(b) if e in first]
for i, e in zip(at, sorted(first, key=lambda e: e["real_time"])):
    b[i] = e  # the entries sorted by time, each with its own index
assert [e["repetition_index"] for e in b if e in first] != list(range(len(first)))
json.dump(d, open(sys.argv[2] + ".sorted", "w"))
d = json.load(open(sys.argv[1]))
for e in d["benchmarks"]:
    e.pop("repetition_index", None)
json.dump(d, open(sys.argv[2] + ".noindex", "w"))
PY
for c in sorted noindex; do
	show_refused "$TMP/one-bad.$c" \
		"has no repetition_index, or one out of the order" \
		"gbench-json of one process, entries $c"
done
# pooled against a one-process file, settle's gbench-json of 3 processes
# is not called a file that keeps no processes (a Google Benchmark
# program's is)
"$SETTLE" show "$(dirname "$G")/founding-proc.json" --format gbench-json >"$TMP/fp.gb"
"$SETTLE" compare "$(dirname "$G")/founding.json" "$TMP/fp.gb" >"$TMP/fp.cmp" 2>&1
if grep -q "Measure both files alike" "$TMP/fp.cmp" &&
   ! grep -q "Google Benchmark program" "$TMP/fp.cmp"; then
	ok "gbench-json of 3 processes against one process: measure both alike"
else
	bad "gbench-json of 3 processes against one: $(grep -i -A1 'measure\|google' "$TMP/fp.cmp")"
fi
# its aggregates are of the samples it lists: cpu_time's mean of the
# entries' CPU times (it was the wall times' mean beside them)
"$SETTLE" show "$TMP/cpu.json" --format gbench-json >"$TMP/cpu.gb"
if python3 - "$TMP/cpu.gb" <<'PY'
import json, statistics, sys
b = json.load(open(sys.argv[1]))["benchmarks"]
its = [e for e in b if e["run_type"] == "iteration"]
assert all("settle_cpu_ns" in e for e in its)
assert any(e["cpu_time"] != e["real_time"] for e in its)
for m in (e for e in b if e.get("aggregate_name") == "mean"):
    cpu = [e["cpu_time"] for e in its if e["run_name"] == m["run_name"]]
    assert abs(m["cpu_time"] - statistics.mean(cpu)) <= 1e-9 * m["cpu_time"], m
PY
then ok "gbench-json: cpu_time aggregates are the samples' CPU times'"
else bad "gbench-json: cpu_time aggregates unlike the samples'"
fi
python3 - "$TMP/cpu.gb" "$TMP/gb-bad" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def save(n, f):
    e = json.loads(json.dumps(d)); f(e)
    json.dump(e, open("%s.%d" % (sys.argv[2], n), "w"))
save(1, lambda e: e["context"].update(settle_processes=0))
save(2, lambda e: e["benchmarks"][1].pop("settle_cpu_ns"))
save(3, lambda e: e["benchmarks"][1].update(repetition_index=5))
save(4, lambda e: e["benchmarks"][2].update(settle_preempted_samples=99))
save(5, lambda e: e["benchmarks"][1].update(settle_evidence=e["benchmarks"][0]["settle_evidence"]))
save(6, lambda e: e["settle_claims"].clear())
PY
for c in "1:context.settle_processes is not a count" \
	 "2:benchmarks\[1\] (.*) has a settle_cpu_ns where" \
	 "3:benchmarks\[1\] (.*) has no repetition_index, or one out of the order" \
	 "4:benchmarks\[2\] (.*) has a settle_preempted_samples that" \
	 "5:benchmarks\[1\] (.*) has a settle_evidence that is not its row's first" \
	 "6:benchmarks\[0\]: settle_claim 'endian' is not described in settle_claims"; do
	show_refused "$TMP/gb-bad.${c%%:*}" "${c#*:}" \
		"gbench-json ${c%%:*}: ${c#*:}"
done

test_end test_formats
