// Helpers shared by the elementwise translation units.
#pragma once

#include "array.h"
#include "creation.h"
#include "reduction.h"

namespace cn {

// g summed down to `shape` and converted to `dtype` (the input's), for
// gradients of broadcasting ops.
inline Array grad_to(const Array& g, const Shape& shape, Dtype dtype) {
    Array r = g.shape() == shape ? g : sum_to(g, shape);
    return r.dtype() == dtype ? r : astype(r, dtype, false);
}

// In-place writes into arrays whose graph may need their old values are refused.
void check_inplace_target(const Array& a, const char* op);

}  // namespace cn
