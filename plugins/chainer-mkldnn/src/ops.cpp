#include "ops.hpp"

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <list>
#include <memory>
#include <new>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace cmk {

// Work below this many element-equivalents runs on the calling thread:
// waking OpenMP's other threads costs microseconds on an idle machine and
// up to a millisecond when the cores are shared, more than a small
// elementwise op or convolution takes alone.
int64_t parallel_min_work() {
    static const int64_t value = [] {
        const char *env = std::getenv("CHAINER_MKLDNN_PARALLEL_MIN_WORK");
        return env != nullptr && *env != '\0' ? std::strtoll(env, nullptr, 10)
                                               : int64_t(1) << 17;
    }();
    return value;
}

namespace {

using namespace dnnl;
using md = memory::desc;
using dt = memory::data_type;
using tag = memory::format_tag;
using Args = std::unordered_map<int, memory>;

// Created on first use and never destroyed: primitives still cached at
// interpreter exit must not outlive the library's own globals.
engine &eng() {
    static engine *e = new engine(engine::kind::cpu, 0);
    return *e;
}

stream &strm() {
    // Streams are not meant to be shared between threads.
    thread_local stream s(eng());
    return s;
}

memory::dims strides_of(const Dims &d) {
    memory::dims s(d.size());
    int64_t acc = 1;
    for (size_t i = d.size(); i-- > 0;) {
        s[i] = acc;
        acc *= d[i];
    }
    return s;
}

md plain(const Dims &d, dt t = dt::f32) {
    return md(memory::dims(d.begin(), d.end()), t, strides_of(d));
}

md any(const Dims &d) { return md(memory::dims(d.begin(), d.end()), dt::f32, tag::any); }

int64_t numel(const Dims &d) {
    int64_t n = 1;
    for (auto v : d) n *= v;
    return n;
}

primitive_attr user_scratchpad() {
    primitive_attr a;
    a.set_scratchpad_mode(scratchpad_mode::user);
    return a;
}

// -- errors

template <class F>
auto create(const char *op, F &&f) -> decltype(f()) {
    try {
        return f();
    } catch (const dnnl::error &e) {
        throw Unsupported(std::string(op) +
                          ": oneDNN has no implementation for this case (" +
                          e.what() + ")");
    }
}

// Guards a whole call, primitive creation included: some implementations
// fix their thread partitioning when they are created. ``work``: elements
// touched, or multiply-adds / 32 for the compute-bound convolutions and
// matrix products.
class SerialIfSmall {
   public:
    explicit SerialIfSmall(int64_t work) : serial_(work < parallel_min_work()) {
        if (serial_) {
            previous_ = omp_get_max_threads();
            omp_set_num_threads(1);
        }
    }
    ~SerialIfSmall() {
        if (serial_) omp_set_num_threads(previous_);
    }
    SerialIfSmall(const SerialIfSmall &) = delete;
    SerialIfSmall &operator=(const SerialIfSmall &) = delete;

   private:
    bool serial_;
    int previous_ = 1;
};

template <class F>
void run(const char *op, F &&f) {
    try {
        f();
    } catch (const dnnl::error &e) {
        throw OpError(std::string(op) + ": oneDNN failed: " + e.what());
    }
}

// Multiply-adds of a convolution with output (N, O, *out) and filters
// (O, C / groups, *k), scaled for run().
int64_t conv_work(const Dims &out, const Dims &w) {
    return numel(out) * (numel(w) / w[0]) / 32;
}

// -- the primitive cache

class Cache {
   public:
    Cache() {
        const char *env = std::getenv("CHAINER_MKLDNN_CACHE_CAPACITY");
        if (env != nullptr && *env != '\0') capacity_ = std::strtoull(env, nullptr, 10);
    }

    template <class T, class Make>
    std::shared_ptr<T> get(const std::string &key, Make &&make) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            auto it = map_.find(key);
            if (it != map_.end()) {
                lru_.splice(lru_.begin(), lru_, it->second);
                ++hits_;
                return std::static_pointer_cast<T>(it->second->second);
            }
            ++misses_;
        }
        // Created outside the lock: creation may take milliseconds.
        auto value = std::make_shared<T>(make());
        std::lock_guard<std::mutex> lock(mu_);
        if (capacity_ == 0) return value;
        auto it = map_.find(key);
        if (it != map_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second);
            return std::static_pointer_cast<T>(it->second->second);
        }
        lru_.emplace_front(key, value);
        map_[key] = lru_.begin();
        evict();
        return value;
    }

    CacheInfo info() {
        std::lock_guard<std::mutex> lock(mu_);
        return {hits_, misses_, static_cast<uint64_t>(map_.size()), capacity_};
    }

    void clear() {
        std::lock_guard<std::mutex> lock(mu_);
        lru_.clear();
        map_.clear();
        hits_ = misses_ = 0;
    }

    void set_capacity(uint64_t capacity) {
        std::lock_guard<std::mutex> lock(mu_);
        capacity_ = capacity;
        evict();
    }

   private:
    void evict() {
        while (map_.size() > capacity_) {
            map_.erase(lru_.back().first);
            lru_.pop_back();
        }
    }

    std::mutex mu_;
    uint64_t capacity_ = 1024;
    std::list<std::pair<std::string, std::shared_ptr<void>>> lru_;
    std::unordered_map<std::string, decltype(lru_)::iterator> map_;
    uint64_t hits_ = 0, misses_ = 0;
};

Cache &cache() {
    static Cache *c = new Cache();
    return *c;
}

