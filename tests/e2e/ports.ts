/**
 * Fixed, non-default ports for the browser tests (the dev stack uses 54321 and 3000).
 * E2E_PORT_OFFSET shifts them all, so two checkouts on one machine can run their suites at once.
 * All below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range): a port
 * in it can be taken for a moment as the local end of any outgoing connection, and the test
 * server's listen then fails with EADDRINUSE (a clean-clone run of 36c5fe6 did, on 24622).
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const E2E_API_PORT = 24621 + offset;
export const E2E_APP_PORT = 3621 + offset;
export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_API_URL = `http://127.0.0.1:${E2E_API_PORT}`;
/** The mail catcher's JSON API (tests read e-mailed codes from it). */
export const E2E_MAIL_PORT = 24624 + offset;
export const E2E_MAIL_URL = `http://127.0.0.1:${E2E_MAIL_PORT}`;
/** The payment sandbox (Stripe's API and its checkout page); the app reaches it through the session's url. */
export const E2E_PAYMENTS_PORT = 24631 + offset;
/** The gauge sandbox (PEGELONLINE's API; tests set the river at E2E_GAUGE_URL/__sandbox/gauge). */
export const E2E_GAUGE_PORT = 24632 + offset;
export const E2E_GAUGE_URL = `http://127.0.0.1:${E2E_GAUGE_PORT}`;
/** The browser tests' control of the test server (tests/e2e/control.ts): the SEPA collection day. */
export const E2E_CONTROL_URL = `http://127.0.0.1:${24622 + offset}`;
/** The built app the browser tests serve; one per port offset, so two runs never build into one folder. */
export const E2E_DIST = `reports/e2e-dist${offset ? `-${offset}` : ''}`;
