/**
 * The shape of src, enforced (docs/architecture.md, "Boundaries"; as bulletproof-react's
 * no-restricted-paths zones):
 * - routes → features → components/lib, never back: src/components and src/lib import no
 *   feature and no route, a feature imports no route;
 * - a feature is src/features/<name>, or src/features/{admin,harbour}/<name> in the two back-office
 *   areas. Inside a feature any file may import any other. Another feature is imported only
 *   through its public index.ts (`@/features/<name>`), and only where the dependency is meant:
 *   FEATURE_DEPENDENCIES lists them (a graph without cycles); an area's `shared` folder is open to
 *   the features of its area;
 * - one import style: `@/` (the project's Lingui catalogues in ../../locales excepted);
 * - no import cycles (import-x/no-cycle).
 */
import { readdirSync } from 'node:fs';

/** Who may import whom, by public index.ts. Keep it a graph without cycles. */
export const FEATURE_DEPENDENCIES = {
  account: ['auth', 'identity', 'orders'],
  auth: ['identity'],
  booking: ['orders'],
  prices: ['booking'],
  service: ['prices'],
  'admin/datev': ['admin/reports'],
  'admin/long-term': ['account', 'admin/seasons'],
  'admin/map': ['admin/additional-places', 'booking', 'harbour/calendar', 'harbour/shared'],
  'admin/places': ['admin/additional-places', 'admin/long-term', 'harbour/calendar'],
  'admin/settings': ['admin/datev'],
  'harbour/calendar': ['harbour/orders'],
  'harbour/cash-book': ['orders'],
  'harbour/desk-sale': ['harbour/extras', 'orders'],
  'harbour/extras': ['orders'],
  'harbour/inbox': ['harbour/extras'],
  'harbour/orders': ['booking', 'harbour/extras', 'orders'],
  'harbour/overview': ['harbour/calendar', 'harbour/inbox', 'orders'],
  'harbour/shared': ['orders'],
};

const AREAS = ['admin', 'harbour'];
const dirs = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
export const FEATURES = dirs('./src/features/').flatMap((name) =>
  AREAS.includes(name) ? dirs(`./src/features/${name}/`).map((sub) => `${name}/${sub}`) : [name],
);

// Feature names are [a-z-] and '/': nothing to escape in a unicode-mode regex but a dot, should one ever appear.
const escape = (text) => text.replace(/[.]/g, '\\.');

/** The no-restricted-imports patterns for the files of one feature. */
function featurePatterns(feature) {
  const [area] = feature.split('/');
  const open = [
    `${escape(feature)}(?:/|$)`,
    ...(FEATURE_DEPENDENCIES[feature] ?? []).map((dep) => `${escape(dep)}$`),
    ...(AREAS.includes(area) ? [`${area}/shared/`] : []),
  ];
  return [
    {
      regex: `^@/features/(?!${open.join('|')})`,
      message: `${feature} may import another feature only through its index.ts and only if eslint.boundaries.js's FEATURE_DEPENDENCIES says so (docs/architecture.md, "Boundaries").`,
    },
    { regex: '^@/routes(?:/|$)', message: 'A feature imports no route: routes compose features.' },
    RELATIVE,
  ];
}

const RELATIVE = { regex: '^\\.{1,2}/(?!\\.\\./locales/)', message: "One import style: '@/…' (docs/style.md)." };

export function boundaries() {
  return [
    {
      files: ['src/**/*.{ts,tsx}'],
      ignores: ['src/features/**'],
      rules: {
        'no-restricted-imports': ['error', { patterns: [RELATIVE] }],
      },
    },
    {
      files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: '^@/(features|routes)(?:/|$)',
                message: 'src/components and src/lib are below the features: they import no feature and no route.',
              },
              RELATIVE,
            ],
          },
        ],
      },
    },
    ...FEATURES.map((feature) => ({
      files: [`src/features/${feature}/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: featurePatterns(feature) }] },
    })),
  ];
}
