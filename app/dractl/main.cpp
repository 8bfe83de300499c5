// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl: runs the command its arguments name; each lives in commands/ and registers itself.
#include <QCoreApplication>

#include "app/dractl/command_registry.h"

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dractl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DRA_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("draconsole"));
    return dra::cli::dispatch(QCoreApplication::arguments());
}
