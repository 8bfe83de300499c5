// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include "core/model/yaml_codec.h"

namespace dra::kube {

namespace {

using common::Error;

// Reads one file's YAML into typed entries. kubectl decodes kubeconfig into typed Go structs,
// so a string field keeps a scalar's text as written (a token of digits stays a string).
class FileReader
{
public:
    explicit FileReader(QString path)
        : m_path(std::move(path))
        , m_dir(QFileInfo(m_path).absolutePath())
    {
    }

    Result<Kubeconfig> read(const QByteArray &text)
    {
        YAML::Node root;
        try {
            root = YAML::Load(text.toStdString());
        } catch (const YAML::Exception &e) {
            return fail(Error::Code::Parse,
                QStringLiteral("%1:%2:%3: %4")
                    .arg(m_path)
                    .arg(e.mark.line + 1)
                    .arg(e.mark.column + 1)
                    .arg(QString::fromStdString(e.msg)));
        }
        Kubeconfig config;
        config.files.append(m_path);
        if (root.IsNull())
            return config; // an empty file is an empty configuration, as kubectl reads it
        if (!root.IsMap())
            return fail(Error::Code::Parse,
                m_path + QStringLiteral(": not a kubeconfig (expected a mapping)"));
        try {
            if (Result<void> ok = readAll(root, config); !ok)
                return fail(ok.error());
        } catch (const YAML::Exception &e) {
            return fail(Error::Code::Parse,
                QStringLiteral("%1:%2: %3")
                    .arg(m_path)
                    .arg(e.mark.line + 1)
                    .arg(QString::fromStdString(e.msg)));
        }
        return config;
    }

private:
    std::unexpected<Error> error(const QString &field, const QString &reason) const
    {
        return fail(Error::Code::Invalid, QStringLiteral("%1: %2: %3").arg(m_path, field, reason));
    }

    Result<QString> string(const YAML::Node &map, const char *key, const QString &where) const
    {
        const YAML::Node node = map[key];
        if (!node || node.IsNull())
            return QString();
        if (!node.IsScalar())
            return error(
                where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected a string"));
        return QString::fromStdString(node.Scalar());
    }

    Result<bool> boolean(const YAML::Node &map, const char *key, const QString &where) const
    {
        const YAML::Node node = map[key];
        if (!node || node.IsNull())
            return false;
        const QString text
            = node.IsScalar() ? QString::fromStdString(node.Scalar()).toLower() : QString();
        // YAML 1.1 booleans, as Kubernetes' YAML decoder accepts them for bool fields.
        if (text == QLatin1String("true") || text == QLatin1String("yes")
            || text == QLatin1String("on") || text == QLatin1String("y"))
            return true;
        if (text == QLatin1String("false") || text == QLatin1String("no")
            || text == QLatin1String("off") || text == QLatin1String("n"))
            return false;
        return error(where + QLatin1Char('.') + QLatin1String(key),
            QStringLiteral("expected true or false"));
    }

    Result<QStringList> strings(const YAML::Node &map, const char *key, const QString &where) const
    {
        const YAML::Node node = map[key];
        QStringList list;
        if (!node || node.IsNull())
            return list;
        if (!node.IsSequence())
            return error(where + QLatin1Char('.') + QLatin1String(key),
                QStringLiteral("expected a list of strings"));
        for (const YAML::Node &item : node) {
            if (!item.IsScalar())
                return error(where + QLatin1Char('.') + QLatin1String(key),
                    QStringLiteral("expected a list of strings"));
            list.append(QString::fromStdString(item.Scalar()));
        }
        return list;
    }

    Result<QByteArray> base64(const YAML::Node &map, const char *key, const QString &where) const
    {
        Result<QString> text = string(map, key, where);
        if (!text)
            return fail(text.error());
        if (text->isEmpty())
            return QByteArray();
        // Go's encoding/base64 (StdEncoding) is strict: padding required, no stray characters.
        // Line breaks from folded YAML are dropped first, as the YAML decoder would.
        QByteArray raw = text->toLatin1();
        raw.replace('\n', QByteArray()).replace('\r', QByteArray());
        const auto decoded
            = QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded || raw.size() % 4 != 0)
            return error(
                where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("not valid base64"));
        return decoded.decoded;
    }

    // A file path as kubectl resolves it: relative to the kubeconfig that names it.
    QString resolvePath(const QString &path) const
    {
        if (path.isEmpty() || QDir::isAbsolutePath(path))
            return path;
        return QDir::cleanPath(QDir(m_dir).absoluteFilePath(path));
    }

