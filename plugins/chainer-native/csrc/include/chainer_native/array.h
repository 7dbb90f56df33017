// The n-dimensional array: a view (shape, strides, offset, dtype) of a shared
// buffer, plus the autograd node of the array when it requires grad.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dtype.h"
#include "shape.h"

namespace cn {

struct VarNode;

struct ArrayBody {
    std::shared_ptr<uint8_t> data;  // start of the buffer; keeps it alive
    int64_t offset = 0;             // bytes from data to the first element
    Shape shape;
    Strides strides;                // bytes
    Dtype dtype = Dtype::Float32;
    bool writeable = true;
    std::shared_ptr<VarNode> node;  // set when the array requires grad
};

class Array {
public:
    Array() = default;
    explicit Array(std::shared_ptr<ArrayBody> b) : b_(std::move(b)) {}

    // A new C-contiguous array (uninitialised memory).
    static Array empty(const Shape& shape, Dtype dtype);
    // A view of an existing buffer.
    static Array view_of(std::shared_ptr<uint8_t> data, int64_t offset, const Shape& shape,
                         const Strides& strides, Dtype dtype, bool writeable);

    bool defined() const { return static_cast<bool>(b_); }
    const std::shared_ptr<ArrayBody>& body() const { return b_; }
    const Shape& shape() const { return b_->shape; }
    const Strides& strides() const { return b_->strides; }
    Dtype dtype() const { return b_->dtype; }
    int ndim() const { return b_->shape.size(); }
    int64_t size() const { return total_size(b_->shape); }
    int64_t itemsize() const { return cn::itemsize(b_->dtype); }
    int64_t nbytes() const { return size() * itemsize(); }
    int64_t offset() const { return b_->offset; }
    bool writeable() const { return b_->writeable; }
    const std::shared_ptr<uint8_t>& data() const { return b_->data; }
    uint8_t* raw() const { return b_->data.get() + b_->offset; }
    template <typename T> T* ptr() const { return reinterpret_cast<T*>(raw()); }
    bool is_contiguous() const { return is_c_contiguous(b_->shape, b_->strides, itemsize()); }

    // A view with another shape/strides/offset of the same buffer (no graph).
    Array view(const Shape& shape, const Strides& strides, int64_t offset_delta) const;
    // The same view without the autograd node.
    Array as_data() const { return view(shape(), strides(), 0); }

    // Autograd.
    bool requires_grad() const { return static_cast<bool>(b_->node); }
    void require_grad();
    Array grad() const;
    void set_grad(const Array& g);
    void clear_grad();
    // Backpropagates from this array (one element, unless its grad is set)
    // into the grad of every leaf that requires grad; Chainer's defaults.
    void backward(bool retain_grad = false, bool enable_double_backprop = false, bool retain_graph = false) const;

    void check_writeable(const char* op) const {
        if (!b_->writeable) throw ShapeError(std::string(op) + ": the array is read-only (a broadcast view or a read-only buffer)");
    }

private:
    std::shared_ptr<ArrayBody> b_;
};

// Byte strides of `a` seen as an array of `shape` (broadcast axes get 0).
Strides broadcast_strides(const Array& a, const Shape& shape, const char* op);

// A 0-dim array holding a Python-like scalar converted to dtype.
Array scalar_array(double v, Dtype dtype);
Array scalar_array_int(int64_t v, Dtype dtype);

// Element [0] converted to double (for 0-dim and 1-element arrays).
double item_as_double(const Array& a);

std::string shape_str(const Array& a);

}  // namespace cn
