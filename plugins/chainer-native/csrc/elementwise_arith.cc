// Binary arithmetic: add, subtract, multiply, divide, power, maximum,
// minimum, floor_divide, remainder; their gradients; in-place forms.
#include <cmath>
#include <type_traits>
#include <unordered_set>

#include "creation.h"
#include "elementwise.h"
#include "elementwise_internal.h"
#include "graph.h"
#include "loops.h"
#include "rules.h"

namespace cn {

namespace {

template <typename C> inline bool nan_of(C v) {
    if constexpr (std::is_floating_point<C>::value) return std::isnan(v);
    else return false;
}

template <typename C> inline C ipow(C base, C exp) {
    if constexpr (std::is_floating_point<C>::value) {
        return std::pow(base, exp);
    } else if constexpr (std::is_same<C, bool>::value) {
        return exp ? base : true;
    } else {
        if (exp < 0) return base == 1 ? C(1) : (base == C(-1) ? ((exp & 1) ? C(-1) : C(1)) : C(0));
        C r = 1;
        while (exp) {
            if (exp & 1) r = static_cast<C>(r * base);
            base = static_cast<C>(base * base);
            exp >>= 1;
        }
        return r;
    }
}

// NumPy's float32 and float64 power computes a single exponent (one element,
// broadcast) of -1, 0, 0.5, 1 or 2 by the matching cheaper formula instead
// of pow(). Two of them differ from pow() beyond rounding: (-inf) ** 0.5 is
// NaN by sqrt and +inf by pow, (-0.0) ** 0.5 is -0.0 by sqrt. Following the
// same formulas gives NumPy's bits; false when no formula applies.
template <typename T>
bool pow_by_single_exponent(const Array& a, const Strides& as, const Array& b, const Array& out) {
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
        if (b.size() != 1) return false;
        const T e = *b.ptr<T>();
        if (e == T(-1)) unary_loop<T, T>(a, as, out, [](T x) { return T(1) / x; });
        else if (e == T(0)) unary_loop<T, T>(a, as, out, [](T) { return T(1); });
        else if (e == T(0.5)) unary_loop<T, T>(a, as, out, [](T x) { return std::sqrt(x); });
        else if (e == T(1)) unary_loop<T, T>(a, as, out, [](T x) { return x; });
        else if (e == T(2)) unary_loop<T, T>(a, as, out, [](T x) { return x * x; });
        else return false;
        return true;
    } else {
        return false;
    }
}

template <typename C> inline C floordiv(C a, C b) {
    if constexpr (std::is_floating_point<C>::value) {
        return std::floor(a / b);
    } else if constexpr (std::is_same<C, bool>::value) {
        return b ? a : false;
    } else {
        if (b == 0) return 0;
        if (b == -1) return static_cast<C>(0 - a);
        C q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
    }
}

template <typename C> inline C mod(C a, C b) {
    if constexpr (std::is_floating_point<C>::value) {
        C r = std::fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
    } else if constexpr (std::is_same<C, bool>::value) {
        return b ? false : false;
    } else {
        if (b == 0 || b == -1) return 0;
        C r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
    }
}

template <typename T>
void run_binary(BinaryOp op, const Array& a, const Strides& as, const Array& b, const Strides& bs, const Array& out) {
    using C = Compute<T>;
    switch (op) {
        case BinaryOp::Add: binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return static_cast<C>(x + y); }); break;
        case BinaryOp::Sub: binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return static_cast<C>(x - y); }); break;
        case BinaryOp::Mul: binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return static_cast<C>(x * y); }); break;
        case BinaryOp::Div:
            if constexpr (std::is_floating_point<C>::value)
                binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return x / y; });
            break;
        case BinaryOp::Pow:
            if (pow_by_single_exponent<T>(a, as, b, out)) break;
            binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return ipow<C>(x, y); });
            break;
        case BinaryOp::Maximum:
            binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return (nan_of(x) || x >= y) ? x : y; });
            break;
        case BinaryOp::Minimum:
            binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return (nan_of(x) || x <= y) ? x : y; });
            break;
        case BinaryOp::FloorDiv: binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return floordiv<C>(x, y); }); break;
        case BinaryOp::Mod: binary_loop<T, T>(a, as, b, bs, out, [](C x, C y) { return mod<C>(x, y); }); break;
    }
}

