// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// "Apply to cluster…" on the in-process demo cluster: the editor's starter template is dry-run,
// applied, read back from the server and seen in the console; a refused one shows the server's
// reason and the editor keeps its text.
#include "app/console/apply_dialog.h"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/console/main_window.h"
#include "core/model/manifest_reader.h"
#include "tests/views/console_demo_support.h"
#include "views/claims/claim_browser.h"
#include "views/editor/template_editor.h"

namespace dra::test {
namespace {

// The metadata of the one object in `text`, as the dialog sends it.
nlohmann::json editorObjectMetadata(const QString &text)
{
    const model::ManifestSet manifests
        = model::readManifestText(text.toStdString(), QStringLiteral("editor"));
    if (manifests.documents.size() != 1)
        return {};
    return manifests.documents.front().object.value("metadata", nlohmann::json::object());
}

TEST(ApplyDialogTest, AppliedTemplateReachesTheServerAndShowsInTheConsole)
{
    ConsoleDemo demo;
    console::MainWindow window(&demo.session());
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    // The editor's starter template, as it is: it names the namespace "default", which the
    // console's demo cluster has.
    const nlohmann::json metadata = editorObjectMetadata(window.templateEditor()->text());
    const std::string ns = metadata.value("namespace", "");
    const std::string name = metadata.value("name", "");
    ASSERT_FALSE(name.empty()) << window.templateEditor()->text().toStdString();
    ASSERT_EQ(ns, "default");

    console::ApplyDialog *dialog = window.applyToCluster();
    ASSERT_NE(dialog, nullptr);
    QSignalSpy dryRun(dialog, &console::ApplyDialog::dryRunDone);
    ASSERT_TRUE(consoleWaitUntil([&] { return dryRun.count() > 0; }))
        << dialog->statusText().toStdString();
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("server dry run")))
        << dialog->statusText().toStdString();
    EXPECT_TRUE(dialog->diffText().contains(QString::fromStdString(name)))
        << dialog->diffText().toStdString();
    // A dry run writes nothing.
    const kube::ClientConfig client = *demo.session().clientConfig();
    const QString path
        = QStringLiteral("/apis/resource.k8s.io/v1/namespaces/%1/resourceclaimtemplates/%2")
              .arg(QString::fromStdString(ns), QString::fromStdString(name));
    ASSERT_FALSE(consoleGet(client, path).has_value());

    QPushButton *apply = dialogApplyButton(dialog);
    ASSERT_NE(apply, nullptr);
    ASSERT_TRUE(apply->isEnabled()) << dialog->statusText().toStdString();
    QSignalSpy applied(dialog, &console::ApplyDialog::applyDone);
    apply->click();
    ASSERT_TRUE(consoleWaitUntil([&] { return applied.count() > 0; }))
        << dialog->statusText().toStdString();
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("created")))
        << dialog->statusText().toStdString();

    const Result<kube::RestResponse> stored = consoleGet(client, path);
    ASSERT_TRUE(stored.has_value()) << stored.error().message.toStdString();
    const nlohmann::json object = nlohmann::json::parse(stored->body.toStdString());
    EXPECT_EQ(object["spec"]["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"],
        "gpu.nvidia.com");

    // Through the mirror into the console's inventory.
    EXPECT_TRUE(consoleWaitUntil([&] {
        return inventoryObject(demo.session(), model::Kind::ResourceClaimTemplate, ns, name)
            != nullptr;
    }));
}

TEST(ApplyDialogTest, RefusedApplyShowsTheServersReasonAndKeepsTheEditorText)
{
    ConsoleDemo demo;
    console::MainWindow window(&demo.session());
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    // The starter template, moved to a namespace the cluster does not have.
    QString text = window.templateEditor()->text();
    const std::string name = editorObjectMetadata(text).value("name", "");
    ASSERT_TRUE(text.contains(QStringLiteral("namespace: default"))) << text.toStdString();
    text.replace(QStringLiteral("namespace: default"), QStringLiteral("namespace: no-such-team"));
    window.templateEditor()->setText(text);

    console::ApplyDialog *dialog = window.applyToCluster();
    ASSERT_NE(dialog, nullptr);
    QSignalSpy dryRun(dialog, &console::ApplyDialog::dryRunDone);
    ASSERT_TRUE(consoleWaitUntil([&] { return dryRun.count() > 0; }))
        << dialog->statusText().toStdString();
    EXPECT_TRUE(
        dialog->statusText().contains(QStringLiteral("namespaces \"no-such-team\" not found")))
        << dialog->statusText().toStdString();
    EXPECT_TRUE(dialog->statusText().contains(QStringLiteral("nothing was applied")))
        << dialog->statusText().toStdString();
    QPushButton *apply = dialogApplyButton(dialog);
    ASSERT_NE(apply, nullptr);
    EXPECT_FALSE(apply->isEnabled());
    dialog->reject();
    EXPECT_EQ(window.templateEditor()->text(), text);
    EXPECT_FALSE(consoleGet(*demo.session().clientConfig(),
        QStringLiteral("/apis/resource.k8s.io/v1/namespaces/no-such-team/resourceclaimtemplates/%1")
            .arg(QString::fromStdString(name)))
                     .has_value());
}

} // namespace
} // namespace dra::test
