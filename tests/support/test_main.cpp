// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The main of every test executable: a Qt application object exists for the whole run, so code
// under test may use event loops, timers and signals. Widget tests define
// draCreateTestApplication() to get a QApplication instead of a QCoreApplication.
#include <memory>

#include <QCoreApplication>

#include <gtest/gtest.h>

__attribute__((weak)) std::unique_ptr<QCoreApplication> draCreateTestApplication(
    int &argc, char **argv);

int main(int argc, char **argv)
{
    std::unique_ptr<QCoreApplication> app = draCreateTestApplication
        ? draCreateTestApplication(argc, argv)
        : std::make_unique<QCoreApplication>(argc, argv);
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
