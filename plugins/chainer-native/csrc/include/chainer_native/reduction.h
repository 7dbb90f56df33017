// Reductions over axes (None: all axes) with keepdims.
#pragma once

#include <optional>
#include <vector>

#include "array.h"

namespace cn {

using Axes = std::optional<std::vector<int64_t>>;

Array sum(const Array& a, const Axes& axes, bool keepdims);
Array mean(const Array& a, const Axes& axes, bool keepdims);
Array amax(const Array& a, const Axes& axes, bool keepdims);
Array amin(const Array& a, const Axes& axes, bool keepdims);
Array prod(const Array& a, const Axes& axes, bool keepdims);
Array var(const Array& a, const Axes& axes, int64_t ddof, bool keepdims);
Array std_(const Array& a, const Axes& axes, int64_t ddof, bool keepdims);
Array logsumexp(const Array& a, const Axes& axes, bool keepdims);
Array all(const Array& a, const Axes& axes, bool keepdims);
Array any(const Array& a, const Axes& axes, bool keepdims);
// Index of the first extreme element (int64), over one axis or flattened.
Array argmax(const Array& a, std::optional<int64_t> axis);
Array argmin(const Array& a, std::optional<int64_t> axis);
// Sum over the broadcast axes so that the result has `shape`.
Array sum_to(const Array& a, const Shape& shape);

}  // namespace cn
