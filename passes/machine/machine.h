/* machine.h — the machine passes: each takes the machine function and
 * nothing else (ir/mir.h), and rewrites it in place.
 *
 * sched_schedule runs before register allocation; insert_waitcnt and
 * resolve_hazards after it; their
 * independent checkers re-derive every requirement from the final
 * instruction stream and append what is unmet to msg (a compiler bug: the
 * driver dies with it). None of them reports input errors: by the time a
 * kernel reaches machine code, every input error was reported above. */
#ifndef WAVECC_PASSES_MACHINE_H
#define WAVECC_PASSES_MACHINE_H

#include "../../ir/mir.h"

/* ---- priority.c ---- */
/* s_setprio 1 before the first and s_setprio 0 after the last MFMA noted
 * with one of names[0, n) (graph op names: the plan's raised MMAs) in each
 * single-block loop (after register allocation); the loops changed. */
int raise_priorities(MFunc *f, const char *const *names, int n);

/* ---- sched.c ---- */
/* The list scheduler (before register allocation): reorders instructions
 * inside each block's regions between fences, keeping every dependence. */
/* One group of an asked instruction order: `count` instructions of class
 * cls (isa_class_name). */
enum { SCHED_MAX_GROUPS = 16 };
typedef struct SchedGroup {
	int cls; /* MClass */
	int count;
} SchedGroup;
typedef struct SchedOptions {
	int limit;  /* VGPR + AGPR dwords live at most; 0: the largest that keeps
	               the original order's waves per SIMD, less margin */
	int margin; /* dwords below that default limit (and the VGPR file) */
	int cap;    /* VGPR + AGPR dwords a wave may hold at all (a workgroup whose
	               waves share a SIMD; 0: none): a region whose original order
	               goes past cap - margin takes a schedule within it even if
	               the model finds it slower */
	int simd_waves; /* the workgroup's waves on each SIMD (more than 4 waves), which
	                   share its LDS pipe; 0 or 1: one */
	/* the order asked for within a loop's trip (the "interleave" option):
	 * groups filled in turn, cyclically; 0 groups: the scheduler's own */
	int ngroups;
	SchedGroup groups[SCHED_MAX_GROUPS];
} SchedOptions;
/* "mfma:1,lds:2,vmem-load:1" (class names of isa_class_name, counts >= 1)
 * into o's groups; 0, or -1 with the reason in err. */
int sched_groups_parse(const char *text, SchedOptions *o, Buf *err);
/* Returns the number of regions reordered (0 on an allocated function). */
int sched_mfunc(MFunc *f, const SchedOptions *o);
/* Does the instruction stay in place as a region boundary? */
bool sched_is_fence(const MFunc *f, const MInst *in);
/* The largest VGPR + AGPR pressure that keeps the waves per SIMD a pressure
 * of `peak` allows, at most file_cap. */
int sched_occupancy_limit(int peak, int file_cap);
/* ---- licm.c ---- */
/* Loop-invariant VALU arithmetic out of single-block loops (virtual
 * registers, before allocation); returns how many instructions moved. */
int hoist_invariants(MFunc *f);
/* ---- cse.c ---- */
/* Local value numbering (virtual registers, before allocation): a pure
 * instruction or compare that recomputes a value its block holds is
 * removed; returns how many went. */
int eliminate_redundant(MFunc *f);

/* ---- branch.c ---- */
/* The dwords a short branch reaches forward (one more backward). */
enum { RELAX_REACH = 32767 };
/* Branches whose target lies beyond `reach` dwords (0 or more than
 * RELAX_REACH: RELAX_REACH; at least 6) made long (ir/mir.h), after register
 * allocation, as the last machine pass. Returns how many, or -1 when no
 * SGPR pair is free for one (then *where, if where is not NULL, is the
 * branch's note: its graph op). */
int relax_branches(MFunc *f, int reach, const char **where);

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
