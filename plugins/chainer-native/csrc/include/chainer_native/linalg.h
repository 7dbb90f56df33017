// Matrix products on BLAS.
#pragma once

#include "array.h"

namespace cn {

// NumPy's matmul: batch axes broadcast, 1-D operands promoted and squeezed.
Array matmul(const Array& a, const Array& b);
// NumPy's dot for up to 2-D operands, matmul-like otherwise (sum over the
// last axis of a and the second-to-last of b).
Array dot(const Array& a, const Array& b);

}  // namespace cn
