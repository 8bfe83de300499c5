// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/resource_controller.h"

#include <charconv>
#include <tuple>

#include <QByteArray>

#include "core/common/json_text.h"
#include "core/server/kube_status.h"

namespace dra::server {

namespace {

using common::Error;
using common::qs;

// A continue token names the revision the first page was read at and the last key served.
// It is base64url of JSON so clients treat it as opaque and we can extend it.
struct ContinueToken
{
    int64_t rev = 0;
    std::string ns, name;
    int64_t epoch = 0; // the server's token epoch; an older one is expired
};

std::string encodeToken(const ContinueToken &token)
{
    nlohmann::json json
        = { { "v", 1 }, { "rev", token.rev }, { "ns", token.ns }, { "name", token.name } };
    if (token.epoch != 0)
        json["epoch"] = token.epoch;
    return QByteArray::fromStdString(common::compactJson(json))
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
        .toStdString();
}

Result<ContinueToken> decodeToken(const std::string &text)
{
    const auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromStdString(text),
        QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    const auto bad = dra::fail(
        Error::Code::Invalid, QStringLiteral("continue key is not valid: %1").arg(qs(text)));
    if (!decoded)
        return bad;
    Result<nlohmann::json> json
        = common::parseJson(decoded.decoded.toStdString(), QStringLiteral("continue token"));
    if (!json || !json->is_object() || !json->contains("rev") || !(*json)["rev"].is_number_integer()
        || !json->value("ns", nlohmann::json()).is_string()
        || !json->value("name", nlohmann::json()).is_string())
        return bad;
    const nlohmann::json epoch = json->value("epoch", nlohmann::json(0));
    if (!epoch.is_number_integer())
        return bad;
    return ContinueToken { (*json)["rev"].get<int64_t>(), (*json)["ns"].get<std::string>(),
        (*json)["name"].get<std::string>(), epoch.get<int64_t>() };
}

// Whether any object of `kind` changed after `rev`: then a continued list cannot be the
// consistent snapshot upstream promises, and the client must be told (410 Expired).
Result<bool> changedSince(ObjectSource &source, const model::KindInfo &kind, int64_t rev)
{
    int64_t after = rev;
    for (;;) {
        Result<std::vector<store::LoggedChange>> changes = source.cache().changesSince(after, 1000);
        if (!changes)
            return dra::fail(changes.error());
        if (changes->empty())
            return false;
        for (const store::LoggedChange &change : *changes) {
            if (change.cluster == source.cluster() && change.key.group == kind.group
                && change.key.kind == kind.name)
                return true;
        }
        after = changes->back().rev;
    }
}

std::string listKind(const model::KindInfo &kind)
{
    return std::string(kind.name) + "List";
}

} // namespace

Result<ListOptions> parseListOptions(const Request &request)
{
    ListOptions options;
    if (auto text = request.query.value("labelSelector")) {
        Result<LabelSelector> labels = LabelSelector::parse(*text);
        if (!labels)
            return dra::fail(labels.error());
        options.labels = std::move(*labels);
    }
    if (auto text = request.query.value("fieldSelector")) {
        Result<FieldSelector> fields = FieldSelector::parse(*text);
        if (!fields)
            return dra::fail(fields.error());
        options.fields = std::move(*fields);
    }
    if (auto text = request.query.value("limit"); text && !text->empty()) {
        const auto [ptr, ec]
            = std::from_chars(text->data(), text->data() + text->size(), options.limit);
        if (ec != std::errc() || ptr != text->data() + text->size() || options.limit < 0)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("limit: Invalid value: \"%1\": must be a non-negative integer")
                    .arg(qs(*text)));
    }
    options.continueToken = request.query.value("continue").value_or(std::string());
    options.rendering.table = acceptsTable(request.header("accept"));
    if (auto include = request.query.value("includeObject"); include && !include->empty()) {
        if (*include != "None" && *include != "Metadata" && *include != "Object")
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("includeObject: Unsupported value: \"%1\": supported values: "
                               "\"Metadata\", \"None\", \"Object\"")
                    .arg(qs(*include)));
        options.rendering.includeObject = *include;
    }
    return options;
}

