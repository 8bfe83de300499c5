// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Running a command in a container through the pods/exec subresource, as kubectl 1.30 and later
// do it: a WebSocket with the v5.channel.k8s.io subprotocol (v4 accepted), stdout and stderr
// from their channels, and the exit code from the final Status on channel 3.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QObject>

#include "core/common/result.h"

namespace dra::kube {

class RestClient;

// What the command printed and how it ended.
struct ExecResult
{
    std::string out, err;
    int exitCode = 0;
};

// The exit code and outcome a final Status of the error channel says: Success is 0;
// NonZeroExitCode its ExitCode cause; any other Failure an Error with the Status' message.
[[nodiscard]] Result<int> exitCodeOfStatus(const QByteArray &status);

// Runs `command` in `container` (empty: the pod's default) of pod ns/name with `client`'s
// credentials. `done` gets the result, or an Error: Forbidden when the server refused the
// upgrade with 403, NotFound for 404, Network when no answer came within `timeoutMs`. Not called
// once `context` is gone. Thread of `client`.
void execInPod(RestClient &client, const std::string &ns, const std::string &name,
    const std::string &container, const std::vector<std::string> &command, int timeoutMs,
    QObject *context, std::function<void(Result<ExecResult>)> done);

} // namespace dra::kube
