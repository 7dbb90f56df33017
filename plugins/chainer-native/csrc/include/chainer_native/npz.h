// Arrays in NumPy's .npy and .npz formats, read and written without Python:
// what numpy.save, numpy.savez, numpy.savez_compressed and chainer's
// serializers.save_npz write, so that a model trained in Python loads into
// a C++ program.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "array.h"

namespace cn {

// Named arrays in a fixed order (a model's parameters, an archive's content).
using NamedArrays = std::vector<std::pair<std::string, Array>>;

// The array held in the bytes of a .npy file: format versions 1.0, 2.0 and
// 3.0; bool, int8/16/32/64, uint8 and float16/32/64 in either byte order; C
// or Fortran order (a Fortran-order array comes back with Fortran strides:
// contiguous() makes a C-order copy). `what` names the data in error
// messages. Throws FormatError for data that is not .npy or is truncated,
// DtypeError for an element type the library lacks (complex, strings,
// Python objects, ...).
Array parse_npy(const uint8_t* data, size_t size, const std::string& what = "npy data");

// The .npy bytes (version 1.0, little-endian, C order) of a.
std::string to_npy(const Array& a);

// An .npz archive: the file is read once, when constructed; each array is
// decoded when asked for. Entries may be stored or deflated (numpy.savez and
// numpy.savez_compressed), in plain or zip64 archives. Copies share the
// file's bytes.
class NpzFile {
public:
    // Throws IOError when the file cannot be read, FormatError when it is
    // not a zip archive.
    explicit NpzFile(const std::string& path);

    const std::string& path() const;
    // The array names in archive order, without the ".npy" of the entries
    // ("predictor/l1/W").
    std::vector<std::string> keys() const;
    bool contains(const std::string& key) const;
    // A new array holding the entry's data. Throws KeyError (naming the key
    // and the archive's keys), FormatError, DtypeError.
    Array get(const std::string& key) const;

private:
    struct Impl;
    std::shared_ptr<const Impl> impl_;
};

// Every array of the archive at path, by name.
std::map<std::string, Array> load_npz(const std::string& path);

// Writes arrays as an .npz archive (stored entries) that numpy.load reads.
// The archive is written next to path and renamed into place, so a failure
// never leaves a partial file at path. Throws IOError.
void save_npz(const std::string& path, const NamedArrays& arrays);

// Fills a model's parameters from an archive such as chainer's save_npz
// writes: params[i].second, allocated with the model's shape and dtype,
// receives the array named prefix + params[i].first (prefix "predictor/"
// for a model saved inside an L.Classifier). Every parameter is checked
// before any is written, so on error the model is left as it was; the
// message lists every mismatch, naming the key, the shape and dtype the
// model expects and what the archive holds. Thrown: KeyError when an array
// is missing, ShapeError when a shape differs, DtypeError when a dtype
// differs (no conversion, which could hide a wrong file), whichever comes
// first; unless allow_unused, an array under prefix that no parameter takes
// is an error too (ShapeError: the model and the file disagree).
void load_params(const NpzFile& file, const NamedArrays& params, const std::string& prefix = "",
                 bool allow_unused = false);

}  // namespace cn
