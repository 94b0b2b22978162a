/* sched.c — the list scheduler over the machine IR: reorders the
 * instructions inside each basic block, before register allocation, so that
 * long-latency results (global loads, LDS reads, MFMAs) are started early
 * and the matrix core is fed while they are in flight.
 *
 * Contract: sched_mfunc(f, o) on an unallocated function permutes
 * instructions within regions and changes nothing else (no instruction is
 * added, removed or rewritten). Every dependence of the original order is
 * kept, so the function computes the same values; the MIR verifier, the
 * wait and hazard passes and their checkers run on the result as on any
 * isel output. On an allocated function it does nothing.
 *
 * Regions: a block is cut at fences, which never move and which nothing
 * crosses: branches and every SOPP row but s_barrier (s_waitcnt, s_endpgm,
 * s_nop, ...), writers of exec (saveexec rows, v_cmpx, an exec def; every
 * vector instruction reads exec), rows with effects beyond their operands
 * (s_setreg/s_getreg, s_getpc, s_memtime, s_dcache_*), and before
 * allocation any instruction naming a physical register (the entry copies
 * of v0, s[0:1], the workgroup ids: their live ranges stay as isel made
 * them). Labels are block boundaries, so nothing crosses them either.
 *
 * Dependences inside a region (the DAG), over "slots":
 *   - every dword of every virtual register: read after write (latency of
 *     the producer), write after read (0) and write after write (1); a
 *     MIF_TIED def also reads its dwords;
 *   - scc: every SALU row is taken to read and write it, so scalar code
 *     keeps its order (scc producers and consumers are not marked in the
 *     IR);
 *   - vcc: every row that may touch it (a vcc operand, the VCCIN/VCCOUT/
 *     VOP3B flags, VOPC, v_div_fmas) keeps its order; m0 likewise;
 *   - memory: LDS and global (buffer, global, scalar memory; flat counts as
 *     both; an LDS DMA reads global and writes LDS) — a store or atomic is a
 *     write of its space, a load a read, so
 *     loads move freely among loads but never across a store of their
 *     space, and stores keep their order. s_barrier is a store to both
 *     spaces: no memory access crosses it, while register-only work does —
 *     so a trip's last MFMAs run on past the barrier that lets the next
 *     tile's LDS writes start, overlapping them (the wait pass, which runs
 *     later, puts its s_waitcnt before the barrier where it ends up). As
 *     that s_waitcnt lgkmcnt(0) makes the barrier wait for every LDS
 *     access before it to complete, in a loop's regions the edges from
 *     them into the barrier carry their latency (the barrier-wait DAG): the
 *     scheduler then fills the LDS reads' flight with MFMAs before the
 *     barrier instead of stalling at it every trip. That DAG's greedy list
 *     can also push the loads after the barrier late, so the list over the
 *     plain DAG competes (Acceptance); outside loops only the plain DAG.
 *
 * Loop-carried loads: in a loop's region, a v_perm_b32 that reads a
 * register before a global load later in the region writes it reads the
 * load of the previous trip (a prefetched tile joined before its LDS
 * writes: isel/lds_stage.c); it is ready no earlier than that load's
 * latency less the region's issue after the load (build_dag's carried),
 * so the list does not put it at the trip's top to wait for the load.
 *
 * Priority: the critical path to the region's end (height), with latencies
 * from the instruction table (isa_latency; an MFMA's is its passes x
 * mfma_pass_cycles on the target, plus one issue slot when the consumer is
 * another MFMA, which spaces dependent MFMAs). Cycle model: one wave issues
 * in order, one instruction every issue_period cycles; an instruction waits
 * for its operands; an MFMA also waits for the matrix pipe, busy passes x
 * mfma_pass_cycles, a DS access for its share of the LDS pipe: the SIMD's
 * (the CU's bytes per clock over its SIMDs), split among the workgroup's
 * waves on the SIMD (SchedOptions.simd_waves) in a one-barrier loop trip
 * their LDS traffic bounds (region_lds_share). The
 * three figures are the cycle model's (TM_PARAMS, loader/timing/timing.h:
 * one table for the profiler and the scheduler); the memory latencies are
 * the instruction classes', not the model's per-level load-to-use ones,
 * which a static schedule cannot choose between (docs/cycle-model.md).
 *
 * Algorithm (per region): list scheduling. At each step the candidates are
 * the unscheduled instructions whose predecessors are all placed; pick the
 * one that can issue earliest in the model, then the greatest height, then
 * the greatest height over data edges alone, then the earliest first
 * reader, then the original position. So loads go first in the order their
 * consumers need them, MFMAs issue as soon as their operands and the pipe
 * allow, and the pipe's busy cycles are filled with loads, LDS accesses and
 * address arithmetic. The two tie keys matter in a loop: every LDS read of
 * a trip leads, through the barrier and the next tile's LDS writes, to the
 * global loads at the trip's end, so their heights tie; without them the
 * reads kept isel's order (all A operands, then B) and the first MFMA
 * waited for nearly all of them (gfx942, 256x128x64: 790 of 2670 cycles
 * per trip).
 *
 * Register pressure: live VGPR + AGPR dwords (per dword, from the machine
 * IR's liveness over the CFG, ir/mir_live.c, as the allocator sees it:
 * sched_pressure.c), tracked along the schedule. The limit is the largest
 * pressure that keeps the waves per SIMD the original order's peak allows
 * (the unified 512-register file, granule 8, as driver/stats.c models
 * occupancy) less o->margin, or o->limit; never below the region's own
 * original peak; VGPR dwords alone stay within the arch VGPR file. A
 * candidate that would lift the peak over the target is taken only when
 * every candidate would, and then the one that adds least; as that greedy
 * choice can overshoot, lower targets are tried (SCHED_TRIES).
 *
 * A hard cap (SchedOptions.cap, less the margin: the registers a wave of
 * a workgroup whose waves share a SIMD may hold) over a region's original
 * peak makes the cap the target instead, tightened a granule a try, and
 * the first list schedule that ends within it is kept whatever its time
 * (on a loop, the faster of the two DAGs' that fit): without it the
 * allocator would spill to scratch.
 *
 * An asked order (SchedOptions.groups, the "interleave" option: sched_groups.c)
 * replaces the first key in a loop's regions: a ready instruction of the
 * class the current group asks for goes first; the groups fill in turn,
 * cyclically, a group whose class has nothing left is passed over, and
 * when nothing of the asked class is ready the usual keys pick. That order
 * is kept whatever the model says of its time, within the pressure limit.
 *
 * Acceptance: the new order of a region (of the two lists in a loop, the
 * faster, both judged by the barrier-wait DAG) is kept only if the model
 * finishes it sooner than the original order (or as soon, with the last issue
 * earlier) and its peak pressure stays within the limit; otherwise the
 * region keeps its original order, so the pass never makes the model's
 * figure worse. The driver (driver/order.c) also checks the result
 * against a trial register allocation. The model is a static one (no other
 * waves, fixed latencies): it orders instructions, it is not a time. */
