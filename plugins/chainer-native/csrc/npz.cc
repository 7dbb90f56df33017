// .npy and .npz reading and writing. The .npy format: the magic
// "\x93NUMPY", a major and a minor version byte, the header length (2 bytes
// in version 1, 4 in versions 2 and 3), then the header, a Python dict
// literal with the keys descr, fortran_order and shape, padded with spaces
// and ended by a newline; the raw data follows.
#include "npz.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "creation.h"
#include "zip.h"

namespace cn {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

// A buffer for decoded entries; 64-byte aligned like Array::empty, so that
// the data after the .npy header (which numpy pads to 64 bytes) can be
// viewed in place.
std::shared_ptr<uint8_t> aligned_buffer(uint64_t n, const std::string& what) {
    if (n > (uint64_t(1) << 56)) throw FormatError(what + ": entry of " + std::to_string(n) + " bytes is too big");
    size_t alloc = static_cast<size_t>((n + 63) / 64 * 64);
    if (alloc == 0) alloc = 64;
    void* p = std::aligned_alloc(64, alloc);
    if (!p) throw std::bad_alloc();
    return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
}

// The dict literal of a .npy header. Values: strings, True/False, tuples
// of ints; numpy writes nothing else for the dtypes read here (a list is a
// structured dtype, refused).
class HeaderParser {
public:
    HeaderParser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

    void parse(std::string& descr, bool& fortran, Shape& shape) {
        bool have_descr = false, have_order = false, have_shape = false;
        expect('{');
        for (;;) {
            space();
            if (peek() == '}') break;
            std::string key = string();
            expect(':');
            space();
            if (key == "descr") {
                if (peek() == '[') throw DtypeError(what_ + ": structured dtypes are not supported");
                descr = string();
                have_descr = true;
            } else if (key == "fortran_order") {
                fortran = boolean();
                have_order = true;
            } else if (key == "shape") {
                shape = tuple();
                have_shape = true;
            } else {
                bad("unexpected key '" + key + "'");
            }
            space();
            if (peek() == ',') ++i_;
            else if (peek() != '}') bad("expected ',' or '}'");
        }
        if (!have_descr || !have_order || !have_shape)
            bad("the header lacks one of descr, fortran_order and shape");
    }

private:
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        space();
        if (peek() != c) bad(std::string("expected '") + c + "'");
        ++i_;
    }
    std::string string() {
        space();
        char q = peek();
        if (q != '\'' && q != '"') bad("expected a string");
        size_t end = s_.find(q, i_ + 1);
        if (end == std::string::npos) bad("unterminated string");
        std::string v = s_.substr(i_ + 1, end - i_ - 1);
        i_ = end + 1;
        return v;
    }
    bool boolean() {
        if (s_.compare(i_, 4, "True") == 0) { i_ += 4; return true; }
        if (s_.compare(i_, 5, "False") == 0) { i_ += 5; return false; }
        bad("expected True or False");
    }
    Shape tuple() {
        expect('(');
        Shape shape;
        for (;;) {
            space();
            if (peek() == ')') { ++i_; break; }
            size_t start = i_;
            int64_t v = 0;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[i_] - '0', &v))
                    bad("a dimension does not fit 64 bits");
                ++i_;
            }
            if (i_ == start) bad("expected a non-negative integer in shape");
            if (peek() == 'L') ++i_;  // files written by Python 2
            shape.push_back(v);
            space();
            if (peek() == ',') ++i_;
            else if (peek() != ')') bad("expected ',' or ')' in shape");
        }
        return shape;
    }
    [[noreturn]] void bad(const std::string& why) const {
        throw FormatError(what_ + ": malformed .npy header (" + why + " at offset " + std::to_string(i_) + "): " + s_);
    }

    const std::string& s_;
    const std::string& what_;
    size_t i_ = 0;
};

