import { StorageError } from './errors.ts';
import { optionalEnum, optionalInteger, optionalNumber } from './validate.ts';

/**
 * Image transformation as Supabase Storage does it with imgproxy, done here with sharp (libvips,
 * like imgproxy): the same options, the same limits, the same resize modes and format choice,
 * the same errors. Sources: supabase/storage src/storage/renderer/image.ts and
 * src/http/schemas/transformations.ts, imgproxy's processing options, Supabase's
 * image-transformation guide (hosted limits).
 */
export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: string;
  format?: 'origin' | 'avif' | 'webp';
  quality?: number;
  gravity?: Gravity;
  x_offset?: number;
  y_offset?: number;
}

const GRAVITIES = ['no', 'so', 'ea', 'we', 'noea', 'nowe', 'soea', 'sowe', 'ce', 'sm', 'fp'] as const;
type Gravity = (typeof GRAVITIES)[number];

/** Hosted Supabase: width and height 1-2500 (clamped), source up to 25 MB and 50 megapixels. */
export const IMAGE_LIMITS = { minSize: 1, maxSize: 2500, maxSourceBytes: 25 * 1024 * 1024, maxSourcePixels: 50_000_000 };
/** imgproxy's default quality. */
const DEFAULT_QUALITY = 80;

const imageError = (message: string) => new StorageError(400, 'InvalidRequest', message);
const unsupportedSource = () => imageError('The source image is invalid or unsupported for rendering');

/** The transformation options of a render URL's query or a sign body's `transform`. */
export function parseTransformOptions(input: Record<string, unknown>, where: 'querystring' | 'body/transform'): TransformOptions {
  const options: TransformOptions = {
    height: optionalInteger(input.height, `${where}/height`, { min: 0 }),
    width: optionalInteger(input.width, `${where}/width`, { min: 0 }),
    resize: optionalEnum(input.resize, `${where}/resize`, ['cover', 'contain', 'fill'] as const),
    format: optionalEnum(input.format, `${where}/format`, ['origin', 'avif', 'webp'] as const),
    quality: optionalInteger(input.quality, `${where}/quality`, { min: 20, max: 100 }),
    gravity: optionalEnum(input.gravity, `${where}/gravity`, GRAVITIES),
    x_offset: optionalNumber(input.x_offset, `${where}/x_offset`),
    y_offset: optionalNumber(input.y_offset, `${where}/y_offset`),
  };
  if (options.gravity === 'fp') {
    for (const axis of ['x_offset', 'y_offset'] as const) {
      const v = options[axis];
      if (v === undefined) throw new StorageError(400, 'InvalidRequest', `${where} must have required property '${axis}'`);
      if (v < 0) throw new StorageError(400, 'InvalidRequest', `${where}/${axis} must be >= 0`);
      if (v > 1) throw new StorageError(400, 'InvalidRequest', `${where}/${axis} must be <= 1`);
    }
  }
  return options;
}

const clamp = (n: number) => Math.min(Math.max(n, IMAGE_LIMITS.minSize), IMAGE_LIMITS.maxSize);

/**
 * Storage's imgproxy segments (the X-Transformations header); `keepOriginal` gives the form a
 * signed URL's token carries (`resize:<mode>`, read back by `parseTransformString`).
 */
