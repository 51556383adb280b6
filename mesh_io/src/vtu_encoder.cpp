// SPDX-License-Identifier: MIT
#include "vtu_encoder.hpp"

#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace mesh_io::detail {
namespace {

void putU64(std::string& s, std::uint64_t v) {
    char b[8];
    std::memcpy(b, &v, 8);  // little endian: the byte_order the file declares (x86, ARM)
    s.append(b, 8);
}

void ascii(std::ostream& out, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %.17g", v);  // nan: VTK's reader takes it
    out << buf;
}
void ascii(std::ostream& out, std::int32_t v) { out << ' ' << v; }
void ascii(std::ostream& out, std::int64_t v) { out << ' ' << v; }
void ascii(std::ostream& out, std::uint8_t v) { out << ' ' << static_cast<int>(v); }

template <class T>
void writeAscii(std::ostream& out, const std::vector<T>& v, int components) {
    const std::size_t perLine = components == 1 ? 8 : static_cast<std::size_t>(components);
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i % perLine == 0) {
            out << (i == 0 ? "" : "\n") << "         ";
        }
        ascii(out, v[i]);
    }
    out << '\n';
}

}  // namespace

VtuEncoder::VtuEncoder(std::ostream& out, bool ascii, const std::string& comment)
    : out_(out), ascii_(ascii) {
    out_ << "<?xml version=\"1.0\"?>\n";
    if (!comment.empty()) {
        out_ << "<!-- " << comment << " -->\n";
    }
    out_ << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\""
         << (ascii_ ? "" : " compressor=\"vtkZLibDataCompressor\"") << ">\n  <UnstructuredGrid>\n";
}

void VtuEncoder::beginPiece(std::int64_t points, std::int64_t cells) {
    out_ << "    <Piece NumberOfPoints=\"" << points << "\" NumberOfCells=\"" << cells << "\">\n";
}

void VtuEncoder::beginPointData(const char* scalars, const char* vectors) {
    out_ << "      <PointData Scalars=\"" << scalars << "\" Vectors=\"" << vectors << "\">\n";
}

void VtuEncoder::beginCellData(const char* scalars) {
    out_ << "      <CellData Scalars=\"" << scalars << "\">\n";
}

void VtuEncoder::endData(const char* tag) { out_ << "      </" << tag << ">\n"; }
void VtuEncoder::beginPoints() { out_ << "      <Points>\n"; }
void VtuEncoder::endPoints() { out_ << "      </Points>\n"; }
void VtuEncoder::beginCells() { out_ << "      <Cells>\n"; }
void VtuEncoder::endCells() { out_ << "      </Cells>\n"; }
void VtuEncoder::endPiece() { out_ << "    </Piece>\n"; }

void VtuEncoder::finish() {
    out_ << "  </UnstructuredGrid>\n";
    if (!ascii_) {
        out_ << "  <AppendedData encoding=\"raw\">\n   _";
        out_.write(appended_.data(), static_cast<std::streamsize>(appended_.size()));
        out_ << "\n  </AppendedData>\n";
    }
    out_ << "</VTKFile>\n";
}

void VtuEncoder::open(const char* type, const char* name, int components) {
    out_ << "        <DataArray type=\"" << type << "\"";
    if (name != nullptr) {
        out_ << " Name=\"" << name << "\"";
    }
    if (components != 1) {
        out_ << " NumberOfComponents=\"" << components << "\"";
    }
    if (ascii_) {
        out_ << " format=\"ascii\">\n";
    } else {
        out_ << R"( format="appended" offset=")" << appended_.size() << "\"/>\n";
    }
}

void VtuEncoder::appendCompressed(const void* data, std::size_t bytes) {
    const std::size_t blocks = (bytes + kBlockSize - 1) / kBlockSize;
    const std::size_t headerAt = appended_.size();
    putU64(appended_, blocks);
    putU64(appended_, kBlockSize);
    putU64(appended_, bytes % kBlockSize);
    for (std::size_t b = 0; b < blocks; ++b) {
        putU64(appended_, 0);  // compressed sizes, filled in below
    }
    std::vector<Bytef> buf(compressBound(kBlockSize));
    const auto* p = static_cast<const Bytef*>(data);
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t n = std::min(kBlockSize, bytes - b * kBlockSize);
        uLongf size = static_cast<uLongf>(buf.size());
        if (compress2(buf.data(), &size, p + b * kBlockSize, static_cast<uLong>(n),
                      Z_DEFAULT_COMPRESSION) != Z_OK) {
            throw std::runtime_error("zlib failed to compress a VTU data block");
        }
        appended_.append(reinterpret_cast<const char*>(buf.data()), size);
        const std::uint64_t s = size;
        std::memcpy(&appended_[headerAt + 24 + 8 * b], &s, 8);
    }
}

template <class T>
void VtuEncoder::put(const char* type, const char* name, int components, const std::vector<T>& v) {
    open(type, name, components);
    if (ascii_) {
        writeAscii(out_, v, components);
        out_ << "        </DataArray>\n";
    } else {
        appendCompressed(v.data(), v.size() * sizeof(T));
    }
}

void VtuEncoder::array(const char* name, int components, const std::vector<double>& v) {
    put("Float64", name, components, v);
}
void VtuEncoder::array(const char* name, int components, const std::vector<std::int32_t>& v) {
    put("Int32", name, components, v);
}
void VtuEncoder::array(const char* name, int components, const std::vector<std::int64_t>& v) {
    put("Int64", name, components, v);
}
void VtuEncoder::array(const char* name, int components, const std::vector<std::uint8_t>& v) {
    put("UInt8", name, components, v);
}

}  // namespace mesh_io::detail
