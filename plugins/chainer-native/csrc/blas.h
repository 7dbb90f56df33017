// Row-major GEMM on OpenBLAS (the scipy-openblas32 build, symbols prefixed
// scipy_), plus a plain loop for element types BLAS does not cover.
#pragma once

#include <cstdint>

namespace cn {

void blas_set_threads(int n);

// While alive, OpenBLAS calls run on their calling thread alone: for GEMMs
// issued from the kernels' own pool, one per worker.
class BlasSingleThreaded {
public:
    BlasSingleThreaded();
    ~BlasSingleThreaded();
};

// C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C, row-major;
// op transposes when the flag is set. ld* are row strides in elements.
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

}  // namespace cn
