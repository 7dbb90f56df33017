// N-d max and average pooling with their gradients (and the gradients'
// gradients, which are again pooling-shaped gathers and spreads).
#include <algorithm>
#include <cmath>
#include <limits>

#include "creation.h"
#include "graph.h"
#include "nn.h"
#include "threads.h"

namespace cn {

namespace {

struct PoolGeom {
    int d = 0;
    int64_t in[kMaxNdim], out[kMaxNdim], k[kMaxNdim], s[kMaxNdim], p[kMaxNdim];
    int64_t in_size = 1, out_size = 1, k_size = 1, planes = 0;
};

PoolGeom pool_geom(const char* op, const Shape& xs, const Ints& ksize, const Ints& stride, const Ints& pad, bool cover_all) {
    if (xs.size() < 3) throw ShapeError(std::string(op) + ": x must be (N, C, *spatial) with at least one spatial axis, got " + xs.str());
    PoolGeom g;
    g.d = xs.size() - 2;
    auto ex = [&](const Ints& v, const char* name, int64_t min, const Ints* dflt) {
        Ints r;
        const Ints& src = (v.empty() && dflt) ? *dflt : v;
        if (src.size() == 1) r.assign(g.d, src[0]);
        else if (static_cast<int>(src.size()) == g.d) r = src;
        else
            throw ShapeError(std::string(op) + ": " + name + " must have 1 or " + std::to_string(g.d) + " values, got " +
                             std::to_string(src.size()));
        for (auto x : r)
            if (x < min) throw ShapeError(std::string(op) + ": " + name + " must be at least " + std::to_string(min) + ", got " + std::to_string(x));
        return r;
    };
    Ints k = ex(ksize, "ksize", 1, nullptr);
    Ints s = ex(stride, "stride", 1, &k);
    Ints p = ex(pad, "pad", 0, nullptr);
    g.planes = xs[0] * xs[1];
    for (int i = 0; i < g.d; ++i) {
        g.in[i] = xs[2 + i];
        g.k[i] = k[i];
        g.s[i] = s[i];
        g.p[i] = p[i];
        std::string axis = std::string(op) + ": along spatial axis " + std::to_string(i) + ", ";
        int64_t padded = checked_add(g.in[i], checked_mul(2, p[i], axis + "the padding"), axis + "the padded input");
        int64_t num = checked_add(padded - k[i], cover_all ? s[i] - 1 : 0, axis + "the padded input");
        if (num < 0)
            throw ShapeError(std::string(op) + ": the window (" + std::to_string(k[i]) + ") is larger than the padded input (" +
                             std::to_string(padded) + ") along spatial axis " + std::to_string(i));
        g.out[i] = num / s[i] + 1;
        g.in_size *= g.in[i];
        g.out_size = checked_mul(g.out_size, g.out[i], std::string(op) + ": the output");
        g.k_size = checked_mul(g.k_size, g.k[i], std::string(op) + ": the window");
    }
    // Taps are indexed by int32 (the indexes array), and every output reads
    // every tap of its window: bound both before any loop starts.
    if (g.k_size > std::numeric_limits<int32_t>::max())
        throw ShapeError(std::string(op) + ": the window has " + std::to_string(g.k_size) + " taps; at most " +
                         std::to_string(std::numeric_limits<int32_t>::max()) + " are supported");
    checked_mul(checked_mul(g.planes, g.out_size, std::string(op) + ": the output"), g.k_size,
                std::string(op) + ": the work (outputs times window taps)");
    return g;
}

// Calls f(out_index, tap, in_offset or -1) over every tap of every window of one plane.
template <typename F>
inline void windows(const PoolGeom& g, F&& f) {
    int64_t oo[kMaxNdim], kk[kMaxNdim];
    for (int64_t o = 0; o < g.out_size; ++o) {
        int64_t r = o;
        for (int i = g.d - 1; i >= 0; --i) { oo[i] = r % g.out[i]; r /= g.out[i]; }
        for (int64_t t = 0; t < g.k_size; ++t) {
            int64_t q = t;
            for (int i = g.d - 1; i >= 0; --i) { kk[i] = q % g.k[i]; q /= g.k[i]; }
            int64_t off = 0;
            bool valid = true;
            for (int i = 0; i < g.d; ++i) {
                int64_t pos = oo[i] * g.s[i] - g.p[i] + kk[i];
                if (pos < 0 || pos >= g.in[i]) { valid = false; break; }
                off = off * g.in[i] + pos;
            }
            f(o, t, valid ? off : int64_t(-1));
        }
    }
}

// The input offset (within a plane) of tap t of output oi, or -1 in padding.
inline int64_t tap_offset(const PoolGeom& g, int64_t oi, int64_t t) {
    int64_t oo[kMaxNdim], kk[kMaxNdim];
    for (int i = g.d - 1; i >= 0; --i) {
        oo[i] = oi % g.out[i];
        oi /= g.out[i];
        kk[i] = t % g.k[i];
        t /= g.k[i];
    }
    int64_t off = 0;
    for (int i = 0; i < g.d; ++i) {
        int64_t pos = oo[i] * g.s[i] - g.p[i] + kk[i];
        if (pos < 0 || pos >= g.in[i]) return -1;
        off = off * g.in[i] + pos;
    }
    return off;
}

Shape out_shape(const Shape& xs, const PoolGeom& g) {
    Shape s{xs[0], xs[1]};
    for (int i = 0; i < g.d; ++i) s.push_back(g.out[i]);
    return s;
}

// Whether the tap value v replaces the window's best so far: a larger value
// or the first NaN, which then stays. NumPy's argmax over a window picks its
// first NaN, so the maximum is NaN and the gradient goes to that tap.
template <typename C>
inline bool beats(C v, C best) {
    return best == best && !(v <= best);
}

// One step of a window scan over a row of candidates: where `v` beats the
// best so far, it and its tap `t` replace them. Branch-free, so the loops
// over a row vectorize.
template <typename C>
inline void scan_step(C v, int32_t t, C& best, int32_t& tap) {
    bool b = beats(v, best);
    best = b ? v : best;
    tap = b ? t : tap;
}

// The best tap of each window's row, for every input row and output
// column, of one plane: vals/taps (H, OW). Columns whose windows leave the
// row take the general path; the others read x at a fixed stride, given as
// a template argument for the common strides so that it vectorizes.
template <int64_t kStride, typename T, typename C>
void max_pool_rows(const PoolGeom& g, const T* x, C* vals, int32_t* taps) {
    const int64_t W = g.in[1], OW = g.out[1], KW = g.k[1], PW = g.p[1];
    const int64_t SW = kStride > 0 ? kStride : g.s[1];
    const C ninf = -std::numeric_limits<C>::infinity();
    // Output columns [lo, hi) have every tap of their window inside the row.
    const int64_t lo = std::min(OW, (PW + SW - 1) / SW);
    const int64_t hi = std::max(lo, W + PW - KW >= 0 ? std::min(OW, (W + PW - KW) / SW + 1) : int64_t(0));
    for (int64_t iy = 0; iy < g.in[0]; ++iy) {
        const T* xr = x + iy * W;
        C* vr = vals + iy * OW;
        int32_t* tr = taps + iy * OW;
        auto edge = [&](int64_t ox) {
            C bv = ninf;
            int32_t bt = 0;
            for (int64_t kx = 0; kx < KW; ++kx) {
                int64_t ix = ox * SW - PW + kx;
                scan_step((ix >= 0 && ix < W) ? static_cast<C>(xr[ix]) : ninf, static_cast<int32_t>(kx), bv, bt);
            }
            vr[ox] = bv;
            tr[ox] = bt;
        };
        for (int64_t ox = 0; ox < lo; ++ox) edge(ox);
        for (int64_t ox = lo; ox < hi; ++ox) {
            vr[ox] = static_cast<C>(xr[ox * SW - PW]);
            tr[ox] = 0;
        }
        for (int64_t kx = 1; kx < KW; ++kx) {
            const int64_t shift = kx - PW;
            for (int64_t ox = lo; ox < hi; ++ox)
                scan_step(static_cast<C>(xr[ox * SW + shift]), static_cast<int32_t>(kx), vr[ox], tr[ox]);
        }
        for (int64_t ox = hi; ox < OW; ++ox) edge(ox);
    }
}

// 2-d max pooling of one plane in two separable passes: the best of each
// window row (max_pool_rows), then the best of a window's rows. Both passes
// start from -inf at tap 0 and keep the first maximum and the first NaN, so
// value and tap are those of the row-major scan over the whole window (a
// window without a value above -inf keeps tap 0, as that scan does).
template <typename T, typename C>
void max_pool_plane_2d(const PoolGeom& g, const T* x, T* y, int32_t* idx, C* vals, int32_t* taps, C* best) {
    const int64_t OW = g.out[1], KW = g.k[1];
    if (g.s[1] == 1) max_pool_rows<1>(g, x, vals, taps);
    else if (g.s[1] == 2) max_pool_rows<2>(g, x, vals, taps);
    else max_pool_rows<0>(g, x, vals, taps);
    for (int64_t oy = 0; oy < g.out[0]; ++oy) {
        int32_t* ir = idx + oy * OW;
        std::fill(best, best + OW, -std::numeric_limits<C>::infinity());
        std::fill(ir, ir + OW, 0);
        for (int64_t ky = 0; ky < g.k[0]; ++ky) {
            int64_t iy = oy * g.s[0] - g.p[0] + ky;
            if (iy < 0 || iy >= g.in[0]) continue;
            const C* vr = vals + iy * OW;
            const int32_t* tr = taps + iy * OW;
            const int32_t base = static_cast<int32_t>(ky * KW);
            for (int64_t ox = 0; ox < OW; ++ox) scan_step(vr[ox], base + tr[ox], best[ox], ir[ox]);
        }
        T* yr = y + oy * OW;
        for (int64_t ox = 0; ox < OW; ++ox) yr[ox] = static_cast<T>(best[ox]);
    }
}

void check_float(const char* op, const Array& x) {
    if (!is_float(x.dtype())) throw DtypeError(std::string(op) + ": x must be floating-point, got " + dtype_name(x.dtype()));
}

// gx of max pooling: gy added at the chosen taps.
Array max_pool_grad(const Array& gy, const Array& idx, const Shape& xs, const PoolGeom& g);

// ggy of max pooling's gradient: ggx read at the chosen taps.
Array max_pool_gather(const Array& ggx, const Array& idx, const PoolGeom& g) {
    Shape ys = out_shape(ggx.shape(), g);
    Array src = contiguous(ggx.as_data());
    Array out = Array::empty(ys, ggx.dtype());
    const int32_t* ip = idx.ptr<int32_t>();
    dispatch_float(ggx.dtype(), "max_pool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* s = src.ptr<T>();
        T* o = out.ptr<T>();
        parallel_for(g.planes, 1, [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                for (int64_t oi = 0; oi < g.out_size; ++oi) {
                    int64_t off = tap_offset(g, oi, ip[pl * g.out_size + oi]);
                    o[pl * g.out_size + oi] = off >= 0 ? s[pl * g.in_size + off] : T(0.0f);
                }
            }
        });
    });
    if (needs_graph({&ggx})) {
        record_op("max_pool_grad_grad", {ggx}, {out}, [idx, g, xs = ggx.shape()](BackwardContext& c) {
            c.set(0, max_pool_grad(c.gy(), idx, xs, g));
        });
    }
    return out;
}

