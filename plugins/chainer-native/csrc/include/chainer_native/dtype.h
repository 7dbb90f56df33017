// Element types: the dtype enum, float16 storage, NumPy's promotion rules and
// a dispatcher that turns a runtime dtype into a template argument.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "errors.h"

namespace cn {

enum class Dtype : int8_t { Bool, Int8, Int16, Int32, Int64, UInt8, Float16, Float32, Float64 };
constexpr int kNumDtypes = 9;

// IEEE binary16 kept as bits; arithmetic converts to float.
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);

struct Half {
    uint16_t bits;
    Half() = default;
    Half(float f) : bits(float_to_half_bits(f)) {}
    Half(double f) : bits(float_to_half_bits(static_cast<float>(f))) {}
    template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
    Half(T v) : bits(float_to_half_bits(static_cast<float>(v))) {}
    operator float() const { return half_bits_to_float(bits); }
    static Half from_bits(uint16_t b) { Half h; h.bits = b; return h; }
};

inline float half_bits_to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {
            // Subnormal: shift the mantissa up until the implicit bit appears.
            int e = 113;
            while (!(mant & 0x400u)) { mant <<= 1; --e; }
            bits = sign | (static_cast<uint32_t>(e) << 23) | ((mant & 0x3ffu) << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline uint16_t float_to_half_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (x >> 23) & 0xff;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 255) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
    int32_t e = exp - 112;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return static_cast<uint16_t>(sign);
        uint32_t m = mant | 0x800000u;
        int shift = 14 - e;
        uint32_t r = m >> shift;
        uint32_t rem = m & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return static_cast<uint16_t>(sign | r);
    }
    uint32_t r = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
}

inline int itemsize(Dtype d) {
    switch (d) {
        case Dtype::Bool: case Dtype::Int8: case Dtype::UInt8: return 1;
        case Dtype::Int16: case Dtype::Float16: return 2;
        case Dtype::Int32: case Dtype::Float32: return 4;
        case Dtype::Int64: case Dtype::Float64: return 8;
    }
    return 0;
}

inline const char* dtype_name(Dtype d) {
    static const char* names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"};
    return names[static_cast<int>(d)];
}

inline char dtype_kind(Dtype d) {
    switch (d) {
        case Dtype::Bool: return 'b';
        case Dtype::UInt8: return 'u';
        case Dtype::Float16: case Dtype::Float32: case Dtype::Float64: return 'f';
        default: return 'i';
    }
}

inline bool is_float(Dtype d) { return dtype_kind(d) == 'f'; }

// The same table as numpy.promote_types over these nine types.
inline Dtype promote_types(Dtype a, Dtype b) {
    using D = Dtype;
    static const Dtype table[kNumDtypes][kNumDtypes] = {
        {D::Bool, D::Int8, D::Int16, D::Int32, D::Int64, D::UInt8, D::Float16, D::Float32, D::Float64},
        {D::Int8, D::Int8, D::Int16, D::Int32, D::Int64, D::Int16, D::Float16, D::Float32, D::Float64},
        {D::Int16, D::Int16, D::Int16, D::Int32, D::Int64, D::Int16, D::Float32, D::Float32, D::Float64},
        {D::Int32, D::Int32, D::Int32, D::Int32, D::Int64, D::Int32, D::Float64, D::Float64, D::Float64},
        {D::Int64, D::Int64, D::Int64, D::Int64, D::Int64, D::Int64, D::Float64, D::Float64, D::Float64},
        {D::UInt8, D::Int16, D::Int16, D::Int32, D::Int64, D::UInt8, D::Float16, D::Float32, D::Float64},
        {D::Float16, D::Float16, D::Float32, D::Float64, D::Float64, D::Float16, D::Float16, D::Float32, D::Float64},
        {D::Float32, D::Float32, D::Float32, D::Float64, D::Float64, D::Float32, D::Float32, D::Float32, D::Float64},
        {D::Float64, D::Float64, D::Float64, D::Float64, D::Float64, D::Float64, D::Float64, D::Float64, D::Float64},
    };
    return table[static_cast<int>(a)][static_cast<int>(b)];
}

