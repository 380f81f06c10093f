# cross - the library and the tests on other architectures, under
# emulation (README, "Architectures"): AArch64 (little-endian, src/arch/aarch64) and
# s390x (big-endian, the generic build), cross-compiled with Debian's
# cross compilers and run with qemu-user.
#
#   make test-cross    build settle, every `make test` program and
#                      tests/digest.c for each target; run the programs
#                      under qemu with their full sweeps (AArch64 with
#                      -cpu max, and the primitives' tests with -cpu
#                      cortex-a53 too; s390x); check the objects of the
#                      target's architecture folder (no SVE instruction
#                      outside *_sve.o);
#                      compare tests/digest.c's output under each emulator
#                      with the native build's; run `settle run popcount
#                      bswap endian --quick --size 64K --size 1M
#                      --layouts 2 --processes 1` under qemu-aarch64 -cpu cortex-a53
#                      (expects neon), -cpu max (sve) and qemu-s390x
#                      (swar, scalar), asserting the implementations
#                      chosen and the 2 layouts.
#
# Dynamically linked programs run directly under qemu-aarch64 and
# qemu-s390x: they find the target's loader and libraries where Debian's
# multiarch packages put them (/lib/<triplet>). Do not give qemu -L
# /usr/<triplet> (the cross toolchain's libc): the s390x loader aborts
# under this qemu that way. Programs that run settle themselves get
# $(BUILD)/cross-<arch>/settle-qemu, a script that runs settle under the
# same emulator, and those that run themselves again get the emulator's
# command in SETTLE_TEST_EMULATOR. glibc's compiled locales are in the host's byte order,
# so the s390x runs get big-endian C.UTF-8 and de_DE.UTF-8 locales made
# with localedef --big-endian (LOCPATH). Shell tests are not run: they
# test the host's tools (compilers, mke2fs, gnuplot, pkg-config), except
# those of the target's architecture folder (src/arch/<arch>/test_*.sh,
# static checks of its objects), which run with the target's objdump.
#
# Timings under emulation are not measurements: settle says so in its
# output when it detects qemu-user, and so does this target.

CROSS_TARGETS := aarch64 s390x
CROSS_CC_aarch64   := aarch64-linux-gnu-gcc
CROSS_CC_s390x     := s390x-linux-gnu-gcc
CROSS_DEB_aarch64  := arm64
CROSS_DEB_s390x    := s390x
CROSS_TRIP_aarch64 := aarch64-linux-gnu
CROSS_TRIP_s390x   := s390x-linux-gnu
CROSS_QEMU_aarch64 := qemu-aarch64
CROSS_QEMU_s390x   := qemu-s390x
# The CPUs every test program runs on, and those the primitives' tests
# (which differ by CPU) run on too.
CROSS_CPUS_aarch64 := max
CROSS_PRIM_CPUS_aarch64 := cortex-a53
CROSS_CPUS_s390x   := -
CROSS_PRIM_CPUS_s390x :=
CROSS_PRIM_TESTS   := test_popcount test_byteorder test_dispatch \
                      test_popcount_variants test_bswap_claim
# settle run under each emulated CPU: target:cpu:popcount:bswap.
CROSS_RUNS := aarch64:cortex-a53:neon:neon aarch64:max:sve:neon \
              s390x:-:swar:scalar

CROSS_PKGS := qemu-user $(foreach t,$(CROSS_TARGETS),gcc-$(CROSS_TRIP_$(t)) \
	      libjansson-dev:$(CROSS_DEB_$(t)) libcmocka-dev:$(CROSS_DEB_$(t)))
# What is checked for before installing them.
CROSS_FILES := $(foreach t,$(CROSS_TARGETS), \
	/usr/bin/$(CROSS_CC_$(t)) /usr/bin/$(CROSS_QEMU_$(t)) \
	/usr/lib/$(CROSS_TRIP_$(t))/libjansson.so \
	/usr/lib/$(CROSS_TRIP_$(t))/libcmocka.so)
CROSS_TEST_SRC := $(wildcard tests/test_*.c)
CROSS_TEST_NAMES := $(CROSS_TEST_SRC:tests/%.c=%) test_byteorder_O3

