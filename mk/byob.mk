# byob - `settle run FILE.c --build CMD...`: the claims of a user's C file,
# compiled once per build into a cached shared object and loaded with
# dlopen (src/byob/, docs/writing-a-claim.md). The objects link into the
# settle command only, which exports its symbols (-rdynamic) so that a
# loaded claim can call settle's own functions. The source tree's include
# directory is compiled in as the fallback for the compiler's -I (the
# first choice is ../include next to the executable).
BYOB_SRC := $(wildcard src/byob/*.c)
BYOB_OBJ := $(BYOB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  += $(BYOB_OBJ)

# The primitives as a claim links them: src/prim, src/cpu and the
# architecture's files, compiled with -fPIC and the library's flags
# ($(BUILD)/pic, mk/install.mk). Each claim object links the members it
# uses after FILE.c, with -Wl,-Bsymbolic-functions, so that it calls its
# own copy of settle_popcount() and the rest: code that moves with the
# layouts like the claim's (docs/layouts.md). The path is compiled in as
# the fallback (the first choice is ../lib/settle/ next to the executable).
PRIM_A   := $(BUILD)/libsettle-prim.a
PRIM_OBJ := $(patsubst %.c,$(BUILD)/pic/%.o, \
	    $(filter src/prim/% src/cpu/% src/arch/%,$(LIB_SRC)))

$(PRIM_A): $(PRIM_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(AR) rcs $@ $^

$(BUILD)/settle: $(BYOB_OBJ) $(PRIM_A)
$(BUILD)/settle: LDLIBS += -rdynamic -ldl
$(BYOB_OBJ): ALL_CFLAGS += -DSETTLE_BYOB_INCLUDE='"$(CURDIR)/include"' \
	-DSETTLE_BYOB_PRIM='"$(abspath $(PRIM_A))"'