// The float type NumPy's math functions give an input of this type.
inline Dtype math_dtype(Dtype d) { return is_float(d) ? d : promote_types(d, Dtype::Float16); }

// Python scalars are "weak" (NEP 50): they take the array's type unless
// their kind is higher.
enum class ScalarKind { Bool, Int, Float };
inline Dtype promote_with_scalar(Dtype d, ScalarKind k) {
    switch (k) {
        case ScalarKind::Bool: return d;
        case ScalarKind::Int: return d == Dtype::Bool ? Dtype::Int64 : d;
        case ScalarKind::Float: return is_float(d) ? d : Dtype::Float64;
    }
    return d;
}

// A Python number kept exactly (ints as int64) until its dtype is known.
struct Scalar {
    ScalarKind kind = ScalarKind::Float;
    double f = 0.0;
    int64_t i = 0;
    static Scalar of_float(double v) { Scalar s; s.kind = ScalarKind::Float; s.f = v; s.i = static_cast<int64_t>(v); return s; }
    static Scalar of_int(int64_t v) { Scalar s; s.kind = ScalarKind::Int; s.i = v; s.f = static_cast<double>(v); return s; }
    static Scalar of_bool(bool v) { Scalar s; s.kind = ScalarKind::Bool; s.i = v; s.f = v; return s; }
    template <typename T> T as() const {
        if (kind == ScalarKind::Float) return static_cast<T>(f);
        return static_cast<T>(i);
    }
    // -this, a float where the negated int does not fit.
    Scalar negated() const {
        if (kind == ScalarKind::Float || i == std::numeric_limits<int64_t>::min()) return of_float(-f);
        return of_int(-i);
    }
};

template <typename T> struct DtypeOf;
template <> struct DtypeOf<bool> { static constexpr Dtype value = Dtype::Bool; };
template <> struct DtypeOf<int8_t> { static constexpr Dtype value = Dtype::Int8; };
template <> struct DtypeOf<int16_t> { static constexpr Dtype value = Dtype::Int16; };
template <> struct DtypeOf<int32_t> { static constexpr Dtype value = Dtype::Int32; };
template <> struct DtypeOf<int64_t> { static constexpr Dtype value = Dtype::Int64; };
template <> struct DtypeOf<uint8_t> { static constexpr Dtype value = Dtype::UInt8; };
template <> struct DtypeOf<Half> { static constexpr Dtype value = Dtype::Float16; };
template <> struct DtypeOf<float> { static constexpr Dtype value = Dtype::Float32; };
template <> struct DtypeOf<double> { static constexpr Dtype value = Dtype::Float64; };

// The type arithmetic on T is carried out in.
template <typename T> struct ComputeOf { using type = T; };
template <> struct ComputeOf<Half> { using type = float; };
template <typename T> using Compute = typename ComputeOf<T>::type;

template <typename T> struct Tag { using type = T; };

template <typename F>
decltype(auto) dispatch(Dtype d, F&& f) {
    switch (d) {
        case Dtype::Bool: return f(Tag<bool>{});
        case Dtype::Int8: return f(Tag<int8_t>{});
        case Dtype::Int16: return f(Tag<int16_t>{});
        case Dtype::Int32: return f(Tag<int32_t>{});
        case Dtype::Int64: return f(Tag<int64_t>{});
        case Dtype::UInt8: return f(Tag<uint8_t>{});
        case Dtype::Float16: return f(Tag<Half>{});
        case Dtype::Float32: return f(Tag<float>{});
        case Dtype::Float64: return f(Tag<double>{});
    }
    throw std::logic_error("unknown dtype");
}

template <typename F>
decltype(auto) dispatch_float(Dtype d, const char* op, F&& f) {
    switch (d) {
        case Dtype::Float16: return f(Tag<Half>{});
        case Dtype::Float32: return f(Tag<float>{});
        case Dtype::Float64: return f(Tag<double>{});
        default: break;
    }
    throw DtypeError(std::string(op) + ": expected a floating-point array, got " + dtype_name(d));
}

}  // namespace cn
