// Share texts without zod, so the home page's share card can use them.

/** SPEC.md section 8 (share): toasts. */
export const SHARE_TEXT = {
  linkCopied: 'Link copied!',
  copyFailed: 'Copy failed',
  copyManually: 'Please copy the link manually',
  shared: 'Shared successfully!',
} as const;
