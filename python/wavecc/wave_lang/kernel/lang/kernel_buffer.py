"""Wave's wave_lang.kernel.lang.kernel_buffer: KernelBufferUsage (a Memory's last item: input, output, ...)."""
from ...._types import KernelBufferUsage  # noqa: F401
