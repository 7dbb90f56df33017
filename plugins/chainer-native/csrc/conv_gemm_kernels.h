// The instruction-set-specific half of conv_gemm: packing of a block of
// columns from the images, and the register tiles of the GEMM. Built in its
// own translation unit with the vector ISA enabled and called only after
// the CPU was checked, so nothing in it may be shared with the rest of the
// library: plain data in, plain data out, no standard-library templates
// (an out-of-line copy compiled for AVX-512 could be picked by the linker
// for every other caller).
#pragma once

#include <cstdint>

namespace cn {
namespace conv_gemm_detail {

// A tile is kRows output channels by kVecs vectors of columns; kRows * kVecs
// accumulators plus kVecs column vectors and a broadcast fit the 32 vector
// registers.
template <typename T>
struct Tiling;
template <>
struct Tiling<float> {
    static constexpr int kRows = 8;
    static constexpr int kVecs = 3;
    static constexpr int kLanes = 16;
    static constexpr int kCols = kVecs * kLanes;
};
template <>
struct Tiling<double> {
    static constexpr int kRows = 8;
    static constexpr int kVecs = 3;
    static constexpr int kLanes = 8;
    static constexpr int kCols = kVecs * kLanes;
};

// `len` consecutive output positions (ox0, ox0 + 1, ...) of output row oy
// of the image at offset `image` (elements from x), whose columns land in
// the packed block at strip `strip`, columns col .. col + len - 1 (a run
// never crosses a strip or an output row).
struct ColumnRun {
    int64_t image;
    int64_t iy0;  // oy * s_h - p_h: the input row of tap ky = 0
    int64_t ix0;  // ox0 * s_w - p_w: the input column of tap kx = 0
    int32_t strip, col, len;
};

// What the packing of one block of columns needs (one group's geometry).
template <typename T>
struct PackArgs {
    const T* x;
    int64_t in_h, in_w, k_h, k_w, s_w, d_h, d_w;
    int64_t k0, kc;             // rows k0 .. k0 + kc - 1 of the column matrix
    const ColumnRun* runs;
    int64_t nruns;
    T* out;                     // strips of kc x kCols, aligned to 64 bytes
};

// Packs the block: out[strip][k - k0][col] = x[c][iy][ix] of the tap
// (c, ky, kx) = k, 0 in the padding. Columns of a strip that no run covers
// are left as they are.
template <typename T>
void pack_columns_avx512(const PackArgs<T>& a);

// out[k][i] = w[i * ldw + k] for k < kc, i < rows; kRows values per k.
template <typename T>
void pack_weights_avx512(const T* w, int64_t ldw, int rows, int64_t kc, T* out);

// Where columns begin .. end - 1 of a tile go: column j of tile row i to
// c[(row0 + i) * ldc + j - begin]. A strip that crosses from one image into the next
// has one segment per image.
template <typename T>
struct Segment {
    int32_t begin, end;
    T* c;
};

// c[i][j] (= or +=) sum_k a[k][i] b[k][j] (+ bias[i]) for i < rows and the
// columns j of the segments (all below cols <= kCols): a is kRows per k
// (rows <= kRows used), b one strip (kCols per k, 64-byte aligned), c rows
// ldc apart. accumulate: add to what c holds; bias: null or rows values.
template <typename T>
void tile_avx512(int rows, int cols, int64_t kc, const T* a, const T* b, const Segment<T>* segs,
                 int nsegs, int64_t row0, int64_t ldc, bool accumulate, const T* bias);

}  // namespace conv_gemm_detail
}  // namespace cn
