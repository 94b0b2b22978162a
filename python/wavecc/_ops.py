"""_ops.py — the tkw ops: each records one node of wavecc-kernel/1 (docs/kernel-format.md).

Signatures follow Wave's wave_lang/kernel/ops/wave_ops.py (argument names and
order, so positional and keyword calls both work); each function checks its
operands, infers the result type by the format's rules and calls
_trace.record. Ops Wave has and kernel format 1 does not (reshape, shuffle,
softsign, ...) raise a TraceError (also a NotImplementedError) naming the op and
the Python line; debug_log writes to a hidden memory argument the call returns;
scheduling hints that do not change results (set_wave_prio, scheduling barriers) are accepted and dropped.
"""
import builtins
import enum
import inspect

import sympy

from ._dtype import MX_ELEMENT_DTYPES, DataType, i1, storage_bits
from ._trace import (TraceError, format_location, MemValue, Node, Reg, as_reg, as_mem, coerce, current, dim_name,
                     dim_set, dims_json, fail, is_symbolic, record, region, user_location, _binary, _unary)
from ._types import IndexMapping

UNARY = ("abs exp exp2 log log2 log10 sqrt rsqrt reciprocal round roundeven sin cos sinh tanh tanh_approx "
         "cbrt").split()
BINARY = "maximum minimum atan2 powf mod remf".split()
COMPARE = "eq ne lt le gt ge".split()


def _dtype(d, what, loc):
    if not isinstance(d, DataType):
        fail("%s: expected a dtype (tkl.f16, ...), got %r" % (what, d), loc)
    return d


def _mapping_json(m, dyn, what, loc, swap=False):
    if m is None:
        return None
    if not isinstance(m, IndexMapping):
        fail("%s: mapping must be a tkw.IndexMapping, got %r" % (what, m), loc)
    iters = sorted(m.iters.items(), key=lambda kv: kv[1])
    d = {"iterators": [s.name for s, _ in iters],
         "inputs": {dim_name(k): v for k, v in m.input_mapping.items()},
         "outputs": {dim_name(k): v for k, v in m.output_mapping.items()}}
    if swap:
        d["inputs"], d["outputs"] = d["outputs"], d["inputs"]
    if dyn:
        d["dynamic_values"] = [IndexMapping.dynamic_val(i).name for i in range(len(dyn))]
    if m.dynamic_val_mappings:
        # a scalar dynamic value (a kernel's scalar argument, tkw.scalar) is the same at every coordinate: Wave
        # ignores the dims its dynamic_val_mappings entry names, the format wants none
        d["dynamic_val_mappings"] = [{} if i < len(dyn) and not dyn[i].shape else
                                     {dim_name(k): v for k, v in dm.items()}
                                     for i, dm in enumerate(m.dynamic_val_mappings)]
    return d


def _dyn_vals(vals, what, loc):
    if vals is None:
        return []
    if isinstance(vals, Reg):
        return [vals]
    return [as_reg(v, what + " mapping_dynamic_vals", loc) for v in vals]


def _access_fields(fields, elements_per_thread, mapping, mapping_dynamic_vals, what, loc, swap=False):
    dyn = _dyn_vals(mapping_dynamic_vals, what, loc)
    if elements_per_thread is not None:
        fields["elements_per_thread"] = elements_per_thread
    if mapping is not None:
        fields["mapping"] = _mapping_json(mapping, dyn, what, loc, swap)
    if dyn:
        if mapping is None:
            fail("%s: mapping_dynamic_vals need a mapping" % what, loc)
        fields["mapping_dynamic_vals"] = dyn
    return fields


class MemoryAccessFlags(enum.IntFlag):
    """Wave's flags of read and write: VOLATILE is the format's "volatile": true (each access goes to memory, in
    program order); NONTEMPORAL (a cache hint) changes no result and is dropped."""
    NONE = 0
    VOLATILE = 1
    NONTEMPORAL = 2


def _check_flags(flags, what, loc):
    """True when flags has VOLATILE."""
    v = int(getattr(flags, "value", flags) or 0)
    if v & ~int(MemoryAccessFlags.NONTEMPORAL | MemoryAccessFlags.VOLATILE):
        fail("%s: memory access flags %#x: only VOLATILE and NONTEMPORAL are Wave's" % (what, v), loc)
    return bool(v & int(MemoryAccessFlags.VOLATILE))


# ---- memory ----