struct Key {
    std::string s;
    explicit Key(const char *kind) : s(kind) {}
    Key &i(int64_t v) {
        s += ',';
        s += std::to_string(v);
        return *this;
    }
    Key &f(float v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, ",%a", static_cast<double>(v));
        s += buf;
        return *this;
    }
    Key &d(const Dims &v) {
        s += '[';
        for (auto x : v) {
            s += std::to_string(x);
            s += ',';
        }
        s += ']';
        return *this;
    }
    Key &conv(const ConvParams &p) {
        return d(p.stride).d(p.dilate).d(p.pad_l).d(p.pad_r).i(p.groups);
    }
};

// -- memory reused from call to call
//
// Buffers that never leave a call (oneDNN's scratchpads, the blocked copies
// of a convolution's operands and results, the pooling and LRN workspaces)
// belong to the calling thread and are kept from call to call. Allocated
// afresh, buffers of megabytes are mapped anew by malloc, and touching their
// pages the first time costs more than the reorders that fill them. Each
// kind of use has its own slot, so that the buffers of one call never
// overlap; a slot grows to the largest call seen and stays (cache_clear()
// frees the calling thread's). Arrays handed back to Python never come from
// here.
enum class Slot { operands = 0, scratchpad = 1, workspace = 2, count = 3 };

size_t aligned64(size_t n) { return (n + 63) / 64 * 64; }

struct ThreadBuffers {
    static constexpr int n = static_cast<int>(Slot::count);
    char *data[n] = {};
    size_t size[n] = {};
    ~ThreadBuffers() { release(); }
    void release() {
        for (int i = 0; i < n; ++i) {
            std::free(data[i]);
            data[i] = nullptr;
            size[i] = 0;
        }
    }
};

ThreadBuffers &thread_buffers() {
    thread_local ThreadBuffers b;
    return b;
}

// At least ``bytes`` of this thread's slot, 64-byte aligned, holding
// whatever the last call left there.
char *thread_buffer(Slot slot, size_t bytes) {
    ThreadBuffers &b = thread_buffers();
    const int i = static_cast<int>(slot);
    if (b.size[i] < bytes) {
        std::free(b.data[i]);
        b.size[i] = 0;
        b.data[i] = static_cast<char *>(std::aligned_alloc(64, aligned64(bytes)));
        if (b.data[i] == nullptr) throw std::bad_alloc();
        b.size[i] = aligned64(bytes);
    }
    return b.data[i];
}

// Consecutive pieces of one slot, for the memory objects of one call.
class Pieces {
   public:
    Pieces(Slot slot, size_t bytes) : next_(thread_buffer(slot, bytes)) {}
    memory take(const md &d) {
        memory m(d, eng(), next_);
        next_ += aligned64(d.get_size());
        return m;
    }

   private:
    char *next_;
};

// One argument of a primitive: the caller's plain layout and the one the
// primitive chose, with the reorder between them when they differ. The
// primitive's copy is a piece of the calling thread's operands slot.
struct Port {
    md user, prim;
    std::shared_ptr<reorder> to_prim, to_user;

    Port() = default;
    Port(const md &u, const md &p, bool input) : user(u), prim(p) {
        if (u != p) {
            if (input)
                to_prim = std::make_shared<reorder>(
                    reorder::primitive_desc(eng(), u, eng(), p));
            else
                to_user = std::make_shared<reorder>(
                    reorder::primitive_desc(eng(), p, eng(), u));
        }
    }

    // What the port takes of the operands slot.
    size_t bytes() const {
        return to_prim || to_user ? aligned64(prim.get_size()) : 0;
    }

    memory in(const void *ptr, Pieces &pieces) const {
        memory um(user, eng(), const_cast<void *>(ptr));
        if (!to_prim) return um;
        memory pm = pieces.take(prim);
        to_prim->execute(strm(), um, pm);
        return pm;
    }

    memory out(void *ptr, Pieces &pieces) const {
        if (!to_user) return memory(user, eng(), ptr);
        return pieces.take(prim);
    }

    void finish(memory &pm, void *ptr) const {
        if (!to_user) return;
        memory um(user, eng(), ptr);
        to_user->execute(strm(), pm, um);
    }
};

// A scratchpad is used only while its primitive runs (CPU streams here run
// each primitive to completion in turn): one slot serves all of a call's.
void add_scratchpad(Args &args, const md &scratch) {
    size_t n = scratch.get_size();
    if (n > 0)
        args[DNNL_ARG_SCRATCHPAD] =
            memory(scratch, eng(), thread_buffer(Slot::scratchpad, n));
}

// -- convolution

Dims grouped(const Dims &w, int64_t groups) {
    if (groups == 1) return w;
    Dims d{groups, w[0] / groups};
    d.insert(d.end(), w.begin() + 1, w.end());
    return d;
}

memory::dims mdims(const Dims &d) { return memory::dims(d.begin(), d.end()); }

convolution_forward::primitive_desc conv_fwd_pd(const Dims &xd,
                                                const Dims &wd,
                                                const Dims &yd, bool bias,
                                                const ConvParams &p,
                                                const primitive_attr &attr) {
    Dims gw = grouped(wd, p.groups);
    if (bias)
        return convolution_forward::primitive_desc(
            eng(), prop_kind::forward_training, algorithm::convolution_direct,
            any(xd), any(gw), plain({wd[0]}), any(yd), mdims(p.stride),
            mdims(p.dilate), mdims(p.pad_l), mdims(p.pad_r), attr);
    return convolution_forward::primitive_desc(
        eng(), prop_kind::forward_training, algorithm::convolution_direct,
        any(xd), any(gw), any(yd), mdims(p.stride), mdims(p.dilate),
        mdims(p.pad_l), mdims(p.pad_r), attr);
}

