/*
 * perf_script.h - count, in the text of `perf script -F period,ip,sym,dso`, the
 * samples that fall in given functions (private to settle; a pure parser,
 * no I/O, so that it is tested on captured perf output in tests/data/).
 *
 * The text is one sample after another. A sample begins with a line that
 * does not start with a tab: the command's name and the thread's ID when
 * asked for (-F comm,tid,period,ip,sym with call chains:
 * settle_perf_parser_tids()), the period (a decimal
 * number of events, ns of CPU time for cpu-clock), then, when perf recorded no call chains, the
 * sample's one frame on the same line. With call chains (perf record -g)
 * the frames follow, one per line, each starting with a tab, innermost
 * first, and a blank line ends the sample. A frame is a hexadecimal
 * address, blanks, and the symbol: the rest of the line ("[unknown]" when
 * perf could not name it; C++ names may contain blanks), then, with
 * -F ...,dso, the file in parentheses (" (/usr/bin/prog)",
 * " ([kernel.kallsyms])"); " (inlined)" in its place after the name of a
 * function inlined at that address, which is that function's frame as
 * much as any.
 *
 * A whole call chain ends in the entry of a process or thread (_start,
 * __libc_start_main, clone3, start_thread, ...). One that does not was
 * cut: the unwinder lost its way or ran out of the stack it was given,
 * and the functions above the cut are missing from it.
 */
#ifndef SETTLE_PERF_SCRIPT_H
#define SETTLE_PERF_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

/* Most symbols one parser counts. */
#define SETTLE_PERF_MAX_SYMBOLS 16
/* Threads one parser tells apart (more count as many). */
#define SETTLE_PERF_MAX_TIDS 64
/* Bytes kept of the name of an implementation (impl_name). */
#define SETTLE_PERF_IMPL_NAME 64
/* Files kept per symbol (dso), and bytes of each name. */
#define SETTLE_PERF_DSOS 8
#define SETTLE_PERF_DSO_LEN 256
/* Files kept in which perf showed inlined frames (inline_dso). */
#define SETTLE_PERF_INLINE_DSOS 16

struct settle_perf_count {
	uint64_t samples;      /* samples seen */
	uint64_t period_sum;   /* sum of their periods */
	uint64_t malformed;    /* lines that are not perf script output */
	/* per symbol i: samples whose innermost frame is in it ("self"), and
	 * samples with it anywhere in the call chain ("with callees", each
	 * sample once however often the symbol recurs in its chain) */
	uint64_t self[SETTLE_PERF_MAX_SYMBOLS];
	uint64_t children[SETTLE_PERF_MAX_SYMBOLS];
	/* per symbol i: samples with symbol i nowhere in the chain whose
	 * innermost frame is in an implementation glibc chooses for it at
	 * load, named __SYMBOL_ and a CPU's tag (__strlen_avx2,
	 * __memcpy_evex_unaligned_erms, __memcpy_generic), for memcpy
	 * __memmove_... too (glibc's memcpy is its memmove); perf names a
	 * sample after the function that ran, so symbol i has none of them.
	 * The first such name seen, cut to SETTLE_PERF_IMPL_NAME - 1 bytes
	 * (there may be others: impl counts them all). */
	uint64_t impl[SETTLE_PERF_MAX_SYMBOLS];
	char impl_name[SETTLE_PERF_MAX_SYMBOLS][SETTLE_PERF_IMPL_NAME];
	/* per symbol i, with -F ...,dso: the files perf named its frames
	 * in (perf's DSO names: a path, or "[kernel.kallsyms]", "[vdso]"),
	 * and the files of the functions its inlined copies were in (the
	 * frame after an inlined one at its address); the first
	 * SETTLE_PERF_DSOS distinct names, "" after them; dso_more[i] when
	 * there were more, or a name longer than SETTLE_PERF_DSO_LEN - 1 */
	char dso[SETTLE_PERF_MAX_SYMBOLS][SETTLE_PERF_DSOS]
		[SETTLE_PERF_DSO_LEN];
	unsigned char dso_more[SETTLE_PERF_MAX_SYMBOLS];
	/* per symbol i: an inlined frame of it not followed by the frame of
	 * a function in a file at its address (its copy's file unknown) */
	unsigned char dso_unplaced[SETTLE_PERF_MAX_SYMBOLS];
	/* files in which perf showed a function inlined (a frame " (inlined)"
	 * followed by one at the same address named in the file): perf
	 * reads where the compiler inlined code there; the first
	 * SETTLE_PERF_INLINE_DSOS distinct ones */
	char inline_dso[SETTLE_PERF_INLINE_DSOS][SETTLE_PERF_DSO_LEN];
	uint64_t any;          /* samples with any of the symbols in the
				  chain (the union of children[]) */
	uint64_t cut;          /* samples whose call chain reaches no
				  process or thread entry */
	uint64_t unnamed;      /* samples whose chain is whole (or not
				  recorded) but holds a frame perf could
				  not name ("[unknown]": code without
				  symbols, such as a stripped program):
				  a symbol in no sample may be that frame */
	unsigned busy_threads; /* threads (and processes) with samples, the
				  samples of the first thread while it is
				  a shell aside (the shell that started
				  the command), once finished (with
				  tids; SETTLE_PERF_MAX_TIDS + 1 when
				  more threads than that took samples) */
	uint64_t fell_back;    /* of them, those that end in glibc's
				  __libc_start_call_main: where a walk of
				  frame pointers ends, the unwinder's
				  fallback when it finds no call-frame
				  information (perf 6.1 so unwound whole
				  runs of a shell's child, at random) */
};

