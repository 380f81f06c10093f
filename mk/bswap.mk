# bswap - the byte-order primitives (src/prim/bswap*.c).
# tests/test_byteorder.c is built a second time at -O3 with strict
# aliasing (test_byteorder_O3, run by make test with the other test
# programs): float and double arrays swapped through the library and the
# inline load/store helpers must read back unchanged at -O3 as at -O2. That
# build runs only those tests (BYTEORDER_O3); the library is the same.
$(BUILD)/tests/test_byteorder_O3: tests/test_byteorder.c $(CLAIMS_A) $(LIB) \
				  | deps-test
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(CC) $(ALL_CFLAGS) -O3 -fstrict-aliasing -DBYTEORDER_O3 -o $@ $< \
		$(CLAIMS_A) $(LIB) $(TEST_LIBS)

TEST_BIN += $(BUILD)/tests/test_byteorder_O3
