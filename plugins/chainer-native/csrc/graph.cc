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

const VarNode& BackwardContext::input(int i) const { return *node->inputs[i]; }

Array BackwardContext::gy(int i) {
    if (!gys[i].defined()) {
        const auto& meta = node->output_meta[i];
        gys[i] = zeros(meta.first, meta.second);
    }
    return gys[i];
}

// Freeing the last output of a long graph would free op after op
// recursively (op -> input VarNode -> its creator -> ...), one level of
// stack per op, and overflow the stack on graphs of ~100k ops. A dying op
// hands its inputs and closure to a per-thread list instead, drained by the
// outermost destructor: what a release frees in turn is appended, not nested.
OpNode::~OpNode() {
    struct Released {
        std::vector<std::shared_ptr<VarNode>> inputs;
        BackwardFn fn;
    };
    thread_local std::vector<Released> pending;
    thread_local bool draining = false;
    pending.push_back({std::move(inputs), std::move(fn)});
    fn = nullptr;  // a moved-from std::function is only "valid"
    if (draining) return;
    draining = true;
    while (!pending.empty()) {
        Released r = std::move(pending.back());
        pending.pop_back();
    }  // r goes here, possibly destroying more ops, which append to pending
    draining = false;
}

std::shared_ptr<OpNode> record_op(std::string name, const std::vector<Array>& inputs, const std::vector<Array>& outputs,
                                  BackwardFn fn) {
    auto op = std::make_shared<OpNode>();
    op->name = std::move(name);
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
        op->output_meta.emplace_back(y.shape(), y.dtype());
        op->outputs.emplace_back();
        if (!is_float(y.dtype())) continue;  // indices, masks: nothing to differentiate
        y.body()->node = output_node(op, op->outputs.size() - 1);
    }
    op->fn = std::move(fn);
    return op;
}

std::shared_ptr<VarNode> output_node(const std::shared_ptr<OpNode>& op, size_t i) {
    if (auto n = op->outputs[i].lock()) return n;
    const auto& meta = op->output_meta[i];
    if (!is_float(meta.second)) return nullptr;
    auto n = std::make_shared<VarNode>();
    n->creator = op;
    n->rank = op->rank + 1;
    n->shape = meta.first;
    n->dtype = meta.second;
    op->outputs[i] = n;
    return n;
}

void unchain(VarNode& v) {
    if (!v.creator) return;
    for (auto& w : v.creator->outputs)
        if (w.lock().get() == &v) w.reset();
    v.creator.reset();
}

void unchain_op(OpNode& op) {
    for (auto& w : op.outputs)
        if (auto n = w.lock()) n->creator.reset();
    // Kept at their size: BackwardContext indexes inputs by position.
    for (auto& in : op.inputs) in.reset();
    op.fn = nullptr;
}

void unchain_backward(VarNode& v) {
    // Iterative, with the ops held by the stack: a long graph is deep, and
    // an op freed by its own unchaining releases inputs still to be visited.
    std::vector<std::shared_ptr<OpNode>> stack;
    std::unordered_set<const OpNode*> seen;
    if (v.creator) stack.push_back(v.creator);
    while (!stack.empty()) {
        std::shared_ptr<OpNode> op = std::move(stack.back());
        stack.pop_back();
        if (!seen.insert(op.get()).second) continue;
        for (const auto& in : op->inputs)
            if (in && in->creator) stack.push_back(in->creator);
        unchain_op(*op);
    }
}

namespace {

struct RankLess {
    bool operator()(const std::shared_ptr<OpNode>& a, const std::shared_ptr<OpNode>& b) const { return a->rank < b->rank; }
};

// One backward pass over the graph above the seeded VarNodes, op by op in
// decreasing rank, so that an op runs once every gradient of its outputs has
// arrived.
//
// Without targets (Array::backward) every input that requires grad is
// differentiated and leaves accumulate into their grad. With targets (grad)
// only ops on a path to a target run, gradients into leaves stay in the pass,
// and each target's total is collected instead; propagation goes on through
// a target that is itself computed from another target.
class Engine {
public:
    Engine(const char* who, bool retain_grad, bool create_graph, bool retain_graph,
           const std::unordered_set<const VarNode*>* targets)
        : who_(who), retain_grad_(retain_grad), create_graph_(create_graph), retain_graph_(retain_graph),
          targets_(targets) {}

    // Adds g to the gradient of v before the pass starts.
    void seed(const std::shared_ptr<VarNode>& v, const Array& g) {
        given_.insert(g.data().get());
        add(v, g);
    }

