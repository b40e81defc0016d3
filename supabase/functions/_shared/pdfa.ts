/**
 * What makes the invoice PDFs (./invoice-pdf.ts) PDF/A-3b (ISO 19005-3, level B), the form
 * ZUGFeRD 2.x / Factur-X requires for the hybrid e-invoice (./einvoice.ts), and which every
 * document PDF now has:
 * - an embedded font program for every font (Liberation Sans 2.1.5 Regular and Bold, TrueType,
 *   subset to the glyphs a document uses, as Type0/CIDFontType2 with FontFile2; no standard-14
 *   font is referenced);
 * - an output intent (/OutputIntents, /S /GTS_PDFA1) with the sRGB IEC 61966-2.1 ICC profile,
 *   for the DeviceRGB colours the page draws with;
 * - XMP metadata (uncompressed) with pdfaid:part 3 / pdfaid:conformance B and the same title,
 *   author, subject, creator, producer and dates as the Info dictionary (whole seconds, UTC);
 *   a caller may add descriptions (the Factur-X extension schema and fx: properties);
 * - a document ID in the trailer, derived from the document (same document, same bytes).
 *
 * The font and profile files are in ./assets (licences there) and are read once per process
 * (Deno.readFile in the functions, node:fs in Node; hosted functions get them through
 * `static_files` in supabase/config.toml); the parsed fonts are reused, each document embeds its
 * own subset. docs/adr/0033-invoices-and-gobd.md ("PDF/A-3b").
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFFont, PDFHexString, PDFName, PDFString } from 'pdf-lib';

const ASSETS = new URL('./assets/', import.meta.url);
export const PDFA_FONT_FILES = { regular: 'LiberationSans-Regular.ttf', bold: 'LiberationSans-Bold.ttf' } as const;
export const SRGB_PROFILE_FILE = 'sRGB.icc';
/** The output condition of the sRGB profile (ICC's registry name for it). */
export const SRGB_CONDITION = 'sRGB IEC61966-2.1';

type FontStyle = keyof typeof PDFA_FONT_FILES;
type FontkitFont = ReturnType<typeof fontkit.create>;
interface PdfAAssets {
  fonts: Record<FontStyle, { bytes: Uint8Array; font: FontkitFont; postscriptName: string; characters: Set<number> }>;
  /** The sRGB profile, deflated once (FlateDecode). */
  srgbDeflated: Uint8Array;
}

let loading: Promise<PdfAAssets> | undefined;

