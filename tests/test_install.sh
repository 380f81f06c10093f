#!/bin/bash
# test_install.sh - make install and make uninstall (mk/install.mk).
#
# Installs with PREFIX set to a temporary folder, checks every file (the
# command, headers, libsettle.a, libsettle.so with its soname and links,
# settle.pc, the man pages), builds a program that calls settle_popcount
# and settle_bswap32 through PKG_CONFIG_PATH and runs it linked shared
# (LD_LIBRARY_PATH, then rpath) and static (pkg-config --static, with the
# harness too, so that Libs.private is needed), runs the installed settle,
# and a claim file that links the installed lib/settle/libsettle-prim.a,
# renders both man pages without warnings, then uninstalls and checks that
# no file is left. Then the same with DESTDIR staging (PREFIX=/usr/local),
# and once with libdir overridden.
#
# Usage: SETTLE=build/settle BUILD=build bash tests/test_install.sh
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
CC=${CC:-cc}
finish() {
	test_end test_install
	exit $?
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/settle-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The nested make must not inherit the jobserver or flags of make test.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make --no-print-directory -C "$ROOT" BUILD="$BUILD" "$@" \
		>"$tmp/make.log" 2>&1
}

version=$("$SETTLE" --version 2>/dev/null | awk '{ print $2 }')
major=${version%%.*}
if [ -z "$version" ]; then
	bad "settle --version prints a version (is $SETTLE built?)"
	finish
fi

if ! command -v pkg-config >/dev/null; then
	bad "pkg-config found (make test installs it as root; else: sudo apt-get install -y pkg-config)"
	finish
fi

# The program a user of the primitives writes. With -DHARNESS it also
# calls harness functions that need jansson (settle_load_json) and libm
# (settle_summarize), so that a static link needs Libs.private.
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <settle_bits.h>
#include <settle_byteorder.h>
#ifdef HARNESS
#include <settle.h>
#endif

static unsigned char buf[100003];

int main(void)
{
	uint32_t in[5] = { 0x01020304, 0xdeadbeef, 0, 0xffffffff, 0x80000001 };
	uint32_t want[5] = { 0x04030201, 0xefbeadde, 0, 0xffffffff, 0x01000080 };
	uint32_t out[5];
	uint64_t n, part, range;
	int bad = 0;

	memset(buf, 0xff, sizeof(buf));
	buf[7] = 0x01;
	buf[sizeof(buf) - 1] = 0x80;
	n = settle_popcount(buf, sizeof(buf));         /* 8 * 100003 - 14 */
	part = settle_popcount(buf + 3, 10);           /* 80 - 7 */
	range = settle_popcount_range(buf, 56, 8);     /* byte 7: 1 */
	bad |= n != 800010 || part != 73 || range != 1;
	settle_bswap32(out, in, 5);
	bad |= memcmp(out, want, sizeof(out)) != 0;
	settle_bswap32(in, in, 5);                      /* in place */
	bad |= memcmp(in, want, sizeof(in)) != 0;
	bad |= settle_load_be32(want) != 0x01020304;
#ifdef HARNESS
	{
		double x[3] = { 3, 1, 2 };
		struct settle_summary s;
		struct settle_report rep;
		char err[256] = "";
		uint64_t sz = 0;

		bad |= settle_summarize(x, 3, &s) != 0 || s.median != 2 ||
		       s.stddev != 1;
		bad |= settle_load_json("/nonexistent/r.json", 0.01, &rep, err,
					sizeof(err)) != -1 || !err[0];
		bad |= settle_parse_size("4K", &sz) != 0 || sz != 4096;
	}
#endif
	printf("%s popcount %llu (%s), bswap32 %#x\n", bad ? "BAD" : "ok",
	       (unsigned long long)n,
	       settle_popcount_impl_name(settle_popcount_active()), out[0]);
	return bad;
}
EOF