    // Walks a named list (clusters, users, contexts): [{name, <field>: {...}}].
    template <typename Entry, typename ReadEntry>
    Result<void> namedList(const YAML::Node &root, const char *list, const char *field,
        std::map<QString, Entry> &out, ReadEntry readEntry)
    {
        const YAML::Node node = root[list];
        if (!node || node.IsNull())
            return {};
        if (!node.IsSequence())
            return error(QLatin1String(list), QStringLiteral("expected a list"));
        int index = 0;
        for (const YAML::Node &item : node) {
            const QString at = QStringLiteral("%1[%2]").arg(QLatin1String(list)).arg(index++);
            if (!item.IsMap())
                return error(at,
                    QStringLiteral("expected a mapping with name and %1")
                        .arg(QLatin1String(field)));
            Result<QString> name = string(item, "name", at);
            if (!name)
                return fail(name.error());
            if (name->isEmpty())
                return error(at + QStringLiteral(".name"), QStringLiteral("missing"));
            const QString where = QStringLiteral("%1[\"%2\"]").arg(QLatin1String(list), *name);
            if (out.contains(*name))
                return error(where, QStringLiteral("duplicate name in the list"));
            YAML::Node body = item[field];
            if (body && !body.IsNull() && !body.IsMap())
                return error(where + QLatin1Char('.') + QLatin1String(field),
                    QStringLiteral("expected a mapping"));
            Entry entry;
            entry.origin = m_path;
            if (body && body.IsMap()) {
                if (Result<void> read = (this->*readEntry)(body, where, entry); !read)
                    return read;
            }
            out.emplace(*name, std::move(entry));
        }
        return {};
    }

    Result<void> readCluster(const YAML::Node &node, const QString &where, KubeCluster &cluster)
    {
        auto text = [&](const char *key, QString &out) -> Result<void> {
            Result<QString> value = string(node, key, where);
            if (!value)
                return fail(value.error());
            out = *value;
            return {};
        };
        for (auto [key, out] : { std::pair { "server", &cluster.server },
                 std::pair { "tls-server-name", &cluster.tlsServerName },
                 std::pair { "proxy-url", &cluster.proxyUrl },
                 std::pair { "certificate-authority", &cluster.certificateAuthority } }) {
            if (Result<void> ok = text(key, *out); !ok)
                return ok;
        }
        cluster.certificateAuthority = resolvePath(cluster.certificateAuthority);
        Result<QByteArray> ca = base64(node, "certificate-authority-data", where);
        if (!ca)
            return fail(ca.error());
        cluster.certificateAuthorityData = *ca;
        Result<bool> insecure = boolean(node, "insecure-skip-tls-verify", where);
        Result<bool> noCompression = boolean(node, "disable-compression", where);
        if (!insecure)
            return fail(insecure.error());
        if (!noCompression)
            return fail(noCompression.error());
        cluster.insecureSkipTlsVerify = *insecure;
        cluster.disableCompression = *noCompression;
        if (const YAML::Node extensions = node["extensions"];
            extensions && extensions.IsSequence()) {
            for (const YAML::Node &extension : extensions) {
                if (extension.IsMap() && extension["name"] && extension["name"].IsScalar()
                    && extension["name"].Scalar() == "client.authentication.k8s.io/exec"
                    && extension["extension"]) {
                    YAML::Emitter emitter;
                    emitter << YAML::Flow << extension["extension"];
                    Result<nlohmann::json> json = model::parseYaml(emitter.c_str(), m_path);
                    if (!json)
                        return error(where + QStringLiteral(".extensions"), json.error().message);
                    cluster.execExtension = std::move(*json);
                }
            }
        }
        return {};
    }

