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

/*
 * Whether the ELF file at path (perf's name of a sample's DSO) has DWARF
 * debug information: a .debug_info (or compressed .zdebug_info) section
 * with contents, or a separate file where Debian's -dbgsym packages put
 * it, /usr/lib/debug/.build-id/NN/REST.debug (NN the first byte of the
 * file's GNU build ID in hex, REST the others) or /usr/lib/debug/PATH.debug
 * (ELF: the System V gABI, "Sections"; GDB's manual, "Debugging
 * Information in Separate Files").
 *
 * Returns 1 when it has, 0 when it has not or settle cannot tell: a
 * name that is no file ("[kernel.kallsyms]", "[vdso]", "[unknown]"), an
 * unreadable file, no ELF of this machine's class and byte order, or
 * section headers outside the file.
 */
int settle_has_debug_info(const char *path);

/* The same with the separate files looked for below root (a folder,
 * without a trailing '/') instead of /usr/lib/debug: for tests. */
int settle_has_debug_info_in(const char *path, const char *root);

#endif
