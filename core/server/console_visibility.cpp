// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_visibility.h"

#include <memory>
#include <vector>

#include "core/inventory/snapshot_builder.h"

namespace dra::server::console {

namespace {

model::AccessAttributes listOf(const model::KindInfo &kind, const std::string &ns)
{
    model::AccessAttributes attributes;
    attributes.verb = "list";
    attributes.apiGroup = std::string(kind.group);
    attributes.resource = std::string(kind.plural);
    attributes.ns = ns;
    return attributes;
}

bool hidden(const Visibility &visibility, const model::Object &object)
{
    if (visibility.hiddenKinds.contains(object.kind))
        return true;
    const auto found = visibility.hiddenNamespaces.find(object.kind);
    return found != visibility.hiddenNamespaces.end() && found->second.contains(object.meta.ns);
}

// Questions outstanding and the answer being put together; shared by their callbacks.
struct Resolution
{
    Visibility visibility;
    int pending = 1; // the resolver's own hold until every question has been asked
    std::function<void(const Visibility &)> done;

    void answered()
    {
        if (--pending == 0)
            done(visibility);
    }
};

} // namespace

std::string Visibility::key() const
{
    std::string key;
    for (const model::Kind kind : hiddenKinds)
        key += std::to_string(int(kind)) + ";";
    for (const auto &[kind, namespaces] : hiddenNamespaces) {
        key += std::to_string(int(kind)) + ":";
        for (const std::string &ns : namespaces)
            key += ns + ",";
        key += ";";
    }
    return key;
}

void resolveVisibility(const inventory::Snapshot &snapshot, const AccessCheck &check,
    std::function<void(const Visibility &)> done)
{
    auto resolution = std::make_shared<Resolution>();
    resolution->done = std::move(done);
    for (const model::KindInfo &kind : model::allKinds()) {
        const auto objects = snapshot.objects(kind.kind);
        const bool slices = kind.kind == model::Kind::ResourceSlice && !snapshot.slices().empty();
        if (objects.empty() && !slices)
            continue;
        std::set<std::string> namespaces;
        if (kind.namespaced)
            for (const auto &object : objects)
                namespaces.insert(object->meta.ns);
        ++resolution->pending;
        check(listOf(kind, ""),
            [resolution, check, &kind, namespaces = std::move(namespaces)](bool everywhere) {
                if (everywhere) {
                    resolution->answered();
                    return;
                }
                if (!kind.namespaced) {
                    resolution->visibility.hiddenKinds.insert(kind.kind);
                    resolution->answered();
                    return;
                }
                // Namespace by namespace, as a user with RoleBindings sees them.
                auto refused = std::make_shared<std::set<std::string>>();
                auto left = std::make_shared<std::size_t>(namespaces.size());
                for (const std::string &ns : namespaces)
                    check(listOf(kind, ns), [resolution, refused, left, ns, &kind](bool allowed) {
                        if (!allowed)
                            refused->insert(ns);
                        if (--*left > 0)
                            return;
                        if (!refused->empty())
                            resolution->visibility.hiddenNamespaces[kind.kind] = *refused;
                        resolution->answered();
                    });
            });
    }
    resolution->answered();
}

inventory::SnapshotPtr visibleSnapshot(
    const inventory::SnapshotPtr &snapshot, const Visibility &visibility)
{
    if (visibility.everything())
        return snapshot;
    model::CommittedBatch removal;
    removal.cluster = snapshot->cluster();
    // The slices are kept apart from the other objects (with their devices).
    if (visibility.hiddenKinds.contains(model::Kind::ResourceSlice))
        for (const inventory::SliceInfo &slice : snapshot->slices()) {
            model::CommittedChange change;
            change.type = model::ChangeType::Deleted;
            change.object.key
                = { std::string(model::kResourceGroup), "ResourceSlice", "", slice.name };
            removal.changes.push_back(std::move(change));
        }
    for (const model::KindInfo &kind : model::allKinds())
        for (const auto &object : snapshot->objects(kind.kind))
            if (hidden(visibility, *object)) {
                model::CommittedChange change;
                change.type = model::ChangeType::Deleted;
                change.object.key = object->key();
                removal.changes.push_back(std::move(change));
            }
    return removal.changes.empty() ? snapshot : inventory::applyBatch(snapshot, removal);
}

nlohmann::json leftOutJson(const inventory::Snapshot &snapshot, const Visibility &visibility)
{
    nlohmann::json out = nlohmann::json::array();
    for (const model::KindInfo &kind : model::allKinds()) {
        const bool whole = visibility.hiddenKinds.contains(kind.kind);
        const auto some = visibility.hiddenNamespaces.find(kind.kind);
        if (!whole && some == visibility.hiddenNamespaces.end())
            continue;
        std::size_t count
            = kind.kind == model::Kind::ResourceSlice && whole ? snapshot.slices().size() : 0;
        for (const auto &object : snapshot.objects(kind.kind))
            count += hidden(visibility, *object) ? 1 : 0;
        nlohmann::json entry = { { "kind", kind.name }, { "objects", count } };
        if (!whole)
            entry["namespaces"] = some->second;
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace dra::server::console
