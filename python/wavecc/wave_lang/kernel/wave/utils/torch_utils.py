"""Wave's wave_lang.kernel.wave.utils.torch_utils: the device_* tensor makers Wave's tests use.

Wave makes its tensors on the GPU; wavecc runs kernels on its emulator (or
on HIP through the library, from host memory), so these make host tensors:
CPU torch tensors when torch is installed, else numpy arrays (and numpy
arrays too when the dtype given is a numpy one: a program written with
numpy dtypes works on numpy arrays). Without torch
the dtype may be a numpy dtype (numpy.float16), a Wave dtype (tkl.f16), a
name ("float16"), or None (float32; int64 for the integer makers); bf16
(tkl.bf16, "bfloat16", wavecc.bfloat16) gives uint16 bit patterns
(wavecc.bf16), f8 types their raw uint8 bits. Arguments are torch's:
device_randint(high, size), (low, high, size) or low=, high=, size=
keywords; the shape as one tuple or as separate numbers. A kernel call takes
either kind of tensor."""
import math

import sys


class _TorchIfImported:
    """torch as the program imported it, else None (numpy stands in): the makers give torch
    tensors to a program that works with torch, numpy arrays to one that never imported it
    (Wave's programs with their torch tensors replaced by numpy arrays), torch installed or not."""

    def __getattr__(self, name):
        return getattr(sys.modules["torch"], name)

    def __bool__(self):
        return sys.modules.get("torch") is not None


_torch_ref = _TorchIfImported()


def _np():
    import numpy
    return numpy


def _shape(args, kwargs=None):
    if kwargs and "size" in kwargs:
        return tuple(kwargs["size"])
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def _numpy_dtype_given(d):
    """Is d a numpy dtype (numpy.float16, numpy.dtype("f2"), wavecc.bfloat16)? A program that
    names numpy dtypes works on numpy arrays, so the makers give it numpy arrays even with torch
    installed."""
    if d is None or not _torch_ref:
        return False
    np = _np()
    return isinstance(d, np.dtype) or (isinstance(d, type) and issubclass(d, np.generic))


_TORCH_NAMES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16", "i8": "int8",
                "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "i1": "bool", "bool": "bool"}


def _torch_dtype(d):
    """The torch dtype d names (a torch dtype, a Wave dtype such as tkl.f16, a name such as
    "float16"), None for None, or False when torch has none (an f8 type torch lacks: numpy
    makes those as raw bits)."""
    if d is None or isinstance(d, _torch_ref.dtype):
        return d
    name = getattr(d, "format_name", None) or str(d).replace("torch.", "")
    name = _TORCH_NAMES.get(name, name)
    t = getattr(sys.modules["torch"], name, None)
    return t if isinstance(t, _torch_ref.dtype) else False


def _use_torch(kwargs):
    """Whether a maker gives a torch tensor: torch is installed, the dtype is not a numpy one and
    torch has it."""
    if not _torch_ref:
        return False
    d = kwargs.get("dtype")
    return not _numpy_dtype_given(d) and _torch_dtype(d) is not False


def _host(kwargs):
    kwargs = dict(kwargs)
    kwargs.pop("device", None)
    if _use_torch(kwargs):
        if kwargs.get("dtype") is not None:
            kwargs["dtype"] = _torch_dtype(kwargs["dtype"])
        return kwargs
    for k in ("size", "generator", "requires_grad", "layout", "pin_memory", "memory_format"):
        kwargs.pop(k, None)
    kwargs["dtype"] = _np_dtype(kwargs.get("dtype"))
    return kwargs


_RAW_BITS = {"bf16": "uint16", "f8e4m3fnuz": "uint8", "f8e5m2fnuz": "uint8", "f8e4m3fn": "uint8",
             "f8e5m2": "uint8", "f8e8m0fnu": "uint8"}


