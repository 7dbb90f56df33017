// 2-D convolution forward as one blocked GEMM per call, y[o, q] = sum_k
// w[o, k] col[k, q], whose column operand is packed block by block straight
// from the images: no im2col buffer, images of a batch side by side along q
// (so that small feature maps still make wide GEMMs), the bias added as the
// last block of k is stored. Vector kernels where the CPU has them (AVX-512);
// callers fall back to im2col + BLAS where conv_gemm_supported() is false.
#pragma once

#include <cstdint>

namespace cn {

// One group of a 2-D convolution; a 1-D one is the same with in_h = k_h =
// out_h = 1.
struct Conv2dShape {
    int64_t channels = 0;      // input channels of the group
    int64_t in_h = 0, in_w = 0;
    int64_t out_channels = 0;  // output channels of the group
    int64_t k_h = 1, k_w = 1;
    int64_t s_h = 1, s_w = 1;  // stride
    int64_t p_h = 0, p_w = 0;  // padding (zeros) before the first element
    int64_t d_h = 1, d_w = 1;  // dilation
    int64_t out_h = 0, out_w = 0;
};

// Whether conv_gemm_forward runs on this machine (checked once, at the CPU's
// features).
bool conv_gemm_supported();

// For n < batch: y_n (out_channels, out_h, out_w) = conv(x_n (channels,
// in_h, in_w), w) + bias, where x_n starts at x + n * x_stride and y_n at
// y + n * y_stride (elements; the images of a group inside a wider batch),
// w is (out_channels, channels * k_h * k_w) row-major and bias is
// (out_channels) or null. Every element of y_n is written (no zero-fill
// needed). Spread over the kernels' pool. T is float or double.
template <typename T>
void conv_gemm_forward(const Conv2dShape& s, int64_t batch, const T* x, int64_t x_stride, const T* w, const T* bias,
                       T* y, int64_t y_stride);

}  // namespace cn
