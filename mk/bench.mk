# bench - benchmarks of settle itself that time things, so not part of make
# test (machines are shared and noisy; nothing here passes or fails on the
# numbers measured). Each runs under flock $(BENCH_LOCK), so that
# benchmarks do not overlap one another.
#   make bench           all of them: bench-primitives, bench-preempt,
#                        bench-layouts
#   make bench-primitives
#                        the primitives against their peers and limits
#                        (below), tables and a summary of the ratios
#   make bench-preempt   the core-clock estimate of `settle info` under a
#                        preemption storm (tests/bench_preempt.sh with the
#                        preload library tests/preempt_storm.c): within
#                        10 % of an undisturbed run, or unknown
#   make bench-layouts   the newcomer's sequence (run, change one variant,
#                        run, compare) five times with --layouts 4 and with
#                        one layout (tests/bench_layouts.sh)

BENCH_LOCK ?= /tmp/settle-bench.lock
STORM_LIB  := $(BUILD)/preempt_storm.so

.PHONY: bench
bench: bench-primitives bench-preempt bench-layouts

$(STORM_LIB): tests/preempt_storm.c
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(CC) -std=c11 $(WARN) -O2 -shared -fPIC -o $@ $<

.PHONY: bench-preempt
bench-preempt: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle $(STORM_LIB)
	SETTLE=$(BUILD)/settle STORM=$(STORM_LIB) \
		flock $(BENCH_LOCK) bash tests/bench_preempt.sh

# The newcomer's sequence of docs/layouts.md: run, change one variant,
# run, compare, five times with --layouts 4 and with one layout.
.PHONY: bench-layouts
bench-layouts: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle
	SETTLE=$(BUILD)/settle flock $(BENCH_LOCK) bash tests/bench_layouts.sh

# ---- bench-primitives ------------------------------------------------------
#
#   make bench-primitives [LIBPOPCNT_DIR=DIR] [BENCH_PROCESSES=9]
#                         [BENCH_LAYOUTS=4] [BENCH_SAMPLES=40]
#                         [BENCH_MIN_MS=2]
#
# Runs, each interleaved and repeated in BENCH_PROCESSES fresh processes,
# each measuring BENCH_LAYOUTS layouts (code of the examples, buffers and
# stack placed that many ways; docs/layouts.md):
#   - examples/popcount-peers.c at 1 KiB, 32 KiB, 1 MiB, 32 MiB, 1 GiB:
#     settle's dispatched, AVX2 and AVX-512 paths against libpopcnt's, and
#     GMP's mpn_popcount; built with BENCH_CC and, on a CPU with AVX2, also
#     with BENCH_AVX2_CC (pure AVX2: with -march=native on an AVX-512 CPU
#     the compiler turns libpopcnt's AVX2 code into AVX-512VL code);
#   - examples/readlimit-peers.c at the same sizes: settle's read limit
#     against plain reads with the widest aligned loads;
#   - the bswap claim at 32 KiB, 256 MiB and 1 GiB (copies against memcpy,
#     in place against load-store; the copies' load-store row, the
#     kernel's copy loop without the shuffle, tells the cost of moving
#     the bytes from the cost of the swap);
#   - examples/bswap-inplace-peers.c at 4 KiB, 32 KiB and 1 MiB, with the
#     popcount builds: the in-place load-store loop against the same loop
#     with one operation between load and store, and against settle's
#     byte swap in place (what any operation costs there, the swap's
#     included).
# then prints a summary of the ratios (mk/bench_summary.py, python3). The
# result files stay in $(BUILD)/bench/ for settle show and settle compare.
#
# The defaults are settle run --rigorous's (9 processes of 4 layouts, 40
# samples of at least 2 ms): a verdict's interval is over processes, a
# 20 % trimmed mean with Yuen's interval, which for 5 processes rests on
# 3 values and 2 degrees of freedom and for 9 on 7 and 6, about a third
# as wide for the same spread. With 5 processes (64 samples of 10 ms) the
# rows that read as fast as libpopcnt's on the Zen 4 guest (AVX-512 at
# 32 KiB and 1 MiB) came out `unclear` in every run, with --rigorous
# `same` ([0.999, 1.004] at 32 KiB), and the two sizes took 28 s, not 100.
#
# BENCH_SAMPLES: samples per process of the popcount and read-limit rows
# (10 in each layout). With settle's default 16 (4 in each layout) the
# 1 KiB intervals over 5 processes spanned up to 12 %. The byte-swap rows
# keep the default count: a 1 GiB sample is one swap of 40-200 ms.
#
# LIBPOPCNT_DIR: a folder holding libpopcnt.h (Kim Walisch's header-only
# library, github.com/kimwalisch/libpopcnt, not packaged by Debian; it is
# never copied into this repository). Without it the libpopcnt rows are
# left out. GMP's rows need libgmp.so.10 (Debian: libgmp10).

