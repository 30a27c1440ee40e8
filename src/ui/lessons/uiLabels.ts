import type { t as translate } from '../i18n/i18n.ts';

// Lesson texts name buttons and tabs through placeholders, so they always match what the screen
// says in the current language, even when another area renames a label.
const LABEL_KEYS = {
  run: 'run.run',
  stop: 'run.stop',
  kill: 'run.kill',
  stateTab: 'observatory.tab.state',
  joinTab: 'observatory.tab.join',
  windowsTab: 'observatory.tab.windows',
  checkpointsTab: 'observatory.tab.checkpoints',
  queryTab: 'observatory.tab.query',
  resultsTab: 'observatory.tab.results',
  flinkSql: 'header.flinkSql',
  speed: 'run.speed',
  max: 'run.speedMax',
  stateSetting: 'run.state',
  runSettings: 'run.settingsButton',
  pull: 'observatory.query.pull',
  subscribeAll: 'observatory.query.subscribeAll',
} as const;

export const uiLabels = (t: typeof translate): Record<string, string> => Object.fromEntries(Object.entries(LABEL_KEYS).map(([name, key]) => [name, t(key)]));