// The library's dtype of a descr such as '<f4'; sets swap when the data is
// big-endian.
Dtype dtype_of_descr(const std::string& descr, bool& swap, const std::string& what) {
    swap = false;
    if (descr.size() < 2) throw FormatError(what + ": malformed dtype '" + descr + "'");
    char order = descr[0];
    std::string code = descr.substr(1);
    bool little_host = true;
    {
        const uint16_t one = 1;
        uint8_t first;
        std::memcpy(&first, &one, 1);
        little_host = first == 1;
    }
    if (order == '>') swap = little_host;
    else if (order == '<') swap = !little_host;
    else if (order != '|' && order != '=')
        throw FormatError(what + ": malformed dtype '" + descr + "'");
    if (code == "b1") return Dtype::Bool;
    if (code == "i1") return Dtype::Int8;
    if (code == "i2") return Dtype::Int16;
    if (code == "i4") return Dtype::Int32;
    if (code == "i8") return Dtype::Int64;
    if (code == "u1") return Dtype::UInt8;
    if (code == "f2") return Dtype::Float16;
    if (code == "f4") return Dtype::Float32;
    if (code == "f8") return Dtype::Float64;
    std::string why;
    if (code[0] == 'O')
        why = "Python objects, which only pickle can read (in a chainer snapshot: a parameter that was never initialized)";
    else if (code[0] == 'c') why = "complex numbers";
    else if (code[0] == 'U' || code[0] == 'S') why = "strings";
    else if (code[0] == 'u') why = "unsigned integers wider than 8 bits";
    else why = "a type chainer_native has no dtype for";
    throw DtypeError(what + ": dtype '" + descr + "' (" + why + ") is not supported; supported: bool, int8, int16, "
                     "int32, int64, uint8, float16, float32, float64");
}

void byteswap(uint8_t* p, int64_t count, int itemsize) {
    for (int64_t i = 0; i < count; ++i, p += itemsize) std::reverse(p, p + itemsize);
}

// parse_npy on a buffer that the result may share (data starts at buf +
// offset, size bytes).
Array parse_npy_shared(const std::shared_ptr<uint8_t>& buf, size_t offset, size_t size, const std::string& what) {
    const uint8_t* data = buf.get() + offset;
    if (size < kMagicLen + 4 || std::memcmp(data, kMagic, kMagicLen) != 0)
        throw FormatError(what + ": not .npy data (no \\x93NUMPY magic)");
    int major = data[6], minor = data[7];
    size_t header_len, header_start;
    if (major == 1) {
        header_len = data[8] | (data[9] << 8);
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) throw FormatError(what + ": truncated .npy header");
        header_len = static_cast<size_t>(data[8]) | (static_cast<size_t>(data[9]) << 8) |
                     (static_cast<size_t>(data[10]) << 16) | (static_cast<size_t>(data[11]) << 24);
        header_start = 12;
    } else {
        throw FormatError(what + ": .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                          " is not supported (1.0, 2.0 and 3.0 are)");
    }
    if (header_len > size - header_start) throw FormatError(what + ": truncated .npy header");
    // Versions 1 and 2 are latin-1, version 3 UTF-8; the keys and values
    // read here are ASCII in both.
    std::string header(reinterpret_cast<const char*>(data + header_start), header_len);
    std::string descr;
    bool fortran = false;
    Shape shape;
    HeaderParser(header, what).parse(descr, fortran, shape);
    bool swap = false;
    Dtype dtype = dtype_of_descr(descr, swap, what);
    int64_t count = total_size(shape);
    int64_t nbytes = checked_mul(count, itemsize(dtype), what + ": array size");
    size_t data_start = header_start + header_len;
    if (static_cast<uint64_t>(nbytes) != size - data_start)
        throw FormatError(what + ": " + std::to_string(size - data_start) + " bytes of data for shape " + shape.str() +
                          " " + dtype_name(dtype) + ", which takes " + std::to_string(nbytes) +
                          (static_cast<uint64_t>(nbytes) > size - data_start ? " (truncated?)" : ""));
    Strides strides = contiguous_strides(shape, itemsize(dtype));
    if (fortran) {
        int64_t acc = itemsize(dtype);
        for (int i = 0; i < shape.size(); ++i) {
            strides[i] = acc;
            acc *= std::max<int64_t>(shape[i], 1);
        }
    }
    size_t at = offset + data_start;
    Array out;
    if ((reinterpret_cast<uintptr_t>(buf.get() + at) % itemsize(dtype)) == 0) {
        // Aligned: view the decoded entry in place.
        out = Array::view_of(buf, static_cast<int64_t>(at), shape, strides, dtype, true);
    } else {
        out = Array::empty(shape, dtype);
        std::memcpy(out.raw(), buf.get() + at, static_cast<size_t>(nbytes));
        out = Array::view_of(out.data(), 0, shape, strides, dtype, true);
    }
    if (swap && itemsize(dtype) > 1) byteswap(out.raw(), count, itemsize(dtype));
    return out;
}

