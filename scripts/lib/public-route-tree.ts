/**
 * The first download's route tree (src/routeTree.public.gen.ts): src/routeTree.gen.ts
 * (TanStack Router's generated tree) without the routes of src/routes/{-$locale}/{account,auth,
 * news,order}/ (the back office's among them). In their place the locale route gets one splat per
 * folder (src/router-lazy.ts) that loads the whole tree when such a URL is visited
 * (docs/adr/0043-first-load-budgets.md, "routes that load on first use"). Both trees use the
 * same route objects; this one only leaves some of them out.
 *
 * The build generates it from the current routeTree.gen.ts when it loads the file (vite.config.ts,
 * `hafen:public-route-tree`), so a build never ships a stale one; the checked-in copy (for the
 * type checker and editors) is written by `node scripts/gen-public-route-tree.ts`, and
 * tests/unit/public-route-tree.test.ts fails when it is stale.
 */
import ts from 'typescript';

/** The folders of src/routes/{-$locale} that load on first use, and their placeholders. */
const lazy = { account: 'lazyAccountRoutes', auth: 'lazyAuthRoutes', news: 'lazyNewsRoutes', order: 'lazyOrderRoutes' };
const lazyFolder = (specifier: string) => /^\.\/routes\/\{-\$locale\}\/([^/]+)\//.exec(specifier)?.[1];
const isLazy = (specifier: string) => (lazyFolder(specifier) ?? '') in lazy;

/** The public tree's source for the generated tree's source `text`. */
export function publicRouteTree(text: string): string {
  const file = ts.createSourceFile('routeTree.gen.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // The lazy routes' constants (`X` for `import { Route as XImport } from './routes/{-$locale}/account/...'`)
  // and their folders.
  const folderOf = new Map<string, string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !isLazy((statement.moduleSpecifier as ts.StringLiteral).text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      folderOf.set(element.name.text.replace(/Import$/, ''), lazyFolder((statement.moduleSpecifier as ts.StringLiteral).text)!);
  }
  const isLazyRoute = (name: string) => folderOf.has(name.replace(/(WithChildren|Children)$/, ''));
  const out = [
    '/* eslint-disable */',
    '',
    '// @ts-nocheck',
    '',
    '// Generated from src/routeTree.gen.ts by scripts/lib/public-route-tree.ts (node scripts/gen-public-route-tree.ts): do not edit.',
    "// The first download's route tree: every route but those of account/, auth/ and order/, which",
    '// load on first use (src/router-lazy.ts).',
    '',
  ];
  let placeholders = 0;
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!isLazy((statement.moduleSpecifier as ts.StringLiteral).text)) out.push(statement.getText(file));
      continue;
    }
    if (!ts.isVariableStatement(statement)) continue; // interfaces, types, module augmentation
    const [declaration] = statement.declarationList.declarations;
    const name = declaration.name.getText(file);
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported) {
      if (name !== 'routeTree') throw new Error(`gen-public-route-tree: unexpected export ${name}`);
      out.push('', 'export const publicRouteTree = rootRouteImport._addFileChildren(rootRouteChildren)');
      continue;
    }
    if (isLazyRoute(name)) continue;
    const init = declaration.initializer!;
    if (ts.isObjectLiteralExpression(init)) {
      // A parent's children: the lazy folders' routes leave, their placeholders take their place.
      const kept: string[] = [];
      const removed = new Set<string>();
      for (const property of init.properties) {
        if (!ts.isPropertyAssignment(property)) throw new Error(`gen-public-route-tree: unexpected ${property.getText(file)}`);
        const key = property.name.getText(file);
        if (isLazyRoute(key)) removed.add(folderOf.get(key.replace(/(WithChildren|Children)$/, ''))!);
        else kept.push(`  ${key}: ${property.initializer.getText(file)},`);
      }
      for (const folder of removed) kept.push(`  ${lazy[folder as keyof typeof lazy]},`);
      placeholders += removed.size;
      out.push('', `const ${name} = {`, ...kept, '}');
      continue;
    }
    out.push('', `const ${name} = ${init.getText(file)}`);
  }
  const folders = Object.keys(lazy);
  if (placeholders !== folders.length || folders.some((folder) => ![...folderOf.values()].includes(folder))) {
    throw new Error(`gen-public-route-tree: expected one top route in each of ${folders.join(', ')} below the locale route`);
  }
  const imports = out.findLastIndex((line) => line.startsWith('import '));
  out.splice(imports + 1, 0, `import { ${Object.values(lazy).join(', ')} } from './router-lazy'`);
  return `${out.join('\n')}\n`;
}
