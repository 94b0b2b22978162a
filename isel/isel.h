/* isel.h — instruction selection state shared by the files of isel/:
 * isel.c (entry, the region walker, loops: it dispatches and nothing calls
 * back into it), values.c (per-thread values and their registers),
 * memory.c (buffer reads and
 * writes with bounds), expr.c (symbolic index expressions → SALU/VALU
 * arithmetic by uniformity), elementwise.c (per-thread arithmetic,
 * conversions, broadcasts; with compare.c, math.c and index.c, which
 * share elt.h), reduce.c (wave and workgroup reductions; reduce_elem.c
 * their per-dtype arithmetic), relayout.c (values moved between layouts
 * through LDS),
 * mma.c (accumulator registers and MFMA). The entry point is
 * select_instructions: the analysed kernel in, a machine function out. */
#ifndef WAVECC_ISEL_H
#define WAVECC_ISEL_H

#include <string.h>

#include "../passes/plan/plan.h"

/* A per-thread value: the n elements of dtype the thread holds, numbered
 * as its NodeIndex numbers them (copy-major). Each d[i] is a one-dword
 * operand (a vreg or one dword of a tuple). 32-bit element e is d[e];
 * 16-bit elements are packed two per dword (element e in d[e/2], low half
 * for even e) and 8-bit ones four (element e in byte e%4 of d[e/4]) when
 * `packed`, else one per dword in the low bits. */
typedef struct TVal {
	DType dtype;
	int64_t n;
	bool packed;
	int nd;
	MOpnd *d;
	const NodeIndex *ix;
	/* every element the same value in every lane (a `register` op): any
	 * layout is had by repeating a dword, none is moved across lanes */
	bool splat;
	/* non-NULL: element e (one a copy, 8-bit, not packed) is byte sel[e]
	 * of dword d[e], which it shares with up to three others (memory.c's
	 * scale dwords); only a scaled MMA's scale operand reads such a value
	 * (its MFMA's op_sel picks the byte) */
	const uint8_t *sel;
} TVal;

/* Elements per dword of v (isel_per_dword) and the dword holding element e. */
static inline int isel_per_dword(const TVal *v) { return v->packed ? 32 / dtype_bits(v->dtype) : 1; }
static inline int isel_elem_dword(const TVal *v, int64_t e) { return (int)(e / isel_per_dword(v)); }

typedef struct ExprCacheEnt {
	Sym *e;
	MOpnd o;
} ExprCacheEnt;

/* extent.c: a dim whose extent a set_symbol set, and the op's symbol */
typedef struct IselExtent {
	Sym *dim, *sym;
} IselExtent;

/* ---- isel.c ---- */
/* The machine function of the analysed kernel c (virtual registers) as
 * plan p says (passes/plan); unsupported ops are reported through
 * analysis_error. */
MFunc *select_instructions(Analysis *c, const Plan *p);

/* elt.c: an i1 word (vreg d, 0 or 1) and the SGPR pair p holding the same
 * condition as a lane mask; the last ISEL_LANEMASKS made are remembered. */
enum { ISEL_LANEMASKS = 16 };
typedef struct IselLaneMask {
	uint32_t d, p;
} IselLaneMask;