std::string strip_npy(const std::string& name) {
    if (name.size() >= 4 && name.compare(name.size() - 4, 4, ".npy") == 0) return name.substr(0, name.size() - 4);
    return name;
}

std::string join_keys(const std::vector<std::string>& keys) {
    std::string s;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (i) s += ", ";
        if (i == 20) return s + "... (" + std::to_string(keys.size()) + " in all)";
        s += keys[i];
    }
    return s.empty() ? "none" : s;
}

std::string describe(const Shape& shape, Dtype dtype) { return shape.str() + " " + dtype_name(dtype); }

}  // namespace

Array parse_npy(const uint8_t* data, size_t size, const std::string& what) {
    auto buf = aligned_buffer(size, what);
    std::memcpy(buf.get(), data, size);
    return parse_npy_shared(buf, 0, size, what);
}

std::string to_npy(const Array& a) {
    Array c = contiguous(a.as_data());
    std::string header = "{'descr': '";
    header += c.dtype() == Dtype::Bool || itemsize(c.dtype()) == 1 ? '|' : '<';
    switch (c.dtype()) {
        case Dtype::Bool: header += "b1"; break;
        case Dtype::Int8: header += "i1"; break;
        case Dtype::Int16: header += "i2"; break;
        case Dtype::Int32: header += "i4"; break;
        case Dtype::Int64: header += "i8"; break;
        case Dtype::UInt8: header += "u1"; break;
        case Dtype::Float16: header += "f2"; break;
        case Dtype::Float32: header += "f4"; break;
        case Dtype::Float64: header += "f8"; break;
    }
    header += "', 'fortran_order': False, 'shape': " + c.shape().str() + ", }";
    // numpy pads the header with spaces so that the data starts at a
    // multiple of 64 bytes, then ends it with a newline.
    size_t total = kMagicLen + 4 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    if (header.size() > 0xffff) throw ShapeError("to_npy: header too long for .npy version 1.0");
    std::string out(kMagic, kMagicLen);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    out += header;
    // The library stores numbers in the host's order; .npy says '<'.
    size_t start = out.size();
    out.append(reinterpret_cast<const char*>(c.raw()), static_cast<size_t>(c.nbytes()));
    const uint16_t one = 1;
    uint8_t first;
    std::memcpy(&first, &one, 1);
    if (first != 1 && itemsize(c.dtype()) > 1)
        byteswap(reinterpret_cast<uint8_t*>(&out[start]), c.size(), itemsize(c.dtype()));
    return out;
}

struct NpzFile::Impl {
    std::string path;
    std::vector<uint8_t> bytes;
    std::vector<zip::Entry> entries;
    std::vector<std::string> keys;  // entry names without ".npy"
};

NpzFile::NpzFile(const std::string& path) {
    auto impl = std::make_shared<Impl>();
    impl->path = path;
    std::ifstream f(path, std::ios::binary);
    if (!f) throw IOError("cannot open " + path + ": " + std::strerror(errno));
    f.seekg(0, std::ios::end);
    std::streamoff n = f.tellg();
    if (n < 0) throw IOError("cannot read " + path);
    f.seekg(0, std::ios::beg);
    impl->bytes.resize(static_cast<size_t>(n));
    if (n > 0 && !f.read(reinterpret_cast<char*>(impl->bytes.data()), n)) throw IOError("cannot read " + path);
    impl->entries = zip::read_directory(impl->bytes.data(), impl->bytes.size(), path);
    for (const auto& e : impl->entries) impl->keys.push_back(strip_npy(e.name));
    impl_ = std::move(impl);
}

const std::string& NpzFile::path() const { return impl_->path; }

std::vector<std::string> NpzFile::keys() const { return impl_->keys; }

