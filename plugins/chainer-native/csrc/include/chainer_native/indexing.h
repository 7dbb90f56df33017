// Indexing: basic (views) and advanced (integer and boolean arrays) reads,
// assignment, take.
#pragma once

#include <optional>
#include <vector>

#include "array.h"

namespace cn {

struct Index {
    enum Kind { Int, Slice, NewAxis, Ellipsis, Array_ } kind = Int;
    int64_t i = 0;
    std::optional<int64_t> start, stop, step;
    Array arr;
};

Array getitem(const Array& a, const std::vector<Index>& index);
// a[index] = v (in place, not recorded).
void setitem(const Array& a, const std::vector<Index>& index, const Array& v);
// Elements of a at indices along axis (None: over the flattened array).
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis);
// zeros(shape) with g added at [index] (repeated positions add up).
Array getitem_grad(const Array& g, const std::vector<Index>& index, const Shape& shape);

}  // namespace cn
