#!/usr/bin/env bash
# test_golden.sh - `settle show` and `settle compare` on fixed result files
# (tests/golden/in/, written by real runs) against the expected output in
# every format (tests/golden/out/). A change of what settle says about a
# result shows up here as a diff.
#
#   SETTLE_GOLDEN_UPDATE=1 bash tests/test_golden.sh   rewrite the expected
#                                                      files (review the diff)
. "$(dirname "$0")/lib.sh"
DIR=$(cd "$(dirname "$0")" && pwd)/golden
IN=$DIR/in
OUT=$DIR/out
test_tmp golden
mkdir -p "$OUT"

# What changes from one run of the same command to the next: the time a
# file is written, the host, the program's path.
normalize() {
	sed -E -e 's/("(created|date)": )"[^"]*"/\1"DATE"/' \
	       -e 's/("(host_name|executable)": )"[^"]*"/\1"X"/' \
	       -e "s#$IN/##g"
}

# golden NAME COMMAND...: the output (stdout, then the exit status) against
# $OUT/NAME.
golden() {
	local name=$1 rc
	shift
	(cd "$IN" && "$@") >"$TMP/raw" 2>"$TMP/err"
	rc=$?
	{ normalize <"$TMP/raw"; echo "exit status $rc"; } >"$TMP/got"
	if [ -n "${SETTLE_GOLDEN_UPDATE:-}" ]; then
		cp "$TMP/got" "$OUT/$name"
	fi
	if [ -f "$OUT/$name" ] && cmp -s "$TMP/got" "$OUT/$name"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name:"
		diff -u "$OUT/$name" "$TMP/got" | head -40
		[ -s "$TMP/err" ] && head -5 "$TMP/err"
	fi
}

S=$(cd "$(dirname "$SETTLE")" && pwd)/$(basename "$SETTLE")
FORMATS="table md text csv json json-lines gbench-json"
for f in founding founding-proc bswap proc byob old gbench command command-beyond layouts; do
	for fmt in $FORMATS; do
		golden "show-$f.$fmt" "$S" show "$f.json" --format "$fmt"
	done
done
for fmt in table md text csv json json-lines; do
	golden "compare-old-new.$fmt" "$S" compare old.json new.json --format "$fmt"
	golden "compare-three.$fmt" "$S" compare old.json new.json founding.json \
		--format "$fmt"
	golden "compare-layouts.$fmt" "$S" compare layouts.json \
		layouts-moved.json --format "$fmt"
done
# machine*.json: layouts.json with a quiet load average; -slow with every
# sample 1.3 times longer (a machine that ran slower between the runs),
# -one with only the variant moved so, -other with every sample so and
# another CPU model. A baseline that moved on the same machine and build
# is warned and not settled; one that did not, or another machine, is not
# the baseline check's.
# -noisy: the baseline +30 % but unclear (its samples scattered), the
# other row +30 %: warned too (an estimate beyond 10x the band)
for f in slow one other noisy; do
	golden "compare-machine-$f.table" "$S" compare machine.json \
		"machine-$f.json"
done
golden "compare-machine-slow.json" "$S" compare machine.json \
	machine-slow.json --format json
# proc-we32.json: proc.json (3 processes, no layouts) with the samples of
# -O2 we32 5 % longer: compared per process, not pooled
golden "compare-proc.table" "$S" compare proc.json proc-we32.json
# proc-spread.json and proc-shift.json: every row of process k 0.99,
# 1.00, 1.01 and 1.00, 1.01, 1.02 times as long (a process's speed, not a
# row's): the rows are unclear, and so is the geometric mean, which takes
# the process as its unit as they do (bootstrapping each row's processes
# on their own gave [+0.31%, +1.64%]). proc-uneven.json: every row cut to 8
# of 12 samples, which do not split into 3 processes: unclear, saying so.
golden "compare-proc-shift.table" "$S" compare proc-spread.json proc-shift.json
golden "compare-proc-uneven.table" "$S" compare proc.json proc-uneven.json
# rounds-mismatch.json: proc.json with -O2 we32 given 24 samples (its 12,
# then each 20 times as long) beside its baseline's 12: its ratio pairs
# them by round, so the file is refused (its median would have come from
# samples its ratio never saw)
golden "show-rounds-mismatch" "$S" show rounds-mismatch.json
golden "compare-rounds-mismatch" "$S" compare proc.json rounds-mismatch.json
# check-other.json: new.json with every 4 KiB row's check value halved
# (other work, as a claim file whose loop was changed): warned once with
# the first row and "(and other rows)", and the summary says so
golden "compare-check-other.table" "$S" compare old.json check-other.json
# proc-unstable.json: proc.json with every other sample of -O2 we32 1.3
# times as long (MAD 13 %, marked !): the endian conclusion, which names
# that row, is not settled.
golden "show-proc-unstable.table" "$S" show proc-unstable.json
# proc-unstable-base.json: the same with -O2 long, the baseline of the
# rows the conclusion names, unstable: their ratios are no firmer, and the
# conclusion is not settled either
golden "show-proc-unstable-base.table" "$S" show proc-unstable-base.json
# proc-slow-mode.json: proc.json with 5 of the 12 samples of -O2 long,
# the baseline, 1.8 times as long (a second, slower mode in fewer than
# half of them: MAD 3 %, the best sample the fast mode's): the ratios to
# it mix both modes (2.44x where the medians give 2.92x), so it is marked
# ! by its upper quartile and the conclusion is not settled
golden "show-proc-slow-mode.table" "$S" show proc-slow-mode.json
# command-moved.json: command.json with base's spin in 1310 of its 3257
# perf samples (was 1021): compare says the share moved, +8.87 points
# [+6.55, +11.18], larger; half's and none's did not move (unclear)
for fmt in table md text csv json json-lines; do
	golden "compare-command-moved.$fmt" "$S" compare command.json \
		command-moved.json --format "$fmt"