#include <stdlib.h>
#include <string.h>

#include "../../loader/timing/timing.h"
#include "machine.h"
#include "sched_pressure.h"

/* The occupancy figures (the same on every target the cycle model's
 * TM_PARAMS covers: vgprs, vgpr_granule, wave_slots). The issue period,
 * MFMA pass clocks and LDS bytes per clock come from TM_PARAMS itself
 * (Sched.issue, .pass_cycles, .lds_share). */
enum {
	SCHED_VGPR_FILE = 512, /* unified VGPR + AGPR registers per lane per SIMD */
	SCHED_GRANULE = 8,
	SCHED_WAVE_SLOTS = 8,
};

/* Special slots after the register dwords. */
enum { SL_SCC, SL_VCC, SL_M0, SL_MEM_GLOBAL, SL_MEM_LDS, SL_NSPECIAL };

typedef struct Edge {
	int to, lat;
	bool data; /* the successor reads a register this node writes */
} Edge;

typedef struct Node {
	Vec(Edge) succ;
	int npred;     /* predecessors not placed yet */
	int height;    /* longest latency path to the region's end */
	int dheight;   /* the same over data edges only (ties: who is needed first) */
	int first_use; /* region index of the first instruction reading its result, or n */
	int ready;     /* earliest issue cycle from the placed predecessors */
	int ready0;    /* ... and from a loop-carried global load (build_dag's carried) */
	int lat;       /* result latency */
	int busy;      /* matrix pipe cycles (MFMA), else 0 */
	int lds;       /* LDS pipe cycles (DS access), else 0 */
	int issue;     /* cycles to the wave's next issue (issue_period) */
	bool placed;
	bool queued;   /* among the list scheduler's candidates (or placed) */
} Node;

/* One access of an instruction: slots [first, first + n). */
typedef struct Acc {
	uint32_t first;
	int n;
	bool write, mem;
} Acc;
enum { MAX_ACC = 16 };

typedef struct SlotState {
	int last_def;
	Vec(int) readers;
} SlotState;

typedef struct Sched {
	MFunc *f;
	bool gfx90a;
	/* from the cycle model's parameter table (loader/timing, TM_PARAMS) of
	 * the target: clocks between two issues of one wave (issue_period),
	 * per MFMA pass (mfma_pass_cycles), and a wave's share of the CU's
	 * LDS bytes per clock (lds_bytes_per_clk / simds / the workgroup's
	 * waves on a SIMD) */
	int issue, pass_cycles, lds_share;
	int simd_share;      /* the SIMD's share of the LDS bytes per clock */
	int simd_waves;      /* the workgroup's waves on a SIMD (SchedOptions.simd_waves, at least 1) */
	size_t nv;           /* virtual registers */
	const uint32_t *vbase; /* first slot of each vreg, nv + 1 entries (the liveness's) */
	uint32_t nslots;     /* vreg dwords + SL_NSPECIAL */
	SlotState *slot;
	Vec(uint32_t) touched;
	int limit;           /* pressure limit (VGPR + AGPR dwords) */
	int cap;             /* hard cap less the margin (SchedOptions.cap), 0: none */
	int vgpr_cap;        /* arch VGPRs per wave */
	int changed;         /* regions reordered */
	const SchedOptions *o; /* NULL: defaults */
} Sched;

/* ---- classification ---- */

static bool writes_exec(const MInst *in)
{
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_EXEC)
			return true;
	if (isa_info[in->op].flags & IF_CMPX)
		return true;
	return strstr(isa_info[in->op].name, "saveexec") != NULL;
}

static bool names_preg(const MInst *in)
{
	for (int k = 0; k < in->ndef + in->nuse; k++)
		if ((k < in->ndef ? in->def[k] : in->use[k - in->ndef]).kind == MO_PREG)
			return true;
	return false;
}

