// Exceptions of the library, all std::runtime_error: a C++ program catches
// them as such, and the Python binding maps each to a Python exception class,
// so no error ends the process.
#pragma once

#include <stdexcept>
#include <string>

namespace cn {

// A wrong element type (Python TypeError).
struct DtypeError : std::runtime_error { using std::runtime_error::runtime_error; };
// A wrong shape, axis or parameter value (Python ValueError).
struct ShapeError : std::runtime_error { using std::runtime_error::runtime_error; };
// An index outside its dimension (Python IndexError).
struct IndexError : std::runtime_error { using std::runtime_error::runtime_error; };
// Misuse of the autograd API, e.g. backward twice (Python RuntimeError).
struct GradError : std::runtime_error { using std::runtime_error::runtime_error; };
// A file that cannot be opened, read or written (Python OSError).
struct IOError : std::runtime_error { using std::runtime_error::runtime_error; };
// A file whose content is not what its format says: a truncated or foreign
// archive, a malformed header (Python ValueError).
struct FormatError : std::runtime_error { using std::runtime_error::runtime_error; };
// A name that is not there, e.g. an array missing from an archive (Python
// KeyError).
struct KeyError : std::runtime_error { using std::runtime_error::runtime_error; };

}  // namespace cn
