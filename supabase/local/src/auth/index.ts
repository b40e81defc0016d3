import type { Service, StackContext } from '../context.ts';
import { isPgError, pgErrorFields } from '../db/types.ts';
import { HttpError, clientIp } from '../http.ts';
import { AuthError, apiVersion, badRequest, databaseUnavailable, internal, sendError } from './support.ts';
import { tokenHash, userJson, type RequestInfo } from './model.ts';
import { createAuthCore } from './core.ts';
import { createAdminRoutes } from './routes/admin.ts';
import { createLogoutRoutes } from './routes/logout.ts';
import { createMfaRoutes } from './routes/mfa.ts';
import { createOtpRoutes } from './routes/otp.ts';
import { createReauthenticateRoutes } from './routes/reauthenticate.ts';
import { createRecoverRoutes } from './routes/recover.ts';
import { createResendRoutes } from './routes/resend.ts';
import { createSettingsRoutes } from './routes/settings.ts';
import { createSignupRoutes } from './routes/signup.ts';
import { createTokenRoutes } from './routes/token.ts';
import { createUserRoutes } from './routes/user.ts';
import { createVerifyRoutes } from './routes/verify.ts';

export { clock } from './support.ts';
export { MAX_FAILED_CODE_ATTEMPTS } from './model.ts';

/**
 * GoTrue's behaviour at /auth/v1, as @supabase/auth-js sees it: e-mail/password and anonymous
 * sign-up, password and refresh-token grants (rotation with reuse detection), e-mail codes
 * (otp, verify, recover, resend), the user endpoints, logout scopes, settings, health and the
 * admin user API. All database work runs as supabase_auth_admin in GoTrue's own tables.
 *
 * One file per endpoint group under routes/, as GoTrue lays out internal/api (token.go,
 * signup.go, user.go, mfa.go, admin.go, ...); shared state and helpers in core.ts, row shapes and
 * lookups in model.ts. This file is the router table: find the endpoint by its path here.
 */

/**
 * GoTrue features the stack does not build, answered as GoTrue answers them when the project has
 * them off (its require...Enabled middleware in internal/api/middleware.go: 404 with the
 * feature's error_code and message), the message naming what the local stack lacks. A project
 * that turns one on in config.toml does not start (config.ts, `unhonouredAuthSettings`).
 */
