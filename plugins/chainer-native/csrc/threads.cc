#include "threads.h"

#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "blas.h"

namespace cn {

namespace {

int default_threads() {
    // OMP_NUM_THREADS is how users and job schedulers cap a process's
    // threads; its first entry counts when it is a per-level list ("4,2").
    for (const char* name : {"CHAINER_NATIVE_THREADS", "OMP_NUM_THREADS"}) {
        if (const char* env = std::getenv(name)) {
            int n = std::atoi(env);
            if (n > 0) return n;
        }
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    unsigned n = std::thread::hardware_concurrency();
    return n ? static_cast<int>(n) : 1;
}

thread_local bool t_in_parallel = false;

// Workers wait for a job, take chunks from a shared counter, and the caller
// works on chunks too; one job at a time (a second caller runs inline).
class Pool {
public:
    explicit Pool(int n) : n_(n) {
        for (int i = 1; i < n; ++i) workers_.emplace_back([this] { loop(); });
    }
    ~Pool() {
        {
            std::lock_guard<std::mutex> g(m_);
            stop_ = true;
            ++generation_;
        }
        cv_.notify_all();
        for (auto& t : workers_) t.join();
    }
    int size() const { return n_; }

    void run(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (!busy.owns_lock() || t_in_parallel) {
            f(0, n);
            return;
        }
        int64_t chunks = (n + grain - 1) / grain;
        if (chunks > n_) chunks = n_;
        int64_t per = (n + chunks - 1) / chunks;
        chunks = (n + per - 1) / per;
        {
            std::lock_guard<std::mutex> g(m_);
            job_ = &f;
            total_ = n;
            per_ = per;
            chunks_ = chunks;
            next_.store(0);
            done_.store(0);
            error_ = nullptr;
            ++generation_;
        }
        cv_.notify_all();
        t_in_parallel = true;
        work();
        t_in_parallel = false;
        while (done_.load(std::memory_order_acquire) < chunks_) {
            std::unique_lock<std::mutex> g(m_);
            done_cv_.wait(g, [&] { return done_.load() >= chunks_; });
        }
        {
            std::lock_guard<std::mutex> g(m_);
            job_ = nullptr;
        }
        if (error_) std::rethrow_exception(error_);
    }

private:
    void work() {
        for (;;) {
            int64_t c = next_.fetch_add(1);
            if (c >= chunks_) return;
            int64_t b = c * per_, e = std::min(total_, b + per_);
            try {
                (*job_)(b, e);
            } catch (...) {
                std::lock_guard<std::mutex> g(err_m_);
                if (!error_) error_ = std::current_exception();
            }
            if (done_.fetch_add(1) + 1 == chunks_) {
                std::lock_guard<std::mutex> g(m_);
                done_cv_.notify_all();
            }
        }
    }

    void loop() {
        t_in_parallel = true;
        uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> g(m_);
                cv_.wait(g, [&] { return generation_ != seen; });
                seen = generation_;
                if (stop_) return;
                if (!job_) continue;
            }
            work();
        }
    }

    int n_;
    std::vector<std::thread> workers_;
    std::mutex m_, busy_, err_m_;
    std::condition_variable cv_, done_cv_;
    const std::function<void(int64_t, int64_t)>* job_ = nullptr;
    int64_t total_ = 0, per_ = 1, chunks_ = 0;
    std::atomic<int64_t> next_{0}, done_{0};
    std::exception_ptr error_;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

std::mutex g_pool_m;
std::shared_ptr<Pool> g_pool;
std::atomic<int> g_threads{0};

std::shared_ptr<Pool> pool() {
    std::lock_guard<std::mutex> g(g_pool_m);
    if (!g_pool) {
        int n = default_threads();
        g_pool = std::make_shared<Pool>(n);
        g_threads.store(n);
        blas_init();
    }
    return g_pool;
}

}  // namespace

int num_threads() {
    int n = g_threads.load(std::memory_order_relaxed);
    if (n == 0) n = pool()->size();
    return n;
}

void set_num_threads(int n) {
    if (n < 1) n = 1;
    std::shared_ptr<Pool> old;
    {
        std::lock_guard<std::mutex> g(g_pool_m);
        old = std::move(g_pool);
        g_pool = std::make_shared<Pool>(n);
        g_threads.store(n);
    }
    blas_init();
}

void parallel_for_impl(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
    if (t_in_parallel) {
        f(0, n);
        return;
    }
    std::shared_ptr<Pool> p = pool();
    p->run(n, grain, f);
}

}  // namespace cn
