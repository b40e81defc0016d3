/**
 * A structural PDF/A-3b check of the PDFs made by supabase/functions/_shared/invoice-pdf.ts
 * (ISO 19005-3 level B, as far as the objects go; it does not render and is not veraPDF):
 * every font embedded (Type0 / CIDFontType2 with FontFile2, the font program a valid TrueType
 * whose advance widths equal the /W widths), no standard-14 font, no .notdef shown, the sRGB
 * output intent (GTS_PDFA1, an RGB display ICC profile), XMP metadata (unfiltered, well-formed,
 * pdfaid part 3 / conformance B, the Info entries repeated with the same values, the Factur-X
 * extension schema describing every fx: property used), the trailer ID, the binary header
 * comment, no transparency, no encryption, and the associated files' entries.
 * Returns the violations found (empty when none).
 */
import fontkit from '@pdf-lib/fontkit';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import { validateXML } from 'xmllint-wasm';
import { all, one, parseXml, type XmlNode } from './einvoice-check.ts';

const STANDARD_14 =
  /^(Times-(Roman|Bold|Italic|BoldItalic)|Helvetica(-Bold|-Oblique|-BoldOblique)?|Courier(-Bold|-Oblique|-BoldOblique)?|Symbol|ZapfDingbats)$/;

/** A schema that accepts any x:xmpmeta: xmllint then checks that the packet is well-formed XML. */
const ANY_XMPMETA = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="adobe:ns:meta/" elementFormDefault="qualified">
 <xs:element name="xmpmeta"><xs:complexType><xs:sequence><xs:any processContents="skip" namespace="##any" minOccurs="0" maxOccurs="unbounded"/></xs:sequence><xs:anyAttribute processContents="skip"/></xs:complexType></xs:element>
