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

namespace {

// The objects of one list page and what the client needs to ask for the next one.
struct ListPage
{
    std::vector<EncodedObjects::Shared> items;
    int64_t rev = 0; // the revision the page is of: the token's, or the list's own
    bool more = false; // a continue token was handed out
    nlohmann::json metadata; // resourceVersion, and continue and remainingItemCount if more
};

// Picks the page of `items` (in namespace and name order) that the options ask for: after the
// continue token's key, matching the selectors, at most `limit`.
ListPage selectPage(const std::vector<EncodedObjects::Shared> &items, const ListOptions &options,
    const std::optional<ContinueToken> &resume, int64_t listRev, int64_t tokenEpoch)
{
    ListPage page;
    int64_t remaining = 0;
    for (const EncodedObjects::Shared &item : items) {
        const model::ObjectMeta &meta = item->meta;
        // Rows come ordered by namespace and name, the order the token's key refers to.
        if (resume && std::tie(meta.ns, meta.name) <= std::tie(resume->ns, resume->name))
            continue;
        if (!options.labels.matches(meta) || !options.fields.matches(meta))
            continue;
        if (options.limit > 0 && int64_t(page.items.size()) >= options.limit) {
            ++remaining;
            continue;
        }
        page.items.push_back(item);
    }
    page.rev = resume ? resume->rev : listRev;
    page.more = remaining > 0;
    page.metadata = { { "resourceVersion", std::to_string(page.rev) } };
    if (page.more) {
        const model::ObjectMeta &last = page.items.back()->meta;
        page.metadata["continue"] = encodeToken({ page.rev, last.ns, last.name, tokenEpoch });
        page.metadata["remainingItemCount"] = remaining;
    }
    return page;
}

// A JSON list whose items are already encoded: the envelope and their bytes, handed to the
// connection piece by piece (BodyPieces) so the list is never copied into one buffer.
class EncodedListBody final : public BodyPieces
{
public:
    EncodedListBody(std::string head, std::vector<EncodedObjects::Shared> items)
        : m_head(std::move(head))
        , m_items(std::move(items))
    {
        m_size = qint64(m_head.size() + kTail.size() + (m_items.empty() ? 0 : m_items.size() - 1));
        for (const EncodedObjects::Shared &item : m_items)
            m_size += qint64(item->json.size());
    }

    qint64 size() const override { return m_size; }

    bool next(QByteArray &out, qint64 budget) override
    {
        if (!m_headSent) {
            out.append(m_head.data(), qsizetype(m_head.size()));
            m_headSent = true;
        }
        for (; m_next < m_items.size() && out.size() < budget; ++m_next) {
            if (m_next > 0)
                out.append(',');
            const std::string &json = m_items[m_next]->json;
            out.append(json.data(), qsizetype(json.size()));
            m_items[m_next].reset(); // sent: the view may let it go
        }
        if (m_next < m_items.size())
            return true;
        out.append(kTail.data(), qsizetype(kTail.size()));
        return false;
    }

private:
    static constexpr std::string_view kTail = "]}";
    std::string m_head; // up to and including "items":[
    std::vector<EncodedObjects::Shared> m_items;
    std::size_t m_next = 0;
    bool m_headSent = false;
    qint64 m_size = 0;
};

Response encodedListResponse(const model::KindInfo &kind, const std::string &apiVersion,
    const nlohmann::json &metadata, std::vector<EncodedObjects::Shared> items)
{
    std::string head = common::compactJson(nlohmann::json {
        { "kind", listKind(kind) }, { "apiVersion", apiVersion }, { "metadata", metadata } });
    // `head` ends with the object's closing brace: the items go in before it.
    head.pop_back();
    head += ",\"items\":[";
    Response response;
    response.pieces = std::make_shared<EncodedListBody>(std::move(head), std::move(items));
    return response;
}

} // namespace

std::optional<Response> ResourceController::refuseStaleContinue(
    const model::KindInfo &kind, const ContinueToken &resume, int64_t listRev)
{
    Result<bool> changed = changedSince(m_source, kind, resume.rev);
    if (!changed)
        return status::fromError(changed.error());
    if (!*changed && resume.epoch == m_tokenEpoch && resume.rev >= m_compactedRev)
        return std::nullopt;
    // As upstream: the remainder is offered at the current revision, knowingly inconsistent.
    return status::expired(
        "The provided continue parameter is too old to display a consistent list result. "
        "You can start a new list without the continue parameter, or use the continue token "
        "in this response to retrieve the remainder of the results. Continuing with the "
        "provided token results in an inconsistent list - objects that were created, modified, "
        "or deleted between the time the first chunk was returned and now may show up in "
        "the list.",
        encodeToken({ listRev, resume.ns, resume.name, m_tokenEpoch }));
}

std::optional<EncodedObjects::Listing> ResourceController::keptPage(const model::KindInfo &kind,
    const std::string &ns, const std::string &apiVersion, const ContinueToken &resume)
{
    if (resume.epoch != m_tokenEpoch || resume.rev < m_compactedRev)
        return std::nullopt;
    return m_source.encodedSnapshot(kind, ns, apiVersion, resume.rev);
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
    // The objects as they are now; the first page of a paged list keeps them as they are, so
    // that its later pages come from the same revision whatever changes meanwhile.
    Result<EncodedObjects::Listing> listing = m_source.listEncoded(kind, ns, apiVersion);
    if (!listing)
        return status::fromError(listing.error());
    if (resume) {
        if (std::optional<EncodedObjects::Listing> kept = keptPage(kind, ns, apiVersion, *resume))
            *listing = std::move(*kept);
        else if (std::optional<Response> refused = refuseStaleContinue(kind, *resume, listing->rev))
            return std::move(*refused);
    }
    ListPage page = selectPage(listing->items, *options, resume, listing->rev, m_tokenEpoch);
    if (page.more)
        m_source.keepEncodedSnapshot(kind, apiVersion, page.rev);

    if (options->rendering.table) {
        // Table cells are computed from decoded objects: those of this page.
        std::vector<ServedObject> served;
        served.reserve(page.items.size());
        for (const EncodedObjects::Shared &item : page.items) {
            Result<ServedObject> decoded = ObjectSource::servedFromEncoded(*item);
            if (!decoded)
                return status::fromError(decoded.error());
            served.push_back(std::move(*decoded));
        }
        std::vector<const ServedObject *> rows;
        rows.reserve(served.size());
        for (const ServedObject &item : served)
            rows.push_back(&item);
        nlohmann::json table = makeTable(kind, rows, options->rendering, true);
        table["metadata"] = std::move(page.metadata);
        return jsonResponse(200, table, std::string(kTableContentType));
    }
    return encodedListResponse(kind, apiVersion, page.metadata, std::move(page.items));
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
