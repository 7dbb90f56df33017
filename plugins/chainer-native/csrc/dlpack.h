// The DLPack ABI (data structures exchanged through PyCapsules), written
// from the DLPack specification: legacy (unversioned) and 1.x tensors.
#pragma once

#include <cstdint>

namespace cn {
namespace dlpack {

enum DeviceType : int32_t { kCPU = 1 };
enum TypeCode : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBool = 6 };

struct Device {
    int32_t device_type;
    int32_t device_id;
};

struct DataType {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
};

struct Tensor {
    void* data;
    Device device;
    int32_t ndim;
    DataType dtype;
    int64_t* shape;
    int64_t* strides;  // in elements; null means C-contiguous
    uint64_t byte_offset;
};

struct ManagedTensor {
    Tensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(ManagedTensor*);
};

struct Version {
    uint32_t major;
    uint32_t minor;
};

constexpr uint64_t kFlagReadOnly = 1ull << 0;

struct ManagedTensorVersioned {
    Version version;
    void* manager_ctx;
    void (*deleter)(ManagedTensorVersioned*);
    uint64_t flags;
    Tensor dl_tensor;
};

}  // namespace dlpack
}  // namespace cn
