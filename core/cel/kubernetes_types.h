// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

#include "core/cel/env.h"
#include "core/cel/value.h"
#include "core/model/quantity.h"
#include "core/model/version.h"

namespace dra::cel {

// CEL values of Kubernetes' library types. The borrowing forms point at a quantity or version
// that must outlive the evaluation (a device view's); the owning forms copy.
Value borrowedQuantityValue(const model::Quantity &quantity);
Value quantityValue(model::Quantity quantity);
Value borrowedSemverValue(const model::Version &version);
Value semverValue(model::Version version);

// The host types, for overload parameter lists.
const HostType *quantityType();
const HostType *semverType();

// Registration of the Kubernetes quantity and semver libraries.
void registerQuantityLibrary(FunctionRegistry &registry);
// `normalize`: also semver(s, normalize) and isSemver(s, normalize) (Kubernetes 1.33's version 1).
void registerSemverLibrary(FunctionRegistry &registry, bool normalize);

} // namespace dra::cel
