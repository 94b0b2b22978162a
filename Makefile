# wavecc — plain Makefile. Sources are picked up by folder, so a new file in a
# stage folder needs no edit here. Out-of-tree builds: BUILD=dir.
#   make              build $(BUILD)/wavecc, $(BUILD)/libwavecc.a and .so, ./wavecc link
#   make install      install the command, the libraries, include/wavecc.h,
#                     wavecc.pc and the documentation (docs/*.md, the format
#                     schema, README.md: PREFIX/share/doc/wavecc) under PREFIX
#                     (default /usr/local; DESTDIR too)
#   make uninstall    remove what install put there
#   make check-fast   the fast tier (about 20 s): the unit and golden-file
#                     suites of FAST_SUITES (below) and the dependency check,
#                     in parallel
#   make check        every test suite (tests/**/*_test.c), the dependency
#                     check and the install check, in parallel (one job per
#                     core); each suite's output in $(BUILD)/tests/SUITE.log,
#                     printed whole when it ends; the ten slowest at the end;
#                     TEST_SRCS=tests/ir/sym/sym_test.c runs just that one
#   make check-asan   make check under AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-tsan   the library's multi-threaded suite under ThreadSanitizer (clang-19)
#   make fuzz         build the libFuzzer harnesses (clang-19) into build-fuzz/

CC ?= cc
ifeq ($(origin CC),default)
CC = cc
endif
BUILD ?= build
OPT ?= -O2 -g
CFLAGS ?=
LDFLAGS ?=
PKGS = jansson libelf msgpack
WFLAGS = -std=c11 -Wall -Wextra -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
# -fPIC: the same objects make the static and the shared library.
ALL_CFLAGS = $(WFLAGS) $(OPT) -fPIC $(CFLAGS) $(shell pkg-config --cflags $(PKGS)) -MMD -MP
LIBS = $(shell pkg-config --libs $(PKGS)) -ldl -lm -pthread
CHECK_LIBS = $(shell pkg-config --libs check)

# The library's folders, lowest first (docs/architecture.md); each holds its
# sources at any depth.
STAGES = util ir frontend interp passes isel regalloc asm loader driver
LIB_SRC = $(sort $(shell find $(STAGES) -name '*.c'))
CLI_SRC = $(wildcard cli/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/%.o)

