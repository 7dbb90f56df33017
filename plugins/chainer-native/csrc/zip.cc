#include "zip.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "errors.h"

namespace cn {
namespace zip {

namespace {

// ---------------------------------------------------------------------------
// CRC-32: the reflected polynomial 0xEDB88320, one table lookup per byte.

constexpr std::array<uint32_t, 256> make_crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}

constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

// ---------------------------------------------------------------------------
// DEFLATE (RFC 1951).

[[noreturn]] void corrupt(const std::string& what, const std::string& why) {
    throw FormatError(what + ": corrupt deflate data (" + why + ")");
}

// Bits are read least-significant first, as DEFLATE packs them.
class BitReader {
public:
    BitReader(const uint8_t* p, size_t n, const std::string& what) : p_(p), n_(n), what_(what) {}

    // The next k (<= 32) bits without consuming them; bits past the end of
    // the input read as zero (a Huffman code near the end may be shorter
    // than the lookup width).
    uint32_t peek(int k) {
        while (count_ < k && pos_ < n_) {
            buf_ |= static_cast<uint64_t>(p_[pos_++]) << count_;
            count_ += 8;
        }
        return static_cast<uint32_t>(buf_ & ((uint64_t(1) << k) - 1));
    }
    void skip(int k) {
        if (k > count_) corrupt(what_, "the stream ends early");
        buf_ >>= k;
        count_ -= k;
    }
    uint32_t bits(int k) {
        uint32_t v = peek(k);
        skip(k);
        return v;
    }
    // Drops the bits left in the current byte (before a stored block).
    void align() { skip(count_ % 8); }
    // Copies n bytes verbatim (a stored block), after align().
    void copy_bytes(uint8_t* dst, size_t n) {
        // Whole bytes still held in the bit buffer come first.
        while (n > 0 && count_ >= 8) {
            *dst++ = static_cast<uint8_t>(buf_ & 0xffu);
            buf_ >>= 8;
            count_ -= 8;
            --n;
        }
        if (n > n_ - pos_) corrupt(what_, "a stored block runs past the end of the stream");
        std::memcpy(dst, p_ + pos_, n);
        pos_ += n;
    }
    const std::string& what() const { return what_; }

private:
    const uint8_t* p_;
    size_t n_;
    size_t pos_ = 0;
    uint64_t buf_ = 0;
    int count_ = 0;
    const std::string& what_;
};

constexpr int kMaxBits = 15;
constexpr int kFastBits = 9;

// A canonical Huffman code (RFC 1951, 3.2.2) with a table for codes of up
// to kFastBits bits and a bit-at-a-time walk for the longer ones.
class Huffman {
public:
    // lengths[s]: the code length of symbol s (0: unused).
    void build(const uint8_t* lengths, int n, const std::string& what) {
        std::fill(std::begin(count_), std::end(count_), 0);
        for (int s = 0; s < n; ++s) ++count_[lengths[s]];
        count_[0] = 0;
        // More codes of a length than the shorter ones leave room for: no
        // prefix code has those lengths.
        int left = 1;
        for (int len = 1; len <= kMaxBits; ++len) {
            left = left * 2 - count_[len];
            if (left < 0) corrupt(what, "over-subscribed Huffman code");
        }
        int offs[kMaxBits + 2];
        offs[1] = 0;
        for (int len = 1; len <= kMaxBits; ++len) offs[len + 1] = offs[len] + count_[len];
        symbols_.assign(offs[kMaxBits + 1], 0);
        for (int s = 0; s < n; ++s)
            if (lengths[s]) symbols_[offs[lengths[s]]++] = static_cast<uint16_t>(s);
        // Fast table: codes are assigned in increasing order per length, and
        // appear bit-reversed in the stream.
        fast_.assign(size_t(1) << kFastBits, 0);
        int code = 0, index = 0;
        for (int len = 1; len <= kFastBits; ++len) {
            for (int i = 0; i < count_[len]; ++i, ++code, ++index) {
                uint32_t rev = reverse(code, len);
                uint16_t entry = static_cast<uint16_t>((symbols_[index] << 4) | len);
                for (uint32_t fill = rev; fill < (1u << kFastBits); fill += 1u << len) fast_[fill] = entry;
            }
            code <<= 1;
        }
    }

