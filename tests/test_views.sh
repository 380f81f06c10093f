#!/usr/bin/env bash
# test_views.sh - one view, said alike everywhere:
#   - `settle run --output r.json` prints exactly what `settle show r.json`
#     prints (one process, and pooled fresh processes);
#   - one report in every format carries the same rows, statuses, verdicts,
#     unstable (!) and layout-sensitive (~) marks with their notes, and
#     warnings (read from csv as the reference); csv and json-lines end
#     with the noise line and the table's warnings.
. "$(dirname "$0")/lib.sh"
GOLDEN=$(cd "$(dirname "$0")" && pwd)/golden/in
test_tmp views

# run --output prints what show prints
for procs in 1 2; do
	if "$SETTLE" run endian syscall --quick --samples 3 --min-time 1 \
		--processes $procs --format json --output "$TMP/r$procs.json" \
		>"$TMP/run$procs.txt" 2>"$TMP/err" &&
	   "$SETTLE" show "$TMP/r$procs.json" >"$TMP/show$procs.txt" 2>>"$TMP/err" &&
	   cmp -s "$TMP/run$procs.txt" "$TMP/show$procs.txt"; then
		ok "run --output prints what show prints ($procs process(es))"
	else
		bad "run and show differ ($procs process(es)):"
		grep "invalid" "$TMP/run$procs.txt"
		diff "$TMP/run$procs.txt" "$TMP/show$procs.txt" | head -10
		head -3 "$TMP/err"
	fi
done

# every format of one report says the same
check_formats() {
	local file=$1 name=$2
	for fmt in table md text csv json-lines; do
		"$SETTLE" show "$file" --format $fmt >"$TMP/$name.$fmt" || return 1
	done
	python3 - "$TMP/$name" <<'PY'
import csv, json, re, sys
base = sys.argv[1]
out = {f: open(base + "." + f, encoding="utf-8").read()
       for f in ("table", "md", "text", "csv", "json-lines")}
csv_lines = out["csv"].splitlines()
rows = list(csv.DictReader(l for l in csv_lines if not l.startswith("# ")))
noise_lines = [l for l in csv_lines
               if l.startswith("# noise: ") or l.startswith("# warning: ")]
concl = [l for l in csv_lines if l.startswith("# ") and l not in noise_lines]
alljl = [json.loads(l) for l in out["json-lines"].splitlines()]
lines = [j for j in alljl if "conclusion" not in j and "noise" not in j]
jc = [j for j in alljl if "conclusion" in j]
jn = [j for j in alljl if "noise" in j]
problems = []
if len(rows) != len(lines):
    problems.append("csv has %d rows, json-lines %d" % (len(rows), len(lines)))
for r, j in zip(rows, lines):
    if r["label"] != j["label"] or (r["verdict"] or None) != j["verdict"]:
        problems.append("csv and json-lines disagree on %s" % r["label"])
    if (r["unstable"] == "true") != j["unstable"]:
        problems.append("unstable differs for %s" % r["label"])
    if (r["layout_sensitive"] == "true") != j["layout_sensitive"]:
        problems.append("layout_sensitive differs for %s" % r["label"])
    # the same ratio, and an interval in both or neither (json-lines once
    # gave the medians' ratio and csv a 75 % interval where the table
    # printed the paired estimate and "-")
    rr, jr = r["ratio"], j["ratio"]
    if (rr == "") != (jr is None) or \
            (jr is not None and abs(float(rr) - jr) > 1e-6 * abs(jr)):
        problems.append("ratio of %s: csv %s, json-lines %s" %
                        (r["label"], rr, jr))
    if (r["ci_low"] == "") != (j["ci_low"] is None):
        problems.append("interval of %s: csv %r, json-lines %r" %
                        (r["label"], r["ci_low"], j["ci_low"]))
def norm(s):
    return re.sub(r"\s+", " ", s.replace("\\", ""))
for f in ("table", "md", "text"):
    text = norm(out[f])
    for r in rows:
        want = r["label"]
        if want not in text:
            problems.append("%s lacks the row %s" % (f, want))
        v = r["verdict"] or ("skipped" if r["skipped"] else "")
        if v and v not in text:
            problems.append("%s lacks the verdict %s" % (f, v))
    n_unstable = sum(r["unstable"] == "true" for r in rows)
    marks = {"table": len(re.findall(r"\d%!", out["table"])),
             "md": len(re.findall(r"% \\(!\\)(?: \(~\))? \|", out["md"])) +
                   len(re.findall(r"% \(!\)(?: \(~\))? \|", out["md"])),
             "text": len(re.findall(r"\d%!", out["text"]))}[f]
    if marks != n_unstable:
        problems.append("%s marks %d rows unstable, csv %d" %
                        (f, marks, n_unstable))
    n_moved = sum(r["layout_sensitive"] == "true" for r in rows)
    lmarks = {"table": len(re.findall(r"\d%!?~", out["table"])),
              "md": len(re.findall(r"% (?:\\?\(!\\?\) )?\(~\) \|", out["md"])),
              "text": len(re.findall(r"\d%!?~", out["text"]))}[f]
    if lmarks != n_moved:
        problems.append("%s marks %d rows layout-sensitive, csv %d" %
                        (f, lmarks, n_moved))
    if n_moved and "~ layout-sensitive" not in norm(out[f]).replace("(~)", "~"):
        problems.append("%s has no note for the ~ mark" % f)
# the conclusions: one per claim, the same status everywhere
status = ["not settled" if ": not settled:" in c else "settled" for c in concl]
if [j["conclusion"]["status"] for j in jc] != status:
    problems.append("csv and json-lines conclude differently")
for f, pat in (("table", r"^  (not settled|settled):"),
               ("text", r"^  (not settled|settled):"),
               ("md", r"^\*\*(not settled|settled):\*\*")):
    got = re.findall(pat, out[f], re.M)
    if got != status:
        problems.append("%s concludes %s, csv %s" % (f, got, status))
warn = lambda s: sorted(norm(w) for w in re.findall(r"warning:\**\s*(.+?)(?:\n(?! )|$)", s, re.S))
w_table = warn(out["table"])
for f in ("md", "text"):
    if warn(out[f]) != w_table:
        problems.append("%s warns %s, table %s" % (f, warn(out[f]), w_table))
# csv and json-lines: the noise line and the same warnings, last
w_csv = sorted(norm(l[len("# warning: "):]) for l in noise_lines
               if l.startswith("# warning: "))
if w_csv != w_table:
    problems.append("csv warns %s, table %s" % (w_csv, w_table))
if len(jn) != 1 or alljl[-1] is not jn[0] or \
        sorted(norm(w) for w in jn[0]["warnings"]) != w_table:
    problems.append("json-lines: no last noise line with the table's "
                    "warnings")
noise_csv = [l for l in noise_lines if l.startswith("# noise: ")]
if len(noise_csv) != 1 or not jn or \
        noise_csv[0][len("# noise: "):] != jn[0]["noise"] or \
        norm(jn[0]["noise"]) not in norm(out["table"]):
    problems.append("the noise line differs between csv, json-lines "
                    "and table")
for p in problems[:10]:
    print("     " + p)
sys.exit(1 if problems else 0)
PY
}
# few.json: the golden command run cut to 3 runs a command: too few for a
# verdict, and an interval of 75 %, below the level printed
python3 - "$GOLDEN/command.json" "$TMP/few.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    r["samples_ns"] = r["samples_ns"][:3]
    c = r["command"]
    c["user_ns"], c["sys_ns"] = c["user_ns"][:3], c["sys_ns"][:3]
