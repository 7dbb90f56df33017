// Strided iteration shared by the kernels: operands are coalesced into as few
// dimensions as possible and the innermost run is handed to a kernel that
// specialises the unit-stride and broadcast cases.
#pragma once

#include <array>
#include <cstdint>

#include "array.h"
#include "threads.h"

namespace cn {

constexpr int64_t kElementwiseGrain = 32768;

// Calls k(ptrs, inner_strides, n) for each innermost run of `shape`; every
// operand j starts at base[j] with byte strides *strides[j].
template <int N, typename K>
void for_each_run(const Shape& shape, const std::array<uint8_t*, N>& base,
                  const std::array<const Strides*, N>& strides, K&& k, int64_t grain = kElementwiseGrain) {
    int64_t sh[kMaxNdim];
    int64_t st[N][kMaxNdim];
    int nd = 0;
    for (int i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return;
        if (shape[i] == 1) continue;
        sh[nd] = shape[i];
        for (int j = 0; j < N; ++j) st[j][nd] = (*strides[j])[i];
        ++nd;
    }
    // Merge a dimension into the next inner one when every operand steps
    // through both as through one.
    int m = 0;
    for (int i = 0; i < nd; ++i) {
        if (m > 0) {
            bool ok = true;
            for (int j = 0; j < N; ++j)
                if (st[j][m - 1] != st[j][i] * sh[i]) { ok = false; break; }
            if (ok) {
                sh[m - 1] *= sh[i];
                for (int j = 0; j < N; ++j) st[j][m - 1] = st[j][i];
                continue;
            }
        }
        sh[m] = sh[i];
        for (int j = 0; j < N; ++j) st[j][m] = st[j][i];
        ++m;
    }
    nd = m;
    std::array<int64_t, N> inner_st{};
    if (nd == 0) {
        std::array<uint8_t*, N> p = base;
        k(p.data(), inner_st.data(), int64_t(1));
        return;
    }
    int64_t inner = sh[nd - 1];
    for (int j = 0; j < N; ++j) inner_st[j] = st[j][nd - 1];
    int64_t outer = 1;
    for (int i = 0; i < nd - 1; ++i) outer *= sh[i];
    if (outer == 1) {
        parallel_for(inner, grain, [&](int64_t b, int64_t e) {
            std::array<uint8_t*, N> p;
            for (int j = 0; j < N; ++j) p[j] = base[j] + b * inner_st[j];
            k(p.data(), inner_st.data(), e - b);
        });
        return;
    }
    int64_t og = grain / inner;
    if (og < 1) og = 1;
    parallel_for(outer, og, [&](int64_t b, int64_t e) {
        int64_t idx[kMaxNdim];
        int64_t rem = b;
        std::array<uint8_t*, N> p = base;
        for (int i = nd - 2; i >= 0; --i) {
            idx[i] = rem % sh[i];
            rem /= sh[i];
            for (int j = 0; j < N; ++j) p[j] += idx[i] * st[j][i];
        }
        for (int64_t o = b; o < e; ++o) {
            k(p.data(), inner_st.data(), inner);
            for (int i = nd - 2; i >= 0; --i) {
                if (++idx[i] < sh[i]) {
                    for (int j = 0; j < N; ++j) p[j] += st[j][i];
                    break;
                }
                idx[i] = 0;
                for (int j = 0; j < N; ++j) p[j] -= (sh[i] - 1) * st[j][i];
            }
        }
    });
}

template <typename T>
inline T load(const uint8_t* p) { return *reinterpret_cast<const T*>(p); }

// out = op(x) elementwise; R and T are storage types, op works on Compute<T>.
template <typename T, typename R, typename Op>
void unary_loop(const Array& x, const Strides& xs, const Array& out, Op op) {
    using C = Compute<T>;
    for_each_run<2>(out.shape(), {out.raw(), x.raw()}, {&out.strides(), &xs},
                    [&](uint8_t** p, const int64_t* s, int64_t n) {
        R* o = reinterpret_cast<R*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        if (s[0] == sizeof(R) && s[1] == sizeof(T)) {
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<R>(op(static_cast<C>(a[i])));
        } else {
            for (int64_t i = 0; i < n; ++i)
                *reinterpret_cast<R*>(p[0] + i * s[0]) =
                    static_cast<R>(op(static_cast<C>(*reinterpret_cast<const T*>(p[1] + i * s[1]))));
        }
    });
}

// out = op(x, y) with x and y already seen in out's shape (xs, ys strides).
template <typename T, typename R, typename Op>
void binary_loop(const Array& x, const Strides& xs, const Array& y, const Strides& ys, const Array& out, Op op) {
    using C = Compute<T>;
    for_each_run<3>(out.shape(), {out.raw(), x.raw(), y.raw()}, {&out.strides(), &xs, &ys},
                    [&](uint8_t** p, const int64_t* s, int64_t n) {
        R* o = reinterpret_cast<R*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        if (s[0] == sizeof(R)) {
            if (s[1] == sizeof(T) && s[2] == sizeof(T)) {
                for (int64_t i = 0; i < n; ++i) o[i] = static_cast<R>(op(static_cast<C>(a[i]), static_cast<C>(b[i])));
                return;
            }
            if (s[1] == sizeof(T) && s[2] == 0) {
                const C bv = static_cast<C>(b[0]);
                for (int64_t i = 0; i < n; ++i) o[i] = static_cast<R>(op(static_cast<C>(a[i]), bv));
                return;
            }
            if (s[1] == 0 && s[2] == sizeof(T)) {
                const C av = static_cast<C>(a[0]);
                for (int64_t i = 0; i < n; ++i) o[i] = static_cast<R>(op(av, static_cast<C>(b[i])));
                return;
            }
        }
        for (int64_t i = 0; i < n; ++i)
            *reinterpret_cast<R*>(p[0] + i * s[0]) = static_cast<R>(
                op(static_cast<C>(*reinterpret_cast<const T*>(p[1] + i * s[1])),
                   static_cast<C>(*reinterpret_cast<const T*>(p[2] + i * s[2]))));
    });
}

}  // namespace cn