typedef struct Isel {
	Analysis *c;
	const Plan *plan; /* what to do with the loops and reads (passes/plan) */
	MFunc *f;
	MBlock *b;        /* where instructions go */
	MBlock *pre;      /* inside a loop: the block before it (loop-invariant code) */
	Sym *iv_sym;      /* inside a loop: its induction variable ... */
	uint32_t iv;      /* ... and the S1 vreg holding it */
	int nouter;       /* nested loops: the enclosing loops' induction */
	Sym *outer_sym[MAX_DIMS]; /* variables and their S1 vregs, outermost first */
	uint32_t outer_iv[MAX_DIMS];
	TVal **val;       /* by Value id */
	int *uses;        /* by Value id: operand uses */
	uint32_t *desc;   /* buffer descriptor vreg per memory argument */
	uint32_t kernarg; /* S2: kernarg segment pointer */
	size_t kernarg_end; /* kernarg_load.c: block 0's index after the entry copies and kernarg loads */
	uint32_t wg_id[3]; /* S1 workgroup ids (UINT32_MAX: not enabled) */
	uint32_t tid_raw; /* V1: packed work-item ids */
	uint32_t tid[3];  /* V1: unpacked, made on first use */
	uint32_t oob;     /* V1: the out-of-range buffer offset, made on first use */
	Vec(ExprCacheEnt) cache; /* expr.c: lowered subexpressions */
	/* expr.c: the relations (each `x OP 0`) of the uniform Piecewise
	 * branch whose value is being lowered, true wherever that value is
	 * used (a divisor's dividend proven >= 0 by one of them), and whether
	 * a proof used one (then nothing lowered there stays cached) */
	Sym *const *guard;
	int nguard;
	bool guard_used;
	struct Staged **staged; /* lds_stage.c: by op id, the LDS tile of a shared read */
	bool acc_agpr;    /* mma.c: accumulators live in AGPRs */
	uint32_t *dyn;    /* expr.c: S1 vreg of each runtime size argument (UINT32_MAX: not loaded) */
	Vec(ExprCacheEnt) setsym; /* control.c: each set_symbol's per-lane symbol and its VGPR
				   * (extent.c: an extent's symbol and its SGPR) */
	Vec(IselExtent) extents;  /* extent.c: the extents set so far, in order */
	Vec(ExprCacheEnt) bounds; /* extent.c: the loop bounds set so far, each symbol and its SGPR (the
				   * latest of a symbol wins) */
	int masked; /* control.c: depth of exec-masked conditional bodies being selected */
	const TVal *wcond; /* control.c: the condition of several elements per lane whose body is being
	                      selected: each write stores only the elements it selects (isel_cond_offset) */
	int lds_top;      /* isel_lds_alloc: the end of the live LDS allocations */
	int lds_dirty;    /* ... and of the space a region that ended used: a
	                     wave may still read it until the next s_barrier */
	IselLaneMask lanemask[ISEL_LANEMASKS]; /* elt.c: a ring, ... */
	int nlanemask;    /* ... of this many made so far */
	struct Pipe *pipe; /* prefetch.c: the innermost loop being prefetched, or NULL */
	struct PfPack *pf_halves; /* pf_pack.c: global reads leave 16-bit pairs unjoined, described here */
	bool vol;                 /* selecting a volatile read or write (memory.c's mubuf) */
	bool agent;               /* selecting an acquire read or a release write (memory.c) */
	const LoopPlan *range;  /* isel.c: the split loop whose main iterate is being selected, or NULL */
	struct IselSplit *split; /* isel.c: a split loop's main iterate selected, its tail next */
	bool *fused;       /* compare.c: by op id, a compare (and the i1 ops after it) that the selects
			    * reading it compute themselves: selected as nothing */
	int *local_base;   /* local.c: by allocate op id, its LDS offset (-1: none yet) */
	bool *local_sync;  /* local.c: by op id, an s_barrier goes before it */
	bool has_alloc;    /* local.c: the kernel holds an allocation (its values differ from workgroup
			    * to workgroup at one coordinate: memory.c's store bounds) */
	bool while_exit;   /* isel.c: the innermost loop is a plain one (no guard-less trip, no
			    * pipelining or split) whose while body may leave it early (control.c) */
	Vec(int) exits;    /* control.c: blocks ending in a branch to the innermost loop's exit block
			    * (isel.c sets their targets when it makes that block) */
	Vec(const Sym *) loop_set; /* control.c: the per-lane symbols of set_symbols inside loops
				    * (values.c: what names them is not hoisted out of a loop) */
} Isel;

