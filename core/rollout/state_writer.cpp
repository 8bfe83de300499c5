// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/state_writer.h"

#include <QElapsedTimer>
#include <QThread>

namespace dra::rollout {

Result<store::StateDb> openStateWriter(const QString &path, int waitMs)
{
    QElapsedTimer waited;
    waited.start();
    while (true) {
        Result<store::StateDb> state = store::StateDb::open(path, store::OpenMode::ReadWrite);
        if (state || state.error().code != common::Error::Code::Busy || waited.elapsed() >= waitMs)
            return state;
        QThread::msleep(20);
    }
}

} // namespace dra::rollout
