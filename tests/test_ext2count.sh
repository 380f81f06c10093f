#!/bin/bash
# test_ext2count.sh - checks $BUILD/ext2count (tools/ext2count.c) on real
# ext2/3/4 images made with mke2fs and filled with debugfs, without mounting.
#
# For each image (ext2, ext3 and ext4 with 1 KiB and 4 KiB blocks, ext4 with
# bigalloc; at least 3 block groups, the last one short) the tool's per-group
# counts must match dumpe2fs: its "N free blocks" (the group descriptor) and
# its "Free blocks: a-b, ..." ranges (the bitmap), and the total must match
# the superblock. Then the image is damaged three ways, and the tool must
# report each with exit status 1 while its bitmap counts stay right:
#   - the superblock's free-blocks counter (debugfs ssv free_blocks_count),
#   - one group descriptor's free-blocks counter (debugfs set_bg),
#   - the bitmap itself: the last blocks of the short last group marked
#     used behind the counters' backs (debugfs setb).
# Bad usage and unreadable images must give exit status 2 and one line on
# stderr.
#
# Run by make test from the repository root with BUILD set; EXT2COUNT
# overrides the tool (to check that the test fails on a broken tool).
. "$(dirname "$0")/lib.sh"
export PATH="$PATH:/usr/sbin:/sbin"
BUILD=${BUILD:-build}
TOOL=${EXT2COUNT:-$BUILD/ext2count}

skip() {
	echo "SKIP test_ext2count: $*"
	echo "0 passed, 0 failed (skipped)"
	exit 0
}

if [ ! -x "$TOOL" ]; then
	if grep -qs 'SETTLE_HAVE_EXT2FS 1' "$BUILD/config.h"; then
		bad "$TOOL is not built although libext2fs-dev is installed"
		test_end test_ext2count
		exit 1
	fi
	skip "$TOOL not built: libext2fs-dev is not installed" \
	     "(sudo apt-get install -y libext2fs-dev e2fsprogs)"
fi
for p in mke2fs debugfs dumpe2fs e2fsck; do
	command -v $p >/dev/null ||
		skip "$p not found (sudo apt-get install -y e2fsprogs)"
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/test_ext2count.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# Host files of varied sizes, not zero-filled (debugfs would make holes).
mkdata() { head -c "$1" /dev/zero | tr '\0' 'x' > "$TMP/$2"; }
mkdata 1000 f1
mkdata 50000 f2
mkdata 700000 f3
mkdata 2500000 f4
mkdata 3000000 f5
DATA_BYTES=$((1000 + 50000 + 700000 + 2500000 + 3000000))
cat > "$TMP/fill" <<EOF
mkdir d1
mkdir d2
mkdir d2/sub
write $TMP/f1 small
write $TMP/f2 d1/medium
write $TMP/f5 d1/big
write $TMP/f4 d2/big2
write $TMP/f3 d2/sub/mid
EOF

# The tool's group rows as "group size used free desc-free".
tool_rows() {
	awk '$1 $2 $3 $4 $5 ~ /^[0-9]+$/ { print $1, $2, $3, $4, $5 }' "$1"
}
tool_total() { awk '$1 == "total" { print $'"$2"' }' "$1"; }

# dumpe2fs per group as "group size desc-free bitmap-free", in bitmap units
# (clusters with bigalloc; its ranges are then in blocks, a cluster apart).
dumpe2fs_rows() {
	dumpe2fs "$1" 2>/dev/null | awk -v r="$2" '
	/^Group [0-9]+:/ {
		g = $2; sub(":", "", g)
		match($0, /Blocks [0-9]+-[0-9]+/)
		split(substr($0, RSTART + 7, RLENGTH - 7), b, "-")
		size[g] = (b[2] - b[1] + 1) / r; n = g + 1
	}
	/^  [0-9]+ free (blocks|clusters),/ { desc[g] = $1 }
	/^  Free blocks:/ {
		s = $0; sub(/^  Free blocks: */, "", s)
		bm[g] = 0
		k = split(s, part, ", ")
		for (i = 1; i <= k; i++) {
			if (split(part[i], ab, "-") == 2)
				bm[g] += (ab[2] - ab[1]) / r + 1
			else if (part[i] != "")
				bm[g] += 1
		}
	}
	END { for (g = 0; g < n; g++) print g, size[g], desc[g], bm[g] }'
}
sb_free() {
	dumpe2fs -h "$1" 2>/dev/null | awk '/^Free blocks:/ { print $3 }'
}