    Result<void> readExec(const YAML::Node &node, const QString &where, ExecConfig &exec)
    {
        for (auto [key, out] :
            { std::pair { "command", &exec.command }, std::pair { "apiVersion", &exec.apiVersion },
                std::pair { "installHint", &exec.installHint } }) {
            Result<QString> value = string(node, key, where);
            if (!value)
                return fail(value.error());
            *out = *value;
        }
        // kubectl resolves a relative command only when it names a path ("./bin/plugin"); a bare
        // name is looked up on PATH.
        if (exec.command.contains(QLatin1Char('/')))
            exec.command = resolvePath(exec.command);
        Result<QStringList> args = strings(node, "args", where);
        if (!args)
            return fail(args.error());
        exec.args = *args;
        if (const YAML::Node env = node["env"]; env && !env.IsNull()) {
            if (!env.IsSequence())
                return error(where + QStringLiteral(".env"),
                    QStringLiteral("expected a list of {name, value}"));
            int index = 0;
            for (const YAML::Node &item : env) {
                const QString at = QStringLiteral("%1.env[%2]").arg(where).arg(index++);
                if (!item.IsMap())
                    return error(at, QStringLiteral("expected {name, value}"));
                Result<QString> name = string(item, "name", at);
                Result<QString> value = string(item, "value", at);
                if (!name)
                    return fail(name.error());
                if (!value)
                    return fail(value.error());
                exec.env.emplace_back(*name, *value);
            }
        }
        Result<bool> provide = boolean(node, "provideClusterInfo", where);
        if (!provide)
            return fail(provide.error());
        exec.provideClusterInfo = *provide;
        Result<QString> mode = string(node, "interactiveMode", where);
        if (!mode)
            return fail(mode.error());
        const bool v1 = exec.apiVersion == QLatin1String("client.authentication.k8s.io/v1");
        if (*mode == QLatin1String("Never"))
            exec.interactiveMode = InteractiveMode::Never;
        else if (*mode == QLatin1String("IfAvailable"))
            exec.interactiveMode = InteractiveMode::IfAvailable;
        else if (*mode == QLatin1String("Always"))
            exec.interactiveMode = InteractiveMode::Always;
        else if (mode->isEmpty() && !v1)
            exec.interactiveMode = InteractiveMode::IfAvailable; // the v1beta1 default
        else if (mode->isEmpty())
            return error(where + QStringLiteral(".interactiveMode"),
                QStringLiteral(
                    "required for client.authentication.k8s.io/v1 (Never, IfAvailable or Always)"));
        else
            return error(where + QStringLiteral(".interactiveMode"),
                QStringLiteral("\"%1\" is not Never, IfAvailable or Always").arg(*mode));
        if (exec.command.isEmpty())
            return error(where + QStringLiteral(".command"), QStringLiteral("missing"));
        if (exec.apiVersion != QLatin1String("client.authentication.k8s.io/v1")
            && exec.apiVersion != QLatin1String("client.authentication.k8s.io/v1beta1"))
            return error(where + QStringLiteral(".apiVersion"),
                QStringLiteral("\"%1\" is not client.authentication.k8s.io/v1 or v1beta1")
                    .arg(exec.apiVersion));
        return {};
    }

    Result<void> readUser(const YAML::Node &node, const QString &where, KubeUser &user)
    {
        for (auto [key, out] : { std::pair { "client-certificate", &user.clientCertificate },
                 std::pair { "client-key", &user.clientKey }, std::pair { "token", &user.token },
                 std::pair { "tokenFile", &user.tokenFile },
                 std::pair { "username", &user.username }, std::pair { "password", &user.password },
                 std::pair { "as", &user.impersonate },
                 std::pair { "as-uid", &user.impersonateUid } }) {
            Result<QString> value = string(node, key, where);
            if (!value)
                return fail(value.error());
            *out = *value;
        }
        user.clientCertificate = resolvePath(user.clientCertificate);
        user.clientKey = resolvePath(user.clientKey);
        user.tokenFile = resolvePath(user.tokenFile);
        for (auto [key, out] :
            { std::pair { "client-certificate-data", &user.clientCertificateData },
                std::pair { "client-key-data", &user.clientKeyData } }) {
            Result<QByteArray> value = base64(node, key, where);
            if (!value)
                return fail(value.error());
            *out = *value;
        }
        Result<QStringList> groups = strings(node, "as-groups", where);
        if (!groups)
            return fail(groups.error());
        user.impersonateGroups = *groups;
        if (const YAML::Node extra = node["as-user-extra"]; extra && extra.IsMap()) {
            for (const auto &entry : extra) {
                const QString key = QString::fromStdString(entry.first.Scalar());
                Result<QStringList> values = strings(
                    extra, entry.first.Scalar().c_str(), where + QStringLiteral(".as-user-extra"));
                if (!values)
                    return fail(values.error());
                user.impersonateExtra[key] = *values;
            }
        }
        if (const YAML::Node provider = node["auth-provider"]; provider && provider.IsMap()) {
            Result<QString> name
                = string(provider, "name", where + QStringLiteral(".auth-provider"));
            if (!name)
                return fail(name.error());
            user.authProvider = name->isEmpty() ? QStringLiteral("(unnamed)") : *name;
        }
        if (const YAML::Node exec = node["exec"]; exec && !exec.IsNull()) {
            if (!exec.IsMap())
                return error(where + QStringLiteral(".exec"), QStringLiteral("expected a mapping"));
            ExecConfig config;
            if (Result<void> read = readExec(exec, where + QStringLiteral(".exec"), config); !read)
                return read;
            user.exec = std::move(config);
        }
        return {};
    }