    void run() {
        if (targets_) find_paths();
        while (!heap_.empty()) {
            std::shared_ptr<OpNode> op = heap_.top();
            heap_.pop();
            step(op);
        }
        // What is still pending are leaves (grad mode) and seeds without a
        // creator: a target among them has its total now.
        if (targets_)
            for (auto& kv : pending_)
                if (targets_->count(kv.first)) results_[kv.first] = kv.second.grad;
        pending_.clear();
    }

    // grad mode: the total gradient of target v, undefined when none reached it.
    Array total(const VarNode* v) const {
        auto it = results_.find(v);
        return it == results_.end() ? Array() : it->second;
    }

    // Whether buffer p is not yet used by a gradient handed out (and now is).
    bool claim(const uint8_t* p) { return given_.insert(p).second; }

private:
    struct Pending {
        std::shared_ptr<VarNode> node;  // kept alive while its gradient is pending
        Array grad;
    };

    void add(const std::shared_ptr<VarNode>& v, Array g) {
        Pending& p = pending_[v.get()];
        if (p.grad.defined()) {
            p.grad = cn::add(p.grad, g);
        } else {
            p.node = v;
            p.grad = std::move(g);
        }
        if (v->creator && seen_.insert(v->creator.get()).second) heap_.push(v->creator);
    }

    // Backward mode: a leaf owns its gradient: no read-only view, and no
    // buffer shared with another gradient of this pass.
    void accumulate_leaf(VarNode* leaf, Array gx) {
        if (leaf->grad.defined()) {
            leaf->grad = cn::add(leaf->grad, gx);
            return;
        }
        if (!gx.writeable() || !claim(gx.data().get())) gx = copy(gx);
        leaf->grad = std::move(gx);
    }

    // Whether a gradient into v is wanted: always without targets; with
    // them, when v is a target or an input of v's creator is wanted.
    bool wanted(const VarNode* v) const {
        if (!targets_ || targets_->count(v)) return true;
        if (!v->creator) return false;
        auto it = on_path_.find(v->creator.get());
        return it != on_path_.end() && it->second;
    }

    // grad mode: marks which ops above the seeds lead to a target
    // (post-order, iterative: graphs of long sequences are deep).
    void find_paths() {
        std::vector<std::pair<const OpNode*, bool>> stack;
        for (const auto& kv : pending_)
            if (kv.second.node->creator) stack.emplace_back(kv.second.node->creator.get(), false);
        while (!stack.empty()) {
            auto [op, expanded] = stack.back();
            if (!expanded) {
                if (on_path_.count(op)) {
                    stack.pop_back();
                    continue;
                }
                stack.back().second = true;
                for (const auto& in : op->inputs)
                    if (in && in->creator && !on_path_.count(in->creator.get()))
                        stack.emplace_back(in->creator.get(), false);
                continue;
            }
            stack.pop_back();
            bool any = false;
            for (const auto& in : op->inputs)
                if (in && wanted(in.get())) { any = true; break; }
            on_path_[op] = any;
        }
    }

    void step(const std::shared_ptr<OpNode>& op) {
        BackwardContext ctx;
        ctx.node = op.get();
        ctx.op = &op;
        ctx.create_graph = create_graph_;
        ctx.gys.resize(op->outputs.size());
        bool any = false;
        for (size_t i = 0; i < op->outputs.size(); ++i) {
            auto out = op->outputs[i].lock();
            if (!out) continue;
            auto it = pending_.find(out.get());
            if (it == pending_.end()) {
                // As in Chainer, backward takes the gradient already set on
                // an output no gradient of this pass reached (a sibling of
                // the path, or an output whose grad the user set).
                if (!targets_ && out->grad.defined()) {
                    ctx.gys[i] = out->grad;
                    any = true;
                }
                continue;
            }
            // Every consumer of out has a higher rank and has run: the
            // gradient is complete.
            Array g = std::move(it->second.grad);
            pending_.erase(it);
            if (retain_grad_) out->grad = g;
            if (targets_ && targets_->count(out.get())) results_[out.get()] = g;
            ctx.gys[i] = std::move(g);
            any = true;
        }
        if (!any) return;
        size_t n = op->inputs.size();
        ctx.need.resize(n);
        ctx.gxs.resize(n);
        bool needed = false;
        for (size_t i = 0; i < n; ++i) {
            ctx.need[i] = op->inputs[i] && wanted(op->inputs[i].get());
            needed = needed || ctx.need[i];
        }
        if (!needed) return;
        call(*op, ctx);
        for (size_t i = 0; i < n; ++i) {
            if (!ctx.need[i] || !ctx.gxs[i].defined()) continue;
            const auto& in = op->inputs[i];
            Array& gx = ctx.gxs[i];
            if (gx.shape() != in->shape || gx.dtype() != in->dtype)
                throw GradError(std::string(who_) + ": " + op->name + " produced a gradient of shape " + gx.shape().str() +
                                " and dtype " + dtype_name(gx.dtype()) + " for an input of shape " + in->shape.str() +
                                " and dtype " + dtype_name(in->dtype));
            if (!targets_ && !in->creator) accumulate_leaf(in.get(), std::move(gx));
            else add(in, std::move(gx));
        }
    }

