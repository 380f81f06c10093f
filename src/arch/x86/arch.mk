# x86-64: ISA flags only on the files that need them. A file named
# *_<isa>.c is compiled for that ISA and called only after a cpuid/XCR0
# check. Every other object is plain x86-64: test_isa_objects.sh (in this
# folder, run by make test) disassembles them.
ISA_popcnt := -mpopcnt
ISA_ssse3  := -mssse3
ISA_avx2   := -mavx2
ISA_avx512 := -mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq
$(BUILD)/%_popcnt.o: ALL_CFLAGS += $(ISA_popcnt)
$(BUILD)/%_ssse3.o:  ALL_CFLAGS += $(ISA_ssse3)
$(BUILD)/%_avx2.o:   ALL_CFLAGS += $(ISA_avx2)
$(BUILD)/%_avx512.o: ALL_CFLAGS += $(ISA_avx512)
