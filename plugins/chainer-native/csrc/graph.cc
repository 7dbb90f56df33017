#include "graph.h"

#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "creation.h"
#include "elementwise.h"

namespace cn {

namespace {
thread_local bool t_backprop = true;
}  // namespace

bool backprop_enabled() { return t_backprop; }

bool set_backprop_enabled(bool on) {
    bool prev = t_backprop;
    t_backprop = on;
    return prev;
}

Array BackwardContext::gy(int i) {
    if (!gys[i].defined()) {
        const auto& meta = node->output_meta[i];
        gys[i] = zeros(meta.first, meta.second);
    }
    return gys[i];
}

void record_op(const char* name, const std::vector<Array>& inputs, const std::vector<Array>& outputs, BackwardFn fn) {
    auto op = std::make_shared<OpNode>();
    op->name = name;
    op->inputs.reserve(inputs.size());
    int64_t rank = 0;
    for (const auto& x : inputs) {
        if (x.defined() && x.requires_grad()) {
            const auto& n = x.body()->node;
            if (n->rank > rank) rank = n->rank;
            op->inputs.push_back(n);
        } else {
            op->inputs.push_back(nullptr);
        }
    }
    op->rank = rank;
    op->outputs.reserve(outputs.size());
    op->output_meta.reserve(outputs.size());
    for (const auto& y : outputs) {
        auto n = std::make_shared<VarNode>();
        n->creator = op;
        n->rank = rank + 1;
        n->shape = y.shape();
        n->dtype = y.dtype();
        y.body()->node = n;
        op->outputs.push_back(n);
        op->output_meta.emplace_back(y.shape(), y.dtype());
    }
    op->fn = std::move(fn);
}

namespace {

struct RankLess {
    bool operator()(const std::shared_ptr<OpNode>& a, const std::shared_ptr<OpNode>& b) const { return a->rank < b->rank; }
};

Array accumulate(const Array& a, const Array& b) {
    if (!a.defined()) return b;
    return add(a, b);
}

}  // namespace

void Array::backward(bool retain_grad, bool enable_double_backprop, bool retain_graph) const {
    const auto& root = b_->node;
    if (!root) throw GradError("backward: the array does not require grad (call require_grad() on an input first)");
    Array g0 = root->grad;
    if (!g0.defined()) {
        if (size() != 1)
            throw GradError("backward: the array has shape " + shape().str() +
                            "; set its grad first (backward from a non-scalar needs an initial gradient)");
        g0 = ones(shape(), dtype());
    }
    if (!root->creator) {
        if (!root->grad.defined()) root->grad = g0;
        return;
    }

    BackpropModeScope mode(enable_double_backprop);
    std::unordered_map<VarNode*, Array> grads;
    std::unordered_map<VarNode*, std::shared_ptr<VarNode>> keep;
    grads[root.get()] = g0;
    std::unordered_set<const uint8_t*> given{g0.data().get()};
    keep[root.get()] = root;
    std::priority_queue<std::shared_ptr<OpNode>, std::vector<std::shared_ptr<OpNode>>, RankLess> heap;
    std::unordered_set<OpNode*> seen;
    heap.push(root->creator);
    seen.insert(root->creator.get());

    while (!heap.empty()) {
        std::shared_ptr<OpNode> op = heap.top();
        heap.pop();
        BackwardContext ctx;
        ctx.node = op.get();
        ctx.create_graph = enable_double_backprop;
        ctx.gys.resize(op->outputs.size());
        bool any = false;
        for (size_t i = 0; i < op->outputs.size(); ++i) {
            auto out = op->outputs[i].lock();
            if (!out) continue;
            auto it = grads.find(out.get());
            if (it == grads.end()) continue;
            ctx.gys[i] = it->second;
            any = true;
            if (retain_grad || out.get() == root.get()) {
                if (out.get() != root.get() || !root->grad.defined()) out->grad = it->second;
            }
            grads.erase(it);
            keep.erase(out.get());
        }
        if (!any) continue;
        if (!op->fn)
            throw GradError(std::string("backward: the graph of ") + op->name +
                            " was already used by a backward pass that released it; pass retain_graph=True to the first backward");
        ctx.need.resize(op->inputs.size());
        ctx.gxs.resize(op->inputs.size());
        for (size_t i = 0; i < op->inputs.size(); ++i) ctx.need[i] = op->inputs[i] != nullptr;
        op->fn(ctx);
        // Double backprop differentiates through this graph again.
        if (!retain_graph && !enable_double_backprop) op->fn = nullptr;
        for (size_t i = 0; i < op->inputs.size(); ++i) {
            const auto& in = op->inputs[i];
            if (!in || !ctx.gxs[i].defined()) continue;
            Array& gx = ctx.gxs[i];
            if (gx.shape() != in->shape || gx.dtype() != in->dtype)
                throw GradError(std::string("backward: ") + op->name + " produced a gradient of shape " + gx.shape().str() +
                                " and dtype " + dtype_name(gx.dtype()) + " for an input of shape " + in->shape.str() +
                                " and dtype " + dtype_name(in->dtype));
            if (!in->creator) {
                if (in->grad.defined()) {
                    in->grad = add(in->grad, gx);
                } else {
                    // A leaf owns its gradient: no read-only view, and no
                    // buffer shared with another gradient of this pass.
                    if (!gx.writeable() || !given.insert(gx.data().get()).second) gx = copy(gx);
                    in->grad = gx;
                }
                continue;
            }
            auto& slot = grads[in.get()];
            slot = accumulate(slot, gx);
            keep[in.get()] = in;
            if (seen.insert(in->creator.get()).second) heap.push(in->creator);
        }
    }
}

}  // namespace cn
