// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QString>

#include "core/common/result.h"
#include "core/store/db_file.h"
#include "core/store/sqlite.h"

namespace dra::store {

// A ResourceClaimTemplate the user saved in the editor. updatedAt: ms since the epoch.
struct SavedTemplate
{
    QString name;
    std::string yaml;
    int64_t updatedAt = 0;
};

// A node's `nvidia-smi topo -m` text, and optionally its
// `nvidia-smi --query-gpu=index,pci.bus_id,uuid --format=csv` listing, as the user imported them.
// importedAt: ms since the epoch.
struct ImportedTopology
{
    std::string cluster, node;
    std::string text; // the matrix as imported (UTF-8)
    std::string gpusCsv; // empty when no listing was imported
    int64_t importedAt = 0;
};

// The state file: what only the console knows (settings, saved templates, imported topology,
// rollouts, the audit log). Unlike the cache it is never rebuilt, so a damaged file is reported
// and left alone unless the user asks for --reset. Same single-writer rule and thread rules as
// CacheDb.
class StateDb final
{
public:
    StateDb();
    StateDb(StateDb &&other) noexcept;
    StateDb &operator=(StateDb &&other) noexcept;
    ~StateDb();

    // Opens (a writer creates or migrates) the state file; errors as for CacheDb::open.
    [[nodiscard]] static Result<StateDb> open(
        const QString &path, OpenMode mode, const OpenOptions &options = {});
    // The identity and schema history of state files.
    static const SchemaSpec &schema();

    [[nodiscard]] Result<std::optional<QString>> setting(const QString &key);
    // Writer only.
    [[nodiscard]] Result<void> setSetting(const QString &key, const QString &value);
    // Writer only; removing a missing key is not an error.
    [[nodiscard]] Result<void> removeSetting(const QString &key);

    // Saved templates ordered by name.
    [[nodiscard]] Result<std::vector<SavedTemplate>> savedTemplates();
    [[nodiscard]] Result<std::optional<SavedTemplate>> savedTemplate(const QString &name);
    // Writer only: creates or replaces the template of that name, stamping the time.
    [[nodiscard]] Result<void> saveTemplate(const QString &name, const std::string &yaml);
    // Writer only; removing a missing template is not an error.
    [[nodiscard]] Result<void> removeTemplate(const QString &name);

    // The imported topology of a node, if any.
    [[nodiscard]] Result<std::optional<ImportedTopology>> importedTopology(
        const std::string &cluster, const std::string &node);
    // Every import of a cluster, ordered by node.
    [[nodiscard]] Result<std::vector<ImportedTopology>> importedTopologies(
        const std::string &cluster);
    // Writer only: creates or replaces the node's import, stamping the time.
    [[nodiscard]] Result<void> saveImportedTopology(const ImportedTopology &topology);
    // Writer only; removing a missing import is not an error.
    [[nodiscard]] Result<void> removeImportedTopology(
        const std::string &cluster, const std::string &node);

    // The connection, for the modules that own the other tables (rollouts, audit log,
    // topology). Belongs to the thread using this StateDb.
    sqlite::Database &database();
    QString path() const;
    bool isWriter() const;

private:
    [[nodiscard]] Result<void> requireWriter() const;
    DbFile m_file;
    bool m_writer = false;
};

} // namespace dra::store
