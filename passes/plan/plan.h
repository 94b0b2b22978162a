/* plan.h — the loop plan: what happens to each loop and to the values in
 * it, decided before instruction selection (plan_loops) and translated by
 * isel without further choices of its own.
 *
 * The level sits between the analysed graph (passes/graph/analysis.h) and
 * the machine IR (ir/mir.h). For each iterate op it says how the loop is
 * software-pipelined (Wave's `schedule` option: prefetch, four_stage), how
 * many LDS buffers its staged tiles get, whether it is split into an
 * unmasked main loop and a masked tail, which of its global reads are
 * loaded a trip ahead and which once before it; for the kernel, which
 * boolean apply_exprs the index ranges decide (folded masks), and where
 * every staged LDS tile of the kernel lies: its offset, buffers and layout
 * (padded or swizzled). `wavecc compile --dump-plan` prints it
 * (plan_print.c); tests read the printed plan. Selection reports nothing
 * back: the driver's lighter-form search (plan_lighten) reads the plan to
 * make the next one. */
#ifndef WAVECC_PLAN_H
#define WAVECC_PLAN_H

#include "../graph/analysis.h"
#include "lds_layout.h"

/* How a loop is software-pipelined (Wave's schedule option, resolved). */
typedef enum PipeKind { PIPE_NONE, PIPE_PREFETCH, PIPE_FOUR_STAGE } PipeKind;

/* What plan_loops decided for one read op (Plan.read, by op id). */
enum {
	PLAN_READ_PREFETCHED = 1, /* a global read loaded a trip ahead, into carried registers */
	PLAN_READ_HOISTED = 2,    /* a loop-invariant global read loaded once before its loop */
	PLAN_READ_FUSED = 4,      /* read by the bitcast that is its one use (its index dropped) */
};

/* The lighter-form steps taken (plan_lighten), in the order they are
 * tried: no loop split (UNPEELED), four_stage as prefetch with two LDS
 * buffers (TWO_BUFFERS), one buffer (ONE_BUFFER), no pipelining but the
 * hoisting kept (UNPIPED), no pipelining and no hoisting (PLAIN). */
typedef enum PlanLight {
	LIGHT_NONE,
	LIGHT_UNPEELED,
	LIGHT_TWO_BUFFERS,
	LIGHT_ONE_BUFFER,
	LIGHT_UNPIPED,
	LIGHT_PLAIN
} PlanLight;

typedef struct LoopPlan {
	const Op *op;        /* the iterate */
	const TileLoop *t;
	PipeKind pipe;       /* PIPE_NONE: the loop runs as written */
	int lds_stages;      /* LDS buffers per staged tile: 1 or 2 (asked for, then as placed: lds_place.c) */
	bool staged;         /* its body stages shared reads through LDS */
	/* the split: main loop over the whole tiles F (an integer or an
	 * expression of runtime sizes) less the trips its loads read ahead,
	 * then a masked tail; the proofs are the bound analysis' over the
	 * trips [0, F) (passes/graph/trip_range.c) */
	bool peel;
	bool peel_unpiped;   /* it would be split if it were not pipelined */
	Sym *whole;
	/* the most trips ahead of the current one its loads read (0 unpipelined,
	 * 1 a prefetched global read, 2 a staged tile, 3 under four_stage), and
	 * the split's main loop count: trips [0, split) run unmasked, every trip
	 * any of their loads reads below the whole tiles (F - ahead, at most the
	 * trips less one: the tail keeps a trip) */
	int ahead;
	Sym *split;
	/* diag_split.c: the split is causal attention's at the diagonal (the
	 * main loop's selects of Plan.diag_true pick their if_true operand;
	 * no load bound is dropped), its main count min(L, trips) */
	bool diag;
	Sym *diag_split;
} LoopPlan;

/* A staged read's LDS tile (lds_tiles.c): the workgroup's box of the
 * tensor, the cooperative load that fills it, and its two layouts, by
 * layout number: 0 rows padded, 1 unpadded (swizzled where swz allows). */
