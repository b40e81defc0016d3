import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * German is the source and default locale; English is the second language.
 *
 * The messages are split by area, so a guest opening /start downloads only the shell's and the
 * start page's texts, and never the back office's:
 * - `messages`: the shell (layout, errors, shared components) and /start, always loaded;
 * - `booking`: the booking flow (src/features/booking, and the identity steps 3 and 4 it shows)
 *   and the shared components /start never shows (`shared`), all that /start/booking loads
 *   besides `messages`; every other page but /start loads it too;
 * - `guest`: every other public page (service, booking result, orders, legal, ...);
 * - `account`: /auth and /account, and the staff's drawer (`staff`, loaded with it on any page);
 *   `harbour` and `admin`: /account/admin.
 * src/lib/i18n.ts (`cataloguesFor`) loads the ones a path needs. scripts/check-i18n.mjs checks
 * that every message is in a catalogue and that no file imports code of an area loaded later
 * than its own (its messages would be missing there).
 */
const src = '<rootDir>/src';
const routes = `${src}/routes/{-$locale}`;
const features = `${src}/features`;
const tree = (paths: string[]) => paths.flatMap((path) => [path, `${path}/**`]);

const shell = [
  `${src}/main.tsx`,
  `${src}/components`,
  `${src}/lib`,
  `${src}/routes/__root.tsx`,
  `${routes}/route.tsx`,
  `${routes}/index.tsx`,
  `${routes}/start/index.tsx`,
  `${features}/start`,
];
// Shared components and helpers no part of /start or the shell shows (forms, tables, dialogs,
// prices): their texts come with `booking`, which every page but /start loads.
const shared = [
  `${src}/components/confirm-dialog.tsx`,
  `${src}/components/price-breakdown.tsx`,
  `${src}/components/ui/data-table.tsx`,
  `${src}/components/ui/date-picker.tsx`,
  `${src}/components/ui/date-picker-popover.tsx`,
  `${src}/components/ui/dialog.tsx`,
  `${src}/lib/validation.ts`,
  `${src}/lib/validation-messages.ts`,
  // the error catalogue's texts guests can meet (src/lib/errors/codes.ts)
  `${src}/lib/errors/guest-messages.ts`,
];
const booking = [`${features}/booking`, `${features}/identity`, ...shared];
// The staff's drawer and the back office's shell: shown to staff only, on any page (the drawer
// loads this catalogue with its code: src/components/layout/top-bar.tsx).
const staff = [
  `${src}/components/layout/staff-drawer.tsx`,
  `${src}/components/layout/staff-nav.ts`,
  `${src}/components/layout/back-office-shell.tsx`,
];
const account = [`${features}/account`, `${features}/auth`, `${routes}/account`, `${routes}/auth`, ...staff];
// the error catalogue's texts only staff meet (src/lib/errors/codes.ts)
const staffErrors = `${src}/lib/errors/staff-messages.ts`;
const harbour = [`${features}/harbour`, `${routes}/account/admin`, staffErrors];
const admin = [`${features}/admin`];

export default defineConfig({
  sourceLocale: 'de',
  locales: ['de', 'en'],
  fallbackLocales: { default: 'de' },
  catalogs: [
    { path: '<rootDir>/locales/{locale}/messages', include: shell, exclude: [...shared, ...staff, staffErrors] },
    { path: '<rootDir>/locales/{locale}/booking', include: booking },
    {
      path: '<rootDir>/locales/{locale}/guest',
      include: [features, routes],
      exclude: tree([...shell, ...booking, ...account, ...harbour, ...admin]),
    },
    { path: '<rootDir>/locales/{locale}/account', include: account, exclude: tree([...harbour, ...admin]) },
    { path: '<rootDir>/locales/{locale}/harbour', include: harbour },
    { path: '<rootDir>/locales/{locale}/admin', include: admin },
  ],
  // Origins without line numbers: a change elsewhere in a file does not rewrite the catalogues.
  format: formatter({ lineNumbers: false }),
  // <Trans> compiles to our wrapper: interpolated strings render as typed (src/lib/lingui-literal.ts)
  runtimeConfigModule: { Trans: ['@/lib/lingui-literal', 'Trans'] },
});
