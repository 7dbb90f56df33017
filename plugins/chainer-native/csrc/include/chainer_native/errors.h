// Exceptions of the library; the binding maps each to a Python exception
// class, so no error ends the process.
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

}  // namespace cn
