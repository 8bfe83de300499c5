// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A view that stays current: it loads its documents, shows them, and loads them again when the
// server says the view changed (one load at a time; changes during a load coalesce into one
// more). Returns the function that stops following.

export function follow(context, viewName, load, show) {
  let running = false;
  let again = false;
  let stopped = false;
  const refresh = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const data = await load();
      if (!stopped && context.alive()) show(data);
    } catch (error) {
      if (!stopped) context.fail(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };
  refresh();
  const unsubscribe = context.channel.view(viewName, () => refresh());
  const stop = () => {
    stopped = true;
    unsubscribe();
  };
  stop.refresh = refresh;
  return stop;
}

// "6 / 8" with the free part first, as the desktop's tiles show capacity.
export function freeOfTotal(counts) {
  return `${counts.free} / ${counts.total}`;
}