bool sched_is_fence(const MFunc *f, const MInst *in)
{
	MClass c = isa_class(in->op);
	if (in->op == I_S_BARRIER)
		return false; /* ordered with memory accesses only (accesses()) */
	if (c == MC_BRANCH || c == MC_CONTROL || writes_exec(in))
		return true;
	switch (in->op) {
	case I_S_SETREG_B32: case I_S_GETREG_B32: case I_S_GETPC_B64: case I_S_DCACHE_INV: case I_S_DCACHE_WB:
	case I_S_MEMTIME: case I_S_MEMREALTIME:
		return true;
	default:
		break;
	}
	return !f->allocated && names_preg(in);
}

static bool touches_vcc(const MInst *in)
{
	const IsaInfo *r = &isa_info[in->op];
	if (r->flags & (IF_VCCIN | IF_VCCOUT | IF_VOP3B))
		return true;
	if (r->fmt == FMT_VOPC || in->op == I_V_DIV_FMAS_F32 || in->op == I_V_DIV_FMAS_F64)
		return true;
	for (int k = 0; k < in->ndef + in->nuse; k++)
		if ((k < in->ndef ? in->def[k] : in->use[k - in->ndef]).kind == MO_VCC)
			return true;
	return false;
}

static bool touches_m0(const MInst *in)
{
	for (int k = 0; k < in->ndef + in->nuse; k++)
		if ((k < in->ndef ? in->def[k] : in->use[k - in->ndef]).kind == MO_M0)
			return true;
	return false;
}

static void acc_add(Acc *a, int *na, uint32_t first, int n, bool write, bool mem)
{
	check_that(*na < MAX_ACC);
	a[(*na)++] = (Acc){first, n, write, mem};
}

/* Every slot the instruction reads or writes. Reads come first, so an
 * instruction that reads and writes one slot depends on its previous
 * writer before it becomes the writer. */
static int accesses(const Sched *s, const MInst *in, Acc *a)
{
	int na = 0;
	uint32_t sp = s->vbase[s->nv];
	const IsaInfo *r = &isa_info[in->op];
	for (int u = 0; u < in->nuse; u++)
		if (in->use[u].kind == MO_VREG)
			acc_add(a, &na, s->vbase[in->use[u].reg] + in->use[u].sub, rc_size(in->use[u].rc), false, false);
	if ((in->flags & MIF_TIED) && in->ndef && in->def[0].kind == MO_VREG)
		acc_add(a, &na, s->vbase[in->def[0].reg] + in->def[0].sub, rc_size(in->def[0].rc), false, false);
	bool store = r->flags & (IF_STORE | IF_ATOMIC), load = r->flags & IF_LOAD;
	bool lds = r->fmt == FMT_DS, global = r->fmt == FMT_MUBUF || r->fmt == FMT_SMEM || r->fmt == FMT_FLAT;
	if (r->fmt == FMT_FLAT && strncmp(r->name, "flat_", 5) == 0)
		lds = true; /* a flat address may point into LDS */
	if (in->op == I_S_BARRIER) {
		/* a barrier orders every LDS and global access around it, as a
		 * store to both spaces would; register-only work (MFMAs, address
		 * arithmetic) moves across it freely */
		lds = global = store = true;
	}
	if ((in->flags & MIF_LDS) || isa_lds_dma(in->op)) {
		/* an LDS DMA reads global memory and writes LDS */
		acc_add(a, &na, sp + SL_MEM_LDS, 1, true, true);
		acc_add(a, &na, sp + SL_MEM_GLOBAL, 1, false, true);
	} else if (lds || (global && (store || load))) {
		if (lds)
			acc_add(a, &na, sp + SL_MEM_LDS, 1, store, true);
		if (global)
			acc_add(a, &na, sp + SL_MEM_GLOBAL, 1, store, true);
	}
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_VREG)
			acc_add(a, &na, s->vbase[in->def[d].reg] + in->def[d].sub, rc_size(in->def[d].rc), true, false);
	if (isa_class(in->op) == MC_SALU)
		acc_add(a, &na, sp + SL_SCC, 1, true, false);
	if (touches_vcc(in))
		acc_add(a, &na, sp + SL_VCC, 1, true, false);
	if (touches_m0(in))
		acc_add(a, &na, sp + SL_M0, 1, true, false);
	return na;
}

static int mfma_passes(const Sched *s, const MInst *in)
{
	return isa_mfma_passes_fmt(in->op, s->gfx90a, mi_cbsz(in), mi_blgp(in));
}

static int latency(const Sched *s, const MInst *in)
{
	int p = mfma_passes(s, in);
	return p ? s->pass_cycles * p : isa_latency(in->op);
}

/* LDS pipe cycles of a DS access: the data dwords per lane of its VGPR
 * operands (the loaded def, or a store's data uses: every VGPR use but the
 * address, the first) for 64 lanes at the wave's share of the pipe. */
static int lds_cycles(const Sched *s, const MInst *in)
{
	if (isa_info[in->op].fmt != FMT_DS)
		return 0;
	int dw = 0;
	for (int d = 0; d < in->ndef; d++)
		if ((in->def[d].kind == MO_VREG || in->def[d].kind == MO_PREG) && rc_file(in->def[d].rc) == RF_VGPR)
			dw += rc_size(in->def[d].rc);
	bool addr = true;
	for (int u = 0; u < in->nuse && !dw; u++)
		if ((in->use[u].kind == MO_VREG || in->use[u].kind == MO_PREG) && rc_file(in->use[u].rc) == RF_VGPR) {
			if (!addr)
				dw += rc_size(in->use[u].rc);
			addr = false;
		}
	int c = dw * 4 * 64 / s->lds_share;
	return c > 0 ? c : 4 * 64 / s->lds_share;
}

