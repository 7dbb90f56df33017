// AVX-512 half of conv_gemm (see conv_gemm_kernels.h): compiled with
// -mavx512f -mfma, entered only when the CPU has AVX-512F.
#include <immintrin.h>

#include "conv_gemm_kernels.h"

namespace cn {
namespace conv_gemm_detail {
namespace {

// One vector of T and its lane mask.
template <typename T>
struct Vec;

template <>
struct Vec<float> {
    using reg = __m512;
    using mask = __mmask16;
    static constexpr int kLanes = 16;
    static reg zero() { return _mm512_setzero_ps(); }
    static reg set1(float v) { return _mm512_set1_ps(v); }
    static reg load(const float* p) { return _mm512_load_ps(p); }
    static reg maskz_loadu(mask m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
    static void mask_storeu(float* p, mask m, reg v) { _mm512_mask_storeu_ps(p, m, v); }
    static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
};

template <>
struct Vec<double> {
    using reg = __m512d;
    using mask = __mmask8;
    static constexpr int kLanes = 8;
    static reg zero() { return _mm512_setzero_pd(); }
    static reg set1(double v) { return _mm512_set1_pd(v); }
    static reg load(const double* p) { return _mm512_load_pd(p); }
    static reg maskz_loadu(mask m, const double* p) { return _mm512_maskz_loadu_pd(m, p); }
    static void mask_storeu(double* p, mask m, reg v) { _mm512_mask_storeu_pd(p, m, v); }
    static reg add(reg a, reg b) { return _mm512_add_pd(a, b); }
    static reg fmadd(reg a, reg b, reg c) { return _mm512_fmadd_pd(a, b, c); }
};

// Lanes [lo, hi) of a vector set, lo and hi clipped to [0, lanes].
template <typename T>
inline typename Vec<T>::mask lane_range(int64_t lo, int64_t hi) {
    constexpr int n = Vec<T>::kLanes;
    if (lo < 0) lo = 0;
    if (hi > n) hi = n;
    if (lo >= hi) return 0;
    uint32_t upto_hi = hi >= 32 ? ~0u : (1u << hi) - 1u;
    uint32_t below_lo = (1u << lo) - 1u;
    return static_cast<typename Vec<T>::mask>(upto_hi & ~below_lo);
}

// A pointer `off` elements from p, formed without pointer arithmetic: a
// masked load may start before the image (its masked-off lanes are never
// read), which pointer arithmetic would not allow.
template <typename T>
inline const T* offset_ptr(const T* p, int64_t off) {
    return reinterpret_cast<const T*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(off * int64_t(sizeof(T))));
}

// Every second element of the 2 * kLanes values at p (lanes outside `m0`
// and `m1`, the masks of the two halves, read as zeros).
inline __m512 load_even(const float* p, __mmask16 m0, __mmask16 m1) {
    const __m512i idx = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    return _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(m0, p), idx, _mm512_maskz_loadu_ps(m1, offset_ptr(p, 16)));
}
inline __m512d load_even(const double* p, __mmask8 m0, __mmask8 m1) {
    const __m512i idx = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    return _mm512_permutex2var_pd(_mm512_maskz_loadu_pd(m0, p), idx, _mm512_maskz_loadu_pd(m1, offset_ptr(p, 8)));
}

// Taps per row up to this get vector loads (their masks live on the stack).
constexpr int kMaxMaskedTaps = 16;

// Run by run, every k of the block for each: consecutive k write
// consecutive rows of one strip, and the taps of one input row, read one
// after the other, hit the same cache lines (measured faster than sweeping
// each channel's rows for every run in turn). Stride 1 reads each
// destination vector with one masked load, stride 2 with two and a
// permutation, other strides element by element. Most runs lie inside the
// image's width for every tap (all of them for a 1x1 convolution) and need
// no masks but their length's; the others get theirs once per tap column.
template <typename T>
void pack_columns(const PackArgs<T>& a) {
    using V = Vec<T>;
    using mask = typename V::mask;
    constexpr int L = V::kLanes, NV = Tiling<T>::kVecs;
    constexpr int64_t cols = Tiling<T>::kCols;
    const int64_t plane = a.in_h * a.in_w, W = a.in_w, H = a.in_h, strip_size = a.kc * cols;
    const int64_t sw = a.s_w, taps = a.k_h * a.k_w;
    const bool vector_path = (sw == 1 || sw == 2) && a.k_w <= kMaxMaskedTaps;
    mask store_m[NV];
    mask load_m[kMaxMaskedTaps][NV][2];  // per kx and vector; the second for stride 2
    const int64_t c0 = a.k0 / taps, t0 = a.k0 % taps;
    for (int64_t r = 0; r < a.nruns; ++r) {
        const ColumnRun& run = a.runs[r];
        const int64_t len = run.len;
        const int nvec = static_cast<int>((len + L - 1) / L);
        T* dst = a.out + run.strip * strip_size + run.col;
        // Reads of tap kx: ix0 + kx * d_w + j * s_w for j < len.
        const bool inside = run.ix0 >= 0 && run.ix0 + (len - 1) * sw + (a.k_w - 1) * a.d_w < W;
        for (int j = 0; j < nvec; ++j) store_m[j] = lane_range<T>(0, len - j * L);
        if (vector_path) {
            if (!inside) {
                for (int64_t kx = 0; kx < a.k_w; ++kx) {
                    // Source offsets (from the tap's first read) inside the row.
                    const int64_t ix = run.ix0 + kx * a.d_w, lo = -ix, hi = W - ix;
                    for (int j = 0; j < nvec; ++j) {
                        if (sw == 1) {
                            load_m[kx][j][0] = lane_range<T>(lo - j * L, hi - j * L) & store_m[j];
                        } else {
                            load_m[kx][j][0] = lane_range<T>(lo - 2 * j * L, hi - 2 * j * L);
                            load_m[kx][j][1] = lane_range<T>(lo - 2 * j * L - L, hi - 2 * j * L - L);
                        }
                    }
                }
            } else if (sw == 2) {
                // The last lane's partner past the run is never read.
                for (int j = 0; j < nvec; ++j) {
                    load_m[0][j][0] = lane_range<T>(0, 2 * (len - j * L) - 1);
                    load_m[0][j][1] = lane_range<T>(0, 2 * (len - j * L) - 1 - L);
                }
            }
        }
        int64_t c = c0, ky = t0 / a.k_w, kx = t0 % a.k_w;
        for (int64_t kk = 0; kk < a.kc; ++kk) {
            T* d = dst + kk * cols;
            const int64_t iy = run.iy0 + ky * a.d_h;
            const int64_t ix = run.ix0 + kx * a.d_w;
            const T* chan = a.x + run.image + c * plane;
            if (iy < 0 || iy >= H) {
                for (int j = 0; j < nvec; ++j) V::mask_storeu(d + j * L, store_m[j], V::zero());
            } else if (vector_path) {
                const T* src = offset_ptr(chan + iy * W, ix);
                const int mk = inside ? 0 : static_cast<int>(kx);
                if (sw == 1) {
                    for (int j = 0; j < nvec; ++j)
                        V::mask_storeu(d + j * L, store_m[j],
                                       V::maskz_loadu(inside ? store_m[j] : load_m[mk][j][0], offset_ptr(src, j * L)));
                } else {
                    for (int j = 0; j < nvec; ++j)
                        V::mask_storeu(d + j * L, store_m[j],
                                       load_even(offset_ptr(src, 2 * j * L), load_m[mk][j][0], load_m[mk][j][1]));
                }
            } else {
                const T* row = chan + iy * W;
                for (int64_t j = 0; j < len; ++j) {
                    const int64_t xx = ix + j * sw;
                    d[j] = xx >= 0 && xx < W ? row[xx] : T(0);
                }
            }
            if (++kx == a.k_w) {
                kx = 0;
                if (++ky == a.k_h) {
                    ky = 0;
                    ++c;
                }
            }
        }
    }
}

// R rows by NV vectors, fully unrolled so that the accumulators live in
// registers.
template <typename T, int R, int NV>
void tile(int64_t kc, const T* a, const T* b, const Segment<T>* segs, int nsegs, int64_t row0,
          int64_t ldc, bool accumulate, const T* bias) {
    using V = Vec<T>;
    using reg = typename V::reg;
    constexpr int L = V::kLanes, MR = Tiling<T>::kRows;
    reg acc[R][NV];
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[i][j] = V::zero();
#pragma GCC unroll 2
    for (int64_t k = 0; k < kc; ++k) {
        reg bv[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) bv[j] = V::load(b + j * L);
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            reg ai = V::set1(a[i]);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) acc[i][j] = V::fmadd(ai, bv[j], acc[i][j]);
        }
        a += MR;
        b += Tiling<T>::kCols;
    }
    if (bias) {
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            reg bi = V::set1(bias[i]);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) acc[i][j] = V::add(acc[i][j], bi);
        }
    }
    for (int sg = 0; sg < nsegs; ++sg) {
        const int lo = segs[sg].begin, hi = segs[sg].end;
        // Lane l of vector j is column j * L + l, stored at c + that - lo.
        T* base = const_cast<T*>(offset_ptr<T>(segs[sg].c, row0 * ldc - lo));
        typename V::mask m[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) m[j] = lane_range<T>(lo - j * L, hi - j * L);
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            T* ci = const_cast<T*>(offset_ptr<T>(base, i * ldc));
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) {
                if (!m[j]) continue;
                T* p = const_cast<T*>(offset_ptr<T>(ci, j * L));
                reg v = acc[i][j];
                if (accumulate) v = V::add(v, V::maskz_loadu(m[j], p));
                V::mask_storeu(p, m[j], v);
            }
        }
    }
}