def _bound_mapping(mem_shape, mem_side, reg_iters, what, loc, mapping, write=False):
    """The IndexMapping of Wave's source= / target= (iterator symbols bound to dims by an IteratorBindings
    constraint): reg_iters are iterator symbols, one per register dim; mem_side one index expression of them per
    memory dim, in the memory's order (templates/conv.py reads an image at (m // SZ_OUT, k % C, ...))."""
    from ._constraints import IteratorBindings
    if mapping is not None:
        fail("%s: source/target and a mapping together" % what, loc)
    if mem_side is None or reg_iters is None:
        fail("%s: source and target go together" % what, loc)
    binds = {}
    for c in getattr(current(), "constraints", ()):
        if isinstance(c, IteratorBindings):
            binds.update({dim_name(k): v for k, v in c.bindings.items()})
    mem_side, reg_iters = tuple(mem_side), tuple(reg_iters)
    # a traced value on the memory side (extend attention's k_cache rows through kv_indices) is a dynamic value
    # of the mapping, indexed by the iterators of the register dims it has
    dyn_regs = [e for e in mem_side if isinstance(e, Reg)]
    for s in reg_iters:
        if not isinstance(s, sympy.Symbol):
            fail("%s: the register side's iterators must be symbols, got %s" % (what, s), loc)
        if s.name not in binds:
            fail("%s: iterator %s has no dim: bind it with tkw.IteratorBindings({%s: DIM}) in the constraints"
                 % (what, s.name, s.name), loc)
    if len(mem_side) != len(mem_shape):
        fail("%s: %d indices for a memory of %d dims %s" % (what, len(mem_side), len(mem_shape),
                                                            dims_json(mem_shape)), loc)
    it = {s: IndexMapping.iterator(i) for i, s in enumerate(reg_iters)}
    dim_it = {dim_name(binds[s.name]): it[s] for s in reg_iters}
    dvm = []
    sides = []
    for e in mem_side:
        if isinstance(e, Reg):
            if not dim_set(e.shape) <= set(dim_it):
                fail("%s: the index value %s%s has dims the register side lacks (%s)"
                     % (what, e.name, dims_json(e.shape), ", ".join(sorted(dim_set(e.shape) - set(dim_it)))), loc)
            sides.append(IndexMapping.dynamic_val(len(dvm)))
            dvm.append({d: dim_it[dim_name(d)] for d in e.shape})
            continue
        sides.append(e)
    mem_side = tuple(sides)
    for e in mem_side:
        free = {x for x in sympy.sympify(e).free_symbols if x.name in binds}
        if not free <= set(it):
            fail("%s: the memory side's index %s names iterators the register side does not (%s)"
                 % (what, e, ", ".join(sorted(x.name for x in free - set(it)))), loc)
    mem_map = {d: sympy.sympify(e).xreplace(it) for d, e in zip(mem_shape, mem_side)}
    reg_map = {binds[s.name]: it[s] for s in reg_iters}
    if write:
        return IndexMapping(len(reg_iters), reg_map, mem_map, tuple(dvm)), dyn_regs
    return IndexMapping(len(reg_iters), mem_map, reg_map, tuple(dvm)), dyn_regs


def _dims_by_symbol(mem, mapping, write=False):
    """Wave lets a mapping name a memory dim by a symbol of it ({K: j} for b: Memory[K / 2, N], testPacked-
    NonTransposeGemm): a key that is no dim of the memory and is a free symbol of exactly one dim no key names is
    renamed to that dim, on both sides (the register's dim is then K / 2 too, as Wave's read gives it). Returns the
    mapping to use."""
    if mapping is None or not isinstance(mapping, IndexMapping):
        return mapping
    mem_side = mapping.output_mapping if write else mapping.input_mapping
    dims = [sympy.sympify(d) for d in mem.shape]
    keys = [sympy.sympify(k) for k in mem_side]
    ren = {}
    for k in keys:
        if k in dims or not isinstance(k, sympy.Symbol):
            continue
        cands = [d for d in dims if d not in keys and k in d.free_symbols]
        if len(cands) != 1:
            return mapping
        ren[k] = cands[0]
    if not ren:
        return mapping

    def side(m):
        return {ren.get(sympy.sympify(k), k): v for k, v in m.items()}
    return IndexMapping(mapping.num_iterators, side(mapping.input_mapping), side(mapping.output_mapping),
                        mapping.dynamic_val_mappings)


def _loop_axis_mapping(mem, mapping, loc):
    """Wave reads a memory with a dim A inside the loop over A, whose vector shape is 1, as one A element per trip
    (decode attention's phase 1 reads logits[U, B, N, M] in the loop over U as [B, N, M]): the format's read takes
    a mapping with A = start + $ARG<A> * tile on the memory side and no A on the register side (a given mapping
    whose register side has A as a bare iterator is rewritten so); emission checks that the tile is 1. Returns
    the mapping to use (the given one, unchanged, when the rule does not apply)."""
    from ._constraints import HardwareConstraint, TilingConstraint
    tr = current()
    cons = getattr(tr, "constraints", ())
    reg_dims = dims_json(mem.shape) if mapping is None else [dim_name(d) for d in mapping.output_mapping]
    for axis in reversed(tr.loop_axes):
        if axis is None or axis not in reg_dims:
            continue
        unit = any(isinstance(c, HardwareConstraint) and c.vector_shapes and
                   any(dim_name(k) == axis and v == 1 for k, v in c.vector_shapes.items()) for c in cons)
        tiling = [c for c in cons if isinstance(c, TilingConstraint) and dim_name(c.dim) == axis]
        if not unit or not tiling:
            return mapping
        t = tiling[0]
        step = t.tile_size if t.tile_size is not None else 1
        var = t.induction_var if t.induction_var is not None else sympy.Symbol("$ARG" + axis)
        at = (t.start or 0) + var * step
        if mapping is None:
            others = [d for d in mem.shape if dim_name(d) != axis]
            its = [IndexMapping.iterator(i) for i in range(len(others))]
            inputs = dict(zip(others, its))
            inputs.update({d: at for d in mem.shape if dim_name(d) == axis})
            inputs = {d: inputs[d] for d in mem.shape}
            tr.unit_tiles.append((axis, step, loc))
            return IndexMapping(len(others), inputs, dict(zip(others, its)))
        old = [v for k, v in mapping.output_mapping.items() if dim_name(k) == axis][0]
        if not isinstance(old, sympy.Symbol) or old not in mapping.iters:
            return mapping
        keep = sorted((s_ for s_ in mapping.iters if s_ != old), key=lambda s_: mapping.iters[s_])
        ren = {s_: IndexMapping.iterator(i) for i, s_ in enumerate(keep)}
        ren[old] = at

        def sub(e):
            return sympy.sympify(e).xreplace(ren)
        outs = {k: sub(v) for k, v in mapping.output_mapping.items() if dim_name(k) != axis}
        dvm = tuple({k: sub(v) for k, v in m.items() if dim_name(k) != axis} for m in mapping.dynamic_val_mappings)
        tr.unit_tiles.append((axis, step, loc))
        return IndexMapping(len(keep), {k: sub(v) for k, v in mapping.input_mapping.items()}, outs, dvm)
    return mapping