BENCH_DIR       := $(BUILD)/bench
BENCH_PROCESSES ?= 9
BENCH_LAYOUTS   ?= 4
BENCH_SAMPLES   ?= 40
BENCH_MIN_MS    ?= 2
BENCH_CC        ?= cc -O3 -march=native
BENCH_AVX2_CC   ?= cc -O3 -march=x86-64-v3
BENCH_SIZES     ?= 1K 32K 1M 32M 1G
BENCH_BSWAP_SIZES ?= 32K 256M 1G
BENCH_INPLACE_SIZES ?= 4K 32K 1M
LIBPOPCNT_DIR   ?=

BENCH_INC  = $(if $(LIBPOPCNT_DIR),-I $(abspath $(LIBPOPCNT_DIR)))
BENCH_RUN  = flock $(BENCH_LOCK) $(BUILD)/settle run
BENCH_OPTS = --processes $(BENCH_PROCESSES) --layouts $(BENCH_LAYOUTS) \
	--min-time $(BENCH_MIN_MS) \
	--format json
HAVE_AVX2 := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo 1)
BENCH_POPCOUNT_BUILDS = --build "$(BENCH_CC) $(BENCH_INC)" \
	$(if $(HAVE_AVX2),--build "$(BENCH_AVX2_CC) $(BENCH_INC)")

.PHONY: bench-primitives
bench-primitives: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle
	@if [ -n "$(LIBPOPCNT_DIR)" ] && [ ! -f "$(LIBPOPCNT_DIR)/libpopcnt.h" ]; then \
	  echo "make bench-primitives: no libpopcnt.h in LIBPOPCNT_DIR=$(LIBPOPCNT_DIR)" >&2; \
	  exit 2; fi
	@mkdir -p $(BENCH_DIR)
	@$(BUILD)/settle info
	@[ -n "$(LIBPOPCNT_DIR)" ] || echo "note: LIBPOPCNT_DIR is not set:" \
	  "the popcount table has no libpopcnt rows"
	$(BENCH_RUN) examples/popcount-peers.c $(BENCH_POPCOUNT_BUILDS) \
	  $(BENCH_SIZES:%=--size %) $(BENCH_OPTS) --samples $(BENCH_SAMPLES) \
	  --output $(BENCH_DIR)/popcount-peers.json
	$(BENCH_RUN) examples/readlimit-peers.c --build "$(BENCH_CC)" \
	  $(BENCH_SIZES:%=--size %) $(BENCH_OPTS) --samples $(BENCH_SAMPLES) \
	  --output $(BENCH_DIR)/readlimit-peers.json
	$(BENCH_RUN) bswap $(BENCH_BSWAP_SIZES:%=--size %) $(BENCH_OPTS) \
	  --output $(BENCH_DIR)/bswap.json
	$(BENCH_RUN) examples/bswap-inplace-peers.c --build "$(BENCH_CC)" \
	  $(if $(HAVE_AVX2),--build "$(BENCH_AVX2_CC)") \
	  $(BENCH_INPLACE_SIZES:%=--size %) $(BENCH_OPTS) \
	  --samples $(BENCH_SAMPLES) --output $(BENCH_DIR)/bswap-inplace.json
	@if command -v python3 >/dev/null; then \
	  python3 mk/bench_summary.py $(BENCH_DIR)/popcount-peers.json \
	    $(BENCH_DIR)/readlimit-peers.json $(BENCH_DIR)/bswap.json \
	    $(BENCH_DIR)/bswap-inplace.json; \
	else echo "python3 not found: no summary (the tables above stand)"; fi
