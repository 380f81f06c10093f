#!/bin/bash
# run.sh - does a faster popcount make the file-system checker faster?
# (make run-macro)
#
# The founding popcount argument was about a whole program: e2fsck counts
# the set bits of block bitmaps with ext2fs_bitcount(). This script builds
# a sparse ext4 image, then measures `e2fsck -fn IMAGE` with an LD_PRELOAD
# shim that replaces ext2fs_bitcount() with settle_popcount() (shim.c),
# against the same e2fsck with a placebo shim (the same interposition, but
# counting with libext2fs's own function: the baseline, so that the two
# differ in the bit count alone) and against e2fsck as it is, as three
# --command's of settle with --share ext2fs_bitcount: the share of
# e2fsck's CPU samples in that function, what a faster one saves by
# Amdahl's law (an estimate: an out-of-order CPU overlaps work, so a faster
# function can save more or less), and the measured difference, which
# decides.
#
# Settings (environment):
#   SIZE=2T        size of the file system (sparse: nothing that large on
#                  disk; a 2 TB ext4 has 16384 block groups, 64 MiB of
#                  block bitmaps)
#   DATA=2G        logical size of the files put in it (mke2fs -d), in
#                  10 MiB files that hold one 4 KiB block of random data
#                  every 64 KiB (1/16 of it on disk), the rest holes
#   SAMPLES=15     timed runs of each command (and as many profiled ones)
#   WORKDIR=DIR    where the image goes (default: a new directory under
#                  $TMPDIR or /tmp, removed at the end); KEEP=1 keeps it
#   SETTLE, SHIM, PLACEBO
#                  the settle program and the two shims (make run-macro
#                  sets them)
# Measure on a quiet machine; where others measure too, take the common
# lock: flock /tmp/settle-bench.lock make run-macro
set -eu
SIZE=${SIZE:-2T}
DATA=${DATA:-2G}
SAMPLES=${SAMPLES:-15}
BUILD=${BUILD:-build}
SETTLE=${SETTLE:-$BUILD/settle}
SHIM=${SHIM:-$BUILD/e2fsck-popcount-shim.so}
PLACEBO=${PLACEBO:-$BUILD/e2fsck-popcount-placebo.so}
KEEP=${KEEP:-}
PATH=$PATH:/sbin:/usr/sbin

die() { echo "run.sh: $*" >&2; exit 2; }

for t in mke2fs e2fsck perf truncate dd awk; do
	command -v $t >/dev/null ||
		die "$t is missing: sudo apt-get install -y e2fsprogs linux-perf coreutils"