template <typename T, int NV>
void tile_rows(int rows, int64_t kc, const T* a, const T* b, const Segment<T>* segs, int nsegs,
               int64_t row0, int64_t ldc, bool accumulate, const T* bias) {
    static_assert(Tiling<T>::kRows == 8, "tile_rows dispatches 1 to 8 rows");
    switch (rows) {
#define CN_TILE_CASE(r) \
    case r:             \
        return tile<T, r, NV>(kc, a, b, segs, nsegs, row0, ldc, accumulate, bias);
        CN_TILE_CASE(1) CN_TILE_CASE(2) CN_TILE_CASE(3) CN_TILE_CASE(4)
        CN_TILE_CASE(5) CN_TILE_CASE(6) CN_TILE_CASE(7) CN_TILE_CASE(8)
#undef CN_TILE_CASE
        default:
            break;
    }
}

template <typename T>
void pack_weights_scalar(const T* w, int64_t ldw, int rows, int64_t k0, int64_t kc, T* out) {
    constexpr int MR = Tiling<T>::kRows;
    for (int64_t k = k0; k < kc; ++k) {
        int i = 0;
        for (; i < rows; ++i) out[k * MR + i] = w[i * ldw + k];
        for (; i < MR; ++i) out[k * MR + i] = T(0);
    }
}

