#!/bin/bash
# test_bench_summary.sh - mk/bench_summary.py, the summary make bench
# prints, on small result files made here (no timing).
#
# Read limit: the ratio printed is read-limit's time over the fastest plain
# read's as the run estimated it (the inverse of that row's ratio to the
# read-limit baseline), with the inverse of its interval, so that the
# estimate always lies inside its interval; the fastest plain read is the
# one with the smallest ratio; "within 2 %" is yes, no or unclear by the
# interval. Popcount: settle's verdict against libpopcnt, the range of its
# per-process estimates, and the tally. Byte swap: speeds as fractions of
# memcpy (copies) and load-store (in place), and for the copies the
# load-store copy's against memcpy and auto's against it. In place with one
# operation: each row's speed as a fraction of load-store's (the inverse of
# its ratio, with the inverse interval), settle's time over shuffle's. Each
# section's noise line.
#
# Usage: bash tests/test_bench_summary.sh
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
finish() {
	test_end test_bench_summary
	exit $?
}
has() {
	local what=$1 want=$2 file=$3
	if grep -qF -- "$want" "$file"; then ok "$what"
	else bad "$what: no '$want' in:"; sed 's/^/     /' "$file"; fi
}

command -v python3 >/dev/null || { echo "python3 not found: skipped"; echo "0 passed, 0 failed"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/settle-summary-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
summary=$(dirname "$0")/../mk/bench_summary.py

# One result row of the claim $claim: variant, size, B/ns, and its ratio to the baseline with
# the interval (none for the baseline).
row() {
	local v=$1 size=$2 bpn=$3 ratio=$4 lo=$5 hi=$6 verdict=${7:-unclear}
	local params="\"size_bytes\": $size"
	[ -n "${8:-}" ] && params="$params, $8"
	printf '{"claim": "%s", "variant": "%s", "params": {%s}, "median_ns": 1, "bytes_per_ns": %s' \
		"$claim" "$v" "$params" "$bpn"
	[ "$ratio" = - ] || printf ', "vs_baseline": {"ratio": %s, "ci_low": %s, "ci_high": %s, "verdict": "%s"}' \
		"$ratio" "$lo" "$hi" "$verdict"
	printf '}'
}

# Read limit at three sizes: plain-a is the fastest at 1 KiB (ratio 0.98
# to read-limit: read-limit takes 1/0.98 = 1.020 of its time), plain-b at
# 32 KiB (0.90: read-limit 1.111, all of the interval above 1.02), and at
# 1 MiB read-limit is the fastest (1/1.01 = 0.990, interval inside).
claim=readlimit-peers
{
	echo '{"schema": "settle-result/1", "settings": {"processes": 5}, "results": ['
	row read-limit 1024 100 - - - ; echo ,
	row plain-a 1024 102 0.98 0.97 0.99 ; echo ,
	row plain-b 1024 101 0.99 0.98 1.00 ; echo ,
	row read-limit 32768 100 - - - ; echo ,
	row plain-a 32768 105 0.95 0.93 0.97 ; echo ,
	row plain-b 32768 111 0.90 0.88 0.92 ; echo ,
	row read-limit 1048576 100 - - - ; echo ,
	row plain-a 1048576 99 1.01 1.005 1.015
	echo ']}'
} > "$tmp/rl.json"
python3 "$summary" - "$tmp/rl.json" - > "$tmp/rl.txt" 2>&1
has "1 KiB: the fastest plain read, ratio inverted with its interval" \
	"plain-a          102.0 B/ns  ratio 1.020  [1.010, 1.031]  within 2 %: unclear" "$tmp/rl.txt"
has "32 KiB: the fastest is plain-b; all of the interval above 1.02: no" \
	"plain-b          111.0 B/ns  ratio 1.111  [1.087, 1.136]  within 2 %: no" "$tmp/rl.txt"
has "1 MiB: read-limit faster, inside 1.02: yes" \
	"ratio 0.990  [0.985, 0.995]  within 2 %: yes" "$tmp/rl.txt"
# every printed ratio lies inside its printed interval
if awk '/ratio [0-9.]+  \[/ { r = $0; sub(/.*ratio /, "", r); split(r, f, /[][, ]+/);
	if (f[1] + 0 < f[2] + 0 || f[1] + 0 > f[3] + 0) bad = 1; n++ }
	END { exit !(n == 3 && !bad) }' "$tmp/rl.txt"; then
	ok "every read-limit ratio lies inside its interval"
