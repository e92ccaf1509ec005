import { isIP } from 'node:net';
import { z } from 'zod';
import { isTimeZone } from '../common/admin.js';
import { DEFAULT_MAX_UPLOAD_MB } from '../common/library.js';

const port = z.coerce.number().int().min(1).max(65535);
const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();
const optionalUrl = (protocols: RegExp, hint: string) =>
  optionalText.refine((value) => value === undefined || protocols.test(value), { message: hint });

type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * Which proxies may tell us the caller's address through X-Forwarded-For. Off by default: trusting the
 * header blindly would let anyone pick a new address per request and walk past per-address limits.
 * 'true' trusts any proxy (only behind one that overwrites the header), a number trusts that many hops,
 * or give the proxies' addresses/CIDRs separated by commas.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): TrustProxy => {
    if (/^(false|no|0)$/i.test(value)) return false;
    if (/^(true|yes)$/i.test(value)) return true;
    // N hops: trust the N proxies nearest to us (proxy-addr's meaning of a number).
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      return (_address: string, hop: number) => hop < hops;
    }
    const proxies = value.split(',').map((part) => part.trim());
    if (proxies.every((p) => isIP(p.replace(/\/\d{1,3}$/, '')) !== 0)) return proxies;
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count, or proxy addresses/CIDRs separated by commas',
    });
    return z.NEVER;
  });

/** http(s) URLs separated by commas (RELAY_URLS). */
const urlList = z
  .string()
  .trim()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .refine((urls) => urls.every((url) => /^https?:\/\/[^\s,]+$/.test(url)), {
    message: 'must be http(s) URLs separated by commas',
  });

/** What one process does when a station grows past one machine (docs/decisions/016-roles-and-relays.md). */
export const STATION_ROLES = ['all', 'broadcaster', 'web'] as const;
export type StationRole = (typeof STATION_ROLES)[number];