/* A wave's share of the LDS pipe in the region ins[0..n) (Sched.lds_share):
 * the SIMD's, split among the workgroup's waves on the SIMD in a loop trip
 * with one s_barrier (two LDS buffers: this trip's reads and the next
 * trip's writes between the same barriers) whose LDS traffic bounds it,
 * the SIMD's waves' LDS cycles at the SIMD's share reaching the wave's
 * MFMA cycles (Wave's 8-wave MXFP4 GEMM on gfx950 with 2 LDS stages: 2
 * waves x 512 LDS cycles a trip against 1024 of MFMAs). Those waves leave
 * the one barrier together and run their trip's LDS accesses at the same
 * time; the list, seeing each access take its real share of the pipe,
 * puts the barrier after the MFMAs that cover the trip's last reads
 * instead of where its lgkmcnt(0) stalls both waves (the MXFP4 GEMM at
 * 8192^3: 72.2% -> 78.3% modelled matrix-core use). A trip with two
 * barriers (one LDS buffer) keeps the SIMD's share: its barriers already
 * split the trip into phases (8-wave f16 GEMMs on gfx942 modelled up to 9
 * points slower split). The matrix core stays whole to the wave: the
 * schedule's aim is the wave's own dense MFMA stream, whose gaps the other
 * wave fills (splitting it as well modelled the MXFP4 GEMM at 71.1%). */
static int region_lds_share(Sched *s, const MInst *ins, int n, bool in_loop)
{
	if (s->simd_waves < 2 || !in_loop)
		return s->simd_share;
	long lds = 0, mfma = 0;
	int bars = 0;
	s->lds_share = s->simd_share; /* lds_cycles at the SIMD's share */
	for (int i = 0; i < n; i++) {
		bars += ins[i].op == I_S_BARRIER;
		lds += lds_cycles(s, &ins[i]);
		mfma += (long)s->pass_cycles * mfma_passes(s, &ins[i]);
	}
	if (bars != 1 || mfma == 0 || (long)s->simd_waves * lds < mfma)
		return s->simd_share;
	int share = s->simd_share / s->simd_waves;
	return share > 0 ? share : 1;
}

/* ---- the DAG ---- */

static void add_edge(Node *nodes, int from, int to, int lat, bool data)
{
	if (from == to)
		return;
	vec_push(&nodes[from].succ, ((Edge){to, lat, data}));
	nodes[to].npred++;
}

/* The DAG of a region; with barrier_wait, the edges from LDS accesses into
 * an s_barrier carry their latency (the s_waitcnt the wait pass puts there).
 * With carried (a loop's region), a v_perm_b32 reading a register before
 * a global load later in the region writes it (the join of a prefetched
 * tile's halves the next trip writes to LDS: lds_stage.c, pf_pack.c)
 * reads that load's result of the previous trip: it is ready no earlier
 * than the load's latency less the region's issue after the load, so the
 * list does not put it at the trip's top to wait there. Other readers (the
 * LDS writes, which the barrier keeps late anyway; copies) are left as
 * they were. */
static void build_dag(Sched *s, const MInst *ins, int n, Node *nodes, bool barrier_wait, bool carried)
{
	for (int i = 0; i < n; i++) {
		nodes[i] = (Node){0};
		nodes[i].lat = latency(s, &ins[i]);
		int p = mfma_passes(s, &ins[i]);
		nodes[i].busy = p ? s->pass_cycles * p : 0;
		nodes[i].lds = lds_cycles(s, &ins[i]);
		nodes[i].issue = s->issue;
	}
	for (int i = 0; i < n; i++) {
		Acc a[MAX_ACC];
		int na = accesses(s, &ins[i], a);
		for (int k = 0; k < na; k++)
			for (uint32_t sl = a[k].first; sl < a[k].first + (uint32_t)a[k].n; sl++) {
				SlotState *st = &s->slot[sl];
				if (st->last_def < 0 && st->readers.len == 0)
					vec_push(&s->touched, sl);
				int d = st->last_def;
				if (!a[k].write) {
					if (d >= 0) {
						int lat = a[k].mem ? 1 : nodes[d].lat;
						if (nodes[d].busy && nodes[i].busy)
							lat += s->issue; /* space dependent MFMAs */
						add_edge(nodes, d, i, lat, !a[k].mem);
					}
					vec_push(&st->readers, i);
					continue;
				}
				/* a write: after the previous writer (a chain slot's
				 * order carries the producer's latency) and its readers */
				if (carried && d < 0 && sl < s->vbase[s->nv] && isa_class(ins[i].op) == MC_VMEM_LOAD) {
					int r0 = nodes[i].lat - (n - 1 - i) * s->issue;
					for (size_t r = 0; r < st->readers.len; r++)
						if (ins[st->readers.data[r]].op == I_V_PERM_B32 && nodes[st->readers.data[r]].ready0 < r0)
							nodes[st->readers.data[r]].ready0 = r0;
				}
				/* the wait pass puts lgkmcnt(0) before a barrier: it
				 * waits for the LDS accesses before it to complete */
				bool lds_wait = barrier_wait && ins[i].op == I_S_BARRIER && sl == s->vbase[s->nv] + SL_MEM_LDS;
				if (d >= 0)
					add_edge(nodes, d, i,
						(sl >= s->vbase[s->nv] && !a[k].mem) || lds_wait ? nodes[d].lat : 1, false);
				for (size_t r = 0; r < st->readers.len; r++)
					add_edge(nodes, st->readers.data[r], i, lds_wait ? nodes[st->readers.data[r]].lat : 0,
						false);
				st->readers.len = 0;
				st->last_def = i;
			}
	}
	for (size_t t = 0; t < s->touched.len; t++) {
		SlotState *st = &s->slot[s->touched.data[t]];
		st->last_def = -1;
		st->readers.len = 0;
	}
	s->touched.len = 0;
	/* heights, in reverse order (edges go forward) */
	for (int i = n; i-- > 0;) {
		int h = nodes[i].lat, dh = nodes[i].lat, first = n;
		for (size_t e = 0; e < nodes[i].succ.len; e++) {
			Edge ed = nodes[i].succ.data[e];
			if (ed.lat + nodes[ed.to].height > h)
				h = ed.lat + nodes[ed.to].height;
			if (ed.data && ed.lat + nodes[ed.to].dheight > dh)
				dh = ed.lat + nodes[ed.to].dheight;
			if (ed.data && ed.to < first)
				first = ed.to;
		}
		nodes[i].height = h;
		nodes[i].dheight = dh;
		nodes[i].first_use = first;
	}
}

