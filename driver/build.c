/* build.c — assembly text to code object in one call: llvm-mc, then our
 * linker. For text the compiler did not write (`wavecc as`, tests); the
 * pipeline runs the two steps as its own rows so each is timed. */
#include "../asm/asm.h"
#include "../loader/codeobj/codeobj.h"
#include "driver.h"

int compile_build(const AsmOptions *o, const char *text, size_t len, Buf *code_object, Buf *msg)
{
	Buf obj = {0};
	int r = asm_assemble(o, text, len, &obj, msg);
	if (r == 0)
		r = codeobj_link(obj.data, obj.len, o->source_name ? o->source_name : "<assembly>", code_object, msg);
	buf_free(&obj);
	return r;
}