const envSchema = z
  .object({
    PORT: port.default(5000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    DATABASE_URL: optionalUrl(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
    REDIS_URL: optionalUrl(/^rediss?:\/\//, 'must be a redis:// URL'),
    // Keys and channels start with it, so two stations (or test runs) can share one Redis.
    REDIS_PREFIX: z
      .string()
      .trim()
      .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits or . _ : -')
      .default('station:'),
    STATION_NAME: z.string().trim().min(1).max(80).default('Grace Live Radio'),
    NETWORK_NAME: z.string().trim().min(1).max(80).default('Grace Church Network'),
    NETWORK_URL: z
      .string()
      .trim()
      .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
      .default('https://example.org'),
    STATION_TIMEZONE: z
      .string()
      .trim()
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/London')
      .default('UTC'),
    SOURCE_PASSWORD: optionalText.refine(
      (v) => v === undefined || v.length >= 8,
      'must be at least 8 characters',
    ),
    ADMIN_USERNAME: optionalText.refine(
      (v) => v === undefined || v.length >= 3,
      'must be at least 3 characters',
    ),
    ADMIN_PASSWORD: optionalText.refine(
      (v) => v === undefined || v.length >= 8,
      'must be at least 8 characters',
    ),
    SMTP_URL: optionalUrl(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
    SMTP_FROM: optionalText.refine(
      (v) => v === undefined || /^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v),
      'must be an e-mail address, optionally as Name <address>',
    ),
    PUBLIC_URL: optionalUrl(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
    STREAM_SOURCE: optionalUrl(/^(icecast|url):https?:\/\/\S+$/, 'must be icecast:URL or url:URL'),
    GEOIP_DB: optionalText,
    STREAM_STATUS_URL: optionalUrl(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
    SUBTITLE_INGEST_KEY: optionalText.refine(
      (v) => v === undefined || v.length >= 16,
      'must be at least 16 characters',
    ),
    MAX_LISTENERS_PER_ADDRESS: z.coerce
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .default(500),
    MAX_SOCKETS_PER_ADDRESS: z.coerce
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .default(500),
    MAX_UPLOAD_MB: z.coerce
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(100_000, 'must be at most 100000')
      .default(DEFAULT_MAX_UPLOAD_MB),
    // Captions from speech (docs/decisions/040): which recogniser the Captions tab turns on.
    SPEECH_ENGINE: z
      .enum(['none', 'pocketsphinx', 'openai'], { message: 'must be none, pocketsphinx or openai' })
      .default('pocketsphinx'),
    SPEECH_SERVER_URL: optionalUrl(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
    SPEECH_SERVER_KEY: optionalText,
    SPEECH_SERVER_MODEL: z.string().trim().min(1).max(200).default('whisper-1'),
    TRANSLATE_URL: optionalUrl(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
    TRANSLATE_API_KEY: optionalText,
    TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
    TRANSLATE_LANGUAGES: z
      .string()
      .trim()
      .default('en,es,fr,de,pt,zh,ar,hi,ru,ja,ko')
      .transform((v) =>
        v
          .split(',')
          .map((code) => code.trim())
          .filter(Boolean),
      )
      .refine(
        (codes) => codes.every((code) => /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(code)),
        'must be language codes separated by commas',
      ),
    // Unset: decided with NODE_ENV and PUBLIC_URL below (seedsSampleContent).
    SEED_DEMO: z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1' || v === 'yes')
      .optional(),
    NODE_ENV: optionalText,
    TRUST_PROXY: trustProxy,
    STATION_ROLE: z.enum(STATION_ROLES, { message: 'must be all, broadcaster or web' }).default('all'),
    BROADCASTER_URL: optionalUrl(/^https?:\/\/\S+$/, 'must be an http(s) URL'),
    RELAY_URLS: urlList,
    RELAY_STATUS_URLS: urlList,
    RELAY_PICK: z
      .enum(['least-listeners', 'round-robin'], { message: 'must be least-listeners or round-robin' })
      .default('least-listeners'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_USERNAME ? 'ADMIN_PASSWORD' : 'ADMIN_USERNAME'],
        message: 'must be set together with ADMIN_USERNAME and ADMIN_PASSWORD',
      });
    }
    // The links in e-mails must not come from a request's Host header, which the sender chooses.
    if (env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'must be set when SMTP_URL is set (the links in e-mails use it)',
      });
    }
    if (env.SPEECH_ENGINE === 'openai' && !env.SPEECH_SERVER_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SPEECH_SERVER_URL'],
        message: 'must be set when SPEECH_ENGINE=openai (its /v1/audio/transcriptions address)',
      });
    }
    if (env.RELAY_STATUS_URLS.length && env.RELAY_STATUS_URLS.length !== env.RELAY_URLS.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['RELAY_STATUS_URLS'],
        message: 'must list as many addresses as RELAY_URLS, in the same order',
      });
    }
    // Several processes make one station only when they share the database and the bus.
    if (env.STATION_ROLE !== 'all') {
      const needs = (name: 'DATABASE_URL' | 'REDIS_URL' | 'BROADCASTER_URL', why: string) =>
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `must be set when STATION_ROLE=${env.STATION_ROLE} (${why})`,
        });
      if (!env.DATABASE_URL) needs('DATABASE_URL', 'every instance shares one PostgreSQL database');
      if (!env.REDIS_URL) needs('REDIS_URL', 'now playing travels between instances through Redis');
      if (env.STATION_ROLE === 'web' && !env.BROADCASTER_URL)
        needs('BROADCASTER_URL', 'listeners and clips are sent to the broadcaster');
    }
  });

export type Env = z.infer<typeof envSchema>;

/**
 * Whether a first start fills the station with sample content (docs/decisions/030-sample-content.md): as
 * SEED_DEMO says when it is set; otherwise only on a station being tried out, not one started for
 * production (NODE_ENV=production) or already given its public address (PUBLIC_URL).
 */
