#include "random.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace cn {

namespace {

// Fills a new array element by element from draw(), converted to dtype.
template <typename Draw>
Array generate(const Shape& shape, Dtype dtype, Draw&& draw) {
    Array a = Array::empty(shape, dtype);
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = a.ptr<T>();
        for (int64_t i = 0, n = a.size(); i < n; ++i) p[i] = static_cast<T>(draw());
    });
    return a;
}

void need_float(const char* op, Dtype d) {
    if (!is_float(d)) throw DtypeError(std::string(op) + ": dtype must be floating-point, got " + dtype_name(d));
}

}  // namespace

Array Generator::normal(const Shape& shape, double mean, double stddev, Dtype dtype) {
    need_float("normal", dtype);
    if (!(stddev >= 0.0)) throw ShapeError("normal: stddev must be non-negative, got " + std::to_string(stddev));
    std::normal_distribution<double> d(mean, stddev);
    return generate(shape, dtype, [&] { return d(engine_); });
}

Array Generator::uniform(const Shape& shape, double low, double high, Dtype dtype) {
    need_float("uniform", dtype);
    if (!(low <= high)) throw ShapeError("uniform: low must not exceed high");
    std::uniform_real_distribution<double> d(low, high);
    return generate(shape, dtype, [&] { return d(engine_); });
}

Array Generator::randint(int64_t low, int64_t high, const Shape& shape, Dtype dtype) {
    if (is_float(dtype) || dtype == Dtype::Bool)
        throw DtypeError(std::string("randint: dtype must be an integer type, got ") + dtype_name(dtype));
    if (low >= high)
        throw ShapeError("randint: low (" + std::to_string(low) + ") must be below high (" + std::to_string(high) + ")");
    dispatch(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (low < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
            high - 1 > static_cast<int64_t>(std::numeric_limits<T>::max()))
            throw ShapeError("randint: [" + std::to_string(low) + ", " + std::to_string(high) + ") does not fit " +
                             dtype_name(dtype));
    });
    std::uniform_int_distribution<int64_t> d(low, high - 1);
    return generate(shape, dtype, [&] { return d(engine_); });
}

Array Generator::permutation(int64_t n) {
    if (n < 0) throw ShapeError("permutation: n must be non-negative, got " + std::to_string(n));
    Array a = Array::empty(Shape{n}, Dtype::Int64);
    int64_t* p = a.ptr<int64_t>();
    std::iota(p, p + n, int64_t{0});
    std::shuffle(p, p + n, engine_);
    return a;
}

}  // namespace cn