struct settle_perf_parser {
	const char *const *symbols; /* matched by whole name, or a name
				       of a compiler's copy of it
				       (SYMBOL.constprop.0, .isra.0,
				       .part.0, .cold, .lto_priv.0,
				       .llvm.HASH, .clone.0, .localalias) */
	size_t nsymbols;
	struct settle_perf_count count;
	int open;                   /* a sample is being read */
	size_t frames;              /* frames of it so far */
	int chained;                /* it has frames on lines of their own */
	int entry;                  /* one of them is an entry, and no
				       named frame follows it */
	int unknown;                /* one of them perf could not name */
	int last_start_call;        /* the last is __libc_start_call_main */
	int after_inlined;          /* the last frame was " (inlined)", */
	char inlined_at[20];        /* at this address (hex digits) */
	unsigned char inl_sym[SETTLE_PERF_MAX_SYMBOLS]; /* inlined frames
				       there named symbol i */
	unsigned char seen[SETTLE_PERF_MAX_SYMBOLS];
	unsigned char first[SETTLE_PERF_MAX_SYMBOLS];
	unsigned char impl[SETTLE_PERF_MAX_SYMBOLS]; /* its innermost frame
						       implements symbol i */
	char impl_name[SETTLE_PERF_IMPL_NAME]; /* that frame's name */
	int tids;                   /* lines begin with the thread's ID */
	uint32_t tid;               /* the open sample's */
	int shell;                  /* its command is a shell's */
	uint32_t first_tid;         /* the first sample's */
	size_t ntids;               /* threads seen, at most MAX_TIDS */
	int more_tids;              /* and more than that */
	struct {
		uint32_t tid;
		uint64_t samples;
	} seen_tids[SETTLE_PERF_MAX_TIDS];
	/* with settle_perf_parser_addresses(): the addresses of the frames
	 * in each file (a path), entries aside; heap, freed by
	 * settle_perf_parser_free() */
	struct settle_perf_file *files;
	size_t nfiles;
	int addresses;
};

/* The addresses sampled in one file (settle_perf_parser_addresses()). */
struct settle_perf_file {
	char name[SETTLE_PERF_DSO_LEN];
	uint64_t *addr;  /* as perf prints them: the file's own addresses
			    for a shared object or PIE program */
	size_t n, cap;   /* distinct once settle_perf_parser_finish()ed */
	int lost;        /* some were not kept (memory, or too many) */
};

/*
 * Start counting symbols[0..nsymbols) (at most SETTLE_PERF_MAX_SYMBOLS;
 * more are ignored). The strings must outlive the parser.
 */
void settle_perf_parser_init(struct settle_perf_parser *p,
			     const char *const *symbols, size_t nsymbols);

/* A sample's first line is "COMM TID PERIOD" (perf script -F
 * comm,tid,period,ip,sym, with call chains): the samples of each thread
 * are told apart, those of the first thread while its command is a shell
 * left out (the shell that started the command). */
void settle_perf_parser_tids(struct settle_perf_parser *p);

/*
 * Feed one line (with or without its '\n'; NUL-terminated). Returns 0, or
 * -1 for a line that perf script does not write (counted in malformed, and
 * otherwise ignored).
 */
int settle_perf_parse_line(struct settle_perf_parser *p, const char *line);

/* Feed len bytes of text (any number of lines; a last line without '\n'
 * counts). Returns the number of malformed lines in it. */
size_t settle_perf_parse_text(struct settle_perf_parser *p, const char *text,
			      size_t len);

/* End of the text: count the last sample. The counts are in p->count. */
void settle_perf_parser_finish(struct settle_perf_parser *p);

/*
 * Keep the address of every frame perf named in a file (a path), but a
 * process's or thread's entry (_start, ...): the code that ran there,
 * or called what ran, whose inlined functions perf names only with the
 * file's debug information. Per file, distinct, sorted after
 * settle_perf_parser_finish(); settle_perf_parser_free() frees them.
 */
void settle_perf_parser_addresses(struct settle_perf_parser *p);

/* The addresses kept for file (NULL when none were). */
const struct settle_perf_file *settle_perf_parser_file(
	const struct settle_perf_parser *p, const char *file);

/* Free what settle_perf_parser_addresses() kept. */
void settle_perf_parser_free(struct settle_perf_parser *p);

#endif
