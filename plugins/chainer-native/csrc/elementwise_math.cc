// Unary math: negative, absolute, sign, square, sqrt, exp, log, ..., tanh,
// sigmoid, relu; their gradients and the fused first-order grad kernels.
#include <cmath>
#include <type_traits>

#include "elementwise.h"
#include "elementwise_internal.h"
#include "graph.h"
#include "loops.h"
#include "rules.h"

namespace cn {

namespace {

const char* op_name(UnaryOp op) {
    static const char* names[] = {"negative", "absolute", "sign", "square", "sqrt", "exp", "log", "log2", "log10",
                                  "log1p", "expm1", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "reciprocal",
                                  "floor", "ceil", "arcsin", "arccos", "arctan", "sinh", "cosh", "rsqrt"};
    return names[static_cast<int>(op)];
}

// Ops that keep integer dtypes (the rest compute in math_dtype).
bool keeps_dtype(UnaryOp op) {
    switch (op) {
        case UnaryOp::Neg: case UnaryOp::Abs: case UnaryOp::Sign: case UnaryOp::Square: case UnaryOp::Relu:
        case UnaryOp::Floor: case UnaryOp::Ceil:
            return true;
        default:
            return false;
    }
}

template <typename C> inline C sigmoid_of(C x) { return static_cast<C>(C(0.5) * std::tanh(C(0.5) * x) + C(0.5)); }

template <typename T>
void run_int_like(UnaryOp op, const Array& a, const Array& out) {
    using C = Compute<T>;
    const Strides& s = a.strides();
    switch (op) {
        case UnaryOp::Neg: unary_loop<T, T>(a, s, out, [](C x) { return static_cast<C>(-x); }); break;
        case UnaryOp::Abs:
            unary_loop<T, T>(a, s, out, [](C x) {
                if constexpr (std::is_same<C, bool>::value) return x;
                else return static_cast<C>(x < 0 ? -x : x);
            });
            break;
        case UnaryOp::Sign:
            unary_loop<T, T>(a, s, out, [](C x) {
                if constexpr (std::is_same<C, bool>::value) {
                    return x;
                } else {
                    if constexpr (std::is_floating_point<C>::value)
                        if (std::isnan(x)) return x;
                    return static_cast<C>(x > 0 ? 1 : (x < 0 ? -1 : 0));
                }
            });
            break;
        case UnaryOp::Square: unary_loop<T, T>(a, s, out, [](C x) { return static_cast<C>(x * x); }); break;
        // NaN fails the comparison and passes through, as in NumPy's maximum(x, 0).
        case UnaryOp::Relu: unary_loop<T, T>(a, s, out, [](C x) { return x <= 0 ? static_cast<C>(0) : x; }); break;
        case UnaryOp::Floor:
            unary_loop<T, T>(a, s, out, [](C x) {
                if constexpr (std::is_floating_point<C>::value) return std::floor(x);
                else return x;
            });
            break;
        case UnaryOp::Ceil:
            unary_loop<T, T>(a, s, out, [](C x) {
                if constexpr (std::is_floating_point<C>::value) return std::ceil(x);
                else return x;
            });
            break;
        default: break;
    }
}

template <typename T>
void run_float(UnaryOp op, const Array& a, const Array& out) {
    using C = Compute<T>;
    const Strides& s = a.strides();
    switch (op) {
        case UnaryOp::Sqrt: unary_loop<T, T>(a, s, out, [](C x) { return std::sqrt(x); }); break;
        case UnaryOp::Exp: unary_loop<T, T>(a, s, out, [](C x) { return std::exp(x); }); break;
        case UnaryOp::Log: unary_loop<T, T>(a, s, out, [](C x) { return std::log(x); }); break;
        case UnaryOp::Log2: unary_loop<T, T>(a, s, out, [](C x) { return std::log2(x); }); break;
        case UnaryOp::Log10: unary_loop<T, T>(a, s, out, [](C x) { return std::log10(x); }); break;
        case UnaryOp::Log1p: unary_loop<T, T>(a, s, out, [](C x) { return std::log1p(x); }); break;
        case UnaryOp::Expm1: unary_loop<T, T>(a, s, out, [](C x) { return std::expm1(x); }); break;
        case UnaryOp::Sin: unary_loop<T, T>(a, s, out, [](C x) { return std::sin(x); }); break;
        case UnaryOp::Cos: unary_loop<T, T>(a, s, out, [](C x) { return std::cos(x); }); break;
        case UnaryOp::Tan: unary_loop<T, T>(a, s, out, [](C x) { return std::tan(x); }); break;
        case UnaryOp::Tanh: unary_loop<T, T>(a, s, out, [](C x) { return std::tanh(x); }); break;
        case UnaryOp::Sigmoid: unary_loop<T, T>(a, s, out, [](C x) { return sigmoid_of(x); }); break;
        case UnaryOp::Reciprocal: unary_loop<T, T>(a, s, out, [](C x) { return C(1) / x; }); break;
        case UnaryOp::Arcsin: unary_loop<T, T>(a, s, out, [](C x) { return std::asin(x); }); break;
        case UnaryOp::Arccos: unary_loop<T, T>(a, s, out, [](C x) { return std::acos(x); }); break;
        case UnaryOp::Arctan: unary_loop<T, T>(a, s, out, [](C x) { return std::atan(x); }); break;
        case UnaryOp::Sinh: unary_loop<T, T>(a, s, out, [](C x) { return std::sinh(x); }); break;
        case UnaryOp::Cosh: unary_loop<T, T>(a, s, out, [](C x) { return std::cosh(x); }); break;
        case UnaryOp::Rsqrt: unary_loop<T, T>(a, s, out, [](C x) { return C(1) / std::sqrt(x); }); break;
        default: run_int_like<T>(op, a, out); break;
    }
}

Array sc(const Array& like, double v) { return scalar_array(v, like.dtype()); }

// The derivative rule of op, for those the core declares with a graph kernel.
const char* rule_of(UnaryOp op) {
    switch (op) {
        case UnaryOp::Neg: return "neg";
        case UnaryOp::Exp: return "exp";
        case UnaryOp::Log: return "log";
        case UnaryOp::Relu: return "relu";
        case UnaryOp::Sigmoid: return "sigmoid";
        case UnaryOp::Tanh: return "tanh";
        default: return nullptr;
    }
}

void record_unary(UnaryOp op, const Array& a, const Array& y) {
    if (const char* rule = rule_of(op)) {
        record_rule(rule, {a}, {y}, {});
        return;
    }
    // Outputs are retained as data only (no node: that would be a cycle);
    // double backprop recomputes them from the input instead.
    Array yd = y.as_data();
    auto fn = [op, a, yd](BackwardContext& c) {
        Array gy = c.gy();
        auto y_ = [&]() { return c.create_graph ? unary(op, a) : yd; };
        Array g;
        switch (op) {
            case UnaryOp::Abs: g = multiply(gy, unary(UnaryOp::Sign, a.as_data())); break;
            case UnaryOp::Square: g = multiply(gy, multiply(a, sc(a, 2.0))); break;
            case UnaryOp::Sqrt: g = divide(gy, multiply(y_(), sc(a, 2.0))); break;
            case UnaryOp::Log2: g = divide(gy, multiply(a, sc(a, std::log(2.0)))); break;
            case UnaryOp::Log10: g = divide(gy, multiply(a, sc(a, std::log(10.0)))); break;
            case UnaryOp::Log1p: g = divide(gy, add(a, sc(a, 1.0))); break;
            case UnaryOp::Expm1: g = multiply(gy, exp(a)); break;
            case UnaryOp::Sin: g = multiply(gy, unary(UnaryOp::Cos, a)); break;
            case UnaryOp::Cos: g = negative(multiply(gy, unary(UnaryOp::Sin, a))); break;
            case UnaryOp::Tan: {
                Array cs = unary(UnaryOp::Cos, a);
                g = divide(gy, multiply(cs, cs));
                break;
            }
            case UnaryOp::Reciprocal: g = negative(divide(gy, multiply(a, a))); break;
            case UnaryOp::Arcsin:
                g = divide(gy, sqrt(subtract(sc(a, 1.0), multiply(a, a))));
                break;
            case UnaryOp::Arccos:
                g = negative(divide(gy, sqrt(subtract(sc(a, 1.0), multiply(a, a)))));
                break;
            case UnaryOp::Arctan: g = divide(gy, add(sc(a, 1.0), multiply(a, a))); break;
            case UnaryOp::Sinh: g = multiply(gy, unary(UnaryOp::Cosh, a)); break;
            case UnaryOp::Cosh: g = multiply(gy, unary(UnaryOp::Sinh, a)); break;
            case UnaryOp::Rsqrt: {
                Array r = y_();
                g = multiply(gy, multiply(multiply(r, multiply(r, r)), sc(a, -0.5)));
                break;
            }
            default: return;  // sign, floor, ceil: zero gradient
        }
        c.set(0, g.dtype() == a.dtype() ? g : astype(g, a.dtype(), false));
    };
    record_op(op_name(op), {a}, {y}, std::move(fn));
}

}  // namespace

Array unary(UnaryOp op, const Array& a) {
    if (a.dtype() == Dtype::Bool && (op == UnaryOp::Neg || op == UnaryOp::Sign))
        throw DtypeError(std::string(op_name(op)) + ": not supported for boolean arrays");
    Dtype rt = keeps_dtype(op) ? a.dtype() : math_dtype(a.dtype());
    Array src = a.dtype() == rt ? a : contiguous_as(a, rt);
    Array out = Array::empty(a.shape(), rt);
    if (keeps_dtype(op)) {
        dispatch(rt, [&](auto tag) { run_int_like<typename decltype(tag)::type>(op, src, out); });
    } else {
        dispatch_float(rt, op_name(op), [&](auto tag) { run_float<typename decltype(tag)::type>(op, src, out); });
    }
    if (is_float(a.dtype()) && needs_graph({&a}) && op != UnaryOp::Sign && op != UnaryOp::Floor && op != UnaryOp::Ceil)
        record_unary(op, a, out);
    return out;
}

namespace {
template <typename Fn>
Array grad_kernel(const char* name, const Array& y, const Array& gy, Fn fn) {
    if (y.shape() != gy.shape())
        throw ShapeError(std::string(name) + ": gy has shape " + gy.shape().str() + ", expected " + y.shape().str());
    Array gyc = gy.dtype() == y.dtype() ? gy : contiguous_as(gy, y.dtype());
    Array out = Array::empty(y.shape(), y.dtype());
    dispatch_float(y.dtype(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        binary_loop<T, T>(y, y.strides(), gyc, gyc.strides(), out, [&](C a, C b) { return fn(a, b); });
    });
    return out;
}
}  // namespace

Array relu_grad(const Array& y, const Array& gy) {
    // A product, not a select: gy * 0 keeps a NaN or infinite gy as NaN (and
    // a negative gy as -0), as the reference's gy * (y > 0) does. The quiet
    // comparison lets the compiler vectorize: with `>` (which may raise an FP
    // exception) it keeps one branch per element, mispredicted on random signs.
    return grad_kernel("relu_grad", y, gy, [](auto yv, auto g) {
        return g * decltype(g)(__builtin_isgreater(yv, decltype(yv)(0)));
    });
}

Array sigmoid_grad(const Array& y, const Array& gy) {
    return grad_kernel("sigmoid_grad", y, gy, [](auto yv, auto g) { return g * yv * (decltype(g)(1) - yv); });
}

Array tanh_grad(const Array& y, const Array& gy) {
    return grad_kernel("tanh_grad", y, gy, [](auto yv, auto g) { return g * (decltype(g)(1) - yv * yv); });
}

}  // namespace cn