json.dump(doc, open(sys.argv[2], "w"))
PY
for f in founding bswap proc byob layouts few; do
	in=$GOLDEN/$f.json
	[ $f = few ] && in=$TMP/few.json
	if check_formats "$in" "$f"; then
		ok "$f.json: the same rows, verdicts, marks and warnings in table, md, text, csv, json-lines"
	else
		bad "$f.json: the formats disagree"
	fi
done
# compare, ready to paste: text within 72 columns even with long labels,
# md and text ending with the summary
python3 - "$GOLDEN/old.json" "$TMP/long.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    r["label"] = r["variant"] = r["variant"] + "-with-a-name-much-longer-than-any-column-is-wide"
json.dump(doc, open(sys.argv[2], "w"))
PY
for fmt in text md table; do
	"$SETTLE" compare "$TMP/long.json" "$TMP/long.json" --format $fmt \
		>"$TMP/cmp.$fmt" 2>&1
done
if python3 - "$TMP/cmp.text" <<'PY'
import sys, unicodedata
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
w = max(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
        for l in lines)
sys.exit(0 if w <= 72 and "much-longer-than-any-column-is-wide" in
         "".join(lines).replace(" ", "") else 1)
PY
then
	ok "compare --format text: long labels wrapped, not cut, within 72 columns"
else
	bad "compare --format text is wider than 72 columns or cuts a label"
fi
for fmt in text md table; do
	# the summary, wrapped at 72 columns in text, is the last paragraph
	if tail -9 "$TMP/cmp.$fmt" | grep -q "^\(\*\*\)\?\(not \)\?settled:"; then
		ok "compare --format $fmt ends with the settled/not settled summary"
	else
		bad "compare --format $fmt does not end with the summary"
	fi
