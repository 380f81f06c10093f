/*
 * util.h - small services every layer may use (src/util/): file output
 * written whole or not at all, the temporary-directory rule, JSON text,
 * UTF-8, units, the C locale for writers. Private to settle.
 */
#ifndef SETTLE_UTIL_H
#define SETTLE_UTIL_H

#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The value of macro x as a string literal: SETTLE_STR(8192) "8192". */
#define SETTLE_STR_(x) #x
#define SETTLE_STR(x) SETTLE_STR_(x)

/*
 * Check an output path before writing it and resolve it: "-" stays
 * standard output; a symbolic link resolves to the file it names (the
 * link is kept); refused: a directory, device, terminal, pipe or socket,
 * a file without a name (a /proc link to a deleted file) and the file
 * settle's standard output or error goes to; the directory must take a
 * temporary file (it is created and removed). Writes the path to rename
 * onto into resolved (len bytes). Returns 0, or -1 with a one-line
 * message in err.
 */
int settle_output_target(const char *path, char *resolved, size_t len,
			 char *err, size_t errlen);

/* Does path name a device, terminal, pipe or socket, or the file this
 * process's standard output or error goes to: a target that '-'
 * (standard output) would serve? 0 for a directory or a missing path. */
int settle_output_is_stdio(const char *path);

/*
 * Write buf[0..n) to path whole or not at all: a temporary file in the
 * same directory, fsync'ed, given mode 0666 less the umask (the one
 * permission rule of every file settle writes, as for any new file),
 * renamed over path, the directory fsync'ed.
 * "-" writes to standard output. Returns 0, or -1 with a message in err.
 */
int settle_replace_file(const char *path, const char *buf, size_t n,
			char *err, size_t errlen);

/* The directory for temporary files: $TMPDIR when set and not empty,
 * else /tmp. */
const char *settle_tmpdir(void);

/*
 * Interrupts. The settle command's SIGINT and SIGTERM handler calls
 * settle_interrupt_note(sig) for the first signal; the layers ask
 * settle_interrupted() between steps (samples, processes, builds) and
 * stop, keeping what was finished. Temporary files and directories are
 * registered while they exist (settle_temp_add, up to 64, paths below
 * 4096 bytes; returns -1 when full) and forgotten once removed;
 * settle_temp_cleanup() kills the process group of the command being
 * timed, if one is (settle_group_set(pgid) once it started,
 * settle_group_set(0) once it ended: a command that ignores SIGTERM
 * would outlive settle), then removes every registered one, files
 * first; it is
 * async-signal-safe: the handler calls it before ending the process on
 * a second signal.
 */
void settle_interrupt_note(int sig);
int settle_interrupted(void);   /* 0, or the signal that asked to stop */
int settle_temp_add(const char *path, int is_dir);
void settle_temp_forget(const char *path);
void settle_group_set(int pgid);
void settle_temp_cleanup(void);

/* A standard stream of a spawned program: inherited, /dev/null, or a
 * file descriptor (>= 0). */
#define SETTLE_SPAWN_INHERIT (-1)
#define SETTLE_SPAWN_NULL (-2)

struct settle_spawn_opts {
	int in, out, err;           /* SETTLE_SPAWN_INHERIT, _NULL or an fd */
	int close_fd;               /* closed in the child; -1: none */
	const char *dir;            /* the child's working directory; NULL:
				       this one */
	const char *const *set;     /* "NAME=VALUE" to set, NULL-terminated */
	const char *const *unset;   /* names to remove, NULL-terminated */
	int pdeathsig;              /* sent to the child when settle ends
				       (PR_SET_PDEATHSIG); 0: none */
};

/*
 * The one way settle starts a program: fork, the streams and directory
 * of o (NULL: all inherited), then exec argv[0] (searched in PATH when it
 * has no '/'). Returns the child's pid, or -1 with errno set when the
 * program cannot be started at all (fork failed, not found, not
 * executable: the child's exec error is passed back through a pipe).
 */
pid_t settle_spawn(char *const *argv, const struct settle_spawn_opts *o);

/*
 * Wait for pid (retrying on EINTR; when an interrupt was noted, the
 * signal is passed on to pid once, so that a SIGTERM sent to settle
 * alone ends the program it waits for too). Returns its exit status,
 * 128 + the signal that ended it, or -1 with errno set. ru (NULL: not
 * wanted) receives its resource usage (wait4).
 */
int settle_wait(pid_t pid, struct rusage *ru);

/* Told that pid stopped on signal sig (settle_wait_stoppable()). */
typedef void settle_stopped_fn(pid_t pid, int sig, void *arg);

/*
 * settle_wait() that also sees pid stop (a SIGSTOP from itself or from
 * another program; a stop from the terminal, Ctrl-Z, stops settle too
 * and is not told): stopped(pid, sig, arg) is called once (NULL: not
 * wanted), and pid is waited for until it continues and ends. An
 * interrupt is passed on with SIGCONT after it, so that a stopped program
 * takes it. SIGCHLD is caught while it waits (its disposition restored
 * after). Returns what settle_wait() returns.
 */
int settle_wait_stoppable(pid_t pid, settle_stopped_fn *stopped, void *arg);

