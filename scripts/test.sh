#!/usr/bin/env bash
# `npm test`: typecheck, unit + oracle tests in Node (vitest), then the e2e suite in headless
# Chromium against a production build served by `vite preview`. Every stage runs even when an
# earlier one failed (e2e needs a browser and a build, so it is skipped without them), and the
# last line is always `N passed, N failed` for CI to read. A stage that fails without test counts
# (typecheck, browser, build, a crashed runner) counts as one failure, so a red run never ends
# with "0 failed". Extra arguments go to the e2e runner: `npm test -- --grep smoke`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/weir-test.XXXXXX")"
PREVIEW_PID=""

cleanup() {
  if [[ -n "$PREVIEW_PID" ]] && kill -0 "$PREVIEW_PID" 2>/dev/null; then
    kill "$PREVIEW_PID" 2>/dev/null || true
    wait "$PREVIEW_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PASSED=0
FAILED=0
FAILED_STAGES=()

section() { printf '\n==================== %s ====================\n' "$*"; }
stage_failed() {
  FAILED_STAGES+=("$1")
  if [[ "${2:-}" == "count" ]]; then FAILED=$((FAILED + 1)); fi
}

# --- 1. typecheck ----------------------------------------------------------------------------
section "1/5 typecheck (tsc --noEmit)"
if npx tsc --noEmit -p tsconfig.json; then
  echo "typecheck ok"
else
  stage_failed typecheck count
fi

# --- 2. unit + oracle tests ------------------------------------------------------------------
section "2/5 unit + oracle tests (vitest, Node)"
VITEST_JSON="$TMP/vitest.json"
vitest_rc=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$VITEST_JSON" || vitest_rc=$?
v_counts="0 0"
if [[ -s "$VITEST_JSON" ]]; then
  # Failed tests, plus test files that failed before any test ran (import or syntax errors).
  v_counts="$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const brokenFiles = r.testResults.filter((f) => f.status === "failed" &&
      !f.assertionResults.some((a) => a.status === "failed")).length;
    console.log(r.numPassedTests, r.numFailedTests + brokenFiles);
  ' "$VITEST_JSON")" || v_counts="0 0"
fi
read -r v_passed v_failed <<<"$v_counts"
# The names of what failed, kept for the summary: CI often shows only the end of the log.
VITEST_FAILURES="$TMP/vitest-failures.txt"
if [[ -s "$VITEST_JSON" ]]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const rel = (f) => require("path").relative(process.cwd(), f);
    for (const f of r.testResults) {
      const failed = f.assertionResults.filter((a) => a.status === "failed");
      if (f.status === "failed" && failed.length === 0) {
        console.log(`  ${rel(f.name)}: ${String(f.message || "failed before any test ran").split("\n")[0]}`);
      }
      for (const a of failed) {
        const why = String((a.failureMessages || [])[0] || "").split("\n")[0].slice(0, 300);
        console.log(`  ${rel(f.name)} > ${a.fullName}\n      ${why}`);
      }
    }
  ' "$VITEST_JSON" >"$VITEST_FAILURES" 2>/dev/null || true
fi
if [[ "$vitest_rc" -ne 0 && "$v_failed" -eq 0 ]]; then v_failed=1; fi # crashed or unhandled error
PASSED=$((PASSED + v_passed))
FAILED=$((FAILED + v_failed))
echo "vitest: $v_passed passed, $v_failed failed"
if [[ "$vitest_rc" -ne 0 ]]; then stage_failed vitest; fi

# --- 3. browser ------------------------------------------------------------------------------
section "3/5 chromium"
WEIR_CHROMIUM=""
if WEIR_CHROMIUM="$(bash scripts/ensure-chromium.sh)"; then
  echo "using $WEIR_CHROMIUM"
  export WEIR_CHROMIUM
else
  stage_failed chromium count
fi

# --- 4. build --------------------------------------------------------------------------------
section "4/5 production build (vite build)"
build_ok=0
if npx vite build; then
  build_ok=1
else
  stage_failed build count
fi

# --- 5. e2e ----------------------------------------------------------------------------------
section "5/5 e2e (headless Chromium against vite preview)"
if [[ -z "$WEIR_CHROMIUM" || "$build_ok" -ne 1 ]]; then
  echo "skipped: needs a Chromium and a successful build"
else
  PORT="$(node -e '
    const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
  ')"
  BASE_URL="http://127.0.0.1:$PORT"
  # The .bin entry is vite's own script, so $! is the server itself and the trap can stop it.
  "$ROOT/node_modules/.bin/vite" preview --host 127.0.0.1 --port "$PORT" --strictPort \
    >"$TMP/preview.log" 2>&1 &
  PREVIEW_PID=$!
  up=0
  for _ in $(seq 1 150); do
    if ! kill -0 "$PREVIEW_PID" 2>/dev/null; then break; fi
    if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
      "$BASE_URL/" 2>/dev/null; then
      up=1
      break
    fi
    sleep 0.2
  done
  if [[ "$up" -ne 1 ]]; then
    echo "vite preview did not answer on $BASE_URL; its log:"
    cat "$TMP/preview.log"
    stage_failed e2e count
  else
    echo "vite preview is up on $BASE_URL (pid $PREVIEW_PID)"
    e2e_rc=0
    node --import tsx e2e/run.ts --base-url "$BASE_URL" "$@" | tee "$TMP/e2e.log" || e2e_rc=$?
    counts="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$TMP/e2e.log" | tail -n 1 || true)"
    if [[ -n "$counts" ]]; then
      e_passed="${counts%% passed*}"
      e_failed="${counts#*, }"
      e_failed="${e_failed%% failed*}"
    else
      e_passed=0
      e_failed=0
    fi
    if [[ "$e2e_rc" -ne 0 && "$e_failed" -eq 0 ]]; then e_failed=1; fi
    PASSED=$((PASSED + e_passed))
    FAILED=$((FAILED + e_failed))
    if [[ "$e2e_rc" -ne 0 ]]; then stage_failed e2e; fi
  fi
fi

# --- summary ---------------------------------------------------------------------------------
section "summary"
if [[ ${#FAILED_STAGES[@]} -eq 0 ]]; then
  echo "all stages passed"
else
  echo "failed stages: ${FAILED_STAGES[*]}"
fi
if [[ -s "${VITEST_FAILURES:-}" ]]; then
  echo "failed vitest tests:"
  cat "$VITEST_FAILURES"
fi
echo "$PASSED passed, $FAILED failed"
if [[ ${#FAILED_STAGES[@]} -ne 0 || "$FAILED" -ne 0 ]]; then exit 1; fi