/** The fonts (parsed) and the ICC profile, loaded once; a failed load is tried again next time. */
export function pdfAAssets(): Promise<PdfAAssets> {
  if (!loading) {
    loading = loadAssets();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** A file next to this module: Deno.readFile in the edge functions, node:fs in Node (the tests). */
async function readAsset(name: string): Promise<Uint8Array> {
  const url = new URL(name, ASSETS);
  const deno = (globalThis as { Deno?: { readFile(path: URL): Promise<Uint8Array> } }).Deno;
  if (deno) return await deno.readFile(url);
  // A computed specifier: Deno's type check would otherwise want @types/node for the functions.
  const fsModule = 'node:fs/promises';
  const { readFile } = (await import(fsModule)) as { readFile(path: URL): Promise<Uint8Array> };
  const b = await readFile(url);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function loadAssets(): Promise<PdfAAssets> {
  const read = readAsset;
  const [regular, bold, srgb] = await Promise.all([read(PDFA_FONT_FILES.regular), read(PDFA_FONT_FILES.bold), read(SRGB_PROFILE_FILE)]);
  const parse = (bytes: Uint8Array) => {
    const font = fontkit.create(bytes);
    simpleLayout(font);
    const source = readTrueType(bytes);
    (font as { createSubset: unknown }).createSubset = () => new TrueTypeSubset(source);
    return { bytes, font, postscriptName: font.postscriptName ?? 'LiberationSans', characters: new Set(font.characterSet) };
  };
  const scratch = await PDFDocument.create({ updateMetadata: false });
  const srgbDeflated = scratch.context.flateStream(srgb).getContents();
  return { fonts: { regular: parse(regular), bold: parse(bold) }, srgbDeflated };
}

/**
 * pdf-lib measures and encodes every string with fontkit's `layout` (OpenType shaping: GSUB
 * ligatures, GPOS kerning), several times per string while wrapping: most of the render time.
 * The invoice needs neither (the standard Helvetica it replaces was not kerned either, and
 * Liberation Sans has Helvetica's advance widths, so the page keeps its layout): one glyph per
 * code point from the font's cmap, cached.
 */
function simpleLayout(font: FontkitFont): void {
  const glyphs = new Map<number, ReturnType<FontkitFont['glyphForCodePoint']>>();
  const glyphFor = (cp: number) => {
    let g = glyphs.get(cp);
    if (!g) glyphs.set(cp, (g = font.glyphForCodePoint(cp)));
    return g;
  };
  (font as { layout: unknown }).layout = (text: string) => ({ glyphs: Array.from(text, (ch) => glyphFor(ch.codePointAt(0)!)) });
}

/** The tables of a TrueType font that an embedded subset needs, read once from the file. */
interface TrueTypeSource {
  tables: Map<string, Uint8Array>;
  /** Glyph data offsets into glyf (numGlyphs + 1 entries). */
  loca: Uint32Array;
  advances: Uint16Array;
  bearings: Int16Array;
}

function readTrueType(bytes: Uint8Array): TrueTypeSource {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, Uint8Array>();
  const numTables = view.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[rec], bytes[rec + 1], bytes[rec + 2], bytes[rec + 3]);
    tables.set(tag, bytes.subarray(view.getUint32(rec + 8), view.getUint32(rec + 8) + view.getUint32(rec + 12)));
  }
  const table = (tag: string) => {
    const t = tables.get(tag);
    if (!t) throw new Error(`font without ${tag} table`);
    return new DataView(t.buffer, t.byteOffset, t.byteLength);
  };
  const numGlyphs = table('maxp').getUint16(4);
  const longLoca = table('head').getInt16(50) === 1;
  const locaView = table('loca');
  const loca = new Uint32Array(numGlyphs + 1);
  for (let g = 0; g <= numGlyphs; g++) loca[g] = longLoca ? locaView.getUint32(4 * g) : 2 * locaView.getUint16(2 * g);
  const metrics = table('hhea').getUint16(34);
  const hmtx = table('hmtx');
  const advances = new Uint16Array(numGlyphs);
  const bearings = new Int16Array(numGlyphs);
  for (let g = 0; g < numGlyphs; g++) {
    advances[g] = g < metrics ? hmtx.getUint16(4 * g) : advances[metrics - 1];
    bearings[g] = g < metrics ? hmtx.getInt16(4 * g + 2) : hmtx.getInt16(4 * metrics + 2 * (g - metrics));
  }
  return { tables, loca, advances, bearings };
}

/**
 * A TrueType subset for the PDF (FontFile2 of a CIDFontType2 with CIDToGIDMap Identity): the
 * glyphs in the order they were included (glyph 0 .notdef first, components of composite glyphs
 * added and renumbered) with the tables a PDF reader uses (head, hhea, hmtx, loca, maxp, glyf;
 * ISO 32000-1 9.9 adds cvt, fpgm, prep only "if present"). The glyphs' TrueType hinting
 * instructions and the hinting tables are left out: they were half of each subset's bytes, and
 * readers render PDFs unhinted or auto-hinted anyway. It replaces fontkit's TTFSubset, which
 * decodes every glyph's outline and encodes field by field: 10+ ms a font and document, against
 * well under 1 ms for copying the glyphs' bytes.
 */
class TrueTypeSubset {
  private readonly ids = new Map<number, number>();
  private readonly order: number[] = [];
  private readonly src: TrueTypeSource;

  constructor(src: TrueTypeSource) {
    this.src = src;
    this.includeGlyph(0);
  }

  /** The glyph's id in the subset (pdf-lib passes fontkit glyphs). */
  includeGlyph(glyph: number | { id: number }): number {
    const gid = typeof glyph === 'number' ? glyph : glyph.id;
    let id = this.ids.get(gid);
    if (id === undefined) {
      id = this.order.length;
      this.ids.set(gid, id);
      this.order.push(gid);
    }
    return id;
  }

  encode(): Uint8Array {
    const { tables, loca, advances, bearings } = this.src;
    const glyf = tables.get('glyf')!;
    const glyphs: Uint8Array[] = [];
    // order grows while composite glyphs add their components.
    for (let i = 0; i < this.order.length; i++) {
      const gid = this.order[i];
      const data = glyf.subarray(loca[gid], loca[gid + 1]);
      if (data.length < 10) {
        glyphs.push(data); // an empty glyph (space)
        continue;
      }
      const contours = new DataView(data.buffer, data.byteOffset, data.byteLength).getInt16(0);
      if (contours < 0) {
        // Composite: renumber the components; their hinting instructions (flag 0x0100) are cut off.
        const copy = data.slice();
        const dv = new DataView(copy.buffer);
        let p = 10;
        for (;;) {
          const flags = dv.getUint16(p);
          dv.setUint16(p, flags & ~0x0100);
          dv.setUint16(p + 2, this.includeGlyph(dv.getUint16(p + 2)));
          p += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
          if (!(flags & 0x0020)) break;
        }
        glyphs.push(copy.subarray(0, p));
      } else {
        // Simple: the outline without its hinting instructions (instructionLength 0).
        const at = 10 + 2 * contours;
        const length = (data[at] << 8) | data[at + 1];
        const copy = new Uint8Array(data.length - length);
        copy.set(data.subarray(0, at));
        copy.set(data.subarray(at + 2 + length), at + 2);
        glyphs.push(copy);
      }
    }
    const n = glyphs.length;
    const pad4 = (x: number) => (x + 3) & ~3;
    const glyfOut = new Uint8Array(glyphs.reduce((sum, g) => sum + pad4(g.length), 0));
    const locaOut = new DataView(new ArrayBuffer(4 * (n + 1)));
    const hmtxOut = new DataView(new ArrayBuffer(4 * n));
    let offset = 0;
    glyphs.forEach((g, i) => {
      locaOut.setUint32(4 * i, offset);
      glyfOut.set(g, offset);
      offset += pad4(g.length);
      hmtxOut.setUint16(4 * i, advances[this.order[i]]);
      hmtxOut.setInt16(4 * i + 2, bearings[this.order[i]]);
    });
    locaOut.setUint32(4 * n, offset);
    const head = tables.get('head')!.slice();
    const headView = new DataView(head.buffer);
    headView.setUint32(8, 0); // checkSumAdjustment, set below
    headView.setInt16(50, 1); // long loca offsets
    const hhea = tables.get('hhea')!.slice();
    new DataView(hhea.buffer).setUint16(34, n);
    const maxp = tables.get('maxp')!.slice();
    new DataView(maxp.buffer).setUint16(4, n);
    const out: [string, Uint8Array][] = (
      [
        ['glyf', glyfOut],
        ['head', head],
        ['hhea', hhea],
        ['hmtx', new Uint8Array(hmtxOut.buffer)],
        ['loca', new Uint8Array(locaOut.buffer)],
        ['maxp', maxp],
      ] as [string, Uint8Array | undefined][]
    ).filter((t): t is [string, Uint8Array] => t[1] !== undefined);
    const headerLength = 12 + 16 * out.length;
    const total = out.reduce((sum, [, t]) => sum + pad4(t.length), headerLength);
    const font = new Uint8Array(total);
    const fv = new DataView(font.buffer);
    const checksum = (from: number, length: number) => {
      let sum = 0;
      for (let p = from; p < from + pad4(length); p += 4) sum = (sum + fv.getUint32(p)) >>> 0;
      return sum;
    };
    const power = 2 ** Math.floor(Math.log2(out.length));
    fv.setUint32(0, 0x00010000);
    fv.setUint16(4, out.length);
    fv.setUint16(6, power * 16);
    fv.setUint16(8, Math.log2(power));
    fv.setUint16(10, out.length * 16 - power * 16);
    let at = headerLength;
    let headAt = 0;
    out.forEach(([tag, data], i) => {
      font.set(data, at);
      const rec = 12 + 16 * i;
      for (let k = 0; k < 4; k++) font[rec + k] = tag.charCodeAt(k);
      fv.setUint32(rec + 4, checksum(at, data.length));
      fv.setUint32(rec + 8, at);
      fv.setUint32(rec + 12, data.length);
      if (tag === 'head') headAt = at;
      at += pad4(data.length);
    });
    fv.setUint32(headAt + 8, (0xb1b0afba - checksum(0, total)) >>> 0);
    return font;
  }

  /** What pdf-lib reads: a stream-like with data, end and error events. */
  encodeStream() {
    const handlers: Record<string, ((arg?: unknown) => void)[]> = {};
    const emitter = {
      on(event: string, fn: (arg?: unknown) => void) {
        (handlers[event] ??= []).push(fn);
        return emitter;
      },
    };
    queueMicrotask(() => {
      try {
        const bytes = this.encode();
        for (const fn of handlers.data ?? []) fn(bytes);
        for (const fn of handlers.end ?? []) fn();
      } catch (error) {
        for (const fn of handlers.error ?? []) fn(error);
      }
    });
    return emitter;
  }
}

/** Six capital letters from a string (FNV-1a): the subset tag of a font name ("ABCDEF+Font"). */
function subsetTag(seed: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26);
  }
  return tag;
}

