// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/store/state_db.h"

#include <array>

#include <QDateTime>

#include "core/common/json_text.h"

namespace dra::store {

namespace {

using common::Error;
using sqlite::Statement;

// Version 1. Timestamps are ms since the epoch (UTC). The audit log is a hash chain: each row's
// hash covers its content and prev_hash, so a removed or edited row is detectable.
constexpr std::string_view kStateSchemaV1 = R"sql(
CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE saved_templates (
    name TEXT PRIMARY KEY NOT NULL CHECK (name <> ''),
    yaml TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE imported_topology (
    cluster TEXT NOT NULL,
    node TEXT NOT NULL,
    text TEXT NOT NULL,
    gpus_csv TEXT NOT NULL DEFAULT '',
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (cluster, node)
);
CREATE TABLE rollouts (
    id TEXT PRIMARY KEY NOT NULL,
    plan_yaml TEXT NOT NULL,
    state_json TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    result TEXT NOT NULL,
    details_json TEXT NOT NULL DEFAULT '{}',
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
)sql";

// Version 2: rollouts are found by workload (one active rollout per workload) and stage;
// rejected DRA variants are remembered per workload; the audit log refuses updates and deletes
// (the hash chain still detects edits made around SQLite's triggers).
constexpr std::string_view kStateSchemaV2 = R"sql(
ALTER TABLE rollouts ADD COLUMN workload TEXT NOT NULL DEFAULT '';
ALTER TABLE rollouts ADD COLUMN stage TEXT NOT NULL DEFAULT 'Baseline';
ALTER TABLE rollouts ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rollouts_by_workload ON rollouts (workload, stage);
CREATE TABLE rejected_variants (
    workload TEXT NOT NULL,
    variant TEXT NOT NULL,
    rollout TEXT NOT NULL,
    at INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (workload, variant)
);
CREATE INDEX audit_log_by_target ON audit_log (target, seq);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
)sql";

// Version 3: a running rollout controller and the processes around it. Verbs given from another
// process wait in rollout_commands until the controller consumes them (once); the controller's
// heartbeat tells those processes whether anyone will; rollout_progress is the cursor through a
// transition's mutations, so a controller started again resumes where the last one stopped;
// rollout_observations keeps what stop conditions count over time (how long the canary has been
// Pending, readiness failures in a row) so a restart does not reset those clocks.
constexpr std::string_view kStateSchemaV3 = R"sql(
CREATE TABLE rollout_commands (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    rollout TEXT NOT NULL,
    command_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    consumed_at INTEGER,
    result TEXT NOT NULL DEFAULT ''
);
CREATE INDEX rollout_commands_pending ON rollout_commands (rollout, consumed_at, seq);
CREATE TABLE rollout_controllers (
    rollout TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
);
CREATE TABLE rollout_observations (
    rollout TEXT PRIMARY KEY NOT NULL,
    observation_json TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE rollout_progress (
    rollout TEXT PRIMARY KEY NOT NULL,
    verb TEXT NOT NULL,
    mutations_json TEXT NOT NULL,
    next_index INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
)sql";

constexpr std::array<std::string_view, 3> kStateMigrations { kStateSchemaV1, kStateSchemaV2,
    kStateSchemaV3 };

constexpr uint32_t kStateApplicationId = 0x44524153; // "DRAS"

Error notOpen()
{
    return Error { Error::Code::Internal, QStringLiteral("the state file is not open") };
}

} // namespace

StateDb::StateDb() = default;
StateDb::StateDb(StateDb &&other) noexcept = default;
StateDb &StateDb::operator=(StateDb &&other) noexcept = default;
StateDb::~StateDb() = default;

const SchemaSpec &StateDb::schema()
{
    // The state cannot be rebuilt from a cluster, so the remedy does not suggest a rebuild.
    static const SchemaSpec spec { kStateApplicationId, QStringLiteral("DRA Console state file"),
        QStringLiteral("restore it from a backup, or start over with --reset "
                       "(this loses settings, saved templates, rollouts and the audit log)"),
        kStateMigrations };
    return spec;
}

Result<StateDb> StateDb::open(const QString &path, OpenMode mode, const OpenOptions &options)
{
    Result<DbFile> file = openDbFile(path, mode, options, schema());
    if (!file)
        return fail(file.error());
    StateDb state;
    state.m_file = std::move(*file);
    state.m_writer = mode == OpenMode::ReadWrite;
    return state;
}

sqlite::Database &StateDb::database()
{
    return m_file.db;
}

QString StateDb::path() const
{
    return m_file.db.path();
}

bool StateDb::isWriter() const
{
    return m_writer;
}

Result<void> StateDb::requireWriter() const
{
    if (!m_file.db.handle())
        return fail(notOpen());
    if (!m_writer)
        return fail(Error::Code::Invalid, QStringLiteral("the state file was opened read-only"));
    return {};
}

Result<std::optional<QString>> StateDb::setting(const QString &key)
{
    if (!m_file.db.handle())
        return fail(notOpen());
    Result<Statement> select = m_file.db.prepare("SELECT value FROM settings WHERE key = ?1");
    if (!select)
        return fail(select.error());
    select->bindCopy(1, key);
    const Result<bool> row = select->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<QString>();
    return std::optional<QString>(common::qs(select->columnText(0)));
}

Result<void> StateDb::setSetting(const QString &key, const QString &value)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> upsert
        = m_file.db.prepare("INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) "
                            "DO UPDATE SET value = excluded.value");
    if (!upsert)
        return fail(upsert.error());
    upsert->bindCopy(1, key);
    upsert->bindCopy(2, value);
    return upsert->exec();
}

Result<void> StateDb::removeSetting(const QString &key)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> remove = m_file.db.prepare("DELETE FROM settings WHERE key = ?1");
    if (!remove)
        return fail(remove.error());
    remove->bindCopy(1, key);
    return remove->exec();
}

