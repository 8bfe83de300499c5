// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/kube_fixture.h"

#include <filesystem>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <gtest/gtest.h>

#include "tests/support/upstream.h"

namespace dra::kube::test {

const Pem &KubeconfigFixtures::ca()
{
    static const Pem pem = makeCa("test-ca");
    return pem;
}

const Pem &KubeconfigFixtures::rsaClient()
{
    static const Pem pem = makeLeaf(ca(), "rsa-user", {}, KeyType::Rsa);
    return pem;
}

const Pem &KubeconfigFixtures::ecClient()
{
    static const Pem pem = makeLeaf(ca(), "ec-user", {}, KeyType::Ec);
    return pem;
}

KubeconfigFixtures::KubeconfigFixtures()
{
    const std::filesystem::path source = dra::test::testDataPath("kube");
    const std::pair<QByteArray, QByteArray> replacements[] = {
        { "@CA_DATA@", ca().certificate.toBase64() },
        { "@RSA_CERT_DATA@", rsaClient().certificate.toBase64() },
        { "@RSA_KEY_DATA@", rsaClient().keyTraditional.toBase64() },
        { "@EC_CERT_DATA@", ecClient().certificate.toBase64() },
        { "@EC_KEY_PKCS8_DATA@", ecClient().key.toBase64() },
    };
    for (const auto &entry : std::filesystem::directory_iterator(source)) {
        if (!entry.is_regular_file())
            continue;
        QByteArray text = QByteArray::fromStdString(dra::test::readFile(entry.path()));
        for (const auto &[placeholder, value] : replacements)
            text.replace(placeholder, value);
        writeFile(path(QString::fromStdString(entry.path().filename().string())), text);
    }
    writeFile(path(QStringLiteral("pki/ca.crt")), ca().certificate);
    writeFile(path(QStringLiteral("pki/client.crt")), rsaClient().certificate);
    writeFile(path(QStringLiteral("pki/client.key")), rsaClient().keyTraditional);
    writeFile(path(QStringLiteral("secrets/token")), "file-token\n");
}

void writeFile(const QString &path, const QByteArray &text, bool executable)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate)) << path.toStdString();
    file.write(text);
    file.close();
    if (executable)
        file.setPermissions(
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

bool spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(1);
    }
    return true;
}

} // namespace dra::kube::test
