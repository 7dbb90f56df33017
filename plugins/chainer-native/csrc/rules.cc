#include "rules.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "errors.h"

namespace cn {

namespace {

const char* kind_name(const Value& v) {
    switch (v.index()) {
        case 0: return "None";
        case 1: return "a bool";
        case 2: return "an int";
        case 3: return "a float";
        case 4: return "a tuple of ints";
        default: return "a dtype";
    }
}

struct Registry {
    std::mutex mu;
    std::unordered_map<std::string, const Program*> by_name;
    std::vector<std::unique_ptr<const Program>> all;
    std::function<void()> source;
};

Registry& registry() {
    static Registry r;
    return r;
}

const Program* lookup(const std::string& name) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.by_name.find(name);
    return it == r.by_name.end() ? nullptr : it->second;
}

const Program& program_of(const std::string& name) {
    if (const Program* p = lookup(name)) return *p;
    std::function<void()> source;
    {
        Registry& r = registry();
        std::lock_guard<std::mutex> lock(r.mu);
        source = r.source;
    }
    if (source) source();
    if (const Program* p = lookup(name)) return *p;
    throw GradError("no derivative rule is installed for the op " + name +
                    "; derivative rules come from chainer_core (chainer_core.backend.derivative_rules()), which "
                    "could not provide one");
}

std::string where(const Program& p, size_t k) {
    return "derivative rule of " + p.name + ", instruction " + std::to_string(k) + " (" + p.instructions[k].kernel +
           ")";
}

void check_ref(const Program& p, size_t k, const Ref& r, bool array) {
    auto bad = [&](const std::string& what) { throw ShapeError(where(p, k) + ": " + what); };
    bool is_array = r.kind == Operand::X || r.kind == Operand::Y || r.kind == Operand::GY || r.kind == Operand::Slot;
    if (array != is_array) bad(array ? "an array argument is not an array" : "a parameter is an array");
    if (r.index < 0) bad("negative index " + std::to_string(r.index));
    if (r.kind == Operand::Slot && r.index >= p.n_slots) bad("slot " + std::to_string(r.index) + " is out of range");
    if (r.kind == Operand::Param && r.index >= static_cast<int64_t>(p.params.size()))
        bad("parameter " + std::to_string(r.index) + " is out of range");
}

// What record_rule keeps for backward.
struct RuleNode {
    const Program* program;
    std::vector<Value> params;
    std::vector<Array> xs;  // per input, defined where retained (with its node)
    std::vector<Array> ys;  // per output, defined where retained (data only)
    // Per input, for inputs without a node (they need no gradient, but a
    // rule may read their shape or dtype); empty when every input has one.
    std::vector<std::pair<Shape, Dtype>> meta;
};

const std::pair<Shape, Dtype>* input_meta(const RuleNode& r, const BackwardContext& c, int64_t i,
                                          std::pair<Shape, Dtype>& tmp) {
    if (i < 0 || i >= static_cast<int64_t>(c.node->inputs.size()))
        throw GradError("derivative rule of " + r.program->name + ": input " + std::to_string(i) + " of " +
                        c.node->name + " does not exist");
    if (const auto& n = c.node->inputs[i]) {
        tmp.first = n->shape;
        tmp.second = n->dtype;
        return &tmp;
    }
    return &r.meta[i];
}

Array array_of(const RuleNode& r, BackwardContext& c, const std::vector<Array>& slots, const Ref& ref) {
    switch (ref.kind) {
        case Operand::X:
            if (ref.index >= static_cast<int64_t>(r.xs.size()) || !r.xs[ref.index].defined())
                throw GradError("derivative rule of " + r.program->name + ": input " + std::to_string(ref.index) +
                                " of " + c.node->name + " was not recorded");
            return r.xs[ref.index];
        case Operand::Y: {
            if (ref.index >= static_cast<int64_t>(r.ys.size()))
                throw GradError("derivative rule of " + r.program->name + ": output " + std::to_string(ref.index) +
                                " of " + c.node->name + " was not recorded");
            const Array& y = r.ys[ref.index];
            if (!c.create_graph) return y;
            // Double backprop differentiates through the output: a view
            // that reaches the op, as retained outputs do in the core.
            Array v = y.as_data();
            v.body()->node = output_node(*c.op, static_cast<size_t>(ref.index));
            return v;
        }
        case Operand::GY:
            if (ref.index >= static_cast<int64_t>(c.gys.size()))
                throw GradError("derivative rule of " + r.program->name + ": output " + std::to_string(ref.index) +
                                " of " + c.node->name + " does not exist");
            return c.gy(static_cast<int>(ref.index));
        default:
            return slots[ref.index];
    }
}

Value value_of(const RuleNode& r, const BackwardContext& c, const Ref& ref) {
    std::pair<Shape, Dtype> tmp;
    switch (ref.kind) {
        case Operand::XShape: return input_meta(r, c, ref.index, tmp)->first.to_vector();
        case Operand::XDtype: return input_meta(r, c, ref.index, tmp)->second;
        case Operand::Param: return r.params[ref.index];
        default: return ref.literal;
    }
}

// The instructions that the gradients of the inputs in `mask` depend on, in
// order.
std::vector<uint32_t> plan_for(const Program& p, uint32_t mask) {
    std::vector<char> live(p.n_slots, 0);
    for (size_t i = 0; i < p.grads.size(); ++i)
        if ((mask >> i & 1u) && p.grads[i] >= 0) live[p.grads[i]] = 1;
    std::vector<uint32_t> plan;
    for (size_t k = p.instructions.size(); k-- > 0;) {
        const Instruction& ins = p.instructions[k];
        bool any = false;
        for (auto s : ins.outs) any = any || live[s];
        if (!any) continue;
        plan.push_back(static_cast<uint32_t>(k));
        for (const auto& a : ins.args)
            if (a.kind == Operand::Slot) live[a.index] = 1;
    }
    std::reverse(plan.begin(), plan.end());
    return plan;
}

void run(const RuleNode& r, BackwardContext& c) {
    const Program& p = *r.program;
    size_t n_in = std::min(c.need.size(), p.grads.size());
    uint32_t mask = 0;
    for (size_t i = 0; i < n_in; ++i)
        if (c.needs(static_cast<int>(i))) mask |= 1u << i;
    std::vector<Array> slots(p.n_slots);
    std::vector<Array> args;
    std::vector<Value> values;
    for (uint32_t k : p.plans[mask]) {
        const Instruction& ins = p.instructions[k];
        args.clear();
        values.clear();
        for (const auto& a : ins.args) args.push_back(array_of(r, c, slots, a));
        for (const auto& v : ins.params) values.push_back(value_of(r, c, v));
        std::vector<Array> outs = (*ins.fn)(args, Params(ins.kernel, ins.param_names, values));
        if (outs.size() != ins.outs.size())
            throw GradError(where(p, k) + ": the kernel returned " + std::to_string(outs.size()) + " arrays for " +
                            std::to_string(ins.outs.size()) + " targets");
        for (size_t j = 0; j < outs.size(); ++j) slots[ins.outs[j]] = std::move(outs[j]);
    }
    for (size_t i = 0; i < n_in; ++i)
        if (c.needs(static_cast<int>(i)) && p.grads[i] >= 0) c.set(static_cast<int>(i), slots[p.grads[i]]);
}

}  // namespace