template <typename T>
void pack_weights(const T* w, int64_t ldw, int rows, int64_t kc, T* out) {
    pack_weights_scalar(w, ldw, rows, 0, kc, out);
}

// Float: 8 rows x 16 k at a time, transposed in registers (pairs of rows
// interleaved, then quadruples, then the 128-bit lanes of rows 0-3 and
// 4-7 joined), so that packing costs a fraction of an instruction per value
// where element by element it cost a load and a store each.
template <>
void pack_weights<float>(const float* w, int64_t ldw, int rows, int64_t kc, float* out) {
    static_assert(Tiling<float>::kRows == 8, "the transposition is 8 rows wide");
    const __m512i lo_idx = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i hi_idx = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    int64_t k = 0;
    for (; k + 16 <= kc; k += 16) {
        __m512 r[8];
        for (int i = 0; i < 8; ++i) r[i] = i < rows ? _mm512_loadu_ps(w + i * ldw + k) : _mm512_setzero_ps();
        __m512 t[8], u[4], v[4];
        for (int i = 0; i < 4; ++i) {
            t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
            t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
        }
        // u[j] / v[j], 128-bit lane l: rows 0-3 / 4-7 of k + 4 l + j.
        u[0] = _mm512_shuffle_ps(t[0], t[2], 0x44);
        u[1] = _mm512_shuffle_ps(t[0], t[2], 0xEE);
        u[2] = _mm512_shuffle_ps(t[1], t[3], 0x44);
        u[3] = _mm512_shuffle_ps(t[1], t[3], 0xEE);
        v[0] = _mm512_shuffle_ps(t[4], t[6], 0x44);
        v[1] = _mm512_shuffle_ps(t[4], t[6], 0xEE);
        v[2] = _mm512_shuffle_ps(t[5], t[7], 0x44);
        v[3] = _mm512_shuffle_ps(t[5], t[7], 0xEE);
        float* o = out + k * 8;
        for (int j = 0; j < 4; ++j) {
            // [k + j | k + 4 + j] and [k + 8 + j | k + 12 + j], 8 rows each.
            __m512 lo = _mm512_permutex2var_ps(u[j], lo_idx, v[j]);
            __m512 hi = _mm512_permutex2var_ps(u[j], hi_idx, v[j]);
            _mm256_storeu_ps(o + j * 8, _mm512_castps512_ps256(lo));
            _mm256_storeu_ps(o + (4 + j) * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(lo), 1)));
            _mm256_storeu_ps(o + (8 + j) * 8, _mm512_castps512_ps256(hi));
            _mm256_storeu_ps(o + (12 + j) * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(hi), 1)));
        }
    }
    pack_weights_scalar(w, ldw, rows, k, kc, out);
}

}  // namespace

