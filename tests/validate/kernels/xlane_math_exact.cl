// xlane_math_exact.cl — xlane_math.cl built with
// -cl-fp32-correctly-rounded-divide-sqrt: division through v_div_scale_f32,
// v_rcp_f32, v_div_fmas_f32 and v_div_fixup_f32 (IEEE, correctly rounded).
// clang-extra-flags: -cl-fp32-correctly-rounded-divide-sqrt
#include "xlane_math.cl"
