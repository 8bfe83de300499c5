// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/writer_lock.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QDir>
#include <QFile>

#include "core/common/json_text.h"

namespace dra::store {

namespace {

// The command line of this process, arguments separated by spaces, as `ps` would show it.
std::string ownCommandLine()
{
    QFile file(QStringLiteral("/proc/self/cmdline"));
    std::string line;
    if (file.open(QIODevice::ReadOnly))
        line = file.readAll().toStdString();
    while (!line.empty() && line.back() == '\0')
        line.pop_back();
    for (char &c : line) {
        if (c == '\0' || c == '\n')
            c = ' ';
    }
    return line;
}

bool writeAll(int fd, const std::string &text)
{
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

// "pid 1234 (dractl sync)" from the holder's lock file, or a vaguer text if it is still
// being written (the holder writes right after locking).
QString describeHolder(const QString &lockPath)
{
    QFile file(lockPath);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("another process");
    const QByteArray content = file.read(4096);
    const qsizetype newline = content.indexOf('\n');
    if (newline <= 0)
        return QStringLiteral("another process");
    bool ok = false;
    const qint64 pid = content.left(newline).trimmed().toLongLong(&ok);
    if (!ok)
        return QStringLiteral("another process");
    const QString command = QString::fromUtf8(content.mid(newline + 1)).trimmed();
    return QStringLiteral("pid %1 (%2)")
        .arg(pid)
        .arg(command.isEmpty() ? QStringLiteral("?") : command);
}

} // namespace

WriterLock::WriterLock(WriterLock &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
{
}

WriterLock &WriterLock::operator=(WriterLock &&other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

WriterLock::~WriterLock()
{
    release();
}

QString WriterLock::lockPath(const QString &databasePath)
{
    return databasePath + QStringLiteral(".lock");
}

Result<WriterLock> WriterLock::acquire(const QString &databasePath)
{
    const QString path = lockPath(databasePath);
    const QByteArray native = QFile::encodeName(path);
    // O_CLOEXEC: a child process (an exec'd credential plugin) must not inherit the lock.
    const int fd = ::open(native.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return fail(common::Error::Code::Database,
            QDir::toNativeSeparators(path) + QStringLiteral(": cannot open the lock file: ")
                + common::qs(std::strerror(errno)));
    }
    WriterLock lock(fd);
    // flock, not fcntl: fcntl locks are per process, so a second writer inside this process
    // would not be refused, and closing any descriptor of the file would drop the lock.
    int rc;
    do {
        rc = ::flock(fd, LOCK_EX | LOCK_NB);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        if (errno == EWOULDBLOCK) {
            return fail(common::Error::Code::Busy,
                QDir::toNativeSeparators(databasePath) + QStringLiteral(" is being written by ")
                    + describeHolder(path));
        }
        return fail(common::Error::Code::Database,
            QDir::toNativeSeparators(path) + QStringLiteral(": cannot lock: ")
                + common::qs(std::strerror(errno)));
    }
    const std::string holder = std::to_string(::getpid()) + '\n' + ownCommandLine() + '\n';
    if (::ftruncate(fd, 0) != 0 || ::lseek(fd, 0, SEEK_SET) != 0 || !writeAll(fd, holder)) {
        return fail(common::Error::Code::Database,
            QDir::toNativeSeparators(path) + QStringLiteral(": cannot write the lock file: ")
                + common::qs(std::strerror(errno)));
    }
    return lock;
}

void WriterLock::release()
{
    if (m_fd < 0)
        return;
    // The file stays: deleting it would let a writer that opened the old inode and one that
    // creates a new file both believe they hold the lock.
    if (::ftruncate(m_fd, 0) != 0) {
        // Harmless: the next holder rewrites the file, and nobody is refused on stale text.
    }
    ::flock(m_fd, LOCK_UN);
    ::close(m_fd);
    m_fd = -1;
}

} // namespace dra::store