template <typename T>
void pack_columns_avx512(const PackArgs<T>& a) {
    pack_columns<T>(a);
}

template <typename T>
void pack_weights_avx512(const T* w, int64_t ldw, int rows, int64_t kc, T* out) {
    pack_weights<T>(w, ldw, rows, kc, out);
}

template <typename T>
void tile_avx512(int rows, int cols, int64_t kc, const T* a, const T* b, const Segment<T>* segs,
                 int nsegs, int64_t row0, int64_t ldc, bool accumulate, const T* bias) {
    static_assert(Tiling<T>::kVecs == 3, "tile_avx512 dispatches 1 to 3 vectors");
    // A narrow strip (the last of a block, or a small output) computes only
    // the vectors it has.
    if (cols <= Vec<T>::kLanes)
        tile_rows<T, 1>(rows, kc, a, b, segs, nsegs, row0, ldc, accumulate, bias);
    else if (cols <= 2 * Vec<T>::kLanes)
        tile_rows<T, 2>(rows, kc, a, b, segs, nsegs, row0, ldc, accumulate, bias);
    else
        tile_rows<T, 3>(rows, kc, a, b, segs, nsegs, row0, ldc, accumulate, bias);
}

template void pack_columns_avx512<float>(const PackArgs<float>&);
template void pack_columns_avx512<double>(const PackArgs<double>&);
template void pack_weights_avx512<float>(const float*, int64_t, int, int64_t, float*);
template void pack_weights_avx512<double>(const double*, int64_t, int, int64_t, double*);
template void tile_avx512<float>(int, int, int64_t, const float*, const float*, const Segment<float>*, int,
                                 int64_t, int64_t, bool, const float*);
template void tile_avx512<double>(int, int, int64_t, const double*, const double*, const Segment<double>*,
                                  int, int64_t, int64_t, bool, const double*);

}  // namespace conv_gemm_detail
}  // namespace cn
