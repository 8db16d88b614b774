// The operator token of the server the end-to-end tests start (playwright.config.ts): with it
// they read the development outbox, which a production server shows nobody else. Against an
// external server (E2E_BASE_URL), give that server's token in E2E_ADMIN_TOKEN.
export const E2E_ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "e2e-operator-token-for-the-local-test-server-only";
