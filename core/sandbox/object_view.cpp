// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/object_view.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// What the controllers read or write; other kinds are left out of a pass.
constexpr model::Kind kViewedKinds[] = { model::Kind::Deployment, model::Kind::ReplicaSet,
    model::Kind::Pod, model::Kind::Node, model::Kind::Event, model::Kind::ResourceClaim,
    model::Kind::ResourceClaimTemplate, model::Kind::ResourceSlice, model::Kind::DeviceClass,
    model::Kind::DeviceTaintRule };

} // namespace

model::Kind kindOfJson(const json &object)
{
    if (!object.is_object())
        return model::Kind::Unknown;
    const model::KindInfo *info
        = model::kindOf(object.value("apiVersion", std::string()), object.value("kind", std::string()));
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

Result<ObjectView> ObjectView::load(server::ObjectWriter &writer)
{
    ObjectView view;
    for (model::Kind kind : kViewedKinds) {
        Result<std::vector<server::ObjectWriter::Stored>> stored
            = writer.list(model::kindInfo(kind), {});
        if (!stored)
            return dra::fail(stored.error());
        for (server::ObjectWriter::Stored &object : *stored) {
            Key key { kind, metaText(object.json, "namespace"), metaText(object.json, "name") };
            view.m_loaded.insert(key);
            view.m_objects.emplace(std::move(key), std::move(object.json));
        }
    }
    return view;
}

std::vector<json> ObjectView::all(model::Kind kind, const std::string &ns) const
{
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
    const auto it = m_objects.find(Key { kind, ns, name });
    return it == m_objects.end() ? nullptr : &it->second;
}

void ObjectView::put(const json &object)
{
    Key key { kindOfJson(object), metaText(object, "namespace"), metaText(object, "name") };
    if (const auto it = m_objects.find(key); it != m_objects.end() && it->second == object)
        return;
    m_deleted.erase(key);
    m_touched.insert(key);
    m_objects[std::move(key)] = object;
}

void ObjectView::remove(model::Kind kind, const std::string &ns, const std::string &name)
{
    const Key key { kind, ns, name };
    const auto it = m_objects.find(key);
    if (it == m_objects.end())
        return;
    m_deleted[key] = std::move(it->second);
    m_objects.erase(it);
    m_touched.insert(key);
}

Result<void> ObjectView::commit(server::ObjectWriter &writer)
{
    std::vector<server::ObjectWriter::Write> writes;
    for (const Key &key : m_touched) {
        const bool existed = m_loaded.contains(key);
        if (const auto it = m_objects.find(key); it != m_objects.end()) {
            writes.push_back({ existed ? store::ChangeType::Modified : store::ChangeType::Added,
                it->second });
        } else if (existed) {
            writes.push_back({ store::ChangeType::Deleted, m_deleted.at(key) });
        }
    }
    m_touched.clear();
    if (writes.empty())
        return {};
    Result<std::vector<int64_t>> committed = writer.commit(writes);
    if (!committed)
        return dra::fail(committed.error());
    return {};
}

} // namespace dra::sandbox