# Files that install writes under a prefix (relative), and the symlinks.
files() {
	local lib=${2:-lib}
	echo bin/settle include/settle.h include/settle_bits.h \
		include/settle_byteorder.h include/settle_popcount_avx512.h \
		include/settle_popcount_avx2.h \
		"$lib/libsettle.a" \
		"$lib/libsettle.so.$version" "$lib/libsettle.so.$major" \
		"$lib/libsettle.so" "$lib/pkgconfig/settle.pc" \
		lib/settle/libsettle-prim.a \
		share/man/man1/settle.1 share/man/man3/settle.3
}

# check_tree ROOT LIBDIRNAME: every file installed, right types and links.
check_tree() {
	local r=$1 lib=${2:-lib} missing=
	for f in $(files "$r" "$lib"); do
		[ -e "$r/$f" ] || missing="$missing $f"
	done
	if [ -z "$missing" ]; then ok "installed all $(files | wc -w) files"
	else bad "missing after install:$missing"; fi
	check "bin/settle is executable" test -x "$r/bin/settle"
	check "libsettle.so.$version is a regular file" \
		test -f "$r/$lib/libsettle.so.$version" -a \
		! -L "$r/$lib/libsettle.so.$version"
	check "libsettle.so.$major -> libsettle.so.$version" \
		test "$(readlink "$r/$lib/libsettle.so.$major")" = \
		"libsettle.so.$version"
	check "libsettle.so -> libsettle.so.$major" \
		test "$(readlink "$r/$lib/libsettle.so")" = "libsettle.so.$major"
	check "SONAME is libsettle.so.$major" grep -q \
		"Library soname: \[libsettle.so.$major\]" \
		<(readelf -d "$r/$lib/libsettle.so.$version")
	check "libsettle.so.$version has no text relocations (PIC objects)" \
		test -z "$(readelf -d "$r/$lib/libsettle.so.$version" | grep TEXTREL)"
	check "headers and man pages are mode 644" test \
		"$(stat -c %a "$r/include/settle.h" "$r/share/man/man3/settle.3" | sort -u)" = 644
}

# check_gone ROOT: no file or link left under ROOT.
check_gone() {
	local left
	left=$(find "$1" \( -type f -o -type l \) | sed "s|^$1/||")
	if [ -z "$left" ]; then ok "uninstall left no file"
	else bad "uninstall left: $(echo $left)"; fi
	if [ ! -e "$1/lib/settle" ]; then ok "uninstall removed settle's own lib/settle"
	else bad "uninstall left lib/settle"; fi
}

# ---- PREFIX=temporary folder -------------------------------------------
P=$tmp/prefix
if mk install PREFIX="$P"; then ok "make install PREFIX=$P"
else bad "make install PREFIX=$P (see below)"; tail -20 "$tmp/make.log"; finish; fi
check_tree "$P"

# Quiet by default: one "  INSTALL path" line per installed file, no
# commands (V=1 shows those instead).
said=$(grep -c "^  INSTALL $P/" "$tmp/make.log")
check "make install says INSTALL once per file ($said of $(files | wc -w))" \
	test "$said" = "$(files | wc -w)"
check "make install shows no install command without V=1" \
	test -z "$(grep -E '^(install|ln) ' "$tmp/make.log")"

# The library holds the primitives and the harness, not the CLI or claims.
check "libsettle.so exports settle_popcount, settle_bswap32, settle_plot" \
	test "$(nm -D --defined-only "$P/lib/libsettle.so" | \
		grep -cwE 'settle_popcount|settle_bswap32|settle_plot|settle_run_claim')" = 4
check "libsettle.so has no main and no claims" \
	test -z "$(nm -D --defined-only "$P/lib/libsettle.so" | \
		grep -wE 'main|settle_claims|settle_claim_find')"
check "libsettle.a has no CLI or claim objects" \
	test -z "$(ar t "$P/lib/libsettle.a" | grep -E '^(main|registry|popcount_generic)\.o$')"
check "libsettle.a and libsettle.so define the same settle_ functions" \
	diff <(nm -g --defined-only "$P/lib/libsettle.a" 2>/dev/null | \
		awk 'NF == 3 && $2 == "T" { print $3 }' | sort -u) \
	     <(nm -D --defined-only "$P/lib/libsettle.so" | \
		awk '$2 == "T" { print $3 }' | grep '^settle_' | sort -u)

