// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The keys that reach each view, in the order of the navigation: Alt+1 … Alt+9, then Alt+0,
// Alt+- and Alt+= (the keys after 9 on the number row) and Alt+[ (the key below them), so every
// one of the thirteen views has one. Alt, not Ctrl as in the desktop's Go menu, because the browser keeps Ctrl+1…9 for its
// tabs. Keys are matched by their place on the keyboard (KeyboardEvent.code), so they work in
// any layout.

const CODES = ['Digit1', 'Digit2', 'Digit3', 'Digit4', 'Digit5', 'Digit6', 'Digit7', 'Digit8',
  'Digit9', 'Digit0', 'Minus', 'Equal', 'BracketLeft'];
const LABELS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', '['];

// "Alt+3" for the view at `index` of the navigation, or '' past the keys there are.
export function viewShortcut(index) {
  return index >= 0 && index < LABELS.length ? `Alt+${LABELS[index]}` : '';
}

// The index of the view a key event asks for, or -1.
export function viewIndexOfKey(event) {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return -1;
  return CODES.indexOf(event.code);
}
