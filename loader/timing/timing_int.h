/* timing_int.h — the timing model's internal types: the compact per-wave
 * event a recorded instruction becomes (TEv), the recorder that holds the
 * streams (trace.c), and the instruction kinds the CU model tells apart. */
#ifndef WAVECC_TIMING_INT_H
#define WAVECC_TIMING_INT_H

#include "../../util/util.h"
#include "timing.h"

/* What the sequencer does with an instruction beyond its category. */
typedef enum {
	TK_PLAIN, TK_WAITCNT, TK_NOP, TK_SLEEP, TK_SETPRIO, TK_BARRIER, TK_ENDPGM, TK_LOAD, TK_STORE
} TmKind;

enum { TE_TAKEN = 1, TE_BACKWARD = 2, TE_TRANS = 4, TE_LDS_DMA = 8, TE_GLOBAL = 16 /* a global-memory access */,
	TE_SCRATCH = 32 /* a scratch access (spills) */ };

typedef struct TEv {
	uint32_t pc;        /* index into the recorder's pcs */
	uint16_t op;
	uint8_t cat, kind, flags;
	uint8_t mfma_fmt;   /* EmuEvent.mfma_fmt */
	int32_t imm;
	uint16_t vdst, nvdst, vsrc[3], nvsrc[3];
	uint32_t line0;     /* VMEM/SMEM: first of nlines cache-line numbers in the recorder's lines */
	uint16_t nlines;
	uint16_t lds_cycles, lds_ideal; /* LDS: pipe cycles with and without bank conflicts */
	uint32_t bytes;     /* bytes moved by the active lanes */
} TEv;

typedef Vec(TEv) TEvVec;

typedef struct TmPcInfo {
	uint64_t pc, target;
	char text[96];
} TmPcInfo;

struct TmRecorder {
	EmuArch arch;
	TmParams p;
	EmuHook hook;
	uint64_t wg_first, wg_count;
	uint64_t *ids;              /* NULL: the range [wg_first, wg_first + wg_count); else its wg_count ids, ascending */
	uint32_t nwaves;
	TEvVec *waves;              /* wg_count * nwaves streams */
	Vec(uint64_t) lines;        /* line numbers of VMEM/SMEM events */
	Vec(TmPcInfo) pcs;
	uint32_t *pc_slot;          /* open-addressing table pc -> index + 1 */
	size_t pc_cap;
	uint64_t *seen;             /* open-addressing set of line numbers (+1) */
	size_t seen_cap, seen_len;
	uint64_t requested_lines;
	uint32_t grid[3];           /* the launch's workgroups in x, y, z (tm_recorder_grid; 0: unknown) */
	/* a probe (tm_probe_new) keeps no streams: only its workgroup's global
	 * lines (in seen) and how many instructions it recorded */
	bool probe;
	uint64_t probe_insts;
	/* a stream (the model order, order.c) keeps no streams either: each
	 * event is converted (tm_event), issued and its lines dropped */
	bool stream;
	struct TmRecorder *probes[3]; /* attached probes of the x, y, z neighbours (owned) */
	Vec(struct TmRecorder *) round; /* attached probes of XCD 0's first round (owned; tm_round_ids) */
};

/* Line sets: a small open-addressing set of line numbers. */
typedef struct LineSet {
	uint64_t *slot; /* line + 1, 0 empty */
	size_t cap, len;
} LineSet;
bool tm_lineset_add(LineSet *s, uint64_t line); /* true if it was new */
bool tm_lineset_has(const LineSet *s, uint64_t line);
void tm_lineset_free(LineSet *s);

TmCat tm_category(int op, int fmt, TmKind *kind, uint8_t *flags);
/* The compact event of an executed (or previewed) instruction; a memory
 * access's lines are appended to r->lines. */
void tm_event(TmRecorder *r, const EmuEvent *ev, TEv *t);

/* ---- cu.c: the CU as a stream, deciding the emulator's wave order
 * (order.c). r (a stream recorder: tm_event's conversions) gives the
 * waves per workgroup and the pc table; the emulator's workgroups run one
 * at a time, each started by tm_sim_stream_wg when the previous one has
 * ended. tm_sim_next_wave gives the index of the wave that issues next
 * (every wave that has not ended and may issue previewed first:
 * tm_sim_wants_preview, tm_sim_preview), -1 when every wave has ended, -2
 * on an error (message in err); the emulator runs it and
 * tm_sim_issue_wave issues what ran. tm_sim_free fills out (cycles, the
 * issue order) and frees the rest. */
typedef struct TmSim TmSim;
TmSim *tm_sim_stream(const TmRecorder *r, const TmCuConfig *cfg, TmCuResult *out);
void tm_sim_stream_wg(TmSim *s);
bool tm_sim_wants_preview(const TmSim *s, uint32_t wave);
void tm_sim_preview(TmSim *s, uint32_t wave, const TEv *t);
int tm_sim_next_wave(TmSim *s, char *err, size_t err_len);
void tm_sim_issue_wave(TmSim *s, uint32_t wave, const TEv *t);
void tm_sim_free(TmSim *s);

#endif
