# mutate.mk — the structure-aware mutation fuzzer (tests/fuzz/mutate.c): it
# edits the examples' JSON and runs the sanitizer build of wavecc on each
# mutant (compile, and run = emulate + compare with the interpreter).
#   make fuzz-mutate                         build both, a seeded run (MUTATE_SECONDS, default 60)
#   make fuzz-mutate MUTATE_SEED=7 MUTATE_COUNT=5000 MUTATE_SECONDS=1800   a long run
#   MUTATE_STRICT=1                          exit 1 when a bug class is found (CI: see .ci/run)
#   MUTATE_TIMEOUT=20 MUTATE_MEM_MB=2048     limits of each wavecc command
# Findings (one reproducer per class) go to $(MUTATE_OUT); see mutate.c's header.
MUTATE_CC ?= cc
SAN ?= -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
ASAN_BUILD ?= build-asan
MUTATE_SEED ?= 1
MUTATE_COUNT ?= 100000
MUTATE_SECONDS ?= 60
MUTATE_TIMEOUT ?= 20
MUTATE_MEM_MB ?= 2048
MUTATE_OUT ?= $(ASAN_BUILD)/mutate
MUTATE_STRICT ?= 0
# copy_dynamic and gemm_dynamic need -D on the command line; every other
# example is a seed
MUTATE_EXAMPLES ?= $(filter-out examples/copy_dynamic.json examples/gemm_dynamic.json,$(wildcard examples/*.json))

.PHONY: all run
all: $(ASAN_BUILD)/mutate_fuzz

$(ASAN_BUILD)/mutate_fuzz: tests/fuzz/mutate.c
	@mkdir -p $(dir $@)
	$(MUTATE_CC) -std=c11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
		$(shell pkg-config --cflags jansson) $< $(shell pkg-config --libs jansson) -o $@

run: $(ASAN_BUILD)/mutate_fuzz
	$(MAKE) BUILD=$(ASAN_BUILD) OPT="-O1 -g $(SAN)" LDFLAGS="$(SAN) -no-pie" all
	rm -rf $(MUTATE_OUT)
	$(ASAN_BUILD)/mutate_fuzz --wavecc $(ASAN_BUILD)/wavecc --seed $(MUTATE_SEED) --count $(MUTATE_COUNT) \
		--seconds $(MUTATE_SECONDS) --timeout $(MUTATE_TIMEOUT) --mem-limit $(MUTATE_MEM_MB) --out $(MUTATE_OUT) \
		$(if $(filter 1,$(MUTATE_STRICT)),--strict) $(MUTATE_EXAMPLES)