done
[ -x "$SETTLE" ] || die "no settle program at $SETTLE (make)"
[ -f "$SHIM" ] || die "no shim at $SHIM (make e2fsck-shim)"
[ -f "$PLACEBO" ] || die "no placebo shim at $PLACEBO (make e2fsck-shim)"
case "$SHIM" in /*) ;; *) SHIM=$PWD/$SHIM ;; esac
case "$PLACEBO" in /*) ;; *) PLACEBO=$PWD/$PLACEBO ;; esac

bytes() { # 2T, 512G, 2G -> bytes
	local n=${1%[KMGTkmgt]} u=${1#"${1%[KMGTkmgt]}"}
	case "$n" in ''|*[!0-9]*) die "malformed size '$1' (e.g. 2T, 512G)" ;; esac
	case "$u" in
	'') echo "$n" ;; [Kk]) echo $((n << 10)) ;; [Mm]) echo $((n << 20)) ;;
	[Gg]) echo $((n << 30)) ;; [Tt]) echo $((n << 40)) ;;
	esac
}
size_b=$(bytes "$SIZE")
data_b=$(bytes "$DATA")
file_b=$((10 << 20))
nfiles=$(((data_b + file_b - 1) / file_b))
[ "$size_b" -ge $((1 << 30)) ] || die "SIZE $SIZE: at least 1G"
[ "$data_b" -lt $((size_b / 2)) ] || die "DATA $DATA does not fit in SIZE $SIZE"

if [ -n "${WORKDIR:-}" ]; then
	mkdir -p "$WORKDIR"
	work=$WORKDIR
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/settle-e2fsck.XXXXXX")
	[ -n "$KEEP" ] || trap 'rm -rf "$work"' EXIT
fi
img=$work/ext4.img
src=$work/files

# On disk: the data blocks twice (the files, the image), and the image's
# metadata, about 80 MiB per TB with lazy inode tables and journal.
need=$(((data_b / 16) * 2 + (size_b >> 40) * (80 << 20) + (256 << 20)))
avail=$(($(df -Pk "$work" | awk 'NR == 2 { print $4 }') * 1024))
[ "$avail" -gt "$need" ] ||
	die "$work has $((avail >> 20)) MiB free, needs about $((need >> 20)) MiB"

echo "== a sparse $SIZE ext4 image with $DATA of files ($nfiles files of" \
     "10 MiB, 1/16 of it data, the rest holes) in $work"
mkdir -p "$src"
# one 10 MiB pattern: 160 x (4 KiB random, 60 KiB zeros); dd conv=sparse
# turns the zeros into holes, and mke2fs -d allocates no block for them
for k in $(seq 160); do
	head -c 4096 /dev/urandom
	head -c 61440 /dev/zero
done >"$work/pattern"
for i in $(seq "$nfiles"); do
	dd if="$work/pattern" of="$src/f$i" bs=4096 conv=sparse status=none
done
rm -f "$img"
truncate -s "$SIZE" "$img"
mke2fs -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 \
	-d "$src" "$img"
rm -rf "$src" "$work/pattern"
echo "   image: $(du -h --apparent-size "$img" | cut -f1) apparent," \
     "$(du -h "$img" | cut -f1) on disk"

echo "== are the shims the ext2fs_bitcount that e2fsck calls?"
e2fsck -fn "$img" >"$work/plain.out" 2>&1 ||
	die "e2fsck -fn $img failed: $(tail -3 "$work/plain.out")"
for s in shim placebo; do
	so=$SHIM
	[ $s = shim ] || so=$PLACEBO
	rm -f "$work/$s.txt"
	SETTLE_SHIM_REPORT=$work/$s.txt LD_PRELOAD=$so e2fsck -fn "$img" \
		>"$work/$s.out" 2>&1 ||
		die "e2fsck -fn with the $s failed: $(tail -3 "$work/$s.out")"
	cat "$work/$s.txt" 2>/dev/null || true
	calls=$(sed -n 's/.* called \([0-9]*\) times.*/\1/p' "$work/$s.txt" 2>/dev/null)
	[ "${calls:-0}" -gt 0 ] || die "the $s was not called: e2fsck does" \
		"not reach ext2fs_bitcount through the dynamic linker here"
	cmp -s <(tail -1 "$work/plain.out") <(tail -1 "$work/$s.out") ||
		die "e2fsck's summary differs with the $s: a wrong count"
done
echo "   the same summary with either shim and without: $(tail -1 "$work/plain.out")"

echo "== settle: e2fsck -fn with the placebo shim (the baseline), with"
echo "   settle_popcount (shim), and as it is (ext2fs)"
"$SETTLE" run --command "placebo=LD_PRELOAD=$PLACEBO e2fsck -fn $img" \
	--command "shim=LD_PRELOAD=$SHIM e2fsck -fn $img" \
	--command "ext2fs=e2fsck -fn $img" \
	--share ext2fs_bitcount --samples "$SAMPLES" --warmup 1 \
	--format json --output "$work/result.json"