export PKG_CONFIG_PATH=$P/lib/pkgconfig
check "pkg-config --modversion settle = $version" \
	test "$(pkg-config --modversion settle)" = "$version"
check "pkg-config --cflags names $P/include" \
	grep -q -- "-I$P/include" <(pkg-config --cflags settle)
libs=$(pkg-config --libs settle)
check "pkg-config --libs: -L$P/lib -lsettle, nothing private" \
	test "$(echo $libs)" = "-L$P/lib -lsettle"
check "pkg-config --static --libs adds -ljansson -lm" \
	grep -qE -- '-lsettle .*-ljansson.*-lm' <(pkg-config --static --libs settle)

# Shared: found through LD_LIBRARY_PATH, then through an rpath.
if $CC -std=c11 -Wall -Wextra -Werror "$tmp/prog.c" -o "$tmp/prog_shared" \
	$(pkg-config --cflags --libs settle) 2>"$tmp/cc.log"; then
	ok "cc prog.c \$(pkg-config --cflags --libs settle)"
	check "prog_shared needs libsettle.so.$major" grep -q \
		"Shared library: \[libsettle.so.$major\]" \
		<(readelf -d "$tmp/prog_shared")
	check "prog_shared loads $P/lib/libsettle.so.$major" grep -q \
		"$P/lib/libsettle.so.$major" \
		<(LD_LIBRARY_PATH=$P/lib ldd "$tmp/prog_shared")
	out=$(LD_LIBRARY_PATH=$P/lib "$tmp/prog_shared")
	check "prog_shared (LD_LIBRARY_PATH) counts and swaps right: $out" \
		test "$?" = 0 -a "${out%% *}" = ok
else
	bad "cc prog.c \$(pkg-config --cflags --libs settle): $(head -3 "$tmp/cc.log")"
fi
if $CC -std=c11 -Wall -Wextra -Werror "$tmp/prog.c" -o "$tmp/prog_rpath" \
	$(pkg-config --cflags --libs settle) \
	-Wl,-rpath,"$(pkg-config --variable=libdir settle)" 2>"$tmp/cc.log"; then
	out=$(env -u LD_LIBRARY_PATH "$tmp/prog_rpath")
	check "prog_rpath (rpath from pkg-config's libdir) runs: $out" \
		test "$?" = 0 -a "${out%% *}" = ok
else
	bad "cc prog.c with -rpath: $(head -3 "$tmp/cc.log")"
fi

# Static: libsettle.a with the harness, so jansson and libm are needed.
if $CC -std=c11 -Wall -Wextra -Werror -DHARNESS -static "$tmp/prog.c" \
	-o "$tmp/prog_static" $(pkg-config --static --cflags --libs settle) \
	2>"$tmp/cc.log"; then
	ok "cc -static prog.c \$(pkg-config --static --cflags --libs settle)"
	check "prog_static has no dynamic section" \
		grep -q "no dynamic section" <(readelf -d "$tmp/prog_static" 2>&1)
	out=$(env -u LD_LIBRARY_PATH "$tmp/prog_static")
	check "prog_static counts, swaps, summarises, loads: $out" \
		test "$?" = 0 -a "${out%% *}" = ok
else
	bad "cc -static with pkg-config --static: $(grep -m3 -E 'error|undefined' "$tmp/cc.log")"
fi
# Built for AVX-512: the installed headers carry the inline entry
# (settle_bits.h, settle_popcount_avx512.h), compiled into main; run where
# the CPU has AVX-512 VPOPCNTDQ.
if $CC -std=c11 -O2 -Wall -Wextra -Werror -mavx512f -mavx512bw -mavx512vl \
	-mavx512vpopcntdq "$tmp/prog.c" -o "$tmp/prog_avx512" \
	$(pkg-config --cflags --libs settle) 2>"$tmp/cc.log"; then
	check "cc -mavx512... prog.c: VPOPCNTQ inline in the program" grep -q \
		vpopcntq <(objdump -d "$tmp/prog_avx512")
	if grep -qw avx512_vpopcntdq /proc/cpuinfo &&
	   grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo; then
		out=$(LD_LIBRARY_PATH=$P/lib "$tmp/prog_avx512")
		check "prog_avx512 counts and swaps right: $out" \
			test "$?" = 0 -a "${out%% *}" = ok
	else
		echo "skip prog_avx512 run: this CPU lacks AVX-512 VPOPCNTDQ"
	fi
