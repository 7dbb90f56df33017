// N-d convolution and transposed convolution. The forward pass of a 1-d or
// 2-d convolution runs on conv_gemm where the CPU has its kernels (a GEMM
// whose columns are packed straight from the images); everything else by
// im2col + GEMM, one sample per pool thread at a time, with a
// single-threaded GEMM on a column buffer that stays in cache.
#include <cstring>

#include "blas.h"
#include "conv_gemm.h"
#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "manipulation.h"
#include "nn.h"
#include "reduction.h"
#include "threads.h"

namespace cn {

namespace {

// Geometry of one convolution: the image side (in) and the column side
// (out), per spatial dimension.
struct Geom {
    int d = 0;
    int64_t in[kMaxNdim], out[kMaxNdim], k[kMaxNdim], s[kMaxNdim], p[kMaxNdim], dl[kMaxNdim];
    int64_t in_size = 1, out_size = 1, k_size = 1;
    void finish() {
        in_size = out_size = k_size = 1;
        for (int i = 0; i < d; ++i) {
            in_size *= in[i];
            out_size *= out[i];
            k_size *= k[i];
        }
    }
};

Ints expand(const Ints& v, int d, const char* op, const char* name, int64_t min) {
    Ints r;
    if (v.size() == 1) r.assign(d, v[0]);
    else if (static_cast<int>(v.size()) == d) r = v;
    else
        throw ShapeError(std::string(op) + ": " + name + " must have 1 or " + std::to_string(d) + " values, got " +
                         std::to_string(v.size()));
    for (auto x : r)
        if (x < min)
            throw ShapeError(std::string(op) + ": " + name + " must be at least " + std::to_string(min) + ", got " +
                             std::to_string(x));
    return r;
}

// The valid output range [lo, hi) along one axis for kernel tap offset
// `off` (= k * dilation - pad): positions o with 0 <= o * s + off < in.
inline void valid_range(int64_t out, int64_t s, int64_t off, int64_t in, int64_t& lo, int64_t& hi) {
    lo = off >= 0 ? 0 : (-off + s - 1) / s;
    hi = in - off <= 0 ? 0 : (in - off + s - 1) / s;
    if (hi > out) hi = out;
    if (lo > hi) lo = hi;
}

// col (C * K, P) from one image (C, *in), row stride col_ld; single-threaded
// (the caller spreads samples over the pool). For d == 2, only output rows
// oy0 .. oy1 - 1 (oy1 < 0: all), column 0 being row oy0's first.
template <typename T>
void im2col(const T* img, int64_t channels, const Geom& g, T* col, int64_t col_ld, int64_t oy0 = 0,
            int64_t oy1 = -1) {
    const int d = g.d;
    if (d == 2) {
        const int64_t H = g.in[0], W = g.in[1], ow = g.out[1];
        if (oy1 < 0) oy1 = g.out[0];
        for (int64_t c = 0; c < channels; ++c) {
            const T* x = img + c * H * W;
            for (int64_t ky = 0; ky < g.k[0]; ++ky) {
                int64_t offy = ky * g.dl[0] - g.p[0], ylo, yhi;
                valid_range(g.out[0], g.s[0], offy, H, ylo, yhi);
                ylo = std::min(std::max(ylo, oy0), oy1);
                yhi = std::max(std::min(yhi, oy1), ylo);
                for (int64_t kx = 0; kx < g.k[1]; ++kx) {
                    int64_t offx = kx * g.dl[1] - g.p[1], xlo, xhi;
                    valid_range(ow, g.s[1], offx, W, xlo, xhi);
                    // Output row oy lands at (oy - oy0) * ow.
                    T* row = col + ((c * g.k[0] + ky) * g.k[1] + kx) * col_ld;
                    std::fill(row, row + (ylo - oy0) * ow, T(0));
                    for (int64_t oy = ylo; oy < yhi; ++oy) {
                        T* dst = row + (oy - oy0) * ow;
                        const T* src = x + (oy * g.s[0] + offy) * W + offx;
                        std::fill(dst, dst + xlo, T(0));
                        if (g.s[1] == 1) {
                            std::memcpy(dst + xlo, src + xlo, sizeof(T) * (xhi - xlo));
                        } else {
                            for (int64_t ox = xlo; ox < xhi; ++ox) dst[ox] = src[ox * g.s[1]];
                        }
                        std::fill(dst + xhi, dst + ow, T(0));
                    }
                    std::fill(row + (yhi - oy0) * ow, row + (oy1 - oy0) * ow, T(0));
                }
            }
        }
        return;
    }
    const int64_t lastn = g.out[d - 1];
    const int64_t outer_n = g.out_size / std::max<int64_t>(lastn, 1);
    int64_t kk[kMaxNdim], oo[kMaxNdim];
    for (int64_t c = 0; c < channels; ++c) {
        const T* x = img + c * g.in_size;
        for (int64_t kidx = 0; kidx < g.k_size; ++kidx) {
            int64_t r = kidx;
            for (int i = d - 1; i >= 0; --i) { kk[i] = r % g.k[i]; r /= g.k[i]; }
            T* row = col + (c * g.k_size + kidx) * col_ld;
            for (int64_t o = 0; o < outer_n; ++o) {
                int64_t q = o;
                for (int i = d - 2; i >= 0; --i) { oo[i] = q % g.out[i]; q /= g.out[i]; }
                int64_t off = 0;
                bool valid = true;
                for (int i = 0; i < d - 1; ++i) {
                    int64_t pos = oo[i] * g.s[i] - g.p[i] + kk[i] * g.dl[i];
                    if (pos < 0 || pos >= g.in[i]) { valid = false; break; }
                    off = off * g.in[i] + pos;
                }
                T* dst = row + o * lastn;
                if (!valid) {
                    std::fill(dst, dst + lastn, T(0));
                    continue;
                }
                const int i = d - 1;
                const T* src = x + off * g.in[i];
                int64_t start = kk[i] * g.dl[i] - g.p[i];
                for (int64_t j = 0; j < lastn; ++j) {
                    int64_t pos = j * g.s[i] + start;
                    dst[j] = (pos >= 0 && pos < g.in[i]) ? src[pos] : T(0);
                }
            }
        }
    }
}

// The adjoint of im2col: img (C, *in) += col scattered back.
template <typename T>
void col2im(const T* col, int64_t col_ld, int64_t channels, const Geom& g, T* img) {
    const int d = g.d;
    if (d == 2) {
        const int64_t H = g.in[0], W = g.in[1], oh = g.out[0], ow = g.out[1];
        for (int64_t c = 0; c < channels; ++c) {
            T* x = img + c * H * W;
            for (int64_t ky = 0; ky < g.k[0]; ++ky) {
                int64_t offy = ky * g.dl[0] - g.p[0], ylo, yhi;
                valid_range(oh, g.s[0], offy, H, ylo, yhi);
                for (int64_t kx = 0; kx < g.k[1]; ++kx) {
                    int64_t offx = kx * g.dl[1] - g.p[1], xlo, xhi;
                    valid_range(ow, g.s[1], offx, W, xlo, xhi);
                    const T* row = col + ((c * g.k[0] + ky) * g.k[1] + kx) * col_ld;
                    for (int64_t oy = ylo; oy < yhi; ++oy) {
                        const T* src = row + oy * ow;
                        T* dst = x + (oy * g.s[0] + offy) * W + offx;
                        if (g.s[1] == 1) {
                            for (int64_t ox = xlo; ox < xhi; ++ox) dst[ox] += src[ox];
                        } else {
                            for (int64_t ox = xlo; ox < xhi; ++ox) dst[ox * g.s[1]] += src[ox];
                        }
                    }
                }
            }
        }
        return;
    }
    const int64_t lastn = g.out[d - 1];
    const int64_t outer_n = g.out_size / std::max<int64_t>(lastn, 1);
    int64_t kk[kMaxNdim], oo[kMaxNdim];
    for (int64_t c = 0; c < channels; ++c) {
        T* x = img + c * g.in_size;
        for (int64_t kidx = 0; kidx < g.k_size; ++kidx) {
            int64_t r = kidx;
            for (int i = d - 1; i >= 0; --i) { kk[i] = r % g.k[i]; r /= g.k[i]; }
            const T* row = col + (c * g.k_size + kidx) * col_ld;
            for (int64_t o = 0; o < outer_n; ++o) {
                int64_t q = o;
                for (int i = d - 2; i >= 0; --i) { oo[i] = q % g.out[i]; q /= g.out[i]; }
                int64_t off = 0;
                bool valid = true;
                for (int i = 0; i < d - 1; ++i) {
                    int64_t pos = oo[i] * g.s[i] - g.p[i] + kk[i] * g.dl[i];
                    if (pos < 0 || pos >= g.in[i]) { valid = false; break; }
                    off = off * g.in[i] + pos;
                }
                if (!valid) continue;
                const int i = d - 1;
                T* dst = x + off * g.in[i];
                const T* src = row + o * lastn;
                int64_t start = kk[i] * g.dl[i] - g.p[i];
                for (int64_t j = 0; j < lastn; ++j) {
                    int64_t pos = j * g.s[i] + start;
                    if (pos >= 0 && pos < g.in[i]) dst[pos] += src[j];
                }
            }
        }
    }
}

bool is_pointwise(const Geom& g) {
    for (int i = 0; i < g.d; ++i)
        if (g.k[i] != 1 || g.s[i] != 1 || g.p[i] != 0) return false;
    return true;
}

// The column buffer of the im2col path holds whole output rows, about
// kMaxColElems elements but at least kMinCols columns: a 3x3 convolution of
// 64 channels at 300x300 would otherwise want 200 MB of columns (BLAS ran
// it at half speed), and narrower products lose more than a smaller buffer
// gains.
constexpr int64_t kMaxColElems = int64_t(1) << 21;
constexpr int64_t kMinCols = 1024;

// y[o, :] += b[o] for the og rows of one sample and group.
template <typename T>
void add_bias_rows(T* y, const T* b, int64_t og, int64_t P) {
    for (int64_t o = 0; o < og; ++o) {
        const T v = b[o];
        T* r = y + o * P;
        for (int64_t p = 0; p < P; ++p) r[p] += v;
    }
}

// y (N, O, *out) = conv(x (N, C, *in), w (O, C/G, *k)) + b for T in {float,
// double}; b: null or O values. Packed GEMM kernels for 1-d and 2-d where
// the CPU has them; otherwise samples are spread over the pool, each
// running its im2col and its GEMMs on its own thread, with a column buffer
// that stays in cache.
template <typename T>
void conv_fwd(const Array& x, const Array& w, const Array& y, const Geom& g, int64_t groups, const T* bias) {
    const int64_t N = x.shape()[0], C = x.shape()[1], O = w.shape()[0];
    const int64_t Cg = C / groups, Og = O / groups, K = Cg * g.k_size, P = g.out_size;
    const T* xp = x.ptr<T>();
    const T* wp = w.ptr<T>();
    T* yp = y.ptr<T>();
    // Groups of a few output channels each (depthwise convolutions) stay on
    // im2col: per group the packing of short runs costs as much as the
    // arithmetic there is (depthwise 3x3 at batch 8 measured twice as slow).
    if (g.d <= 2 && (groups == 1 || Og >= 8) && conv_gemm_supported()) {
        // A 1-d convolution is a 2-d one with a single row.
        const int h = g.d - 2;  // index of the height axis (-1: none)
        Conv2dShape s;
        s.channels = Cg;
        s.out_channels = Og;
        s.in_h = h >= 0 ? g.in[h] : 1;
        s.k_h = h >= 0 ? g.k[h] : 1;
        s.s_h = h >= 0 ? g.s[h] : 1;
        s.p_h = h >= 0 ? g.p[h] : 0;
        s.d_h = h >= 0 ? g.dl[h] : 1;
        s.out_h = h >= 0 ? g.out[h] : 1;
        const int wi = g.d - 1;
        s.in_w = g.in[wi];
        s.k_w = g.k[wi];
        s.s_w = g.s[wi];
        s.p_w = g.p[wi];
        s.d_w = g.dl[wi];
        s.out_w = g.out[wi];
        for (int64_t gi = 0; gi < groups; ++gi)
            conv_gemm_forward<T>(s, N, xp + gi * Cg * g.in_size, C * g.in_size, wp + gi * Og * K,
                                 bias ? bias + gi * Og : nullptr, yp + gi * Og * P, O * P);
        return;
    }
    bool pw = is_pointwise(g);
    // Output rows per im2col (2-d only; other ranks take the whole output).
    const int64_t ow = g.d == 2 ? g.out[1] : P, oh = g.d == 2 ? g.out[0] : 1;
    const int64_t rows =
        pw ? oh
           : std::min(oh, std::max({int64_t(1), kMaxColElems / std::max<int64_t>(K * ow, 1), (kMinCols + ow - 1) / ow}));
    parallel_for(N, 1, [&](int64_t nb, int64_t ne) {
        Array colbuf = Array::empty(Shape{pw ? 0 : K * rows * ow}, DtypeOf<T>::value);
        T* colp = colbuf.ptr<T>();
        for (int64_t n = nb; n < ne; ++n) {
            for (int64_t gi = 0; gi < groups; ++gi) {
                const T* img = xp + (n * C + gi * Cg) * g.in_size;
                T* out = yp + (n * O + gi * Og) * P;
                const T* wg = wp + gi * Og * K;
                if (pw) {
                    gemm(false, false, Og, P, K, T(1), wg, K, img, P, T(0), out, P);
                } else {
                    for (int64_t oy0 = 0; oy0 < oh; oy0 += rows) {
                        const int64_t oy1 = std::min(oh, oy0 + rows), cols = (oy1 - oy0) * ow;
                        im2col<T>(img, Cg, g, colp, cols, oy0, oy1);
                        gemm(false, false, Og, cols, K, T(1), wg, K, colp, cols, T(0), out + oy0 * ow, P);
                    }
                }
                if (bias) add_bias_rows(out, bias + gi * Og, Og, P);
            }
        }
    });
}

// gx (N, C, *in) of conv, from gy (N, O, *out) and w (O, C/G, *k); the same
// computation is the forward pass of the transposed convolution.
template <typename T>
void conv_bwd_data(const Array& gy, const Array& w, const Array& gx, const Geom& g, int64_t groups) {
    const int64_t N = gx.shape()[0], C = gx.shape()[1], O = w.shape()[0];
    const int64_t Cg = C / groups, Og = O / groups, K = Cg * g.k_size, P = g.out_size;
    const T* gyp = gy.ptr<T>();
    const T* wp = w.ptr<T>();
    T* gxp = gx.ptr<T>();
    bool pw = is_pointwise(g);
    parallel_for(N, 1, [&](int64_t nb, int64_t ne) {
        Array colbuf = Array::empty(Shape{K * P}, DtypeOf<T>::value);
        T* colp = colbuf.ptr<T>();
        for (int64_t n = nb; n < ne; ++n) {
            for (int64_t gi = 0; gi < groups; ++gi) {
                T* img = gxp + (n * C + gi * Cg) * g.in_size;
                const T* src = gyp + (n * O + gi * Og) * P;
                if (pw) {
                    gemm(true, false, K, P, Og, T(1), wp + gi * Og * K, K, src, P, T(0), img, P);
                    continue;
                }
                gemm(true, false, K, P, Og, T(1), wp + gi * Og * K, K, src, P, T(0), colp, P);
                std::fill(img, img + Cg * g.in_size, T(0));
                col2im<T>(colp, P, Cg, g, img);
            }
        }
    });
}

// gw (O, C/G, *k) from x (N, C, *in) and gy (N, O, *out).
template <typename T>
void conv_bwd_weight(const Array& x, const Array& gy, const Array& gw, const Geom& g, int64_t groups) {
    const int64_t N = x.shape()[0], C = x.shape()[1], O = gw.shape()[0];
    const int64_t Cg = C / groups, Og = O / groups, K = Cg * g.k_size, P = g.out_size;
    const T* xp = x.ptr<T>();
    const T* gyp = gy.ptr<T>();
    T* gwp = gw.ptr<T>();
    bool pw = is_pointwise(g);
    const int64_t wsize = gw.size();
    int64_t nparts = std::min<int64_t>(num_threads(), N);
    std::vector<std::vector<T>> partial(static_cast<size_t>(std::max<int64_t>(nparts, 1)));
    int64_t per = nparts ? (N + nparts - 1) / nparts : N;
    parallel_for(nparts, 1, [&](int64_t pb, int64_t pe) {
        Array colbuf = Array::empty(Shape{pw ? 0 : K * P}, DtypeOf<T>::value);
        T* colp = colbuf.ptr<T>();
        for (int64_t part = pb; part < pe; ++part) {
            std::vector<T>& acc = partial[part];
            acc.assign(static_cast<size_t>(wsize), T(0));
            for (int64_t n = part * per; n < std::min(N, (part + 1) * per); ++n) {
                for (int64_t gi = 0; gi < groups; ++gi) {
                    const T* img = xp + (n * C + gi * Cg) * g.in_size;
                    const T* cp = img;
                    if (!pw) {
                        im2col<T>(img, Cg, g, colp, P);
                        cp = colp;
                    }
                    gemm(false, true, Og, K, P, T(1), gyp + (n * O + gi * Og) * P, P, cp, P, T(1),
                         acc.data() + gi * Og * K, K);
                }
            }
        }
    });
    std::fill(gwp, gwp + wsize, T(0));
    for (const auto& acc : partial)
        for (int64_t i = 0; i < static_cast<int64_t>(acc.size()); ++i) gwp[i] += acc[i];
}

// Runs f<T> on float32/float64 copies (float16 goes through float32).
template <typename F>
Array run_float_kernel(const char* op, Dtype dt, F&& f) {
    if (!is_float(dt)) throw DtypeError(std::string(op) + ": expected floating-point arrays, got " + dtype_name(dt));
    Dtype ct = dt == Dtype::Float64 ? Dtype::Float64 : Dtype::Float32;
    Array r = ct == Dtype::Float64 ? f(Tag<double>{}, ct) : f(Tag<float>{}, ct);
    return r.dtype() == dt ? r : contiguous_as(r, dt);
}

void check_same_float(const char* op, const Array& x, const char* xn, const Array& w, const char* wn) {
    if (!is_float(x.dtype()))
        throw DtypeError(std::string(op) + ": " + xn + " must be floating-point, got " + dtype_name(x.dtype()));
    if (w.dtype() != x.dtype())
        throw DtypeError(std::string(op) + ": " + wn + " has dtype " + dtype_name(w.dtype()) + " but " + xn + " has " +
                         dtype_name(x.dtype()));
}

void add_bias(const Array& y, const Array& b) {
    Shape bs(y.ndim(), 1);
    bs[1] = b.shape()[0];
    // b may be a strided view (b[::2]): keep its own stride.
    Strides bst(y.ndim(), 0);
    bst[1] = b.strides()[0];
    binary_inplace(BinaryOp::Add, y, b.as_data().view(bs, bst, 0));
}

std::vector<int64_t> bias_axes(int ndim) {
    std::vector<int64_t> ax{0};
    for (int i = 2; i < ndim; ++i) ax.push_back(i);
    return ax;
}

void check_bias(const char* op, const Array& b, int64_t channels, Dtype dt) {
    if (!b.defined()) return;
    if (b.ndim() != 1 || b.shape()[0] != channels)
        throw ShapeError(std::string(op) + ": b must have shape (" + std::to_string(channels) + ",), got " + b.shape().str());
    if (b.dtype() != dt)
        throw DtypeError(std::string(op) + ": b has dtype " + dtype_name(b.dtype()) + " but x has " + dtype_name(dt));
}

// x (N, C, *in) with w (O, C/G, *k): the geometry, validated.
Geom conv_geom(const char* op, const Array& x, const Array& w, const Ints& stride, const Ints& pad, const Ints& dil,
               int64_t groups, bool cover_all) {
    if (x.ndim() < 3) throw ShapeError(std::string(op) + ": x must be (N, C, *spatial) with at least one spatial axis, got " + x.shape().str());
    int d = x.ndim() - 2;
    if (w.ndim() != x.ndim())
        throw ShapeError(std::string(op) + ": w must have " + std::to_string(x.ndim()) + " dimensions, got shape " + w.shape().str());
    if (groups < 1) throw ShapeError(std::string(op) + ": groups must be positive, got " + std::to_string(groups));
    int64_t C = x.shape()[1], O = w.shape()[0];
    if (C % groups != 0 || O % groups != 0)
        throw ShapeError(std::string(op) + ": groups (" + std::to_string(groups) + ") must divide the channels of x (" +
                         std::to_string(C) + ") and of w (" + std::to_string(O) + ")");
    if (w.shape()[1] * groups != C)
        throw ShapeError(std::string(op) + ": w has " + std::to_string(w.shape()[1]) + " input channels per group, x has " +
                         std::to_string(C) + " channels in " + std::to_string(groups) + " group(s)");
    Ints s = expand(stride, d, op, "stride", 1), p = expand(pad, d, op, "pad", 0), dl = expand(dil, d, op, "dilation", 1);
    Geom g;
    g.d = d;
    for (int i = 0; i < d; ++i) {
        g.in[i] = x.shape()[2 + i];
        g.k[i] = w.shape()[2 + i];
        g.s[i] = s[i];
        g.p[i] = p[i];
        g.dl[i] = dl[i];
        int64_t ext = dl[i] * (g.k[i] - 1) + 1;
        int64_t num = g.in[i] + 2 * p[i] - ext + (cover_all ? s[i] - 1 : 0);
        if (num < 0)
            throw ShapeError(std::string(op) + ": the kernel (extent " + std::to_string(ext) + ") does not fit in the padded input (size " +
                             std::to_string(g.in[i] + 2 * p[i]) + ") along spatial axis " + std::to_string(i));
        g.out[i] = num / s[i] + 1;
    }
    g.finish();
    return g;
}

// Transposed convolution of x (N, Cin, *in) with w (Cin, Cout/G, *k): the
// geometry seen as the convolution it is the adjoint of (image = output).
Geom deconv_geom(const char* op, const Array& x, const Array& w, const Ints& stride, const Ints& pad, const Ints& dil,
                 int64_t groups, const Ints& outsize) {
    if (x.ndim() < 3) throw ShapeError(std::string(op) + ": x must be (N, C, *spatial) with at least one spatial axis, got " + x.shape().str());
    int d = x.ndim() - 2;
    if (w.ndim() != x.ndim())
        throw ShapeError(std::string(op) + ": w must have " + std::to_string(x.ndim()) + " dimensions, got shape " + w.shape().str());
    if (groups < 1) throw ShapeError(std::string(op) + ": groups must be positive, got " + std::to_string(groups));
    if (w.shape()[0] != x.shape()[1])
        throw ShapeError(std::string(op) + ": w has " + std::to_string(w.shape()[0]) + " input channels, x has " +
                         std::to_string(x.shape()[1]));
    if (x.shape()[1] % groups != 0)
        throw ShapeError(std::string(op) + ": groups (" + std::to_string(groups) + ") must divide the channels of x (" +
                         std::to_string(x.shape()[1]) + ")");
    Ints s = expand(stride, d, op, "stride", 1), p = expand(pad, d, op, "pad", 0), dl = expand(dil, d, op, "dilation", 1);
    if (!outsize.empty() && static_cast<int>(outsize.size()) != d)
        throw ShapeError(std::string(op) + ": outsize must have " + std::to_string(d) + " values");
    Geom g;
    g.d = d;
    for (int i = 0; i < d; ++i) {
        g.out[i] = x.shape()[2 + i];
        g.k[i] = w.shape()[2 + i];
        g.s[i] = s[i];
        g.p[i] = p[i];
        g.dl[i] = dl[i];
        int64_t ext = dl[i] * (g.k[i] - 1) + 1;
        int64_t smallest = (g.out[i] - 1) * s[i] - 2 * p[i] + ext;
        int64_t in = outsize.empty() ? smallest : outsize[i];
        // Down to s - 1 below the smallest: the adjoint of a cover_all convolution.
        if (in <= smallest - s[i] || in >= smallest + s[i] || in <= 0)
            throw ShapeError(std::string(op) + ": outsize " + std::to_string(in) + " along spatial axis " + std::to_string(i) +
                             " is inconsistent with the input size, stride, pad and kernel (expected " +
                             std::to_string(smallest) + (s[i] > 1 ? " to " + std::to_string(smallest + s[i] - 1) : "") + ")");
        g.in[i] = in;
    }
    g.finish();
    return g;
}

// conv(x, w) + b (b: undefined or (O,), any strides).
Array conv_data(const Array& x, const Array& w, const Array& b, const Geom& g, int64_t groups) {
    Shape ys{x.shape()[0], w.shape()[0]};
    for (int i = 0; i < g.d; ++i) ys.push_back(g.out[i]);
    return run_float_kernel("conv", x.dtype(), [&](auto tag, Dtype ct) {
        using T = typename decltype(tag)::type;
        Array xc = contiguous_as(x, ct), wc = contiguous_as(w, ct);
        Array bc = b.defined() ? contiguous_as(b, ct) : Array();
        Array y = Array::empty(ys, ct);
        if (y.size() > 0) conv_fwd<T>(xc, wc, y, g, groups, bc.defined() ? bc.ptr<T>() : nullptr);
        return y;
    });
}

Array deconv_data(const Array& x, const Array& w, const Geom& g, int64_t groups) {
    int64_t cout = w.shape()[1] * groups;
    Shape ys{x.shape()[0], cout};
    for (int i = 0; i < g.d; ++i) ys.push_back(g.in[i]);
    return run_float_kernel("conv_transpose", x.dtype(), [&](auto tag, Dtype ct) {
        using T = typename decltype(tag)::type;
        Array xc = contiguous_as(x, ct), wc = contiguous_as(w, ct);
        Array y = Array::empty(ys, ct);
        if (y.size() > 0) conv_bwd_data<T>(xc, wc, y, g, groups);
        return y;
    });
}

Array grad_weight_data(const Array& x, const Array& gy, const Shape& ws, const Geom& g, int64_t groups) {
    return run_float_kernel("conv_grad_weight", x.dtype(), [&](auto tag, Dtype ct) {
        using T = typename decltype(tag)::type;
        Array xc = contiguous_as(x, ct), gyc = contiguous_as(gy, ct);
        Array gw = Array::empty(ws, ct);
        if (gw.size() > 0) conv_bwd_weight<T>(xc, gyc, gw, g, groups);
        return gw;
    });
}

Ints spatial(const Array& a) { return Ints(a.shape().begin() + 2, a.shape().end()); }

}  // namespace

Array conv(const Array& x, const Array& w, const Array& b, const Ints& stride, const Ints& pad, const Ints& dilation,
           int64_t groups, bool cover_all) {
    check_same_float("conv", x, "x", w, "w");
    Geom g = conv_geom("conv", x, w, stride, pad, dilation, groups, cover_all);
    check_bias("conv", b, w.shape()[0], x.dtype());
    Array y = conv_data(x, w, b, g, groups);
    if (needs_graph({&x, &w, &b})) {
        Ints in = spatial(x);
        Ints s(g.s, g.s + g.d), p(g.p, g.p + g.d), dl(g.dl, g.dl + g.d), k(g.k, g.k + g.d);
        record_op("conv", {x, w, b}, {y}, [x, w, s, p, dl, k, in, groups](BackwardContext& c) {
            Array gy = c.gy();
            if (c.needs(0)) c.set(0, conv_transpose(gy, w, Array(), s, p, dl, groups, in));
            if (c.needs(1)) c.set(1, conv_grad_weight(x, gy, k, s, p, dl, groups));
            if (c.needs(2)) c.set(2, sum(gy, Axes(bias_axes(gy.ndim())), false));
        });
    }
    return y;
}

Array conv_transpose(const Array& x, const Array& w, const Array& b, const Ints& stride, const Ints& pad,
                     const Ints& dilation, int64_t groups, const Ints& outsize) {
    check_same_float("conv_transpose", x, "x", w, "w");
    Geom g = deconv_geom("conv_transpose", x, w, stride, pad, dilation, groups, outsize);
    check_bias("conv_transpose", b, w.shape()[1] * groups, x.dtype());
    Array y = deconv_data(x, w, g, groups);
    if (b.defined()) add_bias(y, b);
    if (needs_graph({&x, &w, &b})) {
        Ints s(g.s, g.s + g.d), p(g.p, g.p + g.d), dl(g.dl, g.dl + g.d), k(g.k, g.k + g.d);
        // An output shorter than the smallest the kernel covers is the input
        // of a cover_all convolution, the one gx is computed by.
        bool cover_all = false;
        for (int i = 0; i < g.d; ++i)
            if (g.in[i] + 2 * g.p[i] - (g.dl[i] * (g.k[i] - 1) + 1) < (g.out[i] - 1) * g.s[i]) cover_all = true;
        record_op("conv_transpose", {x, w, b}, {y}, [x, w, s, p, dl, k, groups, cover_all](BackwardContext& c) {
            Array gy = c.gy();
            if (c.needs(0)) c.set(0, conv(gy, w, Array(), s, p, dl, groups, cover_all));
            if (c.needs(1)) c.set(1, conv_grad_weight(gy, x, k, s, p, dl, groups));
            if (c.needs(2)) c.set(2, sum(gy, Axes(bias_axes(gy.ndim())), false));
        });
    }
    return y;
}

Array conv_grad_weight(const Array& x, const Array& gy, const Ints& ksize, const Ints& stride, const Ints& pad,
                       const Ints& dilation, int64_t groups) {
    check_same_float("conv_grad_weight", x, "x", gy, "gy");
    if (x.ndim() < 3 || gy.ndim() != x.ndim())
        throw ShapeError("conv_grad_weight: x " + x.shape().str() + " and gy " + gy.shape().str() + " must be (N, C, *spatial) alike");
    int d = x.ndim() - 2;
    Ints k = expand(ksize, d, "conv_grad_weight", "ksize", 1);
    Shape ws{gy.shape()[1], x.shape()[1] / std::max<int64_t>(groups, 1)};
    for (auto v : k) ws.push_back(v);
    Array wshape = Array::empty(Shape{ws}, x.dtype());
    // Only gy's shape tells whether the forward pass had cover_all; where the
    // kernel overhangs the padded input, that is the only geometry there is.
    Ints s = expand(stride, d, "conv_grad_weight", "stride", 1), p = expand(pad, d, "conv_grad_weight", "pad", 0),
         dl = expand(dilation, d, "conv_grad_weight", "dilation", 1);
    bool cover_all = false;
    for (int i = 0; i < d; ++i) {
        int64_t num = x.shape()[2 + i] + 2 * p[i] - (dl[i] * (k[i] - 1) + 1);
        if (num < 0 || num / s[i] + 1 != gy.shape()[2 + i]) cover_all = true;
    }
    Geom g = conv_geom("conv_grad_weight", x, wshape, stride, pad, dilation, groups, cover_all);
    for (int i = 0; i < d; ++i)
        if (g.out[i] != gy.shape()[2 + i])
            throw ShapeError("conv_grad_weight: gy has spatial shape " + gy.shape().str() + " inconsistent with x " + x.shape().str());
    Array gw = grad_weight_data(x, gy, ws, g, groups);
    if (needs_graph({&x, &gy})) {
        Ints in = spatial(x);
        record_op("conv_grad_weight", {x, gy}, {gw}, [x, gy, s, p, dl, in, groups, cover_all](BackwardContext& c) {
            Array ggw = c.gy();
            if (c.needs(0)) c.set(0, conv_transpose(gy, ggw, Array(), s, p, dl, groups, in));
            if (c.needs(1)) c.set(1, conv(x, ggw, Array(), s, p, dl, groups, cover_all));
        });
    }
    return gw;
}

}  // namespace cn
