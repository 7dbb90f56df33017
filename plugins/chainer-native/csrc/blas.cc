#include "blas.h"

#include <algorithm>
#include <climits>

#ifdef CN_HAVE_BLAS
#include <cblas.h>
#endif

#include "errors.h"
#include "threads.h"

// OpenBLAS builds differ in a prefix on every symbol (scipy-openblas32:
// scipy_); the build names it in CN_BLAS_PREFIX.
#define CN_PASTE2(a, b) a##b
#define CN_PASTE(a, b) CN_PASTE2(a, b)
#define CN_BLAS(name) CN_PASTE(CN_BLAS_PREFIX, name)

namespace cn {

#ifdef CN_HAVE_BLAS
void blas_init() { CN_BLAS(openblas_set_num_threads)(1); }
#else
void blas_init() {}

namespace {
// Without BLAS (a build from source that found none): a plain row-major
// GEMM, blocked over k so that a row of B stays in cache. Correct, not fast.
template <typename T>
void plain_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
                int64_t ldb, T beta, T* c, int64_t ldc) {
    for (int64_t i = 0; i < m; ++i) {
        T* ci = c + i * ldc;
        for (int64_t j = 0; j < n; ++j) ci[j] = beta == T(0) ? T(0) : beta * ci[j];
        for (int64_t p = 0; p < k; ++p) {
            T av = alpha * (ta ? a[p * lda + i] : a[i * lda + p]);
            if (tb) {
                for (int64_t j = 0; j < n; ++j) ci[j] += av * b[j * ldb + p];
            } else {
                const T* bp = b + p * ldb;
                for (int64_t j = 0; j < n; ++j) ci[j] += av * bp[j];
            }
        }
    }
}
}  // namespace
#endif

namespace {
void check_dims(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
    for (int64_t v : {m, n, k, lda, ldb, ldc})
        if (v > INT_MAX) throw ShapeError("matmul: a dimension exceeds the 32-bit range of the BLAS library");
}

// Creating the pool is what pins OpenBLAS to one thread, and a GEMM can come
// first (a kernel whose parallel_for ran inline on one sample): OpenBLAS's
// own threads would then spin beside the pool's.
void pin_blas_threads() {
    static const bool pinned = num_threads() > 0;
    (void)pinned;
}
}  // namespace

void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    check_dims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0) return;
    pin_blas_threads();
#ifdef CN_HAVE_BLAS
    CN_BLAS(cblas_sgemm)(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, transb ? CblasTrans : CblasNoTrans,
                         static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                         static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
#else
    plain_gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
    check_dims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0) return;
    pin_blas_threads();
#ifdef CN_HAVE_BLAS
    CN_BLAS(cblas_dgemm)(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, transb ? CblasTrans : CblasNoTrans,
                         static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                         static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
#else
    plain_gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

template <typename T>
void gemm_mt(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
             int64_t ldb, T beta, T* c, int64_t ldc) {
    int nt = num_threads();
    double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    if (nt <= 1 || flops < 4e6 || (m < 2 * nt && n < 2 * nt)) {
        gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    if (m >= n) {
        int64_t chunk = (m + nt - 1) / nt;
        parallel_for(nt, 1, [&](int64_t pb, int64_t pe) {
            for (int64_t p = pb; p < pe; ++p) {
                int64_t r0 = p * chunk, r1 = std::min(m, r0 + chunk);
                if (r0 >= r1) continue;
                gemm(ta, tb, r1 - r0, n, k, alpha, ta ? a + r0 : a + r0 * lda, lda, b, ldb, beta, c + r0 * ldc, ldc);
            }
        });
    } else {
        int64_t chunk = ((n + nt - 1) / nt + 15) / 16 * 16;
        parallel_for(nt, 1, [&](int64_t pb, int64_t pe) {
            for (int64_t p = pb; p < pe; ++p) {
                int64_t c0 = p * chunk, c1 = std::min(n, c0 + chunk);
                if (c0 >= c1) continue;
                gemm(ta, tb, m, c1 - c0, k, alpha, a, lda, tb ? b + c0 * ldb : b + c0, ldb, beta, c + c0, ldc);
            }
        });
    }
}

template void gemm_mt<float>(bool, bool, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*,
                             int64_t, float, float*, int64_t);
template void gemm_mt<double>(bool, bool, int64_t, int64_t, int64_t, double, const double*, int64_t, const double*,
                              int64_t, double, double*, int64_t);

}  // namespace cn
