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

$(BUILD)/settle: $(BYOB_OBJ)
$(BUILD)/settle: LDLIBS += -rdynamic -ldl
$(BYOB_OBJ): ALL_CFLAGS += -DSETTLE_BYOB_INCLUDE='"$(CURDIR)/include"'
