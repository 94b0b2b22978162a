"""Wave's wave_lang.kernel.wave.utils.general_utils: the helpers Wave's tests import."""
from ....._compile import SchedulingType  # noqa: F401


def get_default_scheduling_params():
    """Wave's scheduling delays and units: wavecc's scheduler has its own model; accepted in subs, not emitted."""
    from ...lang import global_symbols as g
    return {g.READ_SHARED_DELAY: 1, g.WRITE_SHARED_DELAY: 1, g.READ_GLOBAL_DELAY: 2, g.WRITE_GLOBAL_DELAY: 2,
            g.MMA_DELAY: 1, g.VALU_DELAY: 1, g.SHUFFLE_DELAY: 1, g.SHARED_MEMORY_UNITS: 4,
            g.GLOBAL_MEMORY_UNITS: 4, g.MMA_UNITS: 4, g.VALU_UNITS: 2, g.SHUFFLE_UNITS: 2}


def ceildiv(a, b):
    return -(-a // b)


def torch_dtype_to_wave(torch_dtype):
    """Wave's dtype of a torch (or numpy) dtype."""
    from ..... import _dtype
    if isinstance(torch_dtype, _dtype.DataType):
        return torch_dtype
    name = getattr(torch_dtype, "__name__", None) or str(torch_dtype).replace("torch.", "")
    table = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int8": "i8",
             "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "i1",
             "float8_e4m3fnuz": "f8e4m3fnuz", "float8_e5m2fnuz": "f8e5m2fnuz", "float8_e4m3fn": "f8e4m3fn",
             "float8_e5m2": "f8e5m2"}
    if name not in table:
        raise ValueError("no Wave dtype for %s" % torch_dtype)
    for v in vars(_dtype).values():
        if isinstance(v, _dtype.DataType) and v.format_name == table[name]:
            return v
    raise ValueError("no Wave dtype for %s" % torch_dtype)


def check_leaks(f):
    """Wave's torch-tensor leak check (with WAVE_CHECK_LEAKS=1): wavecc keeps no tensors, so f unchanged."""
    return f


def _torch_dtype_table():
    out = {}
    try:
        import torch
    except ImportError:
        return out
    for name in ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
                 "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3fn", "float8_e5m2"):
        t = getattr(torch, name, None)
        if t is not None and t not in out:
            try:
                out[t] = torch_dtype_to_wave(t)
            except (ValueError, TypeError):
                pass
    return out


class _TorchDtypeTable(dict):
    """TORCH_DTYPE_TO_WAVE, filled on first use: importing torch at our import would make
    torch_utils' makers give torch tensors to a program that never imported torch."""

    def _fill(self):
        if not getattr(self, "_filled", False):
            self._filled = True
            self.update(_torch_dtype_table())
        return self

    def __getitem__(self, k):
        return dict.__getitem__(self._fill(), k)

    def __contains__(self, k):
        return dict.__contains__(self._fill(), k)

    def __iter__(self):
        return dict.__iter__(self._fill())

    def __len__(self):
        return dict.__len__(self._fill())

    def get(self, k, default=None):
        return dict.get(self._fill(), k, default)

    def items(self):
        return dict.items(self._fill())

    def keys(self):
        return dict.keys(self._fill())

    def values(self):
        return dict.values(self._fill())


TORCH_DTYPE_TO_WAVE = _TorchDtypeTable()


def run_test(func):
    """Wave's lit-test helper: prints the function's name, runs it, prints a separator, returns it."""
    print(func.__name__)
    func()
    print("-----")
    return func


def delinearize_index(index, shape):
    """The multi-dimensional index of a linear index in shape (row-major): for [5, 4, 3], [x // 12 % 5,
    x // 3 % 4, x % 3] (Wave's, as SymPy floor and Mod)."""
    import sympy
    out, product = [], 1
    for i, size in enumerate(reversed(shape)):
        out.append(index % size if i == 0 else sympy.floor(index / product) % size)
        product *= size
    return out[::-1]


def divide_shape_into_chunks(shape, num_chunks):
    """Wave's: split shape into num_chunks equal chunks, taking from the leftmost dim first as large a factor of
    the chunks still to place as divides it (its gcd). Returns (chunks per dim, the chunk's shape); a ValueError
    when the shape cannot be split so."""
    import math
    if num_chunks <= 0:
        raise ValueError("num_chunks must be positive, got %s" % num_chunks)
    shape = list(shape)
    if not shape:
        raise ValueError("shape must be non-empty")
    per_dim, left = [1] * len(shape), num_chunks
    for i, n in enumerate(shape):
        if left == 1:
            break
        per_dim[i] = math.gcd(n, left)
        left //= per_dim[i]
    if left != 1:
        raise ValueError("Cannot evenly divide shape %s into %d chunks. Remaining chunks after processing: %d"
                         % (shape, num_chunks, left))
    return per_dim, [n // c for n, c in zip(shape, per_dim)]


# the finite range of each dtype (Wave's TORCH_DTYPE_RANGE), by dtype name
_DTYPE_RANGE = {
    "bfloat16": [-3.3895313892515355e38, 3.3895313892515355e38], "float8_e5m2": [-57344.0, 57344.0],
    "float8_e5m2fnuz": [-57344.0, 57344.0], "float8_e4m3fn": [-448.0, 448.0], "float8_e4m3fnuz": [-240.0, 240.0],
    "float16": [-65504.0, 65504.0], "float32": [-3.4028234663852886e38, 3.4028234663852886e38],
    "float64": [-1.7976931348623157e308, 1.7976931348623157e308], "int8": [-128, 127], "int16": [-32768, 32767],
    "int32": [-2147483648, 2147483647], "int64": [-9223372036854775808, 9223372036854775807]}


def torch_dtype_range(torch_dtype):
    """[lowest, highest] of a dtype: a torch dtype, a numpy one (np.float16) or a Wave dtype (tkl.bf16)."""
    from ..... import _dtype
    name = None
    if isinstance(torch_dtype, _dtype.DataType):
        name = {v: k for k, v in {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
                                  "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
                                  "float8_e4m3fnuz": "f8e4m3fnuz", "float8_e5m2fnuz": "f8e5m2fnuz",
                                  "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2"}.items()}.get(
            torch_dtype.format_name)
    else:
        name = getattr(torch_dtype, "__name__", None) or str(torch_dtype).replace("torch.", "")
        try:
            import numpy
            name = numpy.dtype(torch_dtype).name if name not in _DTYPE_RANGE else name
        except TypeError:
            pass
    if name not in _DTYPE_RANGE:
        raise ValueError("Unable to retrieve torch dtype %s range." % (torch_dtype,))
    return _DTYPE_RANGE[name]
