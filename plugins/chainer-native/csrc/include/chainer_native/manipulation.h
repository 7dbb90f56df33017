// Shape manipulation: views where possible, copies otherwise.
#pragma once

#include <optional>
#include <vector>

#include "array.h"

namespace cn {

Array reshape(const Array& a, const std::vector<int64_t>& shape);
Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes);
Array swapaxes(const Array& a, int64_t a1, int64_t a2);
Array moveaxis(const Array& a, const std::vector<int64_t>& src, const std::vector<int64_t>& dst);
Array squeeze(const Array& a, const std::optional<std::vector<int64_t>>& axes);
Array expand_dims(const Array& a, int64_t axis);
Array broadcast_to(const Array& a, const Shape& shape);
Array ravel(const Array& a);
Array concatenate(const std::vector<Array>& xs, int64_t axis);
Array stack(const std::vector<Array>& xs, int64_t axis);
// Pieces at the given split points along axis (views).
std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& points, int64_t axis);
std::vector<Array> split_sections(const Array& a, int64_t sections, int64_t axis);

}  // namespace cn
