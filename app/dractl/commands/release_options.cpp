// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/release_options.h"

namespace dra::cli {

void addReleaseOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("kubernetes-version"),
        QStringLiteral("Follow this Kubernetes release (1.%1 to 1.%2) instead of the cluster's "
                       "recorded version (the newest release when that is not known).")
            .arg(release::kOldestModelledMinor)
            .arg(release::developmentReleaseMinor()),
        QStringLiteral("1.NN") });
    parser.addOption({ QStringLiteral("feature-gates"),
        QStringLiteral("DRA feature gates as kube-apiserver and kube-scheduler take them "
                       "(DRAListTypeAttributes=true,...); the defaults are the release's."),
        QStringLiteral("gates") });
}

release::ReleaseChoice releaseChoiceOf(const QCommandLineParser &parser)
{
    return { parser.value(QStringLiteral("kubernetes-version")).toStdString(),
        parser.value(QStringLiteral("feature-gates")).toStdString() };
}

} // namespace dra::cli
