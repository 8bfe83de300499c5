// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>

#include "core/sandbox/control_pass.h"

namespace dra::sandbox {

// Releases the claims of deleted pods as Kubernetes does: the pod leaves the claim's
// reservedFor first; a claim made for the pod from a template (its controller is the pod) is
// deleted once nothing reserves it, so its devices are free again. Fault claim-not-released
// keeps them reserved and in place.
class ClaimReleaser final
{
public:
    void reconcile(ControlPass &pass);

private:
    // The Deployment ("ns/name") of every pod seen, by uid: a fault aimed at a Deployment
    // still applies to its pods after they are gone.
    std::map<std::string, std::string> m_podDeployments;
};

} // namespace dra::sandbox