const SAML = { code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' };
const OAUTH_SERVER = { code: 'feature_disabled', message: 'OAuth server is disabled' };
const PASSKEYS = { code: 'passkey_disabled', message: 'Passkeys are disabled', feature: 'passkeys (WebAuthn)' };
type Unprovided = { path: RegExp; auth: 'none' | 'user' | 'admin'; code: string; message: string; feature: string };
const UNPROVIDED: Unprovided[] = [
  { path: /^\/sso(\/|$)/, auth: 'none', ...SAML, feature: 'SSO (SAML 2.0)' },
  { path: /^\/admin\/sso(\/|$)/, auth: 'admin', ...SAML, feature: 'SSO providers (SAML 2.0)' },
  {
    path: /^\/user\/identities(\/|$)/,
    auth: 'user',
    code: 'manual_linking_disabled',
    message: 'Manual linking is disabled',
    feature: 'identity linking',
  },
  { path: /^\/(oauth|\.well-known\/oauth-authorization-server)(\/|$)/, auth: 'none', ...OAUTH_SERVER, feature: 'the OAuth 2.1 server' },
  { path: /^\/user\/oauth(\/|$)/, auth: 'user', ...OAUTH_SERVER, feature: 'the OAuth 2.1 server (grants)' },
  { path: /^\/admin\/oauth(\/|$)/, auth: 'admin', ...OAUTH_SERVER, feature: 'the OAuth 2.1 server (clients)' },
  {
    path: /^\/admin\/custom-providers(\/|$)/,
    auth: 'admin',
    code: 'feature_disabled',
    message: 'Custom OAuth providers are disabled',
    feature: 'custom OAuth providers',
  },
  { path: /^\/passkeys(\/|$)/, auth: 'none', ...PASSKEYS },
  { path: /^\/admin\/users\/[^/]+\/passkeys(\/|$)/, auth: 'admin', ...PASSKEYS },
  { path: /^\/scim\/v2(\/|$)/, auth: 'none', code: 'feature_disabled', message: 'SCIM server is disabled', feature: 'SCIM' },
];

export function createAuthService(ctx: StackContext): Service {
  const core = createAuthCore(ctx);
  const { bcrypt, json, requireAdmin } = core;
  const signup = createSignupRoutes(core);
  const verify = createVerifyRoutes(core);
  const mfa = createMfaRoutes(core);
  const { handleSignup } = signup;
  const { handleToken } = createTokenRoutes(core);
  const { handleOtp } = createOtpRoutes(core, signup);
  const { handleVerify } = verify;
  const { handleRecover } = createRecoverRoutes(core);
  const { handleResend } = createResendRoutes(core);
  const { handleUserGet, handleUserPut } = createUserRoutes(core, verify);
  const { handleReauthenticate } = createReauthenticateRoutes(core);
  const { handleLogout } = createLogoutRoutes(core);
  const { handleSettings } = createSettingsRoutes(core);
  const { handleEnroll, handleChallenge, handleFactorVerify, handleUnenroll } = mfa;
  const { adminFactors, adminInvite, adminGenerateLink, adminList, adminLoad, adminCreate, adminUpdate, adminDelete } = createAdminRoutes(
    core,
    mfa,
  );

  async function route(info: RequestInfo, path: string) {
    const method = info.req.method ?? 'GET';
    const p = path.replace(/\/+$/, '') || '/';
    const notAllowed = () => new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
    switch (p) {
      case '/health':
        return json(info, 200, { version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
      case '/settings':
        return handleSettings(info);
      case '/.well-known/jwks.json':
        // Only the symmetric HS256 secret signs here, and GoTrue never publishes that.
        return json(info, 200, { keys: [] });
      case '/signup':
        if (method !== 'POST') throw notAllowed();
        return handleSignup(info);
      case '/token':
        if (method !== 'POST') throw notAllowed();
        return handleToken(info);
      case '/otp':
      case '/magiclink':
        if (method !== 'POST') throw notAllowed();
        return handleOtp(info);
      case '/verify':
        if (method !== 'GET' && method !== 'POST') throw notAllowed();
        return handleVerify(info, method);
      case '/recover':
        if (method !== 'POST') throw notAllowed();
        return handleRecover(info);
      case '/resend':
        if (method !== 'POST') throw notAllowed();
        return handleResend(info);
      case '/user':
        if (method === 'GET') return handleUserGet(info);
        if (method === 'PUT') return handleUserPut(info);
        throw notAllowed();
      case '/reauthenticate':
        if (method !== 'GET') throw notAllowed();
        return handleReauthenticate(info);
      case '/logout':
        if (method !== 'POST') throw notAllowed();
        return handleLogout(info);
      case '/invite':
        if (method !== 'POST') throw notAllowed();
        return adminInvite(info);
      case '/admin/generate_link':
        if (method !== 'POST') throw notAllowed();
        return adminGenerateLink(info);
      case '/admin/users':
        if (method === 'GET') return adminList(info);
        if (method === 'POST') return adminCreate(info);
        throw notAllowed();
    }
    if (p === '/factors') {
      if (method !== 'POST') throw notAllowed();
      return handleEnroll(info);
    }
    const factorRoute = /^\/factors\/([^/]+)(?:\/(challenge|verify))?$/.exec(p);
    if (factorRoute) {
      const id = decodeURIComponent(factorRoute[1]);
      if (factorRoute[2] === 'challenge' && method === 'POST') return handleChallenge(info, id);
      if (factorRoute[2] === 'verify' && method === 'POST') return handleFactorVerify(info, id);
      if (!factorRoute[2] && method === 'DELETE') return handleUnenroll(info, id);
      throw notAllowed();
    }
    const adminFactor = /^\/admin\/users\/([^/]+)\/factors(?:\/([^/]+))?$/.exec(p);
    if (adminFactor) {
      return adminFactors(
        info,
        decodeURIComponent(adminFactor[1]),
        adminFactor[2] === undefined ? undefined : decodeURIComponent(adminFactor[2]),
        method,
      );
    }
    const admin = /^\/admin\/users\/([^/]+)$/.exec(p);
    if (admin) {
      const id = decodeURIComponent(admin[1]);
      if (method === 'GET') {
        await requireAdmin(info);
        const found = await adminLoad(id);
        return json(info, 200, userJson(found.row, found.identities));
      }
      if (method === 'PUT') return adminUpdate(info, id);
      if (method === 'DELETE') return adminDelete(info, id);
      throw notAllowed();
    }
    const missing = UNPROVIDED.find((f) => f.path.test(p));
    if (missing) {
      // GoTrue's router authenticates before its require...Enabled middleware on these groups.
      if (missing.auth === 'admin') await requireAdmin(info);
      if (missing.auth === 'user') await core.requireUser(info);
      throw new AuthError(404, missing.code, `${missing.message}: the local stack does not provide ${missing.feature}`);
    }
    throw new AuthError(404, 'not_found', 'Not Found');
  }

  return {
    close: () => bcrypt.close(),
    async handle(req, res, path) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const info: RequestInfo = {
        req,
        res,
        url,
        ip: clientIp(req, ctx.config.api.trustedProxies),
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : '',
      };
      try {
        await route(info, path);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error instanceof AuthError) return sendError(req, res, error);
        if (error instanceof HttpError) return sendError(req, res, new AuthError(error.status, '', error.message));
        const unavailable = databaseUnavailable(error);
        if (unavailable) {
          ctx.log.warn(`auth ${req.method} ${path}: ${(error as Error).message}`);
          return sendError(req, res, unavailable);
        }
        // Values Postgres refuses (e.g. \u0000 in metadata) are the caller's error, as is a
        // unique violation from two requests racing for one address.
        const pgCode = isPgError(error) ? (pgErrorFields(error).code ?? '') : '';
        if (pgCode.startsWith('22'))
          return sendError(req, res, badRequest('validation_failed', `Invalid input: ${pgErrorFields(error).message}`));
        if (pgCode === '23505')
          return sendError(req, res, new AuthError(409, 'conflict', 'A conflicting request was processed at the same time'));
        const detail = isPgError(error) ? pgErrorFields(error).message : ((error as Error)?.stack ?? String(error));
        ctx.log.error(`auth ${req.method} ${path}: ${detail}`);
        return sendError(req, res, internal('Internal server error'));
      }
    },
  };
}

// Re-exported for tests and the benchmark.
export { apiVersion, tokenHash };