else
	bad "cc -mavx512... prog.c: $(head -3 "$tmp/cc.log")"
fi
# The inline definition in strict old C and in C++ (-Werror: g++ 12 warns
# of _mm512_reduce_add_epi64), and a redeclaration after the header.
cat >"$tmp/hdr.c" <<'EOF'
#include <settle_bits.h>
uint64_t settle_popcount(const void *buf, size_t len);
int main(void)
{
	static unsigned char b[300];
	settle_popcount_fn f = settle_popcount;

	return (int)(settle_popcount(b, sizeof(b)) + f(b, 3));
}
EOF
AVX512="-mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq"
check "cc -std=c89 -pedantic -Werror -mavx512...: the header compiles" \
	$CC -std=c89 -pedantic -Wall -Wextra -Werror -O2 $AVX512 -c \
	$(pkg-config --cflags settle) "$tmp/hdr.c" -o "$tmp/hdr89.o"
if command -v g++ >/dev/null; then
	check "g++ -O2 -Wall -Wextra -Werror -mavx512...: the header compiles" \
		g++ -x c++ -O2 -Wall -Wextra -Werror $AVX512 -c \
		$(pkg-config --cflags settle) "$tmp/hdr.c" -o "$tmp/hdrxx.o"
fi
# The inline AVX2 entry the same way (a build for AVX2 and POPCNT).
AVX2="-mavx2 -mpopcnt"
check "cc -std=c89 -pedantic -Werror -mavx2 -mpopcnt: the header compiles" \
	$CC -std=c89 -pedantic -Wall -Wextra -Werror -O2 $AVX2 -c \
	$(pkg-config --cflags settle) "$tmp/hdr.c" -o "$tmp/hdr89v3.o"
cat >"$tmp/hdr2.c" <<'EOF'
#include <settle_bits.h>
uint64_t count(const void *buf, size_t len);
uint64_t count(const void *buf, size_t len)
{
	return settle_popcount_avx2_inline(buf, len);
}
EOF
check "cc -std=c89 -pedantic -Werror -mavx2 -mpopcnt: the AVX2 entry compiles" \
	$CC -std=c89 -pedantic -Wall -Wextra -Werror -O2 $AVX2 -c \
	$(pkg-config --cflags settle) "$tmp/hdr2.c" -o "$tmp/hdr2.o"
check "the AVX2 entry counts inline and calls the kernel from 2 KiB" \
	sh -c "nm '$tmp/hdr2.o' | grep -q 'U settle_popcount_kernel_avx2_popcnt' &&
	       objdump -d '$tmp/hdr2.o' | grep -q vpshufb"
if command -v g++ >/dev/null; then
	check "g++ -O2 -Wall -Wextra -Werror -mavx2 -mpopcnt: the header compiles" \
		g++ -x c++ -O2 -Wall -Wextra -Werror $AVX2 -c \
		$(pkg-config --cflags settle) "$tmp/hdr.c" -o "$tmp/hdrxxv3.o"
fi
# clang too, -pedantic, with -Wconversion (clang warned of every
# intrinsic a GNU extern inline function called, -Wstatic-in-inline; gcc
# of an int from __builtin_expect's long), and the byte-order header.
cat >"$tmp/hdr3.c" <<'EOF'
#include <settle_bits.h>
#include <settle_byteorder.h>
int main(void)
{
	static unsigned char b[300];

	return (int)(settle_popcount(b, sizeof(b)) + settle_load_le32(b));
}
EOF
for cc in $CC clang; do
	command -v "$cc" >/dev/null || continue
	for std in c89 c11; do
		for isa in "$AVX2" "$AVX512"; do
			check "$cc -std=$std -pedantic -Wconversion -Werror $isa: both headers compile" \
				"$cc" -std=$std -pedantic -Wall -Wextra \
				-Wconversion -Wsign-conversion -Werror -O2 \
				$isa -c $(pkg-config --cflags settle) \
				"$tmp/hdr3.c" -o "$tmp/hdr3.o"
		done
	done