def _np_dtype(d):
    """The numpy dtype a dtype argument names (None stays None: the maker's default)."""
    if d is None:
        return None
    from ..... import bf16
    if bf16.is_bf16_dtype(d):
        return bf16.bfloat16
    np = _np()
    fmt = getattr(d, "format_name", None)  # a Wave dtype
    if fmt is not None:
        from ....._compile import numpy_dtype
        return numpy_dtype(fmt)
    name = str(d).replace("torch.", "")
    if name.startswith("float8"):
        return np.dtype(np.uint8)
    return np.dtype(d)


def _cast(values, dtype):
    """values (float64 or integers) as dtype; to bf16 bits rounded."""
    from ..... import bf16
    if dtype is not None and bf16.is_bf16_dtype(dtype):
        return bf16.to_bf16(values)
    return values.astype(dtype)


def get_default_gpu_device_name():
    return "cpu"


def get_default_device():
    return "cpu"


def to_default_device(tensor):
    return tensor


def device_arange(*args, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.arange(*args, **_host(kwargs))
    kw = _host(kwargs)
    dtype = kw.get("dtype")
    return _cast(_np().arange(*args), dtype) if dtype is not None else _np().arange(*args)


def device_empty(*args, **kwargs):
    return device_zeros(*args, **kwargs)


def device_full(size, fill_value, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.full(size, fill_value, **_host(kwargs))
    dtype = _host(kwargs).get("dtype")
    return _cast(_np().full(size, fill_value), dtype) if dtype is not None else _np().full(size, fill_value)


def device_randn(*args, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.randn(*args, **_host(kwargs))
    kw = _host(kwargs)
    np = _np()
    return _cast(np.random.standard_normal(_shape(args, kwargs)), kw.get("dtype") or np.dtype(np.float32))


def device_randint(*args, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.randint(*args, **_host(kwargs))
    kw = _host(kwargs)
    np = _np()
    pos = list(args)
    if len(pos) == 3 or (len(pos) == 2 and "size" in kwargs):  # low, high, size or low, high
        low, high = pos[0], pos[1]
    elif pos:  # high, size or high
        low, high = kwargs.get("low", 0), pos[0]
    else:
        low, high = kwargs.get("low", 0), kwargs["high"]
    size = kwargs["size"] if "size" in kwargs else pos[-1] if len(pos) >= 2 else ()
    size = (size,) if isinstance(size, int) else tuple(size)
    return np.random.randint(low, high, size=size).astype(kw.get("dtype") or np.int64)


def device_randperm(n, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.randperm(n, **_host(kwargs))
    np = _np()
    return np.random.permutation(n).astype(_host(kwargs).get("dtype") or np.int64)


def device_tensor(data, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.tensor(data, **_host(kwargs))
    dtype = _host(kwargs).get("dtype")
    return _cast(_np().array(data), dtype) if dtype is not None else _np().array(data)


def device_zeros(*args, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.zeros(*args, **_host(kwargs))
    np = _np()
    return np.zeros(_shape(args, kwargs), dtype=_host(kwargs).get("dtype") or np.float32)


def device_ones(*args, **kwargs):
    if _use_torch(kwargs):
        return _torch_ref.ones(*args, **_host(kwargs))
    np = _np()
    dtype = _host(kwargs).get("dtype") or np.dtype(np.float32)
    return _cast(np.ones(_shape(args, kwargs)), dtype)


def ceildiv(a, b):
    return -(-a // b) if isinstance(a, int) and isinstance(b, int) else math.ceil(a / b)


def quantized_tensor(shape, dtype, scale):
    """Wave's: ceil(clamp(randn(shape) * scale, -scale, scale)), whole numbers in [-scale, scale]."""
    x = device_randn(shape, dtype=dtype) * scale
    if bool(_torch_ref) and isinstance(x, _torch_ref.Tensor):
        return _torch_ref.ceil(_torch_ref.clamp(x, -scale, scale))
    np = _np()
    return np.ceil(np.clip(x, -scale, scale)).astype(x.dtype)

DEFAULT_GPU_DEVICE = "cpu"  # Wave: the GPU tensors go to; wavecc makes host tensors
