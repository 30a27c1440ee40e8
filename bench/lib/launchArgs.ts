/** Chromium flags of every bench run: headless, no GPU, nothing downloaded or synced, an empty profile per launch. */
export const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
