// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl as a user runs it: a real process (DRACTL_PATH, set by the test target), its stdout,
// stderr and exit status.
#pragma once

#include <string>

#include <QProcess>
#include <QStringList>

#include <gtest/gtest.h>

namespace dra::test {

struct DractlRun
{
    int exitCode = -1; // -1 when it crashed or did not finish
    std::string out, err;
};

inline DractlRun dractl(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(DRACTL_PATH), arguments);
    EXPECT_TRUE(process.waitForFinished(120000)) << "dractl did not finish";
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
             process.readAllStandardOutput().toStdString(), process.readAllStandardError().toStdString() };
}

} // namespace dra::test
