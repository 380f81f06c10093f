# settle - GNU Make, no configure step. Objects under build/, binary build/settle.
#   make            build build/settle
#   make run        build, then reproduce the founding experiments
#   make test       build and run every test (installs test packages as root)
#   make test ARCH=generic   the same with no architecture-specific code
#   make test-cross the tests under qemu-user on AArch64 and s390x (mk/cross.mk)
#   make clean
#   V=1             show every command (quiet by default)
CC      ?= cc

# Quiet unless V=1: one line per file made ("  CC   build/src/x.o"), so
# that results are not buried under compiler command lines. V=1 shows
# every command as make runs it.
V ?= 0
ifeq ($(V),1)
say :=
else
MAKEFLAGS += -s
say = printf '  %-4s %s\n' '$(1)' '$(2)'
endif

# ---- architecture ----------------------------------------------------------
# Architecture-specific code lives in one folder per architecture,
# src/arch/<arch>/ (see src/arch/interface.h), chosen from the compiler's
# target (`$(CC) -dumpmachine`, e.g. aarch64-linux-gnu). A target without
# a folder, or ARCH=generic, gets the portable fallbacks of
# src/arch/generic/ alone. A new architecture is a folder plus one line:
ARCH_x86_64  := x86
ARCH_aarch64 := aarch64
TARGET      := $(shell $(CC) -dumpmachine)
TARGET_CPU  := $(firstword $(subst -, ,$(TARGET)))
ARCH        ?= $(or $(ARCH_$(TARGET_CPU)),generic)
ARCH_DIR    := src/arch/$(ARCH)
GENERIC_DIR := src/arch/generic
ifeq ($(wildcard $(ARCH_DIR)/arch.h),)
$(error ARCH=$(ARCH): no $(ARCH_DIR)/arch.h (architectures: $(notdir $(wildcard src/arch/*))))
endif
# The files matching $(1) in the architecture's folder, and the generic
# ones of the same pattern that it does not replace (same name).
arch_files = $(sort $(wildcard $(ARCH_DIR)/$(1)) \
	$(filter-out $(patsubst $(ARCH_DIR)/%,$(GENERIC_DIR)/%,$(wildcard $(ARCH_DIR)/$(1))), \
		     $(wildcard $(GENERIC_DIR)/$(1))))
ARCH_LIB_SRC   := $(call arch_files,*.c)
ARCH_CLAIM_SRC := $(call arch_files,claims/*.c)

# Objects go to build/, or build/<arch> when ARCH is given (ARCH=generic
# on x86-64 must not mix its objects with the native build's).
BUILD   ?= $(if $(filter command line environment,$(origin ARCH)),build/$(ARCH),build)
OPT     ?= -O2
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Iinclude -Isrc -Iclaims -I$(BUILD) \
             -I$(ARCH_DIR) $(if $(filter generic,$(ARCH)),,-I$(GENERIC_DIR)) -MMD -MP
LDLIBS   = -ljansson -lm $(PEER_LIBS)

# The vectoriser must stay off for builtin-generic, which measures the
# compiler's generic popcount, not what a vectoriser makes of it.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo 1)
ifeq ($(CC_IS_CLANG),1)
NOVEC := -fno-vectorize -fno-slp-vectorize
else
NOVEC := -fno-tree-vectorize -fno-tree-slp-vectorize
endif

LIB_SRC   := $(filter-out src/runner/placed_popcnt.c, \
             $(wildcard src/util/*.c src/stats/*.c src/cpu/*.c src/prim/*.c src/model/*.c src/view/*.c \
                        src/timer/*.c src/env/*.c src/runner/*.c src/report/*.c)) \
             $(ARCH_LIB_SRC)
CLAIM_SRC := $(filter-out claims/endian_loops.c claims/popcount_generic.c, \
                          $(wildcard claims/*.c)) $(ARCH_CLAIM_SRC)
CLI_SRC   := $(wildcard src/cli/*.c)

# The selftest's placed popcount loop: one source, four copies at the code
# offsets of layouts 0-3 (src/runner/placed_popcnt.c, docs/layouts.md).
PLACED_OBJ := $(foreach k,0 1 2 3,$(BUILD)/src/runner/placed$(k)_popcnt.o)
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(PLACED_OBJ)
CLAIM_OBJ := $(CLAIM_SRC:%.c=$(BUILD)/%.o) \
             $(BUILD)/claims/endian_loops_O0.o $(BUILD)/claims/endian_loops_O2.o \
             $(BUILD)/claims/popcount_generic.o
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libsettle.a
CLAIMS_A  := $(BUILD)/libsettle-claims.a

.PHONY: all run test test-run clean deps deps-test FORCE
# deps first (it may install packages), then a sub-make that sees them.
all: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle $(TOOLS)

$(BUILD)/%.o: %.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The architecture's own rules (ISA flags of its files): src/arch/<arch>/arch.mk.
-include $(ARCH_DIR)/arch.mk

# ---- optional peers --------------------------------------------------------
# GMP (mpn_popcount) and e2fsprogs' libext2fs (ext2fs_bitcount) are measured
# against settle's popcount where installed; as root, make installs them.
# Found for the compiler's target: a cross build has them only where the
# target's multiarch packages (libgmp-dev:arm64, ...) are installed.
PEER_PKGS := libgmp-dev libext2fs-dev e2fsprogs
have_lib     = $(shell test -f "$$($(CC) -print-file-name=lib$(1).so)" && echo 1)
HAVE_GMP    := $(if $(call have_lib,gmp),$(shell test -f /usr/include/gmp.h -o \
                  -f /usr/include/$(TARGET)/gmp.h && echo 1))
HAVE_EXT2FS := $(if $(call have_lib,ext2fs),$(shell test -f /usr/include/ext2fs/ext2fs.h && echo 1))
PEER_LIBS   := $(if $(HAVE_GMP),-lgmp) $(if $(HAVE_EXT2FS),-lext2fs -lcom_err)

# Required: jansson, the JSON parser that reads result files back.
REQ_PKGS    := libjansson-dev
REQ_HEADERS := /usr/include/jansson.h
PEER_HEADERS := /usr/include/ext2fs/ext2fs.h

# Every target that installs packages goes through mk/apt-install.sh: as
# root, it waits up to APT_LOCK_TIMEOUT seconds for the package manager's
# lock (another installation running), then says what could not be
# installed. APT_GET names the program (a stand-in in tests/test_apt.sh).
APT_GET          ?= apt-get
APT_LOCK_TIMEOUT ?= 300
APT_INSTALL = APT_GET='$(APT_GET)' APT_LOCK_TIMEOUT='$(APT_LOCK_TIMEOUT)' \
              sh mk/apt-install.sh

deps:
	@missing=; for h in $(REQ_HEADERS); do [ -f $$h ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  $(APT_INSTALL) required settle $(REQ_PKGS) || exit 1; \
	  for h in $(REQ_HEADERS); do [ -f $$h ] || { \
	    echo "settle needs $$h: sudo apt-get install -y $(REQ_PKGS)" >&2; \
	    exit 1; }; done; \
	fi
	@missing=; for h in $(PEER_HEADERS); do [ -f $$h ] || missing=1; done; \
	[ -f /usr/include/gmp.h ] || [ -f /usr/include/x86_64-linux-gnu/gmp.h ] || missing=1; \
	if [ -n "$$missing" ]; then \
	  $(APT_INSTALL) optional "the gmp/ext2fs peers (optional)" $(PEER_PKGS); \
	fi

# config.h records which peers were found; it is rewritten only when that
# changes, so objects rebuild exactly then.
$(BUILD)/config.h: FORCE
	@mkdir -p $(@D)
	@{ echo "/* generated by make */"; \
	   echo "#define SETTLE_HAVE_GMP $(if $(HAVE_GMP),1,0)"; \
	   echo "#define SETTLE_HAVE_EXT2FS $(if $(HAVE_EXT2FS),1,0)"; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# The claims' scalar kernels start every loop at a 64-byte line, so that
# where a loop falls in a line (which moved table8 by 1.6x and the 64-bit
# scalar byte swap by 1.6x when unrelated code moved) is the same in every
# build (claims/popcount.c).
KERNEL_ALIGN := -falign-loops=64
$(BUILD)/claims/popcount.o: ALL_CFLAGS += $(KERNEL_ALIGN)
# So do the primitives' kernels: settle's AVX-512 popcount loop is 63
# bytes, and where the linker put it, it spanned two 64-byte lines.
$(BUILD)/src/arch/%.o $(BUILD)/src/prim/%.o: ALL_CFLAGS += $(KERNEL_ALIGN)
# The AVX-512 popcount kernel: -O3, so that gcc unrolls the copy of its
# loop below 2 KiB (at most seven steps) completely, and its entry at the
# start of a 64-byte line (src/arch/x86/popcount_avx512.c).
PC512_FLAGS := -O3 -falign-functions=64
$(BUILD)/src/arch/x86/popcount_avx512.o: ALL_CFLAGS += $(PC512_FLAGS)

# Build flags are recorded in every result file.
$(BUILD)/src/env/build.o: ALL_CFLAGS += \
	-DSETTLE_BUILD_FLAGS='"$(strip -std=c11 $(CFLAGS))"' \
	-DSETTLE_NOVEC_FLAGS='"$(strip $(CFLAGS) $(NOVEC) $(KERNEL_ALIGN))"'
$(BUILD)/src/env/build.o: Makefile

# The endian loops are one source built twice: at -O0, as the original was,
# and at -O2.
$(BUILD)/claims/endian_loops_O0.o: claims/endian_loops.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) -O0 -DENDIAN_BUILD=O0 -c $< -o $@
$(BUILD)/claims/endian_loops_O2.o: claims/endian_loops.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) -O2 -DENDIAN_BUILD=O2 -c $< -o $@
# The placed loops are portable C: ISA_popcnt is x86-64's (its arch.mk) and
# empty elsewhere, where the selftest does not time them
# (settle_arch_placed_unavailable()).
PLACED_FLAGS := $(ISA_popcnt) $(NOVEC) -fno-unroll-loops -fno-toplevel-reorder
$(BUILD)/src/runner/placed%_popcnt.o: src/runner/placed_popcnt.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PLACED_FLAGS) -DCOPY=$* -c $< -o $@
$(BUILD)/claims/popcount_generic.o: claims/popcount_generic.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) $(NOVEC) $(KERNEL_ALIGN) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(AR) rcs $@ $^
$(CLAIMS_A): $(CLAIM_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(AR) rcs $@ $^

$(BUILD)/settle: $(CLI_OBJ) $(CLAIMS_A) $(LIB)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(CLAIMS_A) $(LIB) $(LDLIBS)

# Three fresh processes: a conclusion from one process is not settled
# (what a process keeps for its life can move every row of it).
run: all
	$(BUILD)/settle run --processes 3

# ---- tests ---------------------------------------------------------------
# cmocka, the test framework.
TEST_PKGS    := libcmocka-dev pkg-config gnuplot-nox
TEST_HEADERS := /usr/include/cmocka.h
# The output formats (tests/test_formats.*): the de_DE.UTF-8 locale's
# sources, Google Benchmark and its compare.py with what that needs.
TEST_PKGS    += locales libbenchmark-dev libbenchmark-tools python3-scipy \
                python3-numpy
TEST_HEADERS += /usr/share/i18n/locales/de_DE \
                /usr/include/benchmark/benchmark.h \
                /usr/share/benchmark/compare.py \
                /usr/lib/python3/dist-packages/scipy/__init__.py \
                /usr/lib/python3/dist-packages/numpy/__init__.py

deps-test:
	@missing=; for h in $(TEST_HEADERS); do [ -f $$h ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  $(APT_INSTALL) required "make test" $(TEST_PKGS) || exit 1; \
	fi

TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_LIBS  = -lcmocka $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(CLAIMS_A) $(LIB) | deps-test
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CLAIMS_A) $(LIB) $(TEST_LIBS)

# test_popcount also checks the inline AVX-512 entry of settle_bits.h from
# an object compiled with the AVX-512 flags (its name ends in _avx512:
# src/arch/x86/arch.mk), which it calls only on a CPU that has them.
# It is compiled a second time at -O3, where gcc turns the entry's loop
# below 2 KiB into straight-line code (include/settle_popcount_avx512.h).
# The same for the inline AVX2 entry, from an object compiled with -mavx2
# and -mpopcnt (settle_popcount_avx2.h).
INLINE_TEST_OBJ := $(BUILD)/tests/popcount_inline_avx512.o \
		   $(BUILD)/tests/popcount_inline_o3_avx512.o \
		   $(BUILD)/tests/popcount_inline_avx2.o
$(BUILD)/tests/popcount_inline_avx2.o: ALL_CFLAGS += $(ISA_popcnt)
$(BUILD)/tests/popcount_inline_o3_avx512.o: tests/popcount_inline_avx512.c \
		| $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) -O3 -DSETTLE_TEST_INLINE_O3 -c -o $@ $<
