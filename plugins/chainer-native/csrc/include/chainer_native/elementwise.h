// Elementwise routines with broadcasting and NumPy's type promotion.
#pragma once

#include <type_traits>

#include "array.h"

namespace cn {

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Maximum, Minimum, FloorDiv, Mod };
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge, And, Or, Xor };
enum class UnaryOp {
    Neg, Abs, Sign, Square, Sqrt, Exp, Log, Log2, Log10, Log1p, Expm1, Sin, Cos, Tan, Tanh, Sigmoid,
    Relu, Reciprocal, Floor, Ceil, Arcsin, Arccos, Arctan, Sinh, Cosh, Rsqrt
};

Array binary(BinaryOp op, const Array& a, const Array& b);
Array binary(BinaryOp op, const Array& a, const Scalar& b);
Array binary(BinaryOp op, const Scalar& a, const Array& b);
Array compare(CompareOp op, const Array& a, const Array& b);
Array unary(UnaryOp op, const Array& a);

inline Array add(const Array& a, const Array& b) { return binary(BinaryOp::Add, a, b); }
inline Array subtract(const Array& a, const Array& b) { return binary(BinaryOp::Sub, a, b); }
inline Array multiply(const Array& a, const Array& b) { return binary(BinaryOp::Mul, a, b); }
inline Array divide(const Array& a, const Array& b) { return binary(BinaryOp::Div, a, b); }
inline Array negative(const Array& a) { return unary(UnaryOp::Neg, a); }
inline Array exp(const Array& a) { return unary(UnaryOp::Exp, a); }
inline Array log(const Array& a) { return unary(UnaryOp::Log, a); }
inline Array sqrt(const Array& a) { return unary(UnaryOp::Sqrt, a); }
inline Array square(const Array& a) { return unary(UnaryOp::Square, a); }
inline Array tanh(const Array& a) { return unary(UnaryOp::Tanh, a); }
inline Array sigmoid(const Array& a) { return unary(UnaryOp::Sigmoid, a); }
inline Array relu(const Array& a) { return unary(UnaryOp::Relu, a); }
Array mul_scalar(const Array& a, double s);
Array add_scalar(const Array& a, double s);

// Predicates (bool results).
Array isnan(const Array& a);
Array isinf(const Array& a);
Array isfinite(const Array& a);
Array logical_not(const Array& a);

Array where(const Array& cond, const Array& x, const Array& y);
Array clip(const Array& a, const Array* lo, const Array* hi);

// In place (not recorded): a op= b, with b broadcast to a and cast to a's dtype.
void binary_inplace(BinaryOp op, const Array& a, const Array& b);

// Operators, recorded like the routines above. A scalar operand is weak, as
// a Python number is in NumPy: a float32 array times 2.0 stays float32.
template <typename S>
Scalar to_scalar(S s) {
    static_assert(std::is_arithmetic<S>::value, "a scalar operand must be a number");
    if constexpr (std::is_same<S, bool>::value) return Scalar::of_bool(s);
    else if constexpr (std::is_integral<S>::value) return Scalar::of_int(static_cast<int64_t>(s));
    else return Scalar::of_float(static_cast<double>(s));
}

inline Array operator+(const Array& a, const Array& b) { return binary(BinaryOp::Add, a, b); }
inline Array operator-(const Array& a, const Array& b) { return binary(BinaryOp::Sub, a, b); }
inline Array operator*(const Array& a, const Array& b) { return binary(BinaryOp::Mul, a, b); }
inline Array operator/(const Array& a, const Array& b) { return binary(BinaryOp::Div, a, b); }
inline Array operator-(const Array& a) { return unary(UnaryOp::Neg, a); }

#define CN_SCALAR_OPERATOR(sym, op)                                                        \
    template <typename S, typename = std::enable_if_t<std::is_arithmetic<S>::value>>       \
    Array operator sym(const Array& a, S s) { return binary(BinaryOp::op, a, to_scalar(s)); } \
    template <typename S, typename = std::enable_if_t<std::is_arithmetic<S>::value>>       \
    Array operator sym(S s, const Array& a) { return binary(BinaryOp::op, to_scalar(s), a); }
CN_SCALAR_OPERATOR(+, Add)
CN_SCALAR_OPERATOR(-, Sub)
CN_SCALAR_OPERATOR(*, Mul)
CN_SCALAR_OPERATOR(/, Div)
#undef CN_SCALAR_OPERATOR

// Fused kernels used by backward passes (first order).
Array relu_grad(const Array& y, const Array& gy);     // gy * (y > 0)
Array sigmoid_grad(const Array& y, const Array& gy);  // gy * y * (1 - y)
Array tanh_grad(const Array& y, const Array& gy);     // gy * (1 - y^2)

}  // namespace cn