Array max_pool_grad(const Array& gy, const Array& idx, const Shape& xs, const PoolGeom& g) {
    Array gyc = contiguous(gy.as_data());
    Array gx = zeros(xs, gy.dtype());
    const int32_t* ip = idx.ptr<int32_t>();
    dispatch_float(gy.dtype(), "max_pool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* s = gyc.ptr<T>();
        T* o = gx.ptr<T>();
        parallel_for(g.planes, 1, [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl) {
                if (g.d == 2) {
                    const int32_t* ib = ip + pl * g.out_size;
                    const T* gs = s + pl * g.out_size;
                    T* gd = o + pl * g.in_size;
                    for (int64_t oy = 0; oy < g.out[0]; ++oy)
                        for (int64_t ox = 0; ox < g.out[1]; ++ox) {
                            int32_t t = ib[oy * g.out[1] + ox];
                            int64_t iy = oy * g.s[0] - g.p[0] + t / g.k[1];
                            int64_t ix = ox * g.s[1] - g.p[1] + t % g.k[1];
                            if (iy < 0 || iy >= g.in[0] || ix < 0 || ix >= g.in[1]) continue;
                            T& dst = gd[iy * g.in[1] + ix];
                            dst = static_cast<T>(static_cast<Compute<T>>(dst) + static_cast<Compute<T>>(gs[oy * g.out[1] + ox]));
                        }
                    continue;
                }
                for (int64_t oi = 0; oi < g.out_size; ++oi) {
                    int64_t off = tap_offset(g, oi, ip[pl * g.out_size + oi]);
                    if (off >= 0)
                        o[pl * g.in_size + off] = static_cast<T>(static_cast<Compute<T>>(o[pl * g.in_size + off]) +
                                                                 static_cast<Compute<T>>(s[pl * g.out_size + oi]));
                }
            }
        });
    });
    if (needs_graph({&gy})) {
        record_op("max_pool_grad", {gy}, {gx}, [idx, g](BackwardContext& c) { c.set(0, max_pool_gather(c.gy(), idx, g)); });
    }
    return gx;
}