/* gfx90a (CDNA2): no fp8 conversions or MFMAs, its own i8 MFMAs. */
static inline bool isel_is_gfx90a(const Isel *s) { return strcmp(s->f->target->name, "gfx90a") == 0; }
/* memory.c: the cache and wait sequences around an acquire read and a
 * release write at agent scope */
void isel_acquire_after(Isel *s);
void isel_release_before(Isel *s);
/* gfx950 (CDNA4): gfx942's code, its own MFMAs, 160 KiB of LDS. */
static inline bool isel_is_gfx950(const Isel *s) { return strcmp(s->f->target->name, "gfx950") == 0; }

/* ---- isel.c ---- */
TVal *isel_tval_new(Isel *s, DType t, int64_t n, const NodeIndex *ix);
MOpnd isel_v1(Isel *s); /* a fresh V1 vreg operand */
bool isel_is_agpr(MOpnd o);
/* kernarg_load.c: op d, kernarg, offset at the top of the entry block (d a fresh vreg). */
void isel_kernarg_load(Isel *s, MOp op, MOpnd d, int64_t offset);
/* d = u, whichever of d and u are AGPRs (v_accvgpr_read/write/mov). */
void isel_mov(Isel *s, MOpnd d, MOpnd u);
/* o, or a VGPR it was read into when it is an AGPR (VALU sources). */
MOpnd isel_vgpr(Isel *s, MOpnd o);
/* v, or a copy of it whose AGPR dwords were read into VGPRs. */
TVal *isel_tval_in_vgprs(Isel *s, TVal *v);
/* The dwords [d0, d0 + w) of v as one tuple: the existing tuple when they
 * already are one, else copies into a new one. */
MOpnd isel_tuple_of(Isel *s, const TVal *v, int d0, int w);
/* dword with its byte p replaced by x's byte 0 (v_perm_b32): 8-bit
 * elements loaded one at a time joined into their packed dword. */
MOpnd isel_insert_byte(Isel *s, MOpnd dword, MOpnd x, int p);
/* Does e mention the loop induction variable? */
bool isel_depends_on_loop(Isel *s, const Sym *e);

/* LDS for a region's own values (cross-wave slots, layout changes:
 * values.c; a stack, each region's allocations freed when the region
 * ends, the function's size its high-water mark): the byte offset of
 * `bytes` more, or -1 past the target's LDS. *reuse: the space was used
 * by a region that ended, so an s_barrier must come before the first
 * write into it (isel_lds_barrier). */
int isel_lds_alloc(Isel *s, int bytes, bool *reuse);
/* The plan's tile of `bytes` at base (passes/plan/lds_place.c) taken on
 * the stack; whether an s_barrier must come before its first write, as
 * isel_lds_alloc's *reuse: the space was used by a region that ended, or
 * by an op done before in an enclosing region (the plan does not see
 * that space, and may place a later region's tiles on it). */
bool isel_lds_place(Isel *s, int base, int bytes);
/* One DS instruction (a store of data, or a load into it) at addr + off;
 * an offset past the 16-bit field goes into the address. */
void isel_ds(Isel *s, MOp mop, MOpnd addr, int64_t off, MOpnd data, bool store);
/* e with $T0 = t0, the other thread and workgroup ids and the loop
 * variables at 0, as an integer in *out; false if it is not one. */
bool isel_at_lane(Analysis *c, Sym *e, int64_t t0, int64_t *out);
/* The s_barrier before writing reused LDS; none is needed after it. */
void isel_lds_barrier(Isel *s);

/* ---- control.c ---- */
/* The walker's region selector, passed in (isel.c calls into the files of
 * isel/, never the other way round). */
typedef void (*IselRegionFn)(Isel *s, Region *r);
/* A conditional: its body (selected by region) under an exec mask or a
 * scalar branch, its results selected. */
