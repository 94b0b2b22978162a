/* origin.c — say where a line of generated assembly came from.
 *
 * The compiler's assembly groups the instructions of each graph op under a
 * comment line `\t// OPNAME` (mir_print), so the op of a line is the name
 * in the nearest such comment above it, as long as no label or directive
 * outside the code (the kernel descriptor, the metadata) intervenes. When
 * llvm-mc rejects generated assembly, its messages read `TAG:LINE:COL:
 * error: ...` (TAG is AsmOptions.source_name); asm_explain copies them and
 * adds, for each such line, a note naming the generated line and the graph
 * op it belongs to, so a kernel author is pointed at the op, and a wavecc
 * developer at the line of `wavecc compile -S`. */
#include <stdlib.h>
#include <string.h>

#include "asm.h"

/* [start, end) of 1-based line `line` in text, or false. */
static bool line_span(const char *text, size_t len, long line, size_t *start, size_t *end)
{
	size_t p = 0;
	for (long l = 1; l < line; l++) {
		const char *nl = memchr(text + p, '\n', len - p);
		if (!nl)
			return false;
		p = (size_t)(nl - text) + 1;
	}
	if (p > len || (p == len && line > 1))
		return false;
	const char *nl = memchr(text + p, '\n', len - p);
	*start = p;
	*end = nl ? (size_t)(nl - text) : len;
	return true;
}

bool asm_line_op(const char *text, size_t len, long line, char *name, size_t name_len)
{
	size_t s, e;
	if (line < 1 || !line_span(text, len, line, &s, &e))
		return false;
	for (long l = line; l >= 1; l--) {
		if (!line_span(text, len, l, &s, &e))
			return false;
		const char *p = text + s;
		size_t n = e - s;
		while (n && (*p == '\t' || *p == ' '))
			p++, n--;
		if (n > 3 && p[0] == '/' && p[1] == '/' && p[2] == ' ' && l != line) {
			size_t k = n - 3;
			if (k >= name_len)
				k = name_len - 1;
			memcpy(name, p + 3, k);
			name[k] = 0;
			return true;
		}
		/* a section change or the descriptor ends the search: not op code
		 * (the file's header comments lie above .text) */
		if (n && (p[0] == '.' && (n >= 5 && (strncmp(p, ".text", 5) == 0 || strncmp(p, ".rodata", 7) == 0 ||
							strncmp(p, ".amdhsa", 7) == 0 || strncmp(p, ".end_", 5) == 0))))
			return false;
		if (n > 1 && p[0] == '-' && p[1] == '-' && p[2] == '-') /* YAML metadata */
			return false;
	}
	return false;
}

void asm_explain(Buf *out, const char *msg, const char *tag, const char *text, size_t len,
	const char *(*op_where)(void *ctx, const char *op), void *ctx)
{
	size_t tl = strlen(tag);
	Buf notes = {0};
	for (const char *p = msg; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		buf_putn(out, p, n);
		if (n > tl + 1 && strncmp(p, tag, tl) == 0 && p[tl] == ':') {
			char *end;
			long line = strtol(p + tl + 1, &end, 10);
			if (end != p + tl + 1 && *end == ':') {
				char op[256];
				if (asm_line_op(text, len, line, op, sizeof op)) {
					const char *where = op_where ? op_where(ctx, op) : NULL;
					buf_printf(&notes, "note: line %ld of the generated assembly is code for graph op '%s'%s%s%s\n",
						line, op, where ? " (" : "", where ? where : "", where ? ")" : "");
				} else {
					buf_printf(&notes, "note: line %ld of the generated assembly is outside the code of any graph op "
							   "(the kernel descriptor or metadata)\n", line);
				}
			}
		}
		p += n;
	}
	if (notes.len)
		buf_printf(&notes, "note: 'wavecc compile -S' writes the generated assembly\n");
	buf_putn(out, notes.data ? notes.data : "", notes.len);
	buf_free(&notes);
}