$(BUILD)/tests/test_popcount: $(INLINE_TEST_OBJ)
$(BUILD)/tests/test_popcount: tests/test_popcount.c $(CLAIMS_A) $(LIB) | deps-test
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(INLINE_TEST_OBJ) \
		$(CLAIMS_A) $(LIB) $(TEST_LIBS)

# Every test program and script goes through mk/run-test.sh, which adds
# its cases to $(TALLY); make test ends with their total.
TALLY    := $(BUILD)/test-tally
RUN_TEST  = sh mk/run-test.sh $(TALLY)

# What the tests run, built first with a job per CPU (compiling only:
# the tests themselves run one at a time, as they measure); a plain
# `make test` in a clean clone compiled one file at a time, a minute and
# a half of its 11.
JOBS := $(shell nproc 2>/dev/null || echo 1)

# The exhaustive correctness programs of the primitives (every length x
# alignment of every kernel) measure nothing: with a second CPU make test
# runs them, plain and sanitized (a minute and a half), beside the
# others, their output after them (it took 9 min 44 s of its 10 without).
TEST_APART := test_byteorder test_popcount test_readlimit test_bswap_nt

test: deps deps-test
	@rm -f $(TALLY); fail=0; start=$$(date +%s); apart=; \
	$(MAKE) --no-print-directory -j$(JOBS) test-build || exit 1; \
	if [ $(JOBS) -gt 1 ]; then \
	  $(MAKE) --no-print-directory test-apart-run \
	    >$(BUILD)/test-apart.log 2>&1 & \
	  apart=$$!; fi; \
	$(MAKE) --no-print-directory TEST_SKIP=apart test-run || fail=1; \
	$(MAKE) --no-print-directory TEST_SKIP=apart test-sanitize || fail=1; \
	if [ -n "$$apart" ]; then \
	  wait $$apart || fail=1; cat $(BUILD)/test-apart.log; \
	else $(MAKE) --no-print-directory test-apart || fail=1; fi; \
	sh mk/test-summary.sh $(TALLY) $$start $$fail

