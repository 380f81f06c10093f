/* report.h - helpers shared by the output formats (private). */
#ifndef SETTLE_REPORT_H
#define SETTLE_REPORT_H

#include <locale.h>
#include <stdio.h>

#include "settle.h"

/* Scale figures of result r (0 when the claim has none for it). */
size_t settle_scale_of(const struct settle_report *rep,
		       const struct settle_result *r,
		       struct settle_figure *out, size_t max);

/* Format a time in ns with an adaptive unit ("812 ps", "3.21 us"). */
char *settle_format_ns(double ns, char *buf, size_t len);

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

/* The distinct claims of rep in order of first result, at most max. */
size_t settle_report_claims(const struct settle_report *rep,
			    const struct settle_claim_info **out, size_t max);

/* Do c's variants in rep come in builds or parameter sets? */
int settle_claim_grouped(const struct settle_report *rep,
			 const struct settle_claim_info *c);

/* Is any measured result of c in rep unstable? */
int settle_claim_unstable(const struct settle_report *rep,
			  const struct settle_claim_info *c);

/* How the cycles column of c was obtained, one line. */
const char *settle_cycles_note(const struct settle_report *rep,
			       const struct settle_claim_info *c);

/*
 * Decode the UTF-8 sequence at p (NUL-terminated): returns the code point
 * and its length in *len; an invalid, overlong, surrogate or truncated
 * sequence gives U+FFFD with *len = 1.
 */
unsigned long settle_utf8_next(const unsigned char *p, size_t *len);

/* s as an RFC 8259 string: quoted, pure ASCII (\uXXXX escapes, surrogate
 * pairs beyond the BMP, U+FFFD for invalid UTF-8); NULL writes "". */
void settle_json_string(FILE *f, const char *s);

/* The result file as JSON text (what settle_write_json writes). */
void settle_json_doc(FILE *f, const struct settle_report *rep);

/* Write buf[0..n) to path whole or not at all (temporary file, fsync,
 * rename, directory fsync); "-" writes to standard output. */
int settle_replace_file(const char *path, const char *buf, size_t n,
			char *err, size_t errlen);

#endif
