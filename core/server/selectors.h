// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/model/object.h"

namespace dra::server {

// A parsed `labelSelector` (=, ==, !=, in, notin, exists, !exists), as
// apimachinery's labels.Parse accepts it. Plain value, any thread.
class LabelSelector final
{
public:
    // An empty text selects everything. Errors are Invalid with a message naming the term.
    [[nodiscard]] static Result<LabelSelector> parse(std::string_view text);
    bool matches(const model::ObjectMeta &meta) const;
    bool isEmpty() const { return m_terms.empty(); }

private:
    enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
    struct Term
    {
        std::string key;
        Op op;
        std::vector<std::string> values;
    };
    std::vector<Term> m_terms;
};

// A parsed `fieldSelector` over the fields Kubernetes supports for every kind
// (metadata.name, metadata.namespace). Plain value, any thread.
class FieldSelector final
{
public:
    // Unknown fields are Invalid with kube-apiserver's message ("field label not supported: x").
    [[nodiscard]] static Result<FieldSelector> parse(std::string_view text);
    bool matches(const model::ObjectMeta &meta) const;
    // The name an `=` term pins, if any: lets a get-style watch skip other objects cheaply.
    std::string exactName() const;

private:
    struct Term
    {
        std::string field;
        bool equals;
        std::string value;
    };
    std::vector<Term> m_terms;
};

} // namespace dra::server