def read(memory, elements_per_thread=None, mapping=None, mapping_dynamic_vals=(), flags=None, source=None,
         target=None, bounds=None, tag=None):
    loc = user_location()
    mem = as_mem(memory, "tkw.read", loc)
    vol = _check_flags(flags, "tkw.read", loc)
    if source is not None or target is not None:
        mapping, regs = _bound_mapping(mem.shape, source, target, "tkw.read", loc, mapping)
        if regs:
            mapping_dynamic_vals = tuple(regs) + tuple(_dyn_vals(mapping_dynamic_vals, "tkw.read", loc))
    mapping = _loop_axis_mapping(mem, _dims_by_symbol(mem, mapping), loc)
    shape = mem.shape if mapping is None else tuple(mapping.output_mapping.keys())
    fields = _access_fields({"memory": mem}, elements_per_thread, mapping, mapping_dynamic_vals, "tkw.read", loc)
    if vol:
        fields["volatile"] = True
    return record("read", fields, [(shape, mem.dtype)], loc=loc)


def write(register_, memory, elements_per_thread=None, mapping=None, mapping_dynamic_vals=(), flags=None,
          source=None, target=None, bounds=None, tag=None):
    loc = user_location()
    reg = as_reg(register_, "tkw.write", loc)
    mem = as_mem(memory, "tkw.write", loc)
    vol = _check_flags(flags, "tkw.write", loc)
    if source is not None or target is not None:
        mapping, regs = _bound_mapping(mem.shape, target, source, "tkw.write", loc, mapping, write=True)
        if regs:
            mapping_dynamic_vals = tuple(regs) + tuple(_dyn_vals(mapping_dynamic_vals, "tkw.write", loc))
    if reg.dtype != mem.dtype:
        # Wave's write converts the value to the memory's element type (its codegen's cast_vector): a cast
        reg = record("cast", {"arg": reg, "dtype": mem.dtype}, [(reg.shape, mem.dtype)], loc=loc)
    mapping = _dims_by_symbol(mem, mapping, write=True)
    fields = _access_fields({"register": reg, "memory": mem}, elements_per_thread, mapping, mapping_dynamic_vals,
                            "tkw.write", loc)
    if vol:
        fields["volatile"] = True
    record("write", fields, [], loc=loc)


def _atomic_over_index(reg, mapping, dyn, what, loc):
    """Wave's histogram atomics (e2e test_dyn_atomic_add): a register of one value over dims R, added through a
    mapping whose memory side is a dynamic value with dims D (idx over NUMEL) while its dynamic_val_mappings name
    R (NUM_EXPERTS), dims the value lacks. Wave adds once per lane of the index (the lanes past R are not masked),
    which is an add of that one value at each element of the index: the register becomes one over D and the
    mapping iterates D. Returns (reg, mapping, dyn), unchanged where the pattern does not hold."""
    if mapping is None or len(dyn) != 1 or not dyn[0].shape or len(mapping.dynamic_val_mappings) != 1:
        return reg, mapping, dyn
    idx, dvm = dyn[0], mapping.dynamic_val_mappings[0]
    idims = [dim_name(d) for d in idx.shape]
    if not dvm or {dim_name(k) for k in dvm} <= set(idims):
        return reg, mapping, dyn
    node = reg.ref
    if getattr(node, "op", None) != "register":
        fail("%s: mapping_dynamic_vals: %s%s lacks dims %s that dynamic_val_mappings names; only a register of "
             "one value (tkw.Register[...](v)) can be added once per index element" % (
                 what, idx.name, dims_json(idx.shape),
                 ", ".join(sorted({dim_name(k) for k in dvm} - set(idims)))), loc)
    iters = set(mapping.iters)
    if any(getattr(e, "free_symbols", set()) & iters for e in mapping.input_mapping.values()):
        fail("%s: the memory side of a mapping whose index value lacks the register's dims must be of the index "
             "value alone" % what, loc)
    value = node.fields["value"]
    new_reg = register(idx.shape, reg.dtype, value)
    its = [IndexMapping.iterator(i) for i in range(len(idx.shape))]
    m = IndexMapping(num_iterators=len(its), inputs=dict(mapping.input_mapping),
                     outputs={d: it for d, it in zip(idx.shape, its)})  # the index at the register's own coordinates
    return new_reg, m, dyn


def atomic_add(lhs, rhs, elements_per_thread=None, mapping=None, mapping_dynamic_vals=()):
    loc = user_location()
    reg = as_reg(lhs, "tkw.atomic_add", loc)
    mem = as_mem(rhs, "tkw.atomic_add", loc)
    reg, mapping, mapping_dynamic_vals = _atomic_over_index(
        reg, mapping, _dyn_vals(mapping_dynamic_vals, "tkw.atomic_add", loc), "tkw.atomic_add", loc)
    # Wave's atomics index like a read (the mapping's outputs are the register's dims, its inputs the memory's);
    # the format places them like a write (inputs the register's): the sides swap
    fields = _access_fields({"lhs": reg, "rhs": mem}, elements_per_thread, mapping, mapping_dynamic_vals,
                            "tkw.atomic_add", loc, swap=True)
    return record("atomic_add", fields, [(reg.shape, reg.dtype)], loc=loc)


