"""Wave's wave_lang.kernel.wave (tkw): constraints, MMAType, @wave and the ops."""
from ...._ops import *  # noqa: F401,F403
from ...._ops import sum, max, min, abs, round  # noqa: F401  (shadow the builtins, as Wave does)
from ...._constraints import (Constraint, DistributionConstraint, HardwareConstraint, WorkgroupConstraint,  # noqa
                              TilingConstraint, WaveConstraint, ReorderingConstraint, DeviceConstraint,
                              GridConstraint, IteratorBindings, Assumption, SymbolicAlias, MMAType,
                              ScaledMMAType, MMAOperand, GenericDot)
from ...._types import IndexMapping, Register, Memory  # noqa: F401
from ...._compile import wave, wave_trace_only, LaunchableWave  # noqa: F401
from ...._dtype import (DataType, bf16, i1, i4, i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64,  # noqa: F401
                        f8e5m2, f8e5m2fnuz, f8e4m3fn, f8e4m3fnuz, f8e8m0fnu, f6e2m3fn, f6e3m2fn, f4e2m1fn,
                        index)
