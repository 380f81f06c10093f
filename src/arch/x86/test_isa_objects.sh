#!/bin/bash
# test_isa_objects.sh - the baseline objects hold no VEX or EVEX instruction.
#
# Only files named *_popcnt.c, *_ssse3.c, *_avx2.c, *_avx512.c and
# *_avx512vl.c are compiled
# with ISA flags (Makefile), and they run only after a cpuid/XCR0 check.
# Every other object of the library and the claims (the endian and
# builtin-generic builds included) must run on any x86-64 CPU, so this
# disassembles each one with objdump -d and fails on:
#   - an instruction whose first opcode byte, after segment and
#     address-size prefixes, is 0xc4 or 0xc5 (VEX) or 0x62 (EVEX): in
#     64-bit mode these bytes are always such prefixes (Intel SDM vol. 2A,
#     2.3.5 and 2.7.1), so this also catches VEX-encoded BMI instructions;
#   - a mnemonic starting with 'v' on an %xmm, %ymm or %zmm register, or
#     vzeroupper / vzeroall;
#   - any %ymm, %zmm or opmask (%k0-%k7) register.
# Each offending object is named with its first offending instructions.
#
# Usage: BUILD=build bash tests/test_isa_objects.sh [object...]
#   (with objects given, only those are checked: to see that the test
#   catches an ISA object, pass one, e.g. build/src/arch/x86/popcount_avx2.o)
set -u
BUILD=${BUILD:-build}
command -v objdump >/dev/null || { echo "objdump not found (binutils)"; exit 1; }

if [ $# -gt 0 ]; then
	objs=("$@")
else
	mapfile -t objs < <(find "$BUILD/src" "$BUILD/claims" -name '*.o' \
		! -name '*_popcnt.o' ! -name '*_ssse3.o' \
		! -name '*_avx2.o' ! -name '*_avx512.o' \
		! -name '*_avx512vl.o' 2>/dev/null | sort)
fi
if [ ${#objs[@]} -eq 0 ]; then
	echo "no objects under $BUILD/src or $BUILD/claims: build first"
	exit 1
fi

# Prints the offending lines of objdump -d output (at most 5).
scan() {
	awk -F'\t' '
	/^ *[0-9a-f]+:\t/ && NF >= 3 {
		n = split($2, b, " ")
		i = 1
		while (i <= n && b[i] ~ /^(26|2e|36|3e|64|65|67)$/)
			i++
		ins = $3
		op = ins; sub(/ .*/, "", op)
		bad = ""
		if (i <= n && b[i] ~ /^(c4|c5|62)$/)
			bad = "VEX/EVEX prefix " b[i]
		else if (op ~ /^v/ && ins ~ /%[xyz]mm/)
			bad = "vector v-instruction"
		else if (op ~ /^vzero(upper|all)$/)
			bad = "vzero"
		else if (ins ~ /%[yz]mm|%k[0-7]([^0-9]|$)/)
			bad = "ymm/zmm/opmask register"
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
	if ! dis=$(objdump -d "$o"); then
		echo "FAIL $o: objdump failed"
		fail=$((fail + 1))
		continue
	fi
	if bad=$(printf '%s\n' "$dis" | scan); then
		pass=$((pass + 1))
	else
		echo "FAIL $o: VEX/EVEX instructions in a baseline object:"
		printf '%s\n' "$bad"
		fail=$((fail + 1))
	fi
done
echo "test_isa_objects: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
