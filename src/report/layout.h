/*
 * layout.h - laying text out in columns (src/report/layout.c), shared by
 * the formats: display widths of UTF-8 text, cleaning names read from
 * files for a terminal, wrapping paragraphs at a width.
 */
#ifndef SETTLE_LAYOUT_H
#define SETTLE_LAYOUT_H

#include <stdio.h>

/* In composed text: a space that wrapping never breaks ("32 MiB"). */
#define SETTLE_NBSP '\x1f'
#define SETTLE_NBSP_S "\x1f"

/* Display columns of code point c (0 for combining marks, 2 for wide). */
int settle_cp_width(unsigned long c);

/* Display width of clean text [s, e) (e NULL: to the end). */
int settle_text_width_n(const char *s, const char *e);
int settle_text_width(const char *s);

/*
 * A copy of s (free it) with tabs and line ends as spaces, other control
 * characters (C0, DEL, C1) and invalid UTF-8 as '?', SETTLE_NBSP kept.
 * NULL when out of memory.
 */
char *settle_text_clean(const char *s);

/* s with its spaces made unbreakable (SETTLE_NBSP); returns s. */
char *settle_text_nb(char *s);

/*
 * Print clean text s wrapped at width columns: the first line starts at
 * column col (the caller printed that much), the next ones indented by
 * indent. Breaks at spaces; a word longer than a line is cut between
 * characters; SETTLE_NBSP prints as a space. Ends the last line.
 */
void settle_wrap(FILE *f, const char *s, int col, int indent, int width);

/* printf-formatted text, cleaned, started at column indent0 (spaces
 * printed here) and wrapped at width with the next lines at indent. */
__attribute__((format(printf, 5, 6)))
void settle_para(FILE *f, int indent0, int indent, int width,
		 const char *fmt, ...);

/* n spaces. */
void settle_spaces(FILE *f, int n);

#endif