    int decode(BitReader& in) const {
        uint16_t e = fast_[in.peek(kFastBits)];
        if (e) {
            in.skip(e & 15);
            return e >> 4;
        }
        // Longer codes: walk the lengths, tracking the first code of each.
        int code = 0, first = 0, index = 0;
        for (int len = 1; len <= kMaxBits; ++len) {
            code |= static_cast<int>(in.bits(1));
            int count = count_[len];
            if (code - first < count) return symbols_[index + (code - first)];
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        corrupt(in.what(), "invalid Huffman code");
    }

private:
    static uint32_t reverse(uint32_t code, int len) {
        uint32_t r = 0;
        for (int i = 0; i < len; ++i, code >>= 1) r = (r << 1) | (code & 1u);
        return r;
    }

    int count_[kMaxBits + 1] = {};
    std::vector<uint16_t> symbols_;
    std::vector<uint16_t> fast_;  // (symbol << 4) | length; 0: not a short code
};

constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which a dynamic block lists the code-length code's lengths.
constexpr uint8_t kCodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

class Inflater {
public:
    Inflater(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size, const std::string& what)
        : in_(src, src_size, what), dst_(dst), cap_(dst_size), what_(what) {}

    void run() {
        bool last = false;
        while (!last) {
            last = in_.bits(1) != 0;
            switch (in_.bits(2)) {
                case 0: stored(); break;
                case 1: fixed(); break;
                case 2: dynamic(); break;
                default: corrupt(what_, "reserved block type");
            }
        }
        if (out_ != cap_)
            throw FormatError(what_ + ": deflate data gives " + std::to_string(out_) + " bytes, the archive says " +
                              std::to_string(cap_));
    }

private:
    void stored() {
        in_.align();
        uint32_t len = in_.bits(16), nlen = in_.bits(16);
        if ((len ^ 0xffffu) != nlen) corrupt(what_, "a stored block's length check fails");
        if (len > cap_ - out_) too_long();
        in_.copy_bytes(dst_ + out_, len);
        out_ += len;
    }

    void fixed() {
        uint8_t lengths[288 + 30];
        std::fill(lengths, lengths + 144, 8);
        std::fill(lengths + 144, lengths + 256, 9);
        std::fill(lengths + 256, lengths + 280, 7);
        std::fill(lengths + 280, lengths + 288, 8);
        std::fill(lengths + 288, lengths + 318, 5);
        lit_.build(lengths, 288, what_);
        dist_.build(lengths + 288, 30, what_);
        codes();
    }

    void dynamic() {
        int nlit = static_cast<int>(in_.bits(5)) + 257;
        int ndist = static_cast<int>(in_.bits(5)) + 1;
        int ncode = static_cast<int>(in_.bits(4)) + 4;
        if (nlit > 286 || ndist > 30) corrupt(what_, "too many length or distance codes");
        uint8_t cl[19] = {};
        for (int i = 0; i < ncode; ++i) cl[kCodeLengthOrder[i]] = static_cast<uint8_t>(in_.bits(3));
        Huffman clcode;
        clcode.build(cl, 19, what_);
        uint8_t lengths[286 + 30] = {};
        int n = 0;
        while (n < nlit + ndist) {
            int sym = clcode.decode(in_);
            if (sym < 16) {
                lengths[n++] = static_cast<uint8_t>(sym);
                continue;
            }
            uint8_t value = 0;
            int repeat;
            if (sym == 16) {
                if (n == 0) corrupt(what_, "a length repeat with no previous length");
                value = lengths[n - 1];
                repeat = 3 + static_cast<int>(in_.bits(2));
            } else if (sym == 17) {
                repeat = 3 + static_cast<int>(in_.bits(3));
            } else {
                repeat = 11 + static_cast<int>(in_.bits(7));
            }
            if (n + repeat > nlit + ndist) corrupt(what_, "code lengths overrun their count");
            std::fill(lengths + n, lengths + n + repeat, value);
            n += repeat;
        }
        if (lengths[256] == 0) corrupt(what_, "no end-of-block code");
        lit_.build(lengths, nlit, what_);
        dist_.build(lengths + nlit, ndist, what_);
        codes();
    }

    // The literal/length and distance codes of one block, up to its end.
    void codes() {
        for (;;) {
            int sym = lit_.decode(in_);
            if (sym < 256) {
                if (out_ == cap_) too_long();
                dst_[out_++] = static_cast<uint8_t>(sym);
                continue;
            }
            if (sym == 256) return;
            sym -= 257;
            if (sym >= 29) corrupt(what_, "invalid length code");
            size_t len = kLengthBase[sym] + in_.bits(kLengthExtra[sym]);
            int dsym = dist_.decode(in_);
            if (dsym >= 30) corrupt(what_, "invalid distance code");
            size_t dist = kDistBase[dsym] + in_.bits(kDistExtra[dsym]);
            if (dist > out_) corrupt(what_, "a distance reaches before the start of the data");
            if (len > cap_ - out_) too_long();
            // Byte by byte: the source may overlap what is being written.
            const uint8_t* from = dst_ + out_ - dist;
            for (size_t i = 0; i < len; ++i) dst_[out_ + i] = from[i];
            out_ += len;
        }
    }