def atomic_min(lhs, rhs, elements_per_thread=None, mapping=None, mapping_dynamic_vals=()):
    loc = user_location()
    reg = as_reg(lhs, "tkw.atomic_min", loc)
    mem = as_mem(rhs, "tkw.atomic_min", loc)
    reg, mapping, mapping_dynamic_vals = _atomic_over_index(
        reg, mapping, _dyn_vals(mapping_dynamic_vals, "tkw.atomic_min", loc), "tkw.atomic_min", loc)
    # Wave's atomics index like a read (the mapping's outputs are the register's dims, its inputs the memory's);
    # the format places them like a write (inputs the register's): the sides swap
    fields = _access_fields({"lhs": reg, "rhs": mem}, elements_per_thread, mapping, mapping_dynamic_vals,
                            "tkw.atomic_min", loc, swap=True)
    return record("atomic_min", fields, [(reg.shape, reg.dtype)], loc=loc)


def scatter_add(register_src, register_idx, dim, memory, mapping=None, elements_per_thread=1, bounds=None):
    loc = user_location()
    src = as_reg(register_src, "tkw.scatter_add register_src", loc)
    idx = as_reg(register_idx, "tkw.scatter_add register_idx", loc)
    mem = as_mem(memory, "tkw.scatter_add", loc)
    fields = {"register_src": src, "register_idx": idx,
              "dim": dim if isinstance(dim, int) else dim_name(dim), "memory": mem}
    fields = _access_fields(fields, elements_per_thread, mapping, (), "tkw.scatter_add", loc)
    record("scatter_add", fields, [], loc=loc)


def allocate(shape, distributed_shape, dtype, address_space=None, padding=0):
    """Wave's tkw.allocate: a workgroup buffer in shared memory, which read, write and the atomics take."""
    loc = user_location()
    _dtype(dtype, "tkw.allocate", loc)
    shape = tuple(shape)
    if len(tuple(distributed_shape)) != len(shape):
        fail("tkw.allocate: distributed_shape has %d entries for the %d dims of %s"
             % (len(tuple(distributed_shape)), len(shape), dims_json(shape)), loc)
    fields = {"shape": [dim_name(d) for d in shape], "distributed_shape": list(distributed_shape), "dtype": dtype}
    if address_space is not None:
        sp = getattr(address_space, "name", address_space)
        fields["address_space"] = "shared" if sp in ("$SHARED_ADDRESS_SPACE", "SHARED_ADDRESS_SPACE") else sp
    if padding:
        fields["padding"] = int(padding)
    tr = current()
    node = Node(tr.unique("allocate"), "allocate", fields, loc, [])
    tr.stack[-1].append(node)
    return MemValue(node, shape, dtype)


def shared_memory_barrier(wait_async_ops=False):
    """An s_barrier: the waves of the workgroup meet (after writing an allocation, before reading it)."""
    loc = user_location()
    record("shared_memory_barrier", {"wait_async_ops": True} if wait_async_ops else {}, [], loc=loc)


def workgroup_barrier():
    loc = user_location()
    record("workgroup_barrier", {}, [], loc=loc)


# ---- values ----

def register(shape, dtype, value):
    loc = user_location()
    _dtype(dtype, "Register", loc)
    shape = tuple(shape)
    if isinstance(value, Reg):
        fail("Register[...](value): the value must be a number or an index expression, not a traced value", loc)
    if is_symbolic(value) and not value.is_number:
        if dtype.is_int_asm():
            s = record("scalar", {"value": str(value), "dtype": dtype}, [((), dtype)], loc=loc)
        else:  # a float register of an index expression (rmsnorm's Register[M, N, f32](EMB_SIZE)): its value cast
            from ._dtype import i32
            s = record("scalar", {"value": str(value), "dtype": i32}, [((), i32)], loc=loc)
            s = record("cast", {"arg": s, "dtype": dtype}, [((), dtype)], loc=loc)
        return record("broadcast", {"arg": s, "target_shape": list(shape)}, [(shape, dtype)], loc=loc)
    if is_symbolic(value):
        value = int(value) if value.is_Integer else float(value)
    if isinstance(value, bool):
        value = int(value)
    if not isinstance(value, (int, float)):
        fail("Register[...](%r): the value must be a number" % (value,), loc)
    value = float(value) if dtype.is_float_asm() else value
    if dtype.is_int_asm() and isinstance(value, float):
        if not value.is_integer():
            fail("Register[...](%r): an integer dtype needs an integer value" % value, loc)
        value = int(value)
    return record("register", {"shape": list(shape), "dtype": dtype, "value": value}, [(shape, dtype)], loc=loc)


def scalar(value, dtype):
    loc = user_location()
    _dtype(dtype, "tkw.scalar", loc)
    if isinstance(value, Reg):
        fail("tkw.scalar: the value must be a number or an index expression", loc)
    if is_symbolic(value):
        v = (int(value) if value.is_Integer else float(value)) if value.is_number else str(value)
    else:
        v = value
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        v = float(v) if dtype.is_float_asm() else v
    return record("scalar", {"value": v, "dtype": dtype}, [((), dtype)], loc=loc)


def self_index(dim, dtype, elements_per_thread=None):
    loc = user_location()
    _dtype(dtype, "tkw.self_index", loc)
    fields = {"dim": dim_name(dim), "dtype": dtype}
    if elements_per_thread is not None:
        fields["elements_per_thread"] = elements_per_thread
    return record("self_index", fields, [((dim,), dtype)], loc=loc)


def mma(lhs, rhs, acc, mma_type=None, tag=None):
    loc = user_location()
    a = as_reg(lhs, "tkw.mma lhs", loc)
    b = as_reg(rhs, "tkw.mma rhs", loc)
    c = as_reg(acc, "tkw.mma acc", loc)
    a, b = _reduction_dim_last(a, c, b, loc), _reduction_dim_last(b, c, a, loc)
    fields = {"lhs": a, "rhs": b, "acc": c}
    if mma_type is not None:
        fields["mma_type"] = mma_type.to_json() if hasattr(mma_type, "to_json") else getattr(mma_type, "name",
                                                                                             mma_type)
    return record("mma", fields, [(c.shape, c.dtype)], loc=loc)


