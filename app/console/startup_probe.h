// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QWidget;

namespace dra::console {

// Milliseconds this process had been running when it was asked (Linux: /proc), so startup
// figures include what happens before main(): the dynamic loader and static initialisers.
// -1 when the system does not tell.
qint64 processAgeMs();

// A bench aid (`draconsole --startup-report`): watches the window until the first paint of its
// landing page after the data has loaded, then prints one JSON line of timings and quits:
// {"process_to_main_ms":..,"main_to_loaded_ms":..,"main_to_first_paint_ms":..,
//  "first_paint_ms":..,"devices":..,"nodes":..} — first_paint_ms counts from the process start.
class StartupProbe final : public QObject
{
    Q_OBJECT
public:
    // `sinceMain` was started at the top of main(); `processToMainMs` is processAgeMs() then.
    StartupProbe(
        QWidget *page, QElapsedTimer sinceMain, qint64 processToMainMs, QObject *parent = nullptr);

    // The session loaded its snapshot with this many devices and nodes; paints from now count.
    void markLoaded(qint64 devices, qint64 nodes);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void report();

    QPointer<QWidget> m_page;
    QElapsedTimer m_sinceMain;
    qint64 m_processToMainMs;
    qint64 m_loadedMs = -1;
    qint64 m_paintedMs = -1;
    qint64 m_devices = 0;
    qint64 m_nodes = 0;
};

} // namespace dra::console