.PHONY: test-cross deps-cross
deps-cross:
	@missing=; for f in $(CROSS_FILES) /usr/include/cmocka.h \
	  /usr/include/jansson.h; do [ -e $$f ] || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make test-cross lacks$$missing"; \
	  if [ "$$(id -u)" = 0 ] && command -v dpkg >/dev/null; then \
	    for a in $(foreach t,$(CROSS_TARGETS),$(CROSS_DEB_$(t))); do \
	      dpkg --add-architecture $$a || exit 1; done; \
	  else \
	    echo "as root, first: dpkg --add-architecture arm64 && dpkg --add-architecture s390x && apt-get update" >&2; \
	  fi; \
	  $(APT_INSTALL) required "make test-cross" $(CROSS_PKGS) || exit 1; \
	fi

# One target's build: settle, the test programs, digest.
define cross_build
$(BUILD)/cross-$(1)/digest: tests/digest.c FORCE
	@$(MAKE) --no-print-directory CC=$(CROSS_CC_$(1)) \
	  ARCH=$(or $(ARCH_$(1)),generic) BUILD=$(BUILD)/cross-$(1) \
	  $(BUILD)/cross-$(1)/settle $(BUILD)/cross-$(1)/libsettle.a \
	  $(BUILD)/cross-$(1)/e2fsck-popcount-shim.so \
	  $(CROSS_TEST_NAMES:%=$(BUILD)/cross-$(1)/tests/%)
	$(CROSS_CC_$(1)) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -Iinclude \
	  -o $$@ $$< $(BUILD)/cross-$(1)/libsettle.a -ljansson -lm
endef
$(foreach t,$(CROSS_TARGETS),$(eval $(call cross_build,$(t))))

# settle under the same emulator, for the tests that run it.
$(BUILD)/cross-%/settle-qemu: mk/cross.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\n# settle under the emulator (make test-cross)\nexec qemu-%s $${SETTLE_QEMU_CPU:+-cpu "$$SETTLE_QEMU_CPU"} "%s" "$$@"\n' \
	  $* "$(CURDIR)/$(@D)/settle" > $@
	@chmod +x $@

