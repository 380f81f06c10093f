# bench - benchmarks of settle itself that time things, so not part of make
# test (machines are shared and noisy). Each runs under
# flock $(BENCH_LOCK), so that benchmarks do not overlap one another.
#   make bench-preempt  the core-clock estimate of `settle info` under a
#                       preemption storm (tests/bench_preempt.sh with the
#                       preload library tests/preempt_storm.c): within
#                       10 % of an undisturbed run, or unknown

BENCH_LOCK ?= /tmp/settle-bench.lock
STORM_LIB  := $(BUILD)/preempt_storm.so

$(STORM_LIB): tests/preempt_storm.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -O2 -shared -fPIC -o $@ $<

.PHONY: bench-preempt
bench-preempt: deps
	@$(MAKE) --no-print-directory $(BUILD)/settle $(STORM_LIB)
	SETTLE=$(BUILD)/settle STORM=$(STORM_LIB) \
		flock $(BENCH_LOCK) bash tests/bench_preempt.sh