/* ---- the model and the list scheduler ---- */

typedef struct Timing {
	int end;     /* every result ready */
	int last;    /* last issue */
} Timing;

/* When the wave's next issue and the matrix and LDS pipes are free. */
typedef struct Pipes {
	int cycle, mfma, lds;
} Pipes;

/* Issue time of node i if placed now. */
static int issue_time(const Node *nd, const Pipes *ps)
{
	int t = ps->cycle > nd->ready ? ps->cycle : nd->ready;
	if (nd->busy && ps->mfma > t)
		t = ps->mfma;
	if (nd->lds && ps->lds > t)
		t = ps->lds;
	return t;
}

static void place(Node *nodes, int i, int t, Pipes *ps, Timing *tm)
{
	Node *nd = &nodes[i];
	nd->placed = true;
	for (size_t e = 0; e < nd->succ.len; e++) {
		Node *to = &nodes[nd->succ.data[e].to];
		if (t + nd->succ.data[e].lat > to->ready)
			to->ready = t + nd->succ.data[e].lat;
		to->npred--;
	}
	ps->cycle = t + nd->issue;
	if (nd->busy)
		ps->mfma = t + nd->busy;
	if (nd->lds)
		ps->lds = t + nd->lds;
	if (t + nd->lat > tm->end)
		tm->end = t + nd->lat;
	tm->last = t;
}

static void reset_nodes(Node *nodes, int n)
{
	for (int i = 0; i < n; i++) {
		nodes[i].placed = nodes[i].queued = false;
		nodes[i].ready = nodes[i].ready0;
		nodes[i].npred = 0;
	}
	for (int i = 0; i < n; i++)
		for (size_t e = 0; e < nodes[i].succ.len; e++)
			nodes[nodes[i].succ.data[e].to].npred++;
}

/* The original order through the model and the pressure tracker. */
static Timing model_original(Node *nodes, const MInst *ins, int n, SchedPressure *p)
{
	Timing tm = {0};
	Pipes ps = {0};
	reset_nodes(nodes, n);
	for (int i = 0; i < n; i++) {
		place(nodes, i, issue_time(&nodes[i], &ps), &ps, &tm);
		sched_pressure_place(p, &ins[i]);
	}
	return tm;
}

/* A given order through the model (nodes: the DAG it is judged by) and the
 * pressure tracker. */
static Timing model_order(Node *nodes, const MInst *ins, int n, const int *order, SchedPressure *p)
{
	Timing tm = {0};
	Pipes ps = {0};
	reset_nodes(nodes, n);
	for (int k = 0; k < n; k++) {
		int i = order[k];
		place(nodes, i, issue_time(&nodes[i], &ps), &ps, &tm);
		sched_pressure_place(p, &ins[i]);
	}
	return tm;
}

/* Is candidate a better pick than b? Keys: within the pressure limit, (if
 * both over) adds less, issues earlier, greater height, earlier original
 * position. */
typedef struct Cand {
	int i, t, over, after;
} Cand;

static bool better(const Cand *a, const Cand *b, const Node *nodes)
{
	if (a->over != b->over)
		return a->over < b->over;
	if (a->over && a->after != b->after)
		return a->after < b->after;
	if (a->t != b->t)
		return a->t < b->t;
	if (nodes[a->i].height != nodes[b->i].height)
		return nodes[a->i].height > nodes[b->i].height;
	if (nodes[a->i].dheight != nodes[b->i].dheight)
		return nodes[a->i].dheight > nodes[b->i].dheight;
	if (nodes[a->i].first_use != nodes[b->i].first_use)
		return nodes[a->i].first_use < nodes[b->i].first_use;
	return a->i < b->i;
}

/* An asked order (SchedOptions.groups) as the list fills it: the group
 * being filled, how many it has, and the instructions of each class not
 * placed yet (a group whose class has none left is passed over). */
typedef struct Pattern {
	const SchedOptions *o;
	int g, used;
	int left[MC_COUNT];
} Pattern;