    [[noreturn]] void too_long() {
        throw FormatError(what_ + ": deflate data is longer than the " + std::to_string(cap_) +
                          " bytes the archive says");
    }

    BitReader in_;
    uint8_t* dst_;
    size_t cap_;
    size_t out_ = 0;
    const std::string& what_;
    Huffman lit_, dist_;
};

// ---------------------------------------------------------------------------
// Little-endian fields.

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t u32(const uint8_t* p) { return static_cast<uint32_t>(u16(p)) | (static_cast<uint32_t>(u16(p + 2)) << 16); }
uint64_t u64(const uint8_t* p) { return static_cast<uint64_t>(u32(p)) | (static_cast<uint64_t>(u32(p + 4)) << 32); }

void put16(std::string& s, uint32_t v) {
    s.push_back(static_cast<char>(v & 0xff));
    s.push_back(static_cast<char>((v >> 8) & 0xff));
}
void put32(std::string& s, uint32_t v) {
    put16(s, v & 0xffff);
    put16(s, v >> 16);
}

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50, kZip64LocatorSig = 0x07064b50;
constexpr size_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30;

[[noreturn]] void bad_archive(const std::string& path, const std::string& why) {
    throw FormatError(path + ": not a valid zip (npz) archive: " + why);
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t n, uint32_t crc) {
    crc = ~crc;
    for (size_t i = 0; i < n; ++i) crc = kCrcTable[(crc ^ data[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

void inflate(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size, const std::string& what) {
    Inflater(src, src_size, dst, dst_size, what).run();
}

std::vector<Entry> read_directory(const uint8_t* data, size_t n, const std::string& path) {
    if (n < kEndSize) bad_archive(path, "the file is " + std::to_string(n) + " bytes, too short for a zip archive");
    // The end record is the last thing in the file, followed only by a
    // comment of at most 65535 bytes.
    size_t end = n - kEndSize;
    size_t lowest = n - kEndSize > 65535 ? n - kEndSize - 65535 : 0;
    for (;; --end) {
        if (u32(data + end) == kEndSig && end + kEndSize + u16(data + end + 20) == n) break;
        if (end == lowest) bad_archive(path, "no end-of-central-directory record (truncated, or not a zip file)");
    }
    uint64_t count = u16(data + end + 10);
    uint64_t dir_size = u32(data + end + 12);
    uint64_t dir_offset = u32(data + end + 16);
    if (count == 0xffff || dir_size == 0xffffffffu || dir_offset == 0xffffffffu) {
        // Zip64: a locator just before the end record points at the zip64
        // end record, which holds the full-width values.
        if (end < 20 || u32(data + end - 20) != kZip64LocatorSig) bad_archive(path, "zip64 locator missing");
        uint64_t z = u64(data + end - 20 + 8);
        if (n < 56 || z > n - 56 || u32(data + z) != kZip64EndSig) bad_archive(path, "zip64 end record missing");
        count = u64(data + z + 32);
        dir_size = u64(data + z + 40);
        dir_offset = u64(data + z + 48);
    }
    if (dir_offset > n || dir_size > n - dir_offset) bad_archive(path, "the central directory lies outside the file");
    std::vector<Entry> entries;
    uint64_t pos = dir_offset, stop = dir_offset + dir_size;
    for (uint64_t i = 0; i < count; ++i) {
        if (stop - pos < kCentralSize || u32(data + pos) != kCentralSig)
            bad_archive(path, "central directory entry " + std::to_string(i) + " is damaged");
        const uint8_t* h = data + pos;
        Entry e;
        e.flags = u16(h + 8);
        e.method = u16(h + 10);
        e.crc = u32(h + 16);
        e.compressed_size = u32(h + 20);
        e.size = u32(h + 24);
        uint64_t name_len = u16(h + 28), extra_len = u16(h + 30), comment_len = u16(h + 32);
        e.header_offset = u32(h + 42);
        if (stop - pos - kCentralSize < name_len + extra_len + comment_len)
            bad_archive(path, "central directory entry " + std::to_string(i) + " runs past the directory");
        e.name.assign(reinterpret_cast<const char*>(h + kCentralSize), name_len);
        // The zip64 extra field holds, in this order, whichever of the size,
        // compressed size and offset did not fit their 32-bit fields.
        const uint8_t* x = h + kCentralSize + name_len;
        const uint8_t* xend = x + extra_len;
        while (xend - x >= 4) {
            uint16_t id = u16(x), len = u16(x + 2);
            if (xend - x - 4 < len) break;
            if (id == 0x0001) {
                const uint8_t* f = x + 4;
                const uint8_t* fend = f + len;
                auto take = [&](uint64_t& field) {
                    if (fend - f < 8) bad_archive(path, "entry " + e.name + ": short zip64 field");
                    field = u64(f);
                    f += 8;
                };
                if (e.size == 0xffffffffu) take(e.size);
                if (e.compressed_size == 0xffffffffu) take(e.compressed_size);
                if (e.header_offset == 0xffffffffu) take(e.header_offset);
            }
            x += 4 + len;
        }
        entries.push_back(std::move(e));
        pos += kCentralSize + name_len + extra_len + comment_len;
    }
    return entries;
}

void extract(const uint8_t* data, size_t n, const Entry& e, uint8_t* dst, const std::string& path) {
    std::string what = path + ": entry " + e.name;
    if (e.flags & 1u) throw FormatError(what + " is encrypted");
    if (e.header_offset > n || n - e.header_offset < kLocalSize || u32(data + e.header_offset) != kLocalSig)
        throw FormatError(what + ": local header missing (truncated archive?)");
    const uint8_t* h = data + e.header_offset;
    uint64_t start = e.header_offset + kLocalSize + u16(h + 26) + u16(h + 28);
    if (start > n || e.compressed_size > n - start)
        throw FormatError(what + ": data runs past the end of the file (truncated archive?)");
    const uint8_t* src = data + start;
    if (e.method == 0) {
        if (e.compressed_size != e.size) throw FormatError(what + ": stored entry with differing sizes");
        std::memcpy(dst, src, e.size);
    } else if (e.method == 8) {
        inflate(src, e.compressed_size, dst, e.size, what);
    } else {
        throw FormatError(what + ": compression method " + std::to_string(e.method) +
                          " is not supported (only stored and deflated)");
    }
    if (crc32(dst, e.size) != e.crc) throw FormatError(what + ": CRC-32 mismatch (corrupt archive)");
}

void Writer::add(const std::string& name, const std::string& bytes) {
    // Plain zip fields are 32 bits wide; larger archives would need zip64.
    uint64_t total = static_cast<uint64_t>(out_.size()) + kLocalSize + name.size() + bytes.size();
    if (total >= 0xffffffffu)
        throw FormatError("save_npz: archives of 4 GiB or more are not supported (entry " + name + ")");
    if (name.size() > 0xffff) throw FormatError("save_npz: entry name too long: " + name.substr(0, 64) + "...");
    Entry e;
    e.name = name;
    e.crc = crc32(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    e.size = e.compressed_size = bytes.size();
    e.header_offset = out_.size();
    put32(out_, kLocalSig);
    put16(out_, 20);  // version needed: 2.0
    put16(out_, 0);   // flags
    put16(out_, 0);   // stored
    put16(out_, 0);   // time
    put16(out_, 0x21);  // date: 1980-01-01
    put32(out_, e.crc);
    put32(out_, static_cast<uint32_t>(e.size));
    put32(out_, static_cast<uint32_t>(e.size));
    put16(out_, static_cast<uint32_t>(name.size()));
    put16(out_, 0);  // extra length
    out_ += name;
    out_ += bytes;
    entries_.push_back(std::move(e));
}

std::string Writer::finish() {
    size_t dir_offset = out_.size();
    for (const Entry& e : entries_) {
        put32(out_, kCentralSig);
        put16(out_, 20);  // made by: 2.0
        put16(out_, 20);  // needed: 2.0
        put16(out_, 0);
        put16(out_, 0);
        put16(out_, 0);
        put16(out_, 0x21);
        put32(out_, e.crc);
        put32(out_, static_cast<uint32_t>(e.compressed_size));
        put32(out_, static_cast<uint32_t>(e.size));
        put16(out_, static_cast<uint32_t>(e.name.size()));
        put16(out_, 0);  // extra
        put16(out_, 0);  // comment
        put16(out_, 0);  // disk
        put16(out_, 0);  // internal attributes
        put32(out_, 0);  // external attributes
        put32(out_, static_cast<uint32_t>(e.header_offset));
        out_ += e.name;
    }
    size_t dir_size = out_.size() - dir_offset;
    if (entries_.size() >= 0xffff || out_.size() >= 0xffffffffu)
        throw FormatError("save_npz: archives of 65535 entries or 4 GiB or more are not supported");
    put32(out_, kEndSig);
    put16(out_, 0);
    put16(out_, 0);
    put16(out_, static_cast<uint32_t>(entries_.size()));
    put16(out_, static_cast<uint32_t>(entries_.size()));
    put32(out_, static_cast<uint32_t>(dir_size));
    put32(out_, static_cast<uint32_t>(dir_offset));
    put16(out_, 0);  // comment
    std::string done = std::move(out_);
    out_.clear();
    entries_.clear();
    return done;
}

}  // namespace zip
}  // namespace cn