done
unset PKG_CONFIG_PATH

# The installed command.
out=$("$P/bin/settle" list 2>&1)
check "installed settle list runs and lists popcount" \
	test "$?" = 0 -a -n "$(grep -w '^popcount' <<<"$out")"
check "installed settle --version = $version" \
	test "$("$P/bin/settle" --version)" = "settle $version"
# settle run FILE.c links the installed primitives into the claim.
out=$(SETTLE_CACHE_DIR=$tmp/cache "$P/bin/settle" run \
	"$ROOT/examples/popcount-peers.c" --quick --samples 3 --min-time 1 \
	--size 1K --verbose 2>&1 >/dev/null)
check "installed settle run FILE.c links $P/lib/settle/libsettle-prim.a" \
	grep -q "each build links $P/lib/settle/libsettle-prim.a" <<<"$out"

# The man pages: found in the installed mandir, and render without warnings.
for page in 1 3; do
	f=$P/share/man/man$page/settle.$page
	if command -v man >/dev/null; then
		check "MANPATH=$P/share/man man -w $page settle finds it" test \
			"$(MANPATH=$P/share/man man -w "$page" settle 2>/dev/null)" = "$f"
		warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$f" 2>&1 >"$tmp/man.txt")
		check "man -l settle.$page renders without warnings${warn:+: $warn}" \
			test -z "$warn" -a -s "$tmp/man.txt"
	fi
	if command -v groff >/dev/null; then
		warn=$(groff -man -ww -z "$f" 2>&1)
		check "groff -man -ww settle.$page: no warnings${warn:+: $warn}" \
			test -z "$warn"
	else
		bad "groff found to check settle.$page (sudo apt-get install -y groff-base)"
	fi
done
check "settle.1 documents every command" test "$(grep -cE \
	'^\.B(R|I)? (list|run|info|show|compare|selftest|plot|help)( |$)' \
	"$P/share/man/man1/settle.1" | tr -d ' ')" -ge 8
check "settle.3 documents settle_popcount and settle_bswap32" \
	test "$(grep -c 'settle_popcount\|settle_bswap32' "$P/share/man/man3/settle.3")" -ge 2

if mk uninstall PREFIX="$P"; then ok "make uninstall PREFIX=$P"
else bad "make uninstall PREFIX=$P"; tail -5 "$tmp/make.log"; fi
check_gone "$P"
check "make uninstall says RM once per file" \
	test "$(grep -c "^  RM   $P/" "$tmp/make.log")" = "$(files | wc -w)"

# ---- DESTDIR staging -----------------------------------------------------
S=$tmp/stage
if mk install PREFIX=/usr/local DESTDIR="$S"; then
	ok "make install PREFIX=/usr/local DESTDIR=$S"
	check_tree "$S/usr/local"
	check "settle.pc names the final prefix, not the staging folder" \
		grep -qx 'libdir=/usr/local/lib' "$S/usr/local/lib/pkgconfig/settle.pc"
	check "no installed file mentions the staging folder" \
		test -z "$(grep -rl -- "$S" "$S" 2>/dev/null)"
else
	bad "make install PREFIX=/usr/local DESTDIR=$S"; tail -5 "$tmp/make.log"
fi
if mk uninstall PREFIX=/usr/local DESTDIR="$S"; then
	ok "make uninstall PREFIX=/usr/local DESTDIR=$S"
else
	bad "make uninstall DESTDIR=$S"
fi
check_gone "$S"

# ---- a GNU directory variable overridden ----------------------------------
L=$tmp/lib64prefix
if mk install PREFIX="$L" libdir="$L/lib64"; then
	ok "make install libdir=$L/lib64"
	check_tree "$L" lib64
	check "settle.pc has libdir=$L/lib64" \
		grep -qx "libdir=$L/lib64" "$L/lib64/pkgconfig/settle.pc"
else
	bad "make install libdir=$L/lib64"; tail -5 "$tmp/make.log"
fi
mk uninstall PREFIX="$L" libdir="$L/lib64"
check_gone "$L"

finish
