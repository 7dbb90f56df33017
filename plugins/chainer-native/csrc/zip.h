// The subset of the zip format that .npz archives use: reading the central
// directory (zip64 included) and entries stored or deflated, and writing
// stored entries. The format facts come from PKWARE's APPNOTE and RFC 1951.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cn {
namespace zip {

// CRC-32 (ISO 3309, the zip polynomial) of n bytes, continuing from crc.
uint32_t crc32(const uint8_t* data, size_t n, uint32_t crc = 0);

// Decompresses a raw DEFLATE stream (RFC 1951, no zlib header) of exactly
// src_size bytes into dst, which must come out exactly dst_size bytes long.
// Throws FormatError (what: the entry, for the message) on a corrupt or
// truncated stream, or one whose length differs from dst_size.
void inflate(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size, const std::string& what);

struct Entry {
    std::string name;
    uint16_t method = 0;  // 0 stored, 8 deflated
    uint16_t flags = 0;
    uint32_t crc = 0;
    uint64_t compressed_size = 0;
    uint64_t size = 0;
    uint64_t header_offset = 0;  // of the local header
};

// The entries of the archive held in data[0, n), in directory order.
// Throws FormatError naming `path` when it is not a zip archive or is
// truncated.
std::vector<Entry> read_directory(const uint8_t* data, size_t n, const std::string& path);

// Entry e of the archive, uncompressed and checked against its CRC, into
// dst (e.size bytes). Throws FormatError for encrypted entries, methods
// other than stored and deflated, and corrupt data.
void extract(const uint8_t* data, size_t n, const Entry& e, uint8_t* dst, const std::string& path);

// Builds an archive of stored (uncompressed) entries in memory.
class Writer {
public:
    void add(const std::string& name, const std::string& bytes);
    // The complete archive (local entries, central directory, end record).
    std::string finish();

private:
    std::string out_;
    std::vector<Entry> entries_;
};

}  // namespace zip
}  // namespace cn
