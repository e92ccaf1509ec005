import {
  ACCEPTED_IMAGE_TYPES,
  FILE_TOO_LARGE,
  INVALID_FILE_TYPE,
  MAX_IMAGE_UPLOAD_BYTES,
} from '../../../../common/featured-content';

/**
 * SPEC.md section 5: only JPEG, JPG, PNG, GIF and WebP up to 5 MB are sent. The server checks the
 * bytes as well, so a file merely named like an image is refused there with its own message.
 */
export function imageFileProblem(
  file: Pick<File, 'type' | 'size'>,
): { title: string; message: string } | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return INVALID_FILE_TYPE;
  if (file.size > MAX_IMAGE_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}
