// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What reading and writing a claim-template form share: the document, checked to be an object
// the form edits, and where its devices are.
#pragma once

#include <string>
#include <string_view>

#include <QString>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/model/claim_template_form.h"

namespace dra::model::form_detail {

struct FormDocument
{
    nlohmann::ordered_json root; // in the author's key order
    bool isTemplate
        = true; // ResourceClaimTemplate (spec.spec.devices) or ResourceClaim (spec.devices)
    // resource.k8s.io/v1beta1: a request's exact spec (class, selectors, count...) sits on the
    // request itself, where v1 and v1beta2 have it under `exactly`.
    bool specOnRequest = false;

    // The `devices` object, created on the way when `create` (nullptr when absent otherwise).
    nlohmann::ordered_json *devices(bool create);
    // The `devices` object, nullptr when absent.
    const nlohmann::ordered_json *devices() const;
};

// Parses `text` and checks it is a resource.k8s.io/v1, v1beta2 or v1beta1 ResourceClaimTemplate or
// ResourceClaim whose spec path holds objects. Errors are "origin..." sentences.
[[nodiscard]] Result<FormDocument> parseFormDocument(std::string_view text, const QString &origin);

// The form of a parsed document; errors name the first field of the wrong shape.
[[nodiscard]] Result<ClaimTemplateForm> readFormDocument(
    const FormDocument &document, const QString &origin);

// "a.b", "a[3]": the paths error messages name.
inline std::string fieldPath(const std::string &parent, std::string_view key)
{
    return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}
inline std::string indexPath(const std::string &parent, std::size_t index)
{
    return parent + "[" + std::to_string(index) + "]";
}

} // namespace dra::model::form_detail