bool NpzFile::contains(const std::string& key) const {
    return std::find(impl_->keys.begin(), impl_->keys.end(), key) != impl_->keys.end();
}

Array NpzFile::get(const std::string& key) const {
    auto it = std::find(impl_->keys.begin(), impl_->keys.end(), key);
    if (it == impl_->keys.end())
        throw KeyError(impl_->path + ": no array named '" + key + "' (the archive has: " + join_keys(impl_->keys) + ")");
    const zip::Entry& e = impl_->entries[it - impl_->keys.begin()];
    std::string what = impl_->path + ": array '" + key + "'";
    auto buf = aligned_buffer(e.size, what);
    zip::extract(impl_->bytes.data(), impl_->bytes.size(), e, buf.get(), impl_->path);
    return parse_npy_shared(buf, 0, static_cast<size_t>(e.size), what);
}

std::map<std::string, Array> load_npz(const std::string& path) {
    NpzFile f(path);
    std::map<std::string, Array> out;
    for (const auto& k : f.keys()) out[k] = f.get(k);
    return out;
}

void save_npz(const std::string& path, const NamedArrays& arrays) {
    zip::Writer w;
    for (const auto& [name, a] : arrays) {
        if (!a.defined()) throw ShapeError("save_npz: array '" + name + "' is undefined");
        w.add(name + ".npy", to_npy(a));
    }
    std::string bytes = w.finish();
    std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) throw IOError("cannot write " + tmp + ": " + std::strerror(errno));
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        f.close();
        if (!f) {
            std::remove(tmp.c_str());
            throw IOError("cannot write " + tmp);
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        std::remove(tmp.c_str());
        throw IOError("cannot rename " + tmp + " to " + path + ": " + std::strerror(err));
    }
}

void load_params(const NpzFile& file, const NamedArrays& params, const std::string& prefix, bool allow_unused) {
    enum Kind { None, Missing, Shape_, Dtype_, Unused };
    Kind first = None;
    std::vector<std::string> problems;
    auto problem = [&](Kind k, std::string msg) {
        if (first == None) first = k;
        problems.push_back(std::move(msg));
    };
    std::vector<Array> loaded(params.size());
    std::vector<std::string> keys = file.keys();
    std::vector<char> used(keys.size(), 0);
    for (size_t i = 0; i < params.size(); ++i) {
        const auto& [name, p] = params[i];
        std::string key = prefix + name;
        if (!p.defined()) throw ShapeError("load_params: parameter '" + name + "' is undefined");
        auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            problem(Missing, key + ": missing from the file (the model expects " + describe(p.shape(), p.dtype()) + ")");
            continue;
        }
        used[it - keys.begin()] = 1;
        Array a = file.get(key);
        if (a.shape() != p.shape() || a.dtype() != p.dtype()) {
            problem(a.shape() != p.shape() ? Shape_ : Dtype_,
                    key + ": the model expects " + describe(p.shape(), p.dtype()) + ", the file holds " +
                        describe(a.shape(), a.dtype()));
            continue;
        }
        loaded[i] = a;
    }
    if (!allow_unused)
        for (size_t j = 0; j < keys.size(); ++j)
            if (!used[j] && keys[j].compare(0, prefix.size(), prefix) == 0)
                problem(Unused, keys[j] + ": in the file, but the model has no such parameter");
    if (!problems.empty()) {
        std::string msg = file.path() + " does not match the model's parameters";
        if (!prefix.empty()) msg += " (under '" + prefix + "')";
        msg += ":";
        for (const auto& s : problems) msg += "\n  " + s;
        bool missing = std::any_of(params.begin(), params.end(), [&](const auto& p) {
            return std::find(keys.begin(), keys.end(), prefix + p.first) == keys.end();
        });
        // A wrong prefix shows as every key missing: say what is there.
        if (missing) msg += "\n(the file holds: " + join_keys(keys) + ")";
        if (first == Missing) throw KeyError(msg);
        if (first == Dtype_) throw DtypeError(msg);
        throw ShapeError(msg);
    }
    for (size_t i = 0; i < params.size(); ++i) assign(params[i].second, loaded[i]);
}

}  // namespace cn
