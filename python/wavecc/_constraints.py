"""_constraints.py — Wave's constraints, MMA types and assumptions, and their JSON form.

Each class keeps Wave's field names and order (WorkgroupConstraint(dim,
tile_size, workgroup_dim, apply_fn, primary, iters), ...) and has a
to_json() giving the constraint object of docs/kernel-format.md.
"""
import enum
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import sympy

from .indexing import index_symbol
from ._trace import dim_name, expr_json, fail, user_location


class MMAType(enum.Enum):
    F32_16x16x16_F16 = 0x1020
    F32_32x32x8_F16 = 0x1021
    F32_16x16x32_K8_F16 = 0x1022
    F32_32x32x16_K8_F16 = 0x1023
    I32_16x16x16_I8 = 0x10C0
    I32_32x32x8_I8 = 0x10C1
    F32_16x16x32_F8 = 0x1230
    F32_32x32x16_F8 = 0x1231
    F32_16x16x32_K4_F8 = 0x1232
    F32_32x32x16_K4_F8 = 0x1233
    I32_16x16x32_I8 = 0x12C0
    I32_32x32x16_I8 = 0x12C1
    F32_16x16x32_F16 = 0x1320
    F32_32x32x16_F16 = 0x1321
    F32_16x16x32_BF16 = 0x1322
    F32_32x32x16_BF16 = 0x1323
    RDNA4_WAVE32_F32_16x16x16_F16 = 0x1920
    GFX1250_F32_16x16x32_F16 = 0x1921


class ScaledMMAType(enum.Enum):
    F32_16x16x128_F8F6F4 = 0x1340
    F32_32x32x64_F8F6F4 = 0x1341
    GFX1250_F32_16x16x128_F8F6F4 = 0x1940


class MMAOperand(enum.Enum):
    M = 0
    N = 1
    K = 2


@dataclass
class GenericDot:
    """Wave's GenericDot: an MMA computed by dot products on the vector ALU (docs/kernel-format.md)."""
    out_vec_size: int = 1
    k_vec_size: int = 4
    k_mult: int = 1
    along_dim: Any = MMAOperand.N

    def __post_init__(self):
        if self.along_dim not in (MMAOperand.M, MMAOperand.N):
            raise ValueError("Invalid 'along_dim': %s. Must be 'MMAOperand.M' or 'MMAOperand.N'." % self.along_dim)

    def get_shape(self, threads_per_wave):
        m, n, k = self.out_vec_size, threads_per_wave // self.k_mult, self.k_vec_size * self.k_mult
        return (m, n, k) if self.along_dim == MMAOperand.N else (n, m, k)

    def to_json(self):
        return {"kind": "GenericDot", "out_vec_size": int(self.out_vec_size), "k_vec_size": int(self.k_vec_size),
                "k_mult": int(self.k_mult), "along_dim": self.along_dim.name}


class Constraint:
    """Base of Wave's constraints."""


class DistributionConstraint(Constraint):
    pass


@dataclass
class HardwareConstraint(Constraint):
    threads_per_wave: int
    waves_per_block: Optional[tuple] = None
    workgroups_per_cluster: Optional[tuple] = None
    mma_type: Any = MMAType.F32_16x16x16_F16
    vector_shapes: Optional[dict] = None
    max_bits_per_load: int = 128
    n_service_waves: int = 0

    def to_json(self):
        d = {"kind": "hardware", "threads_per_wave": int(self.threads_per_wave)}
        if self.waves_per_block is not None:
            d["waves_per_block"] = [int(x) for x in self.waves_per_block]
        if isinstance(self.mma_type, GenericDot):
            d["mma_type"] = self.mma_type.to_json()
        elif self.mma_type is not None:
            if not isinstance(self.mma_type, (MMAType, ScaledMMAType)):
                fail("HardwareConstraint: mma_type must be an MMAType, ScaledMMAType or GenericDot, got %r"
                     % (self.mma_type,), getattr(self, "_loc", None))
            if self.mma_type.value >= 0x1900:
                fail("HardwareConstraint: MMA type %s is not in wavecc-kernel/1 (a gfx1250 / RDNA type)"
                     % self.mma_type.name, getattr(self, "_loc", None))
            d["mma_type"] = self.mma_type.name
        if self.vector_shapes:
            d["vector_shapes"] = {dim_name(k): expr_json(v, "vector shape") for k, v in self.vector_shapes.items()}
        if self.max_bits_per_load != 128:
            d["max_bits_per_load"] = int(self.max_bits_per_load)
        if self.workgroups_per_cluster is not None or self.n_service_waves:
            fail("HardwareConstraint: workgroups_per_cluster and n_service_waves are not in wavecc-kernel/1",
                 getattr(self, "_loc", None))
        return d