struct ConvFwd {
    primitive prim;
    Port src, wei, dst;
    md bias, scratch;
    size_t bytes() const { return src.bytes() + wei.bytes() + dst.bytes(); }
};

struct ConvBwdData {
    primitive prim;
    Port diff_dst, wei, diff_src;
    md scratch;
    size_t bytes() const {
        return diff_dst.bytes() + wei.bytes() + diff_src.bytes();
    }
};

struct ConvBwdWeights {
    primitive prim;
    Port src, diff_dst, diff_wei;
    md scratch;
    size_t bytes() const {
        return src.bytes() + diff_dst.bytes() + diff_wei.bytes();
    }
};

}  // namespace

void conv_forward(const char *op, const Tensor &x, const Tensor &w,
                  const Tensor *b, const Tensor &y, const ConvParams &p) {
    SerialIfSmall threads(conv_work(y.dims, w.dims));
    std::string key =
        Key("conv_fwd").d(x.dims).d(w.dims).d(y.dims).i(b != nullptr).conv(p).s;
    auto e = cache().get<ConvFwd>(key, [&] {
        return create(op, [&] {
            auto pd = conv_fwd_pd(x.dims, w.dims, y.dims, b != nullptr, p,
                                  user_scratchpad());
            ConvFwd c;
            c.prim = convolution_forward(pd);
            c.src = Port(plain(x.dims), pd.src_desc(), true);
            c.wei = Port(plain(grouped(w.dims, p.groups)), pd.weights_desc(), true);
            c.dst = Port(plain(y.dims), pd.dst_desc(), false);
            if (b != nullptr) c.bias = plain(b->dims);
            c.scratch = pd.scratchpad_desc();
            return c;
        });
    });
    run(op, [&] {
        Pieces pieces(Slot::operands, e->bytes());
        Args args;
        args[DNNL_ARG_SRC] = e->src.in(x.ptr, pieces);
        args[DNNL_ARG_WEIGHTS] = e->wei.in(w.ptr, pieces);
        if (b != nullptr) args[DNNL_ARG_BIAS] = memory(e->bias, eng(), b->ptr);
        memory dm = e->dst.out(y.ptr, pieces);
        args[DNNL_ARG_DST] = dm;
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        e->dst.finish(dm, y.ptr);
        strm().wait();
    });
}

void conv_backward_data(const char *op, const Tensor &gy, const Tensor &w,
                        const Tensor &gx, const ConvParams &p) {
    SerialIfSmall threads(conv_work(gy.dims, w.dims));
    std::string key = Key("conv_bwd_data").d(gy.dims).d(w.dims).d(gx.dims).conv(p).s;
    auto e = cache().get<ConvBwdData>(key, [&] {
        return create(op, [&] {
            auto hint = conv_fwd_pd(gx.dims, w.dims, gy.dims, false, p,
                                    primitive_attr());
            auto pd = convolution_backward_data::primitive_desc(
                eng(), algorithm::convolution_direct, any(gx.dims),
                any(grouped(w.dims, p.groups)), any(gy.dims), mdims(p.stride),
                mdims(p.dilate), mdims(p.pad_l), mdims(p.pad_r), hint,
                user_scratchpad());
            ConvBwdData c;
            c.prim = convolution_backward_data(pd);
            c.diff_dst = Port(plain(gy.dims), pd.diff_dst_desc(), true);
            c.wei = Port(plain(grouped(w.dims, p.groups)), pd.weights_desc(), true);
            c.diff_src = Port(plain(gx.dims), pd.diff_src_desc(), false);
            c.scratch = pd.scratchpad_desc();
            return c;
        });
    });
    run(op, [&] {
        Pieces pieces(Slot::operands, e->bytes());
        Args args;
        args[DNNL_ARG_DIFF_DST] = e->diff_dst.in(gy.ptr, pieces);
        args[DNNL_ARG_WEIGHTS] = e->wei.in(w.ptr, pieces);
        memory dm = e->diff_src.out(gx.ptr, pieces);
        args[DNNL_ARG_DIFF_SRC] = dm;
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        e->diff_src.finish(dm, gx.ptr);
        strm().wait();
    });
}

void conv_backward_weights(const char *op, const Tensor &x, const Tensor &gy,
                           const Tensor &gw, const ConvParams &p) {
    SerialIfSmall threads(conv_work(gy.dims, gw.dims));
    std::string key = Key("conv_bwd_w").d(x.dims).d(gy.dims).d(gw.dims).conv(p).s;
    auto e = cache().get<ConvBwdWeights>(key, [&] {
        return create(op, [&] {
            auto hint = conv_fwd_pd(x.dims, gw.dims, gy.dims, false, p,
                                    primitive_attr());
            auto pd = convolution_backward_weights::primitive_desc(
                eng(), algorithm::convolution_direct, any(x.dims),
                any(grouped(gw.dims, p.groups)), any(gy.dims), mdims(p.stride),
                mdims(p.dilate), mdims(p.pad_l), mdims(p.pad_r), hint,
                user_scratchpad());
            ConvBwdWeights c;
            c.prim = convolution_backward_weights(pd);
            c.src = Port(plain(x.dims), pd.src_desc(), true);
            c.diff_dst = Port(plain(gy.dims), pd.diff_dst_desc(), true);
            c.diff_wei = Port(plain(grouped(gw.dims, p.groups)),
                              pd.diff_weights_desc(), false);
            c.scratch = pd.scratchpad_desc();
            return c;
        });
    });
    run(op, [&] {
        Pieces pieces(Slot::operands, e->bytes());
        Args args;
        args[DNNL_ARG_SRC] = e->src.in(x.ptr, pieces);
        args[DNNL_ARG_DIFF_DST] = e->diff_dst.in(gy.ptr, pieces);
        memory dm = e->diff_wei.out(gw.ptr, pieces);
        args[DNNL_ARG_DIFF_WEIGHTS] = dm;
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        e->diff_wei.finish(dm, gw.ptr);
        strm().wait();
    });
}