typedef struct PlanTile {
	const Op *op;             /* the read */
	const char *error;        /* why it cannot be staged (reported where isel stages it), or NULL */
	int es;                   /* element bytes */
	int rank;
	Sym *dims[MAX_DIMS];      /* the box's dims: the memory's, or a mapped read's register dims */
	Sym *start[MAX_DIMS];     /* the box's first coordinate per dim */
	int64_t extent[MAX_DIMS]; /* the box */
	int64_t rows;             /* LDS rows along the outermost dim > 1 (with the last round's tail) */
	int64_t vec;              /* elements per chunk of the cooperative load ... */
	NodeIndex gx;             /* ... and its index */
	int64_t stride[2][MAX_DIMS]; /* LDS elements per step along each dim, per layout */
	int64_t bytes[2];         /* a buffer's bytes per layout, multiples of 16 */
	LdsSwizzle swz;           /* layout 1's swizzle; row_bytes 0: the tile stays padded */
	bool tr;                  /* gfx950: a mapped read staged over the memory's dims, read with
	                             the transposing DS reads (lds_tr.c; never swizzled) */
	int tb;                   /* > 0: a mapped 16-bit read whose register row (K) runs across the
	                             memory's rows, loaded in blocks (lds_tiles.c, tb_index): gx is over
	                             the memory's dims, each lane tb rows of K by a chunk along the
	                             memory's row, and the writes transpose them (isel/lds_stage.c) */
} PlanTile;

/* Where a staged read's tile or an allocation lies in LDS (lds_place.c;
 * Plan.lds, by op id): its first byte, its buffers (one after the other,
 * buf_bytes each) and a tile's layout, or why it cannot be placed. */
typedef struct PlanLds {
	int base;           /* bytes from the start of LDS */
	int nbuf;           /* 1, or 2 for a pipelined loop's tile (0: not placed) */
	int layout;         /* 0 rows padded, 1 unpadded and swizzled (PlanTile.swz), 2 unpadded (gfx950's
			     * direct-to-LDS loads) */
	int64_t buf_bytes;  /* an allocation's: its elements and the bytes out-of-bounds lanes address */
	const char *error;  /* reported where selection stages the read or allocates, or NULL */
} PlanLds;

/* Bytes per wave after an allocation that its lanes out of bounds write
 * (16 more they read; isel/local.c). */
enum { PLAN_LOCAL_TRASH_BYTES = 16 };

/* What a plan asks for, counted (the driver's lighter-form search and the
 * assembly's header read it). */
typedef struct PlanSummary {
	int prefetched;    /* loops pipelined */
	int lds_doubled;   /* of those, loops whose tiles get two LDS buffers */
	int four_staged;   /* of those, loops whose LDS reads run a trip ahead */
	int hoisted_reads; /* reads loaded before their loop */
	int peeled;        /* loops split into a main loop and a masked tail */
} PlanSummary;

/* A read plan_loops hoists (PLAN_READ_HOISTED): the region it is written
 * in and its place there, and the loop it is loaded before (hoist.c). */
typedef struct PlanHoist {
	Op *read;
	Region *home;
	size_t place;
	Op *loop;
} PlanHoist;

typedef struct Plan {
	int nloops;
	LoopPlan *loop;      /* in graph order (outer loops before the loops they hold) */
	int *loop_of;        /* by op id: the iterate's index in loop, or -1 */
	int nops;
	uint8_t *read;       /* by op id: PLAN_READ_* */
	PlanTile **tile;     /* by op id: the LDS tile of a staged read, else NULL */
	PlanLds *lds;        /* by op id: where a staged read's tile lies (lds_place.c) */
	int swizzled;        /* regions whose tiles are laid out unpadded, swizzled ... */
	int lds_padded;      /* ... and the LDS the tiles took padded, at most (past the target's: did not fit) */
	int lds_bytes;       /* the LDS the tiles take, at most */
	int nvalues;
	int8_t *konst;       /* by value id: a folded boolean apply_expr (1 false, 2 true), else 0 */
	uint8_t *diag_true;  /* by op id: a select whose condition holds in every main trip of its diag-split loop */
	int nhoist;          /* the reads hoisted, in graph order (hoist_reads moves them; */
	PlanHoist *hoist;    /*   PLAN_READ_HOISTED says which still are) */
	ScheduleKind schedule; /* the kernel's schedule now (Wave's name), for the assembly's header */
	bool yields;         /* the pipelining gives way where it costs spills or waves */
	bool swizzle;        /* staged tiles may be laid out swizzled where that pays */
	bool split;          /* loops may be split (off after the UNPEELED step) */
	bool licm;           /* hoist_invariants runs (machine-level hoisting) */
	PlanLight light;     /* the lighter-form steps taken so far */
	PlanSummary sum;     /* what it asks for, counted */
	int nahead;          /* qk_ahead.c: loops whose first chained MMA runs a trip ahead, */
	const Op **ahead;    /*   as pairs (iterate, the MMA) */
	const char **raised; /* the MMAs whose MFMAs run at raised wave priority (pingpong.c), by name (isel's notes) */
	int nraised;
} Plan;