void isel_select_conditional(Isel *s, Op *op, IselRegionFn region);
/* Is the conditional's condition the same in every lane of every wave of
 * the workgroup (an expression without work-item ids, or a value the
 * uniformity analysis, passes/graph/uniform.c, proves so)? Its body may then
 * hold barriers: every wave takes the same branch. */
bool isel_cond_uniform(Isel *s, const Op *op);

/* A set_symbol: its per-lane symbol stands for the lane's element of the
 * register in the expressions lowered after it. */
void isel_select_set_symbol(Isel *s, Op *op);
/* memory_counter_wait(_barrier), set_wave_prio, the scheduling barriers. */
void isel_select_hint(Isel *s, Op *op);
/* voff, or the out-of-range offset 0x80000000 where element e of the
 * condition c (in the write's layout) is 0: a write under Isel.wcond. */
MOpnd isel_cond_offset(Isel *s, const TVal *c, int64_t e, MOpnd voff);

/* ---- extent.c ---- */
/* A set_symbol of a distributed dim (value v): the dim's extent from here
 * on, an SGPR. */
void isel_set_extent(Isel *s, Op *op, TVal *v);
/* A set_symbol of a symbol a loop's start or iters uses (op_sets_loop_bound):
 * the value, read into an SGPR and clamped to the symbol's launch range,
 * stands for the symbol in what is lowered after it (Isel.bounds). */
void isel_set_loop_bound(Isel *s, Op *op, TVal *v);
/* The symbol of dim's current set extent, or NULL (the launch extent). */
Sym *isel_extent_of(const Isel *s, const Sym *dim);
/* The trip count of the loop t as the kernel computes it now: over the
 * dim's set extent, if any. */
Sym *isel_loop_count(Isel *s, const TileLoop *t);
/* ---- prefetch.c ---- */
/* A loop under the prefetch schedule: its body, the prologue block (after
 * the trip-count guard, before the loop), the last trip, the LDS buffers
 * per staged tile; lds_stage.c's staged tiles and their carried registers. */
/* pf_pack.c: how a carried 16-bit tile's dwords come from its loaded
 * halves: dword k is v_perm_b32(raw[hi[k]], raw[lo[k]], sel), or raw[lo[k]]
 * itself where hi[k] is -1; n dwords are packed. */
typedef struct PfPack {
	int nd, n;
	int *hi, *lo;
	uint32_t sel;
	const struct TVal *shape; /* the tile as memory.c would have joined it */
} PfPack;

typedef struct Pipe {
	Region *body;
	const LoopPlan *lp; /* what the plan asked for */
	MBlock *prol;
	Sym *last;
	int nbuf;
	size_t n;        /* lds_stage.c: the staged reads ... */
	Op **ops;
	NodeIndex *gx;   /* ... their cooperative loads' index ... */
	TVal **r;        /* ... and the registers holding the next trip's tiles (their halves: pf_pack.c) ... */
	TVal **shape;    /* ... the tiles as the loads made them ... */
	PfPack *pack;    /* ... and how r packs into them */
	size_t ng;       /* global reads of the body prefetched into registers ... */
	Op **gops;
	TVal **gnext;    /* ... the registers holding their next trip's values */
	bool four;       /* four_stage.c: the staged reads run a trip ahead ... */
	TVal **lnext;    /* ... into these registers (by p->ops' order) */
	bool staged;     /* lds_stage.c: staged once (a split loop's tail continues the pipe) ... */
	int lds_top;     /* ... and the LDS stack's top after its tiles */
} Pipe;
/* pf_pack.c: memory.c's loads of v (its lo halves in v's dwords, the hi
 * halves in hi, MO_NONE for a dword loaded whole) left unjoined: the
 * registers to carry, and into *pk how they pack; v itself when no pair. */
