// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The routes of the console, in the order of the navigation (shortcuts.js gives each its Alt key).

import { overview } from './overview.js';
import { devices } from './devices.js';
import { classes } from './classes.js';
import { access } from './access.js';
import { topology } from './topology.js';
import { claims, templates } from './claims.js';
import { editor } from './editor.js';
import { lint } from './lint.js';
import { readiness } from './readiness.js';
import { free } from './free.js';
import { rollouts } from './rollouts.js';
import { migration } from './migration.js';

export const VIEWS = [overview, devices, classes, access, topology, claims, templates, editor, lint, readiness, free, rollouts, migration];
