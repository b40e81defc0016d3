import type { Row, RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** GET /settings (GoTrue settings.go). */
export function createSettingsRoutes(core: AuthCore) {
  const { cfg, autoconfirm, emailEnabled, json } = core;

  function handleSettings(info: RequestInfo) {
    const external: Row = {};
    for (const name of [
      'anonymous_users',
      'apple',
      'azure',
      'bitbucket',
      'discord',
      'facebook',
      'snapchat',
      'figma',
      'fly',
      'github',
      'gitlab',
      'google',
      'keycloak',
      'kakao',
      'linkedin',
      'linkedin_oidc',
      'notion',
      'spotify',
      'slack',
      'slack_oidc',
      'workos',
      'twitch',
      'twitter',
      'email',
      'phone',
      'zoom',
    ]) {
      external[name] = false;
    }
    external.anonymous_users = cfg.enableAnonymousSignIns;
    external.email = emailEnabled;
    return json(info, 200, {
      external,
      disable_signup: !cfg.enableSignup,
      mailer_autoconfirm: autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    });
  }

  // ------------------------------------------------------------------ MFA (GoTrue's internal/api/mfa.go, TOTP only)
  /** requireAuthentication + requireNotAnonymous + a session, as /factors needs them. */

  return { handleSettings };
}