done
# machine-slow-cpu.json: machine-slow.json pinned to another CPU: the
# baseline moved between files pinned to different CPUs, said so, not
# "with nothing recorded to explain it"
golden "compare-machine-slow-cpu.table" "$S" compare machine.json \
	machine-slow-cpu.json
# machine-slow-busy.json: machine-slow.json measured while other work kept
# 0.97 CPUs busy: the moved baseline is said with the noise, not "with
# nothing recorded to explain it" beside a note of that noise
golden "compare-machine-slow-busy.table" "$S" compare machine.json \
	machine-slow-busy.json
# command-unlike.json: command-moved.json profiled with cycles:u and no
# call chains: its shares are not compared with command.json's, said so
golden "compare-command-unlike.table" "$S" compare command.json \
	command-unlike.json
# command-changed.json: command.json with every command's text changed:
# no row counts in the geometric mean, and --fail-on 5 passes (it said
# "have no row in common" and failed)
golden "compare-command-changed.table" "$S" compare command.json \
	command-changed.json --fail-on 5
# command-other.json: command-moved.json with base profiled for work
# instead of spin and half's runs without a perf sample: each symbol of
# either side is said, not compared, and why (they were left out)
for fmt in table json; do
	golden "compare-command-other.$fmt" "$S" compare command.json \
		command-other.json --format "$fmt"
done
# command-impl.json: command.json with 900 of base's samples in
# __spin_avx2, an implementation glibc would choose for spin at load: said
# under the table, and no bound on spin settles (perf names memcpy's
# samples __memmove_avx512_unaligned_erms: "settled: under 0.70 %" at 36 %)
for fmt in table json; do
	golden "show-command-impl.$fmt" "$S" show command-impl.json --format "$fmt"
done
# and compare does not compare base's share of spin with it, saying why
golden "compare-command-impl.table" "$S" compare command.json command-impl.json
# command-nodebug.json: command.json with base's spin sampled in a program
# without debug information: said under the table, no bound settles (a
# work() inlined for three quarters of its calls read 11.98 %, a third of
# what it saved, settled), and compare does not compare the share
for fmt in table json; do
	golden "show-command-nodebug.$fmt" "$S" show command-nodebug.json \
		--format "$fmt"
done
golden "compare-command-nodebug.table" "$S" compare command.json \
	command-nodebug.json
# command-long.json, command-long-moved.json: command.json and
# command-moved.json with long names and a 255-byte symbol: the share
# line keeps its numbers and verdict (it was cut at 400 bytes)
golden "compare-command-long.csv" "$S" compare command-long.json \
	command-long-moved.json --format csv
