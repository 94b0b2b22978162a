/* machine.h — the machine passes: each takes the machine function and
 * nothing else (ir/mir.h), and rewrites it in place.
 *
 * insert_waitcnt and resolve_hazards run after register allocation; their
 * independent checkers re-derive every requirement from the final
 * instruction stream and append what is unmet to msg (a compiler bug: the
 * driver dies with it). None of them reports input errors: by the time a
 * kernel reaches machine code, every input error was reported above. */
#ifndef WAVECC_PASSES_MACHINE_H
#define WAVECC_PASSES_MACHINE_H

#include "../../ir/mir.h"

/* ---- licm.c ---- */
/* Loop-invariant VALU arithmetic out of single-block loops (virtual
 * registers, before allocation); returns how many instructions moved. */
int hoist_invariants(MFunc *f);

/* ---- waitcnt.c ---- */
void insert_waitcnt(MFunc *f);
/* ---- waitcnt_check.c ---- */
/* The independent checker: re-derives the waits every read needs from the
 * final instruction stream; returns unmet requirements (appended to msg). */
int check_waitcnt(const MFunc *f, Buf *msg);

/* ---- hazards.c ---- */
void resolve_hazards(MFunc *f);
/* ---- hazard_check.c ---- */
/* The independent checker: every hazard rule re-derived from the final
 * stream; returns unmet requirements (appended to msg). */
int check_hazards(const MFunc *f, Buf *msg);

#endif