def _reduction_dim_last(x, acc, other, loc):
    """Wave's registers index by dim names, so an mma operand may carry its reduction dim anywhere
    (backward_attention_test's ds_scaled_ij [B, M, K2] reducing M, the order a product with its [B, K2, M] factor
    took); the format wants it last: x permuted so (the same values)."""
    names = [dim_name(d) for d in x.shape]
    acc_names = {dim_name(d) for d in acc.shape}
    red = [d for d in names if d in {dim_name(e) for e in other.shape} and d not in acc_names]
    if len(red) != 1 or names[-1] == red[0]:
        return x
    order = [d for d in x.shape if dim_name(d) != red[0]] + [d for d in x.shape if dim_name(d) == red[0]]
    return record("permute", {"arg": x, "target_shape": list(order)}, [(tuple(order), x.dtype)], loc=loc)


def scaled_mma(lhs, lhs_scale, rhs, rhs_scale, acc, mma_type=None, tag=None):
    """Wave's tkw.scaled_mma: the OCP MX dot product, an e8m0 scale per 32 k (docs/kernel-format.md)."""
    loc = user_location()
    a = as_reg(lhs, "tkw.scaled_mma lhs", loc)
    sa = as_reg(lhs_scale, "tkw.scaled_mma lhs_scale", loc)
    b = as_reg(rhs, "tkw.scaled_mma rhs", loc)
    sb = as_reg(rhs_scale, "tkw.scaled_mma rhs_scale", loc)
    c = as_reg(acc, "tkw.scaled_mma acc", loc)
    for x, what in ((a, "lhs"), (b, "rhs")):
        if x.dtype.format_name not in MX_ELEMENT_DTYPES:
            fail("tkw.scaled_mma: %s %s is %s; it takes %s" % (what, x.name, x.dtype, ", ".join(MX_ELEMENT_DTYPES)),
                 loc)
    for x, what in ((sa, "lhs_scale"), (sb, "rhs_scale")):
        if x.dtype.format_name != "f8e8m0fnu":
            fail("tkw.scaled_mma: %s %s is %s, not f8e8m0fnu (bitcast the i8 scales)" % (what, x.name, x.dtype), loc)
    fields = {"lhs": a, "lhs_scale": sa, "rhs": b, "rhs_scale": sb, "acc": c}
    if mma_type is not None:
        if getattr(mma_type, "value", 0) >= 0x1900:
            fail("tkw.scaled_mma: %s is not in wavecc-kernel/1 (a gfx1250 type)" % mma_type.name, loc)
        fields["mma_type"] = getattr(mma_type, "name", mma_type)
    return record("scaled_mma", fields, [(c.shape, c.dtype)], loc=loc)


def cast(src, dtype):
    loc = user_location()
    x = as_reg(src, "tkw.cast", loc)
    _dtype(dtype, "tkw.cast", loc)
    return record("cast", {"arg": x, "dtype": dtype}, [(x.shape, dtype)], loc=loc)


def bitcast(src, dtype, target_shape=None):
    loc = user_location()
    x = as_reg(src, "tkw.bitcast", loc)
    _dtype(dtype, "tkw.bitcast", loc)
    fields = {"arg": x, "dtype": dtype}
    shape = x.shape
    if any(t.format_name.startswith("f6") for t in (x.dtype, dtype)):
        fail("tkw.bitcast: %s to %s: f6 values have no packed form in wavecc-kernel/1: cast them"
             % (x.dtype, dtype), loc)
    sa, sd = storage_bits(x.dtype), storage_bits(dtype)
    if target_shape is not None:
        fields["target_shape"] = list(target_shape)
        shape = tuple(target_shape)
    elif sa != sd and shape:
        # the last dim f times longer (or shorter): i8 [M, K/2] to f4e2m1fn is [M, K]
        last = sympy.sympify(shape[-1]) if isinstance(shape[-1], str) else shape[-1]
        shape = tuple(shape[:-1]) + (last * sympy.Rational(sa, sd),)
    return record("bitcast", fields, [(shape, dtype)], loc=loc)


def broadcast(arg, target_shape=None):
    loc = user_location()
    x = as_reg(arg, "tkw.broadcast", loc)
    if target_shape is None:
        fail("tkw.broadcast: a target_shape is needed (wavecc infers none)", loc)
    target = tuple(target_shape)
    if not dim_set(x.shape) <= dim_set(target):
        fail("tkw.broadcast: %s%s does not fit in %s" % (x.name, dims_json(x.shape), dims_json(target)), loc)
    return record("broadcast", {"arg": x, "target_shape": list(target)}, [(target, x.dtype)], loc=loc)


def permute(src, target_shape):
    loc = user_location()
    x = as_reg(src, "tkw.permute", loc)
    target = tuple(target_shape)
    if sorted(dims_json(target)) != sorted(dims_json(x.shape)):
        fail("tkw.permute: %s is not a reordering of %s" % (dims_json(target), dims_json(x.shape)), loc)
    return record("permute", {"arg": x, "target_shape": list(target)}, [(target, x.dtype)], loc=loc)


