// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/topology/topo_matrix_parser.h"

#include <algorithm>
#include <map>

#include <QRegularExpression>

namespace dra::topology {

namespace {

using common::Error;

// nvidia-smi aligns its tab-separated cells to 8-column tab stops: expanding tabs the same way
// lets tab-separated and terminal-copied (space-aligned) text share one position-based parser.
constexpr int kTabWidth = 8;

struct Token
{
    QString text;
    int column = 0;
};

struct Line
{
    int number = 0;
    QString text; // ANSI escapes removed, tabs expanded
};

QString stripAnsiAndExpandTabs(QStringView raw)
{
    QString out;
    out.reserve(raw.size());
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QChar c = raw[i];
        if (c == QChar(0x1b)) {
            // CSI sequences (colours, underline) end at a byte in 0x40..0x7e; other escapes are
            // two characters long.
            if (i + 1 < raw.size() && raw[i + 1] == u'[') {
                i += 2;
                while (i < raw.size() && !(raw[i].unicode() >= 0x40 && raw[i].unicode() <= 0x7e))
                    ++i;
            } else {
                ++i;
            }
            continue;
        }
        if (c == u'\r')
            continue;
        if (c == u'\t') {
            do
                out += u' ';
            while (out.size() % kTabWidth != 0);
            continue;
        }
        out += c;
    }
    return out;
}

std::vector<Token> tokenize(QStringView text)
{
    std::vector<Token> tokens;
    qsizetype i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i].isSpace())
            ++i;
        const qsizetype start = i;
        while (i < text.size() && !text[i].isSpace())
            ++i;
        if (i > start)
            tokens.push_back({ text.sliced(start, i - start).toString(), int(start) });
    }
    return tokens;
}

struct Cell
{
    bool self = false;
    LinkKind kind = LinkKind::Sys;
    int count = 0;
};

std::optional<Cell> parseCell(const QString &text)
{
    if (text == u"X")
        return Cell { true };
    static const std::pair<const char16_t *, LinkKind> kinds[]
        = { { u"PIX", LinkKind::PIX }, { u"PXB", LinkKind::PXB }, { u"PHB", LinkKind::PHB },
              { u"NODE", LinkKind::Node }, { u"SYS", LinkKind::Sys }, { u"SOC", LinkKind::Sys } };
    for (const auto &[name, kind] : kinds)
        if (text == QStringView(name))
            return Cell { false, kind };
    if (text.startsWith(u"NV") && text.size() > 2) {
        bool ok = false;
        const int count = text.mid(2).toInt(&ok);
        if (ok && count > 0)
            return Cell { false, LinkKind::NV, count };
    }
    return std::nullopt;
}

bool isGpuName(QStringView name)
{
    static const QRegularExpression re(QStringLiteral("^GPU\\d+$"));
    return re.match(name.toString()).hasMatch();
}

QString affinityValue(const QString &text)
{
    return text == u"N/A" ? QString() : text;
}

std::optional<int> singleNode(const QString &text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    return ok && value >= 0 ? std::optional<int>(value) : std::nullopt;
}

// The trailing columns nvidia-smi may print after the device columns, in any subset.
enum class Affinity { Cpu, Numa, GpuNumaId };

struct AffinityColumn
{
    Affinity which;
    int column = 0;
};

struct Header
{
    int lineIndex = -1;
    std::vector<Token> devices;
    std::vector<AffinityColumn> affinity; // ordered by position
};

bool isHeader(const Line &line)
{
    const std::vector<Token> tokens = tokenize(line.text);
    bool hasGpu = false;
    for (const Token &token : tokens) {
        if (parseCell(token.text))
            return false;
        hasGpu = hasGpu || isGpuName(token.text);
    }
    return hasGpu;
}

Header readHeader(const std::vector<Line> &lines, int index)
{
    Header header;
    header.lineIndex = index;
    const QString &text = lines[size_t(index)].text;
    static const std::pair<const char16_t *, Affinity> labels[]
        = { { u"CPU Affinity", Affinity::Cpu }, { u"NUMA Affinity", Affinity::Numa },
              { u"GPU NUMA ID", Affinity::GpuNumaId } };
    int firstLabel = int(text.size());
    for (const auto &[label, which] : labels) {
        const qsizetype at = text.indexOf(QStringView(label), 0, Qt::CaseInsensitive);
        if (at >= 0) {
            header.affinity.push_back({ which, int(at) });
            firstLabel = std::min(firstLabel, int(at));
        }
    }
    std::ranges::sort(header.affinity, {}, &AffinityColumn::column);
    for (Token &token : tokenize(text))
        if (token.column < firstLabel)
            header.devices.push_back(std::move(token));
    return header;
}

} // namespace

