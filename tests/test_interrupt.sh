#!/usr/bin/env bash
# test_interrupt.sh - Ctrl-C keeps what was measured and leaves nothing
# behind: SIGINT/SIGTERM during `settle run` print the claims that
# finished, then "interrupted"; exit 130/143; --output is not written; no
# temporary file stays (TMPDIR, the build cache), also when interrupted
# during --processes and during a FILE.c build; a second Ctrl-C ends at
# once, still removing them.
. "$(dirname "$0")/lib.sh"
test_tmp intr
export SETTLE_CACHE_DIR=$TMP/cache
export TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"

# fast runs quickly; slow marks that it started (its set-up), then runs
# as long as asked, and 40 times as long as fast (40 sizes): so a signal
# sent a moment after the mark lands in slow, while fast takes no longer
# than its few samples (500 samples of 10 ms each had it take 5 s).
cat >"$TMP/slow.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <settle.h>
static uint64_t spin(void *s, const void *a, uint64_t n)
{
	uint64_t x = 0;

	(void)s, (void)a;
	for (uint64_t i = 0; i < n; i++) {
		x += i;
		settle_keep(x);
	}
	return n;
}
static void *mark(const struct settle_params *p, char *e, size_t n)
{
	const char *m = getenv("MARK");
	FILE *f = m ? fopen(m, "a") : NULL;

	(void)p, (void)e, (void)n;
	if (f)
		fclose(f);
	return (void *)1;
}
static const struct settle_variant v[] = { { .name = "spin", .run = spin } };
static const struct settle_claim fast = { .name = "fast", .variants = v,
	.nvariants = 1 };
static const uint64_t sizes[40] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
	31, 32, 33, 34, 35, 36, 37, 38, 39, 40 };
static const struct settle_claim slow = { .name = "slow", .variants = v,
	.nvariants = 1, .setup = mark, .default_sizes = sizes,
	.ndefault_sizes = 40 };
SETTLE_CLAIMS(&fast, &slow);
C
"$SETTLE" run "$TMP/slow.c" --quick --samples 1 >/dev/null 2>&1 # compile once