/*
 * settle_wait() for at most limit_ms milliseconds (polled every 10 ms):
 * a program still running then is killed (SIGKILL) and reaped, and
 * *timed_out set to 1 (else 0). Returns what settle_wait() returns (128 +
 * 9 for the killed program), or -1 with errno set.
 */
int settle_wait_for(pid_t pid, long limit_ms, int *timed_out);

/*
 * Non-zero when two rows or variants, given by their parts (build NULL:
 * none; na and nb parameters), have the same build and the same
 * parameters, key by key in any order (keys are unique): each value
 * compared as its text; settle_variant_same_group() and
 * settle_result_same_group().
 */
struct settle_param;
int settle_same_group(const char *build_a, const struct settle_param *pa,
		      size_t na, const char *build_b,
		      const struct settle_param *pb, size_t nb);

/*
 * Decode the UTF-8 sequence at p (NUL-terminated): returns the code point
 * and its length in *len; an invalid, overlong, surrogate or truncated
 * sequence gives U+FFFD with *len = 1.
 */
unsigned long settle_utf8_next(const unsigned char *p, size_t *len);

/* Non-zero when s (NUL-terminated) is valid UTF-8 throughout. */
int settle_utf8_valid(const char *s);

/* Non-zero when s is a JSON integer (RFC 8259: -?(0|[1-9][0-9]*)) that a
 * reader keeps, from -2^63 to 2^63 - 1 (jansson refuses a larger one). */
int settle_int64_text(const char *s);

/*
 * A copy of s (free it; NULL when out of memory) fit for a terminal:
 * control characters and escape sequences written out, never sent raw
 * ("\x1b", "\x07", C1 as "\u009b", the bidirectional formatting
 * characters as "\u202e"), invalid UTF-8 bytes as "\xNN"; printable
 * UTF-8 kept as it is.
 */
char *settle_escape(const char *s);

/* The same, in place in buf (len bytes), cut to fit. */
void settle_escape_in(char *buf, size_t len);

/* s into buf (len bytes) whole when it has at most max bytes (or max
 * is below 16, or not below len - 5), else its start, " ... " and its
 * last max / 4 bytes, cut at UTF-8 character boundaries: a long command
 * line shown beside figures that must not be cut off. Returns buf. */
char *settle_elide(const char *s, size_t max, char *buf, size_t len);

/* The start of the UTF-8 character byte i of s is in (i, or back over
 * continuation bytes to 0). */
size_t settle_utf8_start(const char *s, size_t i);

/* Remove leading blanks and trailing blanks and new lines of s, in place
 * (a line read from /proc or a cpuid brand string). */
void settle_trim(char *s);

/* s as an RFC 8259 string: quoted, pure ASCII (\uXXXX escapes, surrogate
 * pairs beyond the BMP, U+FFFD for invalid UTF-8); NULL writes "". */
void settle_json_string(FILE *f, const char *s);

/* v as a JSON number (%.12g), or null when it is not finite. */
void settle_json_number(FILE *f, double v);

/*
 * A time given in ns, with 4 significant digits in the unit that fits
 * after rounding ("812.0 ps", "0.273 ns", "3.210 us"; 999.96 ns is
 * "1.000 us"), into buf; "0 ns" for 0, "unknown" for a negative or
 * non-finite value, scientific below 1e-6 ns. Returns buf.
 */
char *settle_format_ns(double ns, char *buf, size_t len);

/* The time now, UTC, ISO 8601 ("2026-12-05T17:07:48Z"), into buf (len
 * bytes, at least 21); "" when the clock cannot be read. Returns buf. */
char *settle_utc_now(char *buf, size_t len);

/* Unix time of s, a UTC time as settle_utc_now() writes it; -1 when s
 * is no such time. */
long long settle_utc_parse(const char *s);

/*
 * v with decimals digits after the point ("1.234"), but never "0.000"
 * for a non-zero v (two significant digits then, "0.0004" or "4e-05")
 * and never wider than 9 characters ("%.3g" when the fixed form would
 * be); "unknown" when v is not finite. Returns buf.
 */
char *settle_format_num(double v, int decimals, char *buf, size_t len);

/* A ratio v as settle_format_num(v, 3) writes it, but with two
 * significant digits below 0.01 ("0.0005", "0.0094"; 0.0005 was
 * "0.001", twice its size). Returns buf. */
char *settle_format_ratio(double v, char *buf, size_t len);

/*
 * The calling thread's locale switched to "C" for the duration of a
 * writer, so that printf writes '.' decimals even in a program that
 * called setlocale() (settle itself never does).
 */
struct settle_c_locale {
	locale_t c, old;
};
void settle_c_locale_begin(struct settle_c_locale *l);
void settle_c_locale_end(struct settle_c_locale *l);

/* What a variant whose check value differs from its baseline's is told
 * to do, when the difference is by design. */
#define SETTLE_CHECK_HINT \
	"variants that compute different answers by design, such as two " \
	"hash functions: return what they share, e.g. the items done, and " \
	"keep each answer with settle_keep(); docs/writing-a-claim.md, " \
	"\"Check values\""

#endif
