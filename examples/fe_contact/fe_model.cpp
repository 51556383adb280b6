// SPDX-License-Identifier: MIT
#include "fe_model.hpp"

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cmath>
#include <stdexcept>

namespace fe {
namespace {

constexpr double kGauss = 0.577350269189625765;  // 1 / sqrt(3): 2-point Gauss-Legendre

// Reference corners of Quad4 (xi, eta) and Hex8 (xi, eta, zeta), counter-clockwise.
constexpr double kQuad[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
constexpr double kHex[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                               {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

// Elasticity matrix: plane strain (3 x 3: xx, yy, xy) or 3D (6 x 6: xx, yy, zz, yz, xz, xy).
Eigen::MatrixXd elasticity(const Material& mat, int dim) {
    const double E = mat.E;
    const double nu = mat.nu;
    const double c = E / ((1 + nu) * (1 - 2 * nu));
    if (dim == 2) {
        Eigen::Matrix3d C;
        C << 1 - nu, nu, 0, nu, 1 - nu, 0, 0, 0, 0.5 - nu;
        return c * C;
    }
    Eigen::Matrix<double, 6, 6> C = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            C(i, j) = i == j ? 1 - nu : nu;
        }
        C(3 + i, 3 + i) = 0.5 - nu;
    }
    return c * C;
}

// Element stiffness by Gauss quadrature: B^T C B det(J) over the points.
Eigen::MatrixXd elementStiffness(const Model& m, std::size_t e) {
    const int dim = m.dim;
    const int nn = dim == 2 ? 4 : 8;
    const Eigen::MatrixXd C = elasticity(m.material[e], dim);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(dim * nn, dim * nn);
    Eigen::MatrixXd x(dim, nn);
    for (int a = 0; a < nn; ++a) {
        x.col(a) = m.X[static_cast<std::size_t>(m.elements[e][a])].head(dim);
    }
    const int points = dim == 2 ? 4 : 8;
    for (int g = 0; g < points; ++g) {
        const double xi[3] = {(g & 1) != 0 ? kGauss : -kGauss, (g & 2) != 0 ? kGauss : -kGauss,
                              (g & 4) != 0 ? kGauss : -kGauss};
        Eigen::MatrixXd dN(dim, nn);  // derivatives with respect to the local coordinates
        for (int a = 0; a < nn; ++a) {
            if (dim == 2) {
                dN(0, a) = 0.25 * kQuad[a][0] * (1 + kQuad[a][1] * xi[1]);
                dN(1, a) = 0.25 * kQuad[a][1] * (1 + kQuad[a][0] * xi[0]);
            } else {
                const double* r = kHex[a];
                dN(0, a) = 0.125 * r[0] * (1 + r[1] * xi[1]) * (1 + r[2] * xi[2]);
                dN(1, a) = 0.125 * r[1] * (1 + r[0] * xi[0]) * (1 + r[2] * xi[2]);
                dN(2, a) = 0.125 * r[2] * (1 + r[0] * xi[0]) * (1 + r[1] * xi[1]);
            }
        }
        const Eigen::MatrixXd J = dN * x.transpose();  // J(l, k) = dx_k / dxi_l
        const double det = J.determinant();
        if (!(det > 0.0)) {
            throw std::runtime_error("element " + std::to_string(e) + ": inverted or collapsed");
        }
        const Eigen::MatrixXd dNdx = J.inverse() * dN;
        Eigen::MatrixXd B = Eigen::MatrixXd::Zero(dim == 2 ? 3 : 6, dim * nn);
        for (int a = 0; a < nn; ++a) {
            if (dim == 2) {
                B(0, 2 * a) = dNdx(0, a);
                B(1, 2 * a + 1) = dNdx(1, a);
                B(2, 2 * a) = dNdx(1, a);
                B(2, 2 * a + 1) = dNdx(0, a);
            } else {
                for (int k = 0; k < 3; ++k) {
                    B(k, 3 * a + k) = dNdx(k, a);
                }
                B(3, 3 * a + 1) = dNdx(2, a);  // yz
                B(3, 3 * a + 2) = dNdx(1, a);
                B(4, 3 * a) = dNdx(2, a);  // xz
                B(4, 3 * a + 2) = dNdx(0, a);
                B(5, 3 * a) = dNdx(1, a);  // xy
                B(5, 3 * a + 1) = dNdx(0, a);
            }
        }
        K += B.transpose() * C * B * det;
    }
    return K;
}

}  // namespace

int Model::addNode(const Eigen::Vector3d& x) {
    X.push_back(x);
    fixed.resize(static_cast<std::size_t>(numDofs()), 0);
    force.conservativeResize(numDofs());
    force.tail(dim).setZero();
    return numNodes() - 1;
}

Grid addBlock2d(Model& m, int nx, int ny, const std::function<Eigen::Vector2d(int, int)>& pos,
                const Material& mat) {
    Grid g;
    g.nx = nx;
    g.ny = ny;
    for (int j = 0; j <= ny; ++j) {
        for (int i = 0; i <= nx; ++i) {
            const Eigen::Vector2d p = pos(i, j);
            g.node.push_back(m.addNode(Eigen::Vector3d(p.x(), p.y(), 0.0)));
        }
    }
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            m.elements.push_back(
                {g.at(i, j), g.at(i + 1, j), g.at(i + 1, j + 1), g.at(i, j + 1), -1, -1, -1, -1});
            m.material.push_back(mat);
        }
    }
    return g;
}