@dataclass
class WorkgroupConstraint(DistributionConstraint):
    dim: Any
    tile_size: Any
    workgroup_dim: int
    apply_fn: Optional[Callable] = None
    primary: Optional[bool] = True
    iters: Any = None
    per_device_dim: Any = None

    def to_json(self):
        d = {"kind": "workgroup", "dim": dim_name(self.dim), "tile": expr_json(self.tile_size, "tile"),
             "workgroup_dim": int(self.workgroup_dim)}
        if self.primary is False:
            d["primary"] = False
        if self.iters is not None:
            d["iters"] = expr_json(self.iters)
        if self.apply_fn is not None:
            # Wave's lambda of the workgroup's id along workgroup_dim, written as its value on $WG<d>
            wg = index_symbol("$WG%d" % int(self.workgroup_dim))
            try:
                e = self.apply_fn(wg)
            except Exception as ex:
                fail("WorkgroupConstraint(%s): apply_fn(%s) raised %s: %s" % (dim_name(self.dim), wg, type(ex).__name__,
                     ex), getattr(self, "_loc", None))
            if not isinstance(e, (int, sympy.Basic)) or isinstance(e, bool):
                fail("WorkgroupConstraint(%s): apply_fn must give an index expression of the workgroup id, got %r"
                     % (dim_name(self.dim), e), getattr(self, "_loc", None))
            d["apply_fn"] = expr_json(sympy.sympify(e))
        return d


@dataclass
class GridConstraint(Constraint):
    """Wave's GridConstraint(grid_size): a fixed 1-D grid of grid_size workgroups (the persistent GEMMs)."""
    grid_size: Any

    def __post_init__(self):
        if isinstance(self.grid_size, (tuple, list)):
            if len(self.grid_size) != 1:
                raise ValueError("Grid size must be 1D, got %dD" % len(self.grid_size))
            self.grid_size = self.grid_size[0]

    def to_json(self):
        return {"kind": "grid", "grid_size": expr_json(self.grid_size, "grid size")}


@dataclass
class TilingConstraint(DistributionConstraint):
    dim: Any
    tile_size: Any = None
    induction_var: Any = None
    iters: Any = None
    start: Any = 0

    def to_json(self):
        d = {"kind": "tiling", "dim": dim_name(self.dim)}
        if self.tile_size is not None:
            d["tile"] = expr_json(self.tile_size, "tile")
        if self.induction_var is not None:
            d["induction_var"] = dim_name(self.induction_var)
        if self.iters is not None:
            d["iters"] = expr_json(self.iters)
        if self.start is not None and expr_json(self.start) != 0:
            d["start"] = expr_json(self.start)
        return d


@dataclass
class WaveConstraint(DistributionConstraint):
    dim: Any
    tile_size: Any
    wave_id: Any = None
    wg_constraint: Any = None

    def to_json(self):
        d = {"kind": "wave", "dim": dim_name(self.dim), "tile": expr_json(self.tile_size, "tile")}
        if self.wave_id is not None:
            d["wave_id"] = expr_json(self.wave_id)
        return d


@dataclass
class Assumption:
    expr: Any

    def to_json(self):
        return {"kind": "assumption", "expr": expr_json(self.expr)}


@dataclass
class SymbolicAlias:
    source: Any
    target: Any
    source_to_target: Callable = field(default=None)

    def to_json(self):
        return {"kind": "symbolic_alias", "source": dim_name(self.source), "target": dim_name(self.target),
                "expr": expr_json(self.source_to_target(self.target))}


@dataclass
class DeviceConstraint(DistributionConstraint):
    """Wave's DeviceConstraint(dim, tile_size, device_dim): compiled for one device, whose grid computes what
    all the devices together do (docs/kernel-format.md)."""
    dim: Any
    tile_size: Any = None
    device_dim: int = 0

    def to_json(self):
        if self.tile_size is None:
            fail("DeviceConstraint(%s) needs a tile size" % (self.dim,))
        return {"kind": "device", "dim": dim_name(self.dim), "tile": expr_json(self.tile_size),
                "device_dim": int(self.device_dim)}


@dataclass
class ReorderingConstraint(Constraint):
    """Wave's ReorderingConstraint(reordered_equation, workgroup_dim): the id workgroups take along one grid
    dim, an expression of WORKGROUP_0..2 (docs/kernel-format.md, "Workgroup reordering")."""
    reordered_equation: Any
    workgroup_dim: int

    def to_json(self):
        return {"kind": "reordering", "expr": expr_json(self.reordered_equation),
                "workgroup_dim": int(self.workgroup_dim)}


class IteratorBindings:
    """Wave's IteratorBindings({m: M, ...}): the dim each iterator symbol of a read's or write's source and target
    stands for (tkw.read(a, source=(k, m), target=(m, k)) reads a [K, M] memory as an [M, K] register)."""

    def __init__(self, bindings):
        self.bindings = dict(bindings)

    def __repr__(self):
        return "IteratorBindings(%r)" % (self.bindings,)


def _record_location(cls):
    """cls's constructor records where the program made it (c._loc), which errors about it name."""
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self._loc = user_location()
    __init__.__doc__ = init.__doc__
    cls.__init__ = __init__


for _cls in (HardwareConstraint, WorkgroupConstraint, TilingConstraint, WaveConstraint, Assumption, SymbolicAlias,
             DeviceConstraint, ReorderingConstraint, GridConstraint):
    _record_location(_cls)


def constraint_json(c):
    if hasattr(c, "to_json"):
        return c.to_json()
    fail("constraint %r is not in wavecc-kernel/1" % (c,))