/* The class the pattern asks for next, or -1 (none asked, or none left). */
static int pattern_class(Pattern *pt)
{
	if (!pt)
		return -1;
	for (int tries = 0; tries < pt->o->ngroups; tries++) {
		const SchedGroup *gr = &pt->o->groups[pt->g];
		if (pt->left[gr->cls] > 0 && pt->used < gr->count)
			return gr->cls;
		pt->g = (pt->g + 1) % pt->o->ngroups;
		pt->used = 0;
	}
	return -1;
}

static void pattern_placed(Pattern *pt, int cls)
{
	if (!pt)
		return;
	pt->left[cls]--;
	if (pt->g < pt->o->ngroups && pt->o->groups[pt->g].cls == cls)
		pt->used++;
}

/* The list schedule; with a pattern, a ready instruction of the class it
 * asks for goes before any other (the usual keys among them), and another
 * goes only when none of that class is ready. */
static Timing list_schedule(Node *nodes, const MInst *ins, int n, SchedPressure *p, int limit, int vcap, int *order,
	Pattern *pt)
{
	Timing tm = {0};
	Pipes ps = {0};
	reset_nodes(nodes, n);
	if (pt) {
		memset(pt->left, 0, sizeof pt->left);
		for (int i = 0; i < n; i++)
			pt->left[isa_class(ins[i].op)]++;
		pt->g = pt->used = 0;
	}
	/* the candidates: every node whose predecessors are all placed (the
	 * keys are a total order, so which is best does not depend on the
	 * order they are looked at in; keeping them apart makes a step cost
	 * the candidates, not the region) */
	int *ready = xmalloc((size_t)n * sizeof *ready), nready = 0;
	for (int i = 0; i < n; i++)
		if (!nodes[i].npred) {
			nodes[i].queued = true;
			ready[nready++] = i;
		}
	for (int k = 0; k < n; k++) {
		int want = pattern_class(pt);
		Cand best = {-1, 0, 0, 0};
		bool best_asked = false;
		int best_at = -1;
		for (int r = 0; r < nready; r++) {
			int i = ready[r];
			SchedDelta dl;
			sched_pressure_delta(p, &ins[i], &dl);
			Cand c = {i, issue_time(&nodes[i], &ps), dl.peak > limit || dl.peakv > vcap, dl.after};
			bool asked = want >= 0 && (int)isa_class(ins[i].op) == want;
			if (best.i < 0 || (asked && !best_asked) || (asked == best_asked && better(&c, &best, nodes))) {
				best = c;
				best_asked = asked;
				best_at = r;
			}
		}
		check_that(best.i >= 0); /* the DAG is acyclic: edges go forward */
		ready[best_at] = ready[--nready];
		order[k] = best.i;
		place(nodes, best.i, best.t, &ps, &tm);
		sched_pressure_place(p, &ins[best.i]);
		pattern_placed(pt, isa_class(ins[best.i].op));
		/* successors whose last predecessor this was (an edge's target
		 * may repeat: it is taken when its count reaches 0, once) */
		const Node *nd = &nodes[best.i];
		for (size_t e = 0; e < nd->succ.len; e++) {
			Node *to = &nodes[nd->succ.data[e].to];
			if (!to->npred && !to->queued) {
				to->queued = true;
				ready[nready++] = nd->succ.data[e].to;
			}
		}
	}
	free(ready);
	return tm;
}

/* ---- regions ---- */

typedef struct Region {
	size_t bi, lo, hi; /* block, [lo, hi) */
	int peak0;         /* original peak pressure */
	int peakv0;        /* original peak of VGPR dwords alone */
	bool in_loop;      /* its block is on a loop (a branch back to it or before it) */
} Region;
typedef Vec(Region) RegionList;

/* Is block bi on a loop: does it or a later block branch back to it or to
 * a block before it? */
static bool block_in_loop(const MFunc *f, size_t bi)
{
	for (size_t bj = bi; bj < f->blocks.len; bj++) {
		const MBlock *b = f->blocks.data[bj];
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *in = &b->insts.data[i];
			if (mop_is_branch(in->op) && in->target >= 0 && (size_t)in->target <= bi)
				return true;
		}
	}
	return false;
}

static void find_regions(const MFunc *f, RegionList *out)
{
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		size_t lo = 0;
		for (size_t i = 0; i <= b->insts.len; i++) {
			if (i < b->insts.len && !sched_is_fence(f, &b->insts.data[i]))
				continue;
			if (i - lo >= 2)
				vec_push(out, ((Region){bi, lo, i, 0, 0, block_in_loop(f, bi)}));
			lo = i + 1;
		}
	}
}

/* The largest pressure that keeps the waves per SIMD `peak` allows. */
int sched_occupancy_limit(int peak, int file_cap)
{
	int g = peak < 1 ? SCHED_GRANULE : (peak + SCHED_GRANULE - 1) / SCHED_GRANULE * SCHED_GRANULE;
	int waves = SCHED_VGPR_FILE / g;
	if (waves > SCHED_WAVE_SLOTS)
		waves = SCHED_WAVE_SLOTS;
	if (waves < 1)
		return peak > file_cap ? peak : file_cap;
	int lim = SCHED_VGPR_FILE / waves / SCHED_GRANULE * SCHED_GRANULE;
	return lim < file_cap ? lim : file_cap;
}

/* Targets tried when the greedy schedule overshoots the limit: the limit,
 * halfway down to the original peak, the original peak. At a target the
 * scheduler still places an over-target candidate when every candidate is
 * over, so a tighter target can end under the real limit. */
