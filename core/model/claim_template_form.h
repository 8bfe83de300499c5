// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The editable structure of a ResourceClaimTemplate (or ResourceClaim) as the template editor's
// form shows it, read from and written back into the YAML text. Writing edits the parsed
// document in place and keeps everything the form does not model (unknown fields, labels,
// annotations, fields of other requests), so the form never regenerates the document.
// Comments and blank lines are carried over to the rewritten text (carryComments).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <QString>

#include <nlohmann/json_fwd.hpp>

#include "core/common/result.h"

namespace dra::model {

// Where a list element of the form was read from: its index in the document's list, -1 for one
// added in the form. A write starts each element from that document element, so fields the form
// does not show survive reordering and removal of its neighbours.
using FormSource = int;

struct FormToleration
{
    std::string key;
    std::string op; // `operator`: "" (Equal), "Equal", "Exists"
    std::string value;
    std::string effect; // "" (all), "NoSchedule", "NoExecute", "None"
    std::optional<int64_t> tolerationSeconds;
    FormSource source = -1;
};

// Where a device spec was read from inside its request: the request's `exactly`, one of its
// `firstAvailable` subrequests, or nowhere (added). Switching a request between the two keeps
// the spec's unknown fields because of this.
struct SpecSource
{
    enum class From { New, Exactly, Subrequest };
    From from = From::New;
    int index = -1; // Subrequest
};

// An `exactly` request or a `firstAvailable` subrequest. Optional fields are empty when absent
// from the document, so writing back an untouched form leaves them absent.
struct FormDeviceSpec
{
    std::string name; // subrequests only
    std::string deviceClassName;
    std::vector<std::string> selectors; // CEL expressions of selectors[].cel.expression
    std::string allocationMode; // "" (ExactCount), "ExactCount", "All"
    std::optional<int64_t> count; // absent: one, with ExactCount
    bool adminAccess = false; // `exactly` only
    std::vector<FormToleration> tolerations;
    std::vector<std::pair<std::string, std::string>> capacityRequests; // name -> quantity text
    SpecSource source;

    bool isAll() const { return allocationMode == "All"; }
    int64_t effectiveCount() const { return count.value_or(1); }
};

struct FormRequest
{
    std::string name;
    bool firstAvailable = false; // which of the two below the request uses
    FormDeviceSpec exactly;
    std::vector<FormDeviceSpec> alternatives; // firstAvailable, in priority order
    FormSource source = -1;
};

struct FormConstraint
{
    std::vector<std::string> requests; // empty: all requests
    std::string matchAttribute;
    std::string distinctAttribute;
    FormSource source = -1;
};

struct FormConfig
{
    std::vector<std::string> requests; // empty: all requests
    std::string driver; // opaque.driver
    std::string parameters; // opaque.parameters as JSON text, "" when absent
    FormSource source = -1;
};

struct ClaimTemplateForm
{
    std::string apiVersion, kind; // shown, not edited
    std::string name, ns;
    std::vector<FormRequest> requests;
    std::vector<FormConstraint> constraints;
    std::vector<FormConfig> config;

    // "spec.spec.devices" for a template, "spec.devices" for a claim: the prefix of every path
    // in an error about the document.
    std::string devicesPath() const;
};

// Reads a ResourceClaimTemplate or ResourceClaim (resource.k8s.io v1 or v1beta2, or v1beta1,
// whose requests hold their exact spec themselves; one YAML or JSON document). Errors name
// where: "origin:LINE:COL: reason" for text that is not YAML, "origin:
// spec.spec.devices.requests[0].exactly.count: expected an integer" for a field of the wrong
// shape, and the kind or version when the object is not one the form edits. Any thread.
[[nodiscard]] Result<ClaimTemplateForm> readClaimTemplateForm(
    std::string_view text, const QString &origin);

// Writes `form` into the document `text` and returns the new text: only fields whose value
// differs from the document's are set or removed; list elements start from their `source`
// element. Fails when `text` does not read (see readClaimTemplateForm) or a config's parameters
// are not JSON. The comments of `text` stay with the keys they were written at. Any thread.
[[nodiscard]] Result<std::string> writeClaimTemplateForm(
    std::string_view text, const ClaimTemplateForm &form, const QString &origin);

// Structural edits the form offers, kept here so that the widget holds no rules of its own.

// Appends a request for `deviceClassName` named after the class ("gpu" for gpu.nvidia.com),
// made unique among the form's requests.
FormRequest &addRequest(ClaimTemplateForm &form, const std::string &deviceClassName);

// Turns an `exactly` request into `firstAvailable` with that spec as its one alternative, or
// back, keeping the first alternative as the exact spec. No-op when already in that mode.
void setFirstAvailable(FormRequest &request, bool firstAvailable);

// Appends an alternative for `deviceClassName` with a name unique in the request.
FormDeviceSpec &addAlternative(FormRequest &request, const std::string &deviceClassName);

// "memory=40Gi, cores=2" <-> capacity requests; entries without '=' or a name are dropped.
std::string capacityRequestsText(const FormDeviceSpec &spec);
void setCapacityRequestsText(FormDeviceSpec &spec, std::string_view text);

// "a, b" <-> request names of a constraint or config.
std::string requestListText(const std::vector<std::string> &requests);
std::vector<std::string> parseRequestList(std::string_view text);

// The structure as `dractl template fields -o json` prints it: effective values (allocation
// mode ExactCount, count 1 when absent) and each request's mode.
nlohmann::json claimTemplateFormJson(const ClaimTemplateForm &form);

} // namespace dra::model
