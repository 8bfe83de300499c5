// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/common/result.h"

namespace dra::store {

// The single-writer guarantee for one database file: an exclusive flock on FILE.lock, which also
// names the holder (pid and command line) so a refused writer can say who is in the way. The
// kernel drops the lock when the holder dies, so a crashed writer never blocks the next one.
// Readers take no lock. Move-only; released on destruction. Any thread.
class WriterLock final
{
public:
    WriterLock() = default;
    WriterLock(WriterLock &&other) noexcept;
    WriterLock &operator=(WriterLock &&other) noexcept;
    WriterLock(const WriterLock &) = delete;
    WriterLock &operator=(const WriterLock &) = delete;
    ~WriterLock();

    // Takes the lock for `databasePath` without waiting. Fails with Error::Code::Busy and
    // "FILE is being written by pid N (COMMAND)" while another writer, in this process or
    // another, holds it.
    [[nodiscard]] static Result<WriterLock> acquire(const QString &databasePath);

    // The lock file for a database: FILE.lock beside it.
    static QString lockPath(const QString &databasePath);

    bool isHeld() const { return m_fd >= 0; }

private:
    explicit WriterLock(int fd)
        : m_fd(fd)
    {
    }
    void release();

    int m_fd = -1;
};

} // namespace dra::store
