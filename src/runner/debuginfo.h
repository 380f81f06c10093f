/*
 * debuginfo.h - whether a program or library perf sampled has the debug
 * information perf reads inlined frames from (private to settle: --share,
 * src/runner/command.c).
 *
 * Without it perf names a sample in a copy of a function the compiler
 * inlined into a caller after the caller, and the function's share of
 * the samples is too low (README, "Whole commands").
 */
#ifndef SETTLE_DEBUGINFO_H
#define SETTLE_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Whether the ELF file at path (perf's name of a sample's DSO) holds DWARF
 * from which perf reads inlined functions (perf 6.1 through binutils'
 * addr2line 2.40): a .debug_info section (compressed with -gz too, unless
 * clang built the file), not .zdebug_info, not split into .dwo files
 * (-gsplit-dwarf), no unit of clang's DWARF 5; or a separate file of the
 * same GNU build ID with such DWARF, where Debian's -dbgsym packages and
 * GDB put it: /usr/lib/debug/.build-id/NN/REST.debug (NN the first byte
 * of the build ID in hex, REST the others), /usr/lib/debug/PATH.debug,
 * or the file .gnu_debuglink names beside path, in .debug/ beside it or
 * below /usr/lib/debug (ELF: the System V gABI, "Sections"; DWARF 5,
 * 7.5.1, unit headers; GDB's manual, "Debugging Information in Separate
 * Files").
 *
 * Returns 1 when it has, 0 when it has not or settle cannot tell: a
 * name that is no file ("[kernel.kallsyms]", "[vdso]", "[unknown]"), an
 * unreadable file or one that is not regular (a FIFO is not waited on),
 * no ELF of this machine's class and byte order, or headers outside the
 * file. Whether the DWARF covers the code sampled is
 * settle_debug_covers()'s (a program linked from objects with and
 * without -g has DWARF, not for all of its code).
 */
int settle_has_debug_info(const char *path);

/* The same with the separate files looked for below root (a folder,
 * without a trailing '/') instead of /usr/lib/debug: for tests. */
int settle_has_debug_info_in(const char *path, const char *root);

/*
 * Whether every address addr[0..n) (as perf prints them: the file's own
 * virtual addresses) lies in a unit of path's DWARF (settle_has_debug_info,
 * separate files below root): in the ranges of its .debug_aranges (DWARF
 * 5, 6.1.2). A program linked from objects built with and without -g has
 * DWARF, but not for the code of the others, whose inlined functions perf
 * cannot name. Returns 1 when all do, or when the DWARF has no
 * .debug_aranges to tell (clang writes it only with -gdwarf-aranges) or a
 * compressed one; 0 when one does not, path has no DWARF perf reads, or
 * .debug_aranges cannot be read.
 */
int settle_debug_covers(const char *path, const char *root,
			const uint64_t *addr, size_t n);

#endif