std::string conv_weights_roundtrip(const char *op, const Tensor &x,
                                   const Tensor &w, const Tensor &y,
                                   const ConvParams &p, const Tensor &out) {
    SerialIfSmall threads(numel(w.dims));
    std::string layout;
    auto pd = create(op, [&] {
        return conv_fwd_pd(x.dims, w.dims, y.dims, false, p, primitive_attr());
    });
    run(op, [&] {
        md user = plain(grouped(w.dims, p.groups));
        md prim = pd.weights_desc();
        Port there(user, prim, true);
        Port back(user, prim, false);
        Pieces pieces(Slot::operands, there.bytes());
        memory blocked = there.in(w.ptr, pieces);
        back.finish(blocked, out.ptr);
        if (!there.to_prim) std::memcpy(out.ptr, w.ptr, user.get_size());
        strm().wait();
        layout = user == prim ? "plain" : "blocked";
    });
    return layout;
}

// -- pooling

namespace {

algorithm pool_alg(Pool a) {
    switch (a) {
        case Pool::max: return algorithm::pooling_max;
        case Pool::avg_include: return algorithm::pooling_avg_include_padding;
        default: return algorithm::pooling_avg_exclude_padding;
    }
}

pooling_forward::primitive_desc pool_fwd_pd(Pool alg, const Dims &xd,
                                            const Dims &yd, const Dims &k,
                                            const Dims &s, const Dims &pl,
                                            const Dims &pr,
                                            const primitive_attr &attr) {
    Dims dil(k.size(), 0);
    return pooling_forward::primitive_desc(
        eng(), prop_kind::forward_training, pool_alg(alg), plain(xd),
        plain(yd), mdims(s), mdims(k), mdims(dil), mdims(pl), mdims(pr), attr);
}

// The workspace of max pooling holds, per output, the window tap of the
// maximum (row-major over the window), in the output's layout; only that
// layout, with plain strides, can be read and written here.
void check_workspace(const md &ws, const Dims &yd) {
    dt t = ws.get_data_type();
    if ((t != dt::u8 && t != dt::s32) || ws != plain(yd, t))
        throw dnnl::error(dnnl_unimplemented,
                          "max pooling workspace in an unexpected layout");
}

struct PoolFwd {
    primitive prim;
    md src, dst, ws, scratch;
};

struct PoolBwd {
    primitive prim;
    md diff_dst, diff_src, ws, scratch;
};

}  // namespace

void pool_forward(const char *op, Pool alg, const Tensor &x, const Tensor &y,
                  const Tensor *indexes, const Dims &kernel,
                  const Dims &stride, const Dims &pad_l, const Dims &pad_r) {
    SerialIfSmall threads(numel(x.dims));
    std::string key = Key("pool_fwd").i(static_cast<int64_t>(alg)).d(x.dims).d(y.dims)
                          .d(kernel).d(stride).d(pad_l).d(pad_r).s;
    auto e = cache().get<PoolFwd>(key, [&] {
        return create(op, [&] {
            auto pd = pool_fwd_pd(alg, x.dims, y.dims, kernel, stride, pad_l,
                                  pad_r, user_scratchpad());
            PoolFwd c;
            c.prim = pooling_forward(pd);
            c.src = plain(x.dims);
            c.dst = plain(y.dims);
            c.ws = pd.workspace_desc();
            if (alg == Pool::max) check_workspace(c.ws, y.dims);
            c.scratch = pd.scratchpad_desc();
            return c;
        });
    });
    run(op, [&] {
        Args args;
        args[DNNL_ARG_SRC] = memory(e->src, eng(), x.ptr);
        args[DNNL_ARG_DST] = memory(e->dst, eng(), y.ptr);
        // The workspace (max pooling) is int32 of y's shape or uint8: the
        // former is written straight into indexes, the latter into this
        // thread's workspace slot and widened below.
        memory ws;
        bool direct = false;
        if (e->ws.get_size() > 0) {
            direct = indexes != nullptr && e->ws.get_data_type() == dt::s32;
            ws = memory(e->ws, eng(),
                        direct ? indexes->ptr
                               : thread_buffer(Slot::workspace, e->ws.get_size()));
            args[DNNL_ARG_WORKSPACE] = ws;
        }
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
        if (indexes != nullptr && e->ws.get_size() > 0 && !direct) {
            int32_t *out = static_cast<int32_t *>(indexes->ptr);
            const uint8_t *w = static_cast<const uint8_t *>(ws.get_data_handle());
            int64_t n = numel(y.dims);
            for (int64_t i = 0; i < n; ++i) out[i] = w[i];
        }
    });
}