# TEST_SKIP=apart: test-run and test-sanitize leave TEST_APART out (make
# test runs them with test-apart).
TEST_RUN_BIN = $(if $(filter apart,$(TEST_SKIP)), \
                 $(filter-out $(TEST_APART:%=$(BUILD)/tests/%),$(TEST_BIN)), \
                 $(TEST_BIN))

.PHONY: test-apart test-apart-run
test-apart: $(TEST_APART:%=$(BUILD)/tests/%) test-sanitize-build
	@$(MAKE) --no-print-directory test-apart-run

# The programs as test-build built them, with no prerequisite: make test
# runs this beside test-run, and two makes that both remade
# build/config.h collided (mv: cannot stat 'build/config.h.tmp').
test-apart-run:
	@fail=0; for t in $(TEST_APART); do \
	  echo "== $(BUILD)/tests/$$t"; \
	  SETTLE=$(BUILD)/settle $(RUN_TEST) $(BUILD)/tests/$$t $(BUILD)/tests/$$t || fail=1; \
	  echo "== sanitized $$t"; \
	  SETTLE=$(SAN_BUILD)/settle SETTLE_TEST_SAMPLE=1 \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(RUN_TEST) "$$t(sanitized)" $(SAN_BUILD)/tests/$$t || fail=1; \
	done; [ $$fail = 0 ] && echo "the primitives' correctness programs passed"

