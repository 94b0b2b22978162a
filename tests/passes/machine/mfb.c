/* mfb.c — helpers for the machine-pass suites (see mfb.h). */
#include "mfb.h"

MInst *emit(MBlock *b, MOp op, const MOpnd *defs, int ndef, const MOpnd *uses, int nuse)
{
	return mblock_add(b, op, ndef, defs, nuse, uses);
}

MFunc *mfb_new(const Target *t)
{
	MFunc *f = mfunc_new("t", t);
	f->allocated = true;
	return f;
}

void run_waitcnt(MFunc *f)
{
	insert_waitcnt(f);
}

void run_hazards(MFunc *f)
{
	resolve_hazards(f);
}

int count_op(const MFunc *f, MOp op)
{
	int n = 0;
	for (size_t b = 0; b < f->blocks.len; b++)
		for (size_t i = 0; i < f->blocks.data[b]->insts.len; i++)
			n += f->blocks.data[b]->insts.data[i].op == op;
	return n;
}

MInst *nth_op(MFunc *f, MOp op, int n)
{
	for (size_t b = 0; b < f->blocks.len; b++)
		for (size_t i = 0; i < f->blocks.data[b]->insts.len; i++)
			if (f->blocks.data[b]->insts.data[i].op == op && n-- == 0)
				return &f->blocks.data[b]->insts.data[i];
	return NULL;
}

int nops_before(const MFunc *f, size_t b, size_t i)
{
	int n = 0;
	const MBlock *bl = f->blocks.data[b];
	while (i-- > 0 && bl->insts.data[i].op == I_S_NOP)
		n += (int)bl->insts.data[i].use[0].imm + 1;
	return n;
}

const char *mfb_text(const MFunc *f)
{
	static char text[16384];
	Buf b = {0};
	mir_print(&b, f);
	snprintf(text, sizeof text, "%s", buf_cstr(&b));
	buf_free(&b);
	return text;
}