const char* op_name(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add: return "add";
        case BinaryOp::Sub: return "subtract";
        case BinaryOp::Mul: return "multiply";
        case BinaryOp::Div: return "divide";
        case BinaryOp::Pow: return "power";
        case BinaryOp::Maximum: return "maximum";
        case BinaryOp::Minimum: return "minimum";
        case BinaryOp::FloorDiv: return "floor_divide";
        case BinaryOp::Mod: return "remainder";
    }
    return "?";
}

Dtype result_dtype(BinaryOp op, Dtype a, Dtype b) {
    Dtype r = promote_types(a, b);
    if (op == BinaryOp::Div && !is_float(r)) return Dtype::Float64;
    if (r == Dtype::Bool) {
        if (op == BinaryOp::Sub)
            throw DtypeError("subtract: boolean subtract is not supported; use logical_xor");
        if (op == BinaryOp::Pow) return Dtype::Int8;
    }
    return r;
}

// A float mask (1 where cond) in dtype, without graph.
Array mask_of(const Array& cond, Dtype dtype) { return astype(cond, dtype, true); }

// The derivative rule of op, for those the core declares with a graph kernel.
const char* rule_of(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add: return "add";
        case BinaryOp::Sub: return "sub";
        case BinaryOp::Mul: return "mul";
        case BinaryOp::Div: return "div";
        default: return nullptr;
    }
}

// The ops with a derivative rule record it; the others their own backward.
void record_binary(BinaryOp op, const Array& a, const Array& b, const Array& out) {
    switch (op) {
        case BinaryOp::Add:
        case BinaryOp::Sub:
        case BinaryOp::Mul:
        case BinaryOp::Div:
            record_rule(rule_of(op), {a, b}, {out}, {});
            break;
        case BinaryOp::Pow:
            record_op("power", {a, b}, {out}, [a, b](BackwardContext& c) {
                Array gy = c.gy();
                if (c.needs(0)) {
                    Array bm1 = binary(BinaryOp::Sub, b, Scalar::of_int(1));
                    c.set(0, grad_to(multiply(multiply(gy, b), binary(BinaryOp::Pow, a, bm1)), a.shape(), a.dtype()));
                }
                if (c.needs(1))
                    c.set(1, grad_to(multiply(multiply(gy, binary(BinaryOp::Pow, a, b)), log(a)), b.shape(), b.dtype()));
            });
            break;
        case BinaryOp::Maximum:
        case BinaryOp::Minimum: {
            bool is_max = op == BinaryOp::Maximum;
            record_op(op_name(op), {a, b}, {out}, [a, b, is_max](BackwardContext& c) {
                Array gy = c.gy();
                Array pick_a = compare(is_max ? CompareOp::Ge : CompareOp::Le, a.as_data(), b.as_data());
                if (c.needs(0)) c.set(0, grad_to(multiply(gy, mask_of(pick_a, gy.dtype())), a.shape(), a.dtype()));
                if (c.needs(1))
                    c.set(1, grad_to(multiply(gy, mask_of(logical_not(pick_a), gy.dtype())), b.shape(), b.dtype()));
            });
            break;
        }
        case BinaryOp::Mod:
            record_op("remainder", {a, b}, {out}, [a, b](BackwardContext& c) {
                Array gy = c.gy();
                if (c.needs(0)) c.set(0, grad_to(gy, a.shape(), a.dtype()));
                if (c.needs(1)) {
                    Array q = binary(BinaryOp::FloorDiv, a.as_data(), b.as_data());
                    c.set(1, grad_to(negative(multiply(gy, q)), b.shape(), b.dtype()));
                }
            });
            break;
        case BinaryOp::FloorDiv:
            record_op("floor_divide", {a, b}, {out}, [](BackwardContext&) {});
            break;
    }
}

}  // namespace

void check_inplace_target(const Array& a, const char* op) {
    a.check_writeable(op);
    if (a.requires_grad() && a.body()->node->creator && backprop_enabled())
        throw GradError(std::string(op) + ": in-place update of an array computed by a recorded op would corrupt its "
                        "gradient; use the out-of-place form or no_backprop_mode()");
}