void pool_backward(const char *op, Pool alg, const Tensor &gy,
                   const Tensor *indexes, const Tensor &gx,
                   const Dims &kernel, const Dims &stride, const Dims &pad_l,
                   const Dims &pad_r) {
    SerialIfSmall threads(numel(gx.dims));
    std::string key = Key("pool_bwd").i(static_cast<int64_t>(alg)).d(gx.dims).d(gy.dims)
                          .d(kernel).d(stride).d(pad_l).d(pad_r).s;
    auto e = cache().get<PoolBwd>(key, [&] {
        return create(op, [&] {
            auto hint = pool_fwd_pd(alg, gx.dims, gy.dims, kernel, stride,
                                    pad_l, pad_r, primitive_attr());
            Dims dil(kernel.size(), 0);
            auto pd = pooling_backward::primitive_desc(
                eng(), pool_alg(alg), plain(gx.dims), plain(gy.dims),
                mdims(stride), mdims(kernel), mdims(dil), mdims(pad_l),
                mdims(pad_r), hint, user_scratchpad());
            PoolBwd c;
            c.prim = pooling_backward(pd);
            c.diff_src = plain(gx.dims);
            c.diff_dst = plain(gy.dims);
            c.ws = hint.workspace_desc();
            if (alg == Pool::max) check_workspace(c.ws, gy.dims);
            c.scratch = pd.scratchpad_desc();
            return c;
        });
    });
    if (alg == Pool::max && indexes == nullptr)
        throw OpError(std::string(op) + ": max pooling needs the indexes");
    run(op, [&] {
        Args args;
        args[DNNL_ARG_DIFF_DST] = memory(e->diff_dst, eng(), gy.ptr);
        args[DNNL_ARG_DIFF_SRC] = memory(e->diff_src, eng(), gx.ptr);
        if (e->ws.get_size() > 0) {
            // Only read by the backward pass: an int32 workspace is indexes
            // itself, a uint8 one is narrowed into this thread's slot.
            const int32_t *in = static_cast<const int32_t *>(indexes->ptr);
            if (e->ws.get_data_type() == dt::u8) {
                memory ws(e->ws, eng(), thread_buffer(Slot::workspace, e->ws.get_size()));
                uint8_t *w = static_cast<uint8_t *>(ws.get_data_handle());
                int64_t n = numel(gy.dims);
                for (int64_t i = 0; i < n; ++i) w[i] = static_cast<uint8_t>(in[i]);
                args[DNNL_ARG_WORKSPACE] = ws;
            } else {
                args[DNNL_ARG_WORKSPACE] =
                    memory(e->ws, eng(), const_cast<int32_t *>(in));
            }
        }
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

// -- eltwise

namespace {

algorithm elt_alg(Elt a) {
    switch (a) {
        case Elt::relu: return algorithm::eltwise_relu;
        case Elt::relu_dst: return algorithm::eltwise_relu_use_dst_for_bwd;
        case Elt::elu: return algorithm::eltwise_elu;
        case Elt::tanh: return algorithm::eltwise_tanh;
        case Elt::tanh_dst: return algorithm::eltwise_tanh_use_dst_for_bwd;
        case Elt::logistic: return algorithm::eltwise_logistic;
        default: return algorithm::eltwise_logistic_use_dst_for_bwd;
    }
}

bool elt_uses_dst(Elt a) {
    return a == Elt::relu_dst || a == Elt::tanh_dst || a == Elt::logistic_dst;
}

struct Simple {
    primitive prim;
    md scratch;
};

}  // namespace

void eltwise_forward(const char *op, Elt alg, const Tensor &x,
                     const Tensor &y, float alpha, float beta) {
    SerialIfSmall threads(numel(x.dims));
    Dims flat{numel(x.dims)};
    std::string key = Key("elt_fwd").i(static_cast<int64_t>(alg)).d(flat).f(alpha).f(beta).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = dnnl::eltwise_forward::primitive_desc(
                eng(), prop_kind::forward_training, elt_alg(alg), plain(flat),
                plain(flat), alpha, beta, user_scratchpad());
            return Simple{dnnl::eltwise_forward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(flat);
        Args args{{DNNL_ARG_SRC, memory(m, eng(), x.ptr)},
                  {DNNL_ARG_DST, memory(m, eng(), y.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

void eltwise_backward(const char *op, Elt alg, const Tensor &data,
                      const Tensor &gy, const Tensor &gx, float alpha,
                      float beta) {
    SerialIfSmall threads(numel(gy.dims));
    Dims flat{numel(gy.dims)};
    std::string key = Key("elt_bwd").i(static_cast<int64_t>(alg)).d(flat).f(alpha).f(beta).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            md m = plain(flat);
            auto hint = dnnl::eltwise_forward::primitive_desc(
                eng(), prop_kind::forward_training, elt_alg(alg), m, m, alpha,
                beta);
            auto pd = dnnl::eltwise_backward::primitive_desc(
                eng(), elt_alg(alg), m, m, m, alpha, beta, hint,
                user_scratchpad());
            return Simple{dnnl::eltwise_backward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(flat);
        Args args{{elt_uses_dst(alg) ? DNNL_ARG_DST : DNNL_ARG_SRC,
                   memory(m, eng(), data.ptr)},
                  {DNNL_ARG_DIFF_DST, memory(m, eng(), gy.ptr)},
                  {DNNL_ARG_DIFF_SRC, memory(m, eng(), gx.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

// -- softmax, concat, add, linear

void softmax_forward(const char *op, const Tensor &x, const Tensor &y,
                     int axis, bool log) {
    SerialIfSmall threads(numel(x.dims));
    std::string key = Key("softmax").d(x.dims).i(axis).i(log).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = dnnl::softmax_forward::primitive_desc(
                eng(), prop_kind::forward_inference,
                log ? algorithm::softmax_log : algorithm::softmax_accurate,
                plain(x.dims), plain(y.dims), axis, user_scratchpad());
            return Simple{dnnl::softmax_forward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        Args args{{DNNL_ARG_SRC, memory(plain(x.dims), eng(), x.ptr)},
                  {DNNL_ARG_DST, memory(plain(y.dims), eng(), y.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

void concat(const char *op, const std::vector<Tensor> &xs, const Tensor &y,
            int axis) {
    SerialIfSmall threads(numel(y.dims));
    Key k("concat");
    k.i(axis);
    for (auto &x : xs) k.d(x.dims);
    auto e = cache().get<Simple>(k.s, [&] {
        return create(op, [&] {
            std::vector<md> srcs;
            for (auto &x : xs) srcs.push_back(plain(x.dims));
            auto pd = dnnl::concat::primitive_desc(eng(), plain(y.dims), axis, srcs,
                                             user_scratchpad());
            return Simple{dnnl::concat(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        Args args;
        for (size_t i = 0; i < xs.size(); ++i)
            args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] =
                memory(plain(xs[i].dims), eng(), xs[i].ptr);
        args[DNNL_ARG_DST] = memory(plain(y.dims), eng(), y.ptr);
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

void binary_add(const char *op, const Tensor &a, const Tensor &b,
                const Tensor &y) {
    SerialIfSmall threads(numel(y.dims));
    std::string key = Key("add").d(a.dims).d(b.dims).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = binary::primitive_desc(eng(), algorithm::binary_add,
                                             plain(a.dims), plain(b.dims),
                                             plain(y.dims), user_scratchpad());
            return Simple{binary(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        Args args{{DNNL_ARG_SRC_0, memory(plain(a.dims), eng(), a.ptr)},
                  {DNNL_ARG_SRC_1, memory(plain(b.dims), eng(), b.ptr)},
                  {DNNL_ARG_DST, memory(plain(y.dims), eng(), y.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

namespace {

// W (out, in) read as the (in, out) right operand without copying.
md linear_weights(const Tensor &w) {
    return md({w.dims[1], w.dims[0]}, dt::f32, {1, w.dims[1]});
}

}  // namespace

void linear(const char *op, const Tensor &x, const Tensor &w, const Tensor *b,
            const Tensor &y) {
    SerialIfSmall threads(numel(y.dims) * w.dims[1] / 32);
    std::string key = Key("linear").d(x.dims).d(w.dims).i(b != nullptr).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            if (b != nullptr) {
                auto pd = dnnl::matmul::primitive_desc(
                    eng(), plain(x.dims), linear_weights(w),
                    plain({1, w.dims[0]}), plain(y.dims), user_scratchpad());
                return Simple{dnnl::matmul(pd), pd.scratchpad_desc()};
            }
            auto pd = dnnl::matmul::primitive_desc(eng(), plain(x.dims),
                                             linear_weights(w), plain(y.dims),
                                             user_scratchpad());
            return Simple{dnnl::matmul(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        Args args{{DNNL_ARG_SRC, memory(plain(x.dims), eng(), x.ptr)},
                  {DNNL_ARG_WEIGHTS, memory(linear_weights(w), eng(), w.ptr)},
                  {DNNL_ARG_DST, memory(plain(y.dims), eng(), y.ptr)}};
        if (b != nullptr)
            args[DNNL_ARG_BIAS] = memory(plain({1, w.dims[0]}), eng(), b->ptr);
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

namespace {

// The matrix operand a C-contiguous array is, optionally transposed (the
// last two axes swapped through the strides, without copying).
md matrix_operand(const Dims &d, bool trans) {
    memory::dims dims(d.begin(), d.end()), strides = strides_of(d);
    if (trans) {
        size_t n = dims.size();
        std::swap(dims[n - 1], dims[n - 2]);
        std::swap(strides[n - 1], strides[n - 2]);
    }
    return md(dims, dt::f32, strides);
}

}  // namespace

void matmul(const char *op, const Tensor &a, const Tensor &b, const Tensor &y,
            bool transa, bool transb) {
    int64_t k = transa ? a.dims[a.dims.size() - 2] : a.dims.back();
    SerialIfSmall threads(numel(y.dims) * k / 32);
    std::string key = Key("matmul").d(a.dims).d(b.dims).i(transa).i(transb).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = dnnl::matmul::primitive_desc(
                eng(), matrix_operand(a.dims, transa),
                matrix_operand(b.dims, transb), plain(y.dims), user_scratchpad());
            return Simple{dnnl::matmul(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        Args args{{DNNL_ARG_SRC, memory(matrix_operand(a.dims, transa), eng(), a.ptr)},
                  {DNNL_ARG_WEIGHTS, memory(matrix_operand(b.dims, transb), eng(), b.ptr)},
                  {DNNL_ARG_DST, memory(plain(y.dims), eng(), y.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

// -- batch normalization

namespace {

const normalization_flags kScaleShift =
    normalization_flags::use_scale | normalization_flags::use_shift;

batch_normalization_forward::primitive_desc bn_fwd_pd(
    const Dims &xd, float eps, bool global, const primitive_attr &attr) {
    auto flags = global ? kScaleShift | normalization_flags::use_global_stats
                        : kScaleShift;
    return batch_normalization_forward::primitive_desc(
        eng(), global ? prop_kind::forward_inference : prop_kind::forward_training,
        plain(xd), plain(xd), eps, flags, attr);
}

}  // namespace

void bn_forward_training(const char *op, const Tensor &x,
                         const Tensor &gamma, const Tensor &beta,
                         const Tensor &y, const Tensor &mean,
                         const Tensor &var, float eps) {
    SerialIfSmall threads(2 * numel(x.dims));
    std::string key = Key("bn_fwd").d(x.dims).f(eps).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = bn_fwd_pd(x.dims, eps, false, user_scratchpad());
            return Simple{batch_normalization_forward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(x.dims), c = plain({x.dims[1]});
        Args args{{DNNL_ARG_SRC, memory(m, eng(), x.ptr)},
                  {DNNL_ARG_DST, memory(m, eng(), y.ptr)},
                  {DNNL_ARG_SCALE, memory(c, eng(), gamma.ptr)},
                  {DNNL_ARG_SHIFT, memory(c, eng(), beta.ptr)},
                  {DNNL_ARG_MEAN, memory(c, eng(), mean.ptr)},
                  {DNNL_ARG_VARIANCE, memory(c, eng(), var.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

void bn_forward_inference(const char *op, const Tensor &x,
                          const Tensor &gamma, const Tensor &beta,
                          const Tensor &mean, const Tensor &var,
                          const Tensor &y, float eps) {
    SerialIfSmall threads(numel(x.dims));
    std::string key = Key("bn_inf").d(x.dims).f(eps).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = bn_fwd_pd(x.dims, eps, true, user_scratchpad());
            return Simple{batch_normalization_forward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(x.dims), c = plain({x.dims[1]});
        Args args{{DNNL_ARG_SRC, memory(m, eng(), x.ptr)},
                  {DNNL_ARG_DST, memory(m, eng(), y.ptr)},
                  {DNNL_ARG_SCALE, memory(c, eng(), gamma.ptr)},
                  {DNNL_ARG_SHIFT, memory(c, eng(), beta.ptr)},
                  {DNNL_ARG_MEAN, memory(c, eng(), mean.ptr)},
                  {DNNL_ARG_VARIANCE, memory(c, eng(), var.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

void bn_backward(const char *op, const Tensor &x, const Tensor &gy,
                 const Tensor &gamma, const Tensor &mean, const Tensor &var,
                 const Tensor &gx, const Tensor &ggamma, const Tensor &gbeta,
                 float eps) {
    SerialIfSmall threads(3 * numel(x.dims));
    std::string key = Key("bn_bwd").d(x.dims).f(eps).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto hint = bn_fwd_pd(x.dims, eps, false, primitive_attr());
            auto pd = batch_normalization_backward::primitive_desc(
                eng(), prop_kind::backward, plain(x.dims), plain(x.dims),
                plain(x.dims), eps, kScaleShift, hint, user_scratchpad());
            return Simple{batch_normalization_backward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(x.dims), c = plain({x.dims[1]});
        Args args{{DNNL_ARG_SRC, memory(m, eng(), x.ptr)},
                  {DNNL_ARG_DIFF_DST, memory(m, eng(), gy.ptr)},
                  {DNNL_ARG_SCALE, memory(c, eng(), gamma.ptr)},
                  {DNNL_ARG_MEAN, memory(c, eng(), mean.ptr)},
                  {DNNL_ARG_VARIANCE, memory(c, eng(), var.ptr)},
                  {DNNL_ARG_DIFF_SRC, memory(m, eng(), gx.ptr)},
                  {DNNL_ARG_DIFF_SCALE, memory(c, eng(), ggamma.ptr)},
                  {DNNL_ARG_DIFF_SHIFT, memory(c, eng(), gbeta.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
}

// -- local response normalization

void lrn_forward(const char *op, const Tensor &x, const Tensor &y,
                 const Tensor *unit_scale, int64_t n, float alpha,
                 float beta, float k) {
    SerialIfSmall threads(n * numel(x.dims));
    std::string key = Key("lrn").d(x.dims).i(n).f(alpha).f(beta).f(k).s;
    auto e = cache().get<Simple>(key, [&] {
        return create(op, [&] {
            auto pd = dnnl::lrn_forward::primitive_desc(
                eng(), prop_kind::forward_inference,
                algorithm::lrn_across_channels, plain(x.dims), plain(y.dims),
                n, alpha * static_cast<float>(n), beta, k, user_scratchpad());
            return Simple{dnnl::lrn_forward(pd), pd.scratchpad_desc()};
        });
    });
    run(op, [&] {
        md m = plain(x.dims);
        Args args{{DNNL_ARG_SRC, memory(m, eng(), x.ptr)},
                  {DNNL_ARG_DST, memory(m, eng(), y.ptr)}};
        add_scratchpad(args, e->scratch);
        e->prim.execute(strm(), args);
        strm().wait();
    });
    if (unit_scale == nullptr) return;
    // The scale oneDNN applies is not exposed and the core's backward pass
    // needs it: summed here, each window directly (no running sum whose
    // rounding would drift along the channels).
    const float *in = static_cast<const float *>(x.ptr);
    float *out = static_cast<float *>(unit_scale->ptr);
    const int64_t batch = x.dims[0], channels = x.dims[1];
    const int64_t inner = numel(x.dims) / (batch * channels);
    const int64_t half = (n - 1) / 2;
#pragma omp parallel for collapse(2)
    for (int64_t b = 0; b < batch; ++b) {
        for (int64_t c = 0; c < channels; ++c) {
            const float *xb = in + b * channels * inner;
            float *u = out + (b * channels + c) * inner;
            std::fill(u, u + inner, 0.f);
            int64_t lo = std::max<int64_t>(0, c - half);
            int64_t hi = std::min<int64_t>(channels - 1, c + half);
            for (int64_t j = lo; j <= hi; ++j) {
                const float *xj = xb + j * inner;
                for (int64_t i = 0; i < inner; ++i) u[i] += xj[i] * xj[i];
            }
            for (int64_t i = 0; i < inner; ++i) u[i] = k + alpha * u[i];
        }
    }
}

namespace {

// oneDNN 3.2 has JIT LRN backward passes (beta 0.75, 4-D) only in blocked
// or channels-last layouts, each with its own conditions (nChw16c: C a
// multiple of 16 and a window of 5; nChw8c on AVX2 alike with 8; nhwc: any
// C, windows of 3 to 7); in NCHW, for 3-D and 5-D arrays and for other
// cases, it has only its reference implementation, several times slower
// than NumPy. The first
// layout that gets a JIT one is used; its backward pass needs the
// workspace of a forward training pass in that layout, recomputed here (the
// core keeps only unit_scale).
struct LrnBwd {
    std::string refused;  // why no JIT implementation applies, or empty
    dnnl::lrn_forward fwd;
    dnnl::lrn_backward bwd;
    reorder to_blocked, to_plain;
    md plain, blocked, ws, fwd_scratch, bwd_scratch;
};

bool is_reference(const char *impl) { return std::strncmp(impl, "ref", 3) == 0; }

}  // namespace

void lrn_backward(const char *op, const Tensor &x, const Tensor &gy,
                  const Tensor &gx, int64_t n, float alpha, float beta,
                  float k) {
    SerialIfSmall threads(2 * n * numel(x.dims));
    std::string key = Key("lrn_bwd").d(x.dims).i(n).f(alpha).f(beta).f(k).s;
    auto e = cache().get<LrnBwd>(key, [&] {
        return create(op, [&] {
            LrnBwd c;
            c.plain = plain(x.dims);
            if (x.dims.size() == 4) {
                for (tag t : {tag::nChw16c, tag::nChw8c, tag::nhwc}) {
                    md m(mdims(x.dims), dt::f32, t);
                    auto fpd = dnnl::lrn_forward::primitive_desc(
                        eng(), prop_kind::forward_training,
                        algorithm::lrn_across_channels, m, m, n,
                        alpha * static_cast<float>(n), beta, k,
                        user_scratchpad());
                    auto bpd = dnnl::lrn_backward::primitive_desc(
                        eng(), algorithm::lrn_across_channels, m, m, m, n,
                        alpha * static_cast<float>(n), beta, k, fpd,
                        user_scratchpad());
                    if (is_reference(fpd.impl_info_str()) ||
                        is_reference(bpd.impl_info_str()))
                        continue;
                    c.fwd = dnnl::lrn_forward(fpd);
                    c.bwd = dnnl::lrn_backward(bpd);
                    c.blocked = m;
                    c.ws = fpd.workspace_desc();
                    c.fwd_scratch = fpd.scratchpad_desc();
                    c.bwd_scratch = bpd.scratchpad_desc();
                    c.to_blocked = reorder(reorder::primitive_desc(eng(), c.plain, eng(), m));
                    c.to_plain = reorder(reorder::primitive_desc(eng(), m, eng(), c.plain));
                    return c;
                }
            }
            // Kept in the cache too, so that a refused case is not retried
            // on every call.
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "oneDNN has only its reference LRN backward pass, "
                          "slower than NumPy, for n=%lld, beta=%g, %lld "
                          "channels and %zu axes (expected beta=0.75, n from 3 "
                          "to 7, 4 axes)",
                          static_cast<long long>(n), static_cast<double>(beta),
                          static_cast<long long>(x.dims[1]), x.dims.size());
            c.refused = std::string(op) + ": " + buf;
            return c;
        });
    });
    if (!e->refused.empty()) throw Unsupported(e->refused);
    run(op, [&] {
        memory ux(e->plain, eng(), x.ptr), ugy(e->plain, eng(), gy.ptr);
        memory ugx(e->plain, eng(), gx.ptr);
        const size_t blocked = aligned64(e->blocked.get_size());
        // Three copies of x and the workspace, from the operands slot: the
        // page faults of fresh memory would cost more than the LRN passes
        // (2.4 ms instead of 0.5 for the forward pass on AlexNet's first
        // LRN layer).
        char *scratch = thread_buffer(
            Slot::operands, 3 * blocked + aligned64(e->ws.get_size()));
        memory bx(e->blocked, eng(), scratch), bgy(e->blocked, eng(), scratch + blocked);
        // The forward output is not needed: its buffer then receives the
        // backward pass's result.
        memory by(e->blocked, eng(), scratch + 2 * blocked);
        memory ws(e->ws, eng(), scratch + 3 * blocked);
        e->to_blocked.execute(strm(), ux, bx);
        e->to_blocked.execute(strm(), ugy, bgy);
        // Sized for both passes up front, so that the slot is not moved
        // between them.
        thread_buffer(Slot::scratchpad, std::max(e->fwd_scratch.get_size(),
                                                 e->bwd_scratch.get_size()));
        Args fargs{{DNNL_ARG_SRC, bx}, {DNNL_ARG_DST, by}, {DNNL_ARG_WORKSPACE, ws}};
        add_scratchpad(fargs, e->fwd_scratch);
        e->fwd.execute(strm(), fargs);
        Args bargs{{DNNL_ARG_SRC, bx}, {DNNL_ARG_DIFF_DST, bgy},
                   {DNNL_ARG_WORKSPACE, ws}, {DNNL_ARG_DIFF_SRC, by}};
        add_scratchpad(bargs, e->bwd_scratch);
        e->bwd.execute(strm(), bargs);
        e->to_plain.execute(strm(), by, ugx);
        strm().wait();
    });
}

// -- cache control

CacheInfo cache_info() { return cache().info(); }
void cache_clear() {
    cache().clear();
    thread_buffers().release();
}
void cache_set_capacity(uint64_t capacity) { cache().set_capacity(capacity); }

std::string version() {
    const dnnl_version_t *v = dnnl_version();
    return std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
           std::to_string(v->patch) + " (" + v->hash + ", " +
           (v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other") + ")";
}

}  // namespace cmk
