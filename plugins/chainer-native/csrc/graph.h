// Autograd in C++: variable nodes (one per array that requires grad), op
// nodes with a backward closure, the backward engine and the backprop mode.
#pragma once

#include <functional>
#include <memory>
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

    // The output gradient i (zeros when no gradient reached that output).
    Array gy(int i = 0);
    bool needs(int i) const { return need[i] != 0; }
    void set(int i, Array g) { gxs[i] = std::move(g); }
};

using BackwardFn = std::function<void(BackwardContext&)>;

struct OpNode {
    const char* name = "";
    int64_t rank = 0;
    std::vector<std::shared_ptr<VarNode>> inputs;  // null where no grad is needed
    std::vector<std::weak_ptr<VarNode>> outputs;
    std::vector<std::pair<Shape, Dtype>> output_meta;
    BackwardFn fn;  // reset once run, releasing what it retained
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

// Records an op node whose outputs are `outputs` (fresh arrays of float dtype).
void record_op(const char* name, const std::vector<Array>& inputs, const std::vector<Array>& outputs, BackwardFn fn);

}  // namespace cn