# Compare the tool's rows with dumpe2fs's, in the bitmap units.
check_against_dumpe2fs() {	# name image tool-output ratio
	local name=$1 img=$2 out=$3 r=$4 diffs
	dumpe2fs_rows "$img" "$r" > "$TMP/d.rows"
	tool_rows "$out" > "$TMP/t.rows"
	if [ "$(wc -l < "$TMP/t.rows")" -ge 3 ] &&
	   [ "$(wc -l < "$TMP/t.rows")" = "$(wc -l < "$TMP/d.rows")" ]; then
		ok "$name: $(wc -l < "$TMP/t.rows") groups, as dumpe2fs says"
	else
		bad "$name: $(wc -l < "$TMP/t.rows") groups," \
		    "dumpe2fs says $(wc -l < "$TMP/d.rows") (need >= 3)"
	fi
	diffs=$(join "$TMP/t.rows" "$TMP/d.rows" | awk '
		$2 != $6 { print "group " $1 ": size " $2 ", dumpe2fs " $6 }
		$3 + $4 != $2 { print "group " $1 ": used + free != size" }
		$4 != $7 { print "group " $1 ": free " $4 \
			   ", dumpe2fs descriptor " $7 }
		$4 != $8 { print "group " $1 ": free " $4 \
			   ", dumpe2fs bitmap ranges " $8 }
		$5 != $7 { print "group " $1 ": desc-free " $5 \
			   ", dumpe2fs " $7 }')
	if [ -z "$diffs" ]; then
		ok "$name: per-group size, used and free match dumpe2fs"
	else
		bad "$name: per group: $(echo "$diffs" | paste -sd ";")"
	fi
	local free used size
	free=$(tool_total "$out" 4)
	used=$(tool_total "$out" 3)
	size=$(tool_total "$out" 2)
	if [ -n "$free" ] && [ $((free * r)) = "$(sb_free "$img")" ] &&
	   [ $((used + free)) = "$size" ] &&
	   [ "$size" = "$(awk '{ s += $2 } END { print s }' "$TMP/d.rows")" ]
	then
		ok "$name: total $used used, $free free, as the superblock says"
	else
		bad "$name: total used $used free $free size $size," \
		    "superblock $(sb_free "$img") free blocks"
	fi
}

# Expect exit status $2 from the tool on image $3, output in $4.
run_tool() {	# name status image out
	local rc
	"$TOOL" "$3" > "$4" 2> "$4.err"
	rc=$?
	if [ "$rc" = "$2" ]; then
		ok "$1: exit status $rc"
	else
		bad "$1: exit status $rc, expected $2"
		cat "$4" "$4.err"
	fi
}

# Bitmap-derived columns (size used free) must not move with a counter.
same_bitmap_counts() {	# name out-before out-after
	if [ "$(tool_rows "$2" | cut -d' ' -f1-4)" = \
	     "$(tool_rows "$3" | cut -d' ' -f1-4)" ] &&
	   [ "$(tool_total "$2" 3)" = "$(tool_total "$3" 3)" ]; then
		ok "$1: bitmap counts unchanged"
	else
		bad "$1: bitmap counts changed with a counter"
	fi
}

expect_line() {	# name file fixed-string
	if grep -qF -- "$3" "$2"; then
		ok "$1: says \"$3\""
	else
		bad "$1: no line \"$3\" in:"
		cat "$2"
	fi
}

test_image() {	# name size mke2fs-options...
	local name=$1 size=$2 img=$TMP/$1.img r bs used0 used1 g n f first last
	shift 2
	truncate -s "$size" "$img"
	if ! mke2fs -q -F "$@" "$img" >/dev/null 2>&1; then
		bad "$name: mke2fs $* failed"
		return
	fi
	bs=$(dumpe2fs -h "$img" 2>/dev/null | awk '/^Block size:/ { print $3 }')
	r=$(dumpe2fs -h "$img" 2>/dev/null |
	    awk -v bs="$bs" '/^Cluster size:/ { c = $3 }
			     END { print c ? c / bs : 1 }')

	run_tool "$name empty" 0 "$img" "$TMP/out0"
	check_against_dumpe2fs "$name empty" "$img" "$TMP/out0" "$r"
	used0=$(tool_total "$TMP/out0" 3)

	debugfs -w -f "$TMP/fill" "$img" >/dev/null 2>&1
	if e2fsck -fn "$img" >/dev/null 2>&1; then
		ok "$name: filled with debugfs, e2fsck finds it clean"
	else
		bad "$name: e2fsck -fn finds the filled image inconsistent"
	fi
	run_tool "$name filled" 0 "$img" "$TMP/out1"
	check_against_dumpe2fs "$name filled" "$img" "$TMP/out1" "$r"
	used1=$(tool_total "$TMP/out1" 3)
	if [ $(((used1 - used0) * r * bs)) -ge "$DATA_BYTES" ]; then
		ok "$name: the files added $(((used1 - used0) * r)) used blocks"
	else
		bad "$name: used grew by $((used1 - used0)) units," \
		    "less than the $DATA_BYTES bytes written"
	fi
	if [ "$(tool_rows "$TMP/out1" | cut -d' ' -f3 | sort -u | wc -l)" \
	     -ge 3 ]; then
		ok "$name: groups have different usage"
	else
		bad "$name: the files did not spread over the groups"
	fi

	# 1. the superblock's counter
	f=$(sb_free "$img")
	n=$((f / 2 + 1))
	cp "$img" "$TMP/bad.img"
	debugfs -w -R "ssv free_blocks_count $n" "$TMP/bad.img" >/dev/null 2>&1
	run_tool "$name superblock counter $n" 1 "$TMP/bad.img" "$TMP/out2"
	expect_line "$name superblock counter" "$TMP/out2" \
		"superblock says $n free blocks, bitmaps say $f"
	same_bitmap_counts "$name superblock counter" "$TMP/out1" "$TMP/out2"
	if grep -q '^group ' "$TMP/out2"; then
		bad "$name superblock counter: blames a group descriptor"
	fi

	# 2. one group descriptor's counter (checksum recomputed)
	cp "$img" "$TMP/bad.img"
	debugfs -w -f - "$TMP/bad.img" >/dev/null 2>&1 <<-EOF
	set_bg 1 free_blocks_count 7
	set_bg 1 checksum calc
	EOF
	g=$(tool_rows "$TMP/out1" | awk '$1 == 1 { print $4 }')
	run_tool "$name descriptor counter" 1 "$TMP/bad.img" "$TMP/out3"
	expect_line "$name descriptor counter" "$TMP/out3" \
		"group 1: descriptor says 7 free"
	expect_line "$name descriptor counter" "$TMP/out3" "bitmap says $g"
	same_bitmap_counts "$name descriptor counter" "$TMP/out1" "$TMP/out3"

	# 3. the bitmap: the last 3 units of the file system (in the short
	# last group, bits past its last whole byte where it has them) marked
	# used with setb, which leaves the counters alone
	last=$(dumpe2fs "$img" 2>/dev/null |
	       awk '/^  Free blocks: [0-9]/ { s = $NF } END { print s }')
	first=${last%-*}
	last=${last#*-}
	n=$(dumpe2fs -h "$img" 2>/dev/null | awk '/^Block count:/ { print $3 }')
	cp "$img" "$TMP/bad.img"
	if [ $((last - 2 * r)) -ge "$first" ] && [ "$last" = $((n - r)) ]; then
		debugfs -w -R "setb $((last - 2 * r)) $((3 * r))" \
			"$TMP/bad.img" >/dev/null 2>&1
	else
		bad "$name: the last group has no free tail to mark"
	fi
	run_tool "$name bitmap set behind the counters" 1 "$TMP/bad.img" \
		"$TMP/out4"
	g=$(tool_rows "$TMP/out1" | tail -n 1 | cut -d' ' -f1)
	n=$(tool_rows "$TMP/out1" | tail -n 1 | cut -d' ' -f3)
	if [ "$(tool_rows "$TMP/out4" | tail -n 1 | cut -d' ' -f3)" = \
	     $((n + 3)) ]; then
		ok "$name bitmap set: last group used $n -> $((n + 3))"
	else
		bad "$name bitmap set: last group used is not $n + 3:"
		cat "$TMP/out4"
	fi
	expect_line "$name bitmap set" "$TMP/out4" "group $g: descriptor says"
	expect_line "$name bitmap set" "$TMP/out4" \
		"superblock says $f free blocks, bitmaps say $((f - 3 * r))"
}

test_image ext2-1k 12M -t ext2 -b 1024 -g 4096
test_image ext3-1k 16M -t ext3 -b 1024 -g 2048 -N 1024
test_image ext4-4k 60M -t ext4 -b 4096 -g 4096
test_image ext4-bigalloc 40M -t ext4 -O bigalloc -b 1024 -C 4096 -g 4096

# Bad usage and unreadable images: exit status 2, one line on stderr.
usage_case() {	# name args...
	local name=$1 rc
	shift
	"$TOOL" "$@" > "$TMP/u.out" 2> "$TMP/u.err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l < "$TMP/u.err")" = 1 ] &&
	   [ ! -s "$TMP/u.out" ]; then
		ok "$name: exit status 2: $(cat "$TMP/u.err")"
	else
		bad "$name: exit status $rc, stderr" \
		    "$(wc -l < "$TMP/u.err") lines, expected 2 and 1 line"
	fi
}
mkdata 1048576 notext2
usage_case "no arguments"
usage_case "two images" "$TMP/notext2" "$TMP/notext2"
usage_case "unknown option" --frobnicate
usage_case "missing file" "$TMP/no-such-image"
usage_case "not an ext2 image" "$TMP/notext2"
usage_case "a directory" "$TMP"
if "$TOOL" --help 2>&1 | grep -q '^usage: ext2count'; then
	ok "--help prints the usage"
else
	bad "--help prints no usage"
fi

test_end test_ext2count
