/* pingpong.c — the MMAs of a loop whose MFMAs run at raised wave priority
 * (a step of plan_loops; passes/machine/priority.c emits the s_setprio).
 *
 * A loop trip that chains two matrix products through vector work
 * (attention: S = Q·Kᵀ, the online softmax of S, then P·V) keeps the matrix
 * core busy only while some wave of the SIMD has MFMAs to issue. Two waves
 * of a SIMD that reach the same phase together (both in their softmax, then
 * both in their MFMAs) leave it idle half the trip. The waves ping-pong
 * (as AMD's FA v3 and FlashAttention-3 do with s_setprio) when the wave in
 * its second product gets the issue turn first: the other wave's MFMAs
 * wait and it runs its vector work meanwhile, so the two fall half a trip
 * apart and stay there. Priority only orders issue; it changes no result.
 *
 * Algorithm, per iterate body (nested ones too): a value depends on an MMA
 * when an MMA of the body computes it or any argument of the op that
 * computes it depends on one (ops in order; results of nested loops and
 * conditionals do not count). An MMA of the body whose lhs or rhs depends
 * on an MMA is raised: its name is recorded (Plan.raised), which is the
 * note isel puts on its MFMAs. */
#include <string.h>

#include "plan.h"

static bool is_mma(const Op *op) { return op->kind == OP_MMA || op->kind == OP_SCALED_MMA; }

static void scan_body(Analysis *c, Plan *p, const Region *r, uint8_t *dep, const Op *ahead)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		bool d = is_mma(op);
		/* lhs and rhs (a scaled_mma's rhs is its third argument) */
		const Value *lhs = is_mma(op) ? op->args[0] : NULL;
		const Value *rhs = !is_mma(op) ? NULL : op->args[op->kind == OP_SCALED_MMA ? 2 : 1];
		if ((lhs && dep[lhs->id]) || (rhs && dep[rhs->id]) || (ahead && op == ahead)) {
			const char **grown = ARENA_NEWN(&c->arena, const char *, p->nraised + 1);
			if (p->nraised)
				memcpy(grown, p->raised, sizeof *grown * (size_t)p->nraised);
			grown[p->nraised++] = op->name;
			p->raised = grown;
		}
		if (op->kind != OP_ITERATE && op->kind != OP_CONDITIONAL)
			for (int a = 0; a < op->nargs && !d; a++)
				d = op->args[a] && dep[op->args[a]->id];
		for (int k = 0; k < op->nresults; k++)
			dep[op->results[k]->id] = d;
	}
}

static void walk(Analysis *c, Plan *p, const Region *r, uint8_t *dep)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (!op->body)
			continue;
		if (op->kind == OP_ITERATE) {
			memset(dep, 0, (size_t)p->nvalues + 1);
			/* a product qk_ahead.c carries from the trip before is
			 * an MMA's as it was */
			const Op *ahead = plan_ahead_mma(p, op), *out = vec_last(&op->body->ops);
			for (int j = 0; ahead && j < op->body->nparams && j < out->nargs; j++)
				dep[op->body->params[j]->id] = out->args[j] == ahead->results[0];
			scan_body(c, p, op->body, dep, ahead);
		}
		walk(c, p, op->body, dep);
	}
}

void plan_pingpong(Analysis *c, Plan *p, const Region *body)
{
	p->raised = NULL;
	p->nraised = 0;
	uint8_t *dep = ARENA_NEWN(&c->arena, uint8_t, p->nvalues + 1);
	walk(c, p, body, dep);
}
