/**
 * Offline checks of an EN 16931 CII invoice (supabase/functions/_shared/einvoice.ts) for the
 * tests: the XSD of the Factur-X / ZUGFeRD profile EN 16931 vendored in tests/schemas/
 * (validated with xmllint-wasm, libxml2 compiled to WebAssembly, no network), and the main
 * calculation rules of EN 16931-1 (BR-CO-10..16, BR-S-08/09, BR-CO-17 as the schematron words
 * it, BR-27) asserted on the parsed XML.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString, decodePDFRawStream } from 'pdf-lib';

const XSD_DIR = resolve(import.meta.dirname, '../../../../tests/schemas/factur-x-en16931');
const MAIN = 'Factur-X_EN16931.xsd';

/** The XSD validation's errors (empty when the XML is valid). */
export async function xsdErrors(xml: string): Promise<string[]> {
  const files = readdirSync(XSD_DIR).filter((f) => f.endsWith('.xsd'));
  const result = await validateXML({
    xml: { fileName: 'invoice.xml', contents: xml },
    schema: { fileName: MAIN, contents: readFileSync(join(XSD_DIR, MAIN), 'utf8') },
    preload: files.filter((f) => f !== MAIN).map((f) => ({ fileName: f, contents: readFileSync(join(XSD_DIR, f), 'utf8') })),
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

/** A parsed element: name with prefix, attributes, children, text. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** A small parser for the XML we write (elements, attributes, text; declarations and comments skipped). */
export function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const re = /<\?[^>]*\?>|<!--[\s\S]*?-->|<\/([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(re)) {
    const top = stack[stack.length - 1]!;
    if (m[1]) {
      if (top.name !== m[1]) throw new Error(`mismatched </${m[1]}> in <${top.name}>`);
      stack.pop();
    } else if (m[2]) {
      const attrs: Record<string, string> = {};
      for (const a of (m[3] ?? '').matchAll(/([\w:.-]+)="([^"]*)"/g)) attrs[a[1]!] = unescape(a[2]!);
      const node: XmlNode = { name: m[2], attrs, children: [], text: '' };
      top.children.push(node);
      if (!m[4]) stack.push(node);
    } else if (m[5] && m[5].trim()) {
      top.text += unescape(m[5]);
    }
  }
  if (stack.length !== 1) throw new Error('unclosed element');
  return root.children[0]!;
}

/** Descendants along a path of element names ("a/b/c"), at any depth for the first step. */
export function all(node: XmlNode, path: string): XmlNode[] {
  const [first, ...rest] = path.split('/');
  const found: XmlNode[] = [];
  const walk = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.name === first) found.push(c);
      else walk(c);
    }
  };
  walk(node);
  return rest.reduce<XmlNode[]>((nodes, name) => nodes.flatMap((n) => n.children.filter((c) => c.name === name)), found);
}
export const one = (node: XmlNode, path: string): XmlNode | undefined => all(node, path)[0];
/** An amount element's value in cents. */
export const cents = (node: XmlNode | undefined): number => (node ? Math.round(Number(node.text) * 100) : 0);

/**
 * The violated EN 16931 calculation rules (empty when all hold), each as "BR-…: detail".
 * Amounts compared in cents.
 */