# wait_mark FILE: up to 30 s for the marker
wait_mark() {
	for _ in $(seq 300); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
leftovers() {
	find "$TMPDIR" "$SETTLE_CACHE_DIR" -mindepth 1 \( -name '*tmp*' -o -name 'settle-proc-*' \) |
		grep -v '^$' || true
}

# 1. SIGINT in the second claim: the first is printed, exit 130, no file
rm -f "$TMP/mark"
MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" fast slow --samples 30 \
	--min-time 10 --format json --output "$TMP/r.json" \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.3
kill -INT $pid; wait $pid; rc=$?
if [ $rc = 130 ] && grep -q "interrupted (SIGINT)" "$TMP/err" &&
   grep -q "cc -O2 spin" "$TMP/out" && grep -q "^fast" "$TMP/out" &&
   ! grep -q "^slow" "$TMP/out"; then
	ok "SIGINT: the finished claim's table, then interrupted; exit 130"
else
	bad "SIGINT: status $rc: $(cat "$TMP/err") / $(grep -c spin "$TMP/out") rows"
fi
[ ! -e "$TMP/r.json" ] && ok "--output is not written when interrupted" ||
	bad "an interrupted run wrote --output"

# 1b. to standard output in a format programs read: nothing there (a csv
# cut short read as the whole run; the table came instead), said; in md,
# the finished claim in md
for fmt in csv md; do
	rm -f "$TMP/mark"
	MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" fast slow --samples 30 \
		--min-time 10 --format $fmt >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_mark "$TMP/mark"; sleep 0.3
	kill -INT $pid; wait $pid; rc=$?
	if [ $fmt = csv ]; then
		[ $rc = 130 ] && [ ! -s "$TMP/out" ] &&
		grep -q "the claims that finished are not written (csv cut short would read as the whole run)" "$TMP/err" &&
			ok "SIGINT, --format csv: nothing on standard output, said" ||
			bad "SIGINT, csv: status $rc: $(cat "$TMP/err") / $(head -2 "$TMP/out")"
	else
		[ $rc = 130 ] && grep -q "^### fast" "$TMP/out" &&
		! grep -q "^### slow" "$TMP/out" &&
		grep -q "the claims above finished" "$TMP/err" &&
			ok "SIGINT, --format md: the finished claim in md" ||
			bad "SIGINT, md: status $rc: $(cat "$TMP/err") / $(head -2 "$TMP/out")"
	fi
done

# 2. SIGTERM: 143
rm -f "$TMP/mark"
MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" slow --samples 500 --min-time 10 \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.3
kill -TERM $pid; wait $pid; rc=$?
[ $rc = 143 ] && grep -q "interrupted (SIGTERM)" "$TMP/err" &&
	ok "SIGTERM: interrupted, exit 143" || bad "SIGTERM: status $rc: $(cat "$TMP/err")"

# 2b. SIGHUP (a closed terminal): 129, and a command's jobs end with
# settle (they were left running)
tag="sleep 41.$$"
"$SETTLE" run --command "a=$tag & touch '$TMP/hmark'; sleep 5" --samples 3 \
	--warmup 0 >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/hmark"
kill -HUP $pid; wait $pid; rc=$?
sleep 0.2
[ $rc = 129 ] && grep -q "interrupted (SIGHUP)" "$TMP/err" &&
	[ "$(pgrep -fc "$tag")" = 0 ] &&
	ok "SIGHUP: interrupted, exit 129, nothing left running" ||
	bad "SIGHUP: status $rc, $(pgrep -fc "$tag") left: $(cat "$TMP/err")"
pkill -f "$tag"

# 3. --processes: SIGTERM to settle alone reaches its child; nothing left
rm -f "$TMP/mark"
MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" slow --processes 3 --samples 500 \
	--min-time 10 >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.3
kill -TERM $pid; wait $pid; rc=$?
for _ in $(seq 30); do # the child ends at its next step
	pgrep -f "$TMP/slow.c" >/dev/null || break
	sleep 0.1
done
if [ $rc = 143 ] && [ -z "$(leftovers)" ] &&
   ! pgrep -f "$TMP/slow.c" >/dev/null; then
	ok "--processes interrupted: exit 143, the child ended, no settle-proc-* left"
else
	bad "--processes interrupted: status $rc, left: $(leftovers)"
	pkill -f "$TMP/slow.c"
fi
[ "$(grep -c interrupted "$TMP/err")" = 1 ] && [ ! -s "$TMP/out" ] &&
	ok "--processes interrupted: said once, no child's table" ||
	bad "--processes interrupted: said $(grep -c interrupted "$TMP/err") times: $(cat "$TMP/err") / $(cat "$TMP/out")"

# 3b. Ctrl-C reaches settle and its child alike (the terminal signals the
# whole process group): still one "interrupted", exit 130
rm -f "$TMP/mark"
MARK=$TMP/mark setsid "$SETTLE" run "$TMP/slow.c" slow --processes 3 \
	--samples 500 --min-time 10 >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.3
kill -INT -- -$pid; wait $pid; rc=$?
for _ in $(seq 30); do
	pgrep -f "$TMP/slow.c" >/dev/null || break
	sleep 0.1
done
if [ $rc = 130 ] && [ "$(grep -c interrupted "$TMP/err")" = 1 ] &&
   [ ! -s "$TMP/out" ] && [ -z "$(leftovers)" ]; then
	ok "Ctrl-C during --processes: exit 130, interrupted said once"
else
	bad "Ctrl-C during --processes: status $rc: $(cat "$TMP/err") / $(cat "$TMP/out")"
	pkill -f "$TMP/slow.c"
fi

# 4. SIGINT during a FILE.c build (a compiler that takes its time)
cat >"$TMP/slowcc" <<'SH'
#!/bin/sh
# a shell waiting for a command in front runs its trap after it: the
# sleep in the background, so that the signal settle passes on ends it
touch "$MARK"
trap 'kill $s; exit 130' INT TERM
sleep 30 & s=$!
wait $s
exec cc "$@"
SH
chmod +x "$TMP/slowcc"
rm -f "$TMP/mark"
MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" --build "$TMP/slowcc -O1" --quick \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.3
start=$(date +%s)
kill -INT $pid; wait $pid; rc=$?
took=$(( $(date +%s) - start ))
sleep 0.5
if [ $rc = 130 ] && [ -z "$(leftovers)" ] && grep -q "interrupted" "$TMP/err"; then
	ok "SIGINT during a build: exit 130, no temporary object left in the cache"
else
	bad "build interrupted: status $rc, left: $(leftovers): $(cat "$TMP/err")"
fi
# the mark is made by the compiler's --version (part of the cache key):
# settle read its output on, and the signal waited out the 10 s grace
[ $took -le 5 ] && grep -q "slowcc --version' interrupted" "$TMP/err" &&
	ok "SIGINT while the compiler says its version: passed on, ends at once (${took} s)" ||
	bad "SIGINT during --version: ended ${took} s on: $(cat "$TMP/err")"
pkill -f "$TMP/slowcc" 2>/dev/null

# 5. a second Ctrl-C ends at once, even inside a long sample
rm -f "$TMP/mark"
MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" slow --samples 3 --min-time 20000 \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_mark "$TMP/mark"; sleep 0.5
start=$(date +%s)
kill -INT $pid; sleep 0.3; kill -INT $pid; wait $pid; rc=$?
took=$(( $(date +%s) - start ))
if [ $rc = 130 ] && [ $took -le 5 ] && [ -z "$(leftovers)" ] &&
   grep -q "interrupted again: stopped at once" "$TMP/err"; then
	ok "a second SIGINT ends settle at once (${took} s), nothing left"
else
	bad "second SIGINT: status $rc after ${took} s, left: $(leftovers)"
fi
# 5b. the same signal twice at once (timeout(1) signals settle, then its
# process group): one interruption, said; the second, caught after the
# first, ended settle without a word
for k in 1 2 3; do
	rm -f "$TMP/mark"
	MARK=$TMP/mark "$SETTLE" run "$TMP/slow.c" fast slow --samples 30 \
		--min-time 10 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_mark "$TMP/mark"; sleep 0.2
	kill -INT $pid; kill -INT $pid; wait $pid; rc=$?
	if [ $rc = 130 ] && grep -q "interrupted (SIGINT)" "$TMP/err" &&
	   grep -q "^fast" "$TMP/out"; then
		ok "two SIGINTs at once ($k): one interruption, tables and message"
	else
		bad "two SIGINTs at once ($k): status $rc, said: $(cat "$TMP/err")"
	fi
done
# 6. on a terminal, the first Ctrl-C says what it does and how to stop at
# once (a claim stuck in a long sample would otherwise seem to ignore it)
if command -v script >/dev/null 2>&1; then
	rm -f "$TMP/mark"
	MARK=$TMP/mark script -qec "'$SETTLE' run '$TMP/slow.c' slow --samples 3 \
		--min-time 20000" /dev/null >"$TMP/tty.out" 2>&1 &
	spid=$!
	wait_mark "$TMP/mark"; sleep 0.5
	pid=$(pgrep -f "settle run $TMP/slow.c slow" | head -1)
	kill -INT $pid; sleep 0.5; kill -INT $pid; wait $spid
	if grep -q "Ctrl-C again stops at once" "$TMP/tty.out"; then
		ok "on a terminal, the first Ctrl-C says a second stops at once"
	else
		bad "no hint after the first Ctrl-C: $(tail -3 "$TMP/tty.out")"
	fi
	"$SETTLE" run "$TMP/slow.c" slow --samples 3 --min-time 20000 \
		>/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 1; kill -INT $pid; sleep 0.3; kill -INT $pid; wait $pid
	! grep -q "Ctrl-C again" "$TMP/err" &&
		ok "not a terminal: no hint" || bad "the hint went to a file"
fi
# 7. settle selftest: interrupted says so (not that a measurement failed)
"$SETTLE" selftest --quick >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT $pid; wait $pid; rc=$?
[ $rc = 130 ] && grep -q "interrupted (SIGINT)" "$TMP/err" &&
	! grep -q "failed" "$TMP/err" &&
	ok "selftest interrupted: exit 130, says interrupted" ||
	bad "selftest interrupted: status $rc: $(cat "$TMP/err")"
# 8-11 each wait out settle's 10 s grace, so they run side by side: each
# in a directory D of its own (its output, its mark, and its TMPDIR, so
# that what it leaves behind is its own), saying ok or FAIL into D/said.
cat >"$TMP/loop.c" <<'C'
#include <stdlib.h>
#include <stdio.h>
#include <settle.h>
static uint64_t forever(void *s, const void *a, uint64_t n)
{
	const char *m = getenv("MARK");
	FILE *f = m ? fopen(m, "a") : NULL;

	(void)a, (void)n;
	if (f)
		fclose(f);
	for (;;)
		settle_keep(s);
	return 0;
}
static const struct settle_variant v[] = { { .name = "forever",
	.run = forever } };
static const struct settle_claim c = { .name = "loop", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
# built once, so that no scenario compiles into the shared cache while
# another looks there for leftovers
"$SETTLE" run "$TMP/loop.c" --variant none_such >/dev/null 2>&1
# left_in D: temporary files under D's TMPDIR or in the build cache
left_in() {
	find "$1/tmp" "$SETTLE_CACHE_DIR" -mindepth 1 \
		\( -name '*tmp*' -o -name 'settle-proc-*' \) | grep -v '^$' || true
}
sides=
# side NAME FUNCTION ARGS...: FUNCTION ARGS in the background, with D
# and TMPDIR set to $TMP/NAME
side() {
	local d=$TMP/$1 f=$2
	shift 2
	mkdir -p "$d/tmp"
	( D=$d TMPDIR=$d/tmp; export TMPDIR; "$f" "$@" >"$d/said" 2>&1 ) &
	sides="$sides $!"
}
# term_once CMD...: CMD in the background (stdout and stderr in $D/out
# and $D/err), one SIGTERM once $D/mark exists; its status in rc and the
# seconds from the signal to its end in took; killed 40 s on if it would
# wait for ever
term_once() {
	local pid guard t0
	"$@" >"$D/out" 2>"$D/err" &
	pid=$!
	wait_mark "$D/mark"
	t0=$(date +%s)
	( sleep 40; kill -KILL $pid ) >/dev/null 2>&1 &
	guard=$!
	kill -${sig:-TERM} $pid; wait $pid; rc=$?
	kill $guard 2>/dev/null
	took=$(( $(date +%s) - t0 ))
}
# 8. a claim whose run() never returns: one SIGTERM (as timeout sends)
# still ends settle, 10 s on, saying why (it once ran on for ten minutes);
# 9. the same with one SIGINT where stderr is no terminal (timeout -s INT,
# a CI runner): no one can press Ctrl-C again, so it ends 10 s on as well.
# one_signal SIG STATUS: SIG once to settle running loop.c; it must end
# 10 s on with STATUS, saying why, with nothing written or left behind.
one_signal() {
	local sig=$1 want=$2 rc took
	term_once env MARK="$D/mark" "$SETTLE" run "$TMP/loop.c" --quick \
		--samples 3 --output "$D/loop.json"
	if [ $rc = $want ] && [ $took -ge 8 ] && [ $took -le 30 ] &&
	   grep -q "interrupted (SIG$sig): the current step did not end within 10 s" \
		"$D/err" && [ ! -e "$D/loop.json" ] &&
	   [ -z "$(left_in "$D")" ]; then
		echo "ok   one SIG$sig to a claim that never returns: ends ${took} s on, says why"
	else
		echo "FAIL SIG$sig, looping claim: status $rc after ${took} s: $(cat "$D/err")"
	fi
}
# 10. with --layouts (fresh processes): said once, by settle, not again by
# the process it runs
layouts_once() {
	local rc took n
	term_once env MARK="$D/mark" "$SETTLE" run "$TMP/loop.c" --quick \
		--samples 3 --layouts 3
	n=$(grep -c "did not end within 10 s" "$D/err")
	[ $rc = 143 ] && [ "$n" = 1 ] && [ -z "$(left_in "$D")" ] &&
		echo "ok   --layouts, a claim that never returns: one SIGTERM, said once" ||
		echo "FAIL --layouts, looping claim: status $rc, said $n times: $(cat "$D/err")"
}
# 11. a whole command that ignores SIGTERM and SIGINT: ended with its
# process group when settle ends 10 s on (it ran on, its parent init)
command_ignoring() {
	local rc took tag="sleep 297.$$"
	term_once "$SETTLE" run \
		--command "a=trap '' INT TERM; touch '$D/mark'; $tag" --quick
	sleep 0.5
	if [ $rc = 143 ] && ! pgrep -f "$tag" >/dev/null &&
	   grep -q "a claim or command that does not stop" "$D/err"; then
		echo "ok   a command that ignores SIGTERM: ended with settle, 10 s on"
	else
		echo "FAIL command ignoring SIGTERM: status $rc, still running: $(pgrep -af "$tag"): $(cat "$D/err")"
		pkill -KILL -f "$tag"
	fi
}
# 12. a claim that stops its own process (raise(SIGSTOP)) under
# --processes: settle says so (it waited without a word), and when it is
# interrupted the stopped child ends with it (it stayed stopped for ever)
# start_stopped: settle on stop.c in 3 processes, in the background (its
# pid in pid), waited for until it says its process is stopped (30 s)
start_stopped() {
	env MARK="$D/mark" "$SETTLE" run "$TMP/stop.c" --quick --samples 3 \
		--processes 3 >"$D/out" 2>"$D/err" &
	pid=$!
	for _ in $(seq 300); do
		grep -q "is stopped" "$D/err" 2>/dev/null && break
		sleep 0.1
	done
}
stopped_child() {
	local pid guard rc
	start_stopped
	( sleep 40; kill -KILL $pid ) >/dev/null 2>&1 &
	guard=$!
	kill -TERM $pid; wait $pid; rc=$?
	kill $guard 2>/dev/null
	sleep 0.5
	if [ $rc = 143 ] &&
	   grep -q "settle: process 1 of 3 (pid [0-9]*) is stopped (signal $(kill -l STOP)" "$D/err" &&
	   ! pgrep -f "$D/tmp/settle-proc" >/dev/null &&
	   [ -z "$(left_in "$D")" ]; then
		echo "ok   a claim that stops its process: said, and ended with settle"
	else
		echo "FAIL stopped child: status $rc, left: $(pgrep -af "$D/tmp/settle-proc"): $(cat "$D/err")"
		pkill -KILL -f "$D/tmp/settle-proc"
	fi
}
# ...and when settle itself is killed (SIGKILL: no handler runs), its
# processes end with it (PR_SET_PDEATHSIG)
killed_parent() {
	local pid
	start_stopped
	{ kill -KILL $pid; wait $pid; } 2>/dev/null
	for _ in $(seq 30); do
		pgrep -f "$D/tmp/settle-proc" >/dev/null || break
		sleep 0.1
	done
	if grep -q "is stopped" "$D/err" &&
	   ! pgrep -f "$D/tmp/settle-proc" >/dev/null; then
		echo "ok   settle killed: its stopped process ends with it"
	else
		echo "FAIL settle killed: left $(pgrep -af "$D/tmp/settle-proc")"
		pkill -KILL -f "$D/tmp/settle-proc"
	fi
}
cat >"$TMP/stop.c" <<'C'
#include <signal.h>
#include <settle.h>
static uint64_t stop(void *s, const void *a, uint64_t n)
{
	(void)s, (void)a;
	raise(SIGSTOP);
	return n;
}
static const struct settle_variant v[] = { { .name = "stop", .run = stop } };
static const struct settle_claim c = { .name = "stop", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
"$SETTLE" list "$TMP/stop.c" >/dev/null 2>&1 # compile once
side term one_signal TERM 143
side int one_signal INT 130
side layouts layouts_once
side command command_ignoring
side stopped stopped_child
side killed killed_parent
wait $sides
for d in term int layouts command stopped killed; do
	said=$(cat "$TMP/$d/said")
	case $said in
	"ok   "*) ok "${said#ok   }" ;;
	*) bad "$d: $said" ;;
	esac
done
test_end test_interrupt