export interface PdfAFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** The code points a font can draw (the same set for every document). */
  characters(font: PDFFont): Set<number>;
}

/**
 * Embeds the two fonts into `pdf` as subsets (only the glyphs drawn end up in the file). `seed`
 * names the document, so the subset tags, like the rest of the file, do not change between runs.
 */
export async function embedPdfAFonts(pdf: PDFDocument, seed: string): Promise<PdfAFonts> {
  const assets = await pdfAAssets();
  // pdf-lib asks fontkit to parse the bytes for every embedding: hand it the parsed font instead.
  const parsed = new Map<Uint8Array, FontkitFont>(Object.values(assets.fonts).map((f) => [f.bytes, f.font]));
  pdf.registerFontkit({ create: (bytes: Uint8Array) => parsed.get(bytes) ?? fontkit.create(bytes) } as unknown as Parameters<
    PDFDocument['registerFontkit']
  >[0]);
  const embed = (style: FontStyle) => {
    const f = assets.fonts[style];
    return pdf.embedFont(f.bytes, { subset: true, customName: `${subsetTag(`${seed}:${style}`)}+${f.postscriptName}` });
  };
  const [regular, bold] = await Promise.all([embed('regular'), embed('bold')]);
  const sets = new Map<PDFFont, Set<number>>([
    [regular, assets.fonts.regular.characters],
    [bold, assets.fonts.bold.characters],
  ]);
  return { regular, bold, characters: (font) => sets.get(font) ?? new Set(font.getCharacterSet()) };
}