    Result<void> readContext(const YAML::Node &node, const QString &where, KubeContext &context)
    {
        for (auto [key, out] : { std::pair { "cluster", &context.cluster },
                 std::pair { "user", &context.user }, std::pair { "namespace", &context.ns } }) {
            Result<QString> value = string(node, key, where);
            if (!value)
                return fail(value.error());
            *out = *value;
        }
        return {};
    }

    Result<void> readAll(const YAML::Node &root, Kubeconfig &config)
    {
        if (Result<void> ok
            = namedList(root, "clusters", "cluster", config.clusters, &FileReader::readCluster);
            !ok)
            return ok;
        if (Result<void> ok = namedList(root, "users", "user", config.users, &FileReader::readUser);
            !ok)
            return ok;
        if (Result<void> ok
            = namedList(root, "contexts", "context", config.contexts, &FileReader::readContext);
            !ok)
            return ok;
        Result<QString> current = string(root, "current-context", QStringLiteral("(top level)"));
        if (!current)
            return fail(current.error());
        config.currentContext = *current;
        if (!current->isEmpty())
            config.currentContextOrigin = m_path;
        return {};
    }

    QString m_path;
    QString m_dir;
};

// Folds `next` (a later file) into `merged`: existing keys win, as kubectl's merge does.
void mergeInto(Kubeconfig &merged, Kubeconfig &&next)
{
    merged.clusters.merge(next.clusters);
    merged.users.merge(next.users);
    merged.contexts.merge(next.contexts);
    if (merged.currentContext.isEmpty() && !next.currentContext.isEmpty()) {
        merged.currentContext = next.currentContext;
        merged.currentContextOrigin = next.currentContextOrigin;
    }
    merged.files.append(next.files);
}

} // namespace

KubeconfigSource KubeconfigSource::fromEnvironment(const QString &explicitPath)
{
    KubeconfigSource source;
    source.explicitPath = explicitPath;
    source.envValue = qEnvironmentVariable("KUBECONFIG");
    source.homeDir = QDir::homePath();
    return source;
}

Result<QString> Kubeconfig::chooseContext(const QString &requested) const
{
    const QString name = requested.isEmpty() ? currentContext : requested;
    if (name.isEmpty()) {
        return fail(Error::Code::Invalid,
            QStringLiteral("%1: no current-context is set; name one with --context (contexts: %2)")
                .arg(filesText(),
                    contexts.empty() ? QStringLiteral("none")
                                     : QStringList([&] {
                                           QStringList names;
                                           for (const auto &[n, c] : contexts)
                                               names.append(n);
                                           return names;
                                       }())
                                           .join(QStringLiteral(", "))));
    }
    if (!contexts.contains(name)) {
        QStringList names;
        for (const auto &[n, c] : contexts)
            names.append(n);
        const QString origin = requested.isEmpty()
            ? currentContextOrigin + QStringLiteral(": current-context")
            : filesText() + QStringLiteral(": --context");
        return fail(Error::Code::NotFound,
            QStringLiteral("%1: context \"%2\" does not exist (contexts: %3)")
                .arg(origin, name,
                    names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
    }
    return name;
}

QString Kubeconfig::filesText() const
{
    return files.isEmpty() ? QStringLiteral("(no kubeconfig file)")
                           : files.join(QStringLiteral(", "));
}

Result<Kubeconfig> parseKubeconfig(const QByteArray &text, const QString &path)
{
    return FileReader(path).read(text);
}

Result<Kubeconfig> readKubeconfigFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(Error::Code::NotFound,
            QStringLiteral("%1: cannot read the kubeconfig: %2").arg(path, file.errorString()));
    return parseKubeconfig(file.readAll(), path);
}

Result<Kubeconfig> loadKubeconfig(const KubeconfigSource &source)
{
    if (!source.explicitPath.isEmpty())
        return readKubeconfigFile(source.explicitPath);
    QStringList paths;
    if (!source.envValue.isEmpty()) {
        QSet<QString> seen;
        for (const QString &entry : source.envValue.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
            const QString path = QDir::cleanPath(entry);
            if (!seen.contains(path)) {
                seen.insert(path);
                paths.append(path);
            }
        }
    } else {
        paths.append(QDir(source.homeDir).filePath(QStringLiteral(".kube/config")));
    }
    Kubeconfig merged;
    for (const QString &path : paths) {
        if (!QFileInfo::exists(path))
            continue; // kubectl skips listed files that do not exist
        Result<Kubeconfig> one = readKubeconfigFile(path);
        if (!one)
            return one;
        mergeInto(merged, std::move(*one));
    }
    return merged;
}

} // namespace dra::kube
