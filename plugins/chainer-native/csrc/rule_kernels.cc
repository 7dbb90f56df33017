// The rule kernels of chainer-core's derivative rules (see rules.h), each
// agreeing with the docstring of the core's Python implementation. They are
// built from differentiable routines so that, under double backprop, what
// they compute is recorded; the fused first-order kernels serve where no
// operand needs a graph.
#include <unordered_map>

#include "creation.h"
#include "elementwise.h"
#include "errors.h"
#include "linalg.h"
#include "manipulation.h"
#include "reduction.h"
#include "rules.h"

namespace cn {

namespace {

using Arrays = std::vector<Array>;

Arrays one(Array a) { return Arrays{std::move(a)}; }

// A kernel taking n arrays; a program that passes another number (a rule
// the core declared differently) is refused instead of read out of range.
template <typename F>
RuleKernel K(size_t n, F f) {
    return [n, f](const Arrays& a, const Params& p) -> Arrays {
        if (a.size() != n)
            throw GradError("rule kernel " + p.kernel() + " takes " + std::to_string(n) + " arrays, got " +
                            std::to_string(a.size()));
        return f(a, p);
    };
}

Array swap_last(const Array& a, bool swap) { return swap ? swapaxes(a, -1, -2) : a; }

// Fused first-order kernel, or the same formula in differentiable routines.
template <typename Fused, typename Composed>
Arrays output_grad(const Arrays& a, bool graph, Fused fused, Composed composed) {
    const Array &y = a[0], &gy = a[1];
    if (!graph) return one(fused(y, gy));
    Array g = composed(y, gy);
    return one(g.dtype() == y.dtype() ? g : astype(g, y.dtype(), false));
}

Array one_like(const Array& y) { return scalar_array(1.0, y.dtype()); }

const std::unordered_map<std::string, RuleKernel>& table() {
    static const std::unordered_map<std::string, RuleKernel> kernels = {
        {"identity", K(1, [](const Arrays& a, const Params&) { return one(a[0]); })},
        {"neg", K(1, [](const Arrays& a, const Params&) { return one(negative(a[0])); })},
        {"add", K(2, [](const Arrays& a, const Params&) { return one(add(a[0], a[1])); })},
        {"sub", K(2, [](const Arrays& a, const Params&) { return one(subtract(a[0], a[1])); })},
        {"mul", K(2, [](const Arrays& a, const Params&) { return one(multiply(a[0], a[1])); })},
        {"div", K(2, [](const Arrays& a, const Params&) { return one(divide(a[0], a[1])); })},
        {"exp", K(1, [](const Arrays& a, const Params&) { return one(exp(a[0])); })},
        {"mul_constant",
         K(1, [](const Arrays& a, const Params& p) { return one(binary(BinaryOp::Mul, a[0], p.scalar("value"))); })},
        {"div_from_constant_grad",
         K(2, [](const Arrays& a, const Params& p) {
             const Array &x = a[0], &gy = a[1];
             return one(multiply(binary(BinaryOp::Div, p.scalar("value").negated(), multiply(x, x)), gy));
         })},
        {"div_grad",
         K(3, [](const Arrays& a, const Params&) {
             const Array &x0 = a[0], &x1 = a[1], &gy = a[2];
             Array g0 = divide(gy, x1);
             Array g1 = negative(divide(multiply(g0, x0), x1));
             return Arrays{sum_to(g0, x0.shape()), sum_to(g1, x1.shape())};
         })},
        {"sum_to", K(1, [](const Arrays& a, const Params& p) { return one(sum_to(a[0], Shape(p.ints("shape")))); })},
        {"broadcast_to",
         K(1, [](const Arrays& a, const Params& p) {
             Shape s(p.ints("shape"));
             return one(a[0].shape() == s ? a[0] : broadcast_to(a[0], s));
         })},
        {"sum", K(1, [](const Arrays& a, const Params& p) { return one(sum(a[0], p.axes("axis"), p.flag("keepdims"))); })},
        {"unsum",
         K(1, [](const Arrays& a, const Params& p) {
             Array g = a[0];
             Axes axis = p.axes("axis");
             std::vector<int64_t> shape = p.ints("shape");
             if (!p.flag("keepdims")) {
                 std::vector<int64_t> kept;
                 if (axis) {
                     kept = g.shape().to_vector();
                     for (auto ax : *axis) {
                         if (ax < 0 || ax > static_cast<int64_t>(kept.size()))
                             throw ShapeError("rule kernel unsum: axis " + std::to_string(ax) +
                                              " is not a normalised axis of shape " + Shape(shape).str());
                         kept.insert(kept.begin() + ax, 1);
                     }
                 } else {
                     kept.assign(shape.size(), 1);
                 }
                 g = reshape(g, kept);
             }
             Shape s(shape);
             return one(g.shape() == s ? g : broadcast_to(g, s));
         })},
        {"reshape", K(1, [](const Arrays& a, const Params& p) {
             std::vector<int64_t> s = p.ints("shape");
             return one(a[0].shape() == Shape(s) ? a[0] : reshape(a[0], s));
         })},
        {"untranspose",
         K(1, [](const Arrays& a, const Params& p) {
             Axes axes = p.axes("axes");
             if (!axes) return one(transpose(a[0], std::nullopt));
             int64_t n = static_cast<int64_t>(axes->size());
             std::vector<int64_t> inv(n);
             for (int64_t i = 0; i < n; ++i) inv[(((*axes)[i] % n) + n) % n] = i;
             return one(transpose(a[0], inv));
         })},
        {"relu_grad",
         K(2, [](const Arrays& a, const Params&) {
             // Differentiable in gy only: the mask is data.
             return output_grad(a, needs_graph({&a[1]}), relu_grad, [](const Array& y, const Array& gy) {
                 Array mask = astype(compare(CompareOp::Gt, y.as_data(), scalar_array(0.0, y.dtype())), gy.dtype(), true);
                 return multiply(gy, mask);
             });
         })},
        {"sigmoid_grad",
         K(2, [](const Arrays& a, const Params&) {
             return output_grad(a, needs_graph({&a[0], &a[1]}), sigmoid_grad, [](const Array& y, const Array& gy) {
                 return multiply(multiply(gy, y), subtract(one_like(y), y));
             });
         })},
        {"tanh_grad",
         K(2, [](const Arrays& a, const Params&) {
             return output_grad(a, needs_graph({&a[0], &a[1]}), tanh_grad, [](const Array& y, const Array& gy) {
                 return multiply(gy, subtract(one_like(y), multiply(y, y)));
             });
         })},
        {"matmul",
         K(2, [](const Arrays& a, const Params& p) {
             return one(matmul(swap_last(a[0], p.flag("transa")), swap_last(a[1], p.flag("transb"))));
         })},
        {"matmul_grad_a",
         K(2, [](const Arrays& a, const Params& p) {
             const Array &gy = a[0], &b = a[1];
             bool ta = p.flag("transa"), tb = p.flag("transb");
             if (ta) return one(matmul(swap_last(b, tb), swap_last(gy, true)));
             return one(matmul(gy, swap_last(b, !tb)));
         })},
        {"matmul_grad_b",
         K(2, [](const Arrays& a, const Params& p) {
             const Array &x = a[0], &gy = a[1];
             bool ta = p.flag("transa"), tb = p.flag("transb");
             if (tb) return one(matmul(swap_last(gy, true), swap_last(x, ta)));
             return one(matmul(swap_last(x, !ta), gy));
         })},
        {"cast", K(1, [](const Arrays& a, const Params& p) { return one(astype(a[0], p.dtype("dtype"), false)); })},
    };
    return kernels;
}

}  // namespace

const RuleKernel* find_rule_kernel(const std::string& name) {
    const auto& t = table();
    auto it = t.find(name);
    return it == t.end() ? nullptr : &it->second;
}

}  // namespace cn
