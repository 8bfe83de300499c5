// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/manifest_reader.h"

#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/upstream.h"

using dra::model::ManifestSet;
using dra::model::readManifests;
using dra::model::readManifestText;

namespace {

QString dataPath(const std::string &relative)
{
    return QString::fromStdString(dra::test::testDataPath("model/" + relative).string());
}

std::string name(const dra::model::ManifestDocument &document)
{
    return document.object["metadata"]["name"].get<std::string>();
}

std::string problems(const ManifestSet &set)
{
    std::string text;
    for (const auto &problem : set.problems)
        text += problem.message().toStdString() + "\n";
    return text;
}

} // namespace

TEST(ManifestReaderTest, ExpandsAKubectlListDump)
{
    const QString file = dataPath("manifests/kubectl-list.yaml");
    const ManifestSet set = readManifests({ file });
    ASSERT_TRUE(set.problems.empty()) << problems(set);
    ASSERT_EQ(set.documents.size(), 3u);
    EXPECT_EQ(set.documents[0].object["kind"], "DeviceClass");
    EXPECT_EQ(set.documents[0].origin, file + QStringLiteral(":3"));
    EXPECT_EQ(set.documents[1].origin, file + QStringLiteral(":15"));
    EXPECT_EQ(set.documents[2].origin, file + QStringLiteral(":43"));
    EXPECT_EQ(name(set.documents[2]), "training-gpus");
    // Typed by each item's kind: the attribute version keeps its text.
    EXPECT_EQ(
        set.documents[1].object["spec"]["devices"][0]["attributes"]["driverVersion"]["version"],
        "1.10");
    EXPECT_EQ(set.documents[1].object["spec"]["pool"]["generation"], 1);
}

TEST(ManifestReaderTest, KeepsTheGoodDocumentsAroundBrokenOnes)
{
    const QString file = dataPath("manifests/multi-doc-broken.yaml");
    const ManifestSet set = readManifests({ file });
    ASSERT_EQ(set.documents.size(), 2u) << problems(set);
    EXPECT_EQ(name(set.documents[0]), "single-gpu");
    EXPECT_EQ(set.documents[0].origin, file + QStringLiteral(":2"));
    EXPECT_EQ(name(set.documents[1]), "mig-1g.10gb");
    EXPECT_EQ(set.documents[1].origin, file + QStringLiteral(":37"));

    ASSERT_EQ(set.problems.size(), 3u) << problems(set);
    EXPECT_TRUE(set.problems[0].origin.startsWith(file + QStringLiteral(":24:")))
        << problems(set); // the syntax error, with its column
    EXPECT_EQ(set.problems[1].origin, file + QStringLiteral(":27"));
    EXPECT_EQ(set.problems[1].reason, QStringLiteral("not a Kubernetes object: no metadata.name"));
    EXPECT_EQ(set.problems[2].message(),
        file + QStringLiteral(":34: expected a Kubernetes object, found a array"));
}

TEST(ManifestReaderTest, ReadsDirectoriesRecursivelyInPathOrder)
{
    const QString dir = dataPath("tree");
    const ManifestSet set = readManifests({ dir });
    ASSERT_TRUE(set.problems.empty()) << problems(set);
    ASSERT_EQ(set.documents.size(), 4u);
    EXPECT_EQ(set.documents[0].origin, dir + QStringLiteral("/classes/gpu-class.yaml:1"));
    EXPECT_EQ(set.documents[1].origin, dir + QStringLiteral("/slices/extra/claim.yml:1"));
    EXPECT_EQ(set.documents[1].object["apiVersion"], "resource.k8s.io/v1beta1");
    // A ResourceSliceList in JSON: items get kind and apiVersion from the list, and their lines.
    EXPECT_EQ(set.documents[2].origin, dir + QStringLiteral("/slices/node-1.json:6"));
    EXPECT_EQ(set.documents[3].origin, dir + QStringLiteral("/slices/node-1.json:15"));
    EXPECT_EQ(set.documents[3].object["kind"], "ResourceSlice");
    EXPECT_EQ(set.documents[3].object["apiVersion"], "resource.k8s.io/v1");
    EXPECT_EQ(name(set.documents[3]), "node-1-gpu-b");
}

