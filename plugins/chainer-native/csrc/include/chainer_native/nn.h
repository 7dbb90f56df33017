// Neural-network routines: convolution (N-d, im2col + GEMM), pooling,
// normalization, losses, linear, dropout.
#pragma once

#include <optional>
#include <vector>

#include "array.h"

namespace cn {

using Ints = std::vector<int64_t>;

// x (N, C, *in), w (O, C / groups, *k), b (O,) or undefined.
Array conv(const Array& x, const Array& w, const Array& b, const Ints& stride, const Ints& pad,
           const Ints& dilation, int64_t groups, bool cover_all);
// x (N, C, *in), w (C, O / groups, *k); outsize as the forward input size
// (empty: the smallest).
Array conv_transpose(const Array& x, const Array& w, const Array& b, const Ints& stride, const Ints& pad,
                     const Ints& dilation, int64_t groups, const Ints& outsize);
// gW of conv for input x and output gradient gy.
Array conv_grad_weight(const Array& x, const Array& gy, const Ints& ksize, const Ints& stride, const Ints& pad,
                       const Ints& dilation, int64_t groups);

// (y, indexes): the window maxima (windows padded with -inf) and the tap that
// held each (row-major within the window, int32).
std::pair<Array, Array> max_pool_with_indexes(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad,
                                              bool cover_all);
Array max_pool(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad, bool cover_all);
// pad_mode 'ignore': divide by the taps inside x; 'zero': by the window size.
Array average_pool(const Array& x, const Ints& ksize, const Ints& stride, const Ints& pad, bool count_pad);

// RoI max pooling over given bins: (y, argmax), y (R, C, outh, outw) the
// maximum of x[batch[r]] (x (N, C, H, W), batch (R,) int64) over the rows
// h_ranges[r, i] = [lo, hi) (R, outh, 2) by the columns w_ranges[r, j]
// (R, outw, 2) (int64, inside x; hi == lo for an empty bin), empty_value for
// empty bins; argmax (int32) the flat index h * W + w of the first maximum
// (a NaN above every number), -1 for empty bins. Records no gradient.
std::pair<Array, Array> roi_max_bins(const Array& x, const Array& batch, const Array& h_ranges, const Array& w_ranges,
                                     double empty_value);

// Training-mode batch normalization over `axes` (default: all but 1);
// running statistics (if defined) are updated in place.
Array batch_norm(const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
                 const Array& running_var, double eps, double decay, const std::optional<std::vector<int64_t>>& axes);
Array fixed_batch_norm(const Array& x, const Array& gamma, const Array& beta, const Array& mean, const Array& var,
                       double eps, const std::optional<std::vector<int64_t>>& axes);

// y = x W^T + b over n_batch_axes leading axes of x.
Array linear(const Array& x, const Array& w, const Array& b, int64_t n_batch_axes);

Array log_softmax(const Array& x, int64_t axis);
Array softmax(const Array& x, int64_t axis);
// Loss of scores x (N, C, ...) for int labels t (N, ...): reduce "mean" (over
// labels other than ignore_label) or "no" (per label, 0 where ignored).
Array softmax_cross_entropy(const Array& x, const Array& t, int64_t ignore_label, const std::string& reduce);
// (y, mask): y = x * mask; the mask scales kept elements by 1 / (1 - ratio).
std::pair<Array, Array> dropout(const Array& x, double ratio, const Array& mask);
Array mean_squared_error(const Array& a, const Array& b);

}  // namespace cn
