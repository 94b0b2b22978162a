"""Wave's wave_lang.kernel.wave.templates.gemm, written for wavecc's tracer.

Each function builds the kernel Wave's template of the same name builds (the same signature, symbols, constraints
and hyperparameters, so Wave's tests run with the import changed) and returns what Wave's returns:

- get_gemm_kernel: C[M, N] (f32) = A[M, K] @ B[N, K]^T, a K loop of MMAs over workgroup tiles of M and N;
  returns (kernel, hyperparams, dynamic_symbols).
- get_gemm_kernel_transpose_a_b: the same GEMM from A[K, M] and B[K, N], read through iterator bindings.
- get_scaled_gemm_kernel: the MXFP4 GEMM (i8 storage bitcast to f4e2m1fn, e8m0 scales per 32 k; gfx950).
- get_splitk_gemm_kernel: K split over S workgroups along grid dim 2, each adding its partial product into C
  with atomic_add (C must start at zero).
- get_persistent_gemm_kernel: a fixed grid of NUM_CTAS workgroups; each walks the output tiles TILE_IDX = its id,
  + NUM_CTAS, ... in a loop with a condition, setting the tile's offsets as symbols its mappings use.
- get_persistent_reordering_kernel: the persistent GEMM with XCD-chunked start ids and grouped (L2) tile order.
- get_streamk_gemm_kernel, get_hybrid_streamk_gemm_kernel: raise NotImplementedError (the first workgroup of a
  tile spin-waits on a flag the others store, which wavecc-kernel/1 rejects: they need not be resident together).
"""
import math

import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, WORKGROUP_0, WORKGROUP_2
from ..constraints import MMAType, ScaledMMAType  # noqa: F401  (Wave's module exports them)
from ..utils.general_utils import get_default_scheduling_params
from ._common import F16, wave_dtype, per_dim, dims_to_dynamic


def _mnk():
    return tkl.sym.M, tkl.sym.N, tkl.sym.K


def _mma_loop(a, b, c, a_map=None, b_map=None, c_map=None, atomic=False):
    """The GEMM body: acc = 0; for each K tile acc = mma(read a, read b, acc); write (or atomic_add) acc to c."""
    M, N, _ = _mnk()
    K = tkl.sym.K
    zero = tkl.Register[M, N, tkl.f32](0.0)

    @tkw.iterate(K, init_args=[zero])
    def k_loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
        return tkw.mma(tkw.read(a, mapping=a_map), tkw.read(b, mapping=b_map), acc)

    if atomic:
        tkw.atomic_add(k_loop, c)
    else:
        tkw.write(k_loop, c, mapping=c_map)


