// SPDX-License-Identifier: MIT
// A program whose Eigen settings give Eigen::Vector2d another alignment than the library's build
// (built with EIGEN_DONT_VECTORIZE): including the headers must stop its compilation with
// contact/types.hpp's message, not link into a program that reads structs at other offsets.
#include "contact/contact.hpp"

int main() {
    const contact::Obb2 box;
    return box.halfExtent.x() == 0.0 ? 0 : 1;
}
