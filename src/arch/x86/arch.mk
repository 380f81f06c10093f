# x86-64: ISA flags only on the files that need them. A file named
# *_<isa>.c is compiled for that ISA and called only after a cpuid/XCR0
# check. Every other object is plain x86-64: test_isa_objects.sh (in this
# folder, run by make test) disassembles them.
ISA_popcnt := -mpopcnt
ISA_ssse3  := -mssse3
ISA_avx2   := -mavx2
ISA_avx512 := -mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq
ISA_avx512vl := -mavx2 -mavx512f -mavx512vl
$(BUILD)/%_popcnt.o: ALL_CFLAGS += $(ISA_popcnt)
$(BUILD)/%_ssse3.o:  ALL_CFLAGS += $(ISA_ssse3)
$(BUILD)/%_avx2.o:   ALL_CFLAGS += $(ISA_avx2)
$(BUILD)/%_avx512.o: ALL_CFLAGS += $(ISA_avx512)
$(BUILD)/%_avx512vl.o: ALL_CFLAGS += $(ISA_avx512vl)

# builtin-generic measures the compiler's generic popcount: without
# -mpopcnt, gcc calls libgcc's __popcountdi2, whose place in the binary
# depends on everything linked before it. 48 bytes into a cache line it
# spans three lines and the row ran 14 % slower than 32 bytes in (two
# lines; Zen 4 guest, the same code in both builds). So the claims link
# that very object from the compiler's libgcc with its code aligned to a
# 64-byte line (objcopy --set-section-alignment; the code is unchanged),
# and the linker takes it before libgcc's copy.
OBJCOPY ?= objcopy
LIBGCC  := $(shell $(CC) -print-libgcc-file-name 2>/dev/null)
# The member that defines it (_popcountsi2.o on x86-64: libgcc names its
# files by the word size).
POPCOUNTDI2_O := $(shell nm -A "$(LIBGCC)" 2>/dev/null | \
	sed -n 's/^[^:]*:\([^:]*\):.* T __popcountdi2$$/\1/p')
ifneq ($(POPCOUNTDI2_O),)
CLAIM_OBJ += $(BUILD)/claims/popcountdi2_aligned.o
$(BUILD)/claims/popcountdi2_aligned.o: $(LIBGCC)
	$(call say,OBJCOPY,$@)
	mkdir -p $(@D)/libgcc
	cd $(@D)/libgcc && $(AR) x "$(LIBGCC)" $(POPCOUNTDI2_O)
	$(OBJCOPY) --set-section-alignment .text=64 \
		$(@D)/libgcc/$(POPCOUNTDI2_O) $@
	rm -rf $(@D)/libgcc
endif