# Shell tests (tests/test_*.sh, and the architecture's own) get SETTLE and
# BUILD in their environment.
TEST_SH   := $(wildcard tests/test_*.sh) $(call arch_files,test_*.sh)
# Extra programs that tests need (mk/*.mk add to it).
TEST_DEPS :=

# Further targets and test programs, one file per topic.
include $(wildcard mk/*.mk)

.PHONY: test-build
test-build: $(BUILD)/settle $(TEST_BIN) $(TEST_DEPS) test-sanitize-build

test-run: $(BUILD)/settle $(TEST_BIN) $(TEST_DEPS)
	@fail=0; for t in $(TEST_RUN_BIN); do \
	  echo "== $$t"; SETTLE=$(BUILD)/settle $(RUN_TEST) $$t $$t || fail=1; \
	done; \
	for t in $(TEST_SH); do \
	  echo "== $$t"; SETTLE=$(BUILD)/settle BUILD=$(BUILD) SETTLE_ARCH=$(ARCH) \
	    SETTLE_OBJS="$(LIB_OBJ) $(CLAIM_OBJ) $(CLI_OBJ)" $(RUN_TEST) $$t bash $$t \
	    || fail=1; \
	done; \
	echo "== $(BUILD)/tests/test_runner with the clock_gettime fallback"; \
	SETTLE_CLOCK=monotonic $(RUN_TEST) "test_runner(clock_gettime)" \
	  $(BUILD)/tests/test_runner || fail=1; \
	if [ $$fail = 0 ]; then echo "all test programs passed"; \
	else echo "some test programs FAILED"; exit 1; fi

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
