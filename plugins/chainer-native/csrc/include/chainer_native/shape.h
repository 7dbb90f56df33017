// Shapes and strides: small inline vectors, broadcasting, axis handling.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "errors.h"

namespace cn {

constexpr int kMaxNdim = 16;

// A vector of at most kMaxNdim int64 values, stored inline.
class Dims {
public:
    Dims() : n_(0) {}
    explicit Dims(int n, int64_t v = 0) : n_(0) { check(n); n_ = n; std::fill(d_, d_ + n, v); }
    Dims(std::initializer_list<int64_t> l) : n_(0) { check(static_cast<int>(l.size())); for (auto v : l) d_[n_++] = v; }
    template <typename It, typename = std::enable_if_t<!std::is_integral<It>::value>>
    Dims(It b, It e) : n_(0) { for (; b != e; ++b) push_back(*b); }
    explicit Dims(const std::vector<int64_t>& v) : Dims(v.begin(), v.end()) {}

    int size() const { return n_; }
    bool empty() const { return n_ == 0; }
    int64_t& operator[](int i) { return d_[i]; }
    int64_t operator[](int i) const { return d_[i]; }
    int64_t* begin() { return d_; }
    int64_t* end() { return d_ + n_; }
    const int64_t* begin() const { return d_; }
    const int64_t* end() const { return d_ + n_; }
    int64_t back() const { return d_[n_ - 1]; }
    void push_back(int64_t v) { check(n_ + 1); d_[n_++] = v; }
    void insert(int pos, int64_t v) {
        check(n_ + 1);
        for (int i = n_; i > pos; --i) d_[i] = d_[i - 1];
        d_[pos] = v;
        ++n_;
    }
    void erase(int pos) { for (int i = pos; i + 1 < n_; ++i) d_[i] = d_[i + 1]; --n_; }
    void resize(int n, int64_t v = 0) { check(n); for (int i = n_; i < n; ++i) d_[i] = v; n_ = n; }
    bool operator==(const Dims& o) const { return n_ == o.n_ && std::equal(d_, d_ + n_, o.d_); }
    bool operator!=(const Dims& o) const { return !(*this == o); }
    std::vector<int64_t> to_vector() const { return std::vector<int64_t>(d_, d_ + n_); }
    std::string str() const {
        std::string s = "(";
        for (int i = 0; i < n_; ++i) {
            if (i) s += ", ";
            s += std::to_string(d_[i]);
        }
        if (n_ == 1) s += ",";
        return s + ")";
    }

private:
    static void check(int n) {
        if (n > kMaxNdim) throw ShapeError("arrays have at most " + std::to_string(kMaxNdim) + " dimensions");
    }
    int64_t d_[kMaxNdim];
    int n_;
};

using Shape = Dims;
using Strides = Dims;  // in bytes

// The element count; a shape whose count does not fit int64 is refused here,
// so that no view, loop or allocation ever works with a wrapped size. As in
// NumPy, the other dimensions must fit even when one of them is 0.
inline int64_t total_size(const Shape& s) {
    int64_t n = 1;
    bool empty = false;
    for (auto v : s) {
        if (v == 0) empty = true;
        else if (__builtin_mul_overflow(n, v, &n)) throw ShapeError("array is too big: shape " + s.str());
    }
    return empty ? 0 : n;
}

// a * b, refused when it does not fit int64 (what: the quantity, for the message).
inline int64_t checked_mul(int64_t a, int64_t b, const std::string& what) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw ShapeError(what + " is too big (" + std::to_string(a) + " * " + std::to_string(b) + ")");
    return r;
}

inline int64_t checked_add(int64_t a, int64_t b, const std::string& what) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw ShapeError(what + " is too big (" + std::to_string(a) + " + " + std::to_string(b) + ")");
    return r;
}

inline Strides contiguous_strides(const Shape& s, int64_t itemsize) {
    Strides st(s.size());
    int64_t acc = itemsize;
    for (int i = s.size() - 1; i >= 0; --i) {
        st[i] = acc;
        acc *= std::max<int64_t>(s[i], 1);
    }
    return st;
}

inline bool is_c_contiguous(const Shape& s, const Strides& st, int64_t itemsize) {
    int64_t acc = itemsize;
    for (int i = s.size() - 1; i >= 0; --i) {
        if (s[i] == 0) return true;
        if (s[i] != 1 && st[i] != acc) return false;
        acc *= s[i];
    }
    return true;
}

inline Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
    int n = std::max(a.size(), b.size());
    Shape out(n);
    for (int i = 0; i < n; ++i) {
        int ia = i - (n - a.size()), ib = i - (n - b.size());
        int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da == db || db == 1) out[i] = da;
        else if (da == 1) out[i] = db;
        else throw ShapeError(std::string(op) + ": shapes " + a.str() + " and " + b.str() + " cannot be broadcast together");
    }
    return out;
}

inline int normalize_axis(int64_t axis, int ndim, const char* op) {
    if (axis < -ndim || axis >= ndim)
        throw ShapeError(std::string(op) + ": axis " + std::to_string(axis) + " is out of bounds for an array of dimension " + std::to_string(ndim));
    return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

// Sorted, distinct, non-negative axes; an empty optional means all axes.
inline std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim, const char* op) {
    std::vector<int> out;
    for (auto a : axes) {
        int v = normalize_axis(a, ndim, op);
        if (std::find(out.begin(), out.end(), v) != out.end())
            throw ShapeError(std::string(op) + ": repeated axis " + std::to_string(a));
        out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace cn
