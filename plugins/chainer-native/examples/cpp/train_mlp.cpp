// Trains a two-layer perceptron on a data set it generates (three
// interleaved spirals in the plane, one per class), with chainer-native's
// arrays, autograd and Adam, and prints the loss as it falls.
//
//   train_mlp [--steps N] [--batch B] [--hidden H] [--lr A] [--seed S]
//             [--print-every K] [--threads T]
//
// The last line gives the time per training step (forward, backward and
// update of one minibatch).
#include <chainer_native/chainer_native.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Options {
    int64_t steps = 300;
    int64_t batch = 128;
    int64_t hidden = 64;
    int64_t samples_per_class = 500;
    double lr = 0.01;
    uint64_t seed = 0;
    int64_t print_every = 20;
    int threads = 0;  // 0: the library's default
};

// A fully connected layer as chainer's L.Linear: y = x W^T + b, W drawn
// from LeCunNormal (stddev sqrt(1 / in)), b zero.
struct Linear {
    cn::Array W, b;

    Linear(int64_t in, int64_t out, cn::Generator& gen) {
        W = gen.normal({out, in}, 0.0, std::sqrt(1.0 / static_cast<double>(in)));
        b = cn::zeros({out}, cn::Dtype::Float32);
        W.require_grad();
        b.require_grad();
    }

    cn::Array operator()(const cn::Array& x) const { return cn::linear(x, W, b, 1); }
};

struct MLP {
    Linear l1, l2;

    MLP(int64_t in, int64_t hidden, int64_t out, cn::Generator& gen) : l1(in, hidden, gen), l2(hidden, out, gen) {}

    cn::Array operator()(const cn::Array& x) const { return l2(cn::relu(l1(x))); }
    std::vector<cn::Array> params() const { return {l1.W, l1.b, l2.W, l2.b}; }
};

// Three spirals of samples_per_class points each, with a little noise:
// not linearly separable, so the hidden layer has work to do.
void make_spirals(int64_t samples_per_class, cn::Generator& gen, cn::Array& x, cn::Array& t) {
    const int64_t classes = 3, n = classes * samples_per_class;
    std::vector<float> xs(static_cast<size_t>(n * 2));
    std::vector<int32_t> ts(static_cast<size_t>(n));
    std::normal_distribution<double> noise(0.0, 0.15);
    for (int64_t c = 0; c < classes; ++c) {
        for (int64_t i = 0; i < samples_per_class; ++i) {
            double r = static_cast<double>(i) / static_cast<double>(samples_per_class);
            double angle = 4.0 * r + 2.0 * kPi * static_cast<double>(c) / classes + noise(gen.engine());
            int64_t k = c * samples_per_class + i;
            xs[2 * k] = static_cast<float>(r * std::cos(angle));
            xs[2 * k + 1] = static_cast<float>(r * std::sin(angle));
            ts[k] = static_cast<int32_t>(c);
        }
    }
    x = cn::array_of(xs, {n, 2});
    t = cn::array_of(ts, {n});
}

double accuracy(const cn::Array& y, const cn::Array& t) {
    cn::Array hit = cn::compare(cn::CompareOp::Eq, cn::argmax(y, 1), cn::astype(t, cn::Dtype::Int64));
    return cn::item<double>(cn::mean(cn::astype(hit, cn::Dtype::Float64), std::nullopt, false));
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "train_mlp: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--steps") o.steps = std::atoll(next());
        else if (a == "--batch") o.batch = std::atoll(next());
        else if (a == "--hidden") o.hidden = std::atoll(next());
        else if (a == "--samples-per-class") o.samples_per_class = std::atoll(next());
        else if (a == "--lr") o.lr = std::atof(next());
        else if (a == "--seed") o.seed = std::strtoull(next(), nullptr, 10);
        else if (a == "--print-every") o.print_every = std::atoll(next());
        else if (a == "--threads") o.threads = std::atoi(next());
        else {
            std::fprintf(stderr,
                         "usage: train_mlp [--steps N] [--batch B] [--hidden H] [--samples-per-class N] [--lr A] "
                         "[--seed S] [--print-every K] [--threads T]\n");
            return a == "--help" || a == "-h";
        }
    }
    if (o.steps < 1 || o.batch < 1 || o.hidden < 1 || o.samples_per_class < 1 || o.print_every < 1) {
        std::fprintf(stderr, "train_mlp: sizes and counts must be positive\n");
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;
    try {
        if (o.threads > 0) cn::set_num_threads(o.threads);
        cn::Generator gen(o.seed);
        cn::Array x, t;
        make_spirals(o.samples_per_class, gen, x, t);
        const int64_t n = x.shape()[0];
        const int64_t batch = std::min(o.batch, n);

        MLP model(2, o.hidden, 3, gen);
        cn::AdamConfig config;
        config.alpha = o.lr;
        cn::Adam opt(config);
        opt.add_params(model.params());

        std::printf("train_mlp: %lld samples, 2-%lld-3 perceptron, batch %lld, Adam(alpha=%g), %d threads\n",
                    static_cast<long long>(n), static_cast<long long>(o.hidden), static_cast<long long>(batch), o.lr,
                    cn::num_threads());

        std::vector<int64_t> order;
        size_t cursor = 0;
        double seconds = 0.0;
        for (int64_t step = 1; step <= o.steps; ++step) {
            // A new shuffle each epoch; minibatches are taken in its order.
            if (cursor + static_cast<size_t>(batch) > order.size()) {
                order = cn::to_vector<int64_t>(gen.permutation(n));
                cursor = 0;
            }
            cn::Array idx = cn::array_of(std::vector<int64_t>(order.begin() + cursor, order.begin() + cursor + batch),
                                         {batch});
            cursor += static_cast<size_t>(batch);
            cn::Array xb = cn::take(x, idx, 0), tb = cn::take(t, idx, 0);

            auto start = std::chrono::steady_clock::now();
            cn::Array loss = cn::softmax_cross_entropy(model(xb), tb, -1, "mean");
            opt.clear_grads();
            loss.backward();
            opt.update();
            seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

            if (step == 1 || step % o.print_every == 0 || step == o.steps)
                std::printf("step %5lld  loss %.6f\n", static_cast<long long>(step), cn::item<double>(loss));
        }

        cn::BackpropModeScope no_graph(false);
        std::printf("train accuracy %.4f\n", accuracy(model(x), t));
        std::printf("time per step: %.4f ms (%lld steps)\n", 1e3 * seconds / static_cast<double>(o.steps),
                    static_cast<long long>(o.steps));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "train_mlp: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
