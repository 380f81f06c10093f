/*
 * elf.h - reading the headers of an ELF file of this machine's class and
 * byte order, every offset checked against the file's size (private to
 * settle: the debug information of --share's files, src/runner/
 * debuginfo.c; cached objects: whole, their type and machine, src/byob/).
 * The layout is the System V gABI's ("ELF Header", "Sections", "Program
 * Header"), as <elf.h> declares it.
 */
#ifndef SETTLE_UTIL_ELF_H
#define SETTLE_UTIL_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr settle_elf_ehdr;
typedef Elf64_Shdr settle_elf_shdr;
typedef Elf64_Phdr settle_elf_phdr;
typedef Elf64_Nhdr settle_elf_nhdr;
typedef Elf64_Sym settle_elf_sym;
#define SETTLE_ELF_CLASS ELFCLASS64
#else
typedef Elf32_Ehdr settle_elf_ehdr;
typedef Elf32_Shdr settle_elf_shdr;
typedef Elf32_Phdr settle_elf_phdr;
typedef Elf32_Nhdr settle_elf_nhdr;
typedef Elf32_Sym settle_elf_sym;
#define SETTLE_ELF_CLASS ELFCLASS32
#endif

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SETTLE_ELF_DATA ELFDATA2MSB
#else
#define SETTLE_ELF_DATA ELFDATA2LSB
#endif

struct settle_elf {
	int fd;
	off_t size;          /* bytes of the file */
	settle_elf_ehdr eh;  /* its header */
};

/*
 * Open path as an ELF file of this machine's class and byte order (a
 * regular file). Returns 0, or -1 (nothing open) when it cannot be read
 * or is no such file.
 */
int settle_elf_open(struct settle_elf *e, const char *path);

/* Read len bytes at offset off of e into buf. Returns 0, or -1 when they
 * are not all inside the file or cannot be read. */
int settle_elf_read(const struct settle_elf *e, void *buf, size_t len,
		    uint64_t off);

/* Section header i of e into sh. Returns 0, or -1 (no such header, or
 * headers of another size than this machine's). */
int settle_elf_section(const struct settle_elf *e, unsigned i,
		       settle_elf_shdr *sh);

void settle_elf_close(struct settle_elf *e);

/*
 * The type (e_type: ET_DYN for a shared object) and the machine
 * (e_machine: EM_X86_64, ...) of the ELF file at path, of any class and
 * byte order (an object built for another machine than settle's).
 * Returns the field, or -1 when path is no ELF file or cannot be read.
 */
int settle_elf_type(const char *path);
int settle_elf_machine(const char *path);

/*
 * Whether the ELF file at path is whole: its program and section header
 * tables and the file contents of its loadable segments (PT_LOAD) all
 * lie inside the file (dlopen maps those segments, and a page past the
 * end of a file cut short faults with SIGBUS when touched). Returns 1
 * when whole, 0 when cut short, -1 when it is no ELF file of this
 * machine's class and byte order (not judged).
 */
int settle_elf_whole(const char *path);

/*
 * Where the functions of an object start: the largest power of two, at
 * most 4096, that divides the address of every function (STT_FUNC, in
 * .symtab) of the ELF file at path (this machine's class and byte order)
 * in an executable section, but those the C runtime links into every
 * object (settle_runtime_function()) and those of its cold code: the
 * symbols named prefix and more are marks, and a function whose nearest
 * mark at or below it is the one named cold is not checked (gcc aligns
 * no cold function, whatever -falign-functions says). The first function
 * found at that alignment (the worst), and its offset from the alignment
 * asked about, are said in name: "scan 7 bytes into a 16-byte slot" when
 * its alignment is below slot (bytes, a power of two), else "". Returns
 * the alignment; 0 when path has no symbol table (built with -s), -2
 * when it has no mark named code (a local symbol the linker dropped:
 * -Wl,-x, or its section: --gc-sections), -1 when it is no such ELF file
 * or cannot be read.
 */
long settle_elf_code_align(const char *path, const char *prefix,
			   const char *code, const char *cold, unsigned slot,
			   char *name, size_t len);

/* Whether name is a function the C runtime links into every program and
 * object (crti.o, crtbegin.o: _init, frame_dummy, ...; i386's PIC
 * thunks) or a PLT stub (memcpy@plt): code that is not the program's. */
int settle_runtime_function(const char *name);

#endif
