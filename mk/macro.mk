# macro - whole commands (settle run --command, --share; issue 14).
#
#   make run-macro     examples/e2fsck-popcount: does a faster popcount make
#                      e2fsck faster? (a sparse ext4 image, e2fsck -fn with
#                      and without an LD_PRELOAD shim, --share ext2fs_bitcount)
#   make bench-macro   settle against its peers on whole commands: its median
#                      against hyperfine's, its share of a symbol against
#                      perf report's, and the A/A rate of two identical
#                      commands (100 trials; long)
#   make e2fsck-shim   build $(BUILD)/e2fsck-popcount-shim.so and the
#                      placebo, $(BUILD)/e2fsck-popcount-placebo.so
#
# --share runs perf (Debian linux-perf): make test installs it with the
# test packages, as root; bench-macro needs hyperfine too.

TEST_PKGS    += linux-perf
TEST_HEADERS += /usr/bin/perf

MACRO_PKGS := linux-perf e2fsprogs libext2fs-dev hyperfine

# The shim: ext2fs_bitcount() over settle_popcount(), with the popcount
# primitives compiled in (position-independent) and nothing but
# ext2fs_bitcount exported. Frame pointers, and no tail calls, so that
# perf's call chains see ext2fs_bitcount above the kernels: gcc 12 gives
# a leaf function no frame pointer even with -fno-omit-frame-pointer, so
# a sample in a kernel hides the kernel's caller, which must then be
# settle_popcount() (a real call, not a jump) and not ext2fs_bitcount.
SHIM       := $(BUILD)/e2fsck-popcount-shim.so
SHIM_SRC   := src/prim/popcount.c src/cpu/cpu.c \
              $(call arch_files,popcount_*.c) \
              $(call arch_files,dispatch_popcount.c) $(call arch_files,cpu.c)
SHIM_OBJ   := $(SHIM_SRC:%.c=$(BUILD)/shim/%.o)
SHIM_FLAGS := -fPIC -fno-omit-frame-pointer -fno-optimize-sibling-calls

$(BUILD)/shim/%.o: %.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) $(SHIM_FLAGS) -c $< -o $@

$(BUILD)/shim/shim.o: examples/e2fsck-popcount/shim.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) $(SHIM_FLAGS) -c $< -o $@

$(SHIM): $(BUILD)/shim/shim.o $(SHIM_OBJ) examples/e2fsck-popcount/shim.map
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=examples/e2fsck-popcount/shim.map \
		-Wl,-z,defs -o $@ $(BUILD)/shim/shim.o $(SHIM_OBJ)

# The control: the same shim counting with libext2fs's own function.
PLACEBO := $(BUILD)/e2fsck-popcount-placebo.so

$(BUILD)/shim/placebo.o: examples/e2fsck-popcount/shim.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) $(SHIM_FLAGS) -DSETTLE_SHIM_PLACEBO -c $< -o $@

$(PLACEBO): $(BUILD)/shim/placebo.o examples/e2fsck-popcount/shim.map
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=examples/e2fsck-popcount/shim.map \
		-Wl,-z,defs -o $@ $(BUILD)/shim/placebo.o -ldl

TEST_DEPS += $(SHIM) $(PLACEBO)

.PHONY: run-macro bench-macro e2fsck-shim deps-macro
e2fsck-shim: deps
	@$(MAKE) --no-print-directory $(SHIM) $(PLACEBO)

deps-macro:
	@missing=; for p in /usr/bin/perf /usr/sbin/e2fsck /usr/sbin/mke2fs \
	  /usr/include/ext2fs/ext2fs.h; do [ -e $$p ] || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(MACRO_PKGS)"; \
	    (apt-get install -y $(MACRO_PKGS) || \
	     (apt-get update && apt-get install -y $(MACRO_PKGS))) >/dev/null; \
	  else \
	    echo "make run-macro needs: sudo apt-get install -y $(MACRO_PKGS)" >&2; \
	    exit 1; \
	  fi; \
	fi

run-macro: deps deps-macro
	@$(MAKE) --no-print-directory $(BUILD)/settle $(SHIM) $(PLACEBO)
	SETTLE=$(BUILD)/settle SHIM=$(SHIM) PLACEBO=$(PLACEBO) BUILD=$(BUILD) \
		examples/e2fsck-popcount/run.sh

bench-macro: deps deps-macro
	@$(MAKE) --no-print-directory $(BUILD)/settle
	SETTLE=$(BUILD)/settle BUILD=$(BUILD) bench/macro-peers.sh
	SETTLE=$(BUILD)/settle BUILD=$(BUILD) bench/macro-aa.sh

# The pure parts, and the runner of whole commands, under the sanitizers.
SAN_TESTS += test_proportion test_perf_script test_command test_debuginfo