export interface PdfAInfo {
  title: string;
  author?: string;
  subject?: string;
  creator?: string;
  producer: string;
  /** RFC 3066 tag for the catalog's /Lang, e.g. de-DE. */
  language: string;
  /** Creation and modification date (whole seconds are kept). */
  date: Date;
  /** Names the document for its trailer ID (same seed, same ID). */
  idSeed: string;
  /** rdf:Description elements to add to the XMP packet (e.g. the Factur-X extension schema). */
  xmpDescriptions?: string;
}

const xmlEscape = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
/** XML 1.0 allows no C0 controls but tab, LF, CR. */
const xmlText = (s: string) => xmlEscape(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ''));

/** An instant as XMP writes it: UTC, whole seconds (the Info dictionary's D: dates have no fraction). */
export const xmpDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The XMP packet of a PDF/A-3b document: identification, Dublin Core, XMP basic, Adobe PDF. */
export function pdfAXmp(info: PdfAInfo): string {
  const date = xmpDate(info.date);
  const dc = [
    `<dc:format>application/pdf</dc:format>`,
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.title)}</rdf:li></rdf:Alt></dc:title>`,
    info.author ? `<dc:creator><rdf:Seq><rdf:li>${xmlText(info.author)}</rdf:li></rdf:Seq></dc:creator>` : '',
    info.subject
      ? `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.subject)}</rdf:li></rdf:Alt></dc:description>`
      : '',
    `<dc:language><rdf:Bag><rdf:li>${xmlText(info.language)}</rdf:li></rdf:Bag></dc:language>`,
  ].filter(Boolean);
  return `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   ${dc.join('\n   ')}
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdf:Producer>${xmlText(info.producer)}</pdf:Producer>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreateDate>${date}</xmp:CreateDate>
   <xmp:ModifyDate>${date}</xmp:ModifyDate>
   <xmp:MetadataDate>${date}</xmp:MetadataDate>${info.creator ? `\n   <xmp:CreatorTool>${xmlText(info.creator)}</xmp:CreatorTool>` : ''}
  </rdf:Description>${info.xmpDescriptions ? `\n${info.xmpDescriptions}` : ''}
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** 16 bytes from the seed (four FNV-1a hashes with different offsets), as hex: the trailer's document ID. */
function documentId(seed: string): string {
  let hex = '';
  for (const basis of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let h = basis >>> 0;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
    hex += h.toString(16).padStart(8, '0');
  }
  return hex;
}

