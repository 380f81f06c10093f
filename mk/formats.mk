# Output formats and interoperability (docs/output-formats.md).
#   make deps-locale-de         generate the de_DE.UTF-8 locale (as root)
#                               that the format tests run under; part of
#                               make test (TEST_DEPS)
#   make test-sanitize-formats  tests/test_formats.c built with ASan and
#                               UBSan; part of make test-sanitize

LOCALE_DE := de_DE.UTF-8

.PHONY: deps-locale-de test-sanitize-formats
TEST_DEPS += deps-locale-de

deps-locale-de:
	@locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8' || { \
	  if [ "$$(id -u)" = 0 ] && command -v localedef >/dev/null; then \
	    echo "generating the $(LOCALE_DE) locale"; \
	    localedef -i de_DE -f UTF-8 $(LOCALE_DE) || \
	      echo "could not generate $(LOCALE_DE): the format tests will SKIP the German-locale checks"; \
	  else \
	    echo "note: no $(LOCALE_DE) locale; the format tests will SKIP the German-locale checks (as root: localedef -i de_DE -f UTF-8 $(LOCALE_DE))"; \
	  fi; }

# The UTF-8 decoder and the CSV, text and JSON writers under the
# sanitizers (SAN_BUILD and SAN_FLAGS come from mk/check.mk).
test-sanitize: test-sanitize-formats
test-sanitize-formats: deps-locale-de
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CFLAGS="$(SAN_FLAGS)" \
		$(SAN_BUILD)/tests/test_formats
	@echo "== sanitized test_formats"; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(RUN_TEST) "test_formats(sanitized)" $(SAN_BUILD)/tests/test_formats
