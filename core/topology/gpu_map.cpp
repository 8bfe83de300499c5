// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/gpu_map.h"

#include <QRegularExpression>
#include <QStringList>

namespace dra::topology {

namespace {

using common::Error;

enum class Field { Index, BusId, Uuid, Other };

Field fieldOfHeader(QString name)
{
    // `--format=csv` with units prints "memory.total [MiB]"; the unit is not part of the name.
    const qsizetype bracket = name.indexOf(u'[');
    if (bracket >= 0)
        name.truncate(bracket);
    name = name.trimmed().toLower();
    if (name == u"index")
        return Field::Index;
    if (name == u"pci.bus_id" || name == u"pci.busid")
        return Field::BusId;
    if (name == u"uuid" || name == u"gpu_uuid")
        return Field::Uuid;
    return Field::Other;
}

bool looksLikeBusId(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^([0-9a-fA-F]{1,8}:)?[0-9a-fA-F]{1,2}:[0-9a-fA-F]{1,2}\\.[0-7]$"));
    return re.match(value).hasMatch();
}

// Without a header the columns are told apart by their values, so any --query-gpu order works.
Field fieldOfValue(const QString &value)
{
    if (value.startsWith(u"GPU-", Qt::CaseInsensitive))
        return Field::Uuid;
    if (looksLikeBusId(value))
        return Field::BusId;
    bool ok = false;
    value.toInt(&ok);
    return ok ? Field::Index : Field::Other;
}

} // namespace

QString normalizePciBusId(QStringView busId)
{
    const QString text = busId.trimmed().toString().toLower();
    const QStringList parts = text.split(u':');
    if (parts.size() == 2)
        return QStringLiteral("0000:") + text;
    if (parts.size() != 3)
        return text;
    bool ok = false;
    const qulonglong domain = parts[0].toULongLong(&ok, 16);
    if (!ok)
        return text;
    return QStringLiteral("%1:%2:%3").arg(domain, 4, 16, QLatin1Char('0')).arg(parts[1], parts[2]);
}

QString mapMethodName(MapMethod method)
{
    switch (method) {
    case MapMethod::PciBusId:
        return QStringLiteral("pciBusID");
    case MapMethod::Uuid:
        return QStringLiteral("uuid");
    case MapMethod::IndexAttribute:
        return QStringLiteral("index");
    case MapMethod::Unmapped:
        return QStringLiteral("unmapped");
    }
    return QString();
}

Result<std::vector<GpuIdentity>> parseGpuQuery(QStringView text, const QString &source)
{
    std::vector<GpuIdentity> gpus;
    std::vector<Field> header;
    int number = 0;
    for (QStringView raw : text.split(u'\n')) {
        ++number;
        const QString line = raw.trimmed().toString();
        if (line.isEmpty())
            continue;
        QStringList cells = line.split(u',');
        for (QString &cell : cells)
            cell = cell.trimmed();
        if (gpus.empty() && header.empty() && fieldOfValue(cells.front()) == Field::Other) {
            for (const QString &cell : cells)
                header.push_back(fieldOfHeader(cell));
            if (std::ranges::find(header, Field::Index) == header.end())
                return fail(Error::Code::Parse,
                    QStringLiteral("%1:%2: the header has no index column (run nvidia-smi "
                                   "--query-gpu=index,pci.bus_id,uuid --format=csv)")
                        .arg(source)
                        .arg(number));
            continue;
        }
        if (!header.empty() && cells.size() != qsizetype(header.size()))
            return fail(Error::Code::Parse,
                QStringLiteral("%1:%2: %3 values where the header has %4 columns")
                    .arg(source)
                    .arg(number)
                    .arg(cells.size())
                    .arg(header.size()));
        GpuIdentity gpu;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const Field field = header.empty() ? fieldOfValue(cells[i]) : header[size_t(i)];
            if (field == Field::Index) {
                bool ok = false;
                gpu.index = cells[i].toInt(&ok);
                if (!ok || gpu.index < 0)
                    return fail(Error::Code::Parse,
                        QStringLiteral("%1:%2: \"%3\" is not a GPU index")
                            .arg(source)
                            .arg(number)
                            .arg(cells[i]));
            } else if (field == Field::BusId) {
                gpu.pciBusId = normalizePciBusId(cells[i]);
            } else if (field == Field::Uuid) {
                gpu.uuid = cells[i];
            }
        }
        if (gpu.index < 0 || (gpu.pciBusId.isEmpty() && gpu.uuid.isEmpty()))
            return fail(Error::Code::Parse,
                QStringLiteral("%1:%2: expected an index and a PCI bus ID or UUID, as "
                               "--query-gpu=index,pci.bus_id,uuid prints them")
                    .arg(source)
                    .arg(number));
        for (const GpuIdentity &other : gpus)
            if (other.index == gpu.index)
                return fail(Error::Code::Parse,
                    QStringLiteral("%1:%2: GPU index %3 appears twice")
                        .arg(source)
                        .arg(number)
                        .arg(gpu.index));
        gpus.push_back(std::move(gpu));
    }
    if (gpus.empty())
        return fail(Error::Code::Parse, QStringLiteral("%1: no GPUs listed").arg(source));
    return gpus;
}

