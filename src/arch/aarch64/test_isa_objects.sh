#!/bin/bash
# test_isa_objects.sh - AArch64: the objects other than *_sve.o hold no
# SVE instruction.
#
# Only files named *_sve.c are compiled for SVE (arch.mk), and they run
# only when HWCAP_SVE is set. Every other object of the library and the
# claims must run on any AArch64 CPU (AdvSIMD is part of the base
# architecture), so this disassembles each one with objdump -d and fails
# on an instruction with an SVE register operand (z0-z31 with an element
# size, the predicates p0-p15 as p<n>.<size> or p<n>/z, p<n>/m) or an SVE
# mnemonic that takes none (ptrue, pfalse, whilelo and friends, rdvl,
# addvl, addpl, cntb/cnth/cntw/cntd, incb...); Arm Architecture Reference
# Manual for A-profile, the SVE instruction set. Each offending object is
# named with its first offending instructions.
#
# Usage: BUILD=build/cross-aarch64 OBJDUMP=aarch64-linux-gnu-objdump \
#          bash src/arch/aarch64/test_isa_objects.sh [object...]
#   (with objects given, only those are checked: to see that the test
#   catches an SVE object, pass one, e.g.
#   build/cross-aarch64/src/arch/aarch64/popcount_sve.o)
set -u
BUILD=${BUILD:-build}
OBJDUMP=${OBJDUMP:-objdump}
command -v "$OBJDUMP" >/dev/null || { echo "$OBJDUMP not found (binutils)"; exit 1; }

if [ $# -gt 0 ]; then
	objs=("$@")
else
	mapfile -t objs < <(find "$BUILD/src" "$BUILD/claims" -name '*.o' \
		! -name '*_sve.o' 2>/dev/null | sort)
fi
if [ ${#objs[@]} -eq 0 ]; then
	echo "no objects under $BUILD/src or $BUILD/claims: build first"
	exit 1
fi

# Prints the offending lines of objdump -d output (at most 5).
scan() {
	awk -F'\t' '
	/^ *[0-9a-f]+:\t/ && NF >= 3 {
		ins = $3
		for (i = 4; i <= NF; i++)
			ins = ins " " $i
		op = ins; sub(/ .*/, "", op)
		bad = ""
		if (ins ~ /(^|[ ,{])z([0-9]|[12][0-9]|3[01])\.[bhsdq]/)
			bad = "SVE vector register"
		else if (ins ~ /(^|[ ,{])p([0-9]|1[0-5])(\.[bhsd]|\/[zm])/)
			bad = "SVE predicate register"
		else if (op ~ /^(ptrue|ptrues|pfalse|ptest|while(lo|ls|lt|le|hi|hs|gt|ge)|rdvl|addvl|addpl|cnt[bhwd]|inc[bhwd]|dec[bhwd]|setffr|rdffr|wrffr)$/)
			bad = "SVE instruction"
		if (bad != "" && shown < 5) {
			print "    " $1 " " ins "   (" bad ")"
			shown++
		}
		if (bad != "")
			found = 1
	}
	END { exit found ? 1 : 0 }'
}

pass=0
fail=0
for o in "${objs[@]}"; do
	if ! dis=$("$OBJDUMP" -d "$o"); then
		echo "FAIL $o: objdump failed"
		fail=$((fail + 1))
		continue
	fi
	if bad=$(printf '%s\n' "$dis" | scan); then
		pass=$((pass + 1))
	else
		echo "FAIL $o: SVE instructions in a baseline object:"
		printf '%s\n' "$bad"
		fail=$((fail + 1))
	fi
done
echo "test_isa_objects: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