// Sums over each window divided by the divisor (average pooling), and its adjoint.
Array avg_pool_fwd(const Array& x, const PoolGeom& g, bool count_pad);
Array avg_pool_bwd(const Array& gy, const Shape& xs, const PoolGeom& g, bool count_pad);

Array avg_pool_fwd(const Array& x, const PoolGeom& g, bool count_pad) {
    Array xc = contiguous(x.as_data());
    Array y = Array::empty(out_shape(x.shape(), g), x.dtype());
    dispatch_float(x.dtype(), "average_pool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = std::conditional_t<std::is_same<T, double>::value, double, float>;
        const T* s = xc.ptr<T>();
        T* o = y.ptr<T>();
        parallel_for(g.planes, 1, [&](int64_t b, int64_t e) {
            std::vector<C> acc(g.out_size);
            std::vector<int64_t> cnt(g.out_size);
            for (int64_t pl = b; pl < e; ++pl) {
                std::fill(acc.begin(), acc.end(), C(0));
                std::fill(cnt.begin(), cnt.end(), 0);
                windows(g, [&](int64_t oi, int64_t, int64_t off) {
                    if (off >= 0) { acc[oi] += static_cast<C>(s[pl * g.in_size + off]); ++cnt[oi]; }
                });
                for (int64_t oi = 0; oi < g.out_size; ++oi) {
                    C div = count_pad ? C(g.k_size) : C(std::max<int64_t>(cnt[oi], 1));
                    o[pl * g.out_size + oi] = static_cast<T>(acc[oi] / div);
                }
            }
        });
    });
    if (needs_graph({&x})) {
        record_op("average_pool", {x}, {y}, [g, count_pad, xs = x.shape()](BackwardContext& c) {
            c.set(0, avg_pool_bwd(c.gy(), xs, g, count_pad));
        });
    }
    return y;
}

