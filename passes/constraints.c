/* constraints.c — constraint analysis: from the workgroup, wave and
 * hardware constraints to the launch geometry and the per-thread share.
 *
 * Algorithm (Wave's distribution model, DESIGN.md):
 *   - each workgroup constraint on dim D with tile T and workgroup_dim g
 *     gives grid[g] = ceil(size(D) / T); the tile is partial (bounds
 *     needed) when T does not divide size(D);
 *   - the wave constraint on D (default: the workgroup tile) gives
 *     waves[g] = T / wave_tile, unless the hardware constraint fixes
 *     waves_per_block;
 *   - the workgroup is threads_per_wave * waves[0] x waves[1] x waves[2]
 *     work-items; along grid dim 0 each thread owns a contiguous run of
 *     ept = wave_tile / threads_per_wave elements; along dims 1 and 2 a wave
 *     owns one element (wave tile 1) — the shape elementwise kernels have.
 * Tiling constraints (loops), MMA-distributed dims and wave tiles above 1
 * along dims 1-2 are reported as not supported yet: they come with the
 * expansion pass.
 * Requires: subst_symbols. Fills: c->dist, c->grid, c->wg_size, c->ept. */
#include "passes.h"

static DimDist *find_dist(Compile *c, const Sym *dim)
{
	for (int i = 0; i < c->ndist; i++)
		if (c->dist[i].dim == dim)
			return &c->dist[i];
	return NULL;
}

void analyze_constraints(Compile *c)
{
	Kernel *k = c->k;
	const Constraint *hw = kernel_hardware(k);
	Loc kloc = {k->file, 1, 1};
	int tpw = hw ? hw->threads_per_wave : 64;
	if (tpw != 64) {
		compile_error(c, hw->loc, "threads_per_wave %d: CDNA kernels run wave64", tpw);
		return;
	}
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *con = &k->cons.data[i];
		if (con->kind == CON_TILING) {
			compile_error(c, con->loc, "%s: tiling constraints (loops) are not compiled yet", con->path);
			return;
		}
		if (con->kind != CON_WORKGROUP)
			continue;
		if (find_dist(c, con->dim)) {
			compile_error(c, con->loc, "%s: a second workgroup constraint on %s is not compiled yet",
				con->path, sym_name(con->dim));
			return;
		}
		if (c->ndist == MAX_DIMS || con->wg_dim < 0 || con->wg_dim > 2) {
			compile_error(c, con->loc, "%s: workgroup_dim %d is not supported", con->path, con->wg_dim);
			return;
		}
		DimDist *d = &c->dist[c->ndist++];
		d->dim = con->dim;
		d->wg_dim = con->wg_dim;
		d->size = compile_int(c, con->dim, con->loc, sym_name(con->dim));
		d->wg_tile = compile_int(c, con->tile, con->loc, "the workgroup tile");
		if (c->failed)
			return;
		if (d->wg_tile <= 0 || d->size <= 0) {
			compile_error(c, con->loc, "%s: tile %lld and size %lld must be positive", con->path,
				(long long)d->wg_tile, (long long)d->size);
			return;
		}
		const Constraint *wc = kernel_constraint(k, CON_WAVE, con->dim);
		d->wave_tile = wc ? compile_int(c, wc->tile, wc->loc, "the wave tile") : d->wg_tile;
		if (c->failed)
			return;
		if (d->wave_tile <= 0 || d->wg_tile % d->wave_tile) {
			compile_error(c, wc->loc, "%s: wave tile %lld does not divide the workgroup tile %lld", wc->path,
				(long long)d->wave_tile, (long long)d->wg_tile);
			return;
		}
		d->waves = (int)(d->wg_tile / d->wave_tile);
		if (hw && hw->waves_per_block[d->wg_dim] && hw->waves_per_block[d->wg_dim] != d->waves) {
			compile_error(c, hw->loc, "waves_per_block[%d] = %d differs from the %d waves the tiles of %s give",
				d->wg_dim, hw->waves_per_block[d->wg_dim], d->waves, sym_name(d->dim));
			return;
		}
		d->partial = d->size % d->wg_tile != 0;
		if (d->wg_dim == 0) {
			if (d->wave_tile % tpw) {
				compile_error(c, wc ? wc->loc : con->loc,
					"wave tile %lld of %s is not a multiple of %d threads: not compiled yet",
					(long long)d->wave_tile, sym_name(d->dim), tpw);
				return;
			}
			d->ept = d->wave_tile / tpw;
		} else {
			if (d->wave_tile != 1) {
				compile_error(c, wc ? wc->loc : con->loc,
					"wave tile %lld along workgroup dim %d: only 1 is compiled yet",
					(long long)d->wave_tile, d->wg_dim);
				return;
			}
			d->ept = 1;
		}
	}
	for (int g = 0; g < 3; g++) {
		c->grid[g] = 1;
		c->wg_size[g] = 1;
	}
	bool seen[3] = {0};
	for (int i = 0; i < c->ndist; i++) {
		DimDist *d = &c->dist[i];
		if (seen[d->wg_dim]) {
			compile_error(c, kloc, "two dims distributed over workgroup dim %d: not compiled yet", d->wg_dim);
			return;
		}
		seen[d->wg_dim] = true;
		c->grid[d->wg_dim] = (d->size + d->wg_tile - 1) / d->wg_tile;
		c->wg_size[d->wg_dim] = d->waves * (d->wg_dim == 0 ? tpw : 1);
		if (d->wg_dim == 0)
			c->ept = d->ept;
	}
	if (!seen[0]) {
		compile_error(c, kloc, "no workgroup constraint with workgroup_dim 0");
		return;
	}
	int threads = c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	if (threads > 1024)
		compile_error(c, kloc, "workgroup of %d work-items exceeds 1024", threads);
	if (c->grid[0] > 0xffffffffLL || c->grid[1] > 0xffffLL || c->grid[2] > 0xffffLL)
		compile_error(c, kloc, "grid %lld x %lld x %lld is too large", (long long)c->grid[0],
			(long long)c->grid[1], (long long)c->grid[2]);
}

DimDist *compile_dist(Compile *c, const Sym *dim) { return find_dist(c, dim); }
