// matmul and dot: float32/float64 on BLAS GEMM (transposed views are passed
// as transposed operands, not copied), float16 through float32, integers by
// plain loops.
#include "blas.h"
#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "linalg.h"
#include "loops.h"
#include "manipulation.h"
#include "reduction.h"
#include "rules.h"

namespace cn {

namespace {

struct Layout {
    bool trans;
    int64_t ld;
};

// How BLAS can read a rows x cols matrix with byte strides rs, cs.
bool blas_layout(int64_t rs, int64_t cs, int64_t rows, int64_t cols, int64_t isz, Layout& l) {
    if (cols <= 1) cs = isz;
    if (rows <= 1) rs = cols * isz;
    if (cs == isz && rs > 0 && rs % isz == 0 && rs / isz >= std::max<int64_t>(cols, 1)) {
        l = {false, rs / isz};
        return true;
    }
    if (rows > 1 && cols > 1) {
        if (rs == isz && cs > 0 && cs % isz == 0 && cs / isz >= rows) {
            l = {true, cs / isz};
            return true;
        }
    } else if (rows <= 1 && rs == cols * isz && cs == isz) {
        l = {false, std::max<int64_t>(cols, 1)};
        return true;
    }
    return false;
}

template <typename T>
void gemm_any(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
              int64_t ldc) {
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
        if (k == 0) {
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = T(0);
            return;
        }
        gemm_mt<T>(ta, tb, m, n, k, T(1), a, std::max<int64_t>(lda, 1), b, std::max<int64_t>(ldb, 1), T(0), c,
                   std::max<int64_t>(ldc, 1));
    } else {
        using Acc = std::conditional_t<std::is_same<T, bool>::value, bool, int64_t>;
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                Acc s = 0;
                for (int64_t p = 0; p < k; ++p) {
                    T x = ta ? a[p * lda + i] : a[i * lda + p];
                    T y = tb ? b[j * ldb + p] : b[p * ldb + j];
                    if constexpr (std::is_same<T, bool>::value) s = s || (x && y);
                    else s += static_cast<Acc>(x) * static_cast<Acc>(y);
                }
                c[i * ldc + j] = static_cast<T>(s);
            }
    }
}

// a (..., m, k) @ b (..., k, n) with at least 2 dims each, same dtype T.
template <typename T>
Array matmul_nd(const Array& a0, const Array& b0) {
    const int64_t isz = sizeof(T);
    int an = a0.ndim(), bn = b0.ndim();
    int64_t m = a0.shape()[an - 2], k = a0.shape()[an - 1], n = b0.shape()[bn - 1];
    Shape abatch(a0.shape().begin(), a0.shape().end() - 2), bbatch(b0.shape().begin(), b0.shape().end() - 2);
    Shape batch = broadcast_shapes(abatch, bbatch, "matmul");
    Shape oshape = batch;
    oshape.push_back(m);
    oshape.push_back(n);
    Array out = Array::empty(oshape, a0.dtype());
    if (out.size() == 0) return out;
    Array a = a0, b = b0;
    Layout la, lb;
    if (!blas_layout(a.strides()[an - 2], a.strides()[an - 1], m, k, isz, la)) {
        a = contiguous(a0);
        blas_layout(a.strides()[an - 2], a.strides()[an - 1], m, k, isz, la);
    }
    if (!blas_layout(b.strides()[bn - 2], b.strides()[bn - 1], k, n, isz, lb)) {
        b = contiguous(b0);
        blas_layout(b.strides()[bn - 2], b.strides()[bn - 1], k, n, isz, lb);
    }
    int64_t nb = total_size(batch);
    // One GEMM for a stack of matrices times one matrix: fold the batch into m.
    if (bbatch.size() == 0 || total_size(bbatch) == 1) {
        if (nb > 1 && a.is_contiguous() && !la.trans && total_size(bbatch) == 1) {
            gemm_any<T>(false, lb.trans, nb * m, n, k, a.ptr<T>(), k, b.ptr<T>(), lb.ld, out.ptr<T>(), n);
            return out;
        }
    }
    Strides abs_, bbs_;
    {
        Array av = a.view(abatch, Strides(a.strides().begin(), a.strides().end() - 2), 0);
        Array bv = b.view(bbatch, Strides(b.strides().begin(), b.strides().end() - 2), 0);
        abs_ = broadcast_strides(av, batch, "matmul");
        bbs_ = broadcast_strides(bv, batch, "matmul");
    }
    T* o = out.ptr<T>();
    int64_t idx[kMaxNdim] = {0};
    for (int64_t i = 0; i < nb; ++i) {
        int64_t ao = 0, bo = 0, r = i;
        for (int d = batch.size() - 1; d >= 0; --d) {
            idx[d] = r % batch[d];
            r /= batch[d];
            ao += idx[d] * abs_[d];
            bo += idx[d] * bbs_[d];
        }
        gemm_any<T>(la.trans, lb.trans, m, n, k, reinterpret_cast<const T*>(a.raw() + ao), la.ld,
                    reinterpret_cast<const T*>(b.raw() + bo), lb.ld, o + i * m * n, n);
    }
    return out;
}

