// Region-of-interest max pooling over bins given as pixel ranges. The
// callers compute the ranges (each RoI pooling has its own rounding rules),
// so this file knows nothing of boxes or scales.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "creation.h"
#include "nn.h"
#include "threads.h"

namespace cn {

namespace {

constexpr const char* kOp = "roi_max_bins";

std::string arg_error(const char* arg, const std::string& expected, const std::string& got) {
    return std::string(kOp) + ": " + arg + " must be " + expected + ", got " + got;
}

void check_int64(const char* arg, const Array& a) {
    if (a.dtype() != Dtype::Int64) throw DtypeError(arg_error(arg, "int64", dtype_name(a.dtype())));
}

// ranges (R, n_bins, 2) of [lo, hi) with 0 <= lo <= hi <= limit; returns n_bins.
int64_t check_ranges(const char* arg, const Array& ranges, int64_t n_regions, int64_t limit, const char* axis) {
    check_int64(arg, ranges);
    const Shape& s = ranges.shape();
    if (s.size() != 3 || s[0] != n_regions || s[2] != 2)
        throw ShapeError(arg_error(arg, "of shape (" + std::to_string(n_regions) + ", n_bins, 2)", "shape " + s.str()));
    const int64_t* p = ranges.ptr<int64_t>();
    for (int64_t k = 0; k < s[0] * s[1]; ++k) {
        int64_t lo = p[2 * k], hi = p[2 * k + 1];
        if (lo < 0 || hi < lo || hi > limit)
            throw IndexError(arg_error(arg, std::string("ranges [lo, hi) with 0 <= lo <= hi <= ") + std::to_string(limit) +
                                                " (the " + axis + " of x)",
                                       "[" + std::to_string(lo) + ", " + std::to_string(hi) + ") at region " +
                                           std::to_string(k / s[1]) + ", bin " + std::to_string(k % s[1])));
    }
    return s[1];
}

// Whether v replaces best, the maximum so far: when larger, or a NaN, unless
// best is a NaN already. So the first NaN stays, as in NumPy's argmax.
template <typename C>
inline bool beats(C v, C best) {
    return !(v <= best) & (best == best);
}

struct Geom {
    int64_t n, ch, h, w, n_regions, outh, outw;
    const int64_t* batch;
    const int64_t* rows;  // (R, outh, 2)
    const int64_t* cols;  // (R, outw, 2)
};

// Sum over the regions of the pixels of all their bins.
int64_t bin_pixels(const Geom& g) {
    int64_t total = 0;
    for (int64_t r = 0; r < g.n_regions; ++r) {
        int64_t hs = 0, ws = 0;
        for (int64_t i = 0; i < g.outh; ++i) hs += g.rows[(r * g.outh + i) * 2 + 1] - g.rows[(r * g.outh + i) * 2];
        for (int64_t j = 0; j < g.outw; ++j) ws += g.cols[(r * g.outw + j) * 2 + 1] - g.cols[(r * g.outw + j) * 2];
        // Saturates: the count only chooses between the two loops below.
        int64_t p;
        if (__builtin_mul_overflow(hs, ws, &p) || __builtin_add_overflow(total, p, &total))
            return std::numeric_limits<int64_t>::max();
    }
    return total;
}

// The flat index h * w + c of the first maximum of plane over rows
// [h0, h1) and columns [c0, c1) (not empty) in row-major order.
template <typename T, typename C>
inline int64_t bin_argmax(const T* plane, int64_t w, int64_t h0, int64_t h1, int64_t c0, int64_t c1) {
    int64_t best_at = h0 * w + c0;
    C best = static_cast<C>(plane[best_at]);
    for (int64_t h = h0; h < h1; ++h) {
        const T* row = plane + h * w;
        for (int64_t c = c0; c < c1; ++c) {
            C v = static_cast<C>(row[c]);
            if (beats(v, best)) {
                best = v;
                best_at = h * w + c;
            }
        }
    }
    return best_at;
}

// Each (region, channel) on its own, reading the channel's plane of x: for
// few or small regions, where the copy of by_channels_last would cost more
// than it saves.
template <typename T>
void by_planes(const Geom& g, const T* xs, T* yo, int32_t* ip, T empty) {
    using C = Compute<T>;
    const int64_t plane = g.h * g.w, bins = g.outh * g.outw;
    parallel_for(g.n_regions * g.ch, 1, [&](int64_t b, int64_t e) {
        for (int64_t item = b; item < e; ++item) {
            const int64_t r = item / g.ch, c = item % g.ch;
            const T* src = xs + (g.batch[r] * g.ch + c) * plane;
            const int64_t* rows = g.rows + r * g.outh * 2;
            const int64_t* cols = g.cols + r * g.outw * 2;
            T* yb = yo + item * bins;
            int32_t* ib = ip + item * bins;
            for (int64_t i = 0; i < g.outh; ++i) {
                const int64_t h0 = rows[2 * i], h1 = rows[2 * i + 1];
                for (int64_t j = 0; j < g.outw; ++j) {
                    const int64_t c0 = cols[2 * j], c1 = cols[2 * j + 1];
                    if (h0 == h1 || c0 == c1) {
                        yb[i * g.outw + j] = empty;
                        ib[i * g.outw + j] = -1;
                        continue;
                    }
                    const int64_t at = bin_argmax<T, C>(src, g.w, h0, h1, c0, c1);
                    // The element itself, so that a NaN keeps its payload.
                    yb[i * g.outw + j] = src[at];
                    ib[i * g.outw + j] = static_cast<int32_t>(at);
                }
            }
        }
    });
}

// best, arg = px, k on the channels where px beats best. Branch-free, so
// that the compiler vectorizes it over the channels.
template <typename C, typename I>
inline void take_larger(C* __restrict best, I* __restrict arg, const C* __restrict px, I k, int64_t n) {
    for (int64_t c = 0; c < n; ++c) {
        const C v = px[c], b = best[c];
        const bool take = beats(v, b);
        best[c] = take ? v : b;
        arg[c] = take ? k : arg[c];
    }
}

// The samples the regions read, copied channels-last (H, W, C) in the
// compute type; each bin is then a running maximum over its pixels of
// contiguous channel vectors. Regions overlap (Faster R-CNN pools hundreds
// of them from one feature map), so the copy is read many times over.
template <typename T>
void by_channels_last(const Geom& g, const T* xs, T* yo, int32_t* ip, T empty) {
    using C = Compute<T>;
    // The index type of C's width, so that both blends vectorize together.
    using I = std::conditional_t<sizeof(C) == 8, int64_t, int32_t>;
    const int64_t plane = g.h * g.w, bins = g.outh * g.outw, ch = g.ch;
    std::vector<int64_t> slot(g.n, -1), samples;
    for (int64_t r = 0; r < g.n_regions; ++r) {
        if (slot[g.batch[r]] < 0) {
            slot[g.batch[r]] = samples.size();
            samples.push_back(g.batch[r]);
        }
    }
    const int64_t n_used = samples.size();
    std::vector<C> xt(n_used * plane * ch);
    parallel_for(n_used * g.h, 1, [&](int64_t b, int64_t e) {
        for (int64_t row = b; row < e; ++row) {
            const int64_t s = row / g.h, hh = row % g.h;
            const T* src = xs + samples[s] * ch * plane + hh * g.w;
            C* dst = xt.data() + (s * plane + hh * g.w) * ch;
            for (int64_t c = 0; c < ch; ++c)
                for (int64_t ww = 0; ww < g.w; ++ww) dst[ww * ch + c] = static_cast<C>(src[c * plane + ww]);
        }
    });
    parallel_for(g.n_regions, 1, [&](int64_t b, int64_t e) {
        std::vector<C> best(ch);
        std::vector<I> arg(ch);
        for (int64_t r = b; r < e; ++r) {
            const C* base = xt.data() + slot[g.batch[r]] * plane * ch;
            const T* sample = xs + g.batch[r] * ch * plane;
            const int64_t* rows = g.rows + r * g.outh * 2;
            const int64_t* cols = g.cols + r * g.outw * 2;
            T* yr = yo + r * ch * bins;
            int32_t* ir = ip + r * ch * bins;
            for (int64_t i = 0; i < g.outh; ++i) {
                const int64_t h0 = rows[2 * i], h1 = rows[2 * i + 1];
                for (int64_t j = 0; j < g.outw; ++j) {
                    const int64_t c0 = cols[2 * j], c1 = cols[2 * j + 1], o = i * g.outw + j;
                    if (h0 == h1 || c0 == c1) {
                        for (int64_t c = 0; c < ch; ++c) {
                            yr[c * bins + o] = empty;
                            ir[c * bins + o] = -1;
                        }
                        continue;
                    }
                    const int64_t k0 = h0 * g.w + c0;
                    std::copy(base + k0 * ch, base + (k0 + 1) * ch, best.begin());
                    std::fill(arg.begin(), arg.end(), static_cast<I>(k0));
                    for (int64_t hh = h0; hh < h1; ++hh)
                        for (int64_t ww = (hh == h0 ? c0 + 1 : c0); ww < c1; ++ww) {
                            const int64_t k = hh * g.w + ww;
                            take_larger(best.data(), arg.data(), base + k * ch, static_cast<I>(k), ch);
                        }
                    for (int64_t c = 0; c < ch; ++c) {
                        ir[c * bins + o] = static_cast<int32_t>(arg[c]);
                        // float16 runs in float32: its maxima are read back
                        // from x, so that a NaN keeps its payload.
                        if constexpr (std::is_same<T, C>::value) yr[c * bins + o] = best[c];
                        else yr[c * bins + o] = sample[c * plane + arg[c]];
                    }
                }
            }
        }
    });
}

}  // namespace

std::pair<Array, Array> roi_max_bins(const Array& x, const Array& batch, const Array& h_ranges, const Array& w_ranges,
                                     double empty_value) {
    if (!is_float(x.dtype())) throw DtypeError(arg_error("x", "floating-point", dtype_name(x.dtype())));
    if (x.ndim() != 4) throw ShapeError(arg_error("x", "of shape (N, C, H, W)", "shape " + x.shape().str()));
    check_int64("batch", batch);
    if (batch.ndim() != 1) throw ShapeError(arg_error("batch", "of shape (R,)", "shape " + batch.shape().str()));
    const int64_t n = x.shape()[0], ch = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
    const int64_t n_regions = batch.shape()[0];
    // argmax holds h * W + w as int32.
    if (h * w > std::numeric_limits<int32_t>::max())
        throw ShapeError(arg_error("x", "at most " + std::to_string(std::numeric_limits<int32_t>::max()) +
                                            " pixels per plane (H * W)",
                                   "shape " + x.shape().str()));
    Array bc = contiguous(batch.as_data());
    Array hr = contiguous(h_ranges.as_data());
    Array wr = contiguous(w_ranges.as_data());
    const int64_t outh = check_ranges("h_ranges", hr, n_regions, h, "height");
    const int64_t outw = check_ranges("w_ranges", wr, n_regions, w, "width");
    const int64_t* bp = bc.ptr<int64_t>();
    for (int64_t r = 0; r < n_regions; ++r)
        if (bp[r] < 0 || bp[r] >= n)
            throw IndexError(arg_error("batch", "sample indices in [0, " + std::to_string(n) + ")",
                                       std::to_string(bp[r]) + " at region " + std::to_string(r)));

    const std::string out_what = std::string(kOp) + ": the output";
    Shape ys{n_regions, ch, outh, outw};
    checked_mul(checked_mul(checked_mul(n_regions, ch, out_what), outh, out_what), outw, out_what);
    Array xc = contiguous(x.as_data());
    Array y = Array::empty(ys, x.dtype());
    Array idx = Array::empty(ys, Dtype::Int32);
    Geom g{n, ch, h, w, n_regions, outh, outw, bp, hr.ptr<int64_t>(), wr.ptr<int64_t>()};
    int64_t used = 0;
    {
        std::vector<bool> seen(n);
        for (int64_t r = 0; r < n_regions; ++r) {
            if (!seen[bp[r]]) ++used;
            seen[bp[r]] = true;
        }
    }
    // The channels-last copy costs about what it saves per pixel read:
    // worth it once the bins read, all together, as many pixels as the copy.
    const bool copy = bin_pixels(g) >= used * h * w;
    dispatch_float(x.dtype(), kOp, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T empty = static_cast<T>(static_cast<Compute<T>>(empty_value));
        if (copy) by_channels_last<T>(g, xc.ptr<T>(), y.ptr<T>(), idx.ptr<int32_t>(), empty);
        else by_planes<T>(g, xc.ptr<T>(), y.ptr<T>(), idx.ptr<int32_t>(), empty);
    });
    return {y, idx};
}

}  // namespace cn