QString linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NV:
        return QStringLiteral("NV");
    case LinkKind::PIX:
        return QStringLiteral("PIX");
    case LinkKind::PXB:
        return QStringLiteral("PXB");
    case LinkKind::PHB:
        return QStringLiteral("PHB");
    case LinkKind::Node:
        return QStringLiteral("NODE");
    case LinkKind::Sys:
        return QStringLiteral("SYS");
    }
    return QString();
}

const TopoDevice *TopoMatrix::device(QStringView name) const
{
    for (const TopoDevice &d : devices)
        if (d.name == name)
            return &d;
    return nullptr;
}

const TopoLink *TopoMatrix::link(QStringView a, QStringView b) const
{
    for (const TopoLink &l : links)
        if ((l.from == a && l.to == b) || (l.from == b && l.to == a))
            return &l;
    return nullptr;
}

QString TopoMatrix::nicInterface(QStringView nic) const
{
    for (const auto &[name, iface] : nicLegend)
        if (name == nic)
            return iface;
    return QString();
}

Result<TopoMatrix> parseTopoMatrix(QStringView text, const QString &source)
{
    std::vector<Line> lines;
    int number = 0;
    for (QStringView raw : text.split(u'\n'))
        lines.push_back({ ++number, stripAnsiAndExpandTabs(raw) });

    auto error = [&](int line, const QString &reason) {
        return fail(
            Error::Code::Parse, QStringLiteral("%1:%2: %3").arg(source).arg(line).arg(reason));
    };

    int headerIndex = -1;
    for (size_t i = 0; i < lines.size() && headerIndex < 0; ++i)
        if (isHeader(lines[i]))
            headerIndex = int(i);
    if (headerIndex < 0)
        return fail(Error::Code::Parse,
            QStringLiteral(
                "%1: no topology matrix found (a header line of GPU0, GPU1, ... columns, as "
                "`nvidia-smi topo -m` prints it)")
                .arg(source));

    const Header header = readHeader(lines, headerIndex);
    const int headerLine = lines[size_t(headerIndex)].number;
    TopoMatrix matrix;
    std::map<QString, size_t> indexOf;
    for (const Token &token : header.devices) {
        if (indexOf.contains(token.text))
            return error(headerLine,
                QStringLiteral("column %1 appears twice in the header").arg(token.text));
        indexOf[token.text] = matrix.devices.size();
        TopoDevice device;
        device.name = token.text;
        device.kind = isGpuName(token.text) ? TopoDevice::Kind::Gpu : TopoDevice::Kind::Nic;
        matrix.devices.push_back(std::move(device));
    }
    const size_t columns = matrix.devices.size();

    struct Seen
    {
        Cell cell;
        int line = 0;
    };
    std::map<std::pair<size_t, size_t>, Seen> pairs;
    int rows = 0;
    size_t next = size_t(headerIndex) + 1;
    for (; next < lines.size(); ++next) {
        const Line &line = lines[next];
        const std::vector<Token> tokens = tokenize(line.text);
        if (tokens.empty()) {
            if (rows > 0)
                break;
            continue;
        }
        if (tokens.front().text.startsWith(u"Legend"))
            break;
        const auto row = indexOf.find(tokens.front().text);
        // A line that is not a matrix row (a shell prompt pasted along) ends the matrix; one
        // that looks like a row but names no column is an error.
        if (row == indexOf.end() && rows > 0 && (tokens.size() < 2 || !parseCell(tokens[1].text)))
            break;
        if (row == indexOf.end())
            return error(line.number,
                QStringLiteral("row \"%1\" is not one of the header's columns (line %2)")
                    .arg(tokens.front().text)
                    .arg(headerLine));
        TopoDevice &device = matrix.devices[row->second];
        if (device.line != 0)
            return error(line.number,
                QStringLiteral("row %1 appears twice (first on line %2)")
                    .arg(device.name)
                    .arg(device.line));
        device.line = line.number;
        ++rows;
        if (tokens.size() - 1 < columns)
            return error(line.number,
                QStringLiteral("row %1 has %2 cells but the header has %3 device columns")
                    .arg(device.name)
                    .arg(tokens.size() - 1)
                    .arg(columns));
        for (size_t col = 0; col < columns; ++col) {
            const QString &cellText = tokens[col + 1].text;
            const std::optional<Cell> cell = parseCell(cellText);
            if (!cell)
                return error(line.number,
                    QStringLiteral(
                        "row %1, column %2: unknown cell \"%3\" (expected X, NV#, PIX, PXB, "
                        "PHB, NODE, SYS or SOC)")
                        .arg(device.name, matrix.devices[col].name, cellText));
            if (cell->self != (col == row->second))
                return error(line.number,
                    cell->self ? QStringLiteral("row %1, column %2: X (self) off the diagonal")
                                     .arg(device.name, matrix.devices[col].name)
                               : QStringLiteral("row %1: expected X (self) in its own column")
                                     .arg(device.name));
            if (cell->self)
                continue;
            const auto key = std::minmax(row->second, col);
            const auto seen = pairs.find(key);
            if (seen == pairs.end()) {
                pairs[key] = { *cell, line.number };
            } else if (seen->second.cell.kind != cell->kind
                || seen->second.cell.count != cell->count) {
                matrix.warnings.append(
                    QStringLiteral("%1:%2: %3 to %4 is %5 but line %6 says otherwise; kept line %6")
                        .arg(source)
                        .arg(line.number)
                        .arg(device.name, matrix.devices[col].name, cellText)
                        .arg(seen->second.line));
            }
        }

        // Trailing values go to the affinity column printed above them; where the alignment
        // does not say (a hand-edited copy), they fill the columns in order.
        std::vector<Token> values(tokens.begin() + qsizetype(columns) + 1, tokens.end());
        if (values.size() > header.affinity.size())
            return error(line.number,
                QStringLiteral(
                    "row %1 has %2 values after its cells but the header has %3 affinity "
                    "columns")
                    .arg(device.name)
                    .arg(values.size())
                    .arg(header.affinity.size()));
        const int shift = header.devices.empty()
            ? 0
            : std::max(0, tokens[1].column - header.devices.front().column);
        std::vector<int> slot(values.size(), -1);
        bool aligned = true;
        for (size_t v = 0; v < values.size() && aligned; ++v) {
            const int at = values[v].column - shift + 1;
            for (size_t a = 0; a < header.affinity.size(); ++a)
                if (header.affinity[a].column <= at)
                    slot[v] = int(a);
            aligned = slot[v] >= 0 && (v == 0 || slot[v] > slot[v - 1]);
        }
        for (size_t v = 0; v < values.size(); ++v) {
            const Affinity which = header.affinity[aligned ? size_t(slot[v]) : v].which;
            const QString value = affinityValue(values[v].text);
            if (which == Affinity::Cpu) {
                device.cpuAffinity = value;
            } else if (which == Affinity::Numa) {
                device.numaAffinity = value;
                device.numaNode = singleNode(value);
            } else {
                device.gpuNumaId = singleNode(value);
            }
        }
    }
    if (rows == 0)
        return error(headerLine, QStringLiteral("the header is not followed by any matrix rows"));

    for (const auto &[key, seen] : pairs)
        matrix.links.push_back({ matrix.devices[key.first].name, matrix.devices[key.second].name,
            seen.cell.kind, seen.cell.count });

    static const QRegularExpression legendEntry(
        QStringLiteral("^\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*$"));
    bool inNicLegend = false;
    for (; next < lines.size(); ++next) {
        const QString &line = lines[next].text;
        if (line.trimmed().startsWith(u"NIC Legend")) {
            inNicLegend = true;
            continue;
        }
        if (!inNicLegend)
            continue;
        const QRegularExpressionMatch match = legendEntry.match(line);
        if (!match.hasMatch())
            continue;
        const QString nic = match.captured(1);
        if (!indexOf.contains(nic))
            matrix.warnings.append(
                QStringLiteral("%1:%2: the NIC legend names %3, which is not a column")
                    .arg(source)
                    .arg(lines[next].number)
                    .arg(nic));
        matrix.nicLegend.emplace_back(nic, match.captured(2));
    }
    return matrix;
}

} // namespace dra::topology