</xs:schema>`;

const bytesOf = (stream: PDFRawStream) => decodePDFRawStream(stream).decode();
const name = (o: unknown) => (o instanceof PDFName ? o.decodeText() : undefined);
const text = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);

export interface PdfAReport {
  errors: string[];
  xmp: string;
  /** The XMP parsed (x:xmpmeta). */
  xmpRoot?: XmlNode;
  fonts: { baseFont: string; glyphs: number }[];
  icc?: { deviceClass: string; colorSpace: string; version: number };
  trailerId?: string[];
  associatedFiles: { name?: string; relationship?: string; subtype?: string; modDate?: string }[];
}

export async function checkPdfA(bytes: Uint8Array): Promise<PdfAReport> {
  const errors: string[] = [];
  const fail = (rule: string, detail: string) => errors.push(`${rule}: ${detail}`);
  const report: PdfAReport = { errors, xmp: '', fonts: [], associatedFiles: [] };

  // 6.1.2 File header: %PDF-1.n then a comment of at least four bytes above 127.
  const header = bytes.subarray(0, 32);
  const nl = header.indexOf(10);
  if (!new TextDecoder('latin1').decode(header.subarray(0, nl)).startsWith('%PDF-1.')) fail('6.1.2', 'no %PDF-1.n header');
  const comment = header.subarray(nl + 1, nl + 6);
  if (comment[0] !== 0x25 || [...comment.subarray(1, 5)].some((b) => b <= 127)) fail('6.1.2', 'no binary comment after the header');

  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context, catalog } = pdf;

  // 6.1.3 Trailer: an ID, no encryption.
  const id = context.trailerInfo.ID;
  const ids =
    id instanceof PDFArray ? id.asArray().map((o) => (o instanceof PDFHexString || o instanceof PDFString ? o.asString() : '')) : [];
  report.trailerId = ids;
  if (ids.length !== 2 || ids.some((s) => s.length < 16)) fail('6.1.3', 'trailer /ID missing or not two strings');
  if (context.trailerInfo.Encrypt) fail('6.1.3', 'encrypted');

  // Every object: fonts, transparency.
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFDict ? obj : obj instanceof PDFRawStream ? obj.dict : undefined;
    if (!dict) continue;
    const type = name(dict.get(PDFName.of('Type')));
    const subtype = name(dict.get(PDFName.of('Subtype')));
    if (type === 'Font') {
      const baseFont = name(dict.get(PDFName.of('BaseFont'))) ?? '';
      if (STANDARD_14.test(baseFont.replace(/^[A-Z]{6}\+/, ''))) fail('6.2.11.4.1', `standard font ${baseFont} (${ref})`);
      if (subtype === 'Type0') {
        const descendant = dict.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
        if (name(descendant.get(PDFName.of('Subtype'))) !== 'CIDFontType2') fail('6.2.11.4.1', `${baseFont}: not a CIDFontType2`);
        if (!descendant.get(PDFName.of('CIDToGIDMap'))) fail('6.2.11.3.2', `${baseFont}: no CIDToGIDMap`);
        const descriptor = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict);
        const file = descriptor.lookup(PDFName.of('FontFile2'));
        if (!(file instanceof PDFRawStream)) {
          fail('6.2.11.4.1', `${baseFont}: font program not embedded (no FontFile2)`);
          continue;
        }
        // The embedded program is a TrueType font, and its advance widths are the /W widths (6.2.11.5).
        const font = fontkit.create(bytesOf(file));
        const scale = 1000 / font.unitsPerEm;
        const w = descendant.lookup(PDFName.of('W'), PDFArray).asArray();
        for (let i = 0; i < w.length; i += 2) {
          if (!(w[i] instanceof PDFNumber) || !(w[i + 1] instanceof PDFArray)) {
            fail('6.2.11.5', `${baseFont}: malformed /W`);
            break;
          }
          const first = (w[i] as PDFNumber).asNumber();
          (w[i + 1] as PDFArray).asArray().forEach((n, k) => {
            const width = font.getGlyph(first + k).advanceWidth * scale;
            if (Math.abs(width - (n as PDFNumber).asNumber()) > 1)
              fail('6.2.11.5', `${baseFont}: glyph ${first + k} is ${width} wide in the font, ${(n as PDFNumber).asNumber()} in /W`);
          });
        }
        if (!dict.get(PDFName.of('ToUnicode'))) fail('6.2.11.7', `${baseFont}: no ToUnicode`);
        report.fonts.push({ baseFont, glyphs: font.numGlyphs });
      } else if (subtype !== 'CIDFontType2') {
        fail('6.2.11.4.1', `font ${baseFont} of subtype ${subtype} (only embedded Type0/CIDFontType2 expected)`);
      }
    }
    // 6.4 Transparency: no soft masks, no constant alpha below 1, no transparency groups.
    if (type === 'ExtGState') {
      const smask = dict.get(PDFName.of('SMask'));
      if (smask && name(smask) !== 'None') fail('6.4', `soft mask in ${ref}`);
      for (const key of ['CA', 'ca']) {
        const v = dict.get(PDFName.of(key));
        if (v instanceof PDFNumber && v.asNumber() !== 1) fail('6.4', `${key} ${v.asNumber()} in ${ref}`);
      }
    }
    if (
      dict.get(PDFName.of('Group')) instanceof PDFDict &&
      name(dict.lookup(PDFName.of('Group'), PDFDict).get(PDFName.of('S'))) === 'Transparency'
    )
      fail('6.4', `transparency group in ${ref}`);
    if (subtype === 'Image' && dict.get(PDFName.of('SMask'))) fail('6.4', `image with soft mask ${ref}`);
  }

  // 6.2.11.8 No .notdef shown: a shown glyph code 0000 in an Identity-H string.
  for (const page of pdf.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => context.lookup(r)) : [contents];
    for (const s of streams) {
      if (!(s instanceof PDFRawStream)) continue;
      const ops = new TextDecoder('latin1').decode(bytesOf(s));
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
        if ((m[1].match(/.{4}/g) ?? ([] as string[])).includes('0000')) fail('6.2.11.8', '.notdef glyph shown');
    }
  }

  // 6.2.3 Output intent: GTS_PDFA1 with an RGB ICC profile (the page draws DeviceRGB).
  const intents = catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  const intent = intents?.lookupMaybe(0, PDFDict);
  if (!intent || name(intent.get(PDFName.of('S'))) !== 'GTS_PDFA1') fail('6.2.3', 'no GTS_PDFA1 output intent');
  else {
    const profile = intent.lookup(PDFName.of('DestOutputProfile'));
    if (!(profile instanceof PDFRawStream)) fail('6.2.3', 'output intent without DestOutputProfile');
    else {
      const icc = bytesOf(profile);
      const sig = (at: number) => new TextDecoder('latin1').decode(icc.subarray(at, at + 4));
      report.icc = { deviceClass: sig(12), colorSpace: sig(16), version: icc[8] };
      if (sig(36) !== 'acsp') fail('6.2.3', 'DestOutputProfile is not an ICC profile');
      if (sig(16) !== 'RGB ' || !['mntr', 'prtr'].includes(sig(12)))
        fail('6.2.3', `ICC profile ${sig(12)}/${sig(16)}, expected an RGB mntr or prtr profile`);
      if ((profile.dict.lookup(PDFName.of('N')) as PDFNumber | undefined)?.asNumber() !== 3) fail('6.2.3', 'ICC stream /N is not 3');
      if (!text(intent.get(PDFName.of('OutputConditionIdentifier')))) fail('6.2.3', 'no OutputConditionIdentifier');
    }
  }

  // 6.6.2 XMP metadata: unfiltered, well-formed, pdfaid, the Info entries in it.
  const meta = catalog.lookup(PDFName.of('Metadata'));
  if (!(meta instanceof PDFRawStream)) {
    fail('6.6.2.1', 'no XMP metadata stream');
    return report;
  }
  if (meta.dict.get(PDFName.of('Filter'))) fail('6.6.2.1', 'metadata stream is filtered');
  const xmp = new TextDecoder().decode(bytesOf(meta));
  report.xmp = xmp;
  if (!xmp.startsWith('<?xpacket begin=')) fail('6.6.2.1', 'no xpacket header');
  const wellFormed = await validateXML({
    xml: { fileName: 'xmp.xml', contents: xmp.replace(/^<\?xpacket[^>]*\?>\s*/, '').replace(/\s*<\?xpacket[^>]*\?>\s*$/, '') },
    schema: { fileName: 'xmp.xsd', contents: ANY_XMPMETA },
  });
  if (!wellFormed.valid) fail('6.6.2.1', `XMP is not well-formed: ${wellFormed.errors.map((e) => e.rawMessage).join('; ')}`);
  let root: XmlNode | undefined;
  try {
    root = parseXml(xmp);
  } catch (error) {
    fail('6.6.2.1', `XMP cannot be read: ${(error as Error).message}`);
  }
  if (!root) return report;
  report.xmpRoot = root;
  const value = (path: string) => one(root, path)?.text;
  if (value('pdfaid:part') !== '3') fail('6.6.4', 'pdfaid:part is not 3');
  if (value('pdfaid:conformance') !== 'B') fail('6.6.4', 'pdfaid:conformance is not B');

  // 6.6.2.3.1 Info and XMP agree (dates as instants).
  const info = context.lookup(context.trailerInfo.Info, PDFDict);
  const infoText = (key: string) => text(info.get(PDFName.of(key)));
  const pairs: [string, string | undefined][] = [
    ['Title', one(root, 'dc:title/rdf:Alt/rdf:li')?.text],
    ['Author', one(root, 'dc:creator/rdf:Seq/rdf:li')?.text],
    ['Subject', one(root, 'dc:description/rdf:Alt/rdf:li')?.text],
    ['Creator', value('xmp:CreatorTool')],
    ['Producer', value('pdf:Producer')],
    ['Keywords', value('pdf:Keywords')],
  ];
  for (const [key, x] of pairs)
    if (infoText(key) !== x) fail('6.6.2.3.1', `Info /${key} ${JSON.stringify(infoText(key))} but XMP ${JSON.stringify(x)}`);
  const pdfDate = (s: string | undefined) => {
    const m = /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|[+-]\d{2}'?\d{2}'?)?/.exec(s ?? '');
    return m
      ? Date.parse(
          `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${!m[7] || m[7] === 'Z' ? 'Z' : m[7].replace(/'/g, '').replace(/(\d{2})(\d{2})$/, '$1:$2')}`,
        )
      : NaN;
  };
  for (const [key, xmpKey] of [
    ['CreationDate', 'xmp:CreateDate'],
    ['ModDate', 'xmp:ModifyDate'],
  ]) {
    const a = pdfDate(infoText(key));
    const b = Date.parse(value(xmpKey) ?? '');
    if (Number.isNaN(a) || a !== b) fail('6.6.2.3.1', `Info /${key} ${infoText(key)} but XMP ${xmpKey} ${value(xmpKey)}`);
  }

  // 6.6.2.3.2 Extension schemas: every property outside the predefined schemas is described.
  const predefined = new Set([
    'pdfaid',
    'dc',
    'xmp',
    'pdf',
    'xmpMM',
    'xmpRights',
    'photoshop',
    'pdfaExtension',
    'pdfaSchema',
    'pdfaProperty',
    'pdfaType',
    'pdfaField',
    'rdf',
    'x',
  ]);
  const described = new Map<string, Set<string>>();
  for (const schema of all(root, 'pdfaExtension:schemas/rdf:Bag/rdf:li')) {
    const prefix = one(schema, 'pdfaSchema:prefix')?.text ?? '';
    const uri = one(schema, 'pdfaSchema:namespaceURI')?.text ?? '';
    described.set(
      `${prefix} ${uri}`,
      new Set(all(schema, 'pdfaSchema:property/rdf:Seq/rdf:li').map((p) => one(p, 'pdfaProperty:name')?.text ?? '')),
    );
  }
  for (const description of all(root, 'rdf:Description')) {
    for (const child of description.children) {
      const [prefix, local] = child.name.split(':');
      if (!local || predefined.has(prefix)) continue;
      const uri = description.attrs[`xmlns:${prefix}`] ?? '';
      if (!described.get(`${prefix} ${uri}`)?.has(local))
        fail('6.6.2.3.2', `${child.name} (${uri}) is not described by an extension schema`);
    }
  }

  // 6.8 Embedded files: associated files (/AF) with AFRelationship, MIME subtype, ModDate.
  const af = catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  for (const ref of af?.asArray() ?? []) {
    const spec = context.lookup(ref as PDFRef, PDFDict);
    const ef = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
    const file = ef?.lookup(PDFName.of('F'));
    const params = file instanceof PDFRawStream ? file.dict.lookupMaybe(PDFName.of('Params'), PDFDict) : undefined;
    const entry = {
      name: text(spec.get(PDFName.of('UF'))) ?? text(spec.get(PDFName.of('F'))),
      relationship: name(spec.get(PDFName.of('AFRelationship'))),
      subtype: file instanceof PDFRawStream ? name(file.dict.get(PDFName.of('Subtype'))) : undefined,
      modDate: text(params?.get(PDFName.of('ModDate'))),
    };
    report.associatedFiles.push(entry);
    if (!text(spec.get(PDFName.of('F'))) || !text(spec.get(PDFName.of('UF')))) fail('6.8', 'file specification without /F and /UF');
    if (!entry.relationship) fail('6.8', 'file specification without /AFRelationship');
    if (!entry.subtype) fail('6.8', 'embedded file without a MIME /Subtype');
    if (Number.isNaN(pdfDate(entry.modDate))) fail('6.8', 'embedded file without /Params /ModDate');
  }
  return report;
}
