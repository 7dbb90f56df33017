// Derivative rules: the programs chainer-core declares for the ops with graph
// kernels (backend_api.rules), compiled once and executed by the graph in C++
// through the rule kernels below, so that those ops need no backward of their
// own and no Python runs per node.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "array.h"
#include "graph.h"
#include "reduction.h"

namespace cn {

// A parameter value: None, a bool, an int, a float, a tuple of ints (shapes,
// axes) or a dtype.
using Value = std::variant<std::monostate, bool, int64_t, double, std::vector<int64_t>, Dtype>;

// The parameters of one rule-kernel call, looked up by name; the accessors
// refuse a value of another kind, naming the kernel and the parameter.
class Params {
public:
    Params(const std::string& kernel, const std::vector<std::string>& names, const std::vector<Value>& values)
        : kernel_(kernel), names_(names), values_(values) {}

    const std::string& kernel() const { return kernel_; }
    const Value& get(std::string_view name) const;
    bool flag(std::string_view name) const;
    Dtype dtype(std::string_view name) const;
    Scalar scalar(std::string_view name) const;
    std::vector<int64_t> ints(std::string_view name) const;
    // None, an int or a tuple of ints.
    Axes axes(std::string_view name) const;

private:
    [[noreturn]] void wrong(std::string_view name, const char* expected) const;

    const std::string& kernel_;
    const std::vector<std::string>& names_;
    const std::vector<Value>& values_;
};

using RuleKernel = std::function<std::vector<Array>(const std::vector<Array>& arrays, const Params& params)>;

// The rule kernels chainer-core declares, implemented natively with the
// library's differentiable routines (double backprop records through them).
const RuleKernel* find_rule_kernel(const std::string& name);

// Operand kinds of an instruction, numbered as in backend_api.rules.
enum class Operand : int { X = 0, Y, GY, XShape, XDtype, Param, Slot, Const };

struct Ref {
    Operand kind = Operand::Const;
    int64_t index = 0;  // input, output, parameter or slot number
    Value literal;      // Const only
};

struct Instruction {
    std::string kernel;
    const RuleKernel* fn = nullptr;  // resolved by install_program
    std::vector<Ref> args;
    std::vector<std::string> param_names;
    std::vector<Ref> params;
    std::vector<int64_t> outs;
};

// Programs are planned for every subset of inputs whose gradients are wanted.
constexpr size_t kMaxRuleInputs = 8;

struct Program {
    std::string name;                 // the graph kernel's
    std::vector<std::string> params;  // the graph kernel's parameter names, in order
    int64_t n_slots = 0;
    std::vector<Instruction> instructions;
    std::vector<int64_t> grads;  // per input: the slot of its gradient, or -1
    std::vector<int64_t> retain_inputs, retain_outputs;  // derived by install_program
    // Per bit mask of wanted input gradients, the instructions to run, in
    // order (made by install_program).
    std::vector<std::vector<uint32_t>> plans;
};

// Checks p (slot and parameter numbers in range, every kernel known),
// derives which inputs and outputs it retains and makes it the rule of
// p.name. A replaced
// program stays alive for the ops recorded with it.
void install_program(Program p);

// Called when record_rule meets an op without a program: it installs the
// core's rules.
void set_rule_source(std::function<void()> source);

// Installs the rules chainer-core declared when builtin_rules.cc was
// generated (tools/gen_builtin_rules.py; a test checks that they still
// match): what record_rule falls back on when no source is set, that is in a
// program without Python.
void install_builtin_rules();

// Records an op whose backward evaluates the program of `rule_name`, with
// `params` the op's graph-kernel parameters in declared order.
std::shared_ptr<OpNode> record_rule(const std::string& rule_name, const std::vector<Array>& inputs,
                                    const std::vector<Array>& outputs, std::vector<Value> params);

}  // namespace cn
