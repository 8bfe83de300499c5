// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Widgets need a QApplication: the test main asks for one through this hook.
#include <memory>

#include <QApplication>

std::unique_ptr<QCoreApplication> draCreateTestApplication(int &argc, char **argv)
{
    // Widget tests never need a display (test discovery at build time runs without ctest's
    // environment, so this cannot be left to dra_add_test).
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QApplication>(argc, argv);
}