Array avg_pool_bwd(const Array& gy, const Shape& xs, const PoolGeom& g, bool count_pad) {
    Array gyc = contiguous(gy.as_data());
    Array gx = zeros(xs, gy.dtype());
    dispatch_float(gy.dtype(), "average_pool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* s = gyc.ptr<T>();
        T* o = gx.ptr<T>();
        parallel_for(g.planes, 1, [&](int64_t b, int64_t e) {
            std::vector<int64_t> cnt(g.out_size);
            for (int64_t pl = b; pl < e; ++pl) {
                std::fill(cnt.begin(), cnt.end(), 0);
                if (!count_pad) windows(g, [&](int64_t oi, int64_t, int64_t off) { if (off >= 0) ++cnt[oi]; });
                windows(g, [&](int64_t oi, int64_t, int64_t off) {
                    if (off < 0) return;
                    float div = count_pad ? float(g.k_size) : float(std::max<int64_t>(cnt[oi], 1));
                    T& dst = o[pl * g.in_size + off];
                    dst = static_cast<T>(static_cast<double>(dst) + static_cast<double>(s[pl * g.out_size + oi]) / div);
                });
            }
        });
    });
    if (needs_graph({&gy})) {
        record_op("average_pool_grad", {gy}, {gx}, [g, count_pad](BackwardContext& c) {
            c.set(0, avg_pool_fwd(c.gy(), g, count_pad));
        });
    }
    return gx;
}

}  // namespace

