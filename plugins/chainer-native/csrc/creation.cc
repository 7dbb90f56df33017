#include <cmath>

#include "creation.h"
#include "loops.h"

namespace cn {

void fill(const Array& a, const Scalar& value) {
    a.check_writeable("fill");
    dispatch(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = value.as<T>();
        Strides s = a.strides();
        for_each_run<1>(a.shape(), {a.raw()}, {&s}, [&](uint8_t** p, const int64_t* st, int64_t n) {
            if (st[0] == sizeof(T)) {
                T* o = reinterpret_cast<T*>(p[0]);
                for (int64_t i = 0; i < n; ++i) o[i] = v;
            } else {
                for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * st[0]) = v;
            }
        });
    });
}

Array zeros(const Shape& shape, Dtype dtype) {
    Array a = Array::empty(shape, dtype);
    std::memset(a.raw(), 0, static_cast<size_t>(a.nbytes()));
    return a;
}

Array ones(const Shape& shape, Dtype dtype) { return full(shape, Scalar::of_int(1), dtype); }

Array full(const Shape& shape, const Scalar& value, Dtype dtype) {
    Array a = Array::empty(shape, dtype);
    fill(a, value);
    return a;
}

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, Dtype dtype) {
    double st = step.kind == ScalarKind::Float ? step.f : static_cast<double>(step.i);
    if (st == 0) throw ShapeError("arange: step must not be zero");
    double b = start.kind == ScalarKind::Float ? start.f : static_cast<double>(start.i);
    double e = stop.kind == ScalarKind::Float ? stop.f : static_cast<double>(stop.i);
    int64_t n = static_cast<int64_t>(std::ceil((e - b) / st));
    if (n < 0) n = 0;
    Array a = Array::empty(Shape{n}, dtype);
    bool ints = start.kind != ScalarKind::Float && step.kind != ScalarKind::Float;
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = a.ptr<T>();
        for (int64_t i = 0; i < n; ++i) {
            if (ints) p[i] = static_cast<T>(start.i + i * step.i);
            else p[i] = static_cast<T>(b + static_cast<double>(i) * st);
        }
    });
    return a;
}

Array linspace(double start, double stop, int64_t num, bool endpoint, Dtype dtype) {
    if (num < 0) throw ShapeError("linspace: num must be non-negative, got " + std::to_string(num));
    Array a = Array::empty(Shape{num}, dtype);
    int64_t div = endpoint ? num - 1 : num;
    double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = a.ptr<T>();
        for (int64_t i = 0; i < num; ++i) p[i] = static_cast<T>(start + static_cast<double>(i) * step);
        if (endpoint && num > 1) p[num - 1] = static_cast<T>(stop);
    });
    return a;
}

Array eye(int64_t n, int64_t m, int64_t k, Dtype dtype) {
    if (n < 0 || m < 0) throw ShapeError("eye: negative dimensions are not allowed");
    Array a = zeros(Shape{n, m}, dtype);
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = a.ptr<T>();
        for (int64_t i = 0; i < n; ++i) {
            int64_t j = i + k;
            if (j >= 0 && j < m) p[i * m + j] = static_cast<T>(1);
        }
    });
    return a;
}

}  // namespace cn
