/* source.c — which graph op each instruction of a compiled kernel came
 * from, so `wavecc profile` can report hot spots by op and name loops by
 * their iterate op.
 *
 * The compiler's assembly groups the instructions of each graph op under a
 * comment line `// OPNAME` (asm/origin.c reads the same convention). The
 * code object holds the same instructions in the same order. Algorithm:
 * walk the assembly text from the kernel's label to its end, taking every
 * line that is not a comment, label or directive as one instruction and
 * remembering the nearest op comment above it; decode the code bytes from
 * the kernel's entry in step (the emulator's decoder gives each
 * instruction's size), pairing the n-th instruction line with the n-th
 * decoded instruction. Each pair must agree on the mnemonic (suffixes such
 * as _e32/_e64 aside); alignment padding the assembler inserted (s_nop)
 * is skipped. Any other disagreement abandons the map: no attribution is
 * better than a wrong one. tm_source_offsets writes the text back with
 * each paired line's offset appended as a comment (`compile -S
 * --offsets`), the offsets `profile` prints. */
#include <string.h>

#include "../emu/emu_int.h"
#include "timing_int.h"

/* The mnemonic without an encoding suffix, into buf. */
static void base_mnemonic(const char *s, size_t n, char *buf, size_t len)
{
	static const char *const suffix[] = {"_e32", "_e64", "_sdwa", "_dpp"};
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		size_t k = strlen(suffix[i]), m = strlen(buf);
		if (m > k && strcmp(buf + m - k, suffix[i]) == 0)
			buf[m - k] = 0;
	}
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

int tm_source_map(EmuArch arch, const uint8_t *code, size_t code_len, const char *text, size_t text_len,
	const char *kernel, TmSourceMap *m)
{
	memset(m, 0, sizeof *m);
	char label[256];
	snprintf(label, sizeof label, "%s:", kernel);
	const char *p = text, *end = text + text_len, *note = NULL;
	bool in = false;
	size_t off = 0;
	Vec(uint64_t) offs = {0};
	Vec(size_t) ends = {0};
	Vec(const char *) ops = {0};
	int rc = 0;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *s = skip_ws(p, le);
		size_t n = (size_t)(le - s);
		p = nl ? nl + 1 : end;
		if (!in) {
			in = n == strlen(label) && memcmp(s, label, n) == 0;
			continue;
		}
		if (n == 0)
			continue;
		if (n >= 3 && s[0] == '/' && s[1] == '/') {
			note = intern_n(s + 3, n - 3);
			continue;
		}
		if (s[0] == '.') {
			/* the kernel's end: its size directive or another section */
			if ((n >= 5 && memcmp(s, ".size", 5) == 0) || (n >= 8 && memcmp(s, ".section", 8) == 0) ||
				(n >= 7 && memcmp(s, ".rodata", 7) == 0) || (n >= 5 && memcmp(s, ".text", 5) == 0))
				break;
			if (s[n - 1] == ':') /* a local label */
				continue;
			continue; /* another directive: no code */
		}
		if (s[n - 1] == ':')
			continue;
		size_t w = strcspn(s, " \t/");
		if (w > n)
			w = n;
		char want[64], got[64];
		base_mnemonic(s, w, want, sizeof want);
		for (int pad = 0;; pad++) {
			Inst in_ = {0};
			int words = off < code_len ? emu_decode(arch, code + off, code_len - off, &in_) : 0;
			if (words <= 0) {
				rc = -1;
				break;
			}
			const char *name = isa_info[in_.id].name;
			base_mnemonic(name, strlen(name), got, sizeof got);
			if (strcmp(want, got) == 0) {
				vec_push(&offs, (uint64_t)off);
				vec_push(&ends, (size_t)(le - text));
				vec_push(&ops, note);
				off += (size_t)words * 4;
				break;
			}
			if (strcmp(got, "s_nop") != 0 || pad == 16) {
				rc = -1;
				break;
			}
			off += (size_t)words * 4; /* alignment padding */
		}
	}
	if (rc != 0 || offs.len == 0) {
		vec_free(&offs);
		vec_free(&ends);
		vec_free(&ops);
		return -1;
	}
	m->n = offs.len;
	m->offset = offs.data;
	m->line_end = ends.data;
	m->op = ops.data;
	return 0;
}

char *tm_source_offsets(const char *text, size_t text_len, const TmSourceMap *m, size_t *out_len)
{
	Buf b = {0};
	size_t at = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->line_end[i] < at || m->line_end[i] > text_len)
			break;
		buf_putn(&b, text + at, m->line_end[i] - at);
		buf_printf(&b, "  // +0x%04llx", (unsigned long long)m->offset[i]);
		at = m->line_end[i];
	}
	buf_putn(&b, text + at, text_len - at);
	buf_cstr(&b);
	*out_len = b.len;
	return b.data;
}

const char *tm_source_op(const TmSourceMap *m, uint64_t offset)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->offset[mid] < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->offset[lo] == offset ? m->op[lo] : NULL;
}

void tm_source_map_free(TmSourceMap *m)
{
	free(m->offset);
	free(m->line_end);
	free(m->op);
	memset(m, 0, sizeof *m);
}