def get_gemm_kernel(shape, dynamic_dims, mfma_variant, dtype=F16, threads_per_wave=64, block_shape=None,
                    waves_per_block=None, n_service_waves=0):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    dyn = per_dim(dynamic_dims, 3)
    block_shape = tuple(block_shape or (64, 64, 32))
    waves = tuple(waves_per_block or (2, 2))
    if len(block_shape) != 3 or len(waves) != 2:
        raise ValueError("block_shape is (BLOCK_M, BLOCK_N, BLOCK_K) and waves_per_block (WAVE_M, WAVE_N)")
    dt = wave_dtype(dtype)
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, sympy.floor(BLOCK_M / waves[0])),
        tkw.WaveConstraint(N, sympy.floor(BLOCK_N / waves[1])),
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant,
                               n_service_waves=n_service_waves),
    ]
    if dyn[2]:
        constraints.append(tkw.Assumption(K > BLOCK_K * 4))

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, dt], b: tkl.Memory[N, K, ADDRESS_SPACE, dt],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        _mma_loop(a, b, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: block_shape[0], BLOCK_N: block_shape[1],
                   BLOCK_K: block_shape[2], M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    return gemm, hyperparams, dims_to_dynamic(hyperparams, (M, N, K), dyn)


def get_scaled_gemm_kernel(shape, mfma_variant, block_shape=None, waves_per_block=None):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    block_shape = tuple(block_shape or (32, 32, 256))
    waves = tuple(waves_per_block or (2, 2))
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / waves[0]),
        tkw.WaveConstraint(N, BLOCK_N / waves[1]),
        tkw.HardwareConstraint(threads_per_wave=64, mma_type=mfma_variant),
    ]

    @tkw.wave(constraints)
    def scaled_gemm(a: tkl.Memory[M, K / 2, ADDRESS_SPACE, tkl.i8],
                    a_scale: tkl.Memory[M, K / 32, ADDRESS_SPACE, tkl.i8],
                    b: tkl.Memory[N, K / 2, ADDRESS_SPACE, tkl.i8],
                    b_scale: tkl.Memory[N, K / 32, ADDRESS_SPACE, tkl.i8],
                    c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero])
        def k_loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            x = tkw.bitcast(tkw.read(a), tkl.f4e2m1fn)
            xs = tkw.bitcast(tkw.read(a_scale), tkl.f8e8m0fnu)
            y = tkw.bitcast(tkw.read(b), tkl.f4e2m1fn)
            ys = tkw.bitcast(tkw.read(b_scale), tkl.f8e8m0fnu)
            return tkw.scaled_mma(x, xs, y, ys, acc)

        tkw.write(k_loop, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: block_shape[0], BLOCK_N: block_shape[1],
                   BLOCK_K: block_shape[2], M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    return scaled_gemm, hyperparams


def get_splitk_gemm_kernel(shape, num_splits, mfma_variant, dtype=F16, threads_per_wave=64, block_shape=None,
                           waves_per_block=None):
    M, N, K = _mnk()
    S = tkl.sym.S
    BLOCK_M, BLOCK_N, BLOCK_K, BLOCK_S = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K, tkl.sym.BLOCK_S
    K_SPLIT_OFF, K_SPLIT_LEN = tkl.sym.K_SPLIT_OFF, tkl.sym.K_SPLIT_LEN
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    block_shape = tuple(block_shape or (64, 64, 32))
    waves = tuple(waves_per_block or (2, 2))
    m, n, k = shape
    dt = wave_dtype(dtype)
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.WorkgroupConstraint(S, BLOCK_S, 2),
        # workgroup z covers K from K_SPLIT_OFF, K_SPLIT_LEN long
        tkw.TilingConstraint(K, BLOCK_K, iters=sympy.ceiling(K_SPLIT_LEN / BLOCK_K), start=K_SPLIT_OFF),
        tkw.WaveConstraint(M, sympy.floor(BLOCK_M / waves[0])),
        tkw.WaveConstraint(N, sympy.floor(BLOCK_N / waves[1])),
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant, vector_shapes={S: 0}),
    ]

    @tkw.wave(constraints)
    def splitk_gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, dt], b: tkl.Memory[N, K, ADDRESS_SPACE, dt],
                    c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        _mma_loop(a, b, c, atomic=True)

    chunk = math.ceil(k / num_splits)
    off = WORKGROUP_2 * chunk
    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: block_shape[0], BLOCK_N: block_shape[1],
                   BLOCK_K: block_shape[2], BLOCK_S: 1, M: m, N: n, K: k, S: num_splits,
                   K_SPLIT_OFF: off, K_SPLIT_LEN: sympy.Min(k, (WORKGROUP_2 + 1) * chunk) - off}
    hyperparams.update(get_default_scheduling_params())
    return splitk_gemm, hyperparams


def get_gemm_kernel_transpose_a_b(shape, dynamic_dims, mfma_variant, dtype=F16, threads_per_wave=64):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    im, in_, ik = tkl.sym.m, tkl.sym.n, tkl.sym.k
    dyn = per_dim(dynamic_dims, 3)
    dt = wave_dtype(dtype)
    constraints = [
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.WaveConstraint(M, BLOCK_M / 2),
        tkw.WaveConstraint(N, BLOCK_N / 2),
        tkw.IteratorBindings({im: M, in_: N, ik: K}),
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant),
    ]
    if dyn[2]:
        constraints.append(tkw.Assumption(K > BLOCK_K * 4))

    @tkw.wave(constraints)
    def gemm(a: tkl.Memory[K, M, ADDRESS_SPACE, dt], b: tkl.Memory[K, N, ADDRESS_SPACE, dt],
             c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        zero = tkl.Register[M, N, tkl.f32](0.0)

        @tkw.iterate(K, init_args=[zero])
        def k_loop(acc: tkl.Register[M, N, tkl.f32]) -> tkl.Register[M, N, tkl.f32]:
            x = tkw.read(a, source=(ik, im), target=(im, ik))
            y = tkw.read(b, source=(ik, in_), target=(in_, ik))
            return tkw.mma(x, y, acc)

        tkw.write(k_loop, c)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32,
                   M: shape[0], N: shape[1], K: shape[2]}
    hyperparams.update(get_default_scheduling_params())
    return gemm, hyperparams, dims_to_dynamic(hyperparams, (M, N, K), dyn)


