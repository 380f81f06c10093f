# tsan - the library's lazily initialised state under concurrent first use
# (issue 8, "Dispatch initialisation is thread-safe").
#   make test-tsan  tests/test_threads.c and the library built with
#                   ThreadSanitizer; any data race it reports fails the
#                   test (part of make test, through make test-sanitize)
#
# gcc's ThreadSanitizer runtime (libtsan) comes with gcc on Debian; clang
# brings its own. TSan refuses to start where the kernel randomises mmap
# addresses with more bits than it supports (vm.mmap_rnd_bits > 28 on some
# kernels): the test is then run again with address randomisation off
# (setarch -R), and refused with a clear message if that does not help.

TSAN_BUILD := $(BUILD)/tsan
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS := test_threads

.PHONY: test-tsan test-tsan-build
test-sanitize: test-tsan
test-build: test-tsan-build
test-tsan-build: deps-test
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) \
		CFLAGS="$(TSAN_FLAGS)" $(TSAN_TESTS:%=$(TSAN_BUILD)/tests/%)

test-tsan: test-tsan-build
	@fail=0; for t in $(TSAN_TESTS); do \
	  echo "== ThreadSanitizer $$t"; \
	  rm -f $(TALLY).tsan; \
	  TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	    sh mk/run-test.sh $(TALLY).tsan "$$t(tsan)" $(TSAN_BUILD)/tests/$$t; \
	  rc=$$?; \
	  if [ $$rc != 0 ] && [ $$rc != 66 ] && [ $$rc != 1 ] && \
	     command -v setarch >/dev/null; then \
	    echo "   (rerun with address randomisation off)"; \
	    rm -f $(TALLY).tsan; \
	    TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	      sh mk/run-test.sh $(TALLY).tsan "$$t(tsan)" \
	      setarch "$$(uname -m)" -R $(TSAN_BUILD)/tests/$$t; rc=$$?; \
	  fi; \
	  cat $(TALLY).tsan >> $(TALLY); rm -f $(TALLY).tsan; \
	  [ $$rc = 0 ] || { echo "FAIL $$t under ThreadSanitizer (status $$rc)"; \
	                    fail=1; }; \
	done; [ $$fail = 0 ] && echo "ThreadSanitizer test programs passed"
