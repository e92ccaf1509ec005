import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** What every instance of a station grown past one machine shares. */
const SHARED = { DATABASE_URL: 'postgres://u@db:5432/radio', REDIS_URL: 'redis://redis:6379' };

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 5000, host: '0.0.0.0', dataDir: './data', seedDemo: true });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.admin).toBeUndefined();
    expect(config.station.timeZone).toBe('UTC');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(5000);
  });

  it('reads a full environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/radio',
      STATION_NAME: 'Hope FM',
      STATION_TIMEZONE: 'America/Chicago',
      ADMIN_USERNAME: 'pastor',
      ADMIN_PASSWORD: 'correct horse',
      SEED_DEMO: 'false',
      STREAM_SOURCE: 'icecast:http://radio.example:8000/live',
    });
    expect(config.port).toBe(8080);
    expect(config.station.name).toBe('Hope FM');
    expect(config.admin).toEqual({ username: 'pastor', password: 'correct horse' });
    expect(config.seedDemo).toBe(false);
  });

  // docs/decisions/030-sample-content.md: a station tried out gets sample content, one put into service does not.
  it.each([
    [{}, true],
    [{ NODE_ENV: 'development' }, true],
    [{ NODE_ENV: 'test' }, true],
    [{ NODE_ENV: 'production' }, false],
    [{ PUBLIC_URL: 'https://hope.example' }, false],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'https://hope.example' }, false],
    [{ NODE_ENV: 'production', SEED_DEMO: 'true' }, true],
    [{ PUBLIC_URL: 'https://hope.example', SEED_DEMO: 'yes' }, true],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'https://hope.example', SEED_DEMO: '1' }, true],
    [{ SEED_DEMO: 'false' }, false],
    [{ SEED_DEMO: 'no' }, false],
    [{ NODE_ENV: 'development', SEED_DEMO: '0' }, false],
    [{ PUBLIC_URL: '', SEED_DEMO: '' }, true],
  ])('seeds sample content for %o: %s', (env, seeds) => {
    expect(loadConfig(env).seedDemo).toBe(seeds);
  });

  it.each(['maybe', 'TRUE ', 'on', '2'])('refuses SEED_DEMO=%s with one line', (value) => {
    expect(() => loadConfig({ SEED_DEMO: value })).toThrow(
      new ConfigError('Invalid environment variable SEED_DEMO: must be true or false'),
    );
  });

  it('reads the newsletter e-mail settings', () => {
    const config = loadConfig({
      SMTP_URL: 'smtp://user:pass@mail.example.org:587',
      SMTP_FROM: 'Hope FM <news@hope.example>',
      PUBLIC_URL: 'https://hope.example',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtp://user:pass@mail.example.org:587',
      smtpFrom: 'Hope FM <news@hope.example>',
      publicUrl: 'https://hope.example',
    });
    expect(loadConfig({ SMTP_FROM: 'news@hope.example' }).smtpFrom).toBe('news@hope.example');
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['REDIS_URL', { REDIS_URL: 'http://x' }],
    ['REDIS_PREFIX', { REDIS_PREFIX: 'two words' }],
    ['STATION_TIMEZONE', { STATION_TIMEZONE: 'Mars/Olympus' }],
    ['NETWORK_URL', { NETWORK_URL: 'example.org' }],
    ['SEED_DEMO', { SEED_DEMO: 'maybe' }],
    ['SOURCE_PASSWORD', { SOURCE_PASSWORD: 'short' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'pastor' }],
    ['ADMIN_USERNAME', { ADMIN_PASSWORD: 'long enough' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'pastor', ADMIN_PASSWORD: 'short' }],
    ['STREAM_SOURCE', { STREAM_SOURCE: 'ftp://x' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.org' }],
    ['PUBLIC_URL', { SMTP_URL: 'smtp://mail.example.org:25' }],
    ['SMTP_FROM', { SMTP_FROM: 'not an address' }],
    ['SMTP_FROM', { SMTP_FROM: 'Radio <radio@example.org>\nBcc: x@y.z' }],
    ['STATION_ROLE', { STATION_ROLE: 'relay' }],
    ['DATABASE_URL', { ...SHARED, DATABASE_URL: '', STATION_ROLE: 'broadcaster' }],
    ['REDIS_URL', { ...SHARED, REDIS_URL: '', STATION_ROLE: 'broadcaster' }],
    ['BROADCASTER_URL', { ...SHARED, STATION_ROLE: 'web' }],
    ['BROADCASTER_URL', { ...SHARED, STATION_ROLE: 'web', BROADCASTER_URL: 'broadcaster:5000' }],
    ['RELAY_URLS', { RELAY_URLS: 'http://relay-1:8000/stream,relay-2:8000/stream' }],
    ['RELAY_PICK', { RELAY_PICK: 'random' }],
  ])('stops with one line naming %s', (name, env) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('runs everything in one process by default, with no relays', () => {
    const config = loadConfig({});
    expect(config.role).toBe('all');
    expect(config.relays).toEqual({ urls: [], statusUrls: [], pick: 'least-listeners' });
    expect(config.broadcasterUrl).toBeUndefined();
  });

  it.each([
    [{ STATION_ROLE: 'all' }, 'all'],
    [{ ...SHARED, STATION_ROLE: 'broadcaster' }, 'broadcaster'],
    [{ ...SHARED, STATION_ROLE: 'web', BROADCASTER_URL: 'http://broadcaster:5000/' }, 'web'],
  ])('reads STATION_ROLE %j', (env, role) => {
    expect(loadConfig(env).role).toBe(role);
  });

  it('keeps its Redis keys under station: unless REDIS_PREFIX names another prefix', () => {
    expect(loadConfig(SHARED).redisPrefix).toBe('station:');
    expect(loadConfig({ ...SHARED, REDIS_PREFIX: ' hope-fm: ' }).redisPrefix).toBe('hope-fm:');
  });

  it('reads the broadcaster address and the relays', () => {
    const config = loadConfig({
      ...SHARED,
      STATION_ROLE: 'web',
      BROADCASTER_URL: 'http://broadcaster:5000/',
      RELAY_URLS: ' https://relay-1.example.org/stream , http://relay-2.example.org:8000/stream ,',
      RELAY_PICK: 'round-robin',
    });
    expect(config.broadcasterUrl).toBe('http://broadcaster:5000');
    expect(config.relays).toEqual({
      urls: ['https://relay-1.example.org/stream', 'http://relay-2.example.org:8000/stream'],
      statusUrls: ['https://relay-1.example.org/stream', 'http://relay-2.example.org:8000/stream'],
      pick: 'round-robin',
    });
  });

  it('reads where the relays answer their status inside the network, one for each relay', () => {
    const config = loadConfig({
      ...SHARED,
      RELAY_URLS: 'http://localhost:8000/stream',
      RELAY_STATUS_URLS: 'http://relay:8000/stream',
    });
    expect(config.relays.statusUrls).toEqual(['http://relay:8000/stream']);
    expect(() =>
      loadConfig({
        ...SHARED,
        RELAY_URLS: 'http://a/stream,http://b/stream',
        RELAY_STATUS_URLS: 'http://a/stream',
      }),
    ).toThrow(/RELAY_STATUS_URLS: must list as many addresses as RELAY_URLS/);
  });
});