Array binary(BinaryOp op, const Array& a, const Array& b) {
    const char* name = op_name(op);
    Dtype rt = result_dtype(op, a.dtype(), b.dtype());
    Shape shape = a.shape() == b.shape() ? a.shape() : broadcast_shapes(a.shape(), b.shape(), name);
    bool graph = is_float(rt) && needs_graph({&a, &b});
    // A rule's operands have one dtype: an operand of another float dtype
    // enters the op through a recorded cast, which takes its gradient back.
    bool rule = graph && rule_of(op);
    Array ac = a.dtype() == rt ? a : rule ? astype(a, rt, false) : contiguous_as(a, rt);
    Array bc = b.dtype() == rt ? b : rule ? astype(b, rt, false) : contiguous_as(b, rt);
    Array out = Array::empty(shape, rt);
    Strides as = a.shape() == shape ? ac.strides() : broadcast_strides(ac, shape, name);
    Strides bs = b.shape() == shape ? bc.strides() : broadcast_strides(bc, shape, name);
    dispatch(rt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        run_binary<T>(op, ac, as, bc, bs, out);
    });
    if (graph) record_binary(op, rule ? ac : a, rule ? bc : b, out);
    return out;
}

namespace {

Array scalar_operand(const Scalar& s, Dtype other) {
    Dtype d = promote_with_scalar(other, s.kind);
    Array a = Array::empty(Shape{}, d);
    dispatch(d, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *a.ptr<T>() = s.as<T>();
    });
    return a;
}

Value value_of(const Scalar& s) {
    switch (s.kind) {
        case ScalarKind::Bool: return s.i != 0;
        case ScalarKind::Int: return s.i;
        default: return s.f;
    }
}

// x op c computed by binary, recorded as the core's constant op `rule` with
// the parameter value.
Array constant_op(const char* rule, BinaryOp op, const Array& a, const Array& b, const Array& x, const Scalar& value) {
    Array out;
    {
        BackpropModeScope off(false);
        out = binary(op, a, b);
    }
    record_rule(rule, {x}, {out}, {value_of(value)});
    return out;
}

}  // namespace

Array binary(BinaryOp op, const Array& a, const Scalar& s) {
    Array b = scalar_operand(s, a.dtype());
    if (!is_float(a.dtype()) || !needs_graph({&a})) return binary(op, a, b);
    switch (op) {
        case BinaryOp::Add: return constant_op("add_constant", op, a, b, a, s);
        case BinaryOp::Sub: return constant_op("add_constant", op, a, b, a, s.negated());
        case BinaryOp::Mul: return constant_op("mul_constant", op, a, b, a, s);
        default: return binary(op, a, b);  // x / c: div's rule, with c an input that needs no gradient
    }
}

Array binary(BinaryOp op, const Scalar& s, const Array& b) {
    Array a = scalar_operand(s, b.dtype());
    if (!is_float(b.dtype()) || !needs_graph({&b})) return binary(op, a, b);
    switch (op) {
        case BinaryOp::Add: return constant_op("add_constant", op, a, b, b, s);
        case BinaryOp::Sub: return constant_op("sub_from_constant", op, a, b, b, s);
        case BinaryOp::Mul: return constant_op("mul_constant", op, a, b, b, s);
        case BinaryOp::Div: return constant_op("div_from_constant", op, a, b, b, s);
        default: return binary(op, a, b);
    }
}

Array mul_scalar(const Array& a, double s) { return binary(BinaryOp::Mul, a, Scalar::of_float(s)); }
Array add_scalar(const Array& a, double s) { return binary(BinaryOp::Add, a, Scalar::of_float(s)); }

void binary_inplace(BinaryOp op, const Array& a, const Array& b) {
    const char* name = op_name(op);
    check_inplace_target(a, name);
    Dtype rt = result_dtype(op, a.dtype(), b.dtype());
    if (rt != a.dtype() && !(is_float(a.dtype()) || dtype_kind(rt) == dtype_kind(a.dtype())))
        throw DtypeError(std::string(name) + ": cannot write a " + dtype_name(rt) + " result into an array of dtype " +
                         dtype_name(a.dtype()) + " in place");
    // b read from a's buffer through another view would see elements
    // already updated: NumPy gives the result of reading b first.
    bool same_view = b.data() == a.data() && b.offset() == a.offset() && b.shape() == a.shape() && b.strides() == a.strides();
    Array bc = b.dtype() != a.dtype() ? contiguous_as(b, a.dtype())
               : (b.data() == a.data() && !same_view) ? copy(b.as_data())
               : b;
    Strides bs = broadcast_strides(bc, a.shape(), name);
    if (op == BinaryOp::Div && !is_float(a.dtype()))
        throw DtypeError("divide: cannot divide an integer array in place (the result is float)");
    dispatch(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        run_binary<T>(op, a, a.strides(), bc, bs, a);
    });
}

}  // namespace cn