export function transformSegments(options: TransformOptions, keepOriginal = false): string[] {
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height)}`);
  if (options.width) segments.push(`width:${clamp(options.width)}`);
  if (options.width || options.height) {
    segments.push(keepOriginal ? `resize:${options.resize}` : `resizing_type:${resizingType(options.resize)}`);
  }
  if (options.quality) segments.push(`quality:${options.quality}`);
  if (options.format && options.format !== 'origin') segments.push(`format:${options.format}`);
  if (options.gravity === 'sm') segments.push('gravity:sm');
  else if (options.gravity === 'fp') segments.push(`gravity:fp:${options.x_offset}:${options.y_offset}`);
  else if (options.gravity) {
    const { x_offset: x, y_offset: y } = options;
    segments.push(x === undefined && y === undefined ? `gravity:${options.gravity}` : `gravity:${options.gravity}:${x ?? 0}:${y ?? 0}`);
  }
  return segments;
}

/** imgproxy's resizing types for Storage's modes: cover = fill, contain = fit, fill = force. */
function resizingType(resize: string | undefined): 'fill' | 'fit' | 'force' {
  return resize === 'contain' ? 'fit' : resize === 'fill' ? 'force' : 'fill';
}

/** A signed URL's `transformations` claim back to options (Storage's setTransformationsFromString). */
export function parseTransformString(text: string): TransformOptions {
  const options: TransformOptions = {};
  for (const param of text.split(',')) {
    const [name, value, x, y] = param.split(':');
    if (value === undefined || value === '') continue;
    if (name === 'height') options.height = parseInt(value, 10);
    else if (name === 'width') options.width = parseInt(value, 10);
    else if (name === 'resize') options.resize = value;
    else if (name === 'format') options.format = value as TransformOptions['format'];
    else if (name === 'quality') options.quality = parseInt(value, 10);
    else if (name === 'gravity') {
      options.gravity = value as Gravity;
      if (x !== undefined && x !== '' && Number.isFinite(parseFloat(x))) options.x_offset = parseFloat(x);
      if (y !== undefined && y !== '' && Number.isFinite(parseFloat(y))) options.y_offset = parseFloat(y);
    }
  }
  return options;
}

const OUTPUT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
};
const SHARP_POSITIONS: Record<string, string> = {
  no: 'north',
  so: 'south',
  ea: 'east',
  we: 'west',
  noea: 'northeast',
  nowe: 'northwest',
  soea: 'southeast',
  sowe: 'southwest',
  ce: 'centre',
};

/**
 * Renders `source` as imgproxy does for Storage: auto-rotated by EXIF, scaled by the resize
 * mode (never enlarged, imgproxy's default), cropped by the gravity for cover, and saved as the
 * requested format, else WebP when the client accepts it (unless format=origin), else the
 * source's format, at quality 80 unless asked otherwise.
 */
export async function renderImage(source: Buffer, options: TransformOptions, accept: string | undefined) {
  const sharp = (await import('sharp')).default;
  if (source.length > IMAGE_LIMITS.maxSourceBytes) throw imageError('The source image file is too large to process');
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(source).metadata();
  } catch {
    throw unsupportedSource();
  }
  const sourceFormat = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  if (!sourceFormat || !OUTPUT_TYPES[sourceFormat]) throw unsupportedSource();
  const oriented = meta.autoOrient ?? meta;
  const W = oriented.width;
  const H = oriented.height;
  if (!W || !H) throw unsupportedSource();
  if (W * H > IMAGE_LIMITS.maxSourcePixels) throw imageError('The source image resolution is too large to process');
  if (options.gravity && options.gravity !== 'fp' && (options.x_offset !== undefined || options.y_offset !== undefined)) {
    throw new StorageError(400, 'InvalidParameter', 'Gravity offsets are not implemented by the local stack (only fp uses them)');
  }

  const w = options.width ? clamp(options.width) : 0;
  const h = options.height ? clamp(options.height) : 0;
  const type = resizingType(options.resize);
  let image = sharp(source, { animated: false }).rotate();
  if (w || h) {
    const sw = w ? w / W : 0;
    const sh = h ? h / H : 0;
    let scaleX: number;
    let scaleY: number;
    if (type === 'force') {
      scaleX = sw || sh;
      scaleY = sh || sw;
    } else {
      const scale = type === 'fit' ? Math.min(sw || Infinity, sh || Infinity) : Math.max(sw, sh);
      scaleX = scale;
      scaleY = scale;
    }
    // No enlargement (imgproxy's default): a small image stays as large as it is.
    scaleX = Math.min(scaleX, 1);
    scaleY = Math.min(scaleY, 1);
    const rw = Math.max(1, Math.round(W * scaleX));
    const rh = Math.max(1, Math.round(H * scaleY));
    image = image.resize(rw, rh, { fit: 'fill' });
    if (type === 'fill') {
      const cw = Math.min(w || rw, rw);
      const ch = Math.min(h || rh, rh);
      if (cw < rw || ch < rh) {
        const scaled = await image.toBuffer();
        if (options.gravity === 'fp') {
          const left = Math.round(Math.min(Math.max((options.x_offset ?? 0.5) * rw - cw / 2, 0), rw - cw));
          const top = Math.round(Math.min(Math.max((options.y_offset ?? 0.5) * rh - ch / 2, 0), rh - ch));
          image = sharp(scaled).extract({ left, top, width: cw, height: ch });
        } else {
          const position = options.gravity === 'sm' ? sharp.strategy.attention : SHARP_POSITIONS[options.gravity ?? 'ce'];
          image = sharp(scaled).resize(cw, ch, { fit: 'cover', position });
        }
      }
    }
  }

  const format =
    options.format === 'webp' || options.format === 'avif'
      ? options.format
      : options.format !== 'origin' && /image\/webp/i.test(accept ?? '')
        ? 'webp'
        : sourceFormat;
  const quality = options.quality ?? DEFAULT_QUALITY;
  if (format === 'jpeg') image = image.jpeg({ quality });
  else if (format === 'webp') image = image.webp({ quality });
  else if (format === 'avif') image = image.avif({ quality });
  else if (format === 'png') image = image.png();
  else if (format === 'gif') image = image.gif();
  else image = image.tiff({ quality });
  try {
    return { data: await image.toBuffer(), contentType: OUTPUT_TYPES[format] };
  } catch {
    throw unsupportedSource();
  }
}
