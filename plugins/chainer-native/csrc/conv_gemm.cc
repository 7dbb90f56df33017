// The blocking, threading and buffers of conv_gemm; the vector work is in
// conv_gemm_avx512.cc.
//
// Loop nest (Goto's GEMM with the column operand built on the fly): for
// each block of columns (output positions of one or more images) and each
// block of the k axis (input channel x tap), the block of the column matrix
// is packed into strips of kCols columns, sized to stay in L2; every tile
// of kRows output channels then runs over those strips with its packed
// weights staying in L1. The output is written by the tiles themselves:
// overwritten by the first block of k, accumulated by the next, the bias
// added by the last.
#include "conv_gemm.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

#include "array.h"
#include "conv_gemm_kernels.h"
#include "errors.h"
#include "shape.h"
#include "threads.h"

namespace cn {

namespace {

using conv_gemm_detail::ColumnRun;
using conv_gemm_detail::PackArgs;
using conv_gemm_detail::Segment;
using conv_gemm_detail::Tiling;

// CHAINER_NATIVE_CONV_GEMM=0 turns the packed kernels off (im2col + BLAS
// everywhere), for comparing the two on one machine.
bool use_avx512() {
#if defined(CN_HAVE_AVX512_KERNELS)
    if (const char* env = std::getenv("CHAINER_NATIVE_CONV_GEMM"))
        if (env[0] == '0' && env[1] == '\0') return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

#if defined(CN_HAVE_AVX512_KERNELS)

// Blocking: a block of k spans at most kMaxKc rows, so that a tile's packed
// weights (kRows x kc) stay in L1 beside the strip it streams; a block of
// columns holds about kBlockBytes of packed columns, which stay in L2
// while every tile of output channels runs over them.
constexpr int64_t kMaxKc = 256;
constexpr int64_t kBlockBytes = 768 * 1024;

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};

// 64-byte aligned, uninitialised storage for n elements.
template <typename T>
std::unique_ptr<T[], FreeDeleter> aligned_buffer(int64_t n) {
    size_t bytes = (static_cast<size_t>(checked_mul(std::max<int64_t>(n, 1), sizeof(T), "conv: a packing buffer")) + 63) /
                   64 * 64;
    void* p = std::aligned_alloc(64, bytes);
    if (!p) throw std::bad_alloc();
    return std::unique_ptr<T[], FreeDeleter>(static_cast<T*>(p));
}

// Per-thread scratch for the packed columns: its size is bounded by the
// blocking constants, and keeping it spares each of a network's many
// convolutions fresh pages to map and fault in.
template <typename T>
T* column_scratch(int64_t n) {
    thread_local std::unique_ptr<T[], FreeDeleter> buf;
    thread_local int64_t cap = 0;
    if (n > cap) {
        buf.reset();
        buf = aligned_buffer<T>(n);
        // Columns a block leaves uncovered (past the last output position)
        // are computed and never stored: zeroed once, they never read
        // uninitialised memory.
        std::fill(buf.get(), buf.get() + n, T(0));
        cap = n;
    }
    return buf.get();
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The runs of output positions q0 .. q0 + n - 1 (q = image * P + position),
// split at strips of `cols` columns, output rows and images.
void column_runs(const Conv2dShape& s, int64_t x_stride, int64_t cols, int64_t q0, int64_t n,
                 std::vector<ColumnRun>& runs) {
    const int64_t P = s.out_h * s.out_w;
    runs.clear();
    int64_t q = q0, end = q0 + n;
    int64_t img = q / P, p = q % P, oy = p / s.out_w, ox = p % s.out_w;
    while (q < end) {
        int64_t off = q - q0;
        int64_t len = std::min({s.out_w - ox, cols - off % cols, end - q});
        ColumnRun r;
        r.image = img * x_stride;
        r.iy0 = oy * s.s_h - s.p_h;
        r.ix0 = ox * s.s_w - s.p_w;
        r.strip = static_cast<int32_t>(off / cols);
        r.col = static_cast<int32_t>(off % cols);
        r.len = static_cast<int32_t>(len);
        runs.push_back(r);
        q += len;
        ox += len;
        if (ox == s.out_w) {
            ox = 0;
            if (++oy == s.out_h) {
                oy = 0;
                ++img;
            }
        }
    }
}

// Where the columns of each strip of the block q0 .. q0 + n - 1 go: one
// segment per image a strip touches, pointing at output channel 0.
template <typename T>
void strip_segments(int64_t P, T* y, int64_t y_stride, int64_t cols, int64_t q0, int64_t n,
                    std::vector<Segment<T>>& segs, std::vector<int64_t>& strip_segs) {
    segs.clear();
    strip_segs.clear();
    for (int64_t st = 0; st * cols < n; ++st) {
        strip_segs.push_back(static_cast<int64_t>(segs.size()));
        const int64_t end = std::min(n, (st + 1) * cols);
        for (int64_t off = st * cols; off < end;) {
            const int64_t q = q0 + off, img = q / P, p = q % P;
            const int64_t len = std::min(end - off, P - p);
            Segment<T> sg;
            sg.begin = static_cast<int32_t>(off - st * cols);
            sg.end = static_cast<int32_t>(off - st * cols + len);
            sg.c = y + img * y_stride + p;
            segs.push_back(sg);
            off += len;
        }
    }
    strip_segs.push_back(static_cast<int64_t>(segs.size()));
}

template <typename T>
void forward_avx512(const Conv2dShape& s, int64_t batch, const T* x, int64_t x_stride, const T* w, const T* bias, T* y,
                    int64_t y_stride) {
    constexpr int64_t MR = Tiling<T>::kRows, cols = Tiling<T>::kCols;
    const int64_t M = s.out_channels;
    const int64_t K = checked_mul(checked_mul(s.channels, s.k_h, "conv: the column matrix"), s.k_w,
                                  "conv: the column matrix");
    const int64_t P = checked_mul(s.out_h, s.out_w, "conv: the output");
    const int64_t Q = checked_mul(batch, P, "conv: the output");

    // Blocks of k of nearly equal size, and blocks of columns of whole strips.
    const int64_t nkb = ceil_div(K, kMaxKc), kc_max = ceil_div(K, nkb);
    const int64_t nstrips_all = ceil_div(Q, cols);
    int64_t pc = std::max<int64_t>(1, kBlockBytes / static_cast<int64_t>(sizeof(T)) / kc_max / cols) * cols;
    pc = std::min(pc, nstrips_all * cols);
    int64_t nqb = ceil_div(Q, pc);
    const int64_t nob = ceil_div(M, MR);

    // Threads share out blocks of columns (each packs only its own), so
    // their count is rounded up to a multiple of the threads where there
    // are strips enough: 3 blocks on 2 threads would leave one idle a third
    // of the time. Where there are fewer blocks than threads, the output
    // channels are shared out as well (each item then packs the block).
    const int nt = num_threads();
    if (nt > 1 && nqb % nt != 0) {
        const int64_t want = ceil_div(nqb, nt) * nt;
        if (nstrips_all >= want) {
            pc = ceil_div(nstrips_all, want) * cols;
            nqb = ceil_div(Q, pc);
        }
    }
    int64_t nmc = 1;
    if (nqb < nt) nmc = std::min(nob, ceil_div(nt, nqb));
    const int64_t ob_per = ceil_div(nob, nmc);
    nmc = ceil_div(nob, ob_per);

    // With several blocks of columns, every tile of weights would be packed
    // once per block, reading the weights from memory each time: then they
    // are packed once, up front (block of k kb, rows k0 .. k0 + kc, holds
    // per tile ob kc x MR values at Mp * k0 + ob * kc * MR; the buffer comes
    // from the arrays' cache, so a network's repeated calls fault no pages).
    const int64_t Mp = checked_mul(nob, MR, "conv: the output channels");
    Array packed_w;
    if (nqb > 1) {
        packed_w = Array::empty(Shape{checked_mul(Mp, K, "conv: the packed weights")}, DtypeOf<T>::value);
        T* pw = packed_w.ptr<T>();
        parallel_for(nob, 1, [&](int64_t ob0, int64_t ob1) {
            for (int64_t ob = ob0; ob < ob1; ++ob) {
                const int64_t o0 = ob * MR;
                const int rows = static_cast<int>(std::min(MR, M - o0));
                for (int64_t k0 = 0; k0 < K; k0 += kc_max) {
                    const int64_t kc = std::min(kc_max, K - k0);
                    conv_gemm_detail::pack_weights_avx512<T>(w + o0 * K + k0, K, rows, kc, pw + Mp * k0 + ob * kc * MR);
                }
            }
        });
    }
    const T* prepacked = packed_w.defined() ? packed_w.ptr<T>() : nullptr;

    // Work items: a block of columns and a share of the output channels.
    parallel_for(nqb * nmc, 1, [&](int64_t it0, int64_t it1) {
        // The block's packed columns, then one tile's packed weights.
        T* strips = column_scratch<T>(pc * kc_max + MR * kc_max);
        T* panel = strips + pc * kc_max;
        std::vector<ColumnRun> runs;
        std::vector<Segment<T>> segs;
        std::vector<int64_t> strip_segs;  // strip st: segs[strip_segs[st] .. strip_segs[st + 1])
        int64_t runs_q0 = -1;
        for (int64_t it = it0; it < it1; ++it) {
            const int64_t qb = it / nmc, mc = it % nmc;
            const int64_t q0 = qb * pc, qn = std::min(pc, Q - q0);
            const int64_t ob_begin = mc * ob_per, ob_end = std::min(nob, ob_begin + ob_per);
            const int64_t nstrips = ceil_div(qn, cols);
            if (runs_q0 != q0) {
                column_runs(s, x_stride, cols, q0, qn, runs);
                strip_segments(P, y, y_stride, cols, q0, qn, segs, strip_segs);
                runs_q0 = q0;
            }
            for (int64_t kb = 0; kb < nkb; ++kb) {
                const int64_t k0 = kb * kc_max, kc = std::min(kc_max, K - k0);
                PackArgs<T> pa{x, s.in_h, s.in_w, s.k_h, s.k_w, s.s_w, s.d_h, s.d_w, k0, kc,
                               runs.data(), static_cast<int64_t>(runs.size()), strips};
                conv_gemm_detail::pack_columns_avx512<T>(pa);
                const bool accumulate = kb > 0;
                const bool last = kb == nkb - 1;
                for (int64_t ob = ob_begin; ob < ob_end; ++ob) {
                    const int64_t o0 = ob * MR;
                    const int rows = static_cast<int>(std::min(MR, M - o0));
                    const T* a = panel;
                    if (prepacked)
                        a = prepacked + Mp * k0 + ob * kc * MR;
                    else
                        conv_gemm_detail::pack_weights_avx512<T>(w + o0 * K + k0, K, rows, kc, panel);
                    const T* b_rows = last && bias ? bias + o0 : nullptr;
                    for (int64_t st = 0; st < nstrips; ++st) {
                        const int64_t s0 = strip_segs[st];
                        const int n = static_cast<int>(std::min(cols, qn - st * cols));
                        conv_gemm_detail::tile_avx512<T>(rows, n, kc, a, strips + st * kc * cols,
                                                         segs.data() + s0, static_cast<int>(strip_segs[st + 1] - s0),
                                                         o0, P, accumulate, b_rows);
                    }
                }
            }
        }
    });
}

#endif  // CN_HAVE_AVX512_KERNELS

}  // namespace

bool conv_gemm_supported() {
    static const bool ok = use_avx512();
    return ok;
}

template <typename T>
void conv_gemm_forward(const Conv2dShape& s0, int64_t batch, const T* x, int64_t x_stride, const T* w, const T* bias,
                       T* y, int64_t y_stride) {
    if (!conv_gemm_supported()) throw std::logic_error("conv_gemm_forward: no vector kernels on this CPU");
    if (batch <= 0 || s0.out_channels <= 0 || s0.out_h <= 0 || s0.out_w <= 0) return;
    Conv2dShape s = s0;
    // A 1x1 convolution with unit stride and no padding sees each image as
    // one row: runs of columns then break only at images and strips.
    if (s.k_h == 1 && s.k_w == 1 && s.s_h == 1 && s.s_w == 1 && s.p_h == 0 && s.p_w == 0) {
        s.in_w = s.out_w = checked_mul(s.in_h, s.in_w, "conv: the input");
        s.in_h = s.out_h = 1;
    }
    if (s.channels == 0) {
        // No taps: the output is the bias alone.
        const int64_t P = s.out_h * s.out_w;
        for (int64_t n = 0; n < batch; ++n)
            for (int64_t o = 0; o < s.out_channels; ++o)
                std::fill(y + n * y_stride + o * P, y + n * y_stride + (o + 1) * P, bias ? bias[o] : T(0));
        return;
    }
#if defined(CN_HAVE_AVX512_KERNELS)
    forward_avx512<T>(s, batch, x, x_stride, w, bias, y, y_stride);
#else
    (void)x, (void)x_stride, (void)w;
#endif
}

template void conv_gemm_forward<float>(const Conv2dShape&, int64_t, const float*, int64_t, const float*, const float*,
                                       float*, int64_t);
template void conv_gemm_forward<double>(const Conv2dShape&, int64_t, const double*, int64_t, const double*,
                                        const double*, double*, int64_t);

}  // namespace cn
