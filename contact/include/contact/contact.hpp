// SPDX-License-Identifier: MIT
// Umbrella header: the whole public API of the contact search.
#pragma once

#include "contact/bounds.hpp"
#include "contact/clipping.hpp"
#include "contact/contact_search.hpp"
#include "contact/exact_sum.hpp"
#include "contact/mortar.hpp"
#include "contact/pairs.hpp"
#include "contact/projection.hpp"
#include "contact/reference_search.hpp"
#include "contact/sat.hpp"
#include "contact/segment.hpp"
#include "contact/surface.hpp"
#include "contact/tolerances.hpp"
#include "contact/types.hpp"