# The answer, read from the result file (settle's own layout: one result
# per command, the profile's symbols one per line).
awk -v size="$SIZE" -v data="$DATA" '
function val(s, key,    i, t) {
	i = index(s, "\"" key "\": ")
	if (!i)
		return ""
	t = substr(s, i + length(key) + 4)
	sub(/[,}\]].*/, "", t)
	gsub(/[\[" ]/, "", t)
	return t
}
function sval(s, key,    i, t) {
	i = index(s, "\"" key "\": \"")
	if (!i)
		return ""
	t = substr(s, i + length(key) + 5)
	sub(/".*/, "", t)
	return t
}
function ci(s, key,    i, t) {
	i = index(s, "\"" key "\": [")
	if (!i)
		return ""
	t = substr(s, i + length(key) + 5)
	sub(/\].*/, "", t)
	return t
}
function ms(ns) { return sprintf("%.1f ms", ns / 1e6) }
function pc(f) { return (100 * f >= 0.1) ? sprintf("%.2f%%", 100 * f) : sprintf("%.2g%%", 100 * f) }
/^    \{"claim": "command"/ { v = sval($0, "variant") }
/"median_ns": / { med[v] = val($0, "median_ns") }
/"vs_baseline": / {
	i = index($0, "\"vs_baseline\": "); b = substr($0, i)
	ratio[v] = val(b, "ratio"); lo[v] = val(b, "ci_low"); hi[v] = val(b, "ci_high")
	verdict[v] = sval(b, "verdict"); why[v] = sval(b, "why")
}
/"user_median_ns": / { cpu[v] = val($0, "user_median_ns") + val($0, "sys_median_ns") }
/"cpu_vs_baseline": / {
	cratio[v] = val($0, "ratio"); clo[v] = val($0, "ci_low"); chi[v] = val($0, "ci_high")
	cverdict[v] = sval($0, "verdict")
}
/\{"symbol": "ext2fs_bitcount"/ {
	share[v] = val($0, "with_callees_share")
	sym[v] = $0
	sci[v] = ci($0, "with_callees_ci")
	self[v] = val($0, "self_share")
	i = index($0, "\"amdahl_saved_ns\": {")
	a = substr($0, i); sub(/\}.*/, "", a)
	k2[v] = val(a, "2"); k10[v] = val(a, "10"); kinf[v] = val(a, "infinity")
	i = index($0, "\"amdahl_saved_pct\": {")
	a = substr($0, i); sub(/\}.*/, "", a)
	p2[v] = val(a, "2"); p10[v] = val(a, "10"); pinf[v] = val(a, "infinity")
}
function diff(v, what,    w) {
	w = (why[v] != "") ? " (" why[v] ")" : ""
	printf "  %s %.3fx [%.3f, %.3f] the time of the placebo,\n", what, ratio[v], lo[v], hi[v]
	printf "    %+.1f ms [%+.1f, %+.1f]: %s%s\n", (ratio[v] - 1) * base / 1e6, \
		(lo[v] - 1) * base / 1e6, (hi[v] - 1) * base / 1e6, verdict[v], w
	if (cratio[v] != "")
		printf "    CPU time (user + system) %.3fx [%.3f, %.3f]: %s\n", \
			cratio[v], clo[v], chi[v], cverdict[v]
}
END {
	base = med["placebo"]
	split(sci["ext2fs"], c, ",")
	printf "\n== the answer (e2fsck -fn, a %s ext4 image with %s of files)\n", size, data
	if (share["ext2fs"] == "") {
		print "  ext2fs_bitcount is in none of e2fsck'"'"'s samples"
	} else {
		printf "  share: ext2fs_bitcount and its callees are %s [%s, %s] of e2fsck'"'"'s\n", \
			pc(share["ext2fs"]), pc(c[1]), pc(c[2])
		printf "    CPU samples (self %s); the check takes %s, %s of CPU time\n", \
			pc(self["ext2fs"]), ms(med["ext2fs"]), ms(cpu["ext2fs"])
		printf "  Amdahl: a popcount 2x as fast saves %s (%.2f%%), 10x %s (%.2f%%),\n", \
			ms(k2["ext2fs"]), p2["ext2fs"], ms(k10["ext2fs"]), p10["ext2fs"]
		printf "    infinitely fast %s (%.2f%%) of the check\n", ms(kinf["ext2fs"]), pinf["ext2fs"]
	}
	diff("shim", "measured: e2fsck with settle_popcount takes")
	diff("ext2fs", "control: e2fsck without any shim takes")
	if (share["ext2fs"] != "" && ratio["shim"] != "") {
		slo = (1 - hi["shim"]) * base; shi = (1 - lo["shim"]) * base
		if (slo <= kinf["ext2fs"] + 0)
			printf "  so the measured saving, [%.1f, %.1f] ms, agrees with Amdahl'"'"'s %.1f ms\n", \
				slo / 1e6, shi / 1e6, kinf["ext2fs"] / 1e6
		else
			printf "  the measured saving [%.1f, %.1f] ms exceeds Amdahl'"'"'s %.1f ms:\n    more changed than the bit count (noise, code layout), or work after\n    it waited on its results\n", \
				slo / 1e6, shi / 1e6, kinf["ext2fs"] / 1e6
	}
	if (share["shim"] != "") {
		printf "  with the shim, ext2fs_bitcount and its callees are %s of the samples\n", \
			pc(share["shim"])
	} else if (sym["shim"] != "") {
		split(ci(sym["shim"], "with_callees_ci"), u, ",")
		printf "  with the shim, ext2fs_bitcount and its callees are in none of the samples:\n"
		printf "    under %s (95%% upper bound)\n", pc(u[2])
	}
}' "$work/result.json"
[ -z "$KEEP" ] || echo "(kept: $work)"
