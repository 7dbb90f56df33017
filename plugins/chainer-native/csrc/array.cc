#include "array.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "graph.h"
#include "loops.h"

namespace cn {

namespace {

// Buffers of 64 KiB and more are kept for reuse when freed (up to 256 MiB
// in all): a training loop allocates the same sizes every step, and fresh
// large blocks would cost page faults each time.
class BufferCache {
public:
    static constexpr size_t kMin = 64 << 10;
    static constexpr size_t kLimit = size_t(256) << 20;

    void* get(size_t n) {
        if (n >= kMin) {
            std::lock_guard<std::mutex> g(m_);
            auto it = free_.find(n);
            if (it != free_.end() && !it->second.empty()) {
                void* p = it->second.back();
                it->second.pop_back();
                cached_ -= n;
                return p;
            }
        }
        return std::aligned_alloc(64, n);
    }

    void put(void* p, size_t n) {
        if (n >= kMin) {
            std::lock_guard<std::mutex> g(m_);
            if (cached_ + n <= kLimit) {
                free_[n].push_back(p);
                cached_ += n;
                return;
            }
        }
        std::free(p);
    }

private:
    std::mutex m_;
    std::unordered_map<size_t, std::vector<void*>> free_;
    size_t cached_ = 0;
};

// Never destroyed: buffers may be freed during interpreter shutdown.
BufferCache& cache() {
    static BufferCache* c = new BufferCache();
    return *c;
}

struct CachedFree {
    size_t n;
    void operator()(uint8_t* p) const { cache().put(p, n); }
};

}  // namespace

Array Array::empty(const Shape& shape, Dtype dtype) {
    for (auto d : shape)
        if (d < 0) throw ShapeError("negative dimensions are not allowed: " + shape.str());
    int64_t n = total_size(shape);
    int64_t nb;
    if (__builtin_mul_overflow(n, static_cast<int64_t>(cn::itemsize(dtype)), &nb) || nb > (int64_t(1) << 56))
        throw ShapeError("array is too big: shape " + shape.str());
    size_t nbytes = static_cast<size_t>(nb);
    size_t alloc = (nbytes + 63) / 64 * 64;
    if (alloc == 0) alloc = 64;
    void* p = cache().get(alloc);
    if (!p) throw std::bad_alloc();
    auto body = std::make_shared<ArrayBody>();
    body->data = std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), CachedFree{alloc});
    body->shape = shape;
    body->strides = contiguous_strides(shape, cn::itemsize(dtype));
    body->dtype = dtype;
    return Array(std::move(body));
}

Array Array::view_of(std::shared_ptr<uint8_t> data, int64_t offset, const Shape& shape,
                     const Strides& strides, Dtype dtype, bool writeable) {
    auto body = std::make_shared<ArrayBody>();
    body->data = std::move(data);
    body->offset = offset;
    body->shape = shape;
    body->strides = strides;
    body->dtype = dtype;
    body->writeable = writeable;
    return Array(std::move(body));
}

Array Array::view(const Shape& shape, const Strides& strides, int64_t offset_delta) const {
    return view_of(b_->data, b_->offset + offset_delta, shape, strides, b_->dtype, b_->writeable);
}

void Array::require_grad() {
    if (!is_float(dtype()))
        throw DtypeError(std::string("require_grad: only floating-point arrays can require grad, got ") + dtype_name(dtype()));
    if (!b_->node) {
        auto n = std::make_shared<VarNode>();
        n->shape = shape();
        n->dtype = dtype();
        b_->node = std::move(n);
    }
}

Array Array::grad() const {
    if (!b_->node) return Array();
    return b_->node->grad;
}

void Array::set_grad(const Array& g) {
    if (!g.defined()) {
        clear_grad();
        return;
    }
    if (!b_->node) throw GradError("grad: the array does not require grad; call require_grad() first");
    if (g.shape() != shape())
        throw ShapeError("grad: shape " + g.shape().str() + " does not match the array's shape " + shape().str());
    if (g.dtype() != dtype())
        throw DtypeError(std::string("grad: dtype ") + dtype_name(g.dtype()) + " does not match the array's dtype " + dtype_name(dtype()));
    b_->node->grad = g;
}

void Array::clear_grad() {
    if (b_->node) b_->node->grad = Array();
}

Strides broadcast_strides(const Array& a, const Shape& shape, const char* op) {
    int n = shape.size(), an = a.ndim();
    if (an > n) throw ShapeError(std::string(op) + ": cannot broadcast shape " + a.shape().str() + " to " + shape.str());
    Strides s(n);
    for (int i = 0; i < n; ++i) {
        int ia = i - (n - an);
        if (ia < 0) { s[i] = 0; continue; }
        int64_t d = a.shape()[ia];
        if (d == shape[i]) s[i] = d == 1 ? 0 : a.strides()[ia];
        else if (d == 1) s[i] = 0;
        else throw ShapeError(std::string(op) + ": cannot broadcast shape " + a.shape().str() + " to " + shape.str());
    }
    return s;
}

Array scalar_array(double v, Dtype dtype) {
    Array a = Array::empty(Shape{}, dtype);
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *a.ptr<T>() = static_cast<T>(v);
    });
    return a;
}

Array scalar_array_int(int64_t v, Dtype dtype) {
    Array a = Array::empty(Shape{}, dtype);
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *a.ptr<T>() = static_cast<T>(v);
    });
    return a;
}

double item_as_double(const Array& a) {
    if (a.size() != 1) throw ShapeError("only arrays of one element can be converted to Python scalars, got shape " + a.shape().str());
    return dispatch(a.dtype(), [&](auto tag) -> double {
        using T = typename decltype(tag)::type;
        return static_cast<double>(static_cast<Compute<T>>(*a.ptr<T>()));
    });
}

std::string shape_str(const Array& a) { return a.shape().str(); }

}  // namespace cn
