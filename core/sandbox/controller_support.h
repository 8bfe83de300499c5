// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Small pieces every simulated controller uses: names, times, owner references, conditions.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dra::sandbox {

// "2026-12-01T02:00:00Z" for milliseconds since the epoch, as Kubernetes writes times.
std::string kubeTime(int64_t ms);
std::string newObjectUid();
// Kubernetes' generateName suffix: `length` random characters of its vowel-free alphabet.
std::string randomNameSuffix(int length = 5);
// A suffix of that alphabet derived from `text` alone, as the pod-template-hash is.
std::string stableNameSuffix(const std::string &text, int length = 10);

// A new object's JSON with name, namespace, uid and creationTimestamp.
nlohmann::json newObject(const char *apiVersion, const char *kind, const std::string &ns,
    const std::string &name, int64_t nowMs);
// A controller ownerReference (controller and blockOwnerDeletion true) to `owner`.
nlohmann::json controllerReference(const nlohmann::json &owner);
// The ownerReference with controller=true, or nullptr.
const nlohmann::json *controllerOf(const nlohmann::json &object);
// Whether `object`'s controller is `owner` (kind and name; uid too when both carry one).
bool controlledBy(const nlohmann::json &object, const nlohmann::json &owner);

// A string at a JSON pointer ("/spec/nodeName"), empty when absent or not a string.
std::string textAt(const nlohmann::json &object, const char *pointer);
int64_t numberAt(const nlohmann::json &object, const char *pointer, int64_t fallback = 0);

// Sets condition `type` in `status.conditions`, keeping lastTransitionTime when its status
// does not change.
void setCondition(nlohmann::json &status, const std::string &type, bool value,
    const std::string &reason, const std::string &message, const std::string &now);
// The condition `type` of `status.conditions`, or nullptr.
const nlohmann::json *findCondition(const nlohmann::json &object, const std::string &type);
bool conditionTrue(const nlohmann::json &object, const std::string &type);

} // namespace dra::sandbox
