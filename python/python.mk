# python/python.mk — the Python package wavecc (python/wavecc/, docs/python.md),
# included by the Makefile.
#   make install     also installs the package into PREFIX's Python site folder
#                    (PYSITE: $(LIBDIR)/python3.X/dist-packages for Debian's
#                    python3, site-packages for others) with _config.py naming
#                    LIBDIR, where the package finds libwavecc.so.0
#   make check-install also imports the installed package and runs a GEMM
#                    with it (the installed library and command, not the tree's)
#   make check       runs tests/python/run_tests.py full (Wave programs traced,
#                    compared with their transcriptions, run on the emulator)
#   make check-fast  runs its fast part (GEMM, softmax, the tracer's units)
#   (.ci/run also runs tests/python/run_tests.py slow: the templates at Wave's
#   largest shapes, 10 s or more each)
# The tests need a python3 with numpy and sympy (Debian's python3-numpy and
# python3-sympy): PYTHON is the first of /usr/bin/python3 and python3 that
# imports both; without one the suites pass with a SKIP line. Under a
# sanitizer build (check-asan) they skip too: a sanitized libwavecc.so cannot
# be loaded into an uninstrumented python.

PYTHON ?= $(shell for p in /usr/bin/python3 python3; do $$p -c 'import numpy, sympy' >/dev/null 2>&1 && \
	{ command -v $$p; break; }; done)
PYTHON_ANY = $(or $(PYTHON),$(shell command -v python3))
PYSITE ?= $(shell $(PYTHON_ANY) -c 'import sys; v = "%d.%d" % sys.version_info[:2]; \
	d = "dist-packages" if any(p.endswith("dist-packages") for p in sys.path) else "site-packages"; \
	print("$(LIBDIR)/python%s/%s" % (v, d))' 2>/dev/null)
PY_FILES = $(shell cd python && find wavecc -name '*.py' ! -name _config.py | sort)

.PHONY: install-python uninstall-python
install: install-python
uninstall: uninstall-python
install-python:
	@if [ -z "$(PYSITE)" ]; then echo "install: no python3: the Python package wavecc is not installed"; else \
	for f in $(PY_FILES); do install -d $(DESTDIR)$(PYSITE)/$$(dirname $$f) && \
		install -m 644 python/$$f $(DESTDIR)$(PYSITE)/$$f || exit 1; done; \
	printf '"""Written by make install: where libwavecc.so.0 and wavecc are."""\nLIBDIR = "%s"\nBINDIR = "%s"\n' \
		'$(LIBDIR)' '$(BINDIR)' \
		> $(DESTDIR)$(PYSITE)/wavecc/_config.py; fi
uninstall-python:
	@if [ -n "$(PYSITE)" ]; then rm -rf $(DESTDIR)$(PYSITE)/wavecc; \
		rmdir -p $(DESTDIR)$(PYSITE) 2>/dev/null || true; fi

# check-install: the installed package finds the installed library and
# command (not the source tree's) and runs Wave's 5_gemm.py GEMM.
PY_INSTALL_CHECK = if [ -z "$(PYTHON)" ] || [ -n "$(findstring -fsanitize,$(OPT) $(LDFLAGS))" ]; then \
	echo "install: python package not checked (no python3 with numpy and sympy, or a sanitizer build)"; else \
	site=$$(ls -d $(INST)/lib/python3*/*-packages | head -n 1) && cd $(INST) && \
	env -u WAVECC_LIBRARY -u WAVECC_BUILD -u WAVECC_EXE PYTHONPATH=$$site:$(CURDIR)/tests/python $(PYTHON) -B -c \
	'import wavecc, wavecc._lib as L, gemm_example; from wavecc._compile import wavecc_executable as exe; \
	gemm_example.simple_gemm_test(); assert L._lib._name.startswith("$(INST)/lib/"), L._lib._name; \
	assert exe().startswith("$(INST)/bin/"), exe(); assert wavecc.__file__.startswith("'"$$site"'"), wavecc.__file__' \
	> $(INST)-python.out 2>&1 && echo "install: python package PASS (from $$site)" || \
	{ cat $(INST)-python.out; echo "install: the installed python package failed"; exit 1; }; fi

# The two suites join make check and make check-fast as python/full and
# python/fast (only when all suites run, not under TEST_SRCS=...).
PY_TEST = $(if $(findstring -fsanitize,$(OPT) $(LDFLAGS)),echo "SKIP: python tests under a sanitizer build", \
	$(if $(PYTHON),$(ASM_CACHE_ENV) WAVECC_BUILD=$(abspath $(BUILD)) PYTHONPATH=$(CURDIR)/python $(PYTHON) -B \
	tests/python/run_tests.py,echo "SKIP: no python3 with numpy and sympy (python3-numpy python3-sympy)"))
ifeq ($(TEST_SRCS),$(ALL_TEST_SRCS))
SUITES += python/fast python/full
FAST_SUITES += python/fast
endif
.PHONY: check-run/python/fast check-run/python/full
check-run/python/fast check-run/python/full: check-run/python/%: all
	@$(call check_logged,python/$*,$(PY_TEST) $*)
