// oneDNN primitives behind the chainer-mkldnn kernels.
//
// Every function takes plain (C-contiguous) buffers whose shapes are given
// by Tensor, including its outputs, which the caller allocates. Primitives
// are created once per shape and parameter set and kept in an LRU cache.
// Failures throw Unsupported (no oneDNN implementation for the case, found
// while creating the primitive) or OpError (anything later); both messages
// start with the op name the caller passes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmk {

using Dims = std::vector<int64_t>;

struct Tensor {
    void *ptr;
    Dims dims;
};

struct OpError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Pool { max = 0, avg_include = 1, avg_exclude = 2 };

// Eltwise algorithms; the *_dst variants compute the gradient from the
// forward output.
enum class Elt {
    relu = 0, relu_dst = 1, elu = 2, tanh = 3, tanh_dst = 4, logistic = 5,
    logistic_dst = 6,
};

// Convolution parameters: padding_r may be below padding_l (down to
// 1 - stride) so that the output size is what the caller asks for;
// dilate is oneDNN's (0 for none).
struct ConvParams {
    Dims stride, dilate, pad_l, pad_r;
    int64_t groups;
};

void conv_forward(const char *op, const Tensor &x, const Tensor &w,
                  const Tensor *b, const Tensor &y, const ConvParams &p);
// gx (N, C, *in) from gy (N, O, *out) and w (O, C / groups, *k).
void conv_backward_data(const char *op, const Tensor &gy, const Tensor &w,
                        const Tensor &gx, const ConvParams &p);
// gw (O, C / groups, *k) from x and gy.
void conv_backward_weights(const char *op, const Tensor &x, const Tensor &gy,
                           const Tensor &gw, const ConvParams &p);

// indexes (int32, of y's shape) receive the window tap of each maximum.
void pool_forward(const char *op, Pool alg, const Tensor &x, const Tensor &y,
                  const Tensor *indexes, const Dims &kernel,
                  const Dims &stride, const Dims &pad_l, const Dims &pad_r);
void pool_backward(const char *op, Pool alg, const Tensor &gy,
                   const Tensor *indexes, const Tensor &gx,
                   const Dims &kernel, const Dims &stride, const Dims &pad_l,
                   const Dims &pad_r);

void eltwise_forward(const char *op, Elt alg, const Tensor &x,
                     const Tensor &y, float alpha, float beta);
// data is the forward input, or its output for the *_dst algorithms.
void eltwise_backward(const char *op, Elt alg, const Tensor &data,
                      const Tensor &gy, const Tensor &gx, float alpha,
                      float beta);

void softmax_forward(const char *op, const Tensor &x, const Tensor &y,
                     int axis, bool log);

void concat(const char *op, const std::vector<Tensor> &xs, const Tensor &y,
            int axis);

// y = a + b; b has a's rank and each of its axes is 1 or a's length.
void binary_add(const char *op, const Tensor &a, const Tensor &b,
                const Tensor &y);

// y (N, out) = x (N, in) @ w (out, in)^T + b (out).
void linear(const char *op, const Tensor &x, const Tensor &w, const Tensor *b,
            const Tensor &y);

// y = a @ b over the last two axes, each operand read transposed when its
// flag is set; batch axes (same count in a, b and y) broadcast where 1.
void matmul(const char *op, const Tensor &a, const Tensor &b, const Tensor &y,
            bool transa, bool transb);

// x (N, C, ...) normalised per channel; gamma, beta, mean, var are (C,).
void bn_forward_training(const char *op, const Tensor &x,
                         const Tensor &gamma, const Tensor &beta,
                         const Tensor &y, const Tensor &mean,
                         const Tensor &var, float eps);
void bn_forward_inference(const char *op, const Tensor &x,
                          const Tensor &gamma, const Tensor &beta,
                          const Tensor &mean, const Tensor &var,
                          const Tensor &y, float eps);
void bn_backward(const char *op, const Tensor &x, const Tensor &gy,
                 const Tensor &gamma, const Tensor &mean, const Tensor &var,
                 const Tensor &gx, const Tensor &ggamma, const Tensor &gbeta,
                 float eps);

// Across channels: y = x * (k + alpha * window_sum(x^2)) ** -beta over
// windows of n (odd) channels centred on each; unit_scale (optional)
// receives k + alpha * window_sum(x^2).
void lrn_forward(const char *op, const Tensor &x, const Tensor &y,
                 const Tensor *unit_scale, int64_t n, float alpha,
                 float beta, float k);
// gx from x and gy (all of x's shape), the scale recomputed from x; throws
// Unsupported where oneDNN has no JIT implementation (see ops.cpp).
void lrn_backward(const char *op, const Tensor &x, const Tensor &gy,
                  const Tensor &gx, int64_t n, float alpha, float beta,
                  float k);

// The layout a convolution prefers for its weights, and a round trip of
// w through it (into out): reorders to a blocked layout and back.
std::string conv_weights_roundtrip(const char *op, const Tensor &x,
                                   const Tensor &w, const Tensor &y,
                                   const ConvParams &p, const Tensor &out);

struct CacheInfo {
    uint64_t hits, misses, size, capacity;
};
CacheInfo cache_info();
// Also frees the calling thread's reused buffers (see ops.cpp).
void cache_clear();
void cache_set_capacity(uint64_t capacity);

std::string version();

// CHAINER_MKLDNN_PARALLEL_MIN_WORK: calls touching fewer elements (or
// element-equivalents of compute) run on the calling thread.
int64_t parallel_min_work();

}  // namespace cmk
