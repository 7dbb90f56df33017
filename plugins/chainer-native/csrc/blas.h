// Row-major GEMM on OpenBLAS (the scipy-openblas32 build, symbols prefixed
// scipy_), plus a plain loop for element types BLAS does not cover.
#pragma once

#include <cstdint>

namespace cn {

// OpenBLAS runs single-threaded on its caller: the kernels' pool spreads
// GEMMs (gemm_mt) and convolution samples itself, so no OpenBLAS worker
// spins beside the pool's threads.
void blas_init();

// C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C, row-major;
// op transposes when the flag is set. ld* are row strides in elements.
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// The same, split into blocks of rows or columns of C over the pool.
template <typename T>
void gemm_mt(bool transa, bool transb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
             int64_t ldb, T beta, T* c, int64_t ldc);

}  // namespace cn
