// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for kubeconfig parsing (core/kube/kubeconfig.h) and the resolution of its
// contexts into client settings (core/kube/client_config.h: embedded certificates and keys,
// server URLs, proxies, impersonation). The input is a kubeconfig file. Contexts that name
// files (a CA, a client certificate or key, a token file) are not resolved: the input could
// name any file on the machine. The driver: fuzz_driver.h.

#include <cstddef>
#include <cstdint>

#include <QByteArray>
#include <QString>

#include "core/kube/client_config.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/proxy.h"
#include "tests/fuzz/fuzz_driver.h"

namespace {

bool namesFiles(const dra::kube::Kubeconfig &config, const dra::kube::KubeContext &context)
{
    if (const auto cluster = config.clusters.find(context.cluster);
        cluster != config.clusters.end() && !cluster->second.certificateAuthority.isEmpty())
        return true;
    if (const auto user = config.users.find(context.user); user != config.users.end()) {
        const dra::kube::KubeUser &u = user->second;
        return !u.clientCertificate.isEmpty() || !u.clientKey.isEmpty() || !u.tokenFile.isEmpty();
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto config
        = dra::kube::parseKubeconfig(text, QStringLiteral("/nonexistent/fuzz/kubeconfig"));
    if (!config)
        return 0;
    (void)config->filesText();
    (void)config->chooseContext({});
    const dra::kube::ProxyEnvironment proxies { QStringLiteral("http://proxy.example:3128"), {},
        QStringLiteral("localhost,.internal") };
    for (const auto &[name, context] : config->contexts) {
        (void)config->chooseContext(name);
        if (namesFiles(*config, context))
            continue;
        if (const auto resolved = dra::kube::resolveContext(*config, name, proxies))
            (void)resolved->describe();
    }
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "kubeconfig_fuzz", &LLVMFuzzerTestOneInput,
            dra::fuzz::join(dra::fuzz::yamlTokens(),
                { "clusters:", "users:", "contexts:", "current-context: ", "cluster:", "user:",
                    "context:", "server: ", "https://127.0.0.1:6443", "http://[::1]:80/base",
                    "certificate-authority-data: ", "client-certificate-data: ",
                    "client-key-data: ", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==", "!!!!",
                    "insecure-skip-tls-verify: true", "tls-server-name: ", "proxy-url: ",
                    "socks5://127.0.0.1:1080", "token: ", "username: ", "password: ", "as: ",
                    "as-uid: ", "as-groups:", "as-user-extra:", "exec:", "command: ", "args:",
                    "env:", "apiVersion: client.authentication.k8s.io/v1", "interactiveMode: Never",
                    "provideClusterInfo: true", "auth-provider:", "extensions:", "extension:",
                    "client.authentication.k8s.io/exec", "namespace: ", "preferences: {}",
                    "kind: Config" }) });
}
#endif
