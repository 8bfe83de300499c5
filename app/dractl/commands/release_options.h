// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// --kubernetes-version and --feature-gates: the release every command that checks or simulates
// follows instead of the cluster's own (release::chooseRelease() decides).
#pragma once

#include <QCommandLineParser>

#include "core/release/release_choice.h"

namespace dra::cli {

void addReleaseOptions(QCommandLineParser &parser);

// What the two options ask for (empty when not given).
release::ReleaseChoice releaseChoiceOf(const QCommandLineParser &parser);

} // namespace dra::cli
