// The kernels' thread pool: CHAINER_NATIVE_THREADS workers (default: the
// cores available to the process), shared by every kernel.
#pragma once

#include <cstdint>
#include <functional>

namespace cn {

int num_threads();
// OpenBLAS itself stays single-threaded: the pool splits the GEMMs.
void set_num_threads(int n);

void parallel_for_impl(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

// Calls f(begin, end) over [0, n) in chunks of at least `grain` items,
// spread over the pool; small ranges run inline.
template <typename F>
inline void parallel_for(int64_t n, int64_t grain, F&& f) {
    if (n <= 0) return;
    if (n <= grain || num_threads() <= 1) {
        f(int64_t(0), n);
        return;
    }
    parallel_for_impl(n, grain, std::function<void(int64_t, int64_t)>(std::ref(f)));
}

}  // namespace cn