Grid addBlock3d(Model& m, int nx, int ny, int nz,
                const std::function<Eigen::Vector3d(int, int, int)>& pos, const Material& mat) {
    Grid g;
    g.nx = nx;
    g.ny = ny;
    g.nz = nz;
    for (int k = 0; k <= nz; ++k) {
        for (int j = 0; j <= ny; ++j) {
            for (int i = 0; i <= nx; ++i) {
                g.node.push_back(m.addNode(pos(i, j, k)));
            }
        }
    }
    for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
            for (int i = 0; i < nx; ++i) {
                m.elements.push_back({g.at(i, j, k), g.at(i + 1, j, k), g.at(i + 1, j + 1, k),
                                      g.at(i, j + 1, k), g.at(i, j, k + 1), g.at(i + 1, j, k + 1),
                                      g.at(i + 1, j + 1, k + 1), g.at(i, j + 1, k + 1)});
                m.material.push_back(mat);
            }
        }
    }
    return g;
}

Eigen::SparseMatrix<double> stiffness(const Model& m) {
    std::vector<Eigen::Triplet<double>> t;
    const int nn = m.dim == 2 ? 4 : 8;
    for (std::size_t e = 0; e < m.elements.size(); ++e) {
        const Eigen::MatrixXd K = elementStiffness(m, e);
        for (int a = 0; a < nn; ++a) {
            for (int b = 0; b < nn; ++b) {
                for (int i = 0; i < m.dim; ++i) {
                    for (int j = 0; j < m.dim; ++j) {
                        t.emplace_back(m.dim * m.elements[e][a] + i, m.dim * m.elements[e][b] + j,
                                       K(m.dim * a + i, m.dim * b + j));
                    }
                }
            }
        }
    }
    Eigen::SparseMatrix<double> K(m.numDofs(), m.numDofs());
    K.setFromTriplets(t.begin(), t.end());
    return K;
}

void addEdgeTraction(Model& m, int a, int b, const Eigen::Vector2d& t) {
    const double L = (m.X[static_cast<std::size_t>(b)] - m.X[static_cast<std::size_t>(a)]).norm();
    for (const int n : {a, b}) {
        m.force.segment(2 * n, 2) += 0.5 * L * t;
    }
}

void addFaceTraction(Model& m, const std::array<int, 4>& face, const Eigen::Vector3d& t) {
    for (int g = 0; g < 4; ++g) {
        const double xi = (g & 1) != 0 ? kGauss : -kGauss;
        const double eta = (g & 2) != 0 ? kGauss : -kGauss;
        Eigen::Vector3d dXi = Eigen::Vector3d::Zero();
        Eigen::Vector3d dEta = Eigen::Vector3d::Zero();
        double N[4];
        for (int a = 0; a < 4; ++a) {
            const Eigen::Vector3d& x = m.X[static_cast<std::size_t>(face[a])];
            N[a] = 0.25 * (1 + kQuad[a][0] * xi) * (1 + kQuad[a][1] * eta);
            dXi += 0.25 * kQuad[a][0] * (1 + kQuad[a][1] * eta) * x;
            dEta += 0.25 * kQuad[a][1] * (1 + kQuad[a][0] * xi) * x;
        }
        const double J = dXi.cross(dEta).norm();
        for (int a = 0; a < 4; ++a) {
            m.force.segment(3 * face[a], 3) += N[a] * J * t;
        }
    }
}

}  // namespace fe
