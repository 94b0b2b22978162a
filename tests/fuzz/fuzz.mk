# fuzz.mk — libFuzzer harnesses, built with clang-19 and ASan + UBSan.
#   make fuzz                                  build $(FUZZ_BUILD)/sym_fuzz
#   make -f tests/fuzz/fuzz.mk smoke           a short run (FUZZ_SECONDS, default 45)
#   build-fuzz/sym_fuzz -dict=tests/fuzz/sym.dict DIR tests/fuzz/sym_seeds   a long run
# A harness links only what it tests, so other stages' work in progress
# cannot break it.
FUZZ_CC ?= clang-19
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 45
FUZZ_FLAGS = -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Wall -Wextra
SYM_FUZZ_SRC = tests/fuzz/sym_fuzz.c $(wildcard ir/sym/*.c) \
	util/arena.c util/buf.c util/diag.c util/file.c util/intern.c

.PHONY: all smoke
all: $(FUZZ_BUILD)/sym_fuzz

$(FUZZ_BUILD)/sym_fuzz: $(SYM_FUZZ_SRC) $(wildcard ir/sym/*.h) util/util.h
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(SYM_FUZZ_SRC) -lm -o $@

smoke: $(FUZZ_BUILD)/sym_fuzz
	rm -rf $(FUZZ_BUILD)/sym_corpus && mkdir -p $(FUZZ_BUILD)/sym_corpus
	$(FUZZ_BUILD)/sym_fuzz -seed=1 -max_total_time=$(FUZZ_SECONDS) -max_len=512 -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -dict=tests/fuzz/sym.dict $(FUZZ_BUILD)/sym_corpus tests/fuzz/sym_seeds
