// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/startup_probe.h"

#include <cstdio>

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>
#include <QWidget>

#include <unistd.h>

namespace dra::console {

qint64 processAgeMs()
{
    // Field 22 of /proc/self/stat is the start time in clock ticks after boot; /proc/uptime
    // is now, in seconds after boot.
    QFile stat(QStringLiteral("/proc/self/stat"));
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const qsizetype close = text.lastIndexOf(')');
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    const long ticks = sysconf(_SC_CLK_TCK);
    if (fields.size() < 20 || ticks <= 0)
        return -1;
    const double startSeconds
        = fields[19].toDouble() / double(ticks); // field 22 is the 20th after ')'
    const double nowSeconds = uptime.readAll().split(' ').value(0).toDouble();
    return qint64((nowSeconds - startSeconds) * 1000.0);
}

StartupProbe::StartupProbe(
    QWidget *page, QElapsedTimer sinceMain, qint64 processToMainMs, QObject *parent)
    : QObject(parent)
    , m_page(page)
    , m_sinceMain(sinceMain)
    , m_processToMainMs(processToMainMs)
{
    QCoreApplication::instance()->installEventFilter(this);
}

void StartupProbe::markLoaded(qint64 devices, qint64 nodes)
{
    m_loadedMs = m_sinceMain.elapsed();
    m_devices = devices;
    m_nodes = nodes;
    if (m_page)
        m_page->update(); // a page already on screen paints again with the data
}

bool StartupProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && m_loadedMs >= 0 && m_paintedMs < 0 && m_page) {
        auto *widget = qobject_cast<QWidget *>(watched);
        if (widget && (widget == m_page || m_page->isAncestorOf(widget))) {
            m_paintedMs = -2; // pending: the paint is being delivered now
            // Counted once this paint has been delivered, i.e. the pixels are in the back buffer.
            QTimer::singleShot(0, this, [this] {
                m_paintedMs = m_sinceMain.elapsed();
                report();
            });
        }
    }
    return QObject::eventFilter(watched, event);
}

void StartupProbe::report()
{
    QCoreApplication::instance()->removeEventFilter(this);
    const qint64 processToMain = m_processToMainMs < 0 ? 0 : m_processToMainMs;
    std::printf(
        "{\"process_to_main_ms\":%lld,\"main_to_loaded_ms\":%lld,\"main_to_first_paint_ms\":%lld,"
        "\"first_paint_ms\":%lld,\"devices\":%lld,\"nodes\":%lld}\n",
        static_cast<long long>(processToMain), static_cast<long long>(m_loadedMs),
        static_cast<long long>(m_paintedMs), static_cast<long long>(processToMain + m_paintedMs),
        static_cast<long long>(m_devices), static_cast<long long>(m_nodes));
    std::fflush(stdout);
    QCoreApplication::quit();
}

} // namespace dra::console