# Tests mirror the source folders: each tests/<dir>/<name>_test.c is one Check
# suite binary, $(BUILD)/tests/<dir>/<name>.test, linked with that folder's
# other .c files (shared test helpers) and tests/*.c.
ALL_TEST_SRCS := $(sort $(shell find tests -name '*_test.c'))
TEST_SRCS ?= $(ALL_TEST_SRCS)
TEST_BINS = $(TEST_SRCS:%_test.c=$(BUILD)/%.test)
TEST_COMMON = $(wildcard tests/*.c)

# The two tiers. A suite is named by its path under tests/ without _test.c
# (tests/ir/sym/sym_test.c is ir/sym/sym). `make check` runs them all;
# `make check-fast` runs FAST_SUITES, the suites of the folders below driver/
# that test one unit in process or against golden files (.mir files, isel's
# .checks, .plan files, the sym corpus, encodings against llvm-objdump,
# snippets on the emulator), each about a second or less alone; not the
# end-to-end runs on the emulator (driver/, cli/, bench/, validate/,
# interp/attention: big reference attentions, interp/cli: the command). A
# new suite joins the fast tier by being listed here.
FAST_SUITES = \
	util/util util/npy util/match_checks util/loop_sample asm/asm_cache \
	ir/graph ir/mir ir/mir_parse ir/isa/isa ir/sym/sym ir/sym/sym_corpus ir/sym/sym_random \
	frontend/frontend \
	interp/tensor interp/ops interp/control interp/elementwise interp/gemm interp/loops interp/mma_fast interp/mx interp/wave_ref \
	passes/graph/indices passes/graph/trip_range \
	passes/machine/mir_file passes/machine/hazards passes/machine/waitcnt passes/machine/licm \
	passes/machine/loop_emu passes/plan/plan_file passes/plan/hoist \
	isel/isel_file \
	regalloc/regalloc regalloc/coalesce regalloc/spill_forward \
	loader/codeobj/codeobj loader/codeobj/link loader/runtime/launch \
	loader/emu/decode loader/emu/exec loader/emu/foreign loader/emu/valu loader/emu/mfma loader/emu/d16 loader/emu/regress \
	loader/emu/fuzz loader/emu/clang loader/emu/clang950 loader/emu/order loader/emu/memory loader/emu/semantics \
	loader/timing/timing loader/timing/calib loader/timing/order
ifneq ($(filter-out $(ALL_TEST_SRCS),$(FAST_SUITES:%=tests/%_test.c)),)
$(error FAST_SUITES names no suite: $(filter-out $(ALL_TEST_SRCS),$(FAST_SUITES:%=tests/%_test.c)))
endif

# The library's version (include/wavecc.h) and the shared library's soname.
VERSION := $(shell sed -n 's/^\#define WAVECC_VERSION_STRING "\(.*\)"/\1/p' include/wavecc.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME = libwavecc.so.$(SOMAJOR)
PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
BINDIR = $(PREFIX)/bin
PCDIR = $(LIBDIR)/pkgconfig
DOCDIR = $(PREFIX)/share/doc/wavecc
# What install puts in DOCDIR: the pages the header and the command point to.
DOCS = README.md $(wildcard docs/*.md) docs/kernel-format.schema.json

.PHONY: all check check-deps check-install check-asan check-tsan check-mutants fuzz fuzz-mutate bench bench-emu bench-compile bench-sweep bench-gemm bench-attention bench-profile bench-schedule bench-calibrate clean install uninstall
all: $(BUILD)/wavecc $(BUILD)/libwavecc.a $(BUILD)/libwavecc.so.$(VERSION)
ifeq ($(BUILD),build)
all: wavecc
wavecc: $(BUILD)/wavecc
	ln -sf $(BUILD)/wavecc wavecc
endif

# Objects depend on the compiler and flags they were built with, so a change
# of either (CC=clang-19, OPT=...) rebuilds them.
FLAGS_STAMP = $(BUILD)/.cflags
.PHONY: FORCE
$(FLAGS_STAMP): FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' > $@

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libwavecc.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# The shared library exports the public API only (wavecc_*: the version
# script); the static library and the command keep every internal symbol.
$(BUILD)/libwavecc.so.$(VERSION): $(LIB_OBJ) driver/libwavecc.map
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=driver/libwavecc.map \
		$(LIB_OBJ) $(LIBS) -o $@
	ln -sf libwavecc.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libwavecc.so

$(BUILD)/wavecc.pc: driver/wavecc.pc.in include/wavecc.h
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|; s|@PKGS@|$(PKGS)|' $< > $@

install: all $(BUILD)/wavecc.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PCDIR)
	install -m 755 $(BUILD)/wavecc $(DESTDIR)$(BINDIR)/wavecc
	install -m 644 $(BUILD)/libwavecc.a $(DESTDIR)$(LIBDIR)/libwavecc.a
	install -m 755 $(BUILD)/libwavecc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libwavecc.so.$(VERSION)
	ln -sf libwavecc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libwavecc.so
	install -m 644 include/wavecc.h $(DESTDIR)$(INCLUDEDIR)/wavecc.h
	install -m 644 $(BUILD)/wavecc.pc $(DESTDIR)$(PCDIR)/wavecc.pc
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/wavecc $(DESTDIR)$(LIBDIR)/libwavecc.a $(DESTDIR)$(LIBDIR)/libwavecc.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libwavecc.so $(DESTDIR)$(INCLUDEDIR)/wavecc.h \
		$(DESTDIR)$(PCDIR)/wavecc.pc $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

$(BUILD)/wavecc: $(CLI_OBJ) $(BUILD)/libwavecc.a
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) $(CLI_OBJ) $(BUILD)/libwavecc.a $(LIBS) -o $@

define TEST_RULE
$(BUILD)/$(1:%_test.c=%.test): $(patsubst %.c,$(BUILD)/%.o,$(1) $(filter-out %_test.c,$(wildcard $(dir $(1))*.c)) $(TEST_COMMON)) $(BUILD)/libwavecc.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(OPT) $$(CFLAGS) $$(LDFLAGS) $$(filter %.o,$$^) $(BUILD)/libwavecc.a $$(CHECK_LIBS) $$(LIBS) -o $$@
endef
$(foreach t,$(TEST_SRCS),$(eval $(call TEST_RULE,$(t))))
# The cycle model's suites (tests/loader/timing/) run their kernels with the
# emulator suites' harness.
$(BUILD)/tests/loader/timing/timing.test $(BUILD)/tests/loader/timing/calib.test \
	$(BUILD)/tests/loader/timing/order.test: $(BUILD)/tests/loader/emu/emu_harness.o

# Both tiers run their suites in parallel, CHECK_JOBS at a time (one per
# core), in a sub-make that builds what they need first. Every suite runs
# even if another fails. A suite's output goes to $(BUILD)/tests/SUITE.log
# and its time and exit status to SUITE.result; the log is printed whole
# when the suite ends (-Otarget keeps the outputs apart), and the target
# fails at the end if any suite failed or did not run. The suites start
# longest first, by the times of the last run (SUITE.result), so no long
# one starts last; driver/wave, the longest, always first. wave.test shares
# its cases among WAVECC_WAVE_JOBS processes (default: one per core): it
# takes the cores while the other suites run beside it, one at a time.
CHECK_JOBS := $(shell nproc 2>/dev/null || echo 1)
CHECK_FIRST = driver/wave
SUITES = $(TEST_SRCS:tests/%_test.c=%)
FAST_RUN = $(filter $(SUITES),$(FAST_SUITES))
# Check's default timeout of a test case (4 s) is a tenth of a second of CPU
# for most cases, which a loaded machine (other builds beside make check)
# stretches past it: 30 s unless set (cases with a timeout of their own keep it).
# The suites share one assembler object cache (asm/asm_cache.c), whatever
# the build folder or clone, unless WAVECC_ASM_CACHE is set (empty: none):
# starting llvm-mc is most of what a small case costs (about 3,200 distinct
# assemblies in make check), the sanitizer build's run assembles the same
# texts again, and a change to the compiler changes few of them. Entries are
# keyed by the text and llvm-mc's identity, as ccache's; check_run drops
# those unused for a day. Under $XDG_CACHE_HOME or ~/.cache (else build/).
ASM_CACHE_DIR ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME)/wavecc/asm,$(if $(HOME),$(HOME)/.cache/wavecc/asm,$(CURDIR)/build/asm-cache))
ASM_CACHE_ENV = WAVECC_ASM_CACHE=$${WAVECC_ASM_CACHE-$(ASM_CACHE_DIR)}
SUITE_ENV = WAVECC_BIN=$(abspath $(BUILD)/wavecc) WAVECC_ROOT=$(CURDIR) WAVECC_BUILD=$(abspath $(BUILD)) \
	WAVECC_WAVE_JOBS=$${WAVECC_WAVE_JOBS:-$(CHECK_JOBS)} CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-30} $(ASM_CACHE_ENV)
# $(call check_order,SUITES): CHECK_FIRST, then those the last run timed, longest first, then the rest
check_timed = $(shell cd $(BUILD)/tests 2>/dev/null && cat $(1:%=%.result) 2>/dev/null | sort -rn | cut -d' ' -f3)
check_order = $(filter $(CHECK_FIRST),$(1)) $(filter-out $(CHECK_FIRST),$(call check_timed,$(1))) \
	$(filter-out $(CHECK_FIRST) $(call check_timed,$(1)),$(1))
# $(call check_logged,NAME,COMMAND): run COMMAND with its output in $(BUILD)/tests/NAME.log, write NAME.result
# (milliseconds, exit status, name), print a header and the log; never fails (the summary counts)
check_logged = mkdir -p $(dir $(BUILD)/tests/$(1)); start=$$(date +%s%N); \
	{ $(2); } > $(BUILD)/tests/$(1).log 2>&1; rc=$$?; \
	ms=$$(( ($$(date +%s%N) - start) / 1000000 )); echo "$$ms $$rc $(1)" > $(BUILD)/tests/$(1).result; \
	if [ $$rc -eq 0 ]; then st=passed; else st="FAILED (exit status $$rc)"; fi; \
	echo "== $(1): $$st, $$((ms / 1000)).$$((ms % 1000 / 100)) s"; cat $(BUILD)/tests/$(1).log
# the sub-make's jobs: CHECK_JOBS, or the slots of make -jN check
check_j = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(CHECK_JOBS))
# $(call check_run,TARGET,NAMES): run NAMES (suites, deps, install) in the sub-make, then sum up:
# the failures, the ten slowest, the time; fail if any failed or has no result (its build failed)
check_run = start=$$(date +%s); rm -f $(2:%=$(BUILD)/tests/%.result); \
	mkdir -p $(ASM_CACHE_DIR) && find $(ASM_CACHE_DIR) -name '*.o' -mmin +1440 -delete; \
	$(MAKE) --no-print-directory $(check_j) -Otarget -k check-runs CHECK_RUNS='$(2)'; \
	failed=; unrun=; for n in $(2); do r=$(BUILD)/tests/$$n.result; \
		if [ ! -f $$r ]; then unrun="$$unrun $$n"; \
		elif [ "$$(cut -d' ' -f2 $$r)" != 0 ]; then failed="$$failed $$n"; fi; done; \
	echo "== the ten slowest of make $(1) ($(words $(2)) runs, $(if $(check_j),$(CHECK_JOBS) at a time,make's -j)):"; \
	cat $(2:%=$(BUILD)/tests/%.result) 2>/dev/null | sort -rn | head -n 10 | \
		awk '{ printf "   %6.1f s  %s%s\n", $$1 / 1000, $$3, $$2 ? "  FAILED" : "" }'; \
	skipped=$$(cd $(BUILD)/tests && grep -l '^SKIP' $(2:%=%.log) 2>/dev/null | sed 's/\.log$$//' | tr '\n' ' '); \
	if [ -n "$$skipped" ]; then echo "== skipped in part (a tool or folder missing: the SKIP lines of their logs):" \
		"$$skipped"; fi; \
	took=$$(( $$(date +%s) - start )); \
	if [ -n "$$failed$$unrun" ]; then \
		echo "make $(1): FAILED after $$took s:$${failed:+ failed$$failed (logs: $(BUILD)/tests/NAME.log)}$${unrun:+; not run (their build failed, above):$$unrun}"; \
		exit 1; fi; \
	echo "make $(1): all $(words $(2)) passed in $$took s"

check:
	@+$(call check_run,check,$(call check_order,$(SUITES) deps install))

check-fast:
	@+$(call check_run,check-fast,$(call check_order,$(FAST_RUN) deps))

# the sub-make's goal: one target per suite, and the dependency and install checks
.PHONY: check-fast check-runs $(SUITES:%=check-run/%) check-run/deps check-run/install
check-runs: $(CHECK_RUNS:%=check-run/%)
$(SUITES:%=check-run/%): check-run/%: $(BUILD)/tests/%.test all
	@$(call check_logged,$*,$(SUITE_ENV) $<)
check-run/deps: all
	@$(call check_logged,deps,python3 tools/deps.py $(BUILD))
check-run/install: all
	@+$(call check_logged,install,$(MAKE) --no-print-directory check-install)

# The dependency rule (docs/architecture.md): no cycle between folders, by
# include or by link, and none between the files of a folder (tools/deps.py).
check-deps: all
	@echo "== deps: tools/deps.py $(BUILD)"
	@python3 tools/deps.py $(BUILD)

# The library as another program sees it: install into a scratch prefix,
# build examples/api_gemm.c against it with pkg-config alone, run it
# (compile gemm_global in memory, emulate, interpret, compare: PASS), check
# the documentation is there, then uninstall and check nothing is left. The sub-makes inherit BUILD, OPT and
# LDFLAGS, so under check-asan the example links the sanitizer runtime too.
INST = $(abspath $(BUILD)/tests/install)
check-install: all
	@echo "== install: PREFIX=$(INST)"
	@rm -rf $(INST) && $(MAKE) --no-print-directory -s install PREFIX=$(INST)
	@$(CC) -std=c11 -Wall -Wextra -Werror $(OPT) examples/api_gemm.c \
		$$(PKG_CONFIG_PATH=$(INST)/lib/pkgconfig pkg-config --cflags --libs wavecc) -lm $(LDFLAGS) \
		-o $(INST)/api_gemm
	@cd $(CURDIR) && LD_LIBRARY_PATH=$(INST)/lib $(INST)/api_gemm examples/gemm_global.json > $(INST)/api_gemm.out; \
		tail -n 3 $(INST)/api_gemm.out; tail -n 1 $(INST)/api_gemm.out | grep -qx PASS
	@LD_LIBRARY_PATH=$(INST)/lib ldd $(INST)/api_gemm | grep -q "libwavecc.so.$(SOMAJOR) => $(INST)/lib/" || \
		{ echo "install: api_gemm does not use the installed shared library"; ldd $(INST)/api_gemm; exit 1; }
	@for f in $(notdir $(DOCS)); do [ -f $(INST)/share/doc/wavecc/$$f ] || { echo "install: no $$f in share/doc/wavecc"; exit 1; }; done
	@grep -q "share/doc/wavecc/library.md" $(INST)/include/wavecc.h || { echo "install: the header does not say where the docs are"; exit 1; }
	@$(PY_INSTALL_CHECK)
	@$(MAKE) --no-print-directory -s uninstall PREFIX=$(INST)
	@left=$$(find $(INST) -type f -o -type l | grep -v '/api_gemm'); \
		[ ! -d $(INST)/share/doc/wavecc ] || left="$$left $(INST)/share/doc/wavecc"; \
		if [ -n "$$left" ]; then echo "uninstall left: $$left"; exit 1; fi
	@echo "install: PASS (installed, built with pkg-config, ran, uninstalled)"

SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Leak detection is on explicitly (LeakSanitizer), also for the wavecc runs
# the suites start; extra ASAN_OPTIONS from the environment are appended.
# Every sanitizer report of every process (the suites and the wavecc they
# run, whose stderr a test may capture and not print) is also logged under
# build-asan/sanitizer/, which must stay empty. The Wave transcriptions
# (wave.test) run one case in 24 there, a different 24th each day of the
# year (CI stays near 25 minutes: the sanitized run of make check took 18
# minutes at one in 6, 2026-12-08); WAVECC_WAVE_SAMPLE=1 runs them all,
# WAVECC_WAVE_SAMPLE_AT picks the 24th. The other suites' loops over kernels
# the emulator runs (test_add_loop_sampled, tests/test.h) run one iteration
# in 2 there, the other half the next day (WAVECC_TEST_SAMPLE=1: all).
# ASAN_LEAVE_OUT names suites the sanitized run leaves out: cli/profile
# (the cycle model over many kernels, 220 s sanitized; the model's code
# runs sanitized in loader/timing's suites).
ASAN_LEAVE_OUT ?= cli/profile
SAN_LOG = $(CURDIR)/build-asan/sanitizer
# The sanitized programs link without PIE (-no-pie): UBSan's check-site data
# (6 MB of pointers) then needs no relocation at each start of a process,
# which cost every sanitized `wavecc run` about a sixth of its time.
# The sanitized build runs some times slower: each case's timeout is five times
# (a wave.test case's 60 s, an extend-attention case under ASan, ran out
# on a loaded machine).
check-asan:
	rm -rf $(SAN_LOG) && mkdir -p $(SAN_LOG)
	ASAN_OPTIONS="detect_leaks=1:log_path=$(SAN_LOG)/asan$(if $(ASAN_OPTIONS),:$(ASAN_OPTIONS))" \
	UBSAN_OPTIONS="print_stacktrace=1:log_path=$(SAN_LOG)/ubsan$(if $(UBSAN_OPTIONS),:$(UBSAN_OPTIONS))" \
		WAVECC_WAVE_SAMPLE=$${WAVECC_WAVE_SAMPLE:-24} WAVECC_WAVE_SAMPLE_AT=$${WAVECC_WAVE_SAMPLE_AT:-$$(( $$(date +%-j) % 24 ))} \
		WAVECC_TEST_SAMPLE=$${WAVECC_TEST_SAMPLE:-2} WAVECC_TEST_SAMPLE_AT=$${WAVECC_TEST_SAMPLE_AT:-$$(( $$(date +%-j) % 2 ))} \
		CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-5} \
		$(MAKE) BUILD=build-asan OPT="-O1 -g $(SAN)" LDFLAGS="$(SAN) -no-pie" check \
		TEST_SRCS="$(filter-out $(ASAN_LEAVE_OUT:%=tests/%_test.c),$(ALL_TEST_SRCS))"
	@if [ -n "$$(ls -A $(SAN_LOG))" ]; then head -c 20000 $(SAN_LOG)/*; \
		echo "make check-asan: sanitizer reports above (build-asan/sanitizer/)"; exit 1; fi

# The library from several threads at once (tests/driver/api_threads_test.c)
# under ThreadSanitizer: any data race in the process-wide state fails it.
TSAN = -fsanitize=thread
check-tsan:
	$(MAKE) CC=clang-19 BUILD=build-tsan OPT="-O1 -g $(TSAN)" LDFLAGS="$(TSAN)" build-tsan/tests/driver/api_threads.test
	TSAN_OPTIONS="halt_on_error=1:$(TSAN_OPTIONS)" CK_FORK=no WAVECC_ROOT=$(CURDIR) build-tsan/tests/driver/api_threads.test

fuzz:
	$(MAKE) -C . -f tests/fuzz/fuzz.mk
	$(MAKE) -C . -f tests/fuzz/graph.mk

# The mutation fuzzer over the examples on the sanitizer build (tests/fuzz/mutate.mk).
fuzz-mutate:
	$(MAKE) -f tests/fuzz/mutate.mk SAN="$(SAN)" run

# Issue 27's deliberate compiler bugs, each applied to a copy of the tree and
# required to fail the suite it names (tests/mutants/mutants.sh; MUTANTS=names).
check-mutants: all
	tests/mutants/mutants.sh $(MUTANTS)

# Benchmarks (bench/*.c, one program each). SYM_CORPUS: the expression corpus.
SYM_CORPUS ?= tests/ir/sym/data/sym_corpus
bench: $(BUILD)/bench/sym_bench
	$(BUILD)/bench/sym_bench $(SYM_CORPUS)
bench-emu: $(BUILD)/bench/emu_bench
	$(BUILD)/bench/emu_bench
# Compile time per stage of every example that compiles, next to clang-19 -O3
# on the anchor kernel (COMPILE_RUNS runs each, best and median).
ANCHOR ?= tests/validate/kernels/gemm_lds.cl
COMPILE_RUNS ?= 20
bench-compile: $(BUILD)/bench/compile_bench
	$(BUILD)/bench/compile_bench -n $(COMPILE_RUNS) --examples examples --anchor $(ANCHOR)
# A 100-variant GEMM sweep: one process and one llvm-mc run next to one
# process per variant (bench/sweep_bench.c).
SWEEP_RUNS ?= 3
bench-sweep: $(BUILD)/bench/sweep_bench $(BUILD)/wavecc
	$(BUILD)/bench/sweep_bench $(abspath $(BUILD)/wavecc) examples/gemm_global.json -n $(SWEEP_RUNS)
# GEMM static report: loop instructions per MFMA, registers, LDS, occupancy
# and llvm-mca-22's MFMA pressure, next to clang-19 -O3 (bench/gemm_report.c);
# then gfx950's MXFP4 GEMM beside aiter's f4gemm in the same cycle model
# (bench/gemm_mxfp4_aiter.py; needs WAVECC_AITER, else one SKIP line).
bench-gemm: $(BUILD)/bench/gemm_report $(BUILD)/wavecc
	$(BUILD)/bench/gemm_report $(abspath $(BUILD)/wavecc) --mcpu gfx942
	$(BUILD)/bench/gemm_report $(abspath $(BUILD)/wavecc) --mcpu gfx90a
	$(BUILD)/bench/gemm_report $(abspath $(BUILD)/wavecc) --mcpu gfx950
	$(PYTHON_ANY) bench/gemm_mxfp4_aiter.py $(abspath $(BUILD)/wavecc)
# The attention kernels' registers, occupancy and main loop (instructions by
# class, per MFMA, llvm-mca-22's MFMA pressure) against clang-19's GEMM loop
# (bench/attention_report.c), then wavecc beside AMD's FA v3 forward in the same
# cycle model (bench/attention_aiter.py; needs WAVECC_AITER, else one SKIP line).
bench-attention: $(BUILD)/bench/attention_report $(BUILD)/wavecc
	$(BUILD)/bench/attention_report $(abspath $(BUILD)/wavecc) --mcpu gfx942
	$(BUILD)/bench/attention_report $(abspath $(BUILD)/wavecc) --mcpu gfx90a
	$(PYTHON_ANY) bench/attention_aiter.py $(abspath $(BUILD)/wavecc)
# The modelled TFLOP/s or GB/s of every example next to clang-19 -O3's
# equivalent OpenCL kernel in the same cycle model (bench/profile_report.c).
bench-profile: $(BUILD)/bench/profile_report $(BUILD)/wavecc
	$(BUILD)/bench/profile_report $(abspath $(BUILD)/wavecc) --mcpu gfx942
	$(BUILD)/bench/profile_report $(abspath $(BUILD)/wavecc) --mcpu gfx90a
# the cycle model against AMD-measured GEMM times, fit and held-out errors (bench/calibrate.c,
# bench/calibration/aiter_gemms.csv); aiter's folder from WAVECC_AITER, else an aiter/ beside the checkout with an
# hsa/ folder, else one SKIP line; CALIBRATE_FLAGS=--fit refits the guessed parameters
CALIBRATE_AITER = $(or $(WAVECC_AITER),$(abspath $(patsubst %/hsa,%,$(firstword $(wildcard ../aiter/hsa ../../aiter/hsa)))))
bench-calibrate: $(BUILD)/bench/calibrate
	WAVECC_AITER='$(CALIBRATE_AITER)' $(BUILD)/bench/calibrate $(CALIBRATE_FLAGS)
.PRECIOUS: $(BUILD)/bench/%.o
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(BUILD)/libwavecc.a
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) $(filter %.o,$^) $(BUILD)/libwavecc.a $(LIBS) -o $@
# the reduction loop's schedules through the cycle model and llvm-mca-22
# (bench/schedule_report.c)
bench-schedule: $(BUILD)/bench/schedule_report $(BUILD)/wavecc
	$(BUILD)/bench/schedule_report $(abspath $(BUILD)/wavecc) --mcpu gfx942
	$(BUILD)/bench/schedule_report $(abspath $(BUILD)/wavecc) --mcpu gfx90a
	$(BUILD)/bench/schedule_report $(abspath $(BUILD)/wavecc) --mcpu gfx950
# the static reports share the main loop's measure (bench/loop_report.c)
$(BUILD)/bench/gemm_report $(BUILD)/bench/attention_report $(BUILD)/bench/profile_report $(BUILD)/bench/schedule_report: $(BUILD)/bench/loop_report.o
# the reports with clang-19 references share their build and profile (bench/ref_profile.c)
$(BUILD)/bench/profile_report $(BUILD)/bench/schedule_report: $(BUILD)/bench/ref_profile.o
# tests/bench checks that the attention report runs and parses
$(BUILD)/tests/bench/attention_report.test: $(BUILD)/bench/attention_report

clean:
	rm -rf build build-asan build-tsan build-fuzz wavecc

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
include python/python.mk

# AMD's hand-written code objects (ROCm/aiter; no AMD binary is part of wavecc) on the emulator against a
# float64 reference (tools/aiter.py check): aiter's folder comes from WAVECC_AITER; without it, or without a
# python3 with numpy, the suite passes with a SKIP line in its log.
AITER_TEST = $(if $(PYTHON),$(PYTHON) -B tools/aiter.py check --wavecc $(abspath $(BUILD)/wavecc),\
	echo "SKIP: aiter's kernels: no python3 with numpy and sympy")
ifeq ($(TEST_SRCS),$(ALL_TEST_SRCS))
SUITES += loader/aiter
endif
.PHONY: check-run/loader/aiter
check-run/loader/aiter: all
	@$(call check_logged,loader/aiter,$(AITER_TEST))