def select(cond, if_true, if_false):
    loc = user_location()
    c = as_reg(cond, "tkw.select cond", loc)
    t = coerce(if_true, if_false if isinstance(if_false, Reg) else c, loc)
    f = coerce(if_false, t, loc)
    if c.dtype != i1:
        fail("tkw.select: the condition is %s, not i1" % c.dtype, loc)
    if t.dtype != f.dtype:
        fail("tkw.select: if_true is %s, if_false %s" % (t.dtype, f.dtype), loc)
    shape = builtins.max((c.shape, t.shape, f.shape), key=len)
    return record("select", {"cond": c, "if_true": t, "if_false": f}, [(shape, t.dtype)], loc=loc)


def extract(register, offsets):
    loc = user_location()
    x = as_reg(register, "tkw.extract", loc)
    off = offsets[0] if isinstance(offsets, (list, tuple)) else offsets
    shape = x.shape[:-1] if len(x.shape) > 1 else x.shape
    return record("extract", {"register": x, "offset": off}, [(shape, x.dtype)], loc=loc)


def extract_slice(register, offsets, sizes, strides):
    loc = user_location()
    x = as_reg(register, "tkw.extract_slice", loc)
    return record("extract_slice", {"register": x, "offset": list(offsets), "size": list(sizes),
                                    "stride": list(strides)}, [(x.shape, x.dtype)], loc=loc)


def set_symbol(symbol, value):
    loc = user_location()
    x = as_reg(value, "tkw.set_symbol", loc)
    if not isinstance(symbol, sympy.Symbol):
        fail("tkw.set_symbol: expected a symbol, got %r" % (symbol,), loc)
    record("set_symbol", {"symbol": symbol.name, "register": x}, [], loc=loc)


def apply_expr(value, expr):
    loc = user_location()
    regs = [value] if isinstance(value, Reg) else list(value)
    regs = [as_reg(r, "tkw.apply_expr", loc) for r in regs]
    try:
        names = list(inspect.signature(expr).parameters)
    except (TypeError, ValueError):
        names = []
    if len(names) != len(regs):
        names = ["$p%d" % i for i in range(len(regs))]
    from .indexing import index_symbol
    params = [index_symbol(n) for n in names]
    e = expr(*params)
    shape = regs[0].shape
    for r in regs[1:]:
        if not dim_set(r.shape) <= dim_set(shape):
            shape = r.shape
    rel = isinstance(e, (sympy.logic.boolalg.Boolean, bool))
    fields = {"register": regs[0] if isinstance(value, Reg) else regs, "params": names, "expr": e}
    return record("apply_expr", fields, [(shape, i1 if rel else regs[0].dtype)], loc=loc)


# ---- reductions ----

def _reduce(op, src, acc, dim, block, loc):
    srcs = list(src) if isinstance(src, (list, tuple)) else [src]
    srcs = [as_reg(s, "tkw." + op, loc) for s in srcs]
    x = srcs[0]
    if dim is None or dim == -1:
        if not x.shape:
            fail("tkw.%s: a rank-0 value has no dim to reduce" % op, loc)
        dim = x.shape[-1]
    if dim_name(dim) not in dim_set(x.shape):
        fail("tkw.%s: %s is not a dim of %s%s" % (op, dim_name(dim), x.name, dims_json(x.shape)), loc)
    fields = {"arg": srcs if isinstance(src, (list, tuple)) else x}
    if acc is not None:
        fields["init"] = as_reg(acc, "tkw.%s init" % op, loc)
    fields["dim"] = dim_name(dim)
    if block:
        fields["block"] = True
    if op == "cumsum":
        return record(op, fields, [(x.shape, x.dtype)], loc=loc)
    shape = tuple(d for d in x.shape if dim_name(d) != dim_name(dim))
    return record(op, fields, [(shape, x.dtype)], loc=loc)


def sum(src, acc=None, dim=None, block=False):
    return _reduce("sum", src, acc, dim, block, user_location())


def max(src, acc=None, dim=None, block=False):
    return _reduce("max", src, acc, dim, block, user_location())


def min(src, acc=None, dim=None, block=False):
    return _reduce("min", src, acc, dim, block, user_location())


def cumsum(src, acc=None, dim=None, block=False):
    loc = user_location()
    if acc is not None:
        fail("tkw.cumsum: an init value is not in wavecc-kernel/1", loc)
    return _reduce("cumsum", src, None, dim, block, loc)


def topk(src, k_dim, dim):
    """Wave's tkw.topk: the k_dim largest elements along dim and their coordinates (i32), a pair."""
    loc = user_location()
    x = as_reg(src, "tkw.topk", loc)
    if not any(dim_name(d) == dim_name(dim) for d in x.shape):
        fail("tkw.topk: %s is not a dim of %s%s" % (dim_name(dim), x.dtype, dims_json(x.shape)), loc)
    shape = tuple(k_dim if dim_name(d) == dim_name(dim) else d for d in x.shape)
    from ._dtype import i32
    return record("topk", {"arg": x, "k_dim": dim_name(k_dim), "dim": dim_name(dim)},
                  [(shape, x.dtype), (shape, i32)], loc=loc)


# ---- regions ----