TVal *isel_pf_halves(Isel *s, const TVal *v, const MOpnd *hi, PfPack *pk);
/* The carried halves raw packed as shape (new registers), or raw itself. */
TVal *isel_pf_pack(Isel *s, const TVal *shape, const TVal *raw, const PfPack *pk);
bool isel_pf_pack_same(const PfPack *a, const PfPack *b);
/* The global reads of body r that p prefetches (PLAN_READ_PREFETCHED). */
void isel_pf_plan_globals(Isel *s, Region *r, Pipe *p);
/* In the prologue: their values for trip 0 into p->gnext. */
void isel_pf_globals_prologue(Isel *s, Pipe *p);
/* op's value in this trip (a copy of p->gnext), and the load of the next
 * trip's into p->gnext; NULL when op is not prefetched. */
TVal *isel_pf_global_read(Isel *s, Op *op);
/* The Pipe of loop op over tile t, pipelined as lp plans, with the
 * prologue block appended to the function. */
Pipe *isel_pf_new(Isel *s, const TileLoop *t, Op *op, const LoopPlan *lp);
typedef struct PfSave {
	uint32_t iv;
	ExprCacheEnt *data;
	size_t len, cap;
} PfSave;
/* Lower what follows (until isel_pf_end) for trip min(iv + ahead, last)
 * (ahead 0: the current trip), with a cache of the loop-invariant entries. */
void isel_pf_begin(Isel *s, int ahead, PfSave *sv);
void isel_pf_end(Isel *s, PfSave *sv);
/* v, or a copy in distinct VGPRs: a register set a later load can refill. */
TVal *isel_pf_carried(Isel *s, TVal *v);
/* The freshly loaded value fresh into the carried registers (copies,
 * which coalesce_copies folds into the loads). */
void isel_pf_into(Isel *s, const TVal *fresh, const TVal *carried);

/* ---- bitcast.c ---- */
void isel_select_bitcast(Isel *s, Op *op);

/* ---- scan.c ---- */
void isel_select_scan(Isel *s, Op *op);

/* ---- index_expr.c ---- */
/* apply_expr on 32-bit integer registers (the minimum a conditional's
 * condition needs), and 32-bit integer scalars of an expression (scalar
 * kernel arguments); false if the op is not one it handles. */
bool isel_select_index_expr(Isel *s, Op *op);

/* ---- memory.c ---- */
/* The elements ix gives of global tensor mem (buffer loads with bounds);
 * NULL after reporting. op locates errors. */
TVal *isel_read_global(Isel *s, Op *op, Value *mem, const NodeIndex *ix);
/* gfx950's direct-to-LDS loads of index gx of mem (an LDS tile's
 * cooperative load): does each copy make one 16-byte run (fits), and
 * their buffer_load_dwordx4 ... lds, copy cn to the LDS byte address
 * lds[cn] (S1) for the wave's first lane, 16 bytes per lane on. */
bool isel_lds_dma_fits(Isel *s, Op *op, Value *mem, const NodeIndex *gx);
void isel_read_global_lds(Isel *s, Op *op, Value *mem, const NodeIndex *gx, const MOpnd *lds);

/* ---- dynmap.c ---- */
/* The dynamic values of op's mapping m gathered into ix's element order
 * (NULL when m has none, or after reporting: check s->c->failed). */
TVal **isel_dyn_values(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix);
/* dynamic value d a self_index: each access element's coordinate, or NULL
 * when that case does not apply (dynself.c) */
TVal *isel_dyn_self_index(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix, int d, const Value *x);
/* from/to substitutions binding m's dynamic-value symbols to element e's
 * dwords (symbols expr.c lowers); returns how many. */
int isel_dyn_bind(Isel *s, const Mapping *m, TVal *const *dv, int64_t e, Sym **from, Sym **to);
/* A dynamic value's dword stands in expressions as the symbol
 * "$DV<vreg>_<dword>" (per lane; expr.c lowers it to that VGPR). Inline:
 * expr.c and values.c ask, and dynmap.c depends on them. */
