/**
 * The official EN 16931 Schematron rules for CII (CEN/TC 434, vendored byte for byte in
 * tests/schemas/en16931-cii-schematron/, EUPL 1.2) run on an e-invoice's XML, offline.
 *
 * CEN publishes the rules also as an XSLT 2.0 stylesheet (the Schematron compiled by the ISO
 * skeleton). SaxonJS 2 (npm saxon-js) runs it once it is compiled to SEF, Saxon's JSON form of a
 * stylesheet; the compiler is SaxonJS's XX compiler (npm xslt3). Compiling takes about 15 s on
 * this machine, so the SEF is cached under node_modules/.cache/, keyed by the hashes of the
 * vendored XSLT and the SaxonJS version: only the first run after a clone or an update of the
 * rules compiles. Validating one invoice then takes well under a second.
 *
 * The result is the SVRL report's failed assertions and successful reports: each with the
 * rule's id (BR-CO-10, CII-SR-…), its flag ("fatal", "warning"; "error" in other rule sets) and
 * its text. `schematronErrors` gives the fatal and error ones as "ID: text (location)".
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SaxonJS from 'saxon-js';

const ROOT = resolve(import.meta.dirname, '../../../..');
export const SCHEMATRON_XSLT = join(ROOT, 'tests/schemas/en16931-cii-schematron/xslt/EN16931-CII-validation.xslt');
const CACHE_DIR = join(ROOT, 'node_modules/.cache/en16931-cii-schematron');
const XSLT3 = join(ROOT, 'node_modules/xslt3/xslt3.js');
const SVRL = 'http://purl.oclc.org/dsdl/svrl';

/** One failed assertion or successful report of the SVRL. */
export interface SchematronFinding {
  id: string;
  flag: string;
  /** The XPath of the element the rule fired on. */
  location: string;
  text: string;
}

const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The SEF file of the vendored XSLT, compiled now if the cache does not hold it. */
export async function compiledSchematron(): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(SCHEMATRON_XSLT))
    .update(`saxon-js ${version('saxon-js')} xslt3 ${version('xslt3')}`)
    .digest('hex')
    .slice(0, 16);
  const sef = join(CACHE_DIR, `EN16931-CII-validation.${key}.sef.json`);
  const lock = `${sef}.lock`;
  mkdirSync(CACHE_DIR, { recursive: true });
  // Two test files starting together compile once: the other waits for the file (a lock left by
  // a killed run counts as stale after two minutes).
  for (;;) {
    if (existsSync(sef)) return sef;
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    if (existsSync(sef)) return sef;
    const tmp = `${sef}.${process.pid}.tmp`;
    await promisify(execFile)(process.execPath, [XSLT3, `-xsl:${SCHEMATRON_XSLT}`, `-export:${tmp}`, '-nogo'], { maxBuffer: 16 << 20 });
    renameSync(tmp, sef);
    return sef;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

let stylesheet: Promise<unknown> | undefined;
const loadStylesheet = () => (stylesheet ??= compiledSchematron().then((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown));

/** Every failed assertion and successful report of the EN 16931 CII rules on `xml`. */
export async function schematronFindings(xml: string): Promise<SchematronFinding[]> {
  const { principalResult } = await SaxonJS.transform(
    { stylesheetInternal: await loadStylesheet(), sourceText: xml, destination: 'document' },
    'async',
  );
  const found = SaxonJS.XPath.evaluate(
    "array { (//svrl:failed-assert | //svrl:successful-report) ! map { 'id': string(@id), 'flag': string(@flag), 'location': string(@location), 'text': normalize-space(svrl:text) } }",
    principalResult,
    { namespaceContext: { svrl: SVRL } },
  ) as SchematronFinding[];
  // The skeleton's locations name every step's namespace: keep the steps.
  return found.map((f) => ({ ...f, location: f.location.replace(/\[namespace-uri\(\)='[^']*'\]/g, '').replace(/\*:/g, '') }));
}

/** The findings flagged "fatal" or "error" (those that make an invoice invalid), as "ID: text (at location)". */
export async function schematronErrors(xml: string): Promise<string[]> {
  return (await schematronFindings(xml))
    .filter((f) => f.flag === 'fatal' || f.flag === 'error')
    .map((f) => `${f.id}: ${f.text} (at ${f.location})`);
}