done
# compare: a change within the spread of an unstable row is not called
# (90 samples within +-12 % of their median, MAD 6 %; the new file 5 %
# slower, an interval beyond the band but within the spread: unclear; 60 %
# slower: slower)
spread() { # OUT FACTOR: old.json's first result with spread samples x FACTOR
	python3 - "$GOLDEN/old.json" "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["results"][0]
base = [1000.0 * (1 + 0.03 * (i % 9 - 4)) for i in range(90)]
r["samples_ns"] = [v * float(sys.argv[3]) for v in base]
doc["results"] = [r]
json.dump(doc, open(sys.argv[2], "w"))
PY
}
spread "$TMP/s1.json" 1 && spread "$TMP/s105.json" 1.05 &&
	spread "$TMP/s160.json" 1.6
"$SETTLE" compare "$TMP/s1.json" "$TMP/s105.json" >"$TMP/c105" 2>&1
"$SETTLE" compare "$TMP/s1.json" "$TMP/s160.json" >"$TMP/c160" 2>&1
if grep -q "unclear (within the spread of an unstable row)" "$TMP/c105" &&
   grep -Eq "\+60\.00%! .* slower" "$TMP/c160"; then
	ok "compare: 5 % within a 6 % spread (MAD) is unclear, 60 % is slower"
else
	bad "compare across an unstable row: $(grep popcount "$TMP/c105" "$TMP/c160")"
fi

# compare: csv and json-lines carry the table's warnings, the differences
# between the machines (one line each in csv) and each file's noise
for fmt in table csv json-lines; do
	"$SETTLE" compare "$GOLDEN/machine-one.json" "$GOLDEN/machine-other.json" \
		--format $fmt >"$TMP/cw.$fmt" 2>/dev/null
done
if python3 - "$TMP/cw" <<'PY'
import json, re, sys
b = sys.argv[1]
table = open(b + ".table").read()
csvw = [l[len("# warning: "):] for l in open(b + ".csv").read().splitlines()
        if l.startswith("# warning: ")]
last = json.loads(open(b + ".json-lines").read().splitlines()[-1])
n_table = len(re.findall(r"^ *warning: ", table, re.M))
jw = last["differences"] + last["warnings"]
ok = (n_table > 0 and len(csvw) == n_table and len(jw) == n_table and
      any("different CPU models" in w for w in csvw) and
      any("different CPU models" in w for w in last["differences"]))
sys.exit(0 if ok else 1)
PY
then
	ok "compare csv and json-lines: the table's warnings, machine differences included"
else
	bad "compare csv/json-lines warnings differ from the table's: $(grep -c warning "$TMP/cw.table") in the table"
	grep "warning" "$TMP/cw.csv" "$TMP/cw.json-lines" | head -5
fi

# a file compared with itself: its noise warned about once, not once a side
n=$("$SETTLE" compare "$GOLDEN/founding-drift.json" "$GOLDEN/founding-drift.json" 2>&1 |
	grep -c "^warning: .*founding-drift.json: the core clock drifted")
[ "$n" = 1 ] && ok "compare of a file with itself: each warning once" ||
	bad "compare of a file with itself: the drift warned $n times"

# table: each row's time ends where the header's "per OP" ends, however
# long the claim's operation's name ("per increment" is 13 columns)
for f in "$GOLDEN"/founding.json "$GOLDEN"/bswap.json "$GOLDEN"/byob.json; do
	"$SETTLE" show "$f" >"$TMP/cols.table" 2>/dev/null
	if python3 - "$TMP/cols.table" <<'PY'
import re, sys
end, rows, bad = None, 0, []
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    m = re.search(r"per \S+", line)
    if line.lstrip().startswith(("variant", "size")) and m:
        end = m.end()
        continue
    if end is None or not line.strip():
        end = None
        continue
    t = re.match(r"\s*\S.*?\s(\S+ (?:ns|us|ms|s))(?=\s)", line)
    if not t:
        end = None
        continue
    rows += 1
    if t.end(1) != end:
        bad.append(line)
if bad or not rows:
    print("\n".join(bad[:3]) or "no rows")
    sys.exit(1)
PY
	then
		ok "table columns under their headers ($(basename "$f"))"
	else
		bad "table columns shifted from their headers ($(basename "$f"))"
	fi
done

# compare's table: each row's counts and verdict start under "samples" and
# "verdict" (they sat 2 columns right of them), with and without marks,
# and with names wider than 40 columns (they pushed the columns after
# them out of line)
for pair in "$GOLDEN/old.json $GOLDEN/new.json" \
	    "$GOLDEN/layouts.json $GOLDEN/layouts-moved.json" \
	    "$TMP/long.json $TMP/long.json"; do
	set -- $pair
	"$SETTLE" compare "$1" "$2" >"$TMP/cmpcols.table" 2>/dev/null
	if python3 - "$TMP/cmpcols.table" <<'PY'