def iterate(axis, init_args=(), start=None, condition=None, step=1, tag=None, max_trips=None):
    """Wave's tkw.iterate: a counted loop over axis's tiles, or, with start and condition, a while loop (the body
    sets the axis with tkw.set_symbol; docs/kernel-format.md, "Loops with a condition").

    max_trips (wavecc's, not Wave's): the bound on the trips of a loop whose axis is carried (start one of
    init_args, a value read from memory: Wave's speculative decoding walks a draft tree so), written as the
    format's `max_trips` (an integer or an index expression; docs/kernel-format.md, "A carried axis with
    max_trips"): the loop stops when its condition fails or after max_trips trips."""
    loc = user_location()
    if max_trips is not None:
        if start is None:
            fail("tkw.iterate: max_trips bounds a loop with a condition whose axis is carried (start one of "
                 "init_args)", loc)
        if isinstance(max_trips, bool) or not isinstance(max_trips, (int, sympy.Basic)) or isinstance(max_trips, Reg):
            fail("tkw.iterate: max_trips must be an integer or an index expression, got %r" % (max_trips,), loc)
    if (start is None) != (condition is None):
        fail("tkw.iterate: start and condition go together (a loop with a condition)", loc)
    if step != 1:
        fail("tkw.iterate: step %r: a loop's step is its tiling constraint's tile (or, with a condition, what the "
             "body's set_symbol adds to the axis)" % (step,), loc)
    inits = [as_reg(v, "tkw.iterate init_args", loc) for v in init_args]
    fields = {"axis": dim_name(axis)}
    if start is not None:
        if isinstance(start, Reg):
            from ._trace import ScalarArg
            if isinstance(start.ref, ScalarArg) and start.dtype.is_int_asm():
                # a kernel's integer scalar argument (Wave's sequential batched GEMM's init_value): the format's
                # start must fold into a symbol's value, so the argument becomes a dynamic symbol of its name
                # (a call's value compiles the kernel for it) and start a scalar node of that symbol
                from .indexing import index_symbol
                current().symbol_scalars.add(start.ref.name)
                start = scalar(index_symbol(start.ref.name), start.dtype)
            fields["start"] = start
        elif isinstance(start, (int, sympy.Basic)) and not isinstance(start, bool):
            fields["start"] = start
        else:
            fail("tkw.iterate: start must be a traced integer value (tkw.scalar) or an index expression, got %r"
                 % (start,), loc)
        if isinstance(condition, Reg) or not isinstance(condition, (sympy.Basic, bool)):
            fail("tkw.iterate: condition must be an index expression over %s (AXIS < B), got %r"
                 % (dim_name(axis), condition), loc)
        fields["condition"] = condition
        if max_trips is not None:
            fields["max_trips"] = max_trips

    def decorator(f):
        return region("iterate", f, inits, fields, loc)
    return decorator


reduction = iterate  # Wave's earlier name for iterate


def conditional(condition, else_return=None):
    loc = user_location()
    if isinstance(condition, Reg):
        cond = condition
    elif isinstance(condition, (bool, sympy.Basic)):
        cond = str(condition) if not isinstance(condition, bool) else ("True" if condition else "False")
    else:
        fail("tkw.conditional: the condition must be a traced value or an index expression, got %r"
             % (condition,), loc)
    inits = [as_reg(v, "tkw.conditional else_return", loc) for v in (else_return or [])]

    def decorator(f):
        return region("conditional", f, inits, {"condition": cond}, loc)
    return decorator


# ---- the elementwise families ----

def _make_unary(name):
    def op(src):
        return _unary(name, src, user_location())
    op.__name__ = name
    return op


def _make_binary(name, compare=False):
    def op(lhs, rhs):
        return _binary(name, lhs, rhs, compare, user_location())
    op.__name__ = name
    return op


for _n in UNARY:
    globals()[_n] = _make_unary(_n)
for _n in BINARY:
    globals()[_n] = _make_binary(_n)
for _n in COMPARE:
    globals()[_n] = _make_binary(_n, True)


def log(src):
    return _unary("log", src, user_location())


# ---- hints and the ops outside the format ----

def set_wave_prio(priority):
    """An s_setprio where it stands (docs/kernel-format.md)."""
    record("set_wave_prio", {"priority": int(priority)}, [], loc=user_location())


def _sched_op(o):
    return str(getattr(o, "value", o))


def scheduling_barrier(operations=(), *args, **kwargs):
    """A hint to LLVM's scheduler in Wave: recorded, no code."""
    record("scheduling_barrier", {"operations": [_sched_op(o) for o in operations or ()]}, [], loc=user_location())


def scheduling_group_barrier(instructions=None, sync_id=0, *args, **kwargs):
    """A hint to LLVM's scheduler in Wave: recorded, no code."""
    fields = {"instructions": {_sched_op(k): int(v) for k, v in (instructions or {}).items()}, "sync_id": int(sync_id)}
    record("scheduling_group_barrier", fields, [], loc=user_location())


def _counter_wait(op, load, store, ds, exp):
    fields = {k: int(v) for k, v in (("load", load), ("store", store), ("ds", ds), ("exp", exp)) if v is not None}
    record(op, fields, [], loc=user_location())


def memory_counter_wait(load=None, store=None, ds=None, exp=None):
    """An s_waitcnt where it stands (wavecc still adds every wait the kernel needs)."""
    _counter_wait("memory_counter_wait", load, store, ds, exp)


def memory_counter_wait_barrier(load=None, store=None, ds=None, exp=None):
    """memory_counter_wait, then an s_barrier."""
    _counter_wait("memory_counter_wait_barrier", load, store, ds, exp)


def softsign(src, logit_cap=30.0, apply_scaling=False, head_dim=None):
    """Wave's softsign logit cap: x / (1 + |x / cap|), cap scaled by head_dim^-1/2 with apply_scaling."""
    loc = user_location()
    x = as_reg(src, "softsign", loc)
    fields = {"arg": x, "logit_cap": float(logit_cap), "apply_scaling": bool(apply_scaling)}
    if head_dim is not None:
        fields["head_dim"] = int(head_dim)
    return record("softsign", fields, [(x.shape, x.dtype)], loc=loc)


_OUTSIDE = {
    "reshape": " (wavecc distributes registers itself: read or compute the value in the shape needed, or use "
               "tkw.extract / tkw.extract_slice / tkw.permute)",
    "shuffle": " (a lane exchange: wavecc's reductions (tkw.sum, tkw.max, ...) emit their own cross-lane steps)",
    "bounds_check": "",
    "shared_memory_barrier_signal": "",
    "shared_memory_barrier_wait": "",
    "tensor_counter_wait": "", "tensor_load_to_lds": "", "gather_to_lds": "",
}