def _offset_mappings():
    """Reads of A and B and the write of C shifted by the tile offsets CTA_M_OFFSET and CTA_N_OFFSET."""
    M, N, K = _mnk()
    om, on = tkl.sym.CTA_M_OFFSET, tkl.sym.CTA_N_OFFSET
    i, j = tkw.IndexMapping.iterator(0), tkw.IndexMapping.iterator(1)
    a_map = tkw.IndexMapping(num_iterators=2, inputs={M: i + om, K: j}, outputs={M: i, K: j})
    b_map = tkw.IndexMapping(num_iterators=2, inputs={N: i + on, K: j}, outputs={N: i, K: j})
    c_map = tkw.IndexMapping(num_iterators=2, inputs={M: i, N: j}, outputs={M: i + om, N: j + on})
    return a_map, b_map, c_map


def _persistent_constraints(waves, threads_per_wave, mfma_variant):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    TILE_IDX = tkl.sym.TILE_IDX
    return [
        tkw.GridConstraint(tkl.sym.NUM_CTAS),
        tkw.WorkgroupConstraint(M, BLOCK_M, 0),
        tkw.WorkgroupConstraint(N, BLOCK_N, 1),
        tkw.TilingConstraint(K, BLOCK_K),
        tkw.TilingConstraint(TILE_IDX),
        tkw.WaveConstraint(M, BLOCK_M / waves[0]),
        tkw.WaveConstraint(N, BLOCK_N / waves[1]),
        tkw.HardwareConstraint(threads_per_wave=threads_per_wave, mma_type=mfma_variant,
                               vector_shapes={TILE_IDX: 0}),
    ]


def _persistent_tile_body(a, b, c, tile_id, cta_m, cta_n):
    """One output tile of a persistent GEMM (tile coordinates cta_m, cta_n), then TILE_IDX += NUM_CTAS."""
    a_map, b_map, c_map = _offset_mappings()
    tkw.set_symbol(tkl.sym.CTA_M_OFFSET, cta_m * tkw.scalar(tkl.sym.BLOCK_M, tkl.i32))
    tkw.set_symbol(tkl.sym.CTA_N_OFFSET, cta_n * tkw.scalar(tkl.sym.BLOCK_N, tkl.i32))
    _mma_loop(a, b, c, a_map, b_map, c_map)
    tkw.set_symbol(tkl.sym.TILE_IDX, tile_id + tkw.scalar(tkl.sym.NUM_CTAS, tkl.i32))


