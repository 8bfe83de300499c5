// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// bench/console: the desktop console on a large cache (scripts/bench console).
//  1. Start to first paint: runs `draconsole --cache FILE --startup-report` (warm page cache,
//     offscreen) several times and reports the medians of what it prints, plus the wall time
//     from launching the process to reading its report.
//  2. Keystroke to match results in the claim-template editor: types into the selector of the
//     editor's example template (a GPU with at least 40Gi) and times each key press until the
//     editor shows the new match counts, then, apart, until the allocation simulation that
//     follows has been shown. Keys alternate between adding and removing a digit of the
//     quantity, so every key changes which devices match.
//  3. The device table on a large cache (--table-cache, e.g. 100,000 devices): filling it,
//     sorting by each column both ways, scrolling to the end, filtering by text, each until
//     the table has painted.
// Prints one JSON line per part; figures are milliseconds.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTableView>
#include <QTest>
#include <QThreadPool>

#include "core/inventory/snapshot_builder.h"
#include "core/store/cache_db.h"
#include "views/editor/template_check.h"
#include "views/editor/template_editor.h"
#include "views/inventory/device_browser.h"
#include "views/inventory/device_filter_model.h"
#include "views/inventory/device_table_model.h"

namespace {

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5))];
}

void fail(const QString &message)
{
    std::fprintf(stderr, "console bench: %s\n", qPrintable(message));
    std::exit(1);
}

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