ResourceController::ResourceController(ObjectSource &source)
    : m_source(source)
{
}

Response ResourceController::list(const Request &request, const model::KindInfo &kind,
    const std::string &ns, const std::string &apiVersion)
{
    Result<ListOptions> options = parseListOptions(request);
    if (!options)
        return status::badRequest(options.error().message.toStdString());
    std::optional<ContinueToken> resume;
    if (!options->continueToken.empty()) {
        Result<ContinueToken> token = decodeToken(options->continueToken);
        if (!token)
            return status::badRequest(token.error().message.toStdString());
        resume = *token;
    }
    Result<ObjectSource::Listing> listing = m_source.list(kind, ns, apiVersion);
    if (!listing)
        return status::fromError(listing.error());
    if (resume) {
        Result<bool> changed = changedSince(m_source, kind, resume->rev);
        if (!changed)
            return status::fromError(changed.error());
        if (*changed || resume->epoch != m_tokenEpoch || resume->rev < m_compactedRev) {
            // As upstream: the remainder is offered at the current revision, knowingly
            // inconsistent.
            return status::expired(
                "The provided continue parameter is too old to display a consistent list result. "
                "You can start a new list without the continue parameter, or use the continue "
                "token "
                "in this response to retrieve the remainder of the results. Continuing with the "
                "provided token results in an inconsistent list - objects that were created, "
                "modified, "
                "or deleted between the time the first chunk was returned and now may show up in "
                "the list.",
                encodeToken({ listing->rev, resume->ns, resume->name, m_tokenEpoch }));
        }
    }

    std::vector<ServedObject *> page;
    std::string nextToken;
    int64_t remaining = 0;
    for (ServedObject &item : listing->items) {
        const model::ObjectMeta &meta = item.object.meta;
        // Rows come ordered by namespace and name, the order the token's key refers to.
        if (resume && std::tie(meta.ns, meta.name) <= std::tie(resume->ns, resume->name))
            continue;
        if (!options->labels.matches(meta) || !options->fields.matches(meta))
            continue;
        if (options->limit > 0 && int64_t(page.size()) >= options->limit) {
            ++remaining;
            continue;
        }
        page.push_back(&item);
    }
    const int64_t rev = resume ? resume->rev : listing->rev;
    if (remaining > 0) {
        const model::ObjectMeta &last = page.back()->object.meta;
        nextToken = encodeToken({ rev, last.ns, last.name, m_tokenEpoch });
    }

    nlohmann::json metadata = { { "resourceVersion", std::to_string(rev) } };
    if (!nextToken.empty()) {
        metadata["continue"] = nextToken;
        metadata["remainingItemCount"] = remaining;
    }
    if (options->rendering.table) {
        const std::vector<const ServedObject *> rows(page.begin(), page.end());
        nlohmann::json table = makeTable(kind, rows, options->rendering, true);
        table["metadata"] = std::move(metadata);
        return jsonResponse(200, table, std::string(kTableContentType));
    }
    nlohmann::json items = nlohmann::json::array();
    items.get_ref<nlohmann::json::array_t &>().reserve(page.size());
    for (ServedObject *item : page)
        items.push_back(std::move(item->json)); // the listing is not used after this

    return jsonResponse(200,
        { { "kind", listKind(kind) }, { "apiVersion", apiVersion },
            { "metadata", std::move(metadata) }, { "items", std::move(items) } });
}

Response ResourceController::get(const Request &request, const model::KindInfo &kind,
    const std::string &ns, const std::string &name, const std::string &apiVersion)
{
    Result<std::optional<ServedObject>> found = m_source.get(kind, ns, name, apiVersion);
    if (!found)
        return status::fromError(found.error());
    if (!*found)
        return status::notFound(kind, name);
    if (acceptsTable(request.header("accept"))) {
        Rendering rendering;
        rendering.table = true;
        rendering.includeObject = request.query.value("includeObject").value_or("Metadata");
        nlohmann::json table = makeTable(kind, { &**found }, rendering, true);
        table["metadata"] = { { "resourceVersion", std::to_string((*found)->rev) } };
        return jsonResponse(200, table, std::string(kTableContentType));
    }
    return jsonResponse(200, (*found)->json);
}

} // namespace dra::server
