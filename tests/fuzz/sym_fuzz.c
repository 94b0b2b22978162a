/* sym_fuzz.c — libFuzzer harness for the symbolic engine's parser,
 * printer and simplifier (build: make fuzz; run: see tests/fuzz/fuzz.mk).
 *
 * Each input is one expression. Properties checked, any failure aborts (a
 * finding): parsing never crashes; a parsed expression prints to text that
 * parses back to the same node; simplifying under a fixed assumption set
 * gives a non-error result whenever the input's value is defined at some
 * point, that result also round-trips, and it equals the input at random
 * points satisfying the assumptions. A fresh context per input keeps runs
 * independent and lets LeakSanitizer see every allocation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/sym/sym.h"

static const char assumptions[] = "$T0 >= 0\n$T0 < 256\n$T1 >= 0\n$T1 < 4\nM >= 1\nN >= 1\nK >= 1\n"
				  "Mod(K, 64) == 0\nBLOCK == 128\nx >= 0\n";

static void round_trip(SymCtx *c, Sym *e, const char *what)
{
	SymParseError pe;
	const char *txt = sym_str(c, e);
	Sym *back = sym_parse(c, txt, &pe);
	if (back != e) {
		fprintf(stderr, "%s does not round-trip: '%s' -> %s\n", what, txt,
			back ? sym_str(c, back) : pe.msg);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	if (strlen(text) != size) { /* embedded NUL: not a text line */
		free(text);
		return 0;
	}
	SymCtx *c = sym_ctx_new();
	SymAssume *a = sym_assume_new(c);
	SymParseError pe;
	int line;
	if (sym_assume_parse(a, assumptions, &pe, &line) < 0)
		abort();
	Sym *e = sym_parse(c, text, &pe);
	if (e) {
		if (sym_is_error(e) || pe.msg[0])
			abort(); /* parse returns NULL for errors, with an empty message on success */
		round_trip(c, e, "input");
		Sym *s = sym_simplify(c, e, a);
		if (!sym_is_error(s)) {
			round_trip(c, s, "result");
			SymCheck chk;
			uint64_t seed = size * 2654435761u + 1;
			sym_check_equal(c, e, s, a, 24, &seed, &chk);
			if (chk.mismatches) {
				fprintf(stderr, "not equivalent: '%s' -> '%s': %s\n", text, sym_str(c, s), chk.detail);
				abort();
			}
		}
	} else if (pe.col < 1 || (size_t)pe.col > size + 1 || !pe.msg[0]) {
		fprintf(stderr, "bad error location %d for '%s': %s\n", pe.col, text, pe.msg);
		abort();
	}
	sym_ctx_free(c);
	free(text);
	return 0;
}