export function businessRuleErrors(xml: string): string[] {
  const doc = parseXml(xml);
  const errors: string[] = [];
  const sum = all(doc, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation')[0]!;
  const v = (name: string) => cents(one(sum, name));
  const lineAmounts = all(doc, 'ram:IncludedSupplyChainTradeLineItem').map((l) => ({
    net: cents(one(l, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')),
    category: one(l, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode')?.text ?? '',
    rate: Number(one(l, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent')?.text ?? 0),
    price: cents(one(l, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount')),
  }));
  const settlement = one(doc, 'ram:ApplicableHeaderTradeSettlement')!;
  const adjustments = settlement.children
    .filter((c) => c.name === 'ram:SpecifiedTradeAllowanceCharge')
    .map((a) => ({
      charge: one(a, 'ram:ChargeIndicator/udt:Indicator')?.text === 'true',
      amount: cents(one(a, 'ram:ActualAmount')),
      category: one(a, 'ram:CategoryTradeTax/ram:CategoryCode')?.text ?? '',
      rate: Number(one(a, 'ram:CategoryTradeTax/ram:RateApplicablePercent')?.text ?? 0),
    }));
  const taxes = settlement.children
    .filter((c) => c.name === 'ram:ApplicableTradeTax')
    .map((t) => ({
      basis: cents(one(t, 'ram:BasisAmount')),
      vat: cents(one(t, 'ram:CalculatedAmount')),
      category: one(t, 'ram:CategoryCode')?.text ?? '',
      rate: Number(one(t, 'ram:RateApplicablePercent')?.text ?? 0),
      exemption: one(t, 'ram:ExemptionReason')?.text ?? '',
    }));
  const lineTotal = lineAmounts.reduce((s, l) => s + l.net, 0);
  const charges = adjustments.filter((a) => a.charge).reduce((s, a) => s + a.amount, 0);
  const allowances = adjustments.filter((a) => !a.charge).reduce((s, a) => s + a.amount, 0);
  const check = (rule: string, ok: boolean, detail: string) => {
    if (!ok) errors.push(`${rule}: ${detail}`);
  };
  check('BR-CO-10', v('ram:LineTotalAmount') === lineTotal, `line total ${v('ram:LineTotalAmount')} != sum of lines ${lineTotal}`);
  check('BR-CO-11', v('ram:AllowanceTotalAmount') === allowances, `allowances ${v('ram:AllowanceTotalAmount')} != ${allowances}`);
  check('BR-CO-12', v('ram:ChargeTotalAmount') === charges, `charges ${v('ram:ChargeTotalAmount')} != ${charges}`);
  check(
    'BR-CO-13',
    v('ram:TaxBasisTotalAmount') === lineTotal - allowances + charges,
    `tax basis ${v('ram:TaxBasisTotalAmount')} != ${lineTotal - allowances + charges}`,
  );
  const vatTotal = taxes.reduce((s, t) => s + t.vat, 0);
  check('BR-CO-14', v('ram:TaxTotalAmount') === vatTotal, `VAT total ${v('ram:TaxTotalAmount')} != sum per category ${vatTotal}`);
  check('BR-CO-15', v('ram:GrandTotalAmount') === v('ram:TaxBasisTotalAmount') + v('ram:TaxTotalAmount'), 'grand total != basis + VAT');
  check(
    'BR-CO-16',
    v('ram:DuePayableAmount') === v('ram:GrandTotalAmount') - v('ram:TotalPrepaidAmount') + v('ram:RoundingAmount'),
    'due != grand - prepaid + rounding',
  );
  for (const t of taxes) {
    const key = (x: { category: string; rate: number }) => x.category === t.category && x.rate === t.rate;
    const basis =
      lineAmounts.filter(key).reduce((s, l) => s + l.net, 0) +
      adjustments.filter(key).reduce((s, a) => s + (a.charge ? a.amount : -a.amount), 0);
    check(
      `BR-${t.category}-08`,
      t.basis === basis,
      `basis ${t.basis} at ${t.category} ${t.rate} % != lines + charges - allowances ${basis}`,
    );
    // BR-CO-17 as the EN 16931 schematron tests it (within one unit of the rounded product).
    if (t.rate > 0)
      check(
        'BR-CO-17',
        Math.abs(Math.abs(t.vat) - Math.round((Math.abs(t.basis) * t.rate) / 100)) <= 1,
        `VAT ${t.vat} != ${t.basis} x ${t.rate} %`,
      );
    else check(`BR-${t.category}-09`, t.vat === 0, `VAT ${t.vat} on a 0 % category`);
    if (t.category === 'E' || t.category === 'O') check(`BR-${t.category}-10`, t.exemption !== '', 'no exemption reason');
  }
  if (taxes.some((t) => t.category === 'O')) check('BR-O-11', taxes.length === 1, 'category O beside other categories');
  for (const l of lineAmounts) check('BR-27', l.price >= 0, `negative item net price ${l.price}`);
  return errors;
}

/** The catalog's associated files and XMP metadata of a PDF. */
export async function facturX(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes);
  const catalog = pdf.catalog;
  const af = catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  const specs = af ? af.asArray().map((ref) => pdf.context.lookup(ref, PDFDict)) : [];
  const files = specs.map((spec) => {
    const name = spec.lookup(PDFName.of('F'));
    const ef = spec.lookup(PDFName.of('EF'), PDFDict);
    const stream = ef.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) throw new Error('embedded file is not a stream');
    return {
      name: name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : '',
      relationship: spec.lookup(PDFName.of('AFRelationship'))?.toString(),
      subtype: stream.dict.lookup(PDFName.of('Subtype'))?.toString(),
      xml: new TextDecoder().decode(decodePDFRawStream(stream).decode()),
    };
  });
  const namesTree = catalog
    .lookupMaybe(PDFName.of('Names'), PDFDict)
    ?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)
    ?.lookupMaybe(PDFName.of('Names'), PDFArray);
  const metaObj = catalog.lookup(PDFName.of('Metadata'));
  const meta = metaObj instanceof PDFRawStream ? metaObj : undefined;
  return {
    files,
    embeddedNames: namesTree
      ? namesTree
          .asArray()
          .filter((o) => o instanceof PDFString)
          .map((o) => (o as PDFString).decodeText())
      : [],
    xmp: meta ? new TextDecoder().decode(meta.contents) : '',
  };
}
