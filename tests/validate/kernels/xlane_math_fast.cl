// xlane_math_fast.cl — xlane_math.cl built with -cl-fast-relaxed-math: the
// forms a compiler emits when it is allowed approximate results (bare
// v_exp_f32 / v_log_f32, a * v_rcp_f32(b) for division).
// clang-extra-flags: -cl-fast-relaxed-math
#include "xlane_math.cl"