const Value& Params::get(std::string_view name) const {
    for (size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name) return values_[i];
    throw ShapeError("rule kernel " + kernel_ + ": the parameter " + std::string(name) + " is missing");
}

void Params::wrong(std::string_view name, const char* expected) const {
    throw DtypeError("rule kernel " + kernel_ + ": the parameter " + std::string(name) + " is " + kind_name(get(name)) +
                     ", expected " + expected);
}

bool Params::flag(std::string_view name) const {
    const Value& v = get(name);
    if (auto b = std::get_if<bool>(&v)) return *b;
    wrong(name, "a bool");
}

Dtype Params::dtype(std::string_view name) const {
    const Value& v = get(name);
    if (auto d = std::get_if<Dtype>(&v)) return *d;
    wrong(name, "a dtype");
}

Scalar Params::scalar(std::string_view name) const {
    const Value& v = get(name);
    if (auto b = std::get_if<bool>(&v)) return Scalar::of_bool(*b);
    if (auto i = std::get_if<int64_t>(&v)) return Scalar::of_int(*i);
    if (auto f = std::get_if<double>(&v)) return Scalar::of_float(*f);
    wrong(name, "a number");
}

std::vector<int64_t> Params::ints(std::string_view name) const {
    const Value& v = get(name);
    if (auto s = std::get_if<std::vector<int64_t>>(&v)) return *s;
    wrong(name, "a tuple of ints");
}