else
	bad "a read-limit ratio outside its interval:"; cat "$tmp/rl.txt"
fi

# Popcount: two cells, one faster and one unclear reaching above the band.
claim=popcount-peers
{
	echo '{"schema": "settle-result/1", "settings": {"processes": 5, "equivalence_band": 0.01}, "results": ['
	row libpopcnt 1024 100 - - - - '"build": "cc -O3", "path": "avx2"'; echo ,
	row settle 1024 110 0.90 0.88 0.92 faster '"build": "cc -O3", "path": "avx2"'; echo ,
	row libpopcnt 32768 100 - - - - '"build": "cc -O3", "path": "avx2"'; echo ,
	row settle 32768 100 1.005 0.99 1.02 unclear '"build": "cc -O3", "path": "avx2"'
	echo ']}'
} > "$tmp/pc.json"
python3 "$summary" "$tmp/pc.json" - - > "$tmp/pc.txt" 2>&1
has "popcount: a faster cell with its interval" \
	"avx2           1 KiB   0.900  [0.880, 0.920]  faster" "$tmp/pc.txt"
has "popcount: the tally, the unclear cell reaching above the band" \
	"1 faster, 0 same, 1 unclear, 0 slower of 2; of the unclear, 0 with the whole interval at most 1.01 (not behind by more than the band), 1 reaching above it" "$tmp/pc.txt"
# Popcount: the lowest and highest per-process estimate (5 processes of 2
# samples, settle's time over libpopcnt's 0.9, 0.8, 1.0, 0.95, 0.85), and
# the noise the run recorded; without other_cpus, the load average.
cat > "$tmp/pp.json" <<'JSON'
{"schema": "settle-result/1", "settings": {"processes": 5, "equivalence_band": 0.01},
 "noise": {"loadavg": 0.4, "steal_pct": 0.25, "involuntary_switches": 17,
           "core_ghz_before": 3.5, "core_ghz_after": 3.25, "other_cpus": 0.125},
 "results": [
 {"claim": "popcount-peers", "variant": "libpopcnt", "params": {"size_bytes": 1024, "build": "cc", "path": "avx2"},
  "median_ns": 100, "bytes_per_ns": 10, "samples_ns": [100, 100, 100, 100, 100, 100, 100, 100, 100, 100]},
 {"claim": "popcount-peers", "variant": "settle", "params": {"size_bytes": 1024, "build": "cc", "path": "avx2"},
  "median_ns": 90, "bytes_per_ns": 11, "samples_ns": [90, 90, 80, 80, 100, 100, 95, 95, 85, 85],
  "vs_baseline": {"ratio": 0.9, "ci_low": 0.8, "ci_high": 1.01, "verdict": "unclear"}}]}
JSON
python3 "$summary" "$tmp/pp.json" - - > "$tmp/pp.txt" 2>&1
has "popcount: the per-process estimates' range" \
	"[0.800, 1.010]  unclear  0.800-1.000" "$tmp/pp.txt"
has "the run's noise: other work, steal, switches, clock" \
	"noise: 0.12 CPUs busy with other work, 0.2 % steal, 17 involuntary context switches, core clock 3.50 -> 3.25 GHz" "$tmp/pp.txt"
sed -i 's/, "other_cpus": 0.125//' "$tmp/pp.json"
python3 "$summary" "$tmp/pp.json" - - > "$tmp/pp.txt" 2>&1
has "a file without other_cpus: the load average at the start" \
	"noise: other work not recorded (load 0.40 at the start), 0.2 % steal" "$tmp/pp.txt"