/* ---- pingpong.c ---- */
/* Plan.raised: the MMAs of each loop body whose lhs or rhs the body computes
 * from another of its MMAs (attention's P·V after Q·Kᵀ). */
void plan_pingpong(Analysis *c, Plan *p, const Region *body);

/* ---- qk_ahead.c ---- */
/* The first MMA of each loop's chained pair (attention's Q·Kᵀ) computed a
 * trip ahead, its product carried (a graph rewrite; Plan.ahead records
 * the loops). Runs on the view's own graph, before the loops are planned. */
void plan_qk_ahead(Analysis *c, Plan *p);
bool plan_qk_ahead_wanted(Analysis *c);
/* The MMA loop computes a trip ahead, or NULL. */
static inline const Op *plan_ahead_mma(const Plan *p, const Op *loop)
{
	for (int i = 0; p && i < p->nahead; i++)
		if (p->ahead[2 * i] == loop)
			return p->ahead[2 * i + 1];
	return NULL;
}

/* ---- plan.c ---- */
/* The plan of the analysed kernel c under its resolved options (c->opts:
 * the schedule, its LDS stages, what was asked), allocated in c's arena;
 * staging problems are recorded in the tiles, not reported. */
Plan plan_loops(Analysis *c);
/* The plan of loop op, or NULL. */
static inline LoopPlan *plan_loop(const Plan *p, const Op *op)
{
	return p && p->loop_of && op->id < p->nops && p->loop_of[op->id] >= 0 ? &p->loop[p->loop_of[op->id]] : NULL;
}
/* A copy of p whose loops and reads can be changed without changing p's. */
Plan plan_copy(const Plan *p, Arena *a);
/* One step lighter than p (machine_hoisted: instructions hoist_invariants
 * moved in the function selected from it); false when no step is left. The
 * steps, in order: a split loop is selected whole (a split keeps both forms
 * of the loads' offsets live); four_stage gives way to prefetch with two
 * buffers, then one (where the pipelining yields); then no pipelining and
 * no hoisting at all. */
bool plan_lighten(Analysis *c, Plan *p, int machine_hoisted);
/* p with its tiles laid out padded everywhere (placed again). */
void plan_no_swizzle(Analysis *c, Plan *p);
/* The trips of split loop lp's main loop and how far its loads read
 * ahead: [0, lp->split), lp->ahead. A bound the bound analysis proves over
 * it (analysis_range_proves) holds in every load of the main loop. */
TripRange plan_main_range(const LoopPlan *lp);

/* diag_split.c: is loop (lp's) split at causal attention's diagonal? Sets
 * lp->diag, lp->diag_split and p->diag_true of the body's selects. */
bool plan_diag_split(Analysis *c, Plan *p, LoopPlan *lp, const Op *loop);
/* May a load of read op be moved away from it (a trip ahead, or before
 * the loop)? A plain read (no mapping) of a global tensor nothing in the
 * kernel writes, of at most 4-byte elements (index64.c's checks run where
 * the op is). And does its index mention iv? */
bool plan_movable_read(Analysis *c, const Op *op);
bool plan_read_moves_with(Analysis *c, const Op *op, const Sym *iv);

/* ---- split.c ---- */
/* The analysed graph as p says: each loop p splits followed by its tail, a
 * second iterate (Op.tail, Op.cont; the tails of earlier plans gone), p's
 * tables and c's indices grown to the tails' ids. Done before each
 * selection from p, after plan_hoist_reads. */
