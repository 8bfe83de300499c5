// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QTimer>

namespace dra::cli {

// Lets Ctrl-C and TERM end a long-running command (serve, sync) cleanly: the signal handler
// only records the signal, and a timer on the event loop quits the loop, so shutdown runs in
// normal code. One per process, for the command's lifetime.
class StopOnSignal final
{
public:
    StopOnSignal();
    StopOnSignal(const StopOnSignal &) = delete;
    StopOnSignal &operator=(const StopOnSignal &) = delete;

    // Whether INT or TERM has arrived.
    static bool requested();

private:
    QTimer m_check;
};

} // namespace dra::cli
