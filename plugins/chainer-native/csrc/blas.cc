#include "blas.h"

#include <climits>

#include <cblas.h>

#include "errors.h"
#include "threads.h"

namespace cn {

void blas_set_threads(int n) { scipy_openblas_set_num_threads(n); }

BlasSingleThreaded::BlasSingleThreaded() { scipy_openblas_set_num_threads(1); }
BlasSingleThreaded::~BlasSingleThreaded() { scipy_openblas_set_num_threads(num_threads()); }

namespace {
void check_dims(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
    for (int64_t v : {m, n, k, lda, ldb, ldc})
        if (v > INT_MAX) throw ShapeError("matmul: a dimension exceeds the 32-bit range of the BLAS library");
}
}  // namespace

void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    check_dims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0) return;
    scipy_cblas_sgemm(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, transb ? CblasTrans : CblasNoTrans,
                      static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                      static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
    check_dims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0) return;
    scipy_cblas_dgemm(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, transb ? CblasTrans : CblasNoTrans,
                      static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                      static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

}  // namespace cn
