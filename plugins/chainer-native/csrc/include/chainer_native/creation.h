// Array creation, copies and dtype conversion.
#pragma once

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

}  // namespace cn