# layouts-one-round.json: 4 processes of 4 layouts, one sample each,
# each process 1.0, 1.1, 1.2, 1.3 times as slow: scaled by process, then
# by layout, no row is unstable (by layouts alone every row was 8.6 %!);
# the conclusion quotes MB/s, a time that moves by 30 %: not settled
golden "show-layouts-one-round.table" "$S" show layouts-one-round.json
# proc-wide.json: proc-drift.json with the baseline long at 0.45, 0.52
# and 0.60 ns in the three processes, steady within each: we32 is
# slower, 1.63x [1.14, 2.32], a figure too wide to quote, not settled
golden "show-proc-wide.table" "$S" show proc-wide.json
# founding-proc-steady.json: founding-proc.json with each popcount row
# steady (+-0.5 %) in each process and the processes 1.0, 1.25 and 1.5
# times as slow: the ratios are exact, and the popcount conclusion is not
# held to its baseline's pooled spread ("by its time differs"), but it
# quotes the seconds saved, a time that moves by 50 %: not settled, too
# noisy to quote
golden "show-founding-proc-steady.table" "$S" show founding-proc-steady.json
# proc-empty.json: proc.json with no sample in any row: every row
# skipped, and the conclusion says nothing was measured (it said "there
# is no baseline to compare with", though 'long' is in the file)
golden "show-proc-empty.table" "$S" show proc-empty.json
# proc-drift3.json: proc.json with process k's samples 1, 2 and 3 times
# as long: steady within each process (no !), but the MB/s the endian
# sentence quotes are a time that triples: too noisy to quote (the first
# rule of within-process ! said settled, 2440 MB/s)
golden "show-proc-drift3.table" "$S" show proc-drift3.json
# founding-proc-few.json: founding-proc.json with syscall's rows cut to 2
# samples, fewer than its 3 processes: the pipe loop, taken by its time,
# does not settle a conclusion (it did, with every row unclear)
golden "show-founding-proc-few.table" "$S" show founding-proc-few.json
# proc-cmdmix.json: proc.json as one process, with a command object on
# one loop row: a claim not all of whose rows are commands is held to
# the 3-process rule (one command row exempted it)
golden "show-proc-cmdmix.table" "$S" show proc-cmdmix.json
# proc-drift.json: proc.json with every sample of process k 0.9, 1.0 and
# 1.1 times as long (the machine's speed moving from process to process,
# pooled MAD 8-10 %): each process's samples are as steady as proc.json's,
# so no row is marked ! (the spread is taken within each process) and the
# ratios are proc.json's; the conclusion quotes MB/s, a time that moves
# by 10 % from process to process: too noisy to quote.
golden "show-proc-drift.table" "$S" show proc-drift.json
# founding-proc-drift.json: founding-proc.json (settle run --processes 3
# --samples 5 --min-time 1) drifted the same way: syscall's conclusion,
# which takes the pipe loop by its time, is not settled (its time moved
# with the process); endian's and segprefix's, by ratios, still are.
golden "show-founding-proc-drift.table" "$S" show founding-proc-drift.json
# founding-small-unstable.json: founding.json with the 4 KiB baseline of
# popcount unstable; the conclusion rests on 128 MiB rows, whose baseline
# is stable: still settled (a baseline of another size is not theirs)
golden "show-founding-small-unstable.table" "$S" show founding-small-unstable.json
# bswap-tie-unstable.json: bswap.json with 16-bit copy avx512, a copy the
# conclusion cannot tell from the fastest (so names), unstable (its
# samples 1, 1.15, 1.3, 0.9 and 1.2 times as long): not settled
golden "show-bswap-tie-unstable.table" "$S" show bswap-tie-unstable.json
# lone-one-sample.json: founding.json's pipe-loop row alone, cut to its
# first sample (MAD 0: it looks steady): the syscall conclusion, which
# takes that row's time, is not settled (too few samples)
golden "show-lone-one-sample.table" "$S" show lone-one-sample.json
# founding-null-unstable.json: founding.json with syscall's null baseline
# unstable (its samples 1, 1.15, 1.3, 0.9 and 1.2 times as long: MAD
# 13 %); the syscall conclusion takes the pipe loop's own time, not its
# ratio to null: still settled (the table marks null and the ratios)
golden "show-founding-null-unstable.table" "$S" show founding-null-unstable.json
golden "show-founding-null-unstable.json" "$S" show founding-null-unstable.json --format json
# stored-by-time.json: its syscall rows under a claim settle does not
# know, so show reads the conclusion the file stores: its row marked
# "by": "time" is held by its own state, not its baseline's
golden "show-stored-by-time.table" "$S" show stored-by-time.json
# founding-tie.json: founding.json with the 128 MiB avx512 and auto rows
# given avx2's samples: the three tie, and their ratios, alike to three
# places, print as one figure (not "0.157x-0.157x")
golden "show-founding-tie.text" "$S" show founding-tie.json --format text
# founding-drift.json: founding.json with the core clock's last estimate
# 3.45 GHz instead of 3.69 (-6.6 %): the cycles note says by how much the
# estimated cycles are uncertain, and the segprefix conclusion gives its
# extra cycles at both estimates (the conclusion's numbers in json)
golden "show-founding-drift.table" "$S" show founding-drift.json
golden "show-founding-drift.json" "$S" show founding-drift.json --format json
golden "compare-gbench.table" "$S" compare gbench.json gbench.json
golden "compare-old-new-fail.table" "$S" compare old.json new.json --fail-on 0.5
golden "compare-gbench-json-refused" "$S" compare old.json new.json \
	--format gbench-json
test_end test_golden
