// SPDX-License-Identifier: MIT
// VTK XML UnstructuredGrid writing: the markup, and each data array either inline as ASCII or as
// zlib-compressed binary appended data. Internal; never installed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace mesh_io::detail {

/// Writes one .vtu file to a stream: beginPiece, point data, cell data, points, cells, endPiece
/// (any number of pieces), then finish.
///
/// Binary arrays follow the VTK XML format (header_type UInt64, vtkZLibDataCompressor): each
/// array's bytes are cut into blocks of kBlockSize, each block compressed by zlib, and the array
/// stored in the appended section as the header [block count, block size, size of the last
/// block if partial (else 0), compressed size of each block] (UInt64 each) followed by the
/// compressed blocks; the array's offset attribute is where its header starts after the '_'.
class VtuEncoder {
public:
    static constexpr std::size_t kBlockSize = 32768;

    VtuEncoder(std::ostream& out, bool ascii, const std::string& comment);

    void beginPiece(std::int64_t points, std::int64_t cells);
    void beginPointData(const char* scalars, const char* vectors);
    void beginCellData(const char* scalars);
    void endData(const char* tag);  ///< "PointData" or "CellData"
    void beginPoints();
    void endPoints();
    void beginCells();
    void endCells();
    void endPiece();
    /// The appended section (binary) and the closing tags.
    void finish();

    /// One data array of `components` values per tuple (name may be null: the points).
    void array(const char* name, int components, const std::vector<double>& v);
    void array(const char* name, int components, const std::vector<std::int32_t>& v);
    void array(const char* name, int components, const std::vector<std::int64_t>& v);
    void array(const char* name, int components, const std::vector<std::uint8_t>& v);

private:
    template <class T>
    void put(const char* type, const char* name, int components, const std::vector<T>& v);
    void open(const char* type, const char* name, int components);
    void appendCompressed(const void* data, std::size_t bytes);

    std::ostream& out_;
    bool ascii_;
    std::string appended_;  // compressed arrays, in order
};

}  // namespace mesh_io::detail
