#!/bin/sh
# emulated-run.sh LOG COMMAND...: run a settle command under qemu-user,
# its output in LOG, and succeed when it ran through. Under emulation the
# times are not measurements (settle says so in its output), so what
# settle judges from them decides nothing here: a row called invalid
# because twice the repetitions did not take about twice the time (the
# emulator's translation makes that happen now and then) ends settle with
# status 1 and its "N result(s) is/are invalid" line, which counts as
# having run through. Any other failure (an illegal instruction, a crash,
# an error message) fails, with COMMAND's status.
log=$1
shift
"$@" >"$log" 2>&1
rc=$?
[ "$rc" = 0 ] && exit 0
if [ "$rc" = 1 ] && tail -n 1 "$log" |
   grep -Eq '^settle: [0-9]+ results? (is|are) invalid: their time is not the work'\''s'; then
	echo "  (rows judged invalid from emulated times: not a failure; see $log)"
	exit 0
fi
exit "$rc"
