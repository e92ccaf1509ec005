// Owns: types for icecast-metadata-js (it ships none); the tests use its ICY reader as an independent parser.
// Must not: declare more of it than the tests use.
declare module 'icecast-metadata-js' {
  export interface IcecastReadValue {
    stream?: Uint8Array;
    metadata?: Record<string, string>;
  }
  export class IcecastMetadataReader {
    constructor(options?: {
      icyMetaInt?: number;
      metadataTypes?: ('icy' | 'ogg')[];
      onError?: (message: string) => void;
    });
    iterator(data: Uint8Array): Iterable<IcecastReadValue>;
  }
}