# Byte swap, 32-bit at 32 KiB: copies memcpy 100 ns, load-store 160 ns,
# auto 150 ns (0.667 of memcpy; 160 / 150 = 1.067 of load-store); in
# place load-store 100 ns, auto 101 ns (0.990), no load-store copy column.
bsw() {
	printf '{"claim": "bswap", "variant": "%s", "params": {"size_bytes": 32768, "elem_bits": 32, "in_place": %s}, "median_ns": %s}' "$1" "$2" "$3"
}
{
	echo '{"schema": "settle-result/1", "settings": {"processes": 1}, "results": ['
	bsw memcpy false 100; echo ,
	bsw load-store false 160; echo ,
	bsw auto false 150; echo ,
	bsw load-store true 100; echo ,
	bsw auto true 101
	echo ']}'
} > "$tmp/bs.json"
python3 "$summary" - - "$tmp/bs.json" > "$tmp/bs.txt" 2>&1
has "bswap copy: auto of memcpy, load-store copy of memcpy, auto of load-store" 	"32-bit copy             -       -       -       -   0.667   0.625   1.067" "$tmp/bs.txt"
has "bswap in place: auto of load-store, no load-store copy columns" 	"32-bit in place         -       -       -       -   0.990       -       -" "$tmp/bs.txt"
# In place, one operation: load-store 100 ns, xor-zero 125 ns (ratio
# 1.25: speed 0.800, interval [1.20, 1.30] -> [0.769, 0.833]), shuffle
# 120 ns, settle 126 ns in both rounds (126 / 120 = 1.050); add not run.
ipr() {
	printf '{"claim": "bswap-inplace-peers", "variant": "%s", "params": {"size_bytes": 32768, "build": "cc -O3"}, "median_ns": %s, "samples_ns": [%s, %s]' "$1" "$2" "$2" "$2"
	[ -n "${3:-}" ] && printf ', "vs_baseline": {"ratio": %s, "ci_low": %s, "ci_high": %s, "verdict": "slower"}' "$3" "$4" "$5"
	printf '}'
}
{
	echo '{"schema": "settle-result/1", "settings": {"processes": 5}, "results": ['
	ipr load-store 100; echo ,
	ipr xor-zero 125 1.25 1.20 1.30; echo ,
	ipr shuffle 120 1.20 1.10 1.25; echo ,
	ipr settle 126 1.26 1.25 1.28
	echo ']}'
} > "$tmp/ip.json"
python3 "$summary" - - - "$tmp/ip.json" > "$tmp/ip.txt" 2>&1
has "in place: speeds as fractions of load-store, inverted intervals, settle/shuffle" \
	"cc -O3                     32 KiB  0.800 [0.769, 0.833]    -                       0.833 [0.800, 0.909]    0.794 [0.781, 0.800]  1.050" "$tmp/ip.txt"
sed -i 's/"steal_pct": 0.25/"steal_pct": null/' "$tmp/pp.json"
python3 "$summary" "$tmp/pp.json" - - > "$tmp/pp.txt" 2>&1
has "an unknown steal (null) is said so" "at the start), steal unknown," "$tmp/pp.txt"
# Bad input: each file that is not what its argument is for stops the
# summary with the file named on standard error, status 2 and nothing on
# standard output (not a traceback, not a partial summary).
refused() {
	local what=$1 want=$2; shift 2
	python3 "$summary" "$@" > "$tmp/bad.out" 2> "$tmp/bad.err"
	local rc=$?
	if [ $rc = 2 ] && [ ! -s "$tmp/bad.out" ] && grep -qF -- "$want" "$tmp/bad.err" &&
	   ! grep -q Traceback "$tmp/bad.err"; then
		ok "$what"
	else
		bad "$what: status $rc, wanted 2 and '$want'"; cat "$tmp/bad.out" "$tmp/bad.err"
	fi
}
head -c 200 "$tmp/pc.json" > "$tmp/trunc.json"
: > "$tmp/empty.json"
echo '{"foo": 1}' > "$tmp/foreign.json"
mkdir "$tmp/dir"
refused "a missing file" "$tmp/missing.json: cannot read" "$tmp/missing.json" - -
refused "a directory" "$tmp/dir: cannot read" - "$tmp/dir" -
refused "a truncated file" "$tmp/trunc.json: not a settle result file (invalid or truncated JSON" "$tmp/trunc.json" - -
refused "an empty file" "$tmp/empty.json: not a settle result file" - - "$tmp/empty.json"
refused "another tool's JSON" "$tmp/foreign.json: not a settle result file (no schema" - "$tmp/foreign.json" -
refused "the popcount sweep's file given as the read limit's" \
	"$tmp/pc.json: holds results of claim 'popcount-peers', this argument is for claim 'readlimit-peers'" \
	"$tmp/pc.json" "$tmp/pc.json" -
refused "a bad file after good ones: nothing printed" "$tmp/trunc.json: not a settle" \
	"$tmp/pc.json" "$tmp/rl.json" "$tmp/bs.json" "$tmp/trunc.json"
refused "too few arguments: the usage" "usage: bench_summary.py" "$tmp/pc.json"
finish