#define ISEL_DYN_PREFIX "$DV"
static inline bool isel_is_dyn_sym(const Sym *e)
{
	return sym_kind(e) == SYM_SYMBOL && strncmp(sym_name(e), ISEL_DYN_PREFIX, sizeof ISEL_DYN_PREFIX - 1) == 0;
}

/* ---- lds_stage.c ---- */
/* Stage the shared-memory reads directly in region r through LDS (global
 * loads, barriers, LDS writes), before the region's ops; in_loop: r is the
 * body of a loop of more than one trip. */
void isel_stage_shared(Isel *s, Region *r, bool in_loop);
/* After the region's ops: a prefetched loop's next LDS tiles and loads. */
void isel_stage_shared_end(Isel *s, Region *r);
/* The elements ix gives of mem, read from its staged LDS tile. */
TVal *isel_read_shared(Isel *s, Op *op, Value *mem, const NodeIndex *ix);
/* The same for staged read op from the buffer of trip iv + ahead (a
 * prefetched loop's two buffers). */
TVal *isel_read_shared_ahead(Isel *s, Op *op, int ahead);

/* ---- four_stage.c ---- (lds_stage.c reads the tiles, so that this file
 * needs nothing of lds_stage.c) */
/* Does prefetched loop p (its staged reads and buffers placed) take the
 * four_stage schedule the plan asks for? Counts it when it does. */
bool isel_fs_fits(Isel *s, Pipe *p);
/* In the prologue: v, trip 0's read of p->ops[i] (lowered since
 * instruction first), kept in carried registers p->lnext[i]. */
void isel_fs_keep(Isel *s, Pipe *p, size_t i, size_t first, TVal *v);
/* In the body: staged read op's value in this trip (in p->lnext); NULL
 * when op does not run ahead. */
TVal *isel_fs_shared_read(Isel *s, Op *op);
/* At the body's end: v, the next trip's read of p->ops[i], into
 * p->lnext[i]. */
void isel_fs_into(Isel *s, Pipe *p, size_t i, size_t first, TVal *v);
void isel_select_write(Isel *s, Op *op);
/* memory.c: the elements of an access one by one (atomic.c) */
typedef void (*IselElemFn)(Isel *s, Op *op, void *ctx, int64_t e, uint32_t desc, MOpnd soff, MOpnd voff, int64_t imm);
bool isel_each_element(Isel *s, Op *op, Value *mem, const NodeIndex *ix, IselElemFn fn, void *ctx);
/* The lane offset voff where all n conds hold, else one past the buffer's
 * range (the access is dropped, a load or returning atomic gives 0). */
MOpnd isel_offset_where(Isel *s, Op *op, MOpnd voff, int n, Sym *const *conds);
/* The bounds that keep a store's element (at coordinate co along register
 * dim `dim`) inside its window, into rel (at most 2; returns how many):
 * with `wave`, the wave's window along a workgroup dim and the trip's
 * inside the iterate over dim, else the workgroup's tile along a dim split
 * over several workgroups. Lanes past a window hold elements another wave,
 * trip or workgroup owns (a wave tile below the 64 lanes' run or the
 * MMA's), which the interpreter stores from that one only. */
int isel_window_conds(Isel *s, Op *op, Sym *dim, Sym *co, bool wave, Sym **rel);
/* atomic.c: atomic_add and atomic_min to global memory */
void isel_select_atomic_add(Isel *s, Op *op);
/* Element (cn, j) of ix: the lane bits over which every lane of a wave
 * holds the same coordinates (a reduction's result), whose copies combine
 * once; -1 where the lanes' coordinates cannot be told apart by bits. */
int64_t isel_repeat_bits(Analysis *c, const NodeIndex *ix, int64_t cn, int64_t j);

/* ---- local.c: allocations (Wave's tkw.allocate) in LDS ---- */
/* Before selection: which ops need an s_barrier before them (the
 * accesses of allocations in program order) and the allocations' table. */
