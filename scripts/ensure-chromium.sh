#!/usr/bin/env bash
# Prints the path of a Chromium for the e2e tests, and nothing else on stdout.
# Order: $CHROME_PATH, then /usr/bin/chromium, then (root on Debian only) the distro's
# `chromium` package. We never download a browser any other way: the e2e suite must run on
# a machine whose only network is the package mirror.
set -euo pipefail

say() { echo "ensure-chromium: $*" >&2; }

# zh-TW screenshots need a CJK font; without one Chromium draws empty boxes. Best effort:
# a missing font degrades screenshots, not test results.
ensure_cjk_font() {
  if command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh-tw 2>/dev/null | grep -q .; then return 0; fi
  if [[ "$(id -u)" == "0" && -f /etc/debian_version ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing fonts-noto-cjk for the zh-TW screenshots"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-noto-cjk || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-noto-cjk; }; } >&2 || say "could not install fonts-noto-cjk; zh-TW screenshots will show boxes"
  else
    say "no CJK font found; zh-TW screenshots will show boxes (install fonts-noto-cjk)"
  fi
}
ensure_cjk_font

if [[ -n "${CHROME_PATH:-}" ]]; then
  if [[ -x "$CHROME_PATH" && ! -d "$CHROME_PATH" ]]; then
    echo "$CHROME_PATH"
    exit 0
  fi
  say "CHROME_PATH=$CHROME_PATH is not an executable file; looking elsewhere"
fi

if [[ -x /usr/bin/chromium ]]; then
  echo /usr/bin/chromium
  exit 0
fi

if [[ "$(id -u)" == "0" && -f /etc/debian_version ]] && command -v apt-get >/dev/null 2>&1; then
  say "/usr/bin/chromium is missing; installing the Debian 'chromium' package"
  # apt's output goes to stderr so that stdout stays exactly one path.
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2
  if [[ -x /usr/bin/chromium ]]; then
    echo /usr/bin/chromium
    exit 0
  fi
  say "apt-get installed 'chromium' but /usr/bin/chromium is still missing"
  exit 1
fi

say "no Chromium found. Install Chromium (or Chrome) and set CHROME_PATH to its executable,"
say "e.g. CHROME_PATH=/usr/bin/google-chrome npm test"
exit 1
