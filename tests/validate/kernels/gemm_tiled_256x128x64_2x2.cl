// gemm_tiled_256x128x64_2x2.cl — bench/ref/gemm_lds_tiled.cl (the clang-19 side of `make
// bench-schedule`) at a 256x128x64 tile with 2x2 waves, for
// mfma_test.c's check against a C matmul.
#define BM 256
#define BN 128
#define BK 64
#define WAVES_M 2
#define WAVES_N 2
#include "../../../bench/ref/gemm_lds_tiled.cl"