def get_persistent_gemm_kernel(shape, mfma_variant, threads_per_wave=64, block_shape=None, waves_per_block=None,
                               num_ctas=None):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    TILE_IDX, TOTAL_TILES, N_TILES, NUM_CTAS = tkl.sym.TILE_IDX, tkl.sym.TOTAL_TILES, tkl.sym.N_TILES, \
        tkl.sym.NUM_CTAS
    block_m, block_n, block_k = tuple(block_shape or (128, 256, 64))
    waves = tuple(waves_per_block or (4, 1))
    m, n, k = shape
    n_tiles = -(-n // block_n)
    total = -(-m // block_m) * n_tiles

    @tkw.wave(_persistent_constraints(waves, threads_per_wave, mfma_variant))
    def persistent_gemm(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16], b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
                        c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        first = tkw.scalar(WORKGROUP_0, tkl.i32)

        @tkw.iterate(TILE_IDX, start=first, condition=TILE_IDX < TOTAL_TILES, init_args=[])
        def persistent_loop():
            t = tkw.scalar(TILE_IDX, tkl.i32)
            nt = tkw.scalar(N_TILES, tkl.i32)
            _persistent_tile_body(a, b, c, t, t // nt, t % nt)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: block_m, BLOCK_N: block_n, BLOCK_K: block_k,
                   M: m, N: n, K: k, TOTAL_TILES: total, N_TILES: n_tiles,
                   NUM_CTAS: 304 if num_ctas is None else num_ctas}
    return persistent_gemm, hyperparams


def get_persistent_reordering_kernel(shape, mfma_variant, threads_per_wave=64, block_shape=None,
                                     waves_per_block=None, num_ctas=None, group_size_m=4, num_xcds=8, chunk_size=2):
    M, N, K = _mnk()
    BLOCK_M, BLOCK_N, BLOCK_K = tkl.sym.BLOCK_M, tkl.sym.BLOCK_N, tkl.sym.BLOCK_K
    ADDRESS_SPACE = tkl.sym.ADDRESS_SPACE
    S = tkl.sym
    TILE_IDX, TOTAL_TILES = S.TILE_IDX, S.TOTAL_TILES
    block_m, block_n, block_k = tuple(block_shape or (128, 256, 64))
    waves = tuple(waves_per_block or (4, 1))
    m, n, k = shape
    m_tiles, n_tiles = -(-m // block_m), -(-n // block_n)
    total = m_tiles * n_tiles

    def num(sym):
        return tkw.scalar(sym, tkl.i32)

    @tkw.wave(_persistent_constraints(waves, threads_per_wave, mfma_variant))
    def persistent_gemm_reordering(a: tkl.Memory[M, K, ADDRESS_SPACE, tkl.f16],
                                   b: tkl.Memory[N, K, ADDRESS_SPACE, tkl.f16],
                                   c: tkl.Memory[M, N, GLOBAL_ADDRESS_SPACE, tkl.f32]):
        # XCD chunking: consecutive ids go round the XCDs; give each XCD CHUNK_SIZE neighbouring tiles
        wg = num(WORKGROUP_0)
        xcd = wg % num(S.NUM_XCDS)
        local = wg // num(S.NUM_XCDS)
        chunked = (local // num(S.CHUNK_SIZE)) * num(S.NUM_XCDS) * num(S.CHUNK_SIZE) \
            + xcd * num(S.CHUNK_SIZE) + local % num(S.CHUNK_SIZE)
        span = num(S.NUM_XCDS) * num(S.CHUNK_SIZE)
        limit = (num(TOTAL_TILES) // span) * span
        first = tkw.select(wg <= limit, chunked, wg)

        @tkw.iterate(TILE_IDX, start=first, condition=TILE_IDX < TOTAL_TILES, init_args=[])
        def persistent_loop():
            t = tkw.self_index(TILE_IDX, tkl.i32)
            # grouped order: GROUP_SIZE_M rows of tiles at a time, column-major inside a group
            per_group = num(S.NUM_CTAS_IN_GROUP)
            row0 = (t // per_group) * num(S.GROUP_SIZE_M)
            rows = tkw.minimum(num(S.M_TILES) - row0, num(S.GROUP_SIZE_M))
            _persistent_tile_body(a, b, c, t, row0 + (t % per_group) % rows, (t % per_group) // rows)

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, BLOCK_M: block_m, BLOCK_N: block_n, BLOCK_K: block_k,
                   M: m, N: n, K: k, TOTAL_TILES: total, S.M_TILES: m_tiles, S.N_TILES: n_tiles,
                   S.GROUP_SIZE_M: group_size_m, S.NUM_CTAS_IN_GROUP: group_size_m * n_tiles,
                   S.NUM_CTAS: total if num_ctas is None else num_ctas, S.NUM_XCDS: num_xcds,
                   S.CHUNK_SIZE: chunk_size}
    return persistent_gemm_reordering, hyperparams


def _streamk(name):
    def f(*args, **kwargs):
        raise NotImplementedError(
            "templates.gemm.%s: stream-K is not implemented by wavecc: the first workgroup of a tile spin-waits on "
            "a flag later workgroups store (tkw.iterate whose next value is a read), which ends only if they run at "
            "the same time, which nothing promises for its grid of NUM_CTAS workgroups; wavecc-kernel/1 rejects the "
            "spin-wait (docs/kernel-format.md, \"Loops with a condition\"; its loop over peer workgroups, a "
            "condition on GET_ITER_ARG, compiles); get_persistent_gemm_kernel and get_splitk_gemm_kernel compile"
            % name)
    f.__name__ = name
    return f


get_streamk_gemm_kernel = _streamk("get_streamk_gemm_kernel")
get_hybrid_streamk_gemm_kernel = _streamk("get_hybrid_streamk_gemm_kernel")
