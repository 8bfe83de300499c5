// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QObject>

#include "core/kube/client_config.h"
#include "core/kube/server_side_apply.h"
#include "core/model/manifest_reader.h"

namespace dra::console {

class ClusterThread;

// Runs kube::serverSideApply() for the console on a thread of its own, as kube::LiveMirror runs the
// mirror: the REST client lives there, and the outcomes come back to the owner's thread, so the
// GUI thread never waits on the cluster. One run at a time.
class ClusterApply final : public QObject
{
    Q_OBJECT
public:
    explicit ClusterApply(kube::ClientConfig config, QObject *parent = nullptr);

    // Starts a run; finished() follows.
    void run(std::vector<model::ManifestDocument> documents, kube::ApplyOptions options);

Q_SIGNALS:
    void finished(const std::vector<dra::kube::ApplyOutcome> &outcomes);

private:
    ClusterThread *m_thread;
};

} // namespace dra::console