std::pair<Array, Array> max_pool_with_indexes(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad,
                                              bool cover_all) {
    check_float("max_pool", x);
    PoolGeom g = pool_geom("max_pool", x.shape(), ksize, stride, pad, cover_all);
    Array xc = contiguous(x.as_data());
    Shape ys = out_shape(x.shape(), g);
    Array y = Array::empty(ys, x.dtype());
    Array idx = Array::empty(ys, Dtype::Int32);
    int32_t* ip = idx.ptr<int32_t>();
    dispatch_float(x.dtype(), "max_pool", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        const T* s = xc.ptr<T>();
        T* o = y.ptr<T>();
        parallel_for(g.planes, 1, [&](int64_t b, int64_t e) {
            std::vector<C> best(g.out_size);
            std::vector<C> vals;
            std::vector<int32_t> taps;
            if (g.d == 2) {
                vals.resize(g.in[0] * g.out[1]);
                taps.resize(g.in[0] * g.out[1]);
            }
            for (int64_t pl = b; pl < e; ++pl) {
                int32_t* ib = ip + pl * g.out_size;
                if (g.d == 2) {
                    max_pool_plane_2d(g, s + pl * g.in_size, o + pl * g.out_size, ib, vals.data(), taps.data(),
                                      best.data());
                    continue;
                }
                windows(g, [&](int64_t oi, int64_t t, int64_t off) {
                    C v = off >= 0 ? static_cast<C>(s[pl * g.in_size + off]) : -std::numeric_limits<C>::infinity();
                    if (t == 0 || beats(v, best[oi])) { best[oi] = v; ib[oi] = static_cast<int32_t>(t); }
                });
                for (int64_t oi = 0; oi < g.out_size; ++oi) o[pl * g.out_size + oi] = static_cast<T>(best[oi]);
            }
        });
    });
    if (needs_graph({&x})) {
        record_op("max_pool", {x}, {y}, [idx, g, xs = x.shape()](BackwardContext& c) {
            c.set(0, max_pool_grad(c.gy(), idx, xs, g));
        });
    }
    return {y, idx};
}

Array max_pool(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad, bool cover_all) {
    return max_pool_with_indexes(x, ksize, stride, pad, cover_all).first;
}

Array average_pool(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad, bool count_pad) {
    check_float("average_pool", x);
    PoolGeom g = pool_geom("average_pool", x.shape(), ksize, stride, pad, false);
    return avg_pool_fwd(x, g, count_pad);
}

}  // namespace cn