void plan_split_loops(Analysis *c, Plan *p);
/* The trips of split loop lp's tail: [lp->split, trips). */
TripRange plan_tail_range(const LoopPlan *lp);

/* ---- hoist.c ---- */
/* The analysed graph as p says (its hoisted reads before their loops,
 * the others where they are written): a graph transformation, done
 * before each selection from p. */
void plan_hoist_reads(Analysis *c, const Plan *p);
/* c's view of the kernel given a graph of its own (a copy keeping every op,
 * ids unchanged) where it has a loop (or always: the Q.K^T-ahead rewrite),
 * which plan_hoist_reads, plan_split_loops and plan_qk_ahead may change;
 * plan_loops asks for it before it records any op. */
void plan_own_graph(Analysis *c, bool always);

/* ---- lds_tiles.c ---- */
/* Is op a read staged through LDS? Every read of shared memory with an
 * index, but through a mapping only an MMA's operand (the tile other waves
 * read too) and only a mapping of the iterators: a mapping with dynamic
 * values (an offset or paged gather) reads global memory directly. */
bool plan_staged_read(const Analysis *c, const Op *op);
/* The LDS tile of staged read op (its error set when it cannot be staged). */
PlanTile *plan_tile(Analysis *c, const Op *op);
/* The LDS element offset, from the tile's start, of element j of copy cn
 * of ix (which indexes the box's dims), in layout 0 or 1 unswizzled. */
Sym *plan_tile_elem(Analysis *c, const PlanTile *t, int layout, const NodeIndex *ix, int64_t cn, int64_t j);
/* The byte offset of that element in the swizzled layout, and in *align
 * the alignment (bytes, at most a granule) of its byte within the row. */
Sym *plan_tile_swz_elem(Analysis *c, const PlanTile *t, const NodeIndex *ix, int64_t cn, int64_t j, int64_t *align);
/* The base among at[0..n) that x is a constant distance d >= 0 past, or -1. */
int plan_tile_swz_match(Analysis *c, Sym *const *at, int n, Sym *x, int64_t *d);
/* The largest power of two dividing v, at most cap (v == 0: cap). */
int64_t plan_pow2_dividing(int64_t v, int64_t cap);

/* The tile of mapped staged read op over the memory's dims, as an
 * unmapped read's (its cooperative load contiguous along the memory's
 * fast dim), when op's mapping only reorders the dims (each memory dim
 * indexed by the iterator of the register dim of the same name), else
 * NULL. The read's own index names the same dims, so plan_tile_elem
 * places its elements in it. */
PlanTile *plan_tile_mem(Analysis *c, const Op *op);

/* ---- lds_tr.c ---- */
/* gfx950's transposing reads of ix from t (layout, unswizzled): each lane's
 * elements in reads of n (4 of 16 bits, 8 of 8 bits), pitch LDS elements
 * apart (lds_tr.c says when they apply). */
typedef struct PlanTr {
	int n;
	int64_t pitch;
} PlanTr;
bool plan_tile_tr(Analysis *c, const PlanTile *t, int layout, const NodeIndex *ix, PlanTr *tr);
/* Can t's cooperative load go straight to LDS on gfx950 (16-byte chunks,
 * each wave's in lane order in the unpadded layout; lds_tr.c)? */
bool plan_tile_dma(Analysis *c, const PlanTile *t);

/* ---- lds_place.c ---- */
/* Where p's staged tiles and allocations lie (p->lds, p->swizzled,
 * p->lds_padded), the buffers a pipelined loop's tiles get (lds_stages;
 * four_stage gives way to prefetch where two do not fit) and each
 * region's layout. */
void plan_place_lds(Analysis *c, Plan *p);

/* ---- fold_mask.c ---- */
/* The boolean apply_exprs of r (and the regions in it) that the index
 * ranges decide, into konst (by value id). */
void plan_fold_masks(Analysis *c, Region *r, int8_t *konst);

/* ---- plan_print.c ---- */
/* The plan as text, one line per loop and per decided read and mask,
 * stable for golden tests. */
void plan_print(Buf *b, const Analysis *c, const Plan *p);

#endif
