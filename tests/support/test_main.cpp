// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The main of every test executable: a Qt application object exists for the whole run, so code
// under test may use event loops, timers and signals. Widget tests define
// draCreateTestApplication() to get a QApplication instead of a QCoreApplication.
#include <memory>

#include <QCoreApplication>

#include <gtest/gtest.h>

// What a test executable returns when every test it ran was skipped.
constexpr int kAllSkipped = 77;

__attribute__((weak)) std::unique_ptr<QCoreApplication> draCreateTestApplication(
    int &argc, char **argv);

int main(int argc, char **argv)
{
    std::unique_ptr<QCoreApplication> app = draCreateTestApplication
        ? draCreateTestApplication(argc, argv)
        : std::make_unique<QCoreApplication>(argc, argv);
    testing::InitGoogleTest(&argc, argv);
    const int failed = RUN_ALL_TESTS();
    // A suite whose every test skipped (its reference data absent) says so with ctest's skip
    // code, set as SKIP_RETURN_CODE; a failing test never reads as a skip.
    const testing::UnitTest &run = *testing::UnitTest::GetInstance();
    if (failed == 0 && run.test_to_run_count() > 0
        && run.skipped_test_count() == run.test_to_run_count())
        return kAllSkipped;
    return failed;
}
