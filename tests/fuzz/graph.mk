# graph.mk — the libFuzzer harness of the JSON frontend (clang-19).
#   make -f tests/fuzz/graph.mk            builds build-fuzz/graph_fuzz
#   build-fuzz/graph_fuzz -max_total_time=120 build-fuzz/graph-corpus tests/frontend/data
FUZZ_CC = clang-19
FUZZ_FLAGS = -std=c11 -g -O1 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
# ir/mir*.c (the machine IR) reads the emulator's instruction table; the frontend needs neither.
FUZZ_SRC = $(filter-out ir/mir%.c,$(wildcard util/*.c ir/*.c ir/sym/*.c frontend/*.c)) tests/fuzz/graph_fuzz.c

build-fuzz/graph_fuzz: $(FUZZ_SRC) $(wildcard util/*.h ir/*.h ir/sym/*.h frontend/*.h)
	@mkdir -p build-fuzz/graph-corpus
	$(FUZZ_CC) $(FUZZ_FLAGS) $(shell pkg-config --cflags jansson) $(FUZZ_SRC) \
		$(shell pkg-config --libs jansson) -lm -o $@
