"""Wave's wave_lang.kernel.wave.constraints."""
from ...._constraints import (Constraint, DistributionConstraint, HardwareConstraint, WorkgroupConstraint,  # noqa
                              TilingConstraint, WaveConstraint, ReorderingConstraint, DeviceConstraint,
                              GridConstraint, IteratorBindings, MMAType, ScaledMMAType, MMAOperand,
                              GenericDot)