std::vector<GpuMapping> mapGpus(const TopoMatrix &matrix, const std::vector<GpuIdentity> *query,
    const std::vector<GpuCandidate> &candidates)
{
    std::vector<GpuMapping> mappings;
    for (const TopoDevice &device : matrix.devices) {
        if (device.kind != TopoDevice::Kind::Gpu)
            continue;
        GpuMapping mapping;
        mapping.topoName = device.name;
        mapping.index = device.name.mid(3).toInt();
        if (query) {
            const GpuIdentity *identity = nullptr;
            for (const GpuIdentity &gpu : *query)
                if (gpu.index == mapping.index)
                    identity = &gpu;
            if (!identity) {
                mapping.note
                    = QStringLiteral("index %1 is not in the --gpus listing").arg(mapping.index);
            } else {
                for (const GpuCandidate &candidate : candidates) {
                    if (!identity->pciBusId.isEmpty() && !candidate.pciBusId.isEmpty()
                        && normalizePciBusId(candidate.pciBusId) == identity->pciBusId) {
                        mapping.device = candidate.device;
                        mapping.method = MapMethod::PciBusId;
                        mapping.note = QStringLiteral("PCI bus %1").arg(identity->pciBusId);
                        break;
                    }
                }
                for (const GpuCandidate &candidate : candidates) {
                    if (mapping.device.isEmpty() && !identity->uuid.isEmpty()
                        && candidate.uuid.compare(identity->uuid, Qt::CaseInsensitive) == 0) {
                        mapping.device = candidate.device;
                        mapping.method = MapMethod::Uuid;
                        mapping.note = QStringLiteral("UUID %1").arg(identity->uuid);
                    }
                }
                if (mapping.device.isEmpty())
                    mapping.note
                        = QStringLiteral("no DRA device on the node has PCI bus %1 or UUID %2")
                              .arg(identity->pciBusId.isEmpty() ? QStringLiteral("-")
                                                                : identity->pciBusId,
                                  identity->uuid.isEmpty() ? QStringLiteral("-") : identity->uuid);
            }
        } else {
            for (const GpuCandidate &candidate : candidates) {
                if (candidate.index == mapping.index) {
                    mapping.device = candidate.device;
                    mapping.method = MapMethod::IndexAttribute;
                    mapping.note
                        = QStringLiteral("published index attribute %1").arg(mapping.index);
                    break;
                }
            }
            if (mapping.device.isEmpty())
                mapping.note = QStringLiteral(
                    "no --gpus listing and no published index attribute; the "
                    "nvidia-smi index is not the device minor, so %1 stays unmapped")
                                   .arg(device.name);
        }
        mappings.push_back(std::move(mapping));
    }
    return mappings;
}

} // namespace dra::topology