void isel_local_plan(Isel *s);
/* Before op: its s_barrier, if the plan put one there. */
void isel_local_sync(Isel *s, Op *op);
void isel_select_allocate(Isel *s, Op *op);
void isel_select_barrier(Isel *s, Op *op);
void isel_select_local_read(Isel *s, Op *op);
void isel_select_local_write(Isel *s, Op *op);
/* atomic_add, atomic_min, scatter_add on an allocation */
void isel_select_local_combine(Isel *s, Op *op);

/* ---- expr.c ---- */
/* e = lane + uni: lane holds the terms that depend on a work-item id. */
void isel_expr_split(Isel *s, Sym *e, Sym **lane, Sym **uni);
/* An operand holding e's value: an immediate, an S1 vreg (wave-uniform) or
 * a V1 vreg (per lane). Loop-invariant parts go before the loop.
 * Unsupported forms are reported at loc. */
MOpnd isel_expr_lower(Isel *s, Sym *e, Loc loc);
/* e computed in the entry block (wave-uniform e of runtime sizes). */
MOpnd isel_expr_lower_entry(Isel *s, Sym *e, Loc loc);
MOpnd isel_expr_to_sgpr(Isel *s, MOpnd o); /* immediates moved into an SGPR */
MOpnd isel_expr_to_vgpr(Isel *s, MOpnd o); /* immediates and SGPRs into a VGPR */
/* vcc = the relation cond (over work-item/workgroup ids) per lane. */
void isel_expr_cond_to_vcc(Isel *s, Sym *cond, Loc loc);
/* A lane mask (S2 vreg or vcc when *in_vcc) that is the AND of conds;
 * false when there are none. */
bool isel_expr_conds_mask(Isel *s, int n, Sym *const *conds, Loc loc, uint32_t *mask, bool *in_vcc);

/* ---- relayout.c ---- */
/* v moved into the layout ix through LDS (every wave of the workgroup
 * takes part); NULL after reporting at op. */
TVal *isel_relayout(Isel *s, const TVal *v, const NodeIndex *ix, Op *op);

/* ---- elementwise.c ---- */
/* Select a non-memory, non-reduction op; false if it is not supported. */
bool isel_select_elementwise(Isel *s, Op *op);
/* v rearranged to the element order of ix (elements matched by their
 * coordinates); NULL after reporting when some element has no source. */
TVal *isel_tval_gather(Isel *s, const TVal *v, const NodeIndex *ix, Op *op);
/* Whether a and b hold the same elements in the same order (elt.c). */
bool isel_same_index(const NodeIndex *a, const NodeIndex *b);

/* ---- index.c ---- */
/* A constant register of f16, bf16, u32 or i1; false for the other
 * dtypes (mma.c's isel_select_register). */
bool isel_select_const_register(Isel *s, Op *op);

/* ---- dot.c: mma ops of Wave's GenericDot type ---- */
void isel_select_dot(Isel *s, Op *op);

/* ---- topk.c ---- */
void isel_select_topk(Isel *s, Op *op);

/* ---- reduce.c ---- */
void isel_select_reduce(Isel *s, Op *op);

/* ---- mma.c ---- */
/* Does isel compile MMA type mt on operands of dtype t for processor proc
 * ("gfx942", "gfx90a", "gfx950")? The rule isel_select_mma applies. */
bool isel_mma_supported(MmaType mt, DType t, const char *proc);
void isel_select_register(Isel *s, Op *op);
void isel_select_mma(Isel *s, Op *op);
/* scaled_mma on gfx950 (v_mfma_scale_f32_*_f8f6f4; mma.c). */
void isel_select_scaled_mma(Isel *s, Op *op);
/* Whether the accumulators of region r's MMAs go to AGPRs. */
bool isel_acc_in_agprs(Isel *s, Region *r);

/* index64.c: reports and returns false when op takes or makes i64 values
 * it cannot compile as proven 32-bit words (select_op asks first). */
bool isel_i64_guard(Isel *s, Op *op);

#endif
