// @vitest-environment node
/**
 * The shape of src is enforced by lint (eslint.boundaries.js, docs/architecture.md "Boundaries"):
 * these cases must fail `npm run lint`, and the allowed ones must pass. Linted with the project's
 * own eslint.config.js, as `npm test` runs it.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}
const restricted = (messages: string[]) => messages.filter((m) => m.startsWith('no-restricted-imports'));

describe('boundaries in lint', () => {
  it('a feature importing a route fails', async () => {
    const messages = await problems(
      'src/features/booking/zz-probe.ts',
      "import { Route } from '@/routes/{-$locale}/index';\nexport const probe = Route;\n",
    );
    expect(restricted(messages).join('\n')).toContain('A feature imports no route');
  });

  it('components and lib import no feature', async () => {
    const messages = await problems(
      'src/lib/zz-probe.ts',
      "import { orderKeys } from '@/features/orders';\nexport const probe = orderKeys;\n",
    );
    expect(restricted(messages).join('\n')).toContain('they import no feature and no route');
  });

  it('another feature only through its index.ts, and only where FEATURE_DEPENDENCIES says so', async () => {
    const deep = await problems(
      'src/features/booking/zz-probe.ts',
      "import { orderKeys } from '@/features/orders/api/keys';\nexport const probe = orderKeys;\n",
    );
    expect(restricted(deep)).toHaveLength(1);
    const meant = await problems(
      'src/features/booking/zz-probe.ts',
      "import { orderKeys } from '@/features/orders';\nexport const probe = orderKeys;\n",
    );
    expect(restricted(meant)).toEqual([]);
    const notMeant = await problems(
      'src/features/prices/zz-probe.ts',
      "import { orderKeys } from '@/features/orders';\nexport const probe = orderKeys;\n",
    );
    expect(restricted(notMeant)).toHaveLength(1);
    // Inside a feature, any file; an area's shared folder is open to its features.
    const own = await problems(
      'src/features/harbour/orders/zz-probe.ts',
      "import { orderDeskKeys } from '@/features/harbour/orders/api/orders';\nimport { harbourKeys } from '@/features/harbour/shared/keys';\nexport const probe = [orderDeskKeys, harbourKeys];\n",
    );
    expect(restricted(own)).toEqual([]);
  });

  it("one import style: '@/', not relative paths", async () => {
    const messages = await problems('src/components/zz-probe.ts', "import { cn } from '../lib/utils';\nexport const probe = cn;\n");
    expect(restricted(messages).join('\n')).toContain("One import style: '@/…'");
  });

  it('an import cycle fails', async () => {
    const results = await new ESLint({ cwd: root, ignore: false }).lintFiles(['tests/fixtures/lint-cycle/a.ts']);
    expect(results[0]!.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });
});