Axes Params::axes(std::string_view name) const {
    const Value& v = get(name);
    if (std::holds_alternative<std::monostate>(v)) return std::nullopt;
    if (auto i = std::get_if<int64_t>(&v)) return std::vector<int64_t>{*i};
    if (auto s = std::get_if<std::vector<int64_t>>(&v)) return *s;
    wrong(name, "None, an int or a tuple of ints");
}

void install_program(Program p) {
    if (p.n_slots < 0) throw ShapeError("derivative rule of " + p.name + ": negative slot count");
    if (p.grads.size() > kMaxRuleInputs)
        throw ShapeError("derivative rule of " + p.name + ": " + std::to_string(p.grads.size()) +
                         " inputs; chainer_native takes rules of at most " + std::to_string(kMaxRuleInputs));
    p.retain_inputs.clear();
    p.retain_outputs.clear();
    for (auto s : p.grads)
        if (s >= p.n_slots) throw ShapeError("derivative rule of " + p.name + ": gradient slot " + std::to_string(s) + " is out of range");
    for (size_t k = 0; k < p.instructions.size(); ++k) {
        Instruction& ins = p.instructions[k];
        ins.fn = find_rule_kernel(ins.kernel);
        if (!ins.fn)
            throw GradError("derivative rule of " + p.name + ": chainer_native has no rule kernel " + ins.kernel);
        if (ins.param_names.size() != ins.params.size())
            throw ShapeError(where(p, k) + ": " + std::to_string(ins.param_names.size()) + " parameter names for " +
                             std::to_string(ins.params.size()) + " values");
        for (const auto& a : ins.args) {
            check_ref(p, k, a, true);
            if (a.kind == Operand::X) p.retain_inputs.push_back(a.index);
            if (a.kind == Operand::Y) p.retain_outputs.push_back(a.index);
        }
        for (const auto& v : ins.params) check_ref(p, k, v, false);
        for (auto s : ins.outs)
            if (s < 0 || s >= p.n_slots) throw ShapeError(where(p, k) + ": target slot " + std::to_string(s) + " is out of range");
    }
    for (auto* v : {&p.retain_inputs, &p.retain_outputs}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    p.plans.clear();
    for (uint32_t mask = 0; mask < (1u << p.grads.size()); ++mask) p.plans.push_back(plan_for(p, mask));
    auto owned = std::make_unique<const Program>(std::move(p));
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.by_name[owned->name] = owned.get();
    r.all.push_back(std::move(owned));
}

void set_rule_source(std::function<void()> source) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.source = std::move(source);
}

std::shared_ptr<OpNode> record_rule(const std::string& rule_name, const std::vector<Array>& inputs,
                                    const std::vector<Array>& outputs, std::vector<Value> params) {
    const Program& p = program_of(rule_name);
    if (params.size() != p.params.size())
        throw GradError("derivative rule of " + rule_name + ": the op was recorded with " + std::to_string(params.size()) +
                        " parameters, the rule takes " + std::to_string(p.params.size()));
    RuleNode r{&p, std::move(params), {}, {}, {}};
    if (!p.retain_inputs.empty()) {
        r.xs.resize(inputs.size());
        for (auto i : p.retain_inputs)
            if (i < static_cast<int64_t>(inputs.size())) r.xs[i] = inputs[i];
    }
    if (!p.retain_outputs.empty()) {
        r.ys.resize(outputs.size());
        for (auto j : p.retain_outputs)
            if (j < static_cast<int64_t>(outputs.size())) r.ys[j] = outputs[j].as_data();
    }
    for (const auto& x : inputs) {
        if (x.defined() && x.requires_grad()) continue;
        r.meta.resize(inputs.size());
        for (size_t i = 0; i < inputs.size(); ++i)
            if (inputs[i].defined()) r.meta[i] = {inputs[i].shape(), inputs[i].dtype()};
        break;
    }
    return record_op(rule_name, inputs, outputs, [r = std::move(r)](BackwardContext& c) { run(r, c); });
}

}  // namespace cn
