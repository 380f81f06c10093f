# ext2count - counts the used blocks of an ext2/3/4 image from its block
# bitmaps with settle's popcount, per group, and checks the superblock's and
# the group descriptors' free counts against them (docs/ext2count.md).
# Built only where libext2fs-dev is installed (make deps installs it as
# root); without it tests/test_ext2count.sh reports that it is skipped.
#   make ext2count     build $(BUILD)/ext2count
ifeq ($(HAVE_EXT2FS),1)
EXT2COUNT := $(BUILD)/ext2count

$(EXT2COUNT): $(BUILD)/tools/ext2count.o $(LIB)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) -lext2fs -lcom_err $(LDLIBS)

TEST_DEPS += $(EXT2COUNT)
TOOLS += $(EXT2COUNT)

.PHONY: ext2count
ext2count: $(EXT2COUNT)
else
.PHONY: ext2count
ext2count:
	@echo "ext2count needs libext2fs-dev:" \
	      "sudo apt-get install -y libext2fs-dev e2fsprogs" >&2; exit 1
endif