/**
 * Writes the Info dictionary, the XMP metadata stream, the sRGB output intent and the trailer ID.
 * Call last, before `save()`, on a document created with `updateMetadata: false` (so pdf-lib adds
 * no Info entries of its own that the XMP would not repeat).
 */
export async function finishPdfA(pdf: PDFDocument, info: PdfAInfo): Promise<void> {
  const assets = await pdfAAssets();
  const context = pdf.context;
  const catalog = pdf.catalog;
  const date = new Date(Math.floor(info.date.getTime() / 1000) * 1000);
  const at = Number.isNaN(date.getTime()) ? new Date(0) : date;
  const full = { ...info, date: at };

  pdf.setTitle(info.title, { showInWindowTitleBar: true });
  if (info.author) pdf.setAuthor(info.author);
  if (info.subject) pdf.setSubject(info.subject);
  if (info.creator) pdf.setCreator(info.creator);
  pdf.setProducer(info.producer);
  pdf.setCreationDate(at);
  pdf.setModificationDate(at);
  pdf.setLanguage(info.language);

  const metadata = context.stream(new TextEncoder().encode(pdfAXmp(full)), { Type: 'Metadata', Subtype: 'XML' });
  catalog.set(PDFName.of('Metadata'), context.register(metadata));

  const profile = context.register(context.stream(assets.srgbDeflated, { N: 3, Filter: 'FlateDecode' }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
    RegistryName: PDFString.of('http://www.color.org'),
    Info: PDFString.of(SRGB_CONDITION),
    DestOutputProfile: profile,
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));

  const id = PDFHexString.of(documentId(info.idSeed));
  context.trailerInfo.ID = context.obj([id, id]);
}
