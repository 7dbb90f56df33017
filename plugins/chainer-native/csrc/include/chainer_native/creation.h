// Array creation, copies and dtype conversion.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "array.h"

namespace cn {

Array zeros(const Shape& shape, Dtype dtype);
Array ones(const Shape& shape, Dtype dtype);
Array full(const Shape& shape, const Scalar& value, Dtype dtype);
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, Dtype dtype);
Array linspace(double start, double stop, int64_t num, bool endpoint, Dtype dtype);
Array eye(int64_t n, int64_t m, int64_t k, Dtype dtype);

// Writes value into every element of a (in place, not recorded).
void fill(const Array& a, const Scalar& value);
// dst[...] = src with broadcasting and casting (in place, not recorded).
void assign(const Array& dst, const Array& src);

// A C-contiguous copy (differentiable).
Array copy(const Array& a);
// a converted to dtype; a itself when the dtype matches and copy is false.
// Differentiable between float types.
Array astype(const Array& a, Dtype dtype, bool copy = true);
// a if C-contiguous, else a contiguous copy (not recorded).
Array contiguous(const Array& a);
// a converted to dtype and C-contiguous, without graph (for kernels).
Array contiguous_as(const Array& a, Dtype dtype);

// A new array of T's dtype holding values in row-major order.
template <typename T>
Array array_of(const std::vector<T>& values, const Shape& shape) {
    Array a = Array::empty(shape, DtypeOf<T>::value);
    if (static_cast<int64_t>(values.size()) != a.size())
        throw ShapeError("array_of: " + std::to_string(values.size()) + " values for shape " + shape.str() + " (" +
                         std::to_string(a.size()) + " elements)");
    std::copy(values.begin(), values.end(), a.ptr<T>());
    return a;
}

// The elements of a (any layout) in row-major order, converted to T.
template <typename T>
std::vector<T> to_vector(const Array& a) {
    Array c = contiguous_as(a, DtypeOf<T>::value);
    const T* p = c.ptr<T>();
    return std::vector<T>(p, p + c.size());
}

// The element of a one-element array, converted to T.
template <typename T>
T item(const Array& a) {
    return static_cast<T>(item_as_double(a));
}

}  // namespace cn