    // Runs op's backward function. The closure is taken out of the node for
    // the call, so that nothing the call does (a Python backward may start
    // another pass) can destroy it while it runs; it goes back unless this
    // pass releases the graph, and always when the call fails, so a failed
    // pass leaves the graph as it was.
    void call(OpNode& op, BackwardContext& ctx) {
        if (!op.fn)
            throw GradError(std::string(who_) + ": the graph of " + op.name +
                            " was already used by a backward pass that released it; pass retain_graph=True to the first "
                            "backward");
        BackwardFn fn = std::move(op.fn);
        op.fn = nullptr;
        try {
            fn(ctx);
        } catch (...) {
            if (!op.fn) op.fn = std::move(fn);
            throw;
        }
        // Double backprop differentiates through this graph again.
        if ((retain_graph_ || create_graph_) && !op.fn) op.fn = std::move(fn);
    }

    const char* who_;
    bool retain_grad_, create_graph_, retain_graph_;
    const std::unordered_set<const VarNode*>* targets_;
    std::unordered_map<const VarNode*, Pending> pending_;
    std::unordered_map<const VarNode*, Array> results_;
    std::unordered_map<const OpNode*, bool> on_path_;
    std::unordered_set<const uint8_t*> given_;
    std::priority_queue<std::shared_ptr<OpNode>, std::vector<std::shared_ptr<OpNode>>, RankLess> heap_;
    std::unordered_set<const OpNode*> seen_;
};

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
        // The root keeps the gradient it started from, as in Chainer.
        root->grad = g0;
    }
    if (!root->creator) return;
    BackpropModeScope mode(enable_double_backprop);
    Engine engine("backward", retain_grad, enable_double_backprop, retain_graph, nullptr);
    engine.seed(root, g0);
    engine.run();
}

std::vector<Array> grad(const std::vector<Array>& outputs, const std::vector<Array>& inputs,
                        const std::vector<Array>& grad_outputs, bool retain_grad, bool enable_double_backprop,
                        bool retain_graph) {
    if (grad_outputs.size() != outputs.size())
        throw ShapeError("grad: grad_outputs has " + std::to_string(grad_outputs.size()) + " entries for " +
                         std::to_string(outputs.size()) + " outputs (one per output, None for the default)");
    std::unordered_set<const VarNode*> targets;
    for (const auto& x : inputs)
        if (x.defined() && x.requires_grad()) targets.insert(x.body()->node.get());
    BackpropModeScope mode(enable_double_backprop);
    Engine engine("grad", retain_grad, enable_double_backprop, retain_graph, &targets);
    for (size_t i = 0; i < outputs.size(); ++i) {
        const Array& y = outputs[i];
        Array g = grad_outputs[i];
        std::string which = "[" + std::to_string(i) + "]";
        if (g.defined()) {
            if (g.shape() != y.shape())
                throw ShapeError("grad: grad_outputs" + which + " has shape " + g.shape().str() + ", expected " +
                                 y.shape().str() + " (the shape of outputs" + which + ")");
            if (g.dtype() != y.dtype())
                throw DtypeError("grad: grad_outputs" + which + " has dtype " + dtype_name(g.dtype()) + ", expected " +
                                 dtype_name(y.dtype()) + " (the dtype of outputs" + which + ")");
        }
        if (!y.requires_grad()) continue;  // no graph: no path to any input
        if (!g.defined()) {
            if (y.size() != 1)
                throw GradError("grad: outputs" + which + " has shape " + y.shape().str() +
                                "; pass its gradient in grad_outputs (only one-element outputs default to ones)");
            g = ones(y.shape(), y.dtype());
        }
        engine.seed(y.body()->node, g);
    }
    engine.run();
    std::vector<Array> result;
    result.reserve(inputs.size());
    for (const auto& x : inputs) {
        Array g = x.defined() && x.requires_grad() ? engine.total(x.body()->node.get()) : Array();
        if (g.defined()) {
            // Without double backprop the result carries no graph, whatever a
            // backward function handed back.
            if (!enable_double_backprop && g.requires_grad()) g = g.as_data();
            if (!g.writeable() || !engine.claim(g.data().get())) g = copy(g);
        }
        result.push_back(std::move(g));
    }
    return result;
}

}  // namespace cn
