// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/object_view.h"

#include "core/server/api_server.h"

namespace dra::sandbox {

using nlohmann::json;

model::Kind kindOfJson(const json &object)
{
    if (!object.is_object())
        return model::Kind::Unknown;
    const model::KindInfo *info = model::kindOf(
        object.value("apiVersion", std::string()), object.value("kind", std::string()));
    return info ? info->kind : model::Kind::Unknown;
}

std::string metaText(const json &object, const char *field)
{
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object())
        return {};
    const auto value = meta->find(field);
    return value != meta->end() && value->is_string() ? value->get<std::string>() : std::string();
}

ObjectView::ObjectView(server::ObjectWriter &writer)
    : m_writer(writer)
{
}

std::string ObjectView::kubernetesVersion() const
{
    return server::recordedVersion(m_writer.cache(), m_writer.cluster());
}

void ObjectView::ensureLoaded(model::Kind kind) const
{
    if (!m_loadedKinds.insert(kind).second)
        return;
    Result<std::vector<server::ObjectWriter::Stored>> stored
        = m_writer.list(model::kindInfo(kind), {});
    if (!stored) {
        if (!m_loadError)
            m_loadError = stored.error();
        return;
    }
    for (server::ObjectWriter::Stored &object : *stored) {
        Key key { kind, metaText(object.json, "namespace"), metaText(object.json, "name") };
        m_loaded.insert(key);
        m_objects.emplace(std::move(key), std::move(object.json));
    }
}

std::vector<json> ObjectView::all(model::Kind kind, const std::string &ns) const
{
    ensureLoaded(kind);
    std::vector<json> out;
    auto it = m_objects.lower_bound(Key { kind, ns, {} });
    for (; it != m_objects.end() && it->first.kind == kind; ++it) {
        if (!ns.empty() && it->first.ns != ns)
            break;
        out.push_back(it->second);
    }
    return out;
}

const json *ObjectView::find(model::Kind kind, const std::string &ns, const std::string &name) const
{
    ensureLoaded(kind);
    const auto it = m_objects.find(Key { kind, ns, name });
    return it == m_objects.end() ? nullptr : &it->second;
}

void ObjectView::put(const json &object)
{
    Key key { kindOfJson(object), metaText(object, "namespace"), metaText(object, "name") };
    ensureLoaded(key.kind);
    if (const auto it = m_objects.find(key); it != m_objects.end() && it->second == object)
        return;
    m_deleted.erase(key);
    m_touched.insert(key);
    m_objects[std::move(key)] = object;
}

void ObjectView::remove(model::Kind kind, const std::string &ns, const std::string &name)
{
    ensureLoaded(kind);
    const Key key { kind, ns, name };
    const auto it = m_objects.find(key);
    if (it == m_objects.end())
        return;
    m_deleted[key] = std::move(it->second);
    m_objects.erase(it);
    m_touched.insert(key);
}

bool ObjectView::removedAny(model::Kind kind) const
{
    for (const auto &[key, last] : m_deleted) {
        if (key.kind == kind)
            return true;
    }
    return false;
}

Result<void> ObjectView::commit()
{
    if (m_loadError)
        return dra::fail(*m_loadError);
    std::vector<server::ObjectWriter::Write> writes;
    for (const Key &key : m_touched) {
        const bool existed = m_loaded.contains(key);
        if (const auto it = m_objects.find(key); it != m_objects.end()) {
            writes.push_back(
                { existed ? model::ChangeType::Modified : model::ChangeType::Added, it->second });
        } else if (existed) {
            writes.push_back({ model::ChangeType::Deleted, m_deleted.at(key) });
        }
    }
    m_touched.clear();
    if (writes.empty())
        return {};
    Result<std::vector<int64_t>> committed = m_writer.commit(writes);
    if (!committed)
        return dra::fail(committed.error());
    return {};
}

} // namespace dra::sandbox
