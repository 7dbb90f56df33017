// Autograd in C++: variable nodes (one per array that requires grad), op
// nodes with a backward closure, the backward engine (shared by
// Array::backward and grad) and the backprop mode.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "array.h"

namespace cn {

struct OpNode;

struct VarNode {
    std::shared_ptr<OpNode> creator;  // null for a leaf
    int64_t rank = 0;
    Array grad;                        // leaf gradient, or a retained one
    Shape shape;
    Dtype dtype = Dtype::Float32;
};

struct BackwardContext {
    std::vector<Array> gys;   // per output; undefined means zero
    std::vector<Array> gxs;   // per input, set by the backward function
    std::vector<char> need;   // per input: whether its gradient is wanted
    bool create_graph = false;
    const OpNode* node = nullptr;
    // The node as the graph owns it: views connected to its outputs
    // (output_node) are made from it under double backprop.
    const std::shared_ptr<OpNode>* op = nullptr;

    // The output gradient i (zeros when no gradient reached that output).
    Array gy(int i = 0);
    bool needs(int i) const { return need[i] != 0; }
    // The node of input i, whose shape and dtype its gradient takes (set
    // wherever needs(i)).
    const VarNode& input(int i) const;
    void set(int i, Array g) { gxs[i] = std::move(g); }
};

using BackwardFn = std::function<void(BackwardContext&)>;

struct OpNode {
    std::string name;  // owned: ops recorded from Python name themselves
    int64_t rank = 0;
    std::vector<std::shared_ptr<VarNode>> inputs;  // null where no grad is needed
    std::vector<std::weak_ptr<VarNode>> outputs;  // empty for outputs of non-float dtype
    std::vector<std::pair<Shape, Dtype>> output_meta;
    BackwardFn fn;  // reset once run, releasing what it retained

    // Releases inputs and fn iteratively (see graph.cc).
    ~OpNode();
};

// Whether ops record the graph on this thread.
bool backprop_enabled();
// Sets the mode and returns the previous one.
bool set_backprop_enabled(bool on);

struct BackpropModeScope {
    explicit BackpropModeScope(bool on) : prev_(set_backprop_enabled(on)) {}
    ~BackpropModeScope() { set_backprop_enabled(prev_); }
    bool prev_;
};

inline bool needs_graph(std::initializer_list<const Array*> inputs) {
    bool any = false;
    for (auto* a : inputs)
        if (a->defined() && a->requires_grad()) { any = true; break; }
    return any && backprop_enabled();
}

// Records an op node whose outputs are `outputs` (fresh arrays, each given a
// new VarNode; outputs of non-float dtype get none and no gradient).
std::shared_ptr<OpNode> record_op(std::string name, const std::vector<Array>& inputs, const std::vector<Array>& outputs,
                                  BackwardFn fn);

// A VarNode for output i of op: the live one, else a new one created by op
// (stored back, so that gradients reaching it flow into op). Null for outputs
// of non-float dtype.
std::shared_ptr<VarNode> output_node(const std::shared_ptr<OpNode>& op, size_t i);

// Makes v a leaf: gradients stop at it and accumulate in its grad. Its
// creator forgets it as an output (a later pass through the creator must not
// take a gradient pending at v).
void unchain(VarNode& v);

// Cuts the graph behind v (Chainer's unchain_backward, used for truncated
// backprop): every op v depends on loses its inputs and backward function,
// and its live outputs, v among them, become leaves. The ops are freed once
// nothing else holds them.
void unchain_backward(VarNode& v);

// unchain_backward's step for one op: its live outputs become leaves, and
// its inputs and backward function are released.
void unchain_op(OpNode& op);

// The gradients of `outputs` (weighted by grad_outputs, one per output;
// undefined means ones for a one-element output) with respect to `inputs`,
// one per input, undefined where no path leads; no leaf's grad is touched.
// Inputs and outputs without a node take no part. Gradients returned share
// no buffer with each other or with grad_outputs.
std::vector<Array> grad(const std::vector<Array>& outputs, const std::vector<Array>& inputs,
                        const std::vector<Array>& grad_outputs, bool retain_grad, bool enable_double_backprop,
                        bool retain_graph);

}  // namespace cn
