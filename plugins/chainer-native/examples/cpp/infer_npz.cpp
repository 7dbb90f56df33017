// Runs a multilayer perceptron trained in Python on inputs from an .npz
// file: the weights come from chainer's serializers.save_npz of a Chain of
// L.Linear layers named l1, l2, ... with ReLU between them (see README.md),
// the outputs go to another .npz (and a summary to stdout).
//
//   infer_npz MODEL.npz INPUTS.npz --sizes 4,32,3 [--prefix predictor/]
//             [--input x] [--out OUT.npz]
//
// --sizes are the layer widths, input first: the C++ model is built with
// them, and the file must match it (a wrong shape, dtype or a missing layer
// is reported, naming the array, and nothing runs).
#include <chainer_native/chainer_native.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Linear {
    cn::Array W, b;
    Linear(int64_t in, int64_t out)
        : W(cn::zeros({out, in}, cn::Dtype::Float32)), b(cn::zeros({out}, cn::Dtype::Float32)) {}
};

class MLP {
public:
    explicit MLP(const std::vector<int64_t>& sizes) {
        for (size_t i = 0; i + 1 < sizes.size(); ++i) layers_.emplace_back(sizes[i], sizes[i + 1]);
    }

    // The parameters under the names chainer gives them in a Chain whose
    // links are l1, l2, ...
    cn::NamedArrays params() const {
        cn::NamedArrays out;
        for (size_t i = 0; i < layers_.size(); ++i) {
            std::string name = "l" + std::to_string(i + 1);
            out.emplace_back(name + "/W", layers_[i].W);
            out.emplace_back(name + "/b", layers_[i].b);
        }
        return out;
    }

    cn::Array operator()(cn::Array h) const {
        for (size_t i = 0; i < layers_.size(); ++i) {
            h = cn::linear(h, layers_[i].W, layers_[i].b, 1);
            if (i + 1 < layers_.size()) h = cn::relu(h);
        }
        return h;
    }

private:
    std::vector<Linear> layers_;
};

std::vector<int64_t> parse_sizes(const std::string& s) {
    std::vector<int64_t> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ',')) {
        char* end = nullptr;
        long long v = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || v < 1) throw std::invalid_argument("--sizes: bad width '" + part + "'");
        out.push_back(v);
    }
    if (out.size() < 2) throw std::invalid_argument("--sizes needs at least an input and an output width");
    return out;
}

int usage() {
    std::fprintf(stderr,
                 "usage: infer_npz MODEL.npz INPUTS.npz --sizes IN,HIDDEN...,OUT [--prefix P] [--input KEY] "
                 "[--out OUT.npz]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> positional;
    std::string sizes_arg, prefix, input_key = "x", out_path;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--sizes" && has_value) sizes_arg = argv[++i];
        else if (a == "--prefix" && has_value) prefix = argv[++i];
        else if (a == "--input" && has_value) input_key = argv[++i];
        else if (a == "--out" && has_value) out_path = argv[++i];
        else if (a.rfind("--", 0) == 0) return usage();
        else positional.push_back(a);
    }
    if (positional.size() != 2 || sizes_arg.empty()) return usage();
    try {
        MLP model(parse_sizes(sizes_arg));
        cn::load_params(cn::NpzFile(positional[0]), model.params(), prefix);

        cn::Array x = cn::NpzFile(positional[1]).get(input_key);
        if (x.dtype() != cn::Dtype::Float32) x = cn::astype(x, cn::Dtype::Float32);

        // Inference only: no graph is recorded.
        cn::BackpropModeScope no_graph(false);
        cn::Array y = model(x);

        std::printf("infer_npz: %s -> y %s float32\n", x.shape().str().c_str(), y.shape().str().c_str());
        std::vector<float> v = cn::to_vector<float>(y);
        int64_t cols = y.ndim() > 1 ? y.shape()[y.ndim() - 1] : 1;
        int64_t rows = std::min<int64_t>(y.size() / std::max<int64_t>(cols, 1), 3);
        for (int64_t r = 0; r < rows; ++r) {
            std::printf("  y[%lld] =", static_cast<long long>(r));
            for (int64_t c = 0; c < cols; ++c) std::printf(" %.6f", v[r * cols + c]);
            std::printf("\n");
        }
        if (!out_path.empty()) {
            cn::save_npz(out_path, {{"y", y}});
            std::printf("wrote %s\n", out_path.c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "infer_npz: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
