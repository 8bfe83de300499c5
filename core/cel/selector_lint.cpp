// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/selector_lint.h"

#include <cctype>

#include "core/cel/device_paths.h"

#include "core/model/quantity.h"

namespace dra::cel {

namespace {

// A string literal that is a quantity written with a unit ("40Gi", "500m", "1e3"): compared
// as text it orders by characters, not by amount. Plain digits are left alone, since they are
// as often version or model numbers.
bool looksLikeQuantity(const Expr &e)
{
    if (e.kind != ExprKind::Constant || e.constant.kind() != Kind::String)
        return false;
    const std::string_view text = e.constant.asString();
    if (text.empty() || !std::isalpha(static_cast<unsigned char>(text.back()))
        || !std::isdigit(static_cast<unsigned char>(text.front())))
        return false;
    return model::Quantity::parse(text).has_value();
}

bool isOrdering(const std::string &fn)
{
    return fn == "_<_" || fn == "_<=_" || fn == "_>_" || fn == "_>=_";
}

class Linter final
{
public:
    Linter(const ParsedExpr &parsed, std::vector<Diagnostic> *out)
        : m_source(parsed.source)
        , m_out(out)
    {
    }

    void visit(const Expr *root)
    {
        forEachExpr(root, [this](const Expr &e) {
            if (e.kind == ExprKind::Call && !e.target && e.args.size() == 2 && isOrdering(e.name))
                lintComparison(e);
        });
    }

private:
    void lintComparison(const Expr &call)
    {
        for (int side = 0; side < 2; ++side) {
            const Expr &a = *call.args[side];
            const Expr &other = *call.args[1 - side];
            if (looksLikeQuantity(a) && other.kind != ExprKind::Constant) {
                const std::string q(a.constant.asString());
                warn(a.offset,
                    "\"" + q
                        + "\" is compared as a string, character by character, "
                          "so \"9Gi\" > \"40Gi\"; to compare amounts write "
                          "quantity(x).compareTo(quantity(\""
                        + q
                        + "\")) or, for a "
                          "capacity, device.capacity[...].name.compareTo(quantity(\""
                        + q + "\"))");
                return;
            }
        }
    }

    void warn(int32_t offset, std::string message)
    {
        if (!m_out)
            return;
        Diagnostic d;
        d.severity = Diagnostic::Severity::Warning;
        m_source.locate(offset, d.line, d.column);
        d.message = std::move(message);
        m_out->push_back(std::move(d));
    }

    SourceInfo m_source;
    std::vector<Diagnostic> *m_out;
};

// Comparisons of attributes with literals the inventory's devices never publish.
class ValueLinter final
{
public:
    ValueLinter(const ParsedExpr &parsed, const PublishedAttributeValues &published,
        std::vector<Diagnostic> *out)
        : m_source(parsed.source)
        , m_published(published)
        , m_out(out)
    {
    }

    void visit(const Expr *root)
    {
        forEachExpr(root, [this](const Expr &e) {
            if (e.kind != ExprKind::Call || e.target || e.args.size() != 2)
                return;
            if (e.name == "_==_") {
                lintEquality(*e.args[0], *e.args[1]);
                lintEquality(*e.args[1], *e.args[0]);
            } else if (e.name == "@in" && e.args[1]->kind == ExprKind::List) {
                lintIn(*e.args[0], *e.args[1]);
            }
        });
    }

private:
    void lintEquality(const Expr &attribute, const Expr &literal)
    {
        if (literal.kind != ExprKind::Constant)
            return;
        if (const std::optional<DevicePath> path = devicePathOf(attribute); path
            && path->kind == DevicePath::Kind::Attribute
            && m_published.publishedAsList(path->domain, path->name)) {
            const std::string value = literal.constant.debugString();
            warn(literal.offset,
                path->domain + "/" + path->name
                    + " is a list on some devices and "
                      "a list never equals "
                    + value
                    + "; to test whether it holds "
                      "the value write ."
                    + path->name + ".includes(" + value
                    + "), which also matches devices that publish a single value");
            return;
        }
        check(attribute, { &literal }, literal.offset);
    }

    void warn(int32_t offset, std::string message)
    {
        Diagnostic d;
        d.severity = Diagnostic::Severity::Warning;
        m_source.locate(offset, d.line, d.column);
        d.message = std::move(message);
        if (m_out)
            m_out->push_back(std::move(d));
    }

    void lintIn(const Expr &attribute, const Expr &list)
    {
        std::vector<const Expr *> literals;
        for (const ExprPtr &element : list.args) {
            if (element->kind != ExprKind::Constant)
                return;
            literals.push_back(element.get());
        }
        if (!literals.empty() && list.optionalIndices.empty())
            check(attribute, literals, list.offset);
    }

    void check(const Expr &attribute, const std::vector<const Expr *> &literals, int32_t offset)
    {
        const std::optional<DevicePath> path = devicePathOf(attribute);
        if (!path || path->kind != DevicePath::Kind::Attribute)
            return;
        const std::vector<Value> *values = m_published.values(path->domain, path->name);
        if (!values || values->empty())
            return;
        for (const Expr *literal : literals) {
            for (const Value &v : *values) {
                if (valuesEqual(v, literal->constant))
                    return;
            }
        }
        std::string message = "no device in the inventory has " + path->domain + "/" + path->name
            + (literals.size() == 1 ? " " + literals[0]->constant.debugString()
                                    : std::string(" any of these values"))
            + ", so this comparison is never true; published: ";
        for (size_t i = 0; i < values->size() && i < 5; ++i)
            message += (i ? ", " : "") + (*values)[i].debugString();
        if (values->size() > 5)
            message += " and " + std::to_string(values->size() - 5) + " more";
        warn(offset, std::move(message));
    }

    SourceInfo m_source;
    const PublishedAttributeValues &m_published;
    std::vector<Diagnostic> *m_out;
};

} // namespace

void lintSelectorValues(const ParsedExpr &parsed, const PublishedAttributeValues &published,
    std::vector<Diagnostic> *diagnostics)
{
    ValueLinter(parsed, published, diagnostics).visit(parsed.root.get());
}

void lintSelector(const ParsedExpr &parsed, std::vector<Diagnostic> *diagnostics)
{
    Linter(parsed, diagnostics).visit(parsed.root.get());
}

} // namespace dra::cel
