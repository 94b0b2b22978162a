/* conc.c — the interpreter's concurrent workgroups, for a co-resident
 * kernel (Kernel.co_resident: one holding a spin-wait, frontend/load_while.c,
 * whose workgroups wait for what others store).
 *
 * Algorithm: every workgroup of the grid gets a run of its own (values,
 * arena, bindings) and a thread that holds it; a token passes between the
 * threads so that exactly one runs at a time, in a deterministic
 * round-robin order (linear workgroup order). A workgroup keeps the token
 * until it ends or finishes a trip of a spin-wait whose flag still holds it
 * (run_spin_yield, from exec.c's loop), then hands it to the next live
 * workgroup. Stores are counted (memory.c: run_note_store); when every live
 * workgroup has spun once more since the last store (a full round of
 * yields with nothing stored: none can be released) the run fails as a
 * hang, located at the spin-wait of the workgroup that noticed it. A
 * failure in one workgroup stops the others at their next yield. Threads
 * are only a way to suspend a workgroup in the middle of the graph walker's
 * recursion: the values computed do not depend on them. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

typedef struct Conc {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int64_t n, turn, live;
	bool *done;
	uint64_t stores, seen;
	int64_t quiet; /* yields since a store was last seen */
	bool abort;
} Conc;

typedef struct Task {
	Run r;
	int (*exec)(Run *);
	int rc;
	pthread_t th;
} Task;

void run_note_store(Run *r)
{
	if (r->conc)
		r->conc->stores++;
}

/* With mu held: hand the token to the next live workgroup after `from`. */
static void pass_turn(Conc *c, int64_t from)
{
	for (int64_t i = 1; i <= c->n; i++) {
		int64_t k = (from + i) % c->n;
		if (!c->done[k]) {
			c->turn = k;
			break;
		}
	}
	pthread_cond_broadcast(&c->cv);
}

static void wait_turn(Conc *c, int64_t me)
{
	while (c->turn != me && !c->abort)
		pthread_cond_wait(&c->cv, &c->mu);
}

int run_spin_yield(Run *r, const Op *op)
{
	Conc *c = r->conc;
	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	if (c->stores != c->seen) {
		c->seen = c->stores;
		c->quiet = 0;
	}
	if (++c->quiet > c->live) {
		c->abort = true;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		return run_fail(r, op, "hang: every running workgroup waits in a spin-wait and nothing was stored in a "
				       "full round of them (a wait no workgroup will release; workgroup %lld waits here)",
				(long long)r->wg_index);
	}
	pass_turn(c, r->wg_index);
	wait_turn(c, r->wg_index);
	bool stop = c->abort;
	pthread_mutex_unlock(&c->mu);
	/* other workgroups ran: what this one read before may have changed */
	memset(r->read_memo, 0, sizeof(ITensor *) * ((size_t)r->k->nvalues + 1));
	return stop ? -1 : 0;
}

static void *task_main(void *p)
{
	Task *t = p;
	Conc *c = t->r.conc;
	pthread_mutex_lock(&c->mu);
	wait_turn(c, t->r.wg_index);
	bool stop = c->abort;
	pthread_mutex_unlock(&c->mu);
	t->rc = stop ? -1 : t->exec(&t->r);
	pthread_mutex_lock(&c->mu);
	c->done[t->r.wg_index] = true;
	c->live--;
	c->quiet = 0; /* the round changed */
	if (t->rc < 0)
		c->abort = true;
	if (c->live > 0)
		pass_turn(c, t->r.wg_index);
	else
		pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

int run_concurrent(Run *proto, const int64_t (*gids)[MAX_WG_DIMS], int64_t n, int (*exec)(Run *))
{
	Conc c = {.n = n, .live = n};
	pthread_mutex_init(&c.mu, NULL);
	pthread_cond_init(&c.cv, NULL);
	c.done = xcalloc((size_t)n + 1, sizeof *c.done);
	Task *ts = xcalloc((size_t)n + 1, sizeof *ts);
	size_t nvals = (size_t)proto->nw * (size_t)proto->k->nvalues + 1;
	int64_t started = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t)8 << 20);
	pthread_mutex_lock(&c.mu);
	for (int64_t i = 0; i < n; i++) {
		Task *t = &ts[i];
		t->r = *proto;
		Run *r = &t->r;
		arena_init(&r->arena);
		memset(&r->cache_from, 0, sizeof r->cache_from);
		memset(&r->cache_to, 0, sizeof r->cache_to);
		r->vals = xcalloc(nvals, sizeof(ITensor *));
		r->val = r->vals;
		r->read_memo = xcalloc((size_t)r->k->nvalues + 1, sizeof(ITensor *));
		r->local = xcalloc((size_t)r->k->nops + 1, sizeof(InterpArg *));
		memcpy(r->gid, gids[i], sizeof r->gid);
		r->conc = &c;
		r->wg_index = i;
		t->exec = exec;
		if (pthread_create(&t->th, &attr, task_main, t) != 0) {
			c.abort = true;
			break;
		}
		started++;
	}
	bool failed_start = c.abort;
	pthread_cond_broadcast(&c.cv);
	pthread_mutex_unlock(&c.mu);
	pthread_attr_destroy(&attr);
	int rc = 0;
	for (int64_t i = 0; i < started; i++) {
		pthread_join(ts[i].th, NULL);
		if (ts[i].rc < 0)
			rc = -1;
	}
	for (int64_t i = 0; i < started; i++) {
		Run *r = &ts[i].r;
		arena_free(&r->arena);
		free(r->vals);
		free(r->read_memo);
		free(r->local);
		vec_free(&r->cache_from);
		vec_free(&r->cache_to);
	}
	if (failed_start)
		rc = run_fail(proto, NULL, "cannot start a thread for each of the %lld co-resident workgroups", (long long)n);
	free(ts);
	free(c.done);
	pthread_cond_destroy(&c.cv);
	pthread_mutex_destroy(&c.mu);
	return rc;
}