Array matmul_data(const Array& a, const Array& b) {
    Dtype dt = promote_types(a.dtype(), b.dtype());
    if (dt == Dtype::Float16) {
        Array r = matmul_data(contiguous_as(a, Dtype::Float32), contiguous_as(b, Dtype::Float32));
        return contiguous_as(r, Dtype::Float16);
    }
    Array ac = a.dtype() == dt ? a.as_data() : contiguous_as(a, dt);
    Array bc = b.dtype() == dt ? b.as_data() : contiguous_as(b, dt);
    return dispatch(dt, [&](auto tag) -> Array {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same<T, Half>::value) return Array();
        else return matmul_nd<T>(ac, bc);
    });
}

}  // namespace

Array matmul(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0)
        throw ShapeError("matmul: operands must have at least one dimension (got shapes " + a.shape().str() + " and " +
                         b.shape().str() + ")");
    bool a1 = a.ndim() == 1, b1 = b.ndim() == 1;
    bool graph = needs_graph({&a, &b});
    Array ad = a.as_data(), bd = b.as_data();
    if (a1) ad = ad.view(Shape{1, a.shape()[0]}, Strides{0, a.strides()[0]}, 0);
    if (b1) bd = bd.view(Shape{b.shape()[0], 1}, Strides{b.strides()[0], 0}, 0);
    int64_t ka = ad.shape()[ad.ndim() - 1], kb = bd.shape()[bd.ndim() - 2];
    if (ka != kb)
        throw ShapeError("matmul: the inner dimensions of shapes " + a.shape().str() + " and " + b.shape().str() +
                         " differ (" + std::to_string(ka) + " vs " + std::to_string(kb) + ")");
    // The core's matmul takes operands of two or more axes: a vector reaches
    // its rule as a matrix, through reshapes recorded as well.
    if ((a1 || b1) && graph) {
        Array a2 = a1 ? reshape(a, {1, a.shape()[0]}) : a;
        Array b2 = b1 ? reshape(b, {b.shape()[0], 1}) : b;
        Array y2 = matmul(a2, b2);
        std::vector<int64_t> s = y2.shape().to_vector();
        if (b1) s.erase(s.end() - 1);
        if (a1) s.erase(s.end() - (b1 ? 1 : 2));
        return reshape(y2, s);
    }
    Array out = matmul_data(ad, bd);
    if (a1 || b1) {
        Shape s = out.shape();
        if (b1) s.erase(s.size() - 1);
        if (a1) s.erase(s.size() - (b1 ? 1 : 2));
        out = out.view(s, contiguous_strides(s, out.itemsize()), 0);
    }
    if (is_float(out.dtype()) && graph) record_rule("matmul", {a, b}, {out}, {false, false});
    return out;
}

Array dot(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
    if (a.ndim() <= 2 && b.ndim() <= 2) return matmul(a, b);
    int64_t k = a.shape()[a.ndim() - 1];
    int kb_axis = b.ndim() >= 2 ? b.ndim() - 2 : 0;
    if (b.shape()[kb_axis] != k)
        throw ShapeError("dot: shapes " + a.shape().str() + " and " + b.shape().str() + " not aligned");
    Array a2 = reshape(a, {-1, k});
    Array bt = moveaxis(b, {kb_axis}, {0});
    Array b2 = reshape(bt, {k, -1});
    Array r = matmul(a2, b2);
    std::vector<int64_t> s(a.shape().begin(), a.shape().end() - 1);
    for (int i = 0; i < b.ndim(); ++i)
        if (i != kb_axis) s.push_back(b.shape()[i]);
    return reshape(r, s);
}

}  // namespace cn
