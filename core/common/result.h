// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <expected>

#include "core/common/error.h"

namespace dra {

// The return type of every fallible core API: a value or an Error, never an exception.
template <typename T = void> using Result = std::expected<T, common::Error>;

// Shorthand for `return fail(Error::Code::Parse, "...")` inside functions returning Result.
inline std::unexpected<common::Error> fail(common::Error::Code code, QString message)
{
    return std::unexpected(common::Error { code, std::move(message) });
}

inline std::unexpected<common::Error> fail(common::Error error)
{
    return std::unexpected(std::move(error));
}

} // namespace dra
