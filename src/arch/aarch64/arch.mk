# AArch64: AdvSIMD is part of the base architecture (armv8-a), so only the
# SVE files need flags: a file named *_sve.c is compiled for SVE and
# called only when HWCAP_SVE is set (dispatch.c). test_isa_objects.sh (in
# this folder) checks that no other object holds an SVE instruction.
ISA_sve := -march=armv8.2-a+sve
$(BUILD)/%_sve.o: ALL_CFLAGS += $(ISA_sve)