enum { SCHED_TRIES = 3 };

/* The list schedule of a region's DAG `dag` at the pressure targets (the
 * limit, then lower ones while it overshoots), judged by the model over
 * `judge`: into order, when it beats *best (and then *best is its time). */
static bool try_dag(Sched *s, Region *r, SchedPressure *p, Node *dag, Node *judge, int *order, Timing *best)
{
	MInst *ins = &s->f->blocks.data[r->bi]->insts.data[r->lo];
	int n = (int)(r->hi - r->lo);
	int vcap = s->vgpr_cap > r->peakv0 ? s->vgpr_cap : r->peakv0;
	int limit = s->limit > r->peak0 ? s->limit : r->peak0;
	for (int k = 0; k < SCHED_TRIES; k++) {
		int target = limit - k * (limit - r->peak0) / 2, vtarget = vcap - (limit - target);
		sched_pressure_region(p, r->bi, r->lo, r->hi);
		Timing t1 = list_schedule(dag, ins, n, p, target, vtarget, order, NULL);
		if (judge != dag) {
			sched_pressure_region(p, r->bi, r->lo, r->hi);
			t1 = model_order(judge, ins, n, order, p);
		}
		bool faster = t1.end < best->end || (t1.end == best->end && t1.last < best->last);
		if (!faster)
			return false; /* a tighter target is no faster */
		if (p->peak > limit || p->peakv > vcap)
			continue;
		*best = t1;
		return true;
	}
	return false;
}

/* A region whose original order passes the hard cap: the list schedule
 * at targets from the cap down, a granule a try; into order the first
 * that ends within the cap (and then *best is its time), when none fitted
 * before (*fits) or it is faster than what did. */
static bool try_cap(Sched *s, Region *r, SchedPressure *p, Node *dag, Node *judge, int *order, Timing *best,
	bool *fits)
{
	MInst *ins = &s->f->blocks.data[r->bi]->insts.data[r->lo];
	int n = (int)(r->hi - r->lo);
	for (int k = 0; k < SCHED_TRIES; k++) {
		int target = s->cap - k * SCHED_GRANULE;
		sched_pressure_region(p, r->bi, r->lo, r->hi);
		Timing t1 = list_schedule(dag, ins, n, p, target, s->vgpr_cap, order, NULL);
		if (judge != dag) {
			sched_pressure_region(p, r->bi, r->lo, r->hi);
			t1 = model_order(judge, ins, n, order, p);
		}
		if (p->peak > s->cap || p->peakv > s->vgpr_cap)
			continue;
		if (*fits && !(t1.end < best->end || (t1.end == best->end && t1.last < best->last)))
			return false;
		*best = t1;
		*fits = true;
		return true;
	}
	return false;
}

/* The region's instructions in `order` (indices into the region). */
static void apply_order(Sched *s, const Region *r, const int *order)
{
	MInst *ins = &s->f->blocks.data[r->bi]->insts.data[r->lo];
	int n = (int)(r->hi - r->lo);
	MInst *copy = xmalloc((size_t)n * sizeof *copy);
	for (int j = 0; j < n; j++)
		copy[j] = ins[order[j]];
	bool same = memcmp(ins, copy, (size_t)n * sizeof *copy) == 0;
	memcpy(ins, copy, (size_t)n * sizeof *copy);
	free(copy);
	s->changed += !same;
}

/* A loop's region under the order asked for (SchedOptions.groups): the
 * list over the plain DAG filling the groups in turn, kept whatever the
 * model says of its time (the user asked for it) as long as its pressure
 * stays within the limit; otherwise the original order stays. */
static void schedule_asked(Sched *s, Region *r, SchedPressure *p, Node *nodes, int *order)
{
	int n = (int)(r->hi - r->lo);
	MInst *ins = &s->f->blocks.data[r->bi]->insts.data[r->lo];
	s->lds_share = region_lds_share(s, ins, n, true);
	build_dag(s, ins, n, nodes, false, r->in_loop);
	sched_pressure_region(p, r->bi, r->lo, r->hi);
	model_original(nodes, ins, n, p);
	int vcap = s->vgpr_cap > p->peakv ? s->vgpr_cap : p->peakv;
	int limit = s->limit > r->peak0 ? s->limit : r->peak0;
	sched_pressure_region(p, r->bi, r->lo, r->hi);
	Pattern pt = {.o = s->o};
	list_schedule(nodes, ins, n, p, limit, vcap, order, &pt);
	if (p->peak <= limit && p->peakv <= vcap)
		apply_order(s, r, order);
	for (int i = 0; i < n; i++)
		vec_free(&nodes[i].succ);
}

/* Schedules a region. On a loop: the list schedule over the DAG whose
 * barriers wait for the LDS accesses before them, and the one over the DAG
 * whose barriers do not (which can issue the loads after a barrier
 * sooner), both judged by the first; the faster wins, the plain one on a
 * tie (the order the list made before barrier waits). Off loops only the
 * second (the prologue's order as the list makes it). The original order
 * stays unless a schedule beats it. */
