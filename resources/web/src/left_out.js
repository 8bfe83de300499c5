// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What the server left out of the console's views for this user (the answers' `leftOut`: the
// kinds and namespaces the user may not list), as one sentence for the page's banner.

// [{kind, objects, namespaces?}] -> "Shown as your access allows; not shown: 4 ResourceClaims
// (batch, inference), 6 ClusterRoles." or '' when nothing was left out.
export function describeLeftOut(leftOut) {
  if (!Array.isArray(leftOut) || leftOut.length === 0) return '';
  const parts = leftOut.map(({ kind, objects, namespaces }) => {
    const count = `${objects} ${kind}${objects === 1 ? '' : 's'}`;
    return namespaces?.length ? `${count} (${namespaces.join(', ')})` : count;
  });
  return `Shown as your access allows; not shown: ${parts.join(', ')}.`;
}
