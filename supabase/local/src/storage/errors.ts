import { HttpError } from '../http.ts';
import { isPgError } from '../db/types.ts';

/**
 * Supabase Storage's error responses: a JSON body {statusCode, code, error, message} where
 * statusCode is the error's own status as a string, while the HTTP status is 400 for every
 * error that is not a 500 (Storage's `userStatusCode`). `error` is the legacy name when the
 * error has one, else the code.
 */
export class StorageError extends HttpError {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    legacyError?: string,
    httpStatus?: number,
  ) {
    super(httpStatus ?? (statusCode === 500 ? 500 : 400), {
      statusCode: String(statusCode),
      code,
      error: legacyError ?? code,
      message,
    });
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  invalidKey: (key: string, reason?: string) =>
    new StorageError(400, 'InvalidKey', reason ? `Invalid key: ${key} ${reason}` : `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  accessDenied: (message = 'Access denied') => new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') => new StorageError(400, 'InvalidSignature', message),
  expiredSignature: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  invalidMimeType: (mime: string) => new StorageError(415, 'InvalidMimeType', `mime type ${mime} is not supported`, 'invalid_mime_type'),
  entityTooLarge: (entity = 'object', limit = 'the maximum allowed size') =>
    new StorageError(413, 'EntityTooLarge', `The ${entity} exceeded ${limit}`, 'Payload too large'),
  keyAlreadyExists: () => new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  resourceAlreadyExists: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidRequest: (message = 'Invalid Request') => new StorageError(400, 'InvalidRequest', message),
  invalidParameter: (name: string) => new StorageError(400, 'InvalidParameter', `Invalid Parameter ${name}`),
  missingParameter: (name: string) => new StorageError(400, 'MissingParameter', `Missing Required Parameter ${name}`),
  noContent: (message = 'No content provided') => new StorageError(400, 'InvalidRequest', message),
  invalidFileSizeLimit: () => new StorageError(400, 'InvalidRequest', 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  referenced: () =>
    new StorageError(409, 'ResourceReferenced', 'The resource could not be updated or removed due to a foreign key constraint'),
};

/** Maps a Postgres error the way Storage's database layer does (RLS, duplicates, references). */
export function mapDbError(error: unknown): unknown {
  if (!isPgError(error)) return error;
  const e = error as { code: string; message: string; detail?: string };
  switch (e.code) {
    case '42501':
      return errors.accessDenied(e.message.includes('row-level security') ? 'new row violates row-level security policy' : e.message);
    case '23505':
      return errors.resourceAlreadyExists();
    case '23503':
      return e.detail?.includes('is still referenced from table')
        ? errors.referenced()
        : new StorageError(404, 'InvalidRequest', 'The related resource does not exist');
    case '57014':
      return new StorageError(544, 'DatabaseTimeout', 'The connection to the database timed out', undefined, 544);
    default:
      return new StorageError(500, 'DatabaseError', e.message);
  }
}