$(BUILD)/digest: tests/digest.c $(LIB)
	$(call say,LD,$@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# Big-endian locales for the s390x runs (see above).
$(BUILD)/cross-s390x/locale/.done:
	@mkdir -p $(@D)
	@localedef --big-endian -c -i C -f UTF-8 $(@D)/C.UTF-8 && \
	 localedef --big-endian -c -i de_DE -f UTF-8 $(@D)/de_DE.UTF-8 && \
	 touch $@ || { echo "make test-cross: localedef --big-endian failed" \
	   "(package locales)" >&2; exit 1; }
CROSS_ENV_s390x = LOCPATH=$(CURDIR)/$(BUILD)/cross-s390x/locale

# Shell: run the test programs $(3) of target $(1) under CPU $(2) (- for
# the emulator's default), then digest, and compare its output with the
# native one's.
cross_tests = d=$(BUILD)/cross-$(1); q=$(CROSS_QEMU_$(1)); \
	cpu=$(if $(filter -,$(2)),default,$(2)); \
	opt="$(if $(filter -,$(2)),,-cpu $(2))"; \
	echo "== $$q$${opt:+ $$opt}"; \
	for p in $(3); do \
	  log=$$d/qemu-$$cpu-$$p.log; n=$$((n + 1)); \
	  if env $(CROSS_ENV_$(1)) SETTLE_TEST_SAMPLE=0 \
	     SETTLE_QEMU_CPU=$(filter-out -,$(2)) \
	     SETTLE_TEST_EMULATOR="$$q $$opt" \
	     SETTLE=$(CURDIR)/$$d/settle-qemu $$q $$opt $$d/tests/$$p \
	     > $$log 2>&1; then \
	    if grep -q '^skipped: ' $$log; then \
	      echo "ok   $$p ($$(grep -m1 '^skipped: ' $$log | cut -d' ' -f1-3))"; \
	    else echo "ok   $$p"; fi; \
	  else echo "FAIL $$p (see $$log)"; sh mk/log-tail.sh $$log; \
	    fail=1; fi; \
	done; \
	if $$q $$opt $$d/digest > $$d/digest-$$cpu.txt 2> $$d/digest-$$cpu.err \
	   && cmp -s $(BUILD)/digest-native.txt $$d/digest-$$cpu.txt; then \
	  echo "ok   digest: the same bytes and counts as x86-64 ($$(sed 's/^digest: //' $$d/digest-$$cpu.err))"; \
	else \
	  echo "FAIL digest: not what x86-64 computes (diff $(BUILD)/digest-native.txt $$d/digest-$$cpu.txt; see $$d/digest-$$cpu.err)"; \
	  sh mk/log-tail.sh $$d/digest-$$cpu.err; \
	  fail=1; \
	fi;

# Shell: settle run under target $(1), CPU $(2), expecting popcount $(3)
# and bswap $(4), the note that the timings are emulated, and two layouts
# measured in one process (settle_alloc, the stack, the visits of
# docs/layouts.md; fresh processes would need the emulator to exec them).
cross_run = d=$(BUILD)/cross-$(1); q=$(CROSS_QEMU_$(1)); \
	cpu=$(if $(filter -,$(2)),default,$(2)); \
	opt="$(if $(filter -,$(2)),,-cpu $(2))"; log=$$d/run-$$cpu.log; \
	if sh mk/emulated-run.sh $$log env $(CROSS_ENV_$(1)) $$q $$opt \
	   $$d/settle run popcount bswap endian \
	   --quick --size 64K --size 1M --layouts 2 --processes 1; then \
	  got=$$(sed -n 's/^  primitives: popcount \([a-z0-9]*\), bswap \([a-z0-9]*\)\(;.*\)\{0,1\}$$/\1 \2/p' $$log); \
	  if [ "$$got" = "$(3) $(4)" ] && grep -q 'emulated by qemu-user' $$log && \
	     grep -q '^  layouts: 2: ' $$log; \
	  then echo "ok   $$q$${opt:+ $$opt}: popcount $(3), bswap $(4), 2 layouts; timings not measurements"; \
	  else echo "FAIL $$q $$opt: popcount/bswap '$$got', expected '$(3) $(4)', the emulation note and 2 layouts (see $$log)"; \
	    sh mk/log-tail.sh $$log; fail=1; fi; \
	else echo "FAIL $$q $$opt: settle run failed (see $$log)"; \
	  sh mk/log-tail.sh $$log; fail=1; fi;

colon_word = $(word $(2),$(subst :, ,$(1)))

# Shell: the shell tests of target $(1)'s architecture folder (static
# checks of its objects, e.g. no SVE instruction outside *_sve.o), with
# the target's objdump.
cross_arch_sh = $(foreach f,$(wildcard src/arch/$(or $(ARCH_$(1)),generic)/test_*.sh), \
	log=$(BUILD)/cross-$(1)/$(notdir $(f)).log; n=$$((n + 1)); \
	if BUILD=$(BUILD)/cross-$(1) OBJDUMP=$(CROSS_TRIP_$(1))-objdump \
	   bash $(f) > $$log 2>&1; then echo "ok   $(f): $$(tail -1 $$log)"; \
	else echo "FAIL $(f) (see $$log)"; sh mk/log-tail.sh $$log; \
	  fail=1; fi;)

# deps-test brings the locale sources (package locales) of the s390x
# locales, as well as what the native build of digest needs.
test-cross: deps deps-test deps-cross
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory $(BUILD)/digest \
	  $(CROSS_TARGETS:%=$(BUILD)/cross-%/digest) \
	  $(CROSS_TARGETS:%=$(BUILD)/cross-%/settle-qemu) \
	  $(BUILD)/cross-s390x/locale/.done || exit 1; \
	echo "test-cross: timings under emulation are not measurements;"; \
	echo "  this checks what runs and what it computes, not how fast"; \
	fail=0; n=0; \
	$(BUILD)/digest > $(BUILD)/digest-native.txt \
	  2> $(BUILD)/digest-native.err || { \
	  echo "FAIL native digest (see $(BUILD)/digest-native.err)"; fail=1; }; \
	$(foreach t,$(CROSS_TARGETS), \
	  $(foreach c,$(CROSS_CPUS_$(t)),$(call cross_tests,$(t),$(c),$(CROSS_TEST_NAMES))) \
	  $(call cross_arch_sh,$(t)) \
	  $(foreach c,$(CROSS_PRIM_CPUS_$(t)),$(call cross_tests,$(t),$(c),$(CROSS_PRIM_TESTS)))) \
	echo "== settle run popcount bswap endian --quick --size 64K --size 1M --layouts 2 --processes 1"; \
	$(foreach r,$(CROSS_RUNS),$(call cross_run,$(call colon_word,$(r),1),$(call colon_word,$(r),2),$(call colon_word,$(r),3),$(call colon_word,$(r),4))) \
	s=$$(( $$(date +%s) - start )); \
	if [ $$fail = 0 ]; then \
	  echo "test-cross: every target passed ($$n test programs, $$s s)"; \
	else echo "test-cross: FAILED ($$s s)"; exit 1; fi
