# Further checks of the primitives (README.md, "Tests").
#   make test-sanitize  the test programs built with AddressSanitizer and
#                       UndefinedBehaviorSanitizer (part of make test)
#   make test-cpus      the tests and `settle run popcount bswap --quick` on
#                       emulated older CPUs (qemu-user): core2duo, Nehalem,
#                       Haswell, each asserting the implementation chosen
#   make test-large     opt-in: more than 4 GiB of 0xFF bytes (not in CI)

SAN_BUILD := $(BUILD)/sanitize
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
# Programs whose checks do not depend on the run-time environment.
SAN_TESTS := test_stats test_size test_verdict test_files test_popcount \
             test_readlimit test_bswap_nt \
             test_popcount_variants test_dispatch test_byteorder \
             test_bswap_claim test_endian_loops test_runner test_timer \
             test_threads

.PHONY: test-sanitize test-sanitize-build test-cpus test-large
test-sanitize-build:
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CFLAGS="$(SAN_FLAGS)" \
		$(SAN_BUILD)/settle $(SAN_TESTS:%=$(SAN_BUILD)/tests/%)

# TEST_SKIP=apart: without the Makefile's TEST_APART (make test runs them
# beside the others)
SAN_RUN = $(if $(filter apart,$(TEST_SKIP)), \
            $(filter-out $(TEST_APART),$(SAN_TESTS)),$(SAN_TESTS))

test-sanitize: test-sanitize-build
	@fail=0; for t in $(SAN_RUN); do \
	  echo "== sanitized $$t"; \
	  SETTLE=$(SAN_BUILD)/settle SETTLE_TEST_SAMPLE=1 \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(RUN_TEST) "$$t(sanitized)" $(SAN_BUILD)/tests/$$t || fail=1; \
	done; [ $$fail = 0 ] && echo "sanitized test programs passed"

# qemu-user traps the instructions an emulated CPU lacks (SIGILL), so a
# wrong dispatch fails here. qemu implements no AVX-512: natively, the
# expected choice follows this CPU's own flags.
QEMU       := qemu-x86_64
QEMU_TESTS := test_stats test_size test_verdict test_popcount test_readlimit \
              test_bswap_nt \
              test_popcount_variants test_dispatch test_byteorder \
              test_bswap_claim test_endian_loops
CPU_EXPECT := core2duo:swar Nehalem:popcnt Haswell:avx2
NATIVE_POPCOUNT = $(shell grep -qw avx512_vpopcntdq /proc/cpuinfo && echo avx512 || \
                  (grep -qw avx2 /proc/cpuinfo && echo avx2) || \
                  (grep -qw popcnt /proc/cpuinfo && echo popcnt) || echo swar)

.PHONY: deps-qemu
deps-qemu:
	@command -v $(QEMU) >/dev/null || { \
	  $(APT_INSTALL) required "make test-cpus" qemu-user || exit 1; \
	  command -v $(QEMU) >/dev/null || { \
	    echo "make test-cpus needs $(QEMU): sudo apt-get install -y qemu-user" >&2; \
	    exit 1; }; }

test-cpus: deps deps-test deps-qemu
	@$(MAKE) --no-print-directory $(BUILD)/settle $(QEMU_TESTS:%=$(BUILD)/tests/%)
	@fail=0; \
	check_choice() { \
	  got=$$($$1 $(BUILD)/settle info | sed -n 's/^  primitives: popcount \([a-z0-9]*\),.*/\1/p'); \
	  if [ "$$got" = "$$2" ]; then echo "ok   $$3: popcount $$got"; \
	  else echo "FAIL $$3: popcount '$$got', expected $$2"; fail=1; fi; }; \
	check_choice "" $(NATIVE_POPCOUNT) native; \
	for pair in $(CPU_EXPECT); do \
	  cpu=$${pair%%:*}; want=$${pair#*:}; \
	  echo "== -cpu $$cpu"; \
	  check_choice "$(QEMU) -cpu $$cpu" $$want "-cpu $$cpu"; \
	  for t in $(QEMU_TESTS); do \
	    SETTLE_TEST_SAMPLE=1 $(QEMU) -cpu $$cpu $(BUILD)/tests/$$t \
	      > $(BUILD)/qemu-$$cpu-$$t.log 2>&1 \
	      && echo "ok   $$t" \
	      || { echo "FAIL $$t (see $(BUILD)/qemu-$$cpu-$$t.log)"; \
	           sh mk/log-tail.sh $(BUILD)/qemu-$$cpu-$$t.log; fail=1; }; \
	  done; \
	  sh mk/emulated-run.sh $(BUILD)/qemu-$$cpu-run.log \
	    $(QEMU) -cpu $$cpu $(BUILD)/settle run popcount bswap --quick \
	    --size 64K --size 1M \
	    && echo "ok   settle run popcount bswap --quick" \
	    || { echo "FAIL settle run (see $(BUILD)/qemu-$$cpu-run.log)"; \
	         sh mk/log-tail.sh $(BUILD)/qemu-$$cpu-run.log; fail=1; }; \
	done; \
	echo "== native"; \
	$(BUILD)/settle run popcount bswap --quick > $(BUILD)/native-run.log 2>&1 \
	  && echo "ok   settle run popcount bswap --quick" \
	  || { echo "FAIL native settle run (see $(BUILD)/native-run.log)"; \
	       sh mk/log-tail.sh $(BUILD)/native-run.log; fail=1; }; \
	[ $$fail = 0 ] && echo "test-cpus: every CPU passed"

# More than 4 GiB of 0xFF: exactly 8 bits a byte, no 32-bit count anywhere.
test-large: $(BUILD)/tests/test_large
	$(BUILD)/tests/test_large

$(BUILD)/tests/test_large: tests/large_popcount.c $(LIB)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# The Debian packages each command installs (as root) or names, from the
# lists above; the README's quick start lists the same (tests/test_make.sh).
.PHONY: packages
packages:
	@echo "make run: $(REQ_PKGS); optional: $(PEER_PKGS)"
	@echo "make test: $(sort $(TEST_PKGS))"
	@echo "make test-cpus: qemu-user"
	@echo "make test-cross: $(CROSS_PKGS)"
	@echo "make bench-macro: $(MACRO_PKGS)"