import re, sys
s = v = None
rows = bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if "claim / variant" in line and "samples" in line:
        s, v = line.index("samples"), line.index("verdict")
        continue
    m = re.search(r"\]  (\d+/\d+) +(\S)", line)
    if s is None or not m:
        continue
    rows += 1
    bad += m.start(1) != s or m.start(2) != v
sys.exit(0 if rows and not bad else 1)
PY
	then
		ok "compare table columns under their headers (${1##*/} ${2##*/})"
	else
		bad "compare table columns shifted from their headers (${1##*/} ${2##*/})"
	fi
done

# a file compared with itself (or a copy) is said to be one run: warned,
# and never settled (compare a.json a.json read settled, all the same)
"$SETTLE" compare "$GOLDEN/proc.json" "$GOLDEN/proc.json" >"$TMP/self.out" 2>&1
cp "$GOLDEN/founding-proc.json" "$TMP/copy.json"
"$SETTLE" compare "$GOLDEN/founding-proc.json" "$TMP/copy.json" >"$TMP/copy.out" 2>&1
"$SETTLE" compare "$GOLDEN/proc.json" "$GOLDEN/proc-we32.json" >"$TMP/other.out" 2>&1
python3 - "$GOLDEN/founding-proc.json" "$TMP/rev.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:  # the same samples in another order
    r["samples_ns"] = r["samples_ns"][::-1]
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" compare "$GOLDEN/founding-proc.json" "$TMP/rev.json" >"$TMP/rev.out" 2>&1
flat() { tr '\n' ' ' <"$1" | sed 's/  */ /g'; }
if flat "$TMP/self.out" | grep -q "hold the same samples (one run, or a copy of its file)" &&
   flat "$TMP/copy.out" | grep -q "hold the same samples" &&
   flat "$TMP/rev.out" | grep -q "hold the same samples" &&
   ! grep -q "^settled:" "$TMP/copy.out" &&
   flat "$TMP/copy.out" | grep -q "a run compared with itself" &&
   ! flat "$TMP/other.out" | grep -q "same samples"; then
	ok "compare of a run with itself: said, not settled"
else
	bad "compare of a run with itself: $(tail -4 "$TMP/copy.out")"
fi

# a lone variant's time ("settled: csum takes 9.436 us") is not settled
# when the noise line warns (the machine's speed moved: no ratio in the
# same rounds cancels it); settled when it does not
python3 - "$GOLDEN/byob.json" "$TMP/lone" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = [r for r in d["results"] if r["variant"] == "long"]
for r in d["results"]:  # 3 processes of the same 5 samples: steady
    r["samples_ns"] = r["samples_ns"] * 3
d["settings"]["processes"] = 3
for name, other in (("quiet", 0.0), ("busy", 1.02)):
    d["noise"]["other_cpus"] = other
    json.dump(d, open("%s-%s.json" % (sys.argv[2], name), "w"))
PY
"$SETTLE" show "$TMP/lone-quiet.json" >"$TMP/lone-quiet.out" 2>&1
"$SETTLE" show "$TMP/lone-busy.json" >"$TMP/lone-busy.out" 2>&1
if grep -q "^  settled: gcc -O0: long takes" "$TMP/lone-quiet.out" &&
   flat "$TMP/lone-busy.out" | grep -q "not settled: a time alone, measured while the machine's speed moved"; then
	ok "a lone variant's time: settled on a quiet machine, not under noise"
else
	bad "a lone variant's time: $(grep -h settled "$TMP"/lone-*.out)"
fi

# compare's geometric mean with processes as units is made as its rows
# are (one level per process, Welch's t): of 3-process files with every
# row compared by process levels it is the geometric mean of the rows'
# changes (it was the Hodges-Lehmann shift of the per-process means, with
# a Mann-Whitney interval of 90 %: -19.19 % beside rows averaging -21.15 %)
for new in proc-shift proc-we32; do
	"$SETTLE" compare "$GOLDEN/proc.json" "$GOLDEN/$new.json" --format json \
		>"$TMP/gm.json" 2>/dev/null
	if python3 - "$TMP/gm.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))["comparisons"][0]
rows = [r for r in d["rows"] if r["change_pct"] is not None]
g = math.exp(sum(math.log1p(r["change_pct"] / 100) for r in rows) / len(rows)) - 1
gm = d["geometric_mean"]
assert len(rows) == 8 and gm["method"] == "per unit", (len(rows), gm)
assert abs(gm["change_pct"] - 100 * g) < 1e-6, (gm, 100 * g)
assert gm["ci_low_pct"] < gm["change_pct"] < gm["ci_high_pct"], gm
PY
	then ok "compare proc $new: the geometric mean is that of the rows' changes"
	else bad "compare proc $new: geometric mean unlike the rows'"
	fi
done

test_end test_views