export function seedsSampleContent(env: Pick<Env, 'SEED_DEMO' | 'NODE_ENV' | 'PUBLIC_URL'>): boolean {
  return env.SEED_DEMO ?? !(env.NODE_ENV === 'production' || env.PUBLIC_URL);
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Starts every key and channel on the shared Redis ('station:'): stations sharing one Redis never meet. */
  redisPrefix: string;
  station: { name: string; networkName: string; networkUrl: string; timeZone: string };
  sourcePassword?: string;
  admin?: { username: string; password: string };
  /** Newsletter e-mail (double opt-in) goes out through this server; PUBLIC_URL is then set too. */
  smtpUrl?: string;
  /** The From of the station's e-mail; newsletter@ PUBLIC_URL's host when unset. */
  smtpFrom?: string;
  publicUrl?: string;
  streamSource?: string;
  /** A MaxMind country or city database (.mmdb) for the 'Countries' figure; DATA_DIR/GeoLite2-Country.mmdb when present. */
  geoipDb?: string;
  /** Now-playing status of the external station (Icecast, Radio.co-style or AzuraCast JSON). */
  streamStatusUrl?: string;
  subtitleIngestKey?: string;
  /** The recogniser captions from speech use (docs/decisions/040); none: the feature cannot be turned on. */
  speech:
    | { engine: 'none' }
    | { engine: 'pocketsphinx' }
    | { engine: 'openai'; url: string; apiKey?: string; model: string };
  /** A LibreTranslate-compatible service for caption languages not supplied; off when unset. */
  translate?: { url: string; apiKey?: string; timeoutMs: number; languages: string[] };
  /** Sample programmes and featured items on first start (seedsSampleContent). */
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Listeners one address may hold open on /stream at once (a church behind one NAT shares an address). */
  maxListenersPerAddress: number;
  /** The largest audio file the Library tab takes, in MB (MAX_UPLOAD_MB). */
  maxUploadMb: number;
  /** /ws sockets one address may hold open on this instance at once (a church behind one NAT shares an address). */
  maxSocketsPerAddress: number;
  /** Fastify's trustProxy: whose X-Forwarded-For decides request.ip (per-address sign-in limits rely on it). */
  trustProxy: TrustProxy;
  /** all: one process does everything; broadcaster: the radio engine (exactly one); web: pages, API and /ws. */
  role: StationRole;
  /** How web instances reach the broadcaster (and where listeners go when there are no relays). */
  broadcasterUrl?: string;
  /** Icecast relays pulling /stream: listeners are sent to them and their listeners are counted. */
  relays: {
    urls: string[];
    /** Where this instance reads each relay's status, when it reaches them otherwise than listeners do. */
    statusUrls: string[];
    pick: Env['RELAY_PICK'];
  };
}

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    station: {
      name: e.STATION_NAME,
      networkName: e.NETWORK_NAME,
      networkUrl: e.NETWORK_URL,
      timeZone: e.STATION_TIMEZONE,
    },
    sourcePassword: e.SOURCE_PASSWORD,
    admin:
      e.ADMIN_USERNAME && e.ADMIN_PASSWORD
        ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD }
        : undefined,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    publicUrl: e.PUBLIC_URL,
    streamSource: e.STREAM_SOURCE,
    geoipDb: e.GEOIP_DB,
    streamStatusUrl: e.STREAM_STATUS_URL,
    subtitleIngestKey: e.SUBTITLE_INGEST_KEY,
    speech:
      e.SPEECH_ENGINE === 'openai'
        ? {
            engine: 'openai',
            url: e.SPEECH_SERVER_URL!,
            apiKey: e.SPEECH_SERVER_KEY,
            model: e.SPEECH_SERVER_MODEL,
          }
        : { engine: e.SPEECH_ENGINE },
    translate: e.TRANSLATE_URL
      ? {
          url: e.TRANSLATE_URL,
          apiKey: e.TRANSLATE_API_KEY,
          timeoutMs: e.TRANSLATE_TIMEOUT_MS,
          languages: e.TRANSLATE_LANGUAGES,
        }
      : undefined,
    seedDemo: seedsSampleContent(e),
    logLevel: e.LOG_LEVEL,
    maxListenersPerAddress: e.MAX_LISTENERS_PER_ADDRESS,
    maxSocketsPerAddress: e.MAX_SOCKETS_PER_ADDRESS,
    maxUploadMb: e.MAX_UPLOAD_MB,
    trustProxy: e.TRUST_PROXY,
    role: e.STATION_ROLE,
    broadcasterUrl: e.BROADCASTER_URL?.replace(/\/+$/, ''),
    relays: {
      urls: e.RELAY_URLS,
      statusUrls: e.RELAY_STATUS_URLS.length ? e.RELAY_STATUS_URLS : e.RELAY_URLS,
      pick: e.RELAY_PICK,
    },
  };
}
