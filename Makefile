# settle - GNU Make, no configure step. Objects under build/, binary build/settle.
#   make            build build/settle
#   make run        build, then reproduce the founding experiments
#   make test       build and run every test (installs test packages as root)
#   make clean
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
WARN    := -Wall -Wextra -Werror
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Iinclude -Isrc -Iclaims \
             -MMD -MP
LDLIBS  := -lm

# The vectoriser must stay off for builtin-generic, which measures the
# compiler's generic popcount, not what a vectoriser makes of it.
CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -qi clang && echo 1)
ifeq ($(CC_IS_CLANG),1)
NOVEC := -fno-vectorize -fno-slp-vectorize
else
NOVEC := -fno-tree-vectorize -fno-tree-slp-vectorize
endif

LIB_SRC   := $(wildcard src/util/*.c src/stats/*.c src/cpu/*.c src/timer/*.c \
                        src/env/*.c src/runner/*.c src/report/*.c)
CLAIM_SRC := $(filter-out claims/endian_loops.c claims/popcount_generic.c, \
                          $(wildcard claims/*.c))
CLI_SRC   := $(wildcard src/cli/*.c)

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLAIM_OBJ := $(CLAIM_SRC:%.c=$(BUILD)/%.o) \
             $(BUILD)/claims/endian_loops_O0.o $(BUILD)/claims/endian_loops_O2.o \
             $(BUILD)/claims/popcount_generic.o
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libsettle.a
CLAIMS_A  := $(BUILD)/libsettle-claims.a

.PHONY: all run test clean deps-test
all: $(BUILD)/settle

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Build flags are recorded in every result file.
$(BUILD)/src/env/build.o: ALL_CFLAGS += \
	-DSETTLE_BUILD_FLAGS='"$(strip -std=c11 $(CFLAGS))"' \
	-DSETTLE_NOVEC_FLAGS='"$(strip $(CFLAGS) $(NOVEC))"'
$(BUILD)/src/env/build.o: Makefile

# The endian loops are one source built twice: at -O0, as the original was,
# and at -O2.
$(BUILD)/claims/endian_loops_O0.o: claims/endian_loops.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O0 -DENDIAN_BUILD=O0 -c $< -o $@
$(BUILD)/claims/endian_loops_O2.o: claims/endian_loops.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O2 -DENDIAN_BUILD=O2 -c $< -o $@
$(BUILD)/claims/popcount_generic.o: claims/popcount_generic.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(NOVEC) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
$(CLAIMS_A): $(CLAIM_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/settle: $(CLI_OBJ) $(CLAIMS_A) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(CLAIMS_A) $(LIB) $(LDLIBS)

run: $(BUILD)/settle
	$(BUILD)/settle run

# ---- tests ---------------------------------------------------------------
# cmocka (test framework) and jansson (strict JSON parser for result files).
TEST_PKGS    := libcmocka-dev libjansson-dev
TEST_HEADERS := /usr/include/cmocka.h /usr/include/jansson.h

deps-test:
	@missing=; for h in $(TEST_HEADERS); do [ -f $$h ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(TEST_PKGS)"; \
	    (apt-get install -y $(TEST_PKGS) || \
	     (apt-get update && apt-get install -y $(TEST_PKGS))) >/dev/null || exit 1; \
	  else \
	    echo "make test needs: sudo apt-get install -y $(TEST_PKGS)" >&2; exit 1; \
	  fi; \
	fi

TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_LIBS := -lcmocka -ljansson -lm

$(BUILD)/tests/%: tests/%.c $(CLAIMS_A) $(LIB) | deps-test
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(CLAIMS_A) $(LIB) $(TEST_LIBS)

test: deps-test $(BUILD)/settle $(TEST_BIN)
	@fail=0; for t in $(TEST_BIN); do \
	  echo "== $$t"; SETTLE=$(BUILD)/settle $$t || fail=1; \
	done; \
	echo "== $(BUILD)/tests/test_runner with the clock_gettime fallback"; \
	SETTLE_CLOCK=monotonic $(BUILD)/tests/test_runner || fail=1; \
	if [ $$fail = 0 ]; then echo "all test programs passed"; \
	else echo "some test programs FAILED"; exit 1; fi

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
