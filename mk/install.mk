# install - settle as a library: the command, the headers, static and
# shared libraries, a pkg-config file and the man pages (README.md,
# "Install"; man/settle.3).
#
#   make install   [PREFIX=/usr/local] [DESTDIR=/staging]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=/staging]
#   make shared    build $(BUILD)/libsettle.so.$(SETTLE_VERSION) only
#
# GNU directory variables, each overridable: prefix (= PREFIX), exec_prefix,
# bindir, libdir, includedir, datarootdir, mandir, man1dir, man3dir, and
# pkgconfigdir (= libdir/pkgconfig). DESTDIR is prepended to every
# installed path and to nothing else (settle.pc names the final prefix).
#
# libsettle (.a and .so) holds everything under src/ except the command:
# the primitives (settle_bits.h, settle_byteorder.h) and the harness of
# settle.h (cpu, timer, stats, env, runner, report). The claims and the CLI
# stay in the settle binary, which links libsettle.a statically and so
# does not depend on the installed shared library.
#
# settle itself reads one more file: EXEC_PREFIX/lib/settle/libsettle-prim.a,
# the primitives that `settle run FILE.c` links into each claim object
# (mk/byob.mk). It finds it beside its executable (../lib/settle), so it
# stays under exec_prefix/lib whatever libdir says.
#
# The shared library is built from a second object tree, $(BUILD)/pic,
# compiled with -fPIC; the ISA rules of the Makefile ($(BUILD)/%_avx2.o
# ...) match those objects too, so each keeps its own ISA flags.

PREFIX       ?= /usr/local
prefix       ?= $(PREFIX)
exec_prefix  ?= $(prefix)
bindir       ?= $(exec_prefix)/bin
libdir       ?= $(exec_prefix)/lib
includedir   ?= $(prefix)/include
datarootdir  ?= $(prefix)/share
mandir       ?= $(datarootdir)/man
man1dir      ?= $(mandir)/man1
man3dir      ?= $(mandir)/man3
pkgconfigdir ?= $(libdir)/pkgconfig
DESTDIR      ?=

INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL) -m 755
INSTALL_DATA    ?= $(INSTALL) -m 644
# Refreshes the dynamic linker's cache after a direct (DESTDIR-less)
# install or uninstall as root; LDCONFIG=: turns it off.
LDCONFIG        ?= ldconfig

# One version for the command and the library: SETTLE_VERSION in main.c.
SETTLE_VERSION := $(or $(shell sed -n 's/^\#define SETTLE_VERSION "\([0-9.]*\)".*/\1/p' \
			src/cli/main.c 2>/dev/null),0.1.0)
SO_MAJOR  := $(firstword $(subst ., ,$(SETTLE_VERSION)))
SO_LINK   := libsettle.so
SO_NAME   := libsettle.so.$(SO_MAJOR)
SO_REAL   := libsettle.so.$(SETTLE_VERSION)
SOLIB     := $(BUILD)/$(SO_REAL)
PIC_OBJ   := $(LIB_SRC:%.c=$(BUILD)/pic/%.o) \
             $(PLACED_OBJ:$(BUILD)/%=$(BUILD)/pic/%)
SETTLE_PC := $(BUILD)/settle.pc
HEADERS   := include/settle.h include/settle_bits.h include/settle_byteorder.h \
             include/settle_popcount_avx512.h include/settle_popcount_avx2.h
MANPAGES  := man/settle.1 man/settle.3

$(BUILD)/pic/%.o: %.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(CC) $(ALL_CFLAGS) -fPIC -c $< -o $@

# The kernels' loops start at a 64-byte line here too (Makefile,
# KERNEL_ALIGN): the pattern above it does not match $(BUILD)/pic.
$(BUILD)/pic/src/arch/%.o $(BUILD)/pic/src/prim/%.o: ALL_CFLAGS += $(KERNEL_ALIGN)
$(BUILD)/pic/src/arch/x86/popcount_avx512.o: ALL_CFLAGS += $(PC512_FLAGS)

$(BUILD)/pic/src/runner/placed%_popcnt.o: src/runner/placed_popcnt.c | $(BUILD)/config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC $(PLACED_FLAGS) -DCOPY=$* -c $< -o $@

$(BUILD)/pic/src/env/build.o: ALL_CFLAGS += \
	-DSETTLE_BUILD_FLAGS='"$(strip -std=c11 $(CFLAGS) -fPIC)"' \
	-DSETTLE_NOVEC_FLAGS='"$(strip $(CFLAGS) $(NOVEC) $(KERNEL_ALIGN) -fPIC)"'
$(BUILD)/pic/src/env/build.o: Makefile

