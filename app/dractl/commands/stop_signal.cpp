// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/stop_signal.h"

#include <atomic>
#include <csignal>

#include <QCoreApplication>

namespace dra::cli {
namespace {

std::atomic<int> g_stopSignal { 0 };

void onStopSignal(int signal)
{
    g_stopSignal.store(signal);
}

} // namespace

StopOnSignal::StopOnSignal()
{
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    QObject::connect(&m_check, &QTimer::timeout, &m_check, [] {
        if (requested())
            QCoreApplication::quit();
    });
    m_check.start(100);
}

bool StopOnSignal::requested()
{
    return g_stopSignal.load() != 0;
}

} // namespace dra::cli