class _NotInFormat(TraceError, NotImplementedError):
    """An op Wave has and wavecc-kernel/1 does not: a TraceError that is also a NotImplementedError."""


def _unsupported(name, why):
    def op(*args, **kwargs):
        loc = user_location()
        raise _NotInFormat("%s: tkw.%s is not implemented by wavecc: the op is not in wavecc-kernel/1%s"
                           % (format_location(loc), name, why))
    op.__name__ = name
    return op


for _n, _why in _OUTSIDE.items():
    globals()[_n] = _unsupported(_n, _why)


def debug_log(register_, label=None, extra_iteration_dimensions=None, mapping=None, mapping_dynamic_vals=(),
              printer=None, handler=None, tag=None):
    """Wave's tkw.debug_log: a write of the value to a hidden global memory the call allocates (named label, else
    debug_log_output_<i>; its dims the value's, or the mapping's memory side), returned in the call's debug_logs=
    dict as {"value": array, "symbolic_shape": dims, "iteration_dimensions": [...]}, then printer(name, value)
    and handler(debug_logs) run. extra_iteration_dimensions [(SYM, AXIS, n)] add a leading dim SYM of n slots
    written at the loop over AXIS' trip min(trip, n - 1)."""
    from ._types import Memory
    from .indexing import index_symbol
    loc = user_location()
    reg = as_reg(register_, "tkw.debug_log", loc)
    tr = current()
    logs = tr.debug_logs
    name = label if label else "debug_log_output_%d" % len(logs)
    if name in [d["name"] for d in logs]:
        fail("tkw.debug_log: label %r is taken by another log" % name, loc)
    arg_name = tr.unique(name)  # the argument's name in the graph (a value may have the label's name)
    if mapping is None:
        dims = list(reg.shape)
        its = [IndexMapping.iterator(i) for i in range(len(dims))]
        mapping_in, mapping_out, dvm = dict(zip(dims, its)), dict(zip(dims, its)), ()
    else:
        if not isinstance(mapping, IndexMapping):
            fail("tkw.debug_log: mapping must be a tkw.IndexMapping, got %r" % (mapping,), loc)
        mapping_in, mapping_out = dict(mapping.input_mapping), dict(mapping.output_mapping)
        dvm = mapping.dynamic_val_mappings
    extra = []
    for entry in extra_iteration_dimensions or ():
        if len(entry) != 3:
            fail("tkw.debug_log: extra_iteration_dimensions entries are (symbol, iteration axis, count), got %r"
                 % (entry,), loc)
        sym, axis, n = entry
        if dim_name(axis) not in tr.loop_axes:
            fail("tkw.debug_log: extra iteration dimension %s: %s is not the axis of an enclosing tkw.iterate"
                 % (dim_name(sym), dim_name(axis)), loc)
        from ._constraints import TilingConstraint
        t = [c for c in getattr(tr, "constraints", ()) if isinstance(c, TilingConstraint)
             and dim_name(c.dim) == dim_name(axis)]
        var = t[0].induction_var if t and t[0].induction_var is not None else \
            sympy.Symbol("$ARG" + dim_name(axis))
        extra.append((sym, int(n)))
        mapping_out = dict([(sym, sympy.Min(var, int(n) - 1))] + list(mapping_out.items()))
    mem_dims = list(mapping_out.keys())
    mtype = Memory[tuple(mem_dims) + (index_symbol("$GLOBAL_ADDRESS_SPACE"), reg.dtype)]
    from ._trace import MemArg
    arg = MemArg(arg_name, mtype, loc)
    logs.append({"name": name, "arg": arg, "printer": printer, "extra": extra,
                 "symbolic_shape": mem_dims})
    if handler is not None:
        tr.debug_handlers.append(handler)
    m = None if mapping is None and not extra else \
        IndexMapping(mapping.num_iterators if mapping is not None else len(reg.shape), mapping_in, mapping_out, dvm)
    write(reg, arg, mapping=m, mapping_dynamic_vals=mapping_dynamic_vals)


def tag(expr, tag_name):
    """Wave's op tags steer its manual schedules; wavecc keeps the value unchanged."""
    return expr


__all__ = (["MemoryAccessFlags", "read", "write", "atomic_add", "atomic_min", "scatter_add", "allocate",
            "shared_memory_barrier",
            "workgroup_barrier", "topk", "register", "scalar", "self_index", "mma", "scaled_mma", "cast", "bitcast",
            "broadcast", "permute", "select", "extract", "extract_slice", "set_symbol", "apply_expr", "sum", "max",
            "min", "cumsum", "iterate", "reduction", "conditional", "log", "set_wave_prio", "scheduling_barrier",
            "scheduling_group_barrier", "memory_counter_wait", "memory_counter_wait_barrier", "softsign", "tag",
            "debug_log"] + UNARY + BINARY + COMPARE + list(_OUTSIDE))


def _accept_tag(fn):
    """Wave's ops all take tag= (names for manual schedules, which wavecc does not run): accepted and dropped."""
    try:
        if "tag" in inspect.signature(fn).parameters:
            return fn
    except (TypeError, ValueError):
        return fn
    import functools

    @functools.wraps(fn)
    def op(*args, tag=None, **kwargs):
        return fn(*args, **kwargs)
    return op


for _n in __all__:
    _f = globals().get(_n)
    if inspect.isfunction(_f) and _n not in ("tag", "iterate", "reduction", "conditional"):
        globals()[_n] = _accept_tag(_f)