# -z defs: every symbol the library uses is defined in it or in a library
# it names (jansson, libm, libc), so the .so works on its own.
$(SOLIB): $(PIC_OBJ) mk/install.mk
	$(call say,LD,$@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,-z,defs \
		-o $@ $(PIC_OBJ) -ljansson -lm
	ln -sf $(SO_REAL) $(BUILD)/$(SO_NAME)
	ln -sf $(SO_NAME) $(BUILD)/$(SO_LINK)

# Rewritten on every make so that it names this make's directories.
$(SETTLE_PC): mk/settle.pc.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@prefix@|$(prefix)|g' -e 's|@libdir@|$(libdir)|g' \
	     -e 's|@includedir@|$(includedir)|g' \
	     -e 's|@version@|$(SETTLE_VERSION)|g' $< > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

TEST_DEPS += $(SOLIB)

.PHONY: shared install install-build uninstall
shared: deps
	@$(MAKE) --no-print-directory $(SOLIB)

install-build: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle $(LIB) $(SOLIB) $(SETTLE_PC) \
		$(PRIM_A)

# Exactly the files install writes (symbolic links included), as
# installed; uninstall removes these and nothing else.
INSTALLED := $(DESTDIR)$(bindir)/settle \
	     $(HEADERS:include/%=$(DESTDIR)$(includedir)/%) \
	     $(DESTDIR)$(libdir)/libsettle.a \
	     $(DESTDIR)$(exec_prefix)/lib/settle/libsettle-prim.a \
	     $(DESTDIR)$(libdir)/$(SO_REAL) \
	     $(DESTDIR)$(libdir)/$(SO_NAME) \
	     $(DESTDIR)$(libdir)/$(SO_LINK) \
	     $(DESTDIR)$(pkgconfigdir)/settle.pc \
	     $(DESTDIR)$(man1dir)/settle.1 \
	     $(DESTDIR)$(man3dir)/settle.3

# say for each path of $(2) ("  INSTALL path"); nothing with V=1, where
# say is empty and make shows the commands instead.
say_each = $(if $(say),$(foreach f,$(2),$(call say,$(1),$(f));) true)

install: install-build
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir) \
		$(DESTDIR)$(includedir) $(DESTDIR)$(pkgconfigdir) \
		$(DESTDIR)$(man1dir) $(DESTDIR)$(man3dir)
	$(call say,INSTALL,$(DESTDIR)$(bindir)/settle)
	$(INSTALL_PROGRAM) $(BUILD)/settle $(DESTDIR)$(bindir)/settle
	$(call say_each,INSTALL,$(HEADERS:include/%=$(DESTDIR)$(includedir)/%))
	$(INSTALL_DATA) $(HEADERS) $(DESTDIR)$(includedir)/
	$(call say,INSTALL,$(DESTDIR)$(libdir)/libsettle.a)
	$(INSTALL_DATA) $(LIB) $(DESTDIR)$(libdir)/libsettle.a
	$(call say,INSTALL,$(DESTDIR)$(exec_prefix)/lib/settle/libsettle-prim.a)
	$(INSTALL) -d $(DESTDIR)$(exec_prefix)/lib/settle
	$(INSTALL_DATA) $(PRIM_A) $(DESTDIR)$(exec_prefix)/lib/settle/libsettle-prim.a
	$(call say,INSTALL,$(DESTDIR)$(libdir)/$(SO_REAL))
	$(INSTALL_PROGRAM) $(SOLIB) $(DESTDIR)$(libdir)/$(SO_REAL)
	$(call say,INSTALL,$(DESTDIR)$(libdir)/$(SO_NAME) -> $(SO_REAL))
	ln -sf $(SO_REAL) $(DESTDIR)$(libdir)/$(SO_NAME)
	$(call say,INSTALL,$(DESTDIR)$(libdir)/$(SO_LINK) -> $(SO_NAME))
	ln -sf $(SO_NAME) $(DESTDIR)$(libdir)/$(SO_LINK)
	$(call say,INSTALL,$(DESTDIR)$(pkgconfigdir)/settle.pc)
	$(INSTALL_DATA) $(SETTLE_PC) $(DESTDIR)$(pkgconfigdir)/settle.pc
	$(call say,INSTALL,$(DESTDIR)$(man1dir)/settle.1)
	$(INSTALL_DATA) man/settle.1 $(DESTDIR)$(man1dir)/settle.1
	$(call say,INSTALL,$(DESTDIR)$(man3dir)/settle.3)
	$(INSTALL_DATA) man/settle.3 $(DESTDIR)$(man3dir)/settle.3
	@$(ldconfig_if_live)

# Directories are left, as they may hold other packages' files; lib/settle
# is settle's own, removed when empty.
uninstall:
	$(call say_each,RM,$(INSTALLED))
	rm -f $(INSTALLED)
	rmdir $(DESTDIR)$(exec_prefix)/lib/settle 2>/dev/null || true
	@$(ldconfig_if_live)

define ldconfig_if_live
if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && \
   command -v $(firstword $(LDCONFIG)) >/dev/null 2>&1; then \
	$(LDCONFIG) || true; fi
endef

# tests/test_install.sh builds against the installed library through
# pkg-config (in TEST_PKGS); deps-test installs what TEST_HEADERS lacks.
TEST_HEADERS += /usr/bin/pkg-config