static void schedule_region(Sched *s, Region *r, SchedPressure *p, Node *nodes, Node *alt, int *order,
	int *best_order)
{
	if (r->in_loop && s->o && s->o->ngroups) {
		schedule_asked(s, r, p, nodes, order);
		return;
	}
	MBlock *b = s->f->blocks.data[r->bi];
	int n = (int)(r->hi - r->lo);
	MInst *ins = &b->insts.data[r->lo];
	s->lds_share = region_lds_share(s, ins, n, r->in_loop);
	build_dag(s, ins, n, nodes, r->in_loop, r->in_loop);
	if (r->in_loop)
		build_dag(s, ins, n, alt, false, r->in_loop);
	sched_pressure_region(p, r->bi, r->lo, r->hi);
	Timing best = model_original(nodes, ins, n, p);
	r->peakv0 = p->peakv;
	bool found = false;
	if (s->cap > 0 && r->peak0 > s->cap) {
		bool fits = false;
		if (try_cap(s, r, p, r->in_loop ? alt : nodes, nodes, order, &best, &fits)) {
			memcpy(best_order, order, (size_t)n * sizeof *order);
			found = true;
		}
		if (r->in_loop && try_cap(s, r, p, nodes, nodes, order, &best, &fits)) {
			memcpy(best_order, order, (size_t)n * sizeof *order);
			found = true;
		}
		if (found)
			apply_order(s, r, best_order);
		goto out;
	}
	if (try_dag(s, r, p, r->in_loop ? alt : nodes, nodes, order, &best)) {
		memcpy(best_order, order, (size_t)n * sizeof *order);
		found = true;
	}
	if (r->in_loop && try_dag(s, r, p, nodes, nodes, order, &best)) {
		memcpy(best_order, order, (size_t)n * sizeof *order);
		found = true;
	}
	if (found)
		apply_order(s, r, best_order);
out:
	for (int i = 0; i < n; i++) {
		vec_free(&nodes[i].succ);
		if (r->in_loop)
			vec_free(&alt[i].succ);
	}
}

/* The original peak of every region (the occupancy the unscheduled code
 * has), into r->peak0; returns the function's maximum. */
static int original_peaks(Sched *s, Region *rs, size_t nr, SchedPressure *p)
{
	int max = 0;
	for (size_t k = 0; k < nr; k++) {
		MBlock *b = s->f->blocks.data[rs[k].bi];
		sched_pressure_region(p, rs[k].bi, rs[k].lo, rs[k].hi);
		for (size_t i = rs[k].lo; i < rs[k].hi; i++)
			sched_pressure_place(p, &b->insts.data[i]);
		rs[k].peak0 = p->peak;
		if (p->peak > max)
			max = p->peak;
	}
	return max;
}

/* An instruction without a note is printed under the comment of the last
 * one with a note before it (mir_print), and mir_parse gives it that note;
 * give it that note now, so that moving instructions keeps what the printed
 * form says and the printed form still parses back to itself. */
static void inherit_notes(MFunc *f)
{
	const char *note = NULL;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			if (b->insts.data[i].note)
				note = b->insts.data[i].note;
			else
				b->insts.data[i].note = note;
		}
	}
}

int sched_mfunc(MFunc *f, const SchedOptions *o)
{
	if (f->allocated)
		return 0;
	inherit_notes(f);
	Sched s = {.f = f, .gfx90a = strcmp(f->target->name, "gfx90a") == 0, .nv = f->vregs.len, .o = o};
	TmParams tp;
	tm_params(s.gfx90a ? EMU_GFX90A : strcmp(f->target->name, "gfx950") == 0 ? EMU_GFX950 : EMU_GFX942, &tp);
	s.issue = (int)tp.issue_period;
	s.pass_cycles = (int)tp.mfma_pass_cycles;
	s.simd_share = (int)(tp.lds_bytes_per_clk / tp.simds);
	s.lds_share = s.simd_share;
	s.simd_waves = o && o->simd_waves > 1 ? o->simd_waves : 1;
	SchedPressure p;
	sched_pressure_init(&p, f);
	s.vbase = p.lv.vbase;
	s.nslots = p.ndw + SL_NSPECIAL;
	s.slot = xcalloc(s.nslots, sizeof *s.slot);
	for (uint32_t i = 0; i < s.nslots; i++)
		s.slot[i].last_def = -1;
	s.vgpr_cap = f->target->vgprs;
	RegionList rs = {0};
	find_regions(f, &rs);
	int peak = original_peaks(&s, rs.data, rs.len, &p);
	int margin = o ? o->margin : 0;
	s.vgpr_cap -= margin;
	s.cap = o && o->cap > 0 ? o->cap - margin : 0;
	s.limit = o && o->limit > 0 ? o->limit
				    : sched_occupancy_limit(peak, f->target->vgprs + f->target->agprs) - margin;
	size_t maxn = 1;
	for (size_t k = 0; k < rs.len; k++)
		if (rs.data[k].hi - rs.data[k].lo > maxn)
			maxn = rs.data[k].hi - rs.data[k].lo;
	Node *nodes = xcalloc(maxn, sizeof *nodes), *alt = xcalloc(maxn, sizeof *alt);
	int *order = xcalloc(maxn, sizeof *order), *best_order = xcalloc(maxn, sizeof *best_order);
	for (size_t k = 0; k < rs.len; k++)
		schedule_region(&s, &rs.data[k], &p, nodes, alt, order, best_order);
	free(nodes);
	free(alt);
	free(order);
	free(best_order);
	sched_pressure_free(&p);
	vec_free(&rs);
	for (uint32_t i = 0; i < s.nslots; i++)
		vec_free(&s.slot[i].readers);
	free(s.slot);
	vec_free(&s.touched);
	return s.changed;
}
