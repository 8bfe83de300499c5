// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>

#include <QObject>
#include <QPointer>
#include <QString>

#include "core/kube/client_config.h"

class QThread;

namespace dra::kube {
class RestClient;
}

namespace dra::console {

// A REST client of the console on a thread of its own, as kube::LiveMirror runs the mirror: work
// given to run() uses the client there, so the GUI thread never waits on the cluster. Work still
// going when this is destroyed ends unanswered.
class ClusterThread final : public QObject
{
public:
    ClusterThread(kube::ClientConfig config, const QString &name, QObject *parent = nullptr);
    ~ClusterThread() override;

    // Runs `work` on the thread with the client (made on first use) and an object of that
    // thread to use as the context of its callbacks.
    void run(std::function<void(kube::RestClient &client, QObject *context)> work);

private:
    kube::ClientConfig m_config;
    QThread *m_thread;
    QObject *m_root = nullptr; // lives on m_thread: owns the client
};

// Runs `deliver(owner)` on `owner`'s thread, unless the owner is gone by then: how an answer
// made on a ClusterThread gets back to the object that asked.
template <typename Owner, typename Deliver>
void deliverTo(const QPointer<Owner> &owner, Deliver deliver)
{
    QMetaObject::invokeMethod(
        owner.data(),
        [owner, deliver = std::move(deliver)]() mutable {
            if (owner)
                deliver(*owner);
        },
        Qt::QueuedConnection);
}

} // namespace dra::console