Result<std::vector<SavedTemplate>> StateDb::savedTemplates()
{
    if (!m_file.db.handle())
        return fail(notOpen());
    Result<Statement> select
        = m_file.db.prepare("SELECT name, yaml, updated_at FROM saved_templates ORDER BY name");
    if (!select)
        return fail(select.error());
    std::vector<SavedTemplate> templates;
    while (true) {
        const Result<bool> row = select->step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return templates;
        templates.push_back(SavedTemplate {
            common::qs(select->columnText(0)), select->columnString(1), select->columnInt(2) });
    }
}

Result<std::optional<SavedTemplate>> StateDb::savedTemplate(const QString &name)
{
    if (!m_file.db.handle())
        return fail(notOpen());
    Result<Statement> select
        = m_file.db.prepare("SELECT yaml, updated_at FROM saved_templates WHERE name = ?1");
    if (!select)
        return fail(select.error());
    select->bindCopy(1, name);
    const Result<bool> row = select->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<SavedTemplate>();
    return std::optional<SavedTemplate>(
        SavedTemplate { name, select->columnString(0), select->columnInt(1) });
}

Result<void> StateDb::saveTemplate(const QString &name, const std::string &yaml)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> upsert = m_file.db.prepare(
        "INSERT INTO saved_templates (name, yaml, updated_at) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (name) DO UPDATE SET yaml = excluded.yaml, updated_at = excluded.updated_at");
    if (!upsert)
        return fail(upsert.error());
    upsert->bindCopy(1, name);
    upsert->bind(2, yaml);
    upsert->bind(3, int64_t(QDateTime::currentMSecsSinceEpoch()));
    return upsert->exec();
}

Result<void> StateDb::removeTemplate(const QString &name)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> remove = m_file.db.prepare("DELETE FROM saved_templates WHERE name = ?1");
    if (!remove)
        return fail(remove.error());
    remove->bindCopy(1, name);
    return remove->exec();
}

namespace {

Result<std::vector<ImportedTopology>> readTopologies(Statement &select, const std::string &cluster)
{
    std::vector<ImportedTopology> imports;
    while (true) {
        const Result<bool> row = select.step();
        if (!row)
            return fail(row.error());
        if (!*row)
            return imports;
        imports.push_back(ImportedTopology { cluster, select.columnString(0),
            select.columnString(1), select.columnString(2), select.columnInt(3) });
    }
}

} // namespace

Result<std::optional<ImportedTopology>> StateDb::importedTopology(
    const std::string &cluster, const std::string &node)
{
    if (!m_file.db.handle())
        return fail(notOpen());
    Result<Statement> select
        = m_file.db.prepare("SELECT node, text, gpus_csv, imported_at FROM imported_topology WHERE "
                            "cluster = ?1 AND node = ?2");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    select->bind(2, node);
    Result<std::vector<ImportedTopology>> imports = readTopologies(*select, cluster);
    if (!imports)
        return fail(imports.error());
    if (imports->empty())
        return std::optional<ImportedTopology>();
    return std::optional<ImportedTopology>(std::move(imports->front()));
}

Result<std::vector<ImportedTopology>> StateDb::importedTopologies(const std::string &cluster)
{
    if (!m_file.db.handle())
        return fail(notOpen());
    Result<Statement> select
        = m_file.db.prepare("SELECT node, text, gpus_csv, imported_at FROM imported_topology WHERE "
                            "cluster = ?1 ORDER BY node");
    if (!select)
        return fail(select.error());
    select->bind(1, cluster);
    return readTopologies(*select, cluster);
}

Result<void> StateDb::saveImportedTopology(const ImportedTopology &topology)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> upsert
        = m_file.db.prepare("INSERT INTO imported_topology (cluster, node, text, gpus_csv, "
                            "imported_at) VALUES (?1, ?2, ?3, ?4, ?5) "
                            "ON CONFLICT (cluster, node) DO UPDATE SET text = excluded.text, "
                            "gpus_csv = excluded.gpus_csv, "
                            "imported_at = excluded.imported_at");
    if (!upsert)
        return fail(upsert.error());
    upsert->bind(1, topology.cluster);
    upsert->bind(2, topology.node);
    upsert->bind(3, topology.text);
    upsert->bind(4, topology.gpusCsv);
    upsert->bind(5, int64_t(QDateTime::currentMSecsSinceEpoch()));
    return upsert->exec();
}

Result<void> StateDb::removeImportedTopology(const std::string &cluster, const std::string &node)
{
    if (Result<void> writable = requireWriter(); !writable)
        return writable;
    Result<Statement> remove
        = m_file.db.prepare("DELETE FROM imported_topology WHERE cluster = ?1 AND node = ?2");
    if (!remove)
        return fail(remove.error());
    remove->bind(1, cluster);
    remove->bind(2, node);
    return remove->exec();
}

} // namespace dra::store
