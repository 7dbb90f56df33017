// Random arrays from an explicit, seeded generator. There is no global
// generator: a program's numbers depend only on the seeds it chooses, and
// threads that each own a Generator never contend.
#pragma once

#include <cstdint>
#include <random>

#include "array.h"

namespace cn {

class Generator {
public:
    explicit Generator(uint64_t seed) : engine_(seed) {}

    // Normal(mean, stddev) samples; dtype floating-point.
    Array normal(const Shape& shape, double mean = 0.0, double stddev = 1.0, Dtype dtype = Dtype::Float32);
    // Uniform samples in [low, high); dtype floating-point.
    Array uniform(const Shape& shape, double low = 0.0, double high = 1.0, Dtype dtype = Dtype::Float32);
    // Integers uniform in [low, high); dtype an integer type.
    Array randint(int64_t low, int64_t high, const Shape& shape, Dtype dtype = Dtype::Int64);
    // A random ordering of 0 .. n-1 (int64), e.g. to shuffle a data set.
    Array permutation(int64_t n);

    std::mt19937_64& engine() { return engine_; }

private:
    std::mt19937_64 engine_;
};

}  // namespace cn