// Part 1: `draconsole --startup-report`, `runs` times after one warm-up run.
void benchStartup(const QString &draconsole, const QString &cache, const QString &cluster, int runs)
{
    std::vector<double> firstPaint, loaded, wall;
    QJsonObject last;
    for (int run = -1; run < runs; ++run) {
        QProcess process;
        QStringList arguments { QStringLiteral("--cache"), cache,
            QStringLiteral("--startup-report") };
        if (!cluster.isEmpty())
            arguments << QStringLiteral("--cluster") << cluster;
        QElapsedTimer clock;
        clock.start();
        process.start(draconsole, arguments);
        QByteArray out;
        while (!out.contains('\n') && process.state() != QProcess::NotRunning
            && clock.elapsed() < 120'000) {
            process.waitForReadyRead(50);
            out += process.readAllStandardOutput();
        }
        const double wallMs = double(clock.elapsed());
        process.waitForFinished(30'000);
        out += process.readAllStandardOutput();
        const QJsonObject report = QJsonDocument::fromJson(out.left(out.indexOf('\n'))).object();
        if (report.isEmpty())
            fail(QStringLiteral("draconsole printed no report: %1 %2")
                     .arg(QString::fromUtf8(out),
                         QString::fromUtf8(process.readAllStandardError())));
        if (run < 0)
            continue; // warm-up: the cache file and the libraries come into the page cache
        firstPaint.push_back(report.value(QStringLiteral("first_paint_ms")).toDouble());
        loaded.push_back(report.value(QStringLiteral("main_to_loaded_ms")).toDouble());
        wall.push_back(wallMs);
        last = report;
    }
    printJson({ { QStringLiteral("bench"), QStringLiteral("console-startup") },
        { QStringLiteral("runs"), runs },
        { QStringLiteral("devices"), last.value(QStringLiteral("devices")) },
        { QStringLiteral("nodes"), last.value(QStringLiteral("nodes")) },
        { QStringLiteral("first_paint_ms_p50"), median(firstPaint) },
        { QStringLiteral("first_paint_ms_max"),
            *std::max_element(firstPaint.begin(), firstPaint.end()) },
        { QStringLiteral("main_to_loaded_ms_p50"), median(loaded) },
        { QStringLiteral("launch_to_report_wall_ms_p50"), median(wall) },
        { QStringLiteral("target_ms"), 1000 } });
}

// Waits, serving events, until `done` holds; false after `ms`.
template <typename Done> bool spinUntil(Done done, int ms = 60'000)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// The snapshot of `cluster` (the cache's first when empty) in the cache at `cachePath`.
dra::inventory::SnapshotPtr loadCacheSnapshot(const QString &cachePath, const QString &cluster)
{
    dra::Result<dra::store::CacheDb> cache
        = dra::store::CacheDb::open(cachePath, dra::store::OpenMode::ReadOnly);
    if (!cache)
        fail(cache.error().message);
    std::string clusterName = cluster.toStdString();
    if (clusterName.empty()) {
        dra::Result<std::vector<dra::store::ClusterInfo>> clusters = cache->clusters();
        if (!clusters || clusters->empty())
            fail(QStringLiteral("%1 holds no cluster").arg(cachePath));
        clusterName = clusters->front().name;
    }
    dra::Result<dra::inventory::SnapshotPtr> snapshot
        = dra::inventory::loadSnapshot(*cache, clusterName);
    if (!snapshot)
        fail(snapshot.error().message);
    return *snapshot;
}

// Part 2: key presses in the template editor on the cache's snapshot.
void benchEditor(const QString &cachePath, const QString &cluster, int keystrokes)
{
    const dra::inventory::SnapshotPtr snapshot = loadCacheSnapshot(cachePath, cluster);

    dra::views::TemplateEditor editor;
    editor.resize(1400, 900);
    editor.show();
    int matched = 0, checked = 0;
    QObject::connect(&editor, &dra::views::TemplateEditor::matched, &editor, [&] { ++matched; });
    QObject::connect(&editor, &dra::views::TemplateEditor::checked, &editor, [&] { ++checked; });
    editor.setSnapshot(snapshot);
    if (!spinUntil([&] { return checked > 0; }))
        fail(QStringLiteral("the editor never finished its first check"));

    // The cursor goes right after the "40" of "40Gi": keys then add and remove a "0".
    QPlainTextEdit *text = editor.editor();
    const int at = text->toPlainText().indexOf(QStringLiteral("40Gi"));
    if (at < 0)
        fail(QStringLiteral("the example template has no 40Gi"));
    QTextCursor cursor = text->textCursor();
    cursor.setPosition(at + 2);
    text->setTextCursor(cursor);
    text->setFocus();

    std::vector<double> toMatches, toSimulation, simulationCompute;
    int lastMatching = -1;
    int changedResults = 0;
    for (int key = 0; key < keystrokes; ++key) {
        const int matchedBefore = matched, checkedBefore = checked;
        QElapsedTimer clock;
        clock.start();
        QTest::keyClick(text, key % 2 == 0 ? Qt::Key_0 : Qt::Key_Backspace);
        // The simulation's result carries the counts too, should it come in first.
        if (!spinUntil([&] { return matched > matchedBefore || checked > checkedBefore; }))
            fail(QStringLiteral("no match results after key %1").arg(key));
        const double matchMs = double(clock.nsecsElapsed()) / 1e6;
        if (!spinUntil([&] { return checked > checkedBefore; }))
            fail(QStringLiteral("no simulation after key %1").arg(key));
        toMatches.push_back(matchMs);
        toSimulation.push_back(double(clock.nsecsElapsed()) / 1e6 - matchMs);
        simulationCompute.push_back(editor.lastCheck().simulationMs);
        const int matching = editor.lastCheck().requests.empty()
            ? 0
            : editor.lastCheck().requests.front().matching;
        if (matching != lastMatching)
            ++changedResults;
        lastMatching = matching;
    }
    printJson({ { QStringLiteral("bench"), QStringLiteral("editor-keystroke") },
        { QStringLiteral("devices"), qint64(snapshot->devices().size()) },
        { QStringLiteral("keystrokes"), keystrokes },
        { QStringLiteral("results_that_changed"), changedResults },
        { QStringLiteral("key_to_matches_ms_p50"), median(toMatches) },
        { QStringLiteral("key_to_matches_ms_p90"), percentile(toMatches, 0.9) },
        // Shown after the typing pauses (the editor's 200 ms debounce), and the work it took.
        { QStringLiteral("then_simulation_shown_ms_p50"), median(toSimulation) },
        { QStringLiteral("simulation_compute_ms_p50"), median(simulationCompute) },
        { QStringLiteral("simulation_compute_ms_p90"), percentile(simulationCompute, 0.9) },
        { QStringLiteral("target_ms_p50"), 50 } });
}

// Milliseconds `action` takes until the table has painted its result.
template <typename Action> double timedUntilPainted(QTableView *table, Action action)
{
    QElapsedTimer clock;
    clock.start();
    action();
    QCoreApplication::processEvents();
    table->viewport()->repaint();
    return double(clock.nsecsElapsed()) / 1e6;
}

// Part 3: the device browser's table on a large cache: filling it, sorting it by each column,
// scrolling to the end and filtering it by text, each timed until the table has painted.
void benchDeviceTable(const QString &cachePath, const QString &cluster)
{
    // Work the editor part left on the thread pool would share the cores with this part.
    QThreadPool::globalInstance()->waitForDone();
    const dra::inventory::SnapshotPtr snapshot = loadCacheSnapshot(cachePath, cluster);
    dra::views::DeviceBrowser browser;
    browser.resize(1400, 900);
    browser.show();
    if (!QTest::qWaitForWindowExposed(&browser))
        fail(QStringLiteral("the device browser was never shown"));
    QTableView *table = browser.table();
    using Model = dra::views::DeviceTableModel;

    // Filling paints the rows; the search texts for the text filter are read in the background
    // after it, and the other parts start once that is done, as a user would come to them.
    bool searchPrepared = false;
    QObject::connect(browser.filterModel(), &dra::views::DeviceFilterModel::searchPrepared,
        &browser, [&] { searchPrepared = true; });
    QElapsedTimer sinceReset;
    sinceReset.start();
    const double fill = timedUntilPainted(table, [&] { browser.reset(snapshot); });
    if (!spinUntil([&] { return searchPrepared; }))
        fail(QStringLiteral("the search texts were never read"));
    const double searchReady = double(sinceReset.nsecsElapsed()) / 1e6;
    QJsonObject sorts;
    double slowestSort = 0;
    for (const int column :
        { Model::Name, Model::Node, Model::Product, Model::Memory, Model::State, Model::Holder }) {
        for (const Qt::SortOrder order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
            const double ms = timedUntilPainted(table, [&] { table->sortByColumn(column, order); });
            slowestSort = std::max(slowestSort, ms);
            const QString name = browser.tableModel()->headerData(column, Qt::Horizontal).toString()
                + (order == Qt::AscendingOrder ? QStringLiteral(" asc") : QStringLiteral(" desc"));
            sorts.insert(name, ms);
        }
    }
    const double scroll = timedUntilPainted(table, [&] { table->scrollToBottom(); });
    const double firstFilter = timedUntilPainted(
        table, [&] { browser.filterModel()->setText(QStringLiteral("h100 free")); });
    const int filtered = browser.filterModel()->rowCount();
    const double nextFilter = timedUntilPainted(
        table, [&] { browser.filterModel()->setText(QStringLiteral("h100 allocated")); });
    const double clearFilter
        = timedUntilPainted(table, [&] { browser.filterModel()->setText(QString()); });
    printJson({ { QStringLiteral("bench"), QStringLiteral("device-table") },
        { QStringLiteral("rows"), browser.tableModel()->rowCount() },
        { QStringLiteral("fill_ms"), fill },
        { QStringLiteral("search_texts_ready_ms"), searchReady },
        { QStringLiteral("sort_ms"), sorts }, { QStringLiteral("slowest_sort_ms"), slowestSort },
        { QStringLiteral("scroll_to_end_ms"), scroll },
        { QStringLiteral("first_text_filter_ms"), firstFilter },
        { QStringLiteral("text_filter_rows"), filtered },
        { QStringLiteral("next_text_filter_ms"), nextFilter },
        { QStringLiteral("clear_filter_ms"), clearFilter } });
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Start-up and editor latency of the desktop console."));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("draconsole"), QStringLiteral("The draconsole executable."),
        QStringLiteral("path") });
    parser.addOption(
        { QStringLiteral("cache"), QStringLiteral("The cache to open."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("cluster"), QStringLiteral("The cluster of the cache."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("runs"), QStringLiteral("Start-up runs (default 5)."),
        QStringLiteral("n"), QStringLiteral("5") });
    parser.addOption({ QStringLiteral("table-cache"),
        QStringLiteral(
            "A cache for the device table part (e.g. 100,000 devices); without it, --cache."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("keystrokes"), QStringLiteral("Key presses (default 40)."),
        QStringLiteral("n"), QStringLiteral("40") });
    parser.process(app);
    const QString cache = parser.value(QStringLiteral("cache"));
    if (cache.isEmpty())
        fail(QStringLiteral("--cache is required"));
    const QString cluster = parser.value(QStringLiteral("cluster"));
    if (parser.isSet(QStringLiteral("draconsole")))
        benchStartup(parser.value(QStringLiteral("draconsole")), cache, cluster,
            std::max(1, parser.value(QStringLiteral("runs")).toInt()));
    benchEditor(cache, cluster, std::max(2, parser.value(QStringLiteral("keystrokes")).toInt()));
    const QString tableCache = parser.value(QStringLiteral("table-cache"));
    benchDeviceTable(tableCache.isEmpty() ? cache : tableCache, cluster);
    return 0;
}
