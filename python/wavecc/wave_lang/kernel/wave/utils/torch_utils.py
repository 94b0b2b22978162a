"""Wave's wave_lang.kernel.wave.utils.torch_utils: the device_* tensor makers Wave's tests use.

Wave makes its tensors on the GPU; wavecc runs kernels on its emulator (or
on HIP through the library, from host memory), so these make host tensors:
CPU torch tensors when torch is installed, else numpy arrays (the dtype then
a numpy dtype: numpy.float16, ...). A kernel call takes either."""
import math

try:
    import torch as _torch
except ImportError:  # numpy stands in
    _torch = None


def _np():
    import numpy
    return numpy


def _shape(args, kwargs=None):
    if kwargs and "size" in kwargs:
        return tuple(kwargs["size"])
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def _host(kwargs):
    kwargs = dict(kwargs)
    kwargs.pop("device", None)
    kwargs.pop("size", None) if _torch is None else None
    return kwargs


def get_default_gpu_device_name():
    return "cpu"


def get_default_device():
    return "cpu"


def to_default_device(tensor):
    return tensor


def device_arange(*args, **kwargs):
    if _torch is not None:
        return _torch.arange(*args, **_host(kwargs))
    kw = _host(kwargs)
    return _np().arange(*args, dtype=kw.get("dtype"))


def device_empty(*args, **kwargs):
    return device_zeros(*args, **kwargs)


def device_full(size, fill_value, **kwargs):
    if _torch is not None:
        return _torch.full(size, fill_value, **_host(kwargs))
    return _np().full(size, fill_value, dtype=_host(kwargs).get("dtype"))


def device_randn(*args, **kwargs):
    if _torch is not None:
        return _torch.randn(*args, **_host(kwargs))
    kw = _host(kwargs)
    np = _np()
    return np.random.standard_normal(_shape(args, kwargs)).astype(kw.get("dtype") or np.float32)


def device_randint(*args, **kwargs):
    if _torch is not None:
        return _torch.randint(*args, **_host(kwargs))
    kw = _host(kwargs)
    np = _np()
    low, high, size = (0, args[0], args[1]) if len(args) == 2 else args[:3]
    size = kw.get("size", size)
    return np.random.randint(low, high, size=size).astype(kw.get("dtype") or np.int64)


def device_randperm(n, **kwargs):
    if _torch is not None:
        return _torch.randperm(n, **_host(kwargs))
    np = _np()
    return np.random.permutation(n).astype(_host(kwargs).get("dtype") or np.int64)


def device_tensor(data, **kwargs):
    if _torch is not None:
        return _torch.tensor(data, **_host(kwargs))
    return _np().array(data, dtype=_host(kwargs).get("dtype"))


def device_zeros(*args, **kwargs):
    if _torch is not None:
        return _torch.zeros(*args, **_host(kwargs))
    np = _np()
    return np.zeros(_shape(args, kwargs), dtype=_host(kwargs).get("dtype") or np.float32)


def device_ones(*args, **kwargs):
    if _torch is not None:
        return _torch.ones(*args, **_host(kwargs))
    np = _np()
    return np.ones(_shape(args, kwargs), dtype=_host(kwargs).get("dtype") or np.float32)


def ceildiv(a, b):
    return -(-a // b) if isinstance(a, int) and isinstance(b, int) else math.ceil(a / b)


def quantized_tensor(shape, dtype, scale):
    """Wave's: ceil(clamp(randn(shape) * scale, -scale, scale)), whole numbers in [-scale, scale]."""
    x = device_randn(shape, dtype=dtype) * scale
    if _torch is not None:
        return _torch.ceil(_torch.clamp(x, -scale, scale))
    np = _np()
    return np.ceil(np.clip(x, -scale, scale)).astype(x.dtype)