TEST(ManifestReaderTest, DetectsJsonByContentAndReadsJsonStreams)
{
    const ManifestSet set = readManifestText(
        "\n{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"a\"}}\n"
        "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\",\n \"metadata\": {\"name\": \"b\"}}\n",
        QStringLiteral("stdin"));
    ASSERT_TRUE(set.problems.empty()) << problems(set);
    ASSERT_EQ(set.documents.size(), 2u);
    EXPECT_EQ(set.documents[0].origin, QStringLiteral("stdin:2"));
    EXPECT_EQ(set.documents[1].origin, QStringLiteral("stdin:3"));
}

TEST(ManifestReaderTest, FlowStyleYamlStartingWithABraceIsStillRead)
{
    const ManifestSet set = readManifestText(
        "{apiVersion: v1, kind: Namespace, metadata: {name: 007}}", QStringLiteral("flow.yaml"));
    ASSERT_TRUE(set.problems.empty()) << problems(set);
    ASSERT_EQ(set.documents.size(), 1u);
    EXPECT_EQ(name(set.documents[0]), "007");
}

TEST(ManifestReaderTest, MalformedJsonIsReportedWithItsLine)
{
    const ManifestSet set = readManifestText(
        "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"a\"}}\n"
        "{\"apiVersion\": \"v1\",\n \"kind\": Namespace}\n",
        QStringLiteral("x.json"));
    ASSERT_EQ(set.documents.size(), 1u) << problems(set);
    ASSERT_EQ(set.problems.size(), 1u);
    EXPECT_TRUE(set.problems[0].origin.startsWith(QStringLiteral("x.json:3:"))) << problems(set);
    EXPECT_TRUE(set.problems[0].reason.startsWith(QStringLiteral("malformed JSON")))
        << problems(set);
}

TEST(ManifestReaderTest, ListItemsWithoutKindAreProblemsInAPlainList)
{
    const ManifestSet set = readManifestText("apiVersion: v1\nkind: List\nitems:\n"
                                             "- metadata: {name: a}\n- 42\n",
        QStringLiteral("l.yaml"));
    EXPECT_TRUE(set.documents.empty());
    ASSERT_EQ(set.problems.size(), 2u) << problems(set);
    EXPECT_EQ(set.problems[0].message(),
        QStringLiteral("l.yaml:4: not a Kubernetes object: no kind")); // apiVersion inherited
    EXPECT_EQ(set.problems[1].message(),
        QStringLiteral("l.yaml:5: expected a Kubernetes object, found a number"));
}

TEST(ManifestReaderTest, EmptyInputsHaveNothingToReport)
{
    EXPECT_TRUE(readManifestText("", QStringLiteral("e")).problems.empty());
    const ManifestSet set = readManifestText("---\n# nothing\n---\n", QStringLiteral("e"));
    EXPECT_TRUE(set.documents.empty());
    EXPECT_TRUE(set.problems.empty());
    EXPECT_TRUE(readManifestText("apiVersion: v1\nkind: List\nitems: []\n", QStringLiteral("e"))
                    .problems.empty());
}

TEST(ManifestReaderTest, MissingPathsAndEmptyDirectoriesAreProblems)
{
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString missing = temp.filePath(QStringLiteral("nope.yaml"));
    const QString empty = temp.filePath(QStringLiteral("empty-dir"));
    ASSERT_TRUE(QDir().mkpath(empty));
    const ManifestSet set = readManifests({ missing, empty });
    ASSERT_EQ(set.problems.size(), 2u);
    EXPECT_EQ(set.problems[0].message(), missing + QStringLiteral(": no such file or directory"));
    EXPECT_EQ(
        set.problems[1].message(), empty + QStringLiteral(": no *.json, *.yaml or *.yml files"));
}

TEST(ManifestReaderTest, UnreadableFilesAreProblems)
{
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    if (geteuid() == 0)
        GTEST_SKIP() << "root reads files of mode 000";
    const QString locked = temp.filePath(QStringLiteral("locked.yaml"));
    QFile file(locked);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n");
    file.close();
    ASSERT_TRUE(file.setPermissions(QFileDevice::Permissions()));
    const ManifestSet set = readManifests({ locked, dataPath("tree/classes/gpu-class.yaml") });
    ASSERT_EQ(set.problems.size(), 1u);
    EXPECT_EQ(set.problems[0].origin, locked);
    EXPECT_TRUE(set.problems[0].reason.startsWith(QStringLiteral("cannot read"))) << problems(set);
    EXPECT_EQ(set.documents.size(), 1u); // the other path is still read
}
