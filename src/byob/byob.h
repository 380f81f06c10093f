/*
 * byob.h - bring your own benchmark: the claims of a user's C file
 * (settle run FILE.c), compiled once per build, cached and loaded.
 */
#ifndef SETTLE_BYOB_H
#define SETTLE_BYOB_H

#include <stddef.h>

#include "settle.h"

/* Most --build options one run takes. */
#define SETTLE_BYOB_MAX_BUILDS 16

/* The build used when none is given. */
#define SETTLE_BYOB_DEFAULT_BUILD "cc -O2"

/* settle_byob_claims()'s flags */
#define SETTLE_BYOB_VERBOSE 1u /* say which object each build uses */
#define SETTLE_BYOB_QUIET 2u   /* no warnings, nothing verbose: a process
				* of --processes, whose parent said them */

/* Non-zero when a command-line argument names a C file (ends in ".c"). */
int settle_byob_is_file(const char *arg);

/*
 * Compile file with each of builds[0..nbuilds) (a compiler command and its
 * flags, split on blanks; nbuilds 0: SETTLE_BYOB_DEFAULT_BUILD) into a
 * shared object, or take it from the cache, load it, and store in
 * out[0..max) one merged claim per claim name of the file (only those
 * named in names[0..nnames) when nnames > 0, in the file's order). A
 * merged claim has every build's variants, each with .build set to the
 * build string; its set-up runs every build's set-up and checks that each
 * variant's check value is the same under every build. flags:
 * SETTLE_BYOB_VERBOSE, say on stderr which shared object each build uses
 * and whether it was cached; SETTLE_BYOB_QUIET, neither that nor a
 * warning (a missing or foreign primitives archive), errors only.
 *
 * Returns 0 with *nout set; 128 + the signal when an interrupt was noted
 * during a build (its temporary files removed); or 2 after printing why
 * on stderr (file
 * unreadable, a compiler error, whose messages the compiler printed on
 * stderr itself, no SETTLE_CLAIMS, an unknown claim name, a malformed
 * claim or build string, a shared object that cannot be loaded, the
 * cache unwritable). The claims stay valid until the process exits.
 * With layouts > 1 each build is compiled and loaded once per layout,
 * its code and static data padded by the layout (docs/layouts.md); the
 * merged claim set up in layout L (settle_params.layout) runs layout L's
 * objects.
 * Each process merges one file's builds at most once.
 */
int settle_byob_claims(const char *file, const char *const *builds,
		       size_t nbuilds, unsigned layouts, char *const *names,
		       size_t nnames, unsigned flags,
		       const struct settle_claim **out, size_t max,
		       size_t *nout);

/*
 * Protect path, a run's --output, from being written over when a build of
 * the file reads it (a header the claim includes; the file itself is the
 * caller's to refuse): settle_byob_claims() then fails, naming it. Call
 * before settle_byob_claims(); NULL, or a path that does not exist yet,
 * protects nothing.
 */
void settle_byob_protect(const char *path);

/*
 * From settle_byob_claims() on, what the file's code writes to standard
 * output goes to standard error (a claim's printf would otherwise land in
 * the middle of settle's output, a JSON document among them). This gives
 * settle its standard output back, first flushing what the claims wrote;
 * call it once the claims have run, before writing the result. Does
 * nothing when no file was loaded.
 */
void settle_byob_stdout_restore(void);

/*
 * Whether a process the file's code forked returned into settle (its
 * copy ended there, saying where): then says so on standard error,
 * removes settle's temporary files and returns 1; the run has failed and
 * must write nothing. 0 otherwise, and when no file was loaded.
 */
int settle_byob_copy_returned(void);

#endif
